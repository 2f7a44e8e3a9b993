# SPDX-License-Identifier: Apache-2.0
"""portacl.tune: searches, stores into the database plans read (the file
portacl-tune writes), and later plans come from it; bad requests are
refused by name before anything is measured."""
import json
import re

import numpy as np
import pytest

import portacl


def test_tune_stores_what_later_plans_use(tmp_path, monkeypatch):
    database = tmp_path / "tuned.json"
    report = portacl.tune("sum", 1 << 14, budget=3, database=str(database), accept_noisy=True)
    assert report["operation"] == "sum" and report["tried"] >= 1 and report["valid"] >= 1
    assert report["stored"] and report["database"] == str(database)
    assert report["best_ms"] > 0 and report["rules_ms"] > 0
    records = json.loads(database.read_text())["records"]
    assert any(r["kernel"] == "sum" for r in records)
    # A context made with the database in PORTACL_TUNING_DB plans from it.
    monkeypatch.setenv("PORTACL_TUNING_DB", str(database))
    _, plan = portacl.sum(np.ones(1 << 14, np.float32), context=portacl.Context(), return_plan=True)
    assert f"tuning database {database}" in plan.provenance


def test_tune_dry_run_stores_nothing(tmp_path):
    database = tmp_path / "untouched.json"
    report = portacl.tune("axpy", 4099, budget=2, database=str(database), dry_run=True)
    assert not report["stored"] and report["not_stored"] == "dry run"
    assert not database.exists()


def test_tune_refuses_bad_requests_by_name(tmp_path):
    with pytest.raises(portacl.Error, match="no-such-kernel"):
        portacl.tune("no-such-kernel", 1000, database=str(tmp_path / "db.json"))
    with pytest.raises(portacl.Error, match="a problem size of 0"):
        portacl.tune("sum", 0, database=str(tmp_path / "db.json"))
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with pytest.raises(portacl.Error, match="tune: "):
        portacl.tune("sum", 1000, database=str(blocked / "db.json"))
    assert "sum" in portacl.tunable_operations()


class _FakeTqdm:
    """Stands in for tqdm.auto.tqdm: records what tune draws."""
    made = []

    def __init__(self, total, desc, unit):
        self.total, self.desc, self.unit, self.n = total, desc, unit, 0
        self.seen, self.closed, self.postfix = [], False, ""
        _FakeTqdm.made.append(self)

    def set_postfix_str(self, text, refresh=True):
        self.postfix = text

    def refresh(self):
        self.seen.append((self.n, self.total))

    def close(self):
        self.closed = True


def _fake_tqdm(monkeypatch):
    import sys
    import types
    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = _FakeTqdm
    monkeypatch.setitem(sys.modules, "tqdm", types.ModuleType("tqdm"))
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    _FakeTqdm.made = []


def test_tune_shows_progress_with_tqdm_where_installed(tmp_path, monkeypatch):
    _fake_tqdm(monkeypatch)
    report = portacl.tune("axpy", 4099, budget=2, database=str(tmp_path / "db.json"), dry_run=True)
    assert len(_FakeTqdm.made) == 1
    bar = _FakeTqdm.made[0]
    assert bar.desc == "axpy" and bar.unit == "candidate" and bar.closed
    assert bar.seen and bar.seen[-1][0] == bar.seen[-1][1] == bar.total  # ends full
    assert [n for n, _ in bar.seen] == sorted(n for n, _ in bar.seen)  # only forward
    assert report["tried"] >= 1
    # quiet=True: no bar even where tqdm is.
    _FakeTqdm.made = []
    portacl.tune("axpy", 4099, budget=2, database=str(tmp_path / "db.json"), dry_run=True, quiet=True)
    assert not _FakeTqdm.made


def test_tune_is_silent_without_tqdm_or_a_terminal(tmp_path, monkeypatch, capsys):
    import sys
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # import fails as where tqdm is not installed
    portacl.tune("axpy", 4099, budget=2, database=str(tmp_path / "db.json"), dry_run=True)
    assert capsys.readouterr().err == ""  # pytest's stderr is no terminal
    # quiet=False draws the terminal line all the same.
    portacl.tune("axpy", 4099, budget=2, database=str(tmp_path / "db.json"), dry_run=True, quiet=False)
    err = capsys.readouterr().err
    last = err.rstrip("\n").split("\r")[-1]  # the line as last redrawn: full
    assert re.match(r"axpy +\[#+\] (\d+)/\1 ", last), last
    assert err.endswith("\n")
