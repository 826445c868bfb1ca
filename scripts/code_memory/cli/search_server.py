"""The warm search server's process: ``python -m code_memory.cli.search_server --root DIR``
(started detached by search/client.py; docs/search.md § The warm search server).

This edge loads the root's configuration and owns :data:`OPS`, the ONE allow-list of what the
server does: op name → ``function(warm, request) -> dict`` (``warm``: search/server.py
:class:`WarmRoot`). Adding an op is one line here; its function validates its own request.
"""

from __future__ import annotations

import argparse
import sys

from ..config import load_config
from ..search.related import op_related
from ..search.server import op_ping, op_recall, op_search, op_shutdown, serve

OPS = {
    "ping": op_ping,            # pid, code version, watcher, index counts
    "shutdown": op_shutdown,    # exit after answering
    "search": op_search,        # the one search over every store: what memory-search.py prints
    "recall": op_recall,        # prompt-time recall behind the relevance gate (hooks/prompt_recall.py)
    "related": op_related,      # how close open to-dos are to a turn by meaning (hooks/todo_check.py)
}


def _config(root: str):
    return load_config(root_override=root)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="code_memory.cli.search_server", description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="the memory root to serve")
    args = ap.parse_args(argv)
    return serve(args.root, OPS, _config)


if __name__ == "__main__":
    sys.exit(main())
