#!/usr/bin/env python3
"""capability-generator.py: gated generation of Claude Code Skills from recurring problems (docs/evolution.md)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.cli.capabilities import main

if __name__ == "__main__":
    sys.exit(main())
