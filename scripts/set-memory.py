#!/usr/bin/env python3
"""set-memory: the one write verb of the agent key-value memory (docs/stores.md § Agent key-value memory).

  set-memory.py /user/preference/style '{"summary": "prefers short answers"}' '{"kind": "user", ...}'
  set-memory.py /user/calendar/x null --source agent          # tombstone
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.cli.kv import set_memory_main

if __name__ == "__main__":
    sys.exit(set_memory_main())
