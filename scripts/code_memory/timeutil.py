"""Timestamps: the one parser every reader uses and the formats code-memory writes.

Written: :func:`now_iso` (local time with its UTC offset, to the second — audit logs, notes,
reports) and :func:`utc_stamp` (UTC with microseconds and ``Z`` — kv envelopes, memtool items).
Read: :func:`parse_datetime` / :func:`parse_ts` accept any ISO 8601 date or date-time at the start
of a string — ``T`` or a space, seconds and fractions optional, ``Z``, ``±HH:MM`` or ``±HHMM`` —
with trailing text ignored (``"2026-02-10 14:30 (最后更新)"``), the same on every Python ≥ 3.10.
A value without an offset is local time unless the caller says UTC.

Standard library only; ``datetime`` is imported when a string is parsed, not at import time (the
hooks stamp events on every tool call).
"""

from __future__ import annotations

import time

_DIGITS = "0123456789"


def now_iso(now: float | None = None) -> str:
    """Local time with its UTC offset, to the second: ``2026-02-26T10:00:00+08:00``."""
    moment = time.localtime(time.time() if now is None else now)
    offset = moment.tm_gmtoff or 0
    sign = "+" if offset >= 0 else "-"
    hours, minutes = divmod(abs(offset) // 60, 60)
    return time.strftime("%Y-%m-%dT%H:%M:%S", moment) + f"{sign}{hours:02d}:{minutes:02d}"


def utc_stamp(moment=None) -> str:
    """UTC with microseconds and ``Z``: ``2026-02-26T02:00:00.123456Z``. ``moment``: an aware
    ``datetime`` or epoch seconds (default now)."""
    import datetime as dt

    if moment is None:
        moment = dt.datetime.now(dt.timezone.utc)
    elif isinstance(moment, (int, float)):
        moment = dt.datetime.fromtimestamp(moment, dt.timezone.utc)
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def day_of(ts: float) -> str:
    """The local calendar day of epoch seconds ``ts``: ``YYYY-MM-DD``."""
    return time.strftime("%Y-%m-%d", time.localtime(ts))


def _number(text: str, start: int, width: int):
    part = text[start:start + width]
    return int(part) if len(part) == width and all(c in _DIGITS for c in part) else None


def _scan(text: str):
    """``(year, month, day, hour, minute, second, microsecond, offset_minutes | None)`` of the ISO
    8601 stamp at the start of ``text``, else None (format only; ranges are checked by datetime)."""
    year, month, day = _number(text, 0, 4), _number(text, 5, 2), _number(text, 8, 2)
    if None in (year, month, day) or text[4:5] != "-" or text[7:8] != "-":
        return None
    hour = minute = second = micro = 0
    i = 10
    timed = text[i:i + 1] in ("T", "t", " ") and _number(text, i + 1, 2) is not None and text[i + 3:i + 4] == ":"
    if timed:
        hour, minute = _number(text, i + 1, 2), _number(text, i + 4, 2)
        if minute is None:
            return None
        i += 6
        if text[i:i + 1] == ":" and _number(text, i + 1, 2) is not None:
            second = _number(text, i + 1, 2)
            i += 3
            if text[i:i + 1] in (".", ","):
                j = i + 1
                while j < len(text) and text[j] in _DIGITS:
                    j += 1
                if j > i + 1:
                    micro = int((text[i + 1:j] + "000000")[:6])
                i = j
    offset = None
    mark = text[i:i + 1]
    if mark in ("Z", "z"):
        offset = 0
    elif mark in ("+", "-") and timed:
        hh = _number(text, i + 1, 2)
        mm = _number(text, i + 4, 2) if text[i + 3:i + 4] == ":" else _number(text, i + 3, 2)
        if hh is not None and mm is not None:
            offset = (hh * 60 + mm) * (1 if mark == "+" else -1)
    return year, month, day, hour, minute, second, micro, offset


def parse_datetime(value, naive: str = "local"):
    """An aware ``datetime`` for the ISO 8601 stamp at the start of ``value`` (a string; epoch
    seconds are taken as they are), else None. ``naive``: the zone of a stamp without an offset,
    ``"local"`` (default) or ``"utc"``."""
    import datetime as dt

    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return dt.datetime.fromtimestamp(value, dt.timezone.utc)
    if not isinstance(value, str):
        return None
    if len(value) == 27 and value[-1] == "Z" and value[10] == "T":  # utc_stamp's form, the common case
        try:
            return dt.datetime.fromisoformat(value[:-1]).replace(tzinfo=dt.timezone.utc)
        except ValueError:
            pass
    parts = _scan(value.strip())
    if parts is None:
        return None
    *fields, offset = parts
    try:
        if offset is not None:
            return dt.datetime(*fields, tzinfo=dt.timezone(dt.timedelta(minutes=offset)))
        moment = dt.datetime(*fields)
    except (ValueError, OverflowError):
        return None
    return moment.replace(tzinfo=dt.timezone.utc) if naive == "utc" else moment.astimezone()


def parse_ts(value, naive: str = "local") -> float | None:
    """Epoch seconds of :func:`parse_datetime`, else None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    moment = parse_datetime(value, naive)
    return moment.timestamp() if moment is not None else None
