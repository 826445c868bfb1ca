"""A session's outcome from its transcript (no LLM): success or failed, and how many corrections.

Read from the Claude Code transcript JSONL (unknown line types are skipped, a torn
last line is tolerated; sidechain and meta lines are ignored):

  user_corrections  human prompts (not the first) that correct Claude — transcript.CORRECTION_PATTERNS,
                    Chinese or English phrases such as "不对", "错了", "撤销", "wrong", "that's not",
                    "undo", "revert" (the same definition the summary's digest uses); an
                    interruption ("[Request interrupted by user…]"); a tool call the user rejected
  reverted_edits    an Edit that exactly undoes an earlier Edit of the same file (old/new swapped),
                    a Write that puts a file's original content back, or a Bash ``git checkout --``,
                    ``git restore``, ``git reset --hard``, ``git revert``
  tool_errors       tool results marked ``is_error`` (failed commands, other tools' hook denials, …);
                    code-memory's own gate denials ("[code-memory] This Edit was not applied…")
                    are not errors: the gate asked for the rules first, nobody did anything wrong

  corrections = user_corrections + reverted_edits + tool_errors
  failed  ⟺  the session ended unresolved: after its last problem — a tool error, a correction,
             an API error — came no successful tool result (and no new, non-correcting prompt;
             for an API error, no later assistant message). An assistant's closing text alone
             does not resolve anything.
             or user_corrections + reverted_edits ≥ max_corrections (default 3)
             or tool_errors ≥ max_tool_errors (default 10)
  otherwise success — when the session did some work (an edit tool or a shell command ran).
  A session that did none and had no problem (a question answered, a greeting) has no outcome:
  it is no evidence that the memory handed to it helped, so feedback scores do not rise from it.
  A transcript with no human prompt and no assistant message has no outcome either.

  changed_files     the files a successful Edit, Write, MultiEdit or NotebookEdit changed, and
  cwd               the session's working directory: what evidence.py reads to tell which
                    experiences the outcome counts for
"""

from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass, field

from ..errors import CodeMemoryError
from ..transcript import EDIT_TOOLS, clean_text, is_correction, is_own_hook_message, is_system_prompt, iter_records

_REJECTED = re.compile(r"user doesn't want to (?:proceed|take this action)|tool use was rejected", re.I)
WORK_TOOLS = frozenset(EDIT_TOOLS) | {"Bash"}
_GIT_REVERT = re.compile(r"\bgit\s+(?:checkout\s+(?:[^\n;&|]*\s)?--\s|restore\b|reset\s+--hard\b|revert\b)")


@dataclass
class Assessment:
    outcome: str | None                 # "success" | "failed" | None (nothing happened)
    corrections: int
    user_corrections: int = 0
    reverted_edits: int = 0
    tool_errors: int = 0
    prompts: int = 0
    tool_calls: int = 0
    work_calls: int = 0                 # edit tools and shell commands that ran (not denied by us)
    gate_denials: int = 0               # code-memory's own gate said "read the rules first"
    ended_unresolved: bool = False
    reasons: list = field(default_factory=list)
    changed_files: list = field(default_factory=list)   # files a successful edit tool changed (evidence.py)
    cwd: str = ""                                       # the session's working directory

    def to_dict(self) -> dict:
        return asdict(self)


def _prompt_text(rec: dict, content) -> str | None:
    """The human-typed text of a user message, or None for tool results, injected wrappers and
    lines Claude Code wrote itself."""
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        parts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
        if not parts:
            return None
        text = "\n".join(parts)
    else:
        return None
    if is_system_prompt(rec, text):
        return None
    return clean_text(text) or None


def _tool_result_text(block: dict) -> str:
    content = block.get("content")
    if isinstance(content, list):
        return " ".join(b.get("text", "") for b in content if isinstance(b, dict))
    return content if isinstance(content, str) else ""


class _Reverts:
    """Tracks edits per file to recognise one that undoes an earlier one."""

    def __init__(self):
        self.edits: dict = {}          # file -> [(old, new)]
        self.originals: dict = {}      # file -> content before the session's first edit

    def edit(self, tool: str, inp: dict) -> bool:
        path = inp.get("file_path")
        if not isinstance(path, str):
            return False
        if tool == "Write":
            content = inp.get("content")
            return isinstance(content, str) and path in self.originals and self.originals[path] == content \
                and bool(self.edits.get(path))
        old, new = inp.get("old_string"), inp.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str):
            return False
        history = self.edits.setdefault(path, [])
        for i, (prev_old, prev_new) in enumerate(history):
            if prev_old == new and prev_new == old:
                del history[i]
                return True
        history.append((old, new))
        return False

    def original(self, tool_use_result) -> None:
        if isinstance(tool_use_result, dict) and isinstance(tool_use_result.get("originalFile"), str):
            self.originals.setdefault(tool_use_result.get("filePath"), tool_use_result["originalFile"])


