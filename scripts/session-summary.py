#!/usr/bin/env python3
"""session-summary.py: summarize a Claude Code session into the memory tree (README § Session
summaries). The SessionEnd hook starts it detached with --from-pending."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.cli.summary import main

if __name__ == "__main__":
    sys.exit(main())
