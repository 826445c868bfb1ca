#!/usr/bin/env python3
"""memory-search.py: search code-memory (BM25 + vectors), read lines, index, status. See README."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.cli.search import main

if __name__ == "__main__":
    sys.exit(main())
