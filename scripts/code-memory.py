#!/usr/bin/env python3
"""code-memory: one entry point for every command (see docs/cli.md § Commands)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
