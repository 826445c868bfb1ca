#!/usr/bin/env bash
# code-memory installer. Idempotent: run it again to update.
#   ./install.sh                 set up everything: venv + package, memory root, index, embedding model,
#                                command links, hooks, MCP server
#   ./install.sh --dry-run       print the plan, change nothing
#   ./install.sh --hooks-only    only the memory root, the command links and the hooks (no venv, pip, index)
#   ./install.sh --no-hooks      everything but the settings.json hooks and the MCP registration
#                                (e.g. when used as a plugin, which brings hooks.json and .mcp.json)
#   ./install.sh --cron          also run scripts/weekly-consolidate.sh weekly from your crontab
#   ./install.sh --uninstall     remove our hooks, MCP registration, crontab line and command links
#                                (keeps the memory root and the venv)
#   ./install.sh --settings FILE the Claude Code settings file (default ~/.claude/settings.json)
#   ./install.sh --bin DIR       where the command links go (default $CODE_MEMORY_BIN, else ~/.local/bin)
#   ./install.sh --extras LIST   the optional extras to try, comma-separated (default zh,vector,llm,mcp,ui;
#                                "none" for none: BM25 search without jieba, no LLM SDK, no MCP, no browser)
# Steps: a venv with the package (+ optional extras when they can be installed), the memory root
# from templates/, the search index (the embedding model is fetched when it can be; what to do when
# it cannot is printed), links to every command (code-memory, memory-search, memtool, ... and the
# *.py names) in ~/.local/bin — never over a file that is not ours —, the hook entries in
# settings.json (tagged "# code-memory"; a backup is made first, everything else is kept, a malformed
# file is refused and left as is), and the MCP server registered with Claude Code at user scope (or
# the command to do it printed).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CODE_MEMORY_HOME=${CODE_MEMORY_HOME:-$HOME/.claude/code-memory}
VENV=${CODE_MEMORY_VENV:-$CODE_MEMORY_HOME/venv}
PYTHON=${PYTHON:-python3}
SETTINGS=${CLAUDE_CONFIG_DIR:-$HOME/.claude}/settings.json
DRY_RUN=0 HOOKS=1 SETUP=1 CRON=0 UNINSTALL=0 EXTRAS=zh,vector,llm,mcp,ui

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY_RUN=1 ;;
    --hooks-only) SETUP=0 ;;
    --no-hooks) HOOKS=0 ;;
    --cron) CRON=1 ;;
    --uninstall) UNINSTALL=1 ;;
    --settings) shift; SETTINGS=${1:?--settings needs a file} ;;
    --settings=*) SETTINGS=${1#--settings=} ;;
    --bin) shift; export CODE_MEMORY_BIN=${1:?--bin needs a directory} ;;
    --bin=*) export CODE_MEMORY_BIN=${1#--bin=} ;;
    --extras) shift; EXTRAS=${1?--extras needs a list (or none)} ;;
    --extras=*) EXTRAS=${1#--extras=} ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

[ "$EXTRAS" = none ] && EXTRAS=
for extra in ${EXTRAS//,/ }; do
  case "$extra" in zh|vector|llm|mcp|ui) ;; *) echo "install.sh: unknown extra '$extra' (zh, vector, llm, mcp, ui or none)" >&2; exit 2 ;; esac
done

say() { printf '[code-memory] %s\n' "$*"; }
run() {
  if [ "$DRY_RUN" = 1 ]; then printf '[dry-run] %s\n' "$*"; else "$@"; fi
}
dry_flag() { [ "$DRY_RUN" = 1 ] && printf -- '--dry-run'; true; }

# the python that runs our own commands: the venv's when there is one
tool_python() { if [ -x "$VENV/bin/python" ]; then printf '%s' "$VENV/bin/python"; else printf '%s' "$PYTHON"; fi; }

if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
  echo "install.sh: Python >= 3.10 is required (PYTHON=$PYTHON)" >&2
  exit 1
fi

if [ "$UNINSTALL" = 1 ]; then
  say "removing code-memory hooks from $SETTINGS"
  "$(tool_python)" "$REPO/scripts/code-memory.py" hooks uninstall --settings "$SETTINGS" --format text $(dry_flag)
  run "$(tool_python)" "$REPO/scripts/code-memory.py" mcp unregister --format text \
    || say "the MCP server was not unregistered (claude not on PATH?); see 'code-memory mcp unregister'"
  run "$(tool_python)" "$REPO/scripts/code-memory.py" cron remove --format text \
    || say "could not check the crontab for the weekly job; see 'code-memory cron status'"
  "$(tool_python)" "$REPO/scripts/code-memory.py" links remove --format text $(dry_flag) \
    || say "the command links were not removed; see 'code-memory links status'"
  say "kept: your memory root (\$CODE_MEMORY_ROOT or ~/.claude/memory) and the venv ($VENV); delete them yourself if you want them gone"
  exit 0
