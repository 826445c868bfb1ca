"""Claude Code transcripts (docs/summaries.md § Session summaries): a streaming reader, the
conversation a summarizer reads, and a structured digest for the deterministic path.

The reader never holds the file in memory: it reads one line at a time (lines longer than
``max_line_bytes`` are skipped without being loaded), parses only chat lines, tolerates a torn last
line, skips unknown line types and merges the lines of one assistant message (same
``message.id``). The conversation keeps a head and a tail within ``max_chars`` (the middle is
elided), so a 50 MB transcript costs a bounded amount of memory. Everything that leaves this
module — conversation text, commands, errors, corrections — has been redacted
(code_memory.redact) message by message, so truncation can never expose half a secret.

Conversation extraction: user and assistant lines that are not ``isMeta`` (or compact summaries /
task notifications); tool-result-only messages dropped; ``<system-reminder>`` and command wrappers
(``<command-name>``, ``<local-command-stdout>``, …) stripped; text blocks joined; thinking dropped;
tool calls shown as one short marker line (``[Edit a.py]``) so the model knows what was done.

code-memory's own hook messages are not what happened in the session: a tool result that is one
of our gate denials (``[code-memory] This Edit was not applied…``) is counted as ``gate_denials``,
never as an error, a failed file or a correction; the avoidance gate's findings (hook attachment
lines) become ``lint_findings``.
"""

from __future__ import annotations

import collections
import glob
import json
import os
import re
import shlex
from dataclasses import dataclass, field

from .redact import redact

DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024
DEFAULT_MAX_CHARS = 48000
MESSAGE_CAP = 4000          # one message longer than this is elided in the middle
CHAT_TYPES = ("user", "assistant")
EDIT_TOOLS = {"Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path",
              "NotebookEdit": "notebook_path"}

_TYPE_PROBE = re.compile(rb'"type"\s*:\s*"(?:user|assistant)"')
OWN_MARKER = "[code-memory"              # every message our hooks write starts with it
STOP_FEEDBACK = "Stop hook feedback:"     # how Claude Code hands a Stop hook's block reason to the model
LINT_MARKER = "[code-memory avoidance-gate]"
_LINT_PROBE = LINT_MARKER.encode()
HOOK_ATTACHMENTS = ("hook_blocking_error", "hook_additional_context")
_STRIP_BLOCKS = re.compile(
    r"<(system-reminder|local-command-stdout|local-command-stderr|local-command-caveat|"
    r"command-name|command-message|command-args|command-contents|user-memory-input)>"
    r".*?(?:</\1>|\Z)", re.DOTALL)
_BLANK_RUN = re.compile(r"\n{3,}")
_SYSTEM_PROMPTS = ("<task-notification>", "<bash-notification>", "Caveat: The messages below were generated")
_INTERRUPTED = re.compile(r"^\[Request interrupted by user[^\]]*\]$")
_USER_FEEDBACK = re.compile(r"(?:the user said|user provided the following reason)[^:\n]*:\s*(.+)",
                            re.IGNORECASE | re.DOTALL)
# What counts as a user correcting Claude (Chinese and English). One definition for the summary's
# digest and the session outcome (outcome.py); only prompts after the first are tested.
CORRECTION_PATTERNS = [
    # Chinese
    r"不对", r"错了", r"不是这样", r"不是这个", r"搞错", r"弄错", r"写错", r"改错", r"理解错", r"又错",
    r"撤销", r"撤回", r"回滚", r"还原", r"恢复原", r"改回", r"别这样", r"不要这样", r"不要改", r"别再",
    r"别改", r"重新(?:来|做|写|改)", r"还是不行", r"还是报错", r"没有用", r"不起作用", r"你又", r"你忘了",
    r"我说的是", r"我的意思是", r"并不是", r"应该是",
    # English
    r"\bwrong\b", r"\bincorrect\b", r"\bthat'?s not\b", r"\bthis is not\b", r"\bnot what i\b",
    r"\bi said\b", r"\bi meant\b", r"\bi asked\b", r"\bundo\b", r"\brevert", r"\broll ?back\b",
    r"\bput it back\b", r"\bdon'?t (?:do|change|touch|edit|use)\b",
    r"\bstill (?:broken|failing|fails|wrong|not working)\b", r"\bdoesn'?t work\b",
    r"\bdid(?:n'?t| not) work\b", r"\bnot working\b", r"^\s*no[,.!]", r"^\s*nope\b", r"\byou (?:forgot|missed|broke)\b",
    r"\bwhy did you\b", r"\bmistake\b",
]
_CORRECTION = re.compile("|".join(CORRECTION_PATTERNS), re.IGNORECASE | re.MULTILINE)


