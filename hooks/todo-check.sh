#!/usr/bin/env bash
# todo-check.sh — Stop: when the turn seems to be about an open to-do, ask the model once whether it finished it; silent otherwise.
# Fails open: always exits 0. Off with CODE_MEMORY_HOOKS_DISABLED=1 or hooks.todo_check false. docs/hooks.md.
case "${BASH_SOURCE[0]}" in */*) CM_HERE=${BASH_SOURCE[0]%/*} ;; *) CM_HERE=. ;; esac
. "$CM_HERE/lib.sh" 2>/dev/null || exit 0
cm_disabled && exit 0
CM_PAYLOAD=$(cat)
case $CM_PAYLOAD in *'"stop_hook_active":true'*|*'"stop_hook_active": true'*) exit 0 ;; esac   # already continuing: never ask twice
cm_run todo-check
