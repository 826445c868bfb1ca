#!/usr/bin/env bash
# weekly-consolidate.sh — the weekly job (docs/evolution.md → Weekly consolidation):
# stats, most-edited files, session topics, knowledge-tree check, pending summaries, fact
# extraction, signals, capability generation, cleanup, reindex, and a Markdown report in
# <memory root>/evolution/reports/. Options go to `code-memory consolidate`:
#   weekly-consolidate.sh [--dry-run] [--days N] [--skip STEP]... [--root DIR] [--format json|text]
# Python: $CODE_MEMORY_PYTHON (which `code-memory cron install` pins), else the install.sh venv,
# else python3. Register it weekly with `install.sh --cron` (or `code-memory cron install`), which
# also writes $CODE_MEMORY_ENV_FILE: how the job reaches the LLM under cron (an API key, or the path
# of claude). It is sourced only when it is a regular file of ours that nobody else can read.
set -euo pipefail
DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -n "${CODE_MEMORY_ENV_FILE:-}" ]; then
  if [ -f "$CODE_MEMORY_ENV_FILE" ] && [ -O "$CODE_MEMORY_ENV_FILE" ] && \
     case $(ls -ln "$CODE_MEMORY_ENV_FILE") in -rw-------*|-r--------*) true ;; *) false ;; esac; then
    set -a
    # shellcheck disable=SC1090
    . "$CODE_MEMORY_ENV_FILE"
    set +a
  else
    echo "weekly-consolidate.sh: $CODE_MEMORY_ENV_FILE is missing, not ours or readable by others; running without it (LLM steps will report degraded) — run: code-memory cron install" >&2
  fi
fi
PY=${CODE_MEMORY_PYTHON:-}
if [ -z "$PY" ]; then
  PY="${CODE_MEMORY_HOME:-$HOME/.claude/code-memory}/venv/bin/python"
  [ -x "$PY" ] || PY=python3
fi
if [ -f "$DIR/code-memory.py" ]; then
  exec "$PY" "$DIR/code-memory.py" consolidate "$@"
fi
exec "$PY" -m code_memory.cli.main consolidate "$@"   # the copy an installed wheel ships (setup.py)
