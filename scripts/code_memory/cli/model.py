"""``code-memory model status|fetch``: the embedding model — is it there, fetch it now (through
``embedding.endpoint`` / ``$HF_ENDPOINT`` when set). install.sh runs ``fetch``; the work is in
:mod:`code_memory.search.embed` (docs/search.md → Vectors)."""

from __future__ import annotations

import os
import time

from ..config import load_config
from ..errors import CodeMemoryError
from .common import add_common, register_group


def _spec(cfg):
    from ..search.embed import spec_from_config
    return spec_from_config(cfg.get("embedding", {}))


def cmd_status(args) -> dict:
    from ..search import embed
    from ..search.daemon import running

    cfg = load_config(root_override=args.root)
    spec = _spec(cfg)
    endpoint = cfg.get_path("embedding.endpoint") or os.environ.get("HF_ENDPOINT")
    out = {"model": spec.name, "model_path": spec.path, "endpoint": endpoint,
           "enabled": bool(cfg.get_path("embedding.enabled")), "fastembed": embed.fastembed_installed(),
           "cache_dirs": embed.cache_dirs(), "cached": embed.model_cached(spec)}
    problem = embed.quick_check(spec)
    record = embed.failure_record(cfg.paths.index_dir, spec)
    if problem or record:
        out["state"] = "unavailable"
        out["reason"] = problem or record["reason"]
        if record and not problem:
            out["last_attempt_s_ago"] = round(time.time() - max(float(record.get("at") or 0),
                                                                float(record.get("retry_at") or 0)))
    else:
        out["state"] = "running" if running(spec) else ("cached" if out["cached"] else "not downloaded")
    return out


def cmd_fetch(args) -> dict:
    from ..search import embed

    cfg = load_config(root_override=args.root)
    spec = _spec(cfg)
    endpoint = args.endpoint or cfg.get_path("embedding.endpoint")
    try:
        done = embed.fetch(cfg.paths.index_dir, spec, endpoint)
    except embed.EmbeddingUnavailable as exc:
        raise CodeMemoryError("MODEL_UNAVAILABLE", str(exc),
                              hint="search works meanwhile with BM25 only; see docs/search.md → Vectors") from None
    return {"ready": True, **done, "endpoint": endpoint or os.environ.get("HF_ENDPOINT")}


def render(result: dict) -> str:
    if "ready" in result:
        return f"embedding model {result['model']} ready (dim {result['dim']}, {result['seconds']} s)"
    line = f"embedding model {result['model']}: {result['state']}"
    if result.get("reason"):
        line += f" — {result['reason']}"
    return line


def add_actions(actions) -> None:
    q = actions.add_parser("status", help="is the model there, why not, where it is looked for")
    add_common(q)
    q.set_defaults(handler=cmd_status, text_renderer=render)
    q = actions.add_parser("fetch", help="load the model now, downloading it if needed (a hub mirror: --endpoint)")
    add_common(q)
    q.add_argument("--endpoint", help="hub mirror for this download (default embedding.endpoint, $HF_ENDPOINT)")
    q.set_defaults(handler=cmd_fetch, text_renderer=render)


def register(sub) -> None:
    register_group(sub, "model", "the embedding model: status, fetch it now (docs/search.md)", add_actions)
