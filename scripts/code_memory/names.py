"""What a name may contain: keys, tags, ids and labels are shown to people and to Claude, so
characters that are invisible or that move text around are refused wherever a name is accepted.

Refused: control characters (C0, DEL, C1 — ESC, ``\\x01``, U+0085 …), format characters (zero-width
space/joiners U+200B–U+200D, U+2060, U+FEFF, bidi controls U+200E/U+200F, U+202A–U+202E,
U+2066–U+2069 …), line and paragraph separators (U+2028, U+2029), lone surrogates, private-use
characters, and the Hangul fillers that render as nothing.
"""

from __future__ import annotations

import unicodedata

_REFUSED_CATEGORIES = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs", "Co"))
_INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def invisible_char(text: str):
    """``(index, character)`` of the first refused character of ``text``, or None."""
    for i, ch in enumerate(text):
        if ch in _INVISIBLE_LETTERS or unicodedata.category(ch) in _REFUSED_CATEGORIES:
            return i, ch
    return None


def describe_char(ch: str) -> str:
    """``U+2028 (LINE SEPARATOR)`` — how an error names a refused character."""
    return f"U+{ord(ch):04X} ({unicodedata.name(ch, 'control character')})"


def refusal(text: str, what: str) -> str | None:
    """The message refusing ``text`` as ``what``, or None when it is fine."""
    found = invisible_char(text)
    if found is None:
        return None
    i, ch = found
    return f"{what} contains {describe_char(ch)} at position {i}; control and invisible characters are not allowed"


def valid_utf8(text: str) -> bool:
    """Whether ``text`` encodes to UTF-8 (no lone surrogates, e.g. from undecodable bytes)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
