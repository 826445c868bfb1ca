"""Blanking text without moving it: everything but newlines becomes a space, so offsets and line
numbers found in the blanked text are those of the original (comments of Java and JavaScript,
tags of MyBatis XML)."""

from __future__ import annotations

import re

_C_COMMENT = re.compile(r"//[^\n]*|/\*[\s\S]*?\*/")
_NOT_NEWLINE = re.compile(r"[^\n]")


def blank(text: str) -> str:
    """``text`` with every character but ``\\n`` turned into a space."""
    return _NOT_NEWLINE.sub(" ", text)


def blank_comments(text: str) -> str:
    """``text`` with its ``//`` and ``/* … */`` comments blanked."""
    return _C_COMMENT.sub(lambda m: blank(m.group(0)), text)
