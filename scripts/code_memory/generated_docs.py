"""A docs page whose reference part is generated from the code, between two marker lines; the
text around the markers is written by hand. Shared by the generators (``code_memory.cli.reference``
for docs/cli.md, ``code_memory.mcp.reference`` for docs/mcp.md): replace the part, and the
command line they share (``--check`` exits 1 when the checked-in page is stale)."""

from __future__ import annotations

import argparse
import sys


def render_page(current: str, begin: str, end: str, generated: str) -> str:
    """``current`` with the part between ``begin`` and ``end`` replaced by ``generated`` (which
    carries the markers itself); appended when the page has no markers yet."""
    head, sep, rest = current.partition(begin)
    if not sep:
        return current.rstrip("\n") + "\n\n" + generated
    _old, sep, tail = rest.partition(end)
    return head + generated + (tail.lstrip("\n") if sep else "")


def main(argv, *, command: str, page: str, render, what: str) -> int:
    """The generator's command line: rewrite ``page`` with ``render(current)``, or with ``--check``
    write nothing and exit 1 when it is stale. ``what``: where the reference comes from."""
    parser = argparse.ArgumentParser(prog=command, description=f"Generate {page} from {what}.")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when the page is stale")
    parser.add_argument("--page", default=page, help="the page to update (default: this checkout's)")
    args = parser.parse_args(argv)
    with open(args.page, encoding="utf-8") as fh:
        current = fh.read()
    wanted = render(current)
    if args.check:
        if wanted != current:
            sys.stderr.write(f"{args.page} is stale: run `{command}` (in a checkout: "
                             f"PYTHONPATH=scripts python3 -m {command.split()[-1]})\n")
            return 1
        return 0
    if wanted != current:
        from .fsutil import atomic_write_text
        atomic_write_text(args.page, wanted)
        sys.stdout.write(f"{args.page}: updated\n")
    return 0
