#!/usr/bin/env bash
# prompt-recall.sh — UserPromptSubmit: memory relevant to the prompt, behind the relevance gate; silent when nothing passes, never repeated in a session.
# Fails open: always exits 0. Off with CODE_MEMORY_HOOKS_DISABLED=1. docs/hooks.md.
case "${BASH_SOURCE[0]}" in */*) CM_HERE=${BASH_SOURCE[0]%/*} ;; *) CM_HERE=. ;; esac
. "$CM_HERE/lib.sh" 2>/dev/null || exit 0
cm_disabled && exit 0
CM_PAYLOAD=$(cat)
cm_trivial_prompt && exit 0   # a slash command or a few characters: nothing to recall
cm_run prompt-recall
