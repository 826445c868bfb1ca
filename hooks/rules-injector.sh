#!/usr/bin/env bash
# rules-injector.sh — PreToolUse(Read): the first Read in a project each session brings its rules; later Reads are silent.
# Fails open: always exits 0. Off with CODE_MEMORY_HOOKS_DISABLED=1. docs/hooks.md.
case "${BASH_SOURCE[0]}" in */*) CM_HERE=${BASH_SOURCE[0]%/*} ;; *) CM_HERE=. ;; esac
. "$CM_HERE/lib.sh" 2>/dev/null || exit 0
cm_disabled && exit 0
CM_PAYLOAD=$(cat)
cm_dir_marked && ! cm_file_fresh && exit 0   # fast path: project loaded, nothing (new) known about this file
cm_run rules-injector
