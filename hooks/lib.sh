# code-memory hook shims: shared shell helpers (sourced, never run). docs/hooks.md.
# Pure bash builtins on the fast path: no jq, no subprocess before Python is really needed.

CM_HOOKS_DIR=${CM_HERE:-.}

# The switch the summarizer's `claude -p` child (and anyone) uses to turn every hook off.
cm_disabled() {
  case "${CODE_MEMORY_HOOKS_DISABLED:-}" in 1|true|TRUE|True|yes|on) return 0 ;; esac
  return 1
}

# Python: $CODE_MEMORY_PYTHON, else the install.sh venv, else python3 on PATH.
cm_python() {
  if [ -n "${CODE_MEMORY_PYTHON:-}" ]; then
    CM_PY=$CODE_MEMORY_PYTHON
  elif [ -x "${CODE_MEMORY_HOME:-$HOME/.claude/code-memory}/venv/bin/python" ]; then
    CM_PY="${CODE_MEMORY_HOME:-$HOME/.claude/code-memory}/venv/bin/python"
  else
    CM_PY=python3
  fi
}

# Flag directories from the payload in $CM_PAYLOAD (flags.py documents the layout):
# CM_SESSION_FLAGS is the session's, CM_AGENT_FLAGS the sender's — a subagent's own directory when
# the payload carries "agent_id" (Claude Code puts it on every event inside a subagent), else the
# session's. Only plain ids; anything else goes to Python, which hashes it.
cm_session_flags() {
  local re='"session_id": ?"([A-Za-z0-9_-]{1,128})"'
  [[ $CM_PAYLOAD =~ $re ]] || return 1
  local base="${CODE_MEMORY_HOOKS__FLAG_DIR:-${TMPDIR:-/tmp}/code-memory-$UID}"
  [ -O "$base" ] || return 1
  CM_SESSION_FLAGS="$base/${BASH_REMATCH[1]}"
  CM_AGENT_FLAGS=$CM_SESSION_FLAGS
  case $CM_PAYLOAD in *'"agent_id"'*)
    re='"agent_id": ?"([A-Za-z0-9_-]{1,128})"'
    [[ $CM_PAYLOAD =~ $re ]] || return 1
    CM_AGENT_FLAGS="$CM_SESSION_FLAGS/a-${BASH_REMATCH[1]}" ;;
  esac
}

# True when the file in tool_input.file_path lies in a directory Python already marked for the
# sending agent (its project's rules are loaded, or it has none). Escaped paths go to Python.
cm_dir_marked() {
  cm_session_flags || return 1
  local re='"file_path": ?"(/[^"\\]*)"'
  [[ $CM_PAYLOAD =~ $re ]] || return 1
  CM_FILE=${BASH_REMATCH[1]}
  local dir=${CM_FILE%/*}
  dir=${dir//\%/%25}
  dir=${dir//\//%2F}
  [ -e "$CM_AGENT_FLAGS/d$dir" ]
}

# True when the file cm_dir_marked found has a name memory knows something about (a k<name>
# marker) and its file-time recall has not happened yet for the sending agent (no f<path>
# marker): that first Read or Edit goes to Python (hooks/ledger.py); every other one does not.
cm_file_fresh() {
  local name=${CM_FILE##*/} path=${CM_FILE//\%/%25}
  name=${name//\%/%25}
  path=${path//\//%2F}
  [ -e "$CM_AGENT_FLAGS/k$name" ] && [ ! -e "$CM_AGENT_FLAGS/f$path" ]
}

# True for a prompt with nothing to recall for: a slash command, a background task's
# notification, or at most five characters.
cm_trivial_prompt() {
  local re='"prompt": ?"(/|<task-notification>|[^"\\]{0,5}")'
  [[ $CM_PAYLOAD =~ $re ]]
}

# Run the Python side of hook $1. The payload comes from $CM_PAYLOAD when the shim read it,
# else straight from our stdin. Always exit 0: a broken hook must not disturb the session.
cm_run() {
  cm_python
  if [ -n "${CM_PAYLOAD+set}" ]; then
    "$CM_PY" -S "$CM_HOOKS_DIR/../scripts/code-memory-hook.py" "$1" 2>/dev/null <<<"$CM_PAYLOAD"
  else
    "$CM_PY" -S "$CM_HOOKS_DIR/../scripts/code-memory-hook.py" "$1" 2>/dev/null
  fi
  exit 0
}

# Like cm_run for a shim that never reads the payload itself: the shell becomes Python (exec), one
# process less on SessionStart's path. code-memory-hook.py exits 0 whatever happens inside it; a
# missing interpreter exits 0 here.
cm_exec() {
  cm_python
  command -v "$CM_PY" >/dev/null 2>&1 || exit 0
  exec "$CM_PY" -S "$CM_HOOKS_DIR/../scripts/code-memory-hook.py" "$1" 2>/dev/null
}
