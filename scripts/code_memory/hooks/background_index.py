"""The index build a hook starts in the background when a memory root has no search index yet
(prompt-recall's first prompt in a new root): ``python -m code_memory.hooks.background_index ROOT``.

Started by the hooks, detached, with the root the hook itself was configured with — not through
the CLI, whose root checks are for callers the user did not start (a detached process may not pick
a root there). It builds only a directory that is a memory root, BM25 only (no model is loaded),
and writes nothing but that root's derived index.
"""

from __future__ import annotations

import os
import sys


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.stderr.write("usage: python -m code_memory.hooks.background_index ROOT\n")
        return 2
    from ..config import load_config
    from ..paths import is_memory_root
    from ..search.build import build_index

    root = os.path.realpath(argv[0])
    if not is_memory_root(root):
        return 2
    try:
        cfg = load_config(root_override=root)
        cfg["embedding"]["enabled"] = False
        build_index(cfg)
    except Exception:          # a background job: nobody reads its output; the next prompt retries
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
