#!/usr/bin/env bash
# session-start.sh — SessionStart: inject the recent-work brief, MEMORY.md, the project summary, kv, the routing table and the Skills index (one budget, by priority, fenced as recalled memory).
# Fails open: always exits 0. Off with CODE_MEMORY_HOOKS_DISABLED=1. docs/hooks.md.
case "${BASH_SOURCE[0]}" in */*) CM_HERE=${BASH_SOURCE[0]%/*} ;; *) CM_HERE=. ;; esac
. "$CM_HERE/lib.sh" 2>/dev/null || exit 0
cm_disabled && exit 0
cm_exec session-start
