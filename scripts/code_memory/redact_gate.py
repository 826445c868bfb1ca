"""Whether a text could hold a secret at all: the redactor's first step, cheap enough for the
hooks' hot path (standard library, no ``re``, no ``json``; docs/security.md § Redaction).

Every rule of :mod:`code_memory.redact` needs something in the text before it can match: one of
its keywords (gitleaks' rules and our own context rules run only when one occurs), a secret's
label word (``pass``, ``token``, ``key`` …), ``%`` (URL-encoded text), a backslash (escaped
JSON), or — for the unlabelled high-entropy pass — a run of 32+ token characters mixing upper
case, lower case and digits. ``data/secret_triggers.txt`` lists those triggers; it is written from
the rules themselves (``python tools/update_secret_rules.py --triggers-only``) and a test holds it
equal to them, so this gate is never a second, weaker rule set: when it says no, no rule could
have matched, and the text is returned as it is without loading the rules.
"""

from __future__ import annotations

import os

TRIGGERS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "secret_triggers.txt")
LONG_RUN = 32                       # the high-entropy pass's shortest candidate
# Characters of a high-entropy candidate (base64, base64url, dotted tokens, padding).
_RUN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-.=")
# gitleaks' rules see brackets and non-ASCII characters as spaces: only a trigger with a space
# in it can appear in that view and not in the text.
_BRACKETS = str.maketrans("()[]{}<>|,", "          ")

HEADER = ("# Written by tools/update_secret_rules.py from code_memory.redact.triggers(): one trigger a line,\n"
          "# a TAB between two words both needed. Do not edit by hand (tests/test_redact.py checks it).\n")
_index = None


def triggers() -> tuple:
    """The triggers, as listed (a trigger ``a<TAB>b`` needs both ``a`` and ``b``)."""
    with open(TRIGGERS_FILE, encoding="utf-8") as fh:
        lines = [line[:-1] if line.endswith("\n") else line for line in fh]
    return tuple(line for line in lines if not line.startswith("#"))


def _trigger_index() -> tuple:
    """``(single characters, {first two characters: [triggers]}, triggers with a space)``: a text
    is tested against the few triggers whose first two characters it holds, not all of them."""
    global _index
    if _index is None:
        singles, by_pair = set(), {}
        listed = triggers()
        spaced = tuple(t for t in listed if " " in t)
        for trigger in listed:
            first, _tab, second = trigger.partition("\t")
            if len(first) < 2:
                singles.add(first)        # a one-character trigger (``:``, ``%``, ``密``): no pairs of words
            else:
                by_pair.setdefault(first[:2], []).append((first, second))
        _index = (frozenset(singles), by_pair, spaced)
    return _index


def _has_long_mixed_run(text: str) -> bool:
    run = upper = lower = digit = 0
    for ch in text:
        if ch in _RUN_CHARS:
            run += 1
            if "A" <= ch <= "Z":
                upper = 1
            elif "a" <= ch <= "z":
                lower = 1
            elif "0" <= ch <= "9":
                digit = 1
            if run >= LONG_RUN and upper and lower and digit:
                return True
        else:
            run = upper = lower = digit = 0
    return False


def _holds_trigger(view: str, singles: frozenset, by_pair: dict) -> bool:
    if "" in singles or not singles.isdisjoint(view):
        return True
    pairs = {view[i:i + 2] for i in range(len(view) - 1)}
    for pair in pairs.intersection(by_pair):
        for first, second in by_pair[pair]:
            if first in view and second in view:
                return True
    return False


def may_hold_secret(text: str) -> bool:
    """False only when no rule of the redactor can match anywhere in ``text``."""
    singles, by_pair, spaced = _trigger_index()
    low = text.lower()
    if _holds_trigger(low, singles, by_pair):
        return True
    ascii_view = (low if low.isascii() else "".join(c if c < "\x80" else " " for c in low)).translate(_BRACKETS)
    if ascii_view != low and any(t.split("\t")[0] in ascii_view for t in spaced):
        return True
    return _has_long_mixed_run(text)
