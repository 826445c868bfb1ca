#!/usr/bin/env python3
"""auto-extract-facts.py: atomic facts from the last week's session summaries into facts.json
(docs/stores.md § Facts). Run weekly by weekly-consolidate, or by hand (--dry-run to preview)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.cli.facts import main_extract

if __name__ == "__main__":
    sys.exit(main_extract())
