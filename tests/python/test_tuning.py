# SPDX-License-Identifier: Apache-2.0
"""portacl.tune: searches, stores into the database plans read (the file
portacl-tune writes), and later plans come from it; bad requests are
refused by name before anything is measured."""
import json

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
