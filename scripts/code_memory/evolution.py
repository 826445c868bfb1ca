"""The evolution store (DESIGN §4, §8): where the feedback loop, the signal analyzer and the
capability generator keep their logs, plus the time helpers they share.

  evolution/audit.jsonl             ref / outcome / archive / restore events (append-only)
  evolution/signals.jsonl           extracted signals, one extraction marker per session summary
  evolution/pattern_states.jsonl    state changes of recurring patterns (append-only)
  evolution/capabilities.jsonl      generation events (append-only)
  evolution/generator_state.json    cooldown: last generation time
  evolution/signal_report_latest.md the latest signal report
  .index/evolution.sqlite           derived tables (rebuildable from audit.jsonl)

Appends go through ``fsutil.locked_append`` (one locked write per call), so concurrent hooks and
workers never tear a line. Standard library only.
"""

from __future__ import annotations

import os
import time

from . import jsonlite
from .fsutil import locked_append
from .paths import MemoryPaths


def audit_log(paths: MemoryPaths) -> str:
    return os.path.join(paths.evolution, "audit.jsonl")


def signals_log(paths: MemoryPaths) -> str:
    return os.path.join(paths.evolution, "signals.jsonl")


def pattern_states_log(paths: MemoryPaths) -> str:
    return os.path.join(paths.evolution, "pattern_states.jsonl")


def capabilities_log(paths: MemoryPaths) -> str:
    return os.path.join(paths.evolution, "capabilities.jsonl")


def generator_state_file(paths: MemoryPaths) -> str:
    return os.path.join(paths.evolution, "generator_state.json")


def signal_report_file(paths: MemoryPaths) -> str:
    return os.path.join(paths.evolution, "signal_report_latest.md")


def evolution_db(paths: MemoryPaths) -> str:
    return os.path.join(paths.index_dir, "evolution.sqlite")


def now_iso(now: float | None = None) -> str:
    """Local time with its UTC offset, to the second: ``2026-02-26T10:00:00+08:00`` (no datetime
    import: hooks call this on the hot path)."""
    moment = time.localtime(time.time() if now is None else now)
    offset = moment.tm_gmtoff or 0
    sign = "+" if offset >= 0 else "-"
    hours, minutes = divmod(abs(offset) // 60, 60)
    return time.strftime("%Y-%m-%dT%H:%M:%S", moment) + f"{sign}{hours:02d}:{minutes:02d}"


_STAMP = r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?"


def parse_ts(value) -> float | None:
    """Epoch seconds of the ISO 8601 timestamp at the start of ``value`` (``Z``, an offset, or
    naive = local time; a date alone is local midnight), else None. Trailing text is ignored:
    ``"2026-02-10 14:30 (最后更新)"`` parses."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, str):
        return None
    import re  # here, not at module level: hooks append events and must not pay for ``re``

    match = re.match(_STAMP, value.strip())
    if not match:
        return None
    text = match.group(0)
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    elif re.search(r"[+-]\d{4}$", text) and "T" in text or re.search(r" \d{2}:\d{2}[+-]\d{4}$", text):
        text = text[:-2] + ":" + text[-2:]
    import datetime as dt

    try:
        return dt.datetime.fromisoformat(text).timestamp()
    except ValueError:
        return None


def append_events(path: str, records: list) -> None:
    """Append several JSON records as one locked write (all or nothing for readers)."""
    if not records:
        return
    text = "".join(jsonlite.dumps(r, compact=True) + "\n" for r in records)
    locked_append(path, text, mode=0o600)
