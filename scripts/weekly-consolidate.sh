#!/usr/bin/env bash
# weekly-consolidate.sh — the weekly job (README § Self-evolution → Weekly consolidation):
# stats, most-edited files, session topics, knowledge-tree check, pending summaries, fact
# extraction, signals, capability generation, cleanup, reindex, and a Markdown report in
# <memory root>/evolution/reports/. Options go to `code-memory consolidate`:
#   weekly-consolidate.sh [--dry-run] [--days N] [--skip STEP]... [--root DIR] [--format json|text]
# Python: $CODE_MEMORY_PYTHON, else the install.sh venv, else python3. Register it weekly with
# `install.sh --cron` (or `code-memory cron install`).
set -euo pipefail
DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PY=${CODE_MEMORY_PYTHON:-}
if [ -z "$PY" ]; then
  PY="${CODE_MEMORY_HOME:-$HOME/.claude/code-memory}/venv/bin/python"
  [ -x "$PY" ] || PY=python3
fi
exec "$PY" "$DIR/code-memory.py" consolidate "$@"