def is_correction(text: str) -> bool:
    """Does a (cleaned) user prompt correct Claude, or interrupt it?"""
    return bool(_INTERRUPTED.match(text.strip()) or _CORRECTION.search(text[:400]))


def is_own_hook_message(text) -> bool:
    """Is this tool result or hook output written by code-memory's own hooks (a gate denial
    ``PreToolUse:Edit hook error: [code-memory] …``, a lint block, injected context)? Such text
    is never knowledge, an error, a signal or a correction."""
    return isinstance(text, str) and OWN_MARKER in text[:400]


@dataclass(slots=True)
class Message:
    role: str                      # "user" | "assistant"
    text: str = ""                 # cleaned, joined text blocks (not yet redacted)
    tool_uses: list = field(default_factory=list)     # [{"id", "name", "input"}]
    tool_results: list = field(default_factory=list)  # [{"tool_use_id", "text" (errors only), "is_error"}]
    timestamp: str = ""
    message_id: str = ""
    source: str = "main"           # "main" or "subagent <type>"
    hook_text: str = ""            # role "hook": the text of one of our hooks' attachments
    memory_question: bool = False  # Claude Code's "Stop hook feedback:" line of our todo-check question


@dataclass
class ReadStats:
    lines: int = 0
    skipped_lines: int = 0         # unparseable, torn or over-long
    bytes: int = 0
    session_id: str = ""
    cwd: str = ""
    git_branch: str = ""
    first_timestamp: str = ""
    last_timestamp: str = ""
    compactions: int = 0

    def note(self, rec: dict) -> None:
        ts = rec.get("timestamp")
        if isinstance(ts, str) and ts:
            if not self.first_timestamp:
                self.first_timestamp = ts
            self.last_timestamp = ts
        for attr, key in (("session_id", "sessionId"), ("cwd", "cwd"), ("git_branch", "gitBranch")):
            if not getattr(self, attr) and isinstance(rec.get(key), str):
                setattr(self, attr, rec[key])


def _read_lines(fh, max_line_bytes: int, stats: ReadStats):
    """Yield complete lines (bytes) of at most ``max_line_bytes``; longer ones are skipped while
    being read in chunks, so they are never held in memory."""
    while True:
        line = fh.readline(max_line_bytes + 1)
        if not line:
            return
        stats.bytes += len(line)
        if len(line) > max_line_bytes and not line.endswith(b"\n"):
            stats.lines += 1
            stats.skipped_lines += 1
            while True:  # discard the rest of the over-long line
                rest = fh.readline(1 << 20)
                stats.bytes += len(rest)
                if not rest or rest.endswith(b"\n"):
                    break
            continue
        stats.lines += 1
        yield line


def iter_records(path: str, stats: ReadStats | None = None,
                 max_line_bytes: int = DEFAULT_MAX_LINE_BYTES, results_only: bool = False):
    """Yield the parsed chat lines (``type`` user/assistant, plus compact boundaries counted in
    ``stats``) of a transcript. Other line types are skipped unparsed; a torn line is skipped.
    With ``results_only`` a line that only reports tools that worked comes as a short record
    holding just those results under :data:`RESULTS_ONLY` (read without a JSON parse)."""
    stats = stats if stats is not None else ReadStats()
    with open(path, "rb") as fh:
        for raw in _read_lines(fh, max_line_bytes, stats):
            lint = _LINT_PROBE in raw
            if not lint and not _TYPE_PROBE.search(raw):
                if b"compact_boundary" in raw:
                    stats.compactions += 1
                continue
            rec = _result_only(raw) if results_only and stats.session_id and not lint else None
            if rec is None:
                try:
                    rec = json.loads(raw.decode("utf-8", errors="replace"))
                except ValueError:
                    stats.skipped_lines += 1
                    continue
            if not isinstance(rec, dict):
                continue
            if rec.get("type") == "attachment" and lint:
                yield rec                 # the avoidance gate's findings (hook_attachment_text)
                continue
            if rec.get("type") not in CHAT_TYPES:
                continue
            stats.note(rec)
            yield rec


RESULTS_ONLY = "_results_only"       # a record read by _result_only: its tool results, ready
_RESULT_IDS = re.compile(rb'"tool_use_id"\s*:\s*"([^"\\]{1,200})"')
_TIMESTAMP = re.compile(rb'"timestamp"\s*:\s*"([^"\\]{1,64})"')
_USER_LINE = re.compile(rb'"type"\s*:\s*"user"')
_SIDECHAIN = re.compile(rb'"isSidechain"\s*:\s*true')


