#!/usr/bin/env python3
"""Entry point of the hook shims in hooks/: ``code-memory-hook.py HOOK-NAME < payload``.

Run with ``-S`` by the shims (standard library only, fast start). Always exits 0 (fail open);
see docs/hooks.md.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.hooks.runtime import main

if __name__ == "__main__":
    sys.exit(main())
