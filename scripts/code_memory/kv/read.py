"""The default read (docs/stores.md § Agent key-value memory): a compact block of live memories that fits a token budget.

Filtering: tombstoned keys are gone from the view; a key whose ``content.expired_at`` is before
``now`` is skipped; ``/untrusted/…`` (quarantined) keys are skipped unless asked for; a finished
to-do or task (``content.status`` done/completed/closed/resolved/cancelled, or ``content.done`` /
``content.completed`` true) is skipped — it stays readable with ``get``.

Ordering: ``score = 3·recency + 2·importance + 1·tag_match`` — the priorities P0 recency,
P1 importance, P2 tags as weights rather than a strict lexicographic sort (with strict sorting
importance and tags would only break ties of identical timestamps):
  recency    = 0.5 ** (age_days / half_life_days)          (1.0 for a key written just now)
  importance = clamp(content.importance, 0, 10) / 10        (0.5 when absent)
  tag_match  = |content.tags ∩ tags| / |tags|                (0 without tags)
ties by newer ts, then key.

Token counting (:func:`count_tokens`, no tokenizer needed), per line: ``wide = (UTF-8 bytes −
characters) // 2`` — exactly the number of CJK / kana / hangul / full-width characters (3 bytes
each), which count 1 token each; the other characters count 1 token per 3, rounded up; plus 1 for
the newline. This over-estimates English (≈ 4 characters per token) and matches Chinese (≈ 1
character per token), so the block stays within ``token_limit`` for Claude's tokenizer.
Lines are added in score order while the total (header included) stays within the limit; a line
that does not fit is skipped and smaller ones after it may still fit (filling stops after 32 lines
in a row did not fit).
"""

from __future__ import annotations

import datetime as dt
import math
import time

from .digest import TAG_SEP
from .layout import KVLayout, KVOptions
from .view import describe, digest_view, read_index_doc

HEADER = "[Agent Memory]"
W_RECENCY, W_IMPORTANCE, W_TAGS = 3.0, 2.0, 1.0
MAX_SKIPPED_LINES = 32           # stop filling after this many lines in a row did not fit
DESCRIBE_BATCH = 48              # candidates whose index files are read at a time


def count_tokens(text: str) -> int:
    """Estimated tokens of ``text`` (see the module docstring)."""
    total = 0
    for line in text.split("\n"):
        wide = (len(line.encode("utf-8")) - len(line)) // 2
        total += wide + -(-(len(line) - wide) // 3) + 1
    return total


def render_line(key: str, kind: str | None, summary: str | None) -> str:
    return " ".join(["-", key] + [part for part in (kind, summary) if part])


FINISHED = frozenset(("done", "completed", "complete", "closed", "resolved", "finished", "cancelled", "canceled"))


def is_finished(content) -> bool:
    """A to-do or task marked finished: ``status`` (or ``state``) done/closed/…, or
    ``done``/``completed`` true."""
    if not isinstance(content, dict):
        return False
    status = content.get("status", content.get("state"))
    return (isinstance(status, str) and status.strip().lower() in FINISHED) \
        or content.get("done") is True or content.get("completed") is True


def _rendered(layout: KVLayout, ranked_keys: list, digest, summary_chars: int, skipped: list):
    """The lines of ``ranked_keys`` in order, reading their index files a batch at a time;
    finished to-dos are left out (and appended to ``skipped``)."""
    for start in range(0, len(ranked_keys), DESCRIBE_BATCH):
        batch = ranked_keys[start:start + DESCRIBE_BATCH]
        described = describe(layout, batch, digest, summary_chars)
        for key in batch:
            if key not in described:
                continue
            doc = read_index_doc(layout, key)
            if doc is not None and is_finished(doc.get("content")):
                skipped.append(key)
                continue
            yield render_line(key, *described[key])


def default_read(root_or_paths, token_limit: int = 400, tags=None, now: dt.datetime | None = None,
                 options: KVOptions | None = None, include_untrusted: bool = False,
                 prefix: str | None = None) -> dict:
    """``{text, lines, token_count, token_limit, included, candidates, expired, finished, omitted}``.

    ``text`` is empty when nothing qualifies (so callers inject nothing)."""
    started = time.perf_counter()
    options = options or KVOptions()
    layout = KVLayout.of(root_or_paths)
    digest, info = digest_view(layout)
    now_epoch = now.timestamp() if now else time.time()
    wanted = {t.strip().lower() for t in (tags or []) if t and t.strip()}
    decay = math.log(2) / (max(options.recency_half_life_days, 0.001) * 86400.0)
    under = prefix.rstrip("/") + "/" if prefix else None
    exp = math.exp
    candidates, expired = [], 0
    for key, written, importance, expires, untrusted, tag_text in digest.rows():
        if untrusted and not include_untrusted:
            continue
        if under and not (key.startswith(under) or key == under[:-1]):
            continue
        if expires < now_epoch:                 # NaN (no expiry) compares False
            expired += 1
            continue
        importance = 0.5 if importance != importance else min(max(importance, 0.0), 10.0) / 10.0
        age = now_epoch - written
        score = W_RECENCY * exp(-decay * age if age > 0 else 0.0) + W_IMPORTANCE * importance
        if wanted and tag_text:
            score += W_TAGS * len(wanted.intersection(tag_text.split(TAG_SEP))) / len(wanted)
        candidates.append((-score, -written, key))
    candidates.sort()
    used = count_tokens(HEADER)
    lines, misses, finished = [], 0, []
    if token_limit - used >= 4:
        for line in _rendered(layout, [key for _score, _ts, key in candidates], digest, options.summary_chars,
                              finished):
            cost = count_tokens(line)
            if used + cost <= token_limit:
                lines.append(line)
                used += cost
                misses = 0
            else:
                misses += 1
            if token_limit - used < 4 or misses >= MAX_SKIPPED_LINES:
                break
    text = "\n".join([HEADER, *lines]) if lines else ""
    return {"text": text, "lines": lines, "token_count": used if lines else 0, "token_limit": token_limit,
            "included": len(lines), "candidates": len(candidates), "expired": expired, "finished": len(finished),
            "omitted": len(candidates) - len(lines) - len(finished), "replayed_lines": info["replayed_lines"],
            "rebuilt_digest": info["rebuilt_digest"],
            "elapsed_ms": round((time.perf_counter() - started) * 1000, 2)}
