"""A docs page whose reference part is generated from the code, between two marker lines; the
text around the markers is written by hand. Shared by the generators (``code_memory.cli.reference``
for docs/cli.md, ``code_memory.mcp.reference`` for docs/mcp.md, ``code_memory.config_reference``
for docs/configuration.md and config.example.json): replace the part, and the
command line they share (``--check`` exits 1 when the checked-in page is stale)."""

from __future__ import annotations

import argparse
import sys


def table_cell(text) -> str:
    """One Markdown table cell: one line, ``|`` escaped, ``<…>`` outside code spans shown as text."""
    parts = " ".join(str(text).split()).replace("|", "\\|").split("`")
    return "`".join(part if i % 2 else part.replace("<", "&lt;").replace(">", "&gt;") for i, part in enumerate(parts))


def render_page(current: str, begin: str, end: str, generated: str) -> str:
    """``current`` with the part between ``begin`` and ``end`` replaced by ``generated`` (which
    carries the markers itself); appended when the page has no markers yet."""
    head, sep, rest = current.partition(begin)
    if not sep:
        return current.rstrip("\n") + "\n\n" + generated
    _old, sep, tail = rest.partition(end)
    return head + generated + (tail.lstrip("\n") if sep else "")


def main(argv, *, command: str, page: str, render, what: str, whole_files=None) -> int:
    """The generator's command line: rewrite ``page`` with ``render(current)``, or with ``--check``
    write nothing and exit 1 when it is stale. ``what``: where the reference comes from;
    ``whole_files``: ``{path: render()}`` of files generated whole, written and checked alike."""
    parser = argparse.ArgumentParser(prog=command, description=f"Generate {page} from {what}.")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when the page is stale")
    parser.add_argument("--page", default=page, help="the page to update (default: this checkout's)")
    args = parser.parse_args(argv)
    with open(args.page, encoding="utf-8") as fh:
        current = fh.read()
    outputs = [(args.page, current, render(current))]
    for path, render_whole in (whole_files or {}).items():
        try:
            with open(path, encoding="utf-8") as fh:
                existing = fh.read()
        except FileNotFoundError:
            existing = ""
        outputs.append((path, existing, render_whole()))
    stale = [(path, wanted) for path, existing, wanted in outputs if wanted != existing]
    if args.check:
        for path, _wanted in stale:
            sys.stderr.write(f"{path} is stale: run `{command}` (in a checkout: "
                             f"PYTHONPATH=scripts python3 -m {command.split()[-1]})\n")
        return 1 if stale else 0
    from .fsutil import atomic_write_text
    for path, wanted in stale:
        atomic_write_text(path, wanted)
        sys.stdout.write(f"{path}: updated\n")
    return 0
