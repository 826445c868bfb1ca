"""The user documentation as text, for the tests that keep it true: the README (short) and the
reference pages in docs/."""

from __future__ import annotations

import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(REPO, "docs")


def read_doc(name: str) -> str:
    """One page: ``"README.md"`` or a file name under docs/ (``"hooks.md"``)."""
    path = os.path.join(REPO, name) if name == "README.md" else os.path.join(DOCS, name)
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def all_docs() -> str:
    """The README and every page of docs/, joined."""
    pages = ["README.md"] + sorted(f for f in os.listdir(DOCS) if f.endswith(".md"))
    return "\n".join(read_doc(p) for p in pages)
