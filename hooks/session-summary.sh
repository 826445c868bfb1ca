#!/usr/bin/env bash
# session-summary.sh — SessionEnd: snapshot the session as pending, start the summarizer detached, return at once.
# Fails open: always exits 0. Off with CODE_MEMORY_HOOKS_DISABLED=1. docs/hooks.md.
case "${BASH_SOURCE[0]}" in */*) CM_HERE=${BASH_SOURCE[0]%/*} ;; *) CM_HERE=. ;; esac
. "$CM_HERE/lib.sh" 2>/dev/null || exit 0
cm_disabled && exit 0
cm_run session-summary
