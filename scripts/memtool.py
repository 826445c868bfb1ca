#!/usr/bin/env python3
"""memtool: the structured memory store's command line (see docs/stores.md § memtool)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.cli.memtool import main

if __name__ == "__main__":
    sys.exit(main())
