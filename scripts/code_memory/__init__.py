"""code-memory: a lasting memory for Claude Code.

The package is standard-library only at import time; optional extras (jieba, fastembed,
anthropic, mcp) are imported lazily by the modules that need them.
"""

__version__ = "0.1.0"
