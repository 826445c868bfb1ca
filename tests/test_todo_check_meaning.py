"""todo-check by meaning (issue 20, round 8): the Stop hook also asks about an open to-do the warm
search server finds close to the turn by meaning (op ``related``, search/related.py), and keeps to
its word trigger when no server or model answers (docs/hooks.md § todo-check)."""

from __future__ import annotations

import json
import os
import re
import time

import pytest

from code_memory.errors import CodeMemoryError
from code_memory.hooks import todo_check
from code_memory.hooks.runtime import run
from code_memory.memory import recent
from code_memory.memory.todos import todo_id
from code_memory.search import client, related

FRAME = "cap the frame delta so a long hitch cannot tunnel the player into walls"
RETRY = "webhook deliveries are not retried when the receiver times out"
DOCS = "the API reference has no page for the export endpoints"
SYNONYM_FINISH = ("The game loop now clamps each physics step to at most 33 ms, so after a stall the character "
                  "no longer ends up inside the level geometry.")
ASKED = re.compile(r"\b([0-9a-f]{8}) “")
UNRELATED = "Renamed the logger variable in utils and fixed two lint warnings."


def entry(sid, project, todos, hours_ago=2.0) -> dict:
    return {"id": sid, "project": project, "ts": time.time() - hours_ago * 3600, "note": f"sessions/{sid}.md",
            "topic": "work", "todos": [{"text": t} for t in todos]}


@pytest.fixture
def alpha(initialized_root, project):
    for e in (entry("s1", "alpha", [FRAME, RETRY, DOCS]), entry("b1", "beta", ["clamp the physics step in beta"])):
        recent.record_session(initialized_root, e, [], lambda a, b: False)
    return project


def stop(project, message, session="s2") -> bytes:
    return json.dumps({"session_id": session, "transcript_path": "", "cwd": project, "hook_event_name": "Stop",
                       "stop_hook_active": False, "last_assistant_message": message}).encode()


def named(out) -> list:
    return ASKED.findall(out["reason"]) if out else []


class FakeWarm:
    def __init__(self, cfg):
        self.cfg = cfg


def test_the_op_validates_its_request_and_answers_without_vectors(initialized_root):
    from code_memory.config import load_config

    warm = FakeWarm(load_config(root_override=initialized_root.root))
    for bad in ({"text": 3, "todos": []}, {"text": "x"}, {"text": "x", "todos": "y"},
                {"text": "x", "todos": [{"id": "a"}]}, {"text": "x", "todos": [{"id": 1, "text": "t"}]},
                {"text": "x", "todos": [{"id": "a" * 65, "text": "t"}]},
                {"text": "x", "todos": [{"id": "a", "text": "t", "path": "/etc"}]},
                {"text": "x", "todos": [{"id": str(i), "text": "t"} for i in range(related.MAX_TODOS + 1)]},
                {"text": "x", "todos": [], "mode": "x"}, {"text": "x", "todos": [], "calibrated_only": "yes"}):
        with pytest.raises(CodeMemoryError) as exc:
            related.op_related(warm, bad)
        assert exc.value.code == "INVALID_ARGUMENT", bad
    assert related.op_related(warm, {"text": "anything", "todos": []}) == \
        {"ok": True, "scores": {}, "by": None, "thresholds": None, "reason": "nothing to compare"}
    text, todos = related.validate({"text": "x" * 100_000, "todos": [{"id": "a", "text": "y" * 5000}]})
    assert len(text) == related.MAX_TEXT_CHARS and len(todos[0][1]) == related.MAX_TODO_CHARS
    # no daemon in the tests (embedding.daemon may start one, never waited for): no scores, a reason
    cfg = type(warm.cfg)({**warm.cfg, "embedding": {**warm.cfg["embedding"], "enabled": False}}, [], [])
    answer = related.op_related(FakeWarm(cfg), {"text": "clamped the step", "todos": [{"id": "a", "text": FRAME}]})
    assert answer["scores"] == {} and answer["by"] is None and "disabled" in answer["reason"]
    # a model nobody measured thresholds for (the default bge-small-zh here): no scores, no model work,
    # when the caller has no thresholds of its own
    assert "BAAI/bge-small-zh-v1.5" not in related.CALIBRATED
    answer = related.op_related(warm, {"text": "clamped the step", "todos": [{"id": "a", "text": FRAME}],
                                       "calibrated_only": True})
    assert answer["scores"] == {} and "no thresholds measured for model BAAI/bge-small-zh-v1.5" in answer["reason"]


