#!/usr/bin/env python3
"""lint-python-rules.py: the python rules of the avoidance gate on the files you name (docs/hooks.md § Lint rules)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.cli.lint import main

if __name__ == "__main__":
    sys.exit(main("python"))
