"""What the kv store's two edges (``code-memory kv`` / ``set-memory.py`` and the MCP tools) share:
the config's ``kv`` section turned into options, the default read's budget and clock, and a write
followed by the compaction it may call for (``kv.auto_compact``).

``name`` is how the caller's user spells the argument (``--token-limit`` on the command line,
``token_limit`` over MCP), so an error names what was typed.
"""

from __future__ import annotations

from ..errors import CodeMemoryError
from .layout import KVOptions


def options(cfg) -> KVOptions:
    return KVOptions.from_config(cfg.get("kv"))


def token_limit(cfg, given: int | None, name: str) -> int:
    """The default read's budget: ``given``, else ``kv.read_token_limit``; INVALID_ARGUMENT below 0."""
    limit = given if given is not None else int(cfg.get_path("kv.read_token_limit"))
    if limit < 0:
        raise CodeMemoryError("INVALID_ARGUMENT", f"{name} must be >= 0")
    return limit


def parse_now(text: str | None, name: str):
    """The read's current time from an ISO 8601 ``text`` (None when not given)."""
    if not text:
        return None
    from ..timeutil import parse_datetime
    moment = parse_datetime(text)
    if moment is None:
        raise CodeMemoryError("INVALID_ARGUMENT", f"{name} must be an ISO 8601 time, got {text!r}")
    return moment


def set_memory(cfg, key: str, json_content, source, opts: KVOptions | None = None, *,
               agent: bool = False) -> dict:
    """:func:`~.write.set_memory` with ``opts`` (default :func:`options`), then — when it reports
    ``compaction_due`` and ``kv.auto_compact`` is on — :func:`~.maintain.compact` (its report under
    ``compaction``, without the index details). ``agent``: the write comes from the model (the MCP
    server, a session's command), so the source is agent-level whatever it declares
    (:func:`~.provenance.as_agent`)."""
    from .maintain import compact
    from .provenance import as_agent
    from .write import set_memory as write
    if agent:
        source = as_agent(source)
    if opts is None:
        opts = options(cfg)
    from ..review import queue
    review = "kv" in queue.queued_kinds(cfg.get("review"))
    if review and not opts.quarantine_untrusted:
        # review.mode.kv = queue: an untrusted write is kept (quarantined), never refused, and proposed
        opts = KVOptions(**{**{n: getattr(opts, n) for n in KVOptions.DEFAULTS}, "quarantine_untrusted": True})
    result = write(cfg.root, key, json_content, source, options=opts)
    if review and result.get("quarantined"):
        result["proposal"] = _propose(cfg, result, json_content, source)
    if result["compaction_due"] and cfg.get_path("kv.auto_compact"):
        result["compaction"] = {k: v for k, v in compact(cfg.root, opts).items() if k != "index"}
    return result


def _propose(cfg, result: dict, json_content, source) -> str | None:
    """Queue the quarantined write for its real key (docs/browser.md § Review queue), with the write's
    ``source`` (its provenance, shown to the reviewer); the proposal's id, or None when a near-identical
    one is pending or was rejected."""
    import json

    from ..redact import redact_obj
    from ..review import queue
    from .provenance import UNTRUSTED_PREFIX
    target = result["key"][len(UNTRUSTED_PREFIX):] if result["key"].startswith(UNTRUSTED_PREFIX + "/") else result["key"]
    text = json.dumps(redact_obj(json_content), ensure_ascii=False, indent=2, sort_keys=True)
    prop = queue.propose(cfg.root, "kv", text, title=f"kv {target}"[:120], target=target, source="kv",
                         payload={"quarantined_as": result["key"], "reason": result.get("quarantine_reason"),
                                  "source": redact_obj(source)})
    return prop["id"] if prop else None