def test_calibrated_thresholds_are_well_formed():
    """Every measured model has a join and an ask threshold, cosines with join ≤ ask (join names a
    to-do in a question asked anyway, ask opens one: the stricter)."""
    assert related.CALIBRATED, "no model has measured thresholds"
    for name, thresholds in related.CALIBRATED.items():
        assert isinstance(name, str) and name.strip() == name and name, name
        assert set(thresholds) == {"join", "ask"}, name
        assert all(isinstance(v, float) and not isinstance(v, bool) for v in thresholds.values()), name
        assert 0.0 < thresholds["join"] <= thresholds["ask"] <= 1.0, name


def test_pieces_cut_a_turn_at_sentences_in_both_languages():
    got = related.pieces("第一句。第二句！\nThe loop clamps dt. Tests pass; lint clean.", size=5)
    assert got[:2] == ["第一句。", "第二句！"] and len(got) == 5 and all(len(p) <= 10 for p in got)
    assert related.pieces("The loop clamps dt. Tests pass.", size=20) == ["The loop clamps dt.", "Tests pass."]
    assert len(related.pieces("word. " * 10_000)) == related.MAX_PIECES
    assert related.pieces("  \n ") == []


def test_no_server_or_a_bad_answer_keeps_the_word_trigger(alpha, monkeypatch):
    """With no server (or one answering garbage, late, or raising) the hook asks exactly what its
    word trigger asks; the server's close to-dos are added to it (at most three)."""
    monkeypatch.setenv("CODE_MEMORY_SEARCH__SERVER", "1")
    words_only = "Webhook deliveries retry now when the receiver times out."
    frame, retry, docs = (todo_id("s1", t) for t in (FRAME, RETRY, DOCS))
    for answer in (None, {"ok": False, "error": "X"}, {"ok": True, "scores": "x"}, {"ok": True, "scores": [1]},
                   {"ok": True, "scores": {frame: "0.9", retry: True}}, "garbage"):
        monkeypatch.setattr(client, "call", lambda *a, answer=answer, **k: answer)
        assert named(run("todo-check", stop(alpha, words_only, session=f"w{id(answer)}"), dict(os.environ))) == [retry]
        assert run("todo-check", stop(alpha, SYNONYM_FINISH, session=f"x{id(answer)}"), dict(os.environ)) is None
    # the union: the word trigger's first, then the server's above the threshold, closest first
    measured = {"join": 0.2, "ask": 0.7}
    monkeypatch.setattr(client, "call", lambda *a, **k: {"ok": True, "scores": {frame: 0.9, docs: 0.1, retry: 0.2},
                                                         "thresholds": measured})
    assert named(run("todo-check", stop(alpha, words_only, session="u1"), dict(os.environ))) == [retry, frame]
    assert named(run("todo-check", stop(alpha, SYNONYM_FINISH, session="u2"), dict(os.environ))) == [frame]
    # scores without thresholds (a model nobody measured, the hook's keys unset): words only
    monkeypatch.setattr(client, "call", lambda *a, **k: {"ok": True, "scores": {frame: 0.9}, "thresholds": None})
    assert named(run("todo-check", stop(alpha, words_only, session="u6"), dict(os.environ))) == [retry]
    assert run("todo-check", stop(alpha, SYNONYM_FINISH, session="u7"), dict(os.environ)) is None
    # the person's own thresholds win over the measured ones, and then any model's scores count
    monkeypatch.setenv("CODE_MEMORY_HOOKS__TODO_CHECK_MEANING_ASK", "0.95")
    monkeypatch.setenv("CODE_MEMORY_HOOKS__TODO_CHECK_MEANING_JOIN", "0.85")
    assert run("todo-check", stop(alpha, SYNONYM_FINISH, session="u8"), dict(os.environ)) is None       # 0.9 < ask
    assert named(run("todo-check", stop(alpha, words_only, session="u9"), dict(os.environ))) == [retry, frame]
    monkeypatch.delenv("CODE_MEMORY_HOOKS__TODO_CHECK_MEANING_ASK")
    monkeypatch.delenv("CODE_MEMORY_HOOKS__TODO_CHECK_MEANING_JOIN")
    # a beta to-do the server names is never asked about: only the project's candidates are sent and kept
    sent = []
    monkeypatch.setattr(client, "call", lambda root, op, request, timeout: sent.append((op, request, timeout))
                        or {"ok": True, "scores": {todo_id("b1", "clamp the physics step in beta"): 0.99}})
    assert run("todo-check", stop(alpha, SYNONYM_FINISH, session="u3"), dict(os.environ)) is None
    op, request, timeout = sent[0]
    assert op == "related" and timeout == 0.5 and {t["id"] for t in request["todos"]} == {frame, retry, docs}
    assert request["calibrated_only"] is True           # no thresholds of its own: only a measured model scores
    sent.clear()
    run("todo-check", stop(alpha, "webhook " * 100_000, session="u5"), dict(os.environ))
    assert len(sent[0][1]["text"]) <= todo_check.MEANING_TEXT_CHARS        # bounded before it is sent
    # a failure inside the hook's asking costs the meaning only, never the word trigger's question
    monkeypatch.setattr(client, "call", lambda *a, **k: 1 / 0)
    assert named(run("todo-check", stop(alpha, words_only, session="u4"), dict(os.environ))) == [retry]


