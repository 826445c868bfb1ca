"""Lines of injected text as the session's context knows them: normalised, then digested.

Recall must not repeat what is in context in another dress: the SessionStart brief writes
``- decided: X``, a session note ``4. **决策记录**: X``, a recalled chunk ``   - X``. :func:`norm_line`
strips list markers, numbering, check boxes, emphasis and a short leading label, lowercases and
collapses spaces; :func:`line_digest` is the key the hooks' ledger keeps (hooks/ledger.py). A line
of several sentences is also known by each sentence (:func:`sentences`), so a recalled closing
message whose sentences the brief already listed one per line is recognised as in context.
Standard library only, no ``re``: the hooks import it on their hot path.
"""

from __future__ import annotations

try:  # the builtin module: hashlib would load OpenSSL
    from _sha1 import sha1 as _sha1
except ImportError:  # pragma: no cover
    from hashlib import sha1 as _sha1

MIN_LINE_KEY_CHARS = 8        # shorter lines are not tracked as "in context"
SENTENCE_ENDS = (". ", "? ", "! ", "; ", "。", "？", "！", "；")
END_PUNCT = ".。!！?？;；…"



def norm_line(line: str) -> str:
    """A line without list markers, numbering, check boxes, emphasis and a short leading label
    (``decided:``, ``**决策记录**:``) and a trailing ``(sessions/<id>.md, …)`` or ``(id <8 hex>)`` reference, lowercased,
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
    dot = s.find(" · ")                       # the brief's "2026-11-26 05:10 · topic" heading
    if 0 < dot <= 17 and s[:1].isdecimal():
        s = s[dot + 3:]
    ref = s.rfind(" (sessions/")
    if ref > 0 and s.endswith(")"):           # the brief's "(sessions/<id>.md, date)" after a to-do
        s = s[:ref]
    if s.endswith(")") and s[-14:-9] == " (id " and all(c in "0123456789abcdef" for c in s[-9:-1]):
        s = s[:-14]                           # the brief's "(id 1a2b3c4d)" after an open to-do
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


def sentences(line: str) -> list:
    """The sentences of one line as written (their end punctuation kept); one item for a line of
    one sentence."""
    out, start = [], 0
    for i, ch in enumerate(line):
        if ch in "。？！；" or (ch in ".?!;" and line[i + 1:i + 2] == " "):
            piece = line[start:i + 1].strip()
            if sum(c.isalpha() for c in piece) >= 3:      # not a list number ("1. "), not "e.g. "
                out.append(piece)
                start = i + 1
    tail = line[start:].strip()
    if tail:
        out.append(tail)
    return [s for s in out if s]


def sentence_digest(sentence: str) -> str:
    """The key of one sentence in the session's context ("" when too short): its line key without
    the end punctuation, so ``X.`` inside a message and a brief's ``- decided: X`` meet."""
    norm = norm_line(sentence).rstrip(END_PUNCT + " ")
    if len(norm) < MIN_LINE_KEY_CHARS:
        return ""
    return digest(norm, 12)


def line_digests(line: str) -> list:
    """The keys of one line: the whole line's, and each sentence's when it has several."""
    keys = [line_digest(line), sentence_digest(line)]
    parts = sentences(line)
    if len(parts) > 1:
        keys += [sentence_digest(part) for part in parts]
    return [k for k in dict.fromkeys(keys) if k]


def text_digests(text: str) -> list:
    """The digests of every trackable line of ``text``, and of its sentences (what an injection put
    into context)."""
    out: dict = {}
    for line in (text or "").split("\n"):
        for d in line_digests(line):
            out[d] = None
    return list(out)


def unseen_part(line: str, seen) -> str:
    """``line`` without the sentences whose keys are in the set ``seen`` ("" when every sentence is)."""
    if line_digest(line) in seen or sentence_digest(line) in seen:
        return ""
    parts = sentences(line)
    if len(parts) < 2:
        return line
    kept = [p for p in parts if sentence_digest(p) not in seen]
    return "".join(p + ("" if p[-1] in "。？！；" or i == len(kept) - 1 else " ") for i, p in enumerate(kept))