fi

if [ "$SETUP" = 1 ]; then
  say "venv: $VENV"
  if [ ! -x "$VENV/bin/python" ]; then
    run "$PYTHON" -m venv "$VENV"
  fi
  run "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$REPO"
  for extra in ${EXTRAS//,/ }; do
    if [ "$DRY_RUN" = 1 ]; then
      printf '[dry-run] pip install -e "%s[%s]"\n' "$REPO" "$extra"
    elif "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$REPO[$extra]" >/dev/null 2>&1; then
      say "extra '$extra' installed"
    else
      say "extra '$extra' could not be installed (offline?); continuing without it"
    fi
  done
fi

# our own command line, one word per element (a checkout path may hold spaces)
CM=("$(tool_python)" "$REPO/scripts/code-memory.py")
# byte-compile once (also for --hooks-only): hooks and searches never pay for compiling, even
# under PYTHONDONTWRITEBYTECODE
run "$(tool_python)" -m compileall -q "$REPO/scripts" >/dev/null
say "memory root"
run "${CM[@]}" init --format text
# our commands on PATH (docs/install.md): links in $CODE_MEMORY_BIN or ~/.local/bin, never over a
# file that is not ours; says when that directory is not on PATH
say "commands"
"${CM[@]}" links install --format text $(dry_flag) \
  || say "the commands were not linked (see above); run them as $REPO/bin/<command> meanwhile"
if [ "$SETUP" = 1 ]; then
  # the embedding model (docs/search.md → Vectors): fetched now when it can be; else what to do
  say "embedding model"
  NO_VECTORS=()
  if [ "$DRY_RUN" = 1 ]; then
    printf '[dry-run] %s model fetch\n' "${CM[*]}"
  elif ! "${CM[@]}" model fetch --format text; then
    NO_VECTORS=(--no-vectors)
    say "search works without it (BM25); vectors come on once the model is there. To get it:"
    say "  a hub mirror: \"embedding\": {\"endpoint\": \"https://hf-mirror.com\"} in config.json of the memory root"
    say "  (or export HF_ENDPOINT=...), then: code-memory model fetch"
    say "  or a local copy of the hub repo Qdrant/bge-small-zh-v1.5: \"embedding\": {\"model_path\": \"DIR\"}"
    say "  searches also retry in the background, at most once an hour"
  fi
  say "search index"
  run "${CM[@]}" index ${NO_VECTORS[@]+"${NO_VECTORS[@]}"} --format text \
    || say "index build failed; run '${CM[*]} index' to see why"
fi

if [ "$HOOKS" = 1 ]; then
  say "hooks → $SETTINGS"
  # the commands pin the Python running this (a venv outside ~/.claude/code-memory/venv, which the
  # shims find by themselves) — docs/install.md
  if ! "${CM[@]}" hooks install --settings "$SETTINGS" --format text $(dry_flag); then
    echo "install.sh: the hooks were not registered (see above); $SETTINGS is unchanged" >&2
    exit 1
  fi
fi
if [ "$SETUP" = 1 ] && [ "$HOOKS" = 1 ]; then
  # the MCP server (docs/mcp.md): `claude mcp add code-memory --scope user -- …`, idempotent;
  # without claude on PATH the exact command is printed instead
  say "MCP server"
  if [ "$DRY_RUN" = 1 ]; then
    printf '[dry-run] %s\n' "$("${CM[@]}" mcp command --format text 2>/dev/null | sed -n 's/^command: //p')"
  elif MCP_OUT=$("${CM[@]}" mcp register --format text 2>&1); then
    case "$MCP_OUT" in
      *"registered: True"*) say "registered with Claude Code (user scope) as 'code-memory'" ;;
      *) say "claude is not on PATH; register the MCP server with:"
         printf '  %s\n' "$(printf '%s\n' "$MCP_OUT" | sed -n 's/^command: //p')" ;;
    esac
  else
    say "could not register the MCP server: $MCP_OUT"
  fi
fi
if [ "$CRON" = 1 ]; then
  # the weekly job (docs/evolution.md): a tagged crontab line, replaced on every run
  say "weekly job (crontab)"
  run "${CM[@]}" cron install --format text || say "could not register the weekly job; see '${CM[*]} cron install'"
fi
say "done"