def _result_only(raw: bytes) -> dict | None:
    """The record of a line that only reports tools that worked — most of a long transcript's
    bytes (file contents, command output) — read without parsing its JSON: their ids, its time,
    whether it is a subagent's. Only an error's text is ever needed, so any line that may carry
    an error, text of its own, or is torn goes to the JSON parser (None)."""
    if b'"tool_result"' not in raw or b'"is_error":true' in raw or b'"is_error": true' in raw \
            or b'"type":"text"' in raw or b'"type": "text"' in raw or not raw.rstrip().endswith(b"}") \
            or not _USER_LINE.search(raw):
        return None
    ids = _RESULT_IDS.findall(raw)
    if not ids:
        return None
    stamp = _TIMESTAMP.search(raw)
    return {"type": "user", "isSidechain": bool(_SIDECHAIN.search(raw)),
            "timestamp": stamp.group(1).decode("utf-8", "replace") if stamp else "",
            RESULTS_ONLY: [{"tool_use_id": i.decode("utf-8", "replace"), "text": "", "is_error": False} for i in ids]}


def hook_attachment_text(rec: dict) -> str:
    """The text one of our hooks put into an ``attachment`` line (a PostToolUse block reason or
    additional context), else ``""``."""
    att = rec.get("attachment")
    if not isinstance(att, dict) or att.get("type") not in HOOK_ATTACHMENTS:
        return ""
    blocking = att.get("blockingError")
    if isinstance(blocking, dict):
        blocking = blocking.get("blockingError")
    content = att.get("content")
    parts = [blocking] if isinstance(blocking, str) else []
    parts += content if isinstance(content, list) else [content]
    return "\n".join(p for p in parts if isinstance(p, str) and is_own_hook_message(p))


def _block_text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content
                         if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str))
    return ""


def clean_text(text: str) -> str:
    """Strip system reminders and command wrappers; collapse the blank lines they leave."""
    text = _STRIP_BLOCKS.sub("", text) if text and "<" in text else (text or "")
    return _BLANK_RUN.sub("\n\n", text).strip() if "\n\n\n" in text else text.strip()


def _blocks_of(rec: dict) -> list:
    msg = rec.get("message")
    if not isinstance(msg, dict):
        return []
    content = msg.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def is_system_prompt(rec: dict, text: str) -> bool:
    """A user line written by Claude Code, not typed by the person (meta, compaction summary,
    task notifications, caveats)."""
    if rec.get("isMeta") or rec.get("isCompactSummary") or rec.get("isVisibleInTranscriptOnly"):
        return True
    origin = rec.get("origin")
    if rec.get("promptSource") == "system" or (isinstance(origin, dict) and origin.get("kind") == "task-notification"):
        return True
    return text.lstrip().startswith(_SYSTEM_PROMPTS)


def _to_message(rec: dict, source: str) -> Message:
    msg = rec.get("message") if isinstance(rec.get("message"), dict) else {}
    out = Message(role=rec["type"], timestamp=str(rec.get("timestamp") or ""),
                  message_id=str(msg.get("id") or ""), source=source)
    texts = []
    for block in _blocks_of(rec):
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif kind == "tool_use":
            out.tool_uses.append({"id": block.get("id"), "name": str(block.get("name") or "?"),
                                  "input": block.get("input") if isinstance(block.get("input"), dict) else {}})
        elif kind == "tool_result":
            error = bool(block.get("is_error"))       # only an error's text is ever read: join it then
            out.tool_results.append({"tool_use_id": block.get("tool_use_id"),
                                     "text": _block_text(block.get("content")) if error else "",
                                     "is_error": error})
    if texts:
        joined = "\n".join(texts)
        out.text = "" if out.role == "user" and is_system_prompt(rec, joined) else clean_text(joined)
        out.memory_question = (out.role == "user" and joined.startswith(STOP_FEEDBACK)
                               and OWN_MARKER in joined[:len(STOP_FEEDBACK) + 40])
    return out


def _merge(into: Message, other: Message) -> None:
    if other.text and other.text not in into.text:
        into.text = (into.text + "\n" + other.text).strip()
    seen = {t["id"] for t in into.tool_uses}
    into.tool_uses.extend(t for t in other.tool_uses if t["id"] not in seen)


def iter_messages(path: str, stats: ReadStats | None = None, source: str = "main",
                  max_line_bytes: int = DEFAULT_MAX_LINE_BYTES):
    """Yield :class:`Message` objects; consecutive assistant lines with one ``message.id`` (one
    streamed message written block by block) come out as one message."""
    pending: Message | None = None
    for rec in iter_records(path, stats, max_line_bytes, results_only=True):
        if rec.get("isSidechain") and source == "main":
            continue  # older builds kept subagent lines in the main file: not the main conversation
        if rec.get("type") == "attachment":
            text = hook_attachment_text(rec)
            if text:
                yield Message(role="hook", hook_text=text, source=source)
            continue
        if RESULTS_ONLY in rec:
            current = Message(role="user", tool_results=rec[RESULTS_ONLY], timestamp=rec["timestamp"], source=source)
        else:
            current = _to_message(rec, source)
        if pending is not None and current.message_id and current.message_id == pending.message_id:
            _merge(pending, current)
            continue
        if pending is not None:
            yield pending
        pending = current
    if pending is not None:
        yield pending


