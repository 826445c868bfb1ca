#!/usr/bin/env bash
# Start the code-memory MCP server (stdio) with code-memory's Python: $CODE_MEMORY_PYTHON, else the
# install.sh venv, else python3 (the same choice as the hooks). The plugin's .mcp.json runs this.
# Without the mcp SDK in that Python the server still starts and tells the session what to run
# (code_memory/mcp/setup_needed.py).
case "${BASH_SOURCE[0]}" in */*) CM_HERE=${BASH_SOURCE[0]%/*}/../hooks ;; *) CM_HERE=../hooks ;; esac
. "$CM_HERE/lib.sh" || exit 1
cm_python
exec "$CM_PY" "$CM_HERE/../scripts/code-memory-mcp.py" "$@"
