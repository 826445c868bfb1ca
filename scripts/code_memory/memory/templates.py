"""The templates a memory root is made from, shipped inside the package (``code_memory/templates/``,
package data; the checkout's top-level ``templates/`` and ``rules/`` are links to it), so a plain
``pip install .`` can create a memory root.

``templates/`` holds MEMORY.md, the area files (summary.md, rules.md, facts.json), the daily and
session notes and SKILL.md; ``templates/rules/`` the seed files copied into ``<root>/rules/``.
Found next to this package on disk — the case of every install — without importing
``importlib.resources`` (≈ 27 ms, too much for the hooks that read a template); a package loaded
from a zip file falls back to ``importlib.resources``.
"""

from __future__ import annotations

import os

from ..errors import CodeMemoryError
from ..fsutil import read_text

# The sections of templates/MEMORY.md that code writes to (through memory/tree.py, their one writer).
PITFALLS_HEADING = "## 避坑经验 (Pitfalls)"
BEST_PRACTICES_HEADING = "## 最佳实践 (Best practices)"

_ON_DISK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "templates")


def _resource(*parts: str) -> str | None:
    """The text of a template through ``importlib.resources`` (packages that are not plain files)."""
    from importlib import resources

    node = resources.files("code_memory").joinpath("templates")
    for part in parts:
        node = node.joinpath(part)
    try:
        return node.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, OSError):
        return None


def template_text(*parts: str) -> str:
    """The raw text of ``templates/<parts…>``; ``NOT_FOUND`` when the package lacks it."""
    text = read_text(os.path.join(_ON_DISK, *parts))
    if text is None and not os.path.isdir(_ON_DISK):
        text = _resource(*parts)
    if text is None:
        raise CodeMemoryError("NOT_FOUND", f"template {'/'.join(parts)} is missing from the code_memory package",
                              hint="reinstall code-memory (pip install .) or use a complete checkout")
    return text


def template(template_name: str, **values) -> str:
    """The text of ``templates/<template_name>`` with ``{key}`` placeholders filled in."""
    text = template_text(template_name)
    for key, value in values.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def seed_rules() -> list:
    """The names of the seed files of ``<root>/rules/`` (``templates/rules/*.md``), sorted."""
    folder = os.path.join(_ON_DISK, "rules")
    if os.path.isdir(folder):
        return sorted(n for n in os.listdir(folder) if n.endswith(".md"))
    from importlib import resources

    node = resources.files("code_memory").joinpath("templates", "rules")
    return sorted(p.name for p in node.iterdir() if p.name.endswith(".md"))


def seed_rule(name: str) -> str:
    """The shipped text of ``rules/<name>`` (what a new memory root starts with)."""
    return template_text("rules", name)
