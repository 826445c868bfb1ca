"""The evolution store (DESIGN §4, §8): where the feedback loop, the signal analyzer and the
capability generator keep their logs, plus the time helpers they share.

  evolution/audit.jsonl             ref / outcome / archive / restore events (append-only)
  evolution/signals.jsonl           extracted signals, one extraction marker per session summary
  evolution/pattern_states.jsonl    state changes of recurring patterns (append-only)
  evolution/capabilities.jsonl      generation events (append-only)
  evolution/generator_state.json    cooldown: last generation time
  evolution/signal_report_latest.md the latest signal report
  .index/evolution.sqlite           derived tables (rebuildable from audit.jsonl)

Appends go through ``fsutil.append_jsonl`` (one locked write per call), so concurrent hooks and
workers never tear a line. Standard library only.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time

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
    """Local time with its UTC offset, to the second: ``2026-02-26T10:00:00+08:00``."""
    moment = dt.datetime.fromtimestamp(time.time() if now is None else now).astimezone()
    return moment.isoformat(timespec="seconds")


def parse_ts(value) -> float | None:
    """Epoch seconds of an ISO 8601 timestamp (``Z``, an offset, or naive = local time), else None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        try:
            moment = dt.datetime.strptime(text[:16], "%Y-%m-%d %H:%M")
        except ValueError:
            return None
    return moment.timestamp()


def append_events(path: str, records: list) -> None:
    """Append several JSON records as one locked write (all or nothing for readers)."""
    if not records:
        return
    text = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)
    locked_append(path, text, mode=0o600)
