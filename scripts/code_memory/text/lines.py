"""Lines of injected text as the session's context knows them: normalised, then digested.

Recall must not repeat what is in context in another dress: the SessionStart brief writes
``- decided: X``, a session note ``4. **决策记录**: X``, a recalled chunk ``   - X``. :func:`norm_line`
strips list markers, numbering, check boxes, emphasis and a short leading label, lowercases and
collapses spaces; :func:`line_digest` is the key the hooks' ledger keeps (hooks/ledger.py).
Standard library only, no ``re``: the hooks import it on their hot path.
"""

from __future__ import annotations

try:  # the builtin module: hashlib would load OpenSSL
    from _sha1 import sha1 as _sha1
except ImportError:  # pragma: no cover
    from hashlib import sha1 as _sha1

MIN_LINE_KEY_CHARS = 8        # shorter lines are not tracked as "in context"



def norm_line(line: str) -> str:
    """A line without list markers, numbering, check boxes, emphasis and a short leading label
    (``decided:``, ``**决策记录**:``) and a trailing ``(sessions/<id>.md, …)`` reference, lowercased,
    spaces collapsed — so the brief's ``- decided: X`` and the note's ``4. **决策记录**: X`` are the
    same line."""
    s = line.strip()
    for _ in range(4):
        before = s
        s = s.lstrip("-*+>•# \t")
        digits = 0
        while digits < len(s) and digits < 3 and s[digits].isdecimal():
            digits += 1
        if digits and s[digits:digits + 1] in (".", ")"):
            s = s[digits + 1:].lstrip()
        if s[:3].lower() in ("[ ]", "[x]"):
            s = s[3:].lstrip()
        if s.startswith("**"):
            end = s.find("**", 2)
            if 0 < end <= 40:
                s = (s[2:end] + s[end + 2:]).strip()
        cut = min((i for i in (s.find(":"), s.find("：")) if i >= 0), default=-1)
        if 0 < cut <= 24 and " " not in s[:cut] and (s[cut] == "：" or s[cut + 1:cut + 2] in (" ", "")):
            s = s[cut + 1:].strip()
        if s == before:
            break
    ref = s.rfind(" (sessions/")
    if ref > 0 and s.endswith(")"):           # the brief's "(sessions/<id>.md, date)" after a to-do
        s = s[:ref]
    return " ".join(s.replace("**", "").replace("`", "").lower().split())


def digest(text: str, size: int = 24) -> str:
    """A short hex digest of ``text`` (SHA-1, the builtin module)."""
    return _sha1(text.encode("utf-8", "surrogateescape")).hexdigest()[:size]


def line_digest(line: str) -> str:
    """The key of a line in the session's context ("" for lines too short to track)."""
    norm = norm_line(line)
    if len(norm) < MIN_LINE_KEY_CHARS:
        return ""
    return digest(norm, 12)


def text_digests(text: str) -> list:
    """The digests of every trackable line of ``text`` (what an injection put into context)."""
    out = []
    for line in (text or "").split("\n"):
        d = line_digest(line)
        if d and d not in out:
            out.append(d)
    return out
