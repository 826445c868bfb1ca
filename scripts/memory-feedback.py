#!/usr/bin/env python3
"""memory-feedback.py: experience refs, session outcomes, scores, report, archive (docs/evolution.md)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.cli.feedback import main

if __name__ == "__main__":
    sys.exit(main())