def assess_lines(records, max_corrections: int = 3, max_tool_errors: int = 10) -> Assessment:
    """Assess an iterable of transcript records (dicts). See the module docstring for the rules."""
    a = Assessment(outcome=None, corrections=0)
    reverts = _Reverts()
    tool_names: dict = {}
    assistant_seen = False
    pending = None               # the unresolved problem so far: "error" | "correction" | "api-error"
    seen_messages = set()
    edit_targets: dict = {}      # tool_use id -> the file an edit tool was asked to change
    for rec in records:
        if rec.get("isSidechain") or rec.get("isMeta") or rec.get("type") not in ("user", "assistant"):
            continue
        if not a.cwd and isinstance(rec.get("cwd"), str):
            a.cwd = rec["cwd"]
        message = rec.get("message")
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        if rec["type"] == "assistant":
            mid = message.get("id")
            blocks = content if isinstance(content, list) else []
            for block in blocks:
                if not isinstance(block, dict) or block.get("type") != "tool_use":
                    continue
                key = (mid, block.get("id"))
                if key in seen_messages:
                    continue
                seen_messages.add(key)
                a.tool_calls += 1
                name, inp = block.get("name"), block.get("input") or {}
                tool_names[block.get("id")] = name
                if name in WORK_TOOLS:
                    a.work_calls += 1
                if name in EDIT_TOOLS and isinstance(inp, dict) and isinstance(inp.get(EDIT_TOOLS[name]), str):
                    edit_targets[block.get("id")] = inp[EDIT_TOOLS[name]]
                if name in ("Edit", "Write", "MultiEdit") and isinstance(inp, dict) and reverts.edit(name, inp):
                    a.reverted_edits += 1
                elif name == "Bash" and isinstance(inp, dict) and _GIT_REVERT.search(str(inp.get("command", ""))):
                    a.reverted_edits += 1
            if rec.get("isApiErrorMessage"):
                pending = "api-error"
            elif pending == "api-error" and blocks:
                pending = None
            assistant_seen = True
            continue
        # user line: a typed prompt or tool results
        if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            reverts.original(rec.get("toolUseResult"))
            for block in content:
                if not isinstance(block, dict) or block.get("type") != "tool_result":
                    continue
                if block.get("is_error"):
                    if is_own_hook_message(_tool_result_text(block)):
                        a.gate_denials += 1          # our gate's "not yet": no error, no correction
                        if tool_names.get(block.get("tool_use_id")) in WORK_TOOLS:
                            a.work_calls -= 1
                    elif _REJECTED.search(_tool_result_text(block)):
                        a.user_corrections += 1      # the user stopped it: a correction, not left open
                    else:
                        a.tool_errors += 1
                        pending = "error"
                else:
                    pending = None
                    target = edit_targets.get(block.get("tool_use_id"))
                    if target and target not in a.changed_files:
                        a.changed_files.append(target)
            continue
        text = _prompt_text(rec, content)
        if text is None or text.startswith("This session is being continued"):
            continue
        a.prompts += 1
        if a.prompts > 1 and is_correction(text):
            a.user_corrections += 1
            pending = "correction"
        else:
            pending = None
    if a.prompts == 0 and not assistant_seen:
        return a
    a.corrections = a.user_corrections + a.reverted_edits + a.tool_errors
    if pending:
        a.ended_unresolved = True
        a.reasons.append(f"ended unresolved ({pending})")
    if a.user_corrections + a.reverted_edits >= max_corrections:
        a.reasons.append(f"{a.user_corrections + a.reverted_edits} user corrections / reverted edits >= {max_corrections}")
    if a.tool_errors >= max_tool_errors:
        a.reasons.append(f"{a.tool_errors} tool errors >= {max_tool_errors}")
    if a.reasons:
        a.outcome = "failed"
    elif a.work_calls > 0 or a.corrections > 0:
        a.outcome = "success"
    else:
        a.reasons.append("no work done (no edit or command ran): no evidence either way")
    return a


def assess_transcript(path: str, max_corrections: int = 3, max_tool_errors: int = 10) -> Assessment:
    """Assess a transcript file; ``NOT_FOUND`` when it does not exist."""
    if not os.path.isfile(path):
        raise CodeMemoryError("NOT_FOUND", "transcript not found", hint="pass the session's transcript_path",
                              path=path)
    return assess_lines(iter_records(path), max_corrections, max_tool_errors)
