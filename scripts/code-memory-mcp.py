#!/usr/bin/env python3
"""code-memory-mcp: code-memory as an MCP server over stdio (see docs/mcp.md)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from code_memory.mcp.server import main

if __name__ == "__main__":
    sys.exit(main())
