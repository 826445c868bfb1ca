#!/usr/bin/env python3
"""signal-analyzer.py: signals from session summaries, recurring patterns, report (docs/evolution.md)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.cli.signals import main

if __name__ == "__main__":
    sys.exit(main())
