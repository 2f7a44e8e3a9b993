#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs every test case of portacl_tests, each in its own process, several
processes at a time on one device, and prints one summary line.

    tools/run-suite-parallel.py BUILD/tests/portacl_tests [--jobs N]
        [--durations FILE] [--log DIR] [--timeout S] [-- CATCH_FILTER...]

Every case runs once (no tag filter: the whole suite, as one process would
run it), with one seed for all (PORTACL_TEST_SEED, drawn here unless set).
Cases start longest first, by the durations FILE of an earlier run (cases it
does not know start first of all); the run writes FILE anew with this run's
durations. Each case's output goes to DIR/cases/<k>.log; a failed case's
log is printed. The device is the environment's (PORTACL_TEST_DEVICE).

The last line is the summary, e.g.
  suite: 378 test cases, 378 passed, 0 failed; 311712 assertions, 0 failed;
  16 processes; 171.4 s on gpu (seed 123)
and the exit status is 0 only when every case passed.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

SPECIAL = set('\\,[]"*~')


def escape(name):
    """A test name as an exact Catch2 v2 test spec (its special characters escaped)."""
    return "".join("\\" + c if c in SPECIAL else c for c in name)


def list_cases(binary, env, filters):
    # Catch2 v2 exits with the number of cases listed, so the status says nothing.
    out = subprocess.run([binary, "--list-test-names-only", *filters], env=env, capture_output=True,
                         text=True).stdout
    return [line for line in out.splitlines() if line.strip() and not line.startswith("portacl tests:")]


def read_durations(path):
    known = {}
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                seconds, _, name = line.rstrip("\n").partition("\t")
                try:
                    known[name] = float(seconds)
                except ValueError:
                    pass
    return known


TOTALS = re.compile(r"test cases:\s*(\d+)(?:\s*\|\s*(\d+) passed)?(?:\s*\|\s*(\d+) failed)?")
ASSERTIONS = re.compile(r"assertions:\s*(\d+)(?:\s*\|\s*(\d+) passed)?(?:\s*\|\s*(\d+) failed)?")
ALL_PASSED = re.compile(r"All tests passed \((\d+) assertions? in (\d+) test cases?\)")


def run_case(k, name, binary, env, log_dir, timeout):
    start = time.monotonic()
    path = os.path.join(log_dir, f"{k}.log")
    with open(path, "w", encoding="utf-8") as log:
        log.write(f"== {name}\n")
        log.flush()
        try:
            rc = subprocess.run([binary, escape(name)], env=env, stdout=log, stderr=subprocess.STDOUT,
                                timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    seconds = time.monotonic() - start
    with open(path, encoding="utf-8", errors="replace") as log:
        text = log.read()
    assertions = failed_assertions = 0
    ran = 0
    m = ALL_PASSED.search(text)
    if m:
        assertions, ran = int(m.group(1)), int(m.group(2))
    else:
        t, a = TOTALS.search(text), ASSERTIONS.search(text)
        if t:
            ran = int(t.group(1))
        if a:
            assertions = int(a.group(1))
            failed_assertions = int(a.group(3) or 0)
    passed = rc == 0 and ran == 1
    return {"name": name, "seconds": seconds, "rc": rc, "passed": passed, "assertions": assertions,
            "failed_assertions": failed_assertions, "log": path, "text": text}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("binary")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--durations", help="durations of an earlier run: longest start first; written anew")
    p.add_argument("--log", default="suite-logs", help="folder for each case's log")
    p.add_argument("--timeout", type=float, default=600, help="seconds one case may take")
    p.add_argument("filters", nargs="*", help="Catch2 test specs (default: every case)")
    a = p.parse_args()
    env = dict(os.environ)
    env.setdefault("PORTACL_TEST_SEED", str(random.getrandbits(63)))
    device = env.get("PORTACL_TEST_DEVICE") or "cpu"
    cases = list_cases(a.binary, env, a.filters)
    if len(set(cases)) != len(cases):
        sys.exit("run-suite-parallel: two test cases share a name; each must be unique")
    known = read_durations(a.durations)
    cases.sort(key=lambda c: -known.get(c, float("inf")))
    log_dir = os.path.join(a.log, "cases")
    os.makedirs(log_dir, exist_ok=True)
    start = time.monotonic()
    done = 0
    results = []

    def one(item):
        k, name = item
        return run_case(k, name, a.binary, env, log_dir, a.timeout)

    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for r in pool.map(one, enumerate(cases)):
            results.append(r)
            done += 1
            if not r["passed"]:
                print(f"FAILED ({r['rc']}) after {r['seconds']:.1f} s: {r['name']}\n{r['text'][-6000:]}", flush=True)
    wall = time.monotonic() - start
    if a.durations:
        with open(a.durations, "w", encoding="utf-8") as f:
            for r in sorted(results, key=lambda r: -r["seconds"]):
                f.write(f"{r['seconds']:.2f}\t{r['name']}\n")
    with open(os.path.join(a.log, "durations.tsv"), "w", encoding="utf-8") as f:
        for r in sorted(results, key=lambda r: -r["seconds"]):
            f.write(f"{r['seconds']:.2f}\t{'ok' if r['passed'] else 'FAILED'}\t{r['name']}\n")
    passed = sum(r["passed"] for r in results)
    failed = len(results) - passed
    assertions = sum(r["assertions"] for r in results)
    failed_assertions = sum(r["failed_assertions"] for r in results)
    busy = sum(r["seconds"] for r in results)
    print(f"longest cases: " + "; ".join(f"{r['seconds']:.1f} s {r['name']}"
                                         for r in sorted(results, key=lambda r: -r["seconds"])[:5]))
    print(f"suite: {len(results)} test cases, {passed} passed, {failed} failed; {assertions} assertions, "
          f"{failed_assertions} failed; {a.jobs} processes; {wall:.1f} s on {device} "
          f"({busy:.0f} s of case time; seed {env['PORTACL_TEST_SEED']})")
    print(f"{passed} passed, {failed} failed")
    sys.exit(0 if failed == 0 and results else 1)


if __name__ == "__main__":
    main()
