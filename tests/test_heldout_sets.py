"""The held-out evaluation sets (bench/data/handover_heldout, bench/data/recall_heldout,
bench/data/evolution_heldout) stay usable: the handover bench's smoke run replays real transcripts
end to end, the recall root rebuilds identically, the evolution set's annotations hold. The sets' numbers themselves are in BENCHMARKS.md, not asserted here."""

from __future__ import annotations

import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(REPO, "bench")


def test_handover_heldout_smoke_replays_real_transcripts(tmp_path):
    with open(os.path.join(BENCH, "data", "handover_heldout", "annotations.json"), encoding="utf-8") as fh:
        scenarios = json.load(fh)["scenarios"]
    langs = [s["lang"] for s in scenarios]
    assert len(scenarios) >= 14 and langs.count("zh") >= 6 and langs.count("en") >= 6 and "mixed" in langs
    assert sum(len(s["projects"]) > 1 for s in scenarios) >= 2
    out = tmp_path / "result.json"
    done = subprocess.run([sys.executable, os.path.join(BENCH, "bench_handover_heldout.py"), "--smoke",
                           "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["scenarios"] == 2 and result["summarizer_failures"] == 0
    assert result["overall"]["total"] > 0 and result["start_context_chars"]["max"] > 0
    assert set(result["by_kind"]) == {"topic", "files", "decisions", "reasons", "todos", "pitfalls"}


def test_recall_heldout_root_is_deterministic(tmp_path):
    sys.path.insert(0, BENCH)
    try:
        import heldout_recall
    finally:
        sys.path.remove(BENCH)
    first = heldout_recall.build_root(str(tmp_path / "a" / "root"), str(tmp_path / "a" / "home"))
    second = heldout_recall.build_root(str(tmp_path / "b" / "root"), str(tmp_path / "b" / "home"))
    assert first["checksum"] == second["checksum"]
    assert 150 <= first["counts"]["session_notes"] <= 300 and first["counts"]["memtool_items"] >= 24
    every = heldout_recall.prompts()
    routine = [p for p in every if p["kind"] == "routine"]
    needing = [p for p in every if p["kind"] == "needing"]
    assert len(routine) >= 120 and len(needing) >= 40
    assert min(sum(p["lang"] == lang for p in routine) for lang in ("zh", "en")) >= 50
    # build_root already refused evidence that is missing or lacks its keywords; the scoring rule
    # finds an item by its keywords, and not in unrelated text
    item = needing[0]
    ref = first["refs"][item["expected"][0]["ref"]]
    note = (tmp_path / "a" / "root" / ref["path"]).read_text(encoding="utf-8")
    assert heldout_recall.evidence_found(item, note, first)
    assert not heldout_recall.evidence_found(item, "rename this variable", first)


def test_evolution_heldout_annotations_hold_and_the_bench_runs(tmp_path):
    """bench/data/evolution_heldout: every session's transcript is there and names only the rules
    and pitfalls of its scenario; the evolution-inputs bench's smoke run scores signals, Skills and
    score evidence."""
    data = os.path.join(BENCH, "data", "evolution_heldout")
    with open(os.path.join(data, "annotations.json"), encoding="utf-8") as fh:
        annotations = json.load(fh)
    sessions = [(sc, s) for sc in annotations["scenarios"] for s in sc["sessions"]]
    assert len(sessions) >= 20 and {sc["lang"] for sc in annotations["scenarios"]} == {"zh", "en", "mixed"}
    for sc, s in sessions:
        keys = {k for p in sc["projects"].values() for k in p["rules"]} | set(annotations["pitfalls"])
        assert os.path.isfile(os.path.join(data, s["transcript"])) and set(s["relevant"]) <= keys
    assert sum(bool(s["failed_tool_calls"]) for _sc, s in sessions) >= 8
    out = tmp_path / "result.json"
    done = subprocess.run([sys.executable, os.path.join(BENCH, "bench_evolution_inputs.py"), "--smoke",
                           "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    tuning = json.loads(out.read_text(encoding="utf-8"))["sets"]["tuning"]
    assert tuning["sessions"] > 0 and {"precision", "recall"} <= set(tuning["signals"]) and tuning["skills"]
    assert tuning["scores"]["experiences"] > 0