def test_with_meaning_caps_and_orders():
    todos = [(str(i), f"t{i}", []) for i in range(6)]
    scores = {"0": 0.95, "1": 0.7, "2": 0.99, "3": 0.1, "4": 0.8}
    # asked anyway: the join threshold; alone: the ask threshold
    assert todo_check.with_meaning([("5", "t5")], todos, scores, 0.99, 0.6) == [("5", "t5"), ("2", "t2"), ("0", "t0")]
    assert todo_check.with_meaning([], todos, scores, 0.9, 0.05) == [("2", "t2"), ("0", "t0")]
    assert todo_check.with_meaning([], todos, scores, 1.5, 0.0) == []
    assert todo_check.with_meaning([("5", "t5")], todos, {}, 0.0, 0.0) == [("5", "t5")]


def test_with_the_real_model_a_finish_in_other_words_is_named(alpha, initialized_root, test_model_config,
                                                             monkeypatch, tmp_path):
    """The registered hook, the warm server and the embedding daemon of a real ONNX model (the test
    model): a turn that finishes one to-do in its words and another in other words names both; a
    to-do the turn is not about is not named, and an unrelated turn asks nothing. No timing."""
    import shutil
    import tempfile

    from code_memory.search import daemon, embed
    from support.hook_runner import run_hook

    sockets = tempfile.mkdtemp(prefix="cmr-", dir="/tmp")     # short: a socket path has 108 bytes
    env = {"CODE_MEMORY_SOCKET_DIR": sockets, "CODE_MEMORY_SEARCH__SERVER": "1", "CODE_MEMORY_EMBEDDING__DAEMON": "1",
           **{"CODE_MEMORY_" + k.upper().replace(".", "__"): str(v) for k, v in test_model_config.items()}}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(client, "_started", set())
    spec = embed.spec_from_config({k.split(".", 1)[1]: v for k, v in test_model_config.items()})
    root = initialized_root.root
    frame, retry, docs = (todo_id("s1", t) for t in (FRAME, RETRY, DOCS))
    both = "Webhook deliveries are retried now when the receiver times out. " + SYNONYM_FINISH
    request = {"text": both, "todos": [{"id": i, "text": t} for i, t in ((frame, FRAME), (retry, RETRY), (docs, DOCS))]}
    try:
        deadline, answer = time.monotonic() + 120, None
        while time.monotonic() < deadline and not (answer or {}).get("by"):
            answer = client.call(root, "related", request, 5.0)      # starts the server, which starts the daemon
            time.sleep(0.1)
        assert answer and answer["by"] == spec.key, answer
        scores = answer["scores"]
        assert scores[frame] > scores[docs] and scores[retry] > scores[docs]
        assert client.call(root, "related", {"text": both, "todos": "x"}, 5.0)["error"] == "INVALID_ARGUMENT"
        for bad in ({"op": "embed", "texts": "x"}, {"op": "embed", "texts": ["x"] * (daemon.MAX_EMBED_TEXTS + 1)},
                    {"op": "embed", "texts": [1]}):
            assert daemon.request(daemon.socket_path(spec), bad)["ok"] is False       # refused, the daemon lives on

        out = run_hook("todo-check", stop(alpha, both, session="r1"))
        assert out.returncode == 0 and ASKED.findall(out.json["reason"]) == [retry, frame]
        assert run_hook("todo-check", stop(alpha, UNRELATED, session="r2")).silent
        out = run_hook("todo-check", stop(alpha, "Webhook deliveries are retried now when the receiver times out.",
                                          session="r3"))
        assert ASKED.findall(out.json["reason"]) == [retry]          # the frame to-do is not what this turn did
    finally:
        pid = (client.call(root, "ping", {}, 5.0, start_server=False) or {}).get("pid")
        client.call(root, "shutdown", {}, 5.0, start_server=False)
        daemon.stop(spec)
        if pid:
            try:
                os.kill(pid, 15)
            except ProcessLookupError:
                pass
        shutil.rmtree(sockets, ignore_errors=True)
