#!/usr/bin/env bash
# schema-injector.sh — SubagentStart: the schema index into Plan/Explore/architect subagents, once per session.
# Fails open: always exits 0. Off with CODE_MEMORY_HOOKS_DISABLED=1. docs/hooks.md.
case "${BASH_SOURCE[0]}" in */*) CM_HERE=${BASH_SOURCE[0]%/*} ;; *) CM_HERE=. ;; esac
. "$CM_HERE/lib.sh" 2>/dev/null || exit 0
cm_disabled && exit 0
CM_PAYLOAD=$(cat)
# fast path: injected already this session (hooks.schema_once_per_session, the default)
cm_session_flags && [ -e "$CM_SESSION_FLAGS/schema" ] && exit 0
cm_run schema-injector