def subagent_paths(transcript_path: str) -> list:
    """Subagent transcripts of a session: ``<session>/subagents/agent-*.jsonl`` (current builds)
    or ``agent-*.jsonl`` beside the session file (older builds), oldest first."""
    stem = os.path.splitext(transcript_path)[0]
    found = glob.glob(os.path.join(stem, "subagents", "agent-*.jsonl"))
    found += [p for p in glob.glob(os.path.join(os.path.dirname(transcript_path), "agent-*.jsonl"))
              if _belongs_to(p, os.path.basename(stem))]
    return sorted(set(found), key=lambda p: (os.path.getmtime(p), p))


def subagent_label(path: str) -> str:
    """``subagent Explore`` from the ``agent-<id>.meta.json`` beside a subagent transcript, else
    ``subagent <id>``."""
    stem = os.path.splitext(path)[0]
    try:
        with open(stem + ".meta.json", encoding="utf-8") as fh:
            kind = json.load(fh).get("agentType")
    except (OSError, ValueError, AttributeError):
        kind = None
    return "subagent " + str(kind or os.path.basename(stem).replace("agent-", ""))[:40]


def _belongs_to(path: str, session_id: str) -> bool:
    try:
        with open(path, "rb") as fh:
            head = fh.readline(64 * 1024)
        return session_id.encode() in head
    except OSError:
        return False


# ---------------------------------------------------------------------------------------------
# the conversation (head + tail within a character budget)


def _elide(text: str, cap: int) -> str:
    if len(text) <= cap:
        return text
    keep = cap // 2
    return f"{text[:keep]}\n[… {len(text) - 2 * keep} characters omitted …]\n{text[-keep:]}"


class ConversationBuilder:
    """Keeps the first ``head`` and the last ``tail`` characters of a stream of entries.

    An entry is ``(label, spoken text, tool markers)`` as read; it is redacted (whole, before any
    elision, so a cut never splits a secret) only when it is kept — the middle of a long session is
    never redacted at all, which keeps reading linear and cheap."""

    def __init__(self, max_chars: int):
        self.head_budget = max_chars // 3
        self.tail_budget = max_chars - self.head_budget
        self.head: list = []
        self.head_chars = 0
        self.tail: collections.deque = collections.deque()
        self.tail_chars = 0
        self.omitted = 0
        self.text_chars = 0   # length of all spoken text (before any cap): the mode threshold

    @staticmethod
    def _size(entry: tuple) -> int:
        label, spoken, markers = entry
        return len(label) + 2 + min(len(spoken), MESSAGE_CAP + 40) + (len(markers) + 1 if markers else 0) + 2

    def add(self, entry: tuple, spoken_chars: int) -> None:
        self.text_chars += spoken_chars
        size = self._size(entry)
        if not self.tail and self.head_chars + size <= self.head_budget + 2:
            self.head.append(entry)
            self.head_chars += size
            return
        self.tail.append(entry)
        self.tail_chars += size
        while self.tail_chars > self.tail_budget and len(self.tail) > 1:
            self.tail_chars -= self._size(self.tail.popleft())
            self.omitted += 1

    @staticmethod
    def render(entry: tuple) -> str:
        label, spoken, markers = entry
        body = _elide(redact(spoken), MESSAGE_CAP)
        if markers:
            body = f"{body}\n{redact(markers)}" if body else redact(markers)
        return f"{label}: {body}"

    def text(self) -> str:
        parts = [self.render(e) for e in self.head]
        if self.omitted:
            parts.append(f"[… {self.omitted} messages omitted …]")
        parts.extend(self.render(e) for e in self.tail)
        return "\n\n".join(parts)


def tool_marker(tool: dict) -> str:
    name, args = tool["name"], tool["input"]
    if name in EDIT_TOOLS:
        detail = os.path.basename(str(args.get(EDIT_TOOLS[name]) or ""))
    elif name == "Bash":
        detail = str(args.get("command") or "").strip().splitlines()[0][:160] if args.get("command") else ""
    elif name in ("Read", "Grep", "Glob"):
        detail = os.path.basename(str(args.get("file_path") or args.get("pattern") or ""))[:80]
    elif name in ("Agent", "Task"):
        detail = str(args.get("description") or args.get("subagent_type") or "")[:80]
    else:
        detail = ""
    return f"[{name} {detail}]".replace(" ]", "]")


