#!/usr/bin/env bash
# code-memory installer. Idempotent: run it again to update.
#   ./install.sh             set up everything and build the first index
#   ./install.sh --dry-run   print the plan, change nothing
#   ./install.sh --cron      also run scripts/weekly-consolidate.sh weekly from your crontab
# Steps: a venv with the package (+ optional extras when they can be installed), the memory root
# from templates/, and the search index (BM25 always; vectors when an embedding model loads).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CODE_MEMORY_HOME=${CODE_MEMORY_HOME:-$HOME/.claude/code-memory}
VENV=${CODE_MEMORY_VENV:-$CODE_MEMORY_HOME/venv}
PYTHON=${PYTHON:-python3}
DRY_RUN=0
CRON=0

for arg in "$@"; do
  case "$arg" in
    --dry-run) DRY_RUN=1 ;;
    --cron) CRON=1 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
  esac
done

say() { printf '[code-memory] %s\n' "$*"; }
run() {
  if [ "$DRY_RUN" = 1 ]; then printf '[dry-run] %s\n' "$*"; else "$@"; fi
}

if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
  echo "install.sh: Python >= 3.10 is required (PYTHON=$PYTHON)" >&2
  exit 1
fi

say "venv: $VENV"
if [ ! -x "$VENV/bin/python" ]; then
  run "$PYTHON" -m venv "$VENV"
fi
run "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$REPO"
for extra in zh vector llm mcp; do
  if [ "$DRY_RUN" = 1 ]; then
    printf '[dry-run] pip install -e "%s[%s]"\n' "$REPO" "$extra"
  elif "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$REPO[$extra]" >/dev/null 2>&1; then
    say "extra '$extra' installed"
  else
    say "extra '$extra' could not be installed (offline?); continuing without it"
  fi
done

CM="$VENV/bin/python $REPO/scripts/code-memory.py"
say "memory root"
run $CM init --format text
say "search index"
run $CM index --format text || say "index build failed; run '$CM index' to see why"
if [ "$CRON" = 1 ]; then
  # the weekly job (README § Self-evolution): a tagged crontab line, replaced on every run
  say "weekly job (crontab)"
  run $CM cron install --format text || say "could not register the weekly job; see '$CM cron install'"
fi
say "done"
