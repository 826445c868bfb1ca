"""bench_todo_check.py's replayed model when it does not always answer truthfully (round 9): its draws
are fixed by their key, the defaults (answer rate 1, wrong-close rate 0) replay exactly what the
truthful replay of 0525091 gave on the smoke data, and a model that closes every named unfinished to-do
leaves those closes — and only those — as its wrong closes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench")


def _model(*args):
    sys.path.insert(0, BENCH)
    try:
        import bench_todo_check
    finally:
        sys.path.remove(BENCH)
    return bench_todo_check.Model(*args)


def test_the_draws_are_keyed_not_sequential():
    one, same, other = _model(0.5, 0.5, 3, "traps"), _model(0.5, 0.5, 3, "traps"), _model(0.5, 0.5, 4, "traps")
    keys = [(f"s-{n}", turn, tid) for n in range(40) for turn in range(3) for tid in ("q", "a1b2c3d4")]
    draws = [one.draw(*key) for key in keys]
    assert draws == [same.draw(*key) for key in reversed(keys)][::-1]        # the order of the draws is no input
    assert draws != [other.draw(*key) for key in keys] and all(0 <= d < 1 for d in draws)
    assert 0.35 < sum(d < 0.5 for d in draws) / len(draws) < 0.65
    truthful, silent = _model(1.0, 0.0, 3, "traps"), _model(0.0, 1.0, 3, "traps")
    assert all(truthful.acts(s, t) and not truthful.closes_wrongly(s, t, tid) for s, t, tid in keys)
    assert not any(silent.acts(s, t) for s, t, _tid in keys) and all(silent.closes_wrongly(*key) for key in keys)


def test_the_truthful_default_is_unchanged_and_wrong_closes_are_counted(tmp_path):
    runs = {name: (tmp_path / f"{name}.json", ["--answer-rate", p, "--wrong-close-rate", q, "--seed", "9"])
            for name, p, q in (("truthful", "1", "0"), ("closes_all", "1", "1"))}
    procs = {name: subprocess.Popen([sys.executable, os.path.join(BENCH, "bench_todo_check.py"), "--set", "traps",
                                     "--smoke", "--json", str(out), *flags], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
             for name, (out, flags) in runs.items()}
    for proc in procs.values():
        _out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-2000:]
    truthful, closes_all = (json.loads(runs[name][0].read_text(encoding="utf-8")) for name in ("truthful", "closes_all"))
    # 6920dc2's bench (the roll call on; before the model's rates existed) on the same data: traps --smoke
    assert truthful["finishes"] == {"finishes": 2, "captured": 2, "asked": 2, "closed_by_summarizer": 0,
                                    "missed_by_summarizer": 2, "asked_of_missed": 2, "floor": 0,
                                    "asked_before_the_finishing_turn": 0}
    assert truthful["traps"] == {"traps": 3, "asked": 3} and truthful["questions"] == 3
    assert truthful["summarizer_closes_asked_assumes_the_model"]["model_closes"] == 2
    assert truthful["summarizer"]["closes"] == {"right": 2, "wrong": 0, "missed": 0}
    assert truthful["final_brief"]["finished_still_shown"] == "0/2"
    assert truthful["model"]["questions_answered"] == 3 and truthful["model"]["questions_silent"] == 0
    assert truthful["wrong_left_by_the_model"] == {"wrong_closes": 0, "traps_sprung": 0}
    made = closes_all["model"]
    assert made["questions_silent"] == 0 and made["wrong_closes_of_traps"] >= 1
    assert closes_all["wrong_left_by_the_model"]["traps_sprung"] >= made["wrong_closes_of_traps"]
    assert closes_all["wrong_left_by_the_model"]["wrong_closes"] >= 1
    assert closes_all["wrong_left_by_the_summarizer"] == {"wrong_closes": 0, "traps_sprung": 0}
    assert any("(the model's draw)" in miss for miss in closes_all["misses"])