# ---------------------------------------------------------------------------------------------
# the session digest


@dataclass
class SessionDigest:
    """What one session did, ready for the summarizer and the deterministic summary. All text
    fields are redacted."""

    path: str
    session_id: str = ""
    cwd: str = ""
    git_branch: str = ""
    started: str = ""
    ended: str = ""
    bytes: int = 0
    lines: int = 0
    skipped_lines: int = 0
    compactions: int = 0
    user_messages: int = 0
    assistant_messages: int = 0
    conversation: str = ""
    conversation_chars: int = 0      # spoken text before the cap (the 500-character threshold)
    conversation_truncated: bool = False
    files_touched: list = field(default_factory=list)  # changed: edit tools that worked + Bash writes
    commands: list = field(default_factory=list)     # [{"command", "failed"}]
    errors: list = field(default_factory=list)       # ["Tool: first line"] — real errors only
    corrections: list = field(default_factory=list)  # user messages that correct the assistant
    interruptions: int = 0
    tools: dict = field(default_factory=dict)        # name -> count
    subagents: int = 0
    user_requests: list = field(default_factory=list)    # the person's prompts, in order (capped)
    final_message: str = ""                              # the main agent's last text
    assistant_notes: list = field(default_factory=list)  # the main agent's last texts (decisions)
    lint_findings: list = field(default_factory=list)    # [{"text", "severity": block|warn}]
    gate_denials: int = 0                                # our own gates' denials (not errors)
    exchanges: list = field(default_factory=list)        # [[assistant text, the person's answer]], the last 20
    checked_files: list = field(default_factory=list)    # changed files a later command that passed ran after
    reverted_files: list = field(default_factory=list)   # changed, then put back (git checkout/restore/reset/stash)
    reverts: list = field(default_factory=list)          # the commands that put changes back
    last_command_failed: bool | None = None              # the session's last Bash command (None: it ran none)

    def to_dict(self) -> dict:
        out = dict(self.__dict__)
        out.pop("conversation")
        return out


class _DigestBuilder:
    MAX_FILES, MAX_COMMANDS, MAX_ERRORS, MAX_CORRECTIONS = 200, 60, 30, 15
    MAX_REQUESTS, REQUEST_CHARS, FINAL_CHARS, MAX_NOTES, MAX_LINT = 40, 500, 2000, 12, 20
    MAX_EXCHANGES, EXCHANGE_CHARS = 20, 3000

    def __init__(self, digest: SessionDigest):
        self.d = digest
        self.pending_tools: dict = {}
        self.file_state: dict = {}       # path -> "ok" | "failed" | "open" (no result seen), first-touch order
        self.bash_calls: dict = {}       # tool id -> [command, succeeded] of every Bash call, in order
        self.command_of: dict = {}       # tool id -> its entry in digest.commands (the first MAX_COMMANDS)
        self.requests_tail: collections.deque = collections.deque(maxlen=self.MAX_REQUESTS // 2)
        self.notes: collections.deque = collections.deque(maxlen=self.MAX_NOTES)
        self.exchanges: collections.deque = collections.deque(maxlen=self.MAX_EXCHANGES)
        self.said = ""                   # the main agent's text since the person last spoke
        self.answering_memory = False    # the main agent is answering todo-check's question, not reporting work
        self.step = 0                    # tool results seen: orders edits, passing commands, reverts
        self.edited_at: dict = {}        # path -> step of its last change that worked (edit tools)
        self.passed_at = -1              # step of the last Bash command that passed
        self.put_back: list = []         # (step, paths — "." the whole tree —, command) of reverts

    def _touch(self, path: str, state: str) -> None:
        """Record the latest state of ``path``; once a change of it worked it stays changed."""
        if path and self.file_state.get(path) != "ok":
            self.file_state[path] = state

    def add(self, msg: Message) -> None:
        if msg.role == "hook":
            self._lint(msg.hook_text)
            return
        for tool in msg.tool_uses:
            self.d.tools[tool["name"]] = self.d.tools.get(tool["name"], 0) + 1
            if tool.get("id"):
                self.pending_tools[tool["id"]] = tool
            if tool["name"] in EDIT_TOOLS:
                self._touch(str(tool["input"].get(EDIT_TOOLS[tool["name"]]) or ""), "open")
            elif tool["name"] == "Bash" and tool["input"].get("command"):
                key = tool.get("id") or f"#{len(self.bash_calls)}"      # a call without an id never resolves
                if len(self.d.commands) < self.MAX_COMMANDS:
                    command = _elide(redact(str(tool["input"]["command"]).strip()), 300)
                    self.d.commands.append({"command": command, "failed": False})
                    self.command_of[key] = self.d.commands[-1]
                self.bash_calls[key] = [str(tool["input"]["command"]), False]
        for result in msg.tool_results:
            self._result(result)
        if msg.source != "main":
            return
        if msg.memory_question:
            self.answering_memory = True
            return
        if msg.role == "assistant" and msg.text and self.answering_memory:
            return                        # "closed it" / "not finished": the turn's report stays the final message
        if msg.role == "assistant" and msg.text:
            self.d.final_message = msg.text
            self.notes.append(msg.text[-self.FINAL_CHARS:])
            self.said = (self.said + "\n" + msg.text)[-self.EXCHANGE_CHARS:]
        if msg.role == "user" and msg.text:
            self.answering_memory = False
            if _INTERRUPTED.match(msg.text.strip()):
                self.d.interruptions += 1
                return
            if self.said:                 # the person answers what the assistant said last
                self.exchanges.append((self.said.strip(), msg.text.strip()[:self.REQUEST_CHARS]))
            self.said = ""
            if self.d.user_messages > 1 and is_correction(msg.text) and \
                    len(self.d.corrections) < self.MAX_CORRECTIONS:
                self.d.corrections.append(_elide(redact(msg.text.strip()), 300))
            request = _elide(redact(msg.text.strip()), self.REQUEST_CHARS)
            if len(self.d.user_requests) < self.MAX_REQUESTS // 2:
                self.d.user_requests.append(request)
            else:
                self.requests_tail.append(request)

    def _result(self, result: dict) -> None:
        tool = self.pending_tools.pop(result.get("tool_use_id"), None)
        name = tool["name"] if tool else "tool"
        target = str(tool["input"].get(EDIT_TOOLS[name]) or "") if tool and name in EDIT_TOOLS else ""
        if result["is_error"] and is_own_hook_message(result["text"]):
            self.d.gate_denials += 1        # our gate said "not yet": the retry decides the file
            return
        tool_id = (tool.get("id") if tool else None) or "-"
        self.step += 1
        if name == "Bash" and tool_id in self.bash_calls:
            self.d.last_command_failed = bool(result["is_error"])
        if not result["is_error"]:
            self._touch(target, "ok")
            if target:
                self.edited_at[target] = self.step
            if tool_id in self.bash_calls:
                self.bash_calls[tool_id][1] = True
                self.passed_at = self.step
                undone = reverted_paths(self.bash_calls[tool_id][0])
                if undone is not None:
                    self.put_back.append((self.step, undone, self.bash_calls[tool_id][0]))
            return
        self._touch(target, "failed")
        lines = [ln.strip() for ln in result["text"].splitlines() if ln.strip()]
        first = " … ".join(dict.fromkeys(lines[:1] + lines[-1:]))
        feedback = _USER_FEEDBACK.search(result["text"])
        if feedback and len(self.d.corrections) < self.MAX_CORRECTIONS:
            self.d.corrections.append(_elide(redact(feedback.group(1).strip()), 300))
        if len(self.d.errors) < self.MAX_ERRORS:
            self.d.errors.append(_elide(redact(f"{name}: {first}"), 300))
        if tool_id in self.command_of:
            self.command_of[tool_id]["failed"] = True

    def _put_back(self, path: str, cwd: str) -> bool:
        """Was the last change of ``path`` undone by a later revert command?"""
        changed = self.edited_at.get(path, 0)
        for step, paths, _command in self.put_back:
            if step > changed and any(_same_path(path, p, cwd) for p in paths):
                return True
        return False

    def _lint(self, text: str) -> None:
        """The findings of an avoidance-gate block or warning: its ``- file:line [RULE] …`` lines."""
        severity = "block"
        for line in text.split("\n"):
            if LINT_MARKER in line and "Warnings for" in line:
                severity = "warn"
            if line.startswith("- ") and len(self.d.lint_findings) < self.MAX_LINT:
                finding = _elide(redact(line[2:].strip()), 300)
                if finding and all(f["text"] != finding for f in self.d.lint_findings):
                    self.d.lint_findings.append({"text": finding, "severity": severity})

    def finish(self, cwd: str) -> None:
        parsed: set = set()
        for command, ok in self.bash_calls.values():
            if ok and command not in parsed:      # the same command run again writes the same files
                parsed.add(command)
                for path in bash_written_files(command, cwd):
                    self._touch(path, "ok")
        # a file counts when one change of it worked, or when its last call has no result yet
        # (a session killed mid-write); a file whose every attempt failed does not; a change put
        # back afterwards (git checkout -- f, git restore, git reset --hard, git stash) does not
        files = [f for f, state in self.file_state.items() if state != "failed"]
        reverted = [f for f in files if self._put_back(f, cwd)]
        files = [f for f in files if f not in reverted]
        self.d.files_touched = [redact(f) for f in files][: self.MAX_FILES]
        self.d.reverted_files = [redact(f) for f in reverted][: self.MAX_FILES]
        self.d.reverts = [_elide(redact(command.strip()), 300) for _s, _p, command in self.put_back][:10]
        self.d.checked_files = [redact(f) for f in files if self.edited_at.get(f, self.passed_at) < self.passed_at]
        self.d.exchanges = [[redact(a), redact(b)] for a, b in self.exchanges]
        self.d.user_requests += list(self.requests_tail)
        self.d.final_message = _elide(redact(self.d.final_message.strip()), self.FINAL_CHARS)
        self.d.assistant_notes = [redact(n) for n in self.notes]


# Bash commands whose arguments name files they write (the last argument for copy/move).
_WRITERS_ALL = {"touch", "tee"}
_WRITERS_LAST = {"cp", "mv", "install", "ln"}
_SEPARATORS = {";", "&&", "||", "|", "&", "(", ")", "\n"}
_REDIRECTS = {">", ">>", ">|", "&>", "&>>"}
_OTHER_REDIRECTS = {"<", "<<", "<<<", ">&", "<&", "<>"}


def _segments(tokens: list):
    segment: list = []
    for token in tokens:
        if token in _SEPARATORS:
            if segment:
                yield segment
            segment = []
        else:
            segment.append(token)
    if segment:
        yield segment


def _plain_path(token: str) -> bool:
    return bool(token) and not token.startswith(("-", "/dev/", "/proc/", "&")) and \
        not any(c in token for c in "$*?`{}<>") and token not in (".", "..")


_PLAIN_TOKENS = re.compile(r"[();<>|&]+|[^\s();<>|&]+")
_QUOTING = frozenset("'\"\\`$#")


def _shell_tokens(command: str) -> list | None:
    """The words and operators of a command as ``shlex`` (POSIX, punctuation runs as one token)
    splits them, or None when it cannot be split. A command without quoting, escapes, expansions
    or comments — most of them — is split by one regular expression, which is ~20× cheaper."""
    if _QUOTING.isdisjoint(command):
        return _PLAIN_TOKENS.findall(command)
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:
        return None


def bash_written_files(command: str, cwd: str) -> list:
    """Files a shell command creates or changes, as far as its text shows: redirection targets
    (``> f``, ``>> f``), ``tee``/``touch`` arguments, the destination of ``cp``/``mv``/
    ``install``/``git mv``, the files of ``sed -i`` / ``perl -pi``, plain ``rm`` targets. Paths
    are resolved against ``cwd`` (and a leading ``cd DIR``) and kept only inside ``cwd``:
    scratch files in /tmp are not the session's work. Unparseable commands give ``[]``."""
    if not command or not cwd:
        return []
    tokens = _shell_tokens(command)
    if tokens is None:
        return []
    here, found = cwd, []
    for seg in _segments(tokens):
        targets = []
        i = 0
        while i < len(seg):
            if seg[i] in _REDIRECTS or seg[i] in _OTHER_REDIRECTS:
                if seg[i] in _REDIRECTS and i + 1 < len(seg):
                    targets.append(seg[i + 1])
                start = i - 1 if i and seg[i - 1].isdecimal() else i     # 2>err.log: "2" is no word
                del seg[start:i + 2]
                i = start
                continue
            i += 1
        words = [w for w in seg if "=" not in w.split("/")[0] or w.startswith("-")]
        while words and words[0] in ("sudo", "env", "command", "time", "nohup"):
            words = words[1:]
        if not words:
            found += targets
            continue
        verb, args = os.path.basename(words[0]), words[1:]
        plain = [a for a in args if not a.startswith("-")]
        if verb == "cd" and plain:
            here = os.path.normpath(os.path.join(here, plain[0]))
        elif verb in _WRITERS_ALL:
            targets += plain
        elif verb in _WRITERS_LAST and len(plain) >= 2:
            targets.append(plain[-1])
        elif verb == "git" and args[:1] == ["mv"] and len(plain) >= 3:
            targets.append(plain[-1])
        elif verb == "sed" and any(a.startswith("-i") or a == "--in-place" for a in args) and len(plain) >= 2:
            targets += plain[1:]
        elif verb == "perl" and any(a.startswith("-") and "i" in a for a in args):
            targets += [a for a in plain if a != "-e"][1:]
        elif verb == "rm" and not any(a.startswith("-") and "r" in a.lower() for a in args):
            targets += plain
        found += [os.path.normpath(os.path.join(here, t)) for t in targets if _plain_path(t)]
    root = os.path.normpath(cwd) + os.sep
    return list(dict.fromkeys(p for p in found if p.startswith(root)))


def reverted_paths(command: str) -> list | None:
    """What a shell command puts back: ``None`` when it is no revert; the paths of
    ``git checkout [REV] -- paths`` / ``git restore paths``; ``["."]`` (the whole tree) for
    ``git checkout .``, ``git reset --hard``, ``git stash`` (push) and ``git revert``."""
    if "git" not in (command or ""):
        return None
    tokens = _shell_tokens(command)
    if not tokens:
        return None
    for seg in _segments(tokens):
        words = [w for w in seg if w not in ("sudo",)]
        if len(words) < 2 or os.path.basename(words[0]) != "git":
            continue
        verb, args = words[1], [w for w in words[2:] if not w.startswith("-") or w == "--"]
        flags = [w for w in words[2:] if w.startswith("-") and w != "--"]
        if verb == "checkout" and "--" in args:
            return args[args.index("--") + 1:] or ["."]
        if verb == "checkout" and args == ["."]:
            return ["."]
        if verb == "restore" and "--staged" not in flags and args:
            return [a for a in args if a != "--"] or ["."]
        if (verb == "reset" and "--hard" in flags) or verb == "revert" or \
                (verb == "stash" and (not args or args[0] in ("push", "save"))):
            return ["."]
    return None


def _same_path(path: str, named: str, cwd: str) -> bool:
    if named == ".":
        return True
    full = os.path.normpath(os.path.join(cwd or "/", named))
    return path == full or path.startswith(full.rstrip("/") + "/") or os.path.basename(path) == named


def read_session(path: str, *, include_subagents: bool = True, max_chars: int = DEFAULT_MAX_CHARS,
                 max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> SessionDigest:
    """Stream a transcript (and its subagents') into a :class:`SessionDigest`.

    Raises ``FileNotFoundError`` / ``OSError`` when the main transcript cannot be read.
    """
    digest = SessionDigest(path=path)
    stats = ReadStats()
    sources = [(path, "main")]
    if include_subagents:
        sources += [(p, subagent_label(p)) for p in subagent_paths(path)]
        digest.subagents = len(sources) - 1
    main_budget = max_chars if len(sources) == 1 else int(max_chars * 0.8)
    main_builder = ConversationBuilder(main_budget)
    sub_builder = ConversationBuilder(max_chars - main_budget) if len(sources) > 1 else None
    facts = _DigestBuilder(digest)
    for source_path, source in sources:
        source_stats = stats if source == "main" else ReadStats()
        try:
            messages = iter_messages(source_path, source_stats, source, max_line_bytes)
            for msg in messages:
                _add_message(msg, digest, facts, main_builder if source == "main" else sub_builder)
        except OSError:
            if source == "main":
                raise
            continue  # a vanished subagent file is not worth failing the summary for
    facts.finish(stats.cwd)
    conversation = main_builder.text()
    digest.conversation_chars = main_builder.text_chars
    digest.conversation_truncated = bool(main_builder.omitted)
    if sub_builder is not None and (sub_builder.head or sub_builder.tail):
        conversation += "\n\n--- subagents ---\n\n" + sub_builder.text()
        digest.conversation_chars += sub_builder.text_chars
        digest.conversation_truncated |= bool(sub_builder.omitted)
    digest.conversation = conversation
    for attr in ("session_id", "cwd", "git_branch", "lines", "skipped_lines", "bytes", "compactions"):
        setattr(digest, attr, getattr(stats, attr))
    digest.started, digest.ended = stats.first_timestamp, stats.last_timestamp
    return digest


def _add_message(msg: Message, digest: SessionDigest, facts: _DigestBuilder,
                 builder: ConversationBuilder) -> None:
    if msg.role == "user" and msg.text and msg.source == "main":
        digest.user_messages += 1
    elif msg.role == "assistant" and (msg.text or msg.tool_uses):
        digest.assistant_messages += 1
    facts.add(msg)
    if msg.role == "user" and (not msg.text or _INTERRUPTED.match(msg.text.strip())):
        return  # tool-result-only messages, system prompts and interruptions are not conversation
    markers = " ".join(tool_marker(t) for t in msg.tool_uses)
    if not msg.text and not markers:
        return
    if msg.source == "main":
        label = "User" if msg.role == "user" else "Assistant"
    else:  # a subagent's "user" is the task the main agent gave it
        label = ("Task for " if msg.role == "user" else "") + msg.source
    builder.add((label, msg.text, markers), len(msg.text))
