"""Cross-session signal analysis (docs/evolution.md, Signals): find the eight signal types in
session summaries (sessions/*.md), count recurring patterns over the last sessions, track failure
streaks, and keep each pattern's state (active / addressed / suppressed).

  evolution/signals.jsonl         per summary: an ``extraction`` marker, then its ``signal`` lines
                                  (a re-summarised session gets a new extraction; the latest wins)
  evolution/pattern_states.jsonl  ``{"timestamp", "pattern", "state", "reason", "by"}``; latest wins
  evolution/signal_report_latest.md

What is scanned: the numbered items (not the files), the extracted rules and pitfalls, the
final message, errors and corrections — never headings, the commands' text, code-memory's own
lint findings or any line quoting our hooks (``[code-memory] …``). The commands section is read
for one thing: how many distinct commands failed (``✗``).

A session's signals are its problems, not its lines: one signal per pattern however many lines
mention it; a topic word (docker, venv) beside a stated problem of the same type (a port in use)
is that problem's context, not a second one; the catch-all of a type (``general``; for errors
also ``traceback``, for performance ``slow``) only when nothing more specific of that type was
found; at most one ``error`` signal per distinct failed command (at least one); at most one
``correction`` — and every line of the note's user-corrections section is one (the transcript
reader already judged it a correction). A failed Read or Edit (Claude's own tool use) is no error
signal.

A *pattern* is ``<type>:<subject>`` (``environment_issue:port``). Its count is the number of
sessions in the window (the last ``signals.window_sessions`` summaries, 8) that show it; count ≥ 3
is HIGH, ≥ 5 CRITICAL (2 MEDIUM, 1 LOW). Patterns with the subject ``general`` (the catch-all of a
type), corrections and ``recurring_issue`` patterns are reported but are not *actionable*: no
concrete Skill can be generated from them — a correction says Claude was corrected, not what went
wrong, and "again" names no problem of its own.
"""

from __future__ import annotations

import glob
import hashlib
import os
import re
import time
from dataclasses import dataclass, field

from ..config import DEFAULTS, section_values
from ..errors import CodeMemoryError, invalid
from ..fsutil import append_events, atomic_write_text, iter_jsonl, read_text
from ..markdown import heading_level, heading_text
from ..redact import redact
from ..timeutil import now_iso, parse_ts
from ..transcript import OWN_MARKER
from .signal_rules import SIGNAL_TYPES, classify, compile_rules

# Bump when the rules or the per-session consolidation change: extractions of an older version
# are redone from the summary (when it is still there).
RULES_VERSION = 2
STATES = ("active", "addressed", "suppressed")
NOT_ACTIONABLE_TYPES = ("correction", "recurring_issue")
# per type, the subjects that only say "something of this kind went wrong", most generic last
GENERIC_SUBJECTS = {"error": ("traceback", "general"), "performance_issue": ("slow",)}
# which error subject to keep when a session has fewer failed commands than error subjects
_ERROR_RANK = ("build-failure", "test-failure", "crash")
_CORRECTION_RANK = ("revert", "wrong-approach", "user-correction")
MAX_SIGNALS_PER_SESSION = 60
TEXT_CHARS = 200
_PATTERN = re.compile(r"^(%s):[a-z0-9][a-z0-9_\-]{0,63}$" % "|".join(SIGNAL_TYPES))

_TITLE = re.compile(r"^#\s*(?:会话摘要|Session summary)\s*[:：]\s*(.+?)\s*$", re.I)
_FIELD = re.compile(r"^\s*-\s*\*\*(.+?)\*\*\s*[:：]\s*(.*?)\s*$")
_ITEM = re.compile(r"^\s*\d+\.\s*\*\*(.+?)\*\*\s*[:：]?\s*(.*)$")
_MARKUP = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+|\*\*|`")
_FILES_LABELS = ("涉及文件", "files", "文件")
# note sections that are not what happened to the person: the commands' text and code-memory's own
# lint findings (summary/distribute.py writes them)
_SKIPPED_SECTIONS = ("执行的命令", "commands", "避坑检查", "lint findings")
_COMMANDS_SECTIONS = ("执行的命令", "commands")
_CORRECTIONS_SECTIONS = ("用户纠正", "user corrections")
_FAILED_COMMAND = re.compile(r"^\s*-\s*`(.+)`\s*✗\s*$")
# an error line of a tool that is not a shell command: "Edit: String to replace not found", "错误: Read: …"
_TOOL_ERROR = re.compile(r"^(?:错误\s*[:：]\s*)?(?:Read|Edit|Write|MultiEdit|NotebookEdit|Glob|Grep|LS|WebFetch|"
                         r"WebSearch|TodoWrite|Task|tool)\s*:")
_TOPIC_LABELS = ("主题", "topic")
_TIME_KEYS = ("时间", "time", "date")
_PROJECT_KEYS = ("项目", "project")


_D = DEFAULTS["signals"]


@dataclass(frozen=True)
class Settings:
    """The ``signals`` config section as values (defaults: config.DEFAULTS)."""

    window_sessions: int = _D["window_sessions"]
    high_threshold: int = _D["high_threshold"]
    critical_threshold: int = _D["critical_threshold"]
    failure_streak: int = _D["failure_streak"]
    reopen_after: int = _D["reopen_after"]
    extra_rules: tuple = tuple(_D["extra_rules"])

    @classmethod
    def from_config(cls, section: dict | None) -> "Settings":
        values = section_values("signals", section, cls.__dataclass_fields__)
        out = cls(**{**values, "extra_rules": tuple(values["extra_rules"] or ())})
        if out.window_sessions < 1 or not 1 <= out.high_threshold <= out.critical_threshold:
            raise CodeMemoryError("CONFIG_INVALID", "need signals.window_sessions >= 1 and "
                                  "1 <= signals.high_threshold <= signals.critical_threshold")
        return out

    def rules(self) -> list:
        try:
            return compile_rules(self.extra_rules)
        except ValueError as exc:
            raise CodeMemoryError("CONFIG_INVALID", str(exc)) from None

    def level(self, count: int) -> str:
        if count >= self.critical_threshold:
            return "CRITICAL"
        if count >= self.high_threshold:
            return "HIGH"
        return "MEDIUM" if count >= 2 else "LOW"


# ---------------------------------------------------------------------------------------------
# summaries

@dataclass
class Summary:
    session_id: str
    path: str
    ts: float
    time_text: str
    project: str
    digest: str
    lines: list = field(default_factory=list)     # (section, line) to scan: "body" or "corrections"
    topic: str = ""
    failed_commands: int = 0                      # distinct commands marked ✗ in the commands section


def _matches(label: str, keys) -> bool:
    low = label.strip().lower()
    return any(low.startswith(k) for k in keys)


def parse_summary(path: str, text: str) -> Summary:
    """A session summary in the 会话摘要 format (``# 会话摘要: id``, ``- **项目**: …`` header, ``---``,
    numbered items); tolerant of other Markdown. The "涉及文件" (files) item is not scanned."""
    lines = text.split("\n")
    session_id = os.path.splitext(os.path.basename(path))[0]
    fields: dict = {}
    body_start = 0
    for i, line in enumerate(lines):
        if line.strip() == "---":
            body_start = i + 1
            break
        title = _TITLE.match(line)
        if title:
            session_id = title.group(1)
            continue
        field_match = _FIELD.match(line)
        if field_match:
            fields[field_match.group(1)] = field_match.group(2)
    time_text = next((v for k, v in fields.items() if _matches(k, _TIME_KEYS)), "")
    project = next((v for k, v in fields.items() if _matches(k, _PROJECT_KEYS)), "")
    ts = parse_ts(time_text)
    if ts is None:
        ts = os.path.getmtime(path)
    body, skipping, topic, section = [], False, "", "body"
    failed = set()
    for line in lines[body_start:]:
        if not body_start and (_TITLE.match(line) or _FIELD.match(line)):
            continue
        item = _ITEM.match(line)
        if item:
            if not topic and _matches(item.group(1), _TOPIC_LABELS):
                topic = item.group(2).strip()
            skipping = _matches(item.group(1), _FILES_LABELS)
            if skipping:
                continue
        elif heading_level(line):
            title = heading_text(line).lower()
            skipping = any(name in title for name in _SKIPPED_SECTIONS)
            section = ("commands" if any(name in title for name in _COMMANDS_SECTIONS) else
                       "corrections" if any(name in title for name in _CORRECTIONS_SECTIONS) else "body")
            continue                       # a heading names a section; it is not a signal itself
        if section == "commands":
            command = _FAILED_COMMAND.match(line)
            if command:
                failed.add(command.group(1).strip())
        if not skipping and line.strip() and OWN_MARKER not in line:
            body.append((section, line))
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]
    return Summary(session_id, path, ts, time_text, project, digest, body, topic, len(failed))


_PARSED: dict = {}      # path -> ((mtime_ns, size), Summary): a long-lived process (the memory browser)
#                         re-reads only the notes that changed


def list_summaries(paths) -> list:
    """Every readable ``sessions/*.md``, oldest first (by the summary's time, else mtime)."""
    out = []
    seen = set()
    for path in glob.glob(os.path.join(paths.sessions, "*.md")):
        try:
            st = os.stat(path)
        except OSError:
            continue
        key = (st.st_mtime_ns, st.st_size)
        cached = _PARSED.get(path)
        if cached is not None and cached[0] == key:
            summary = cached[1]
        else:
            text = read_text(path)
            if text is None:
                continue
            summary = parse_summary(path, text)
            _PARSED[path] = (key, summary)
        seen.add(path)
        out.append(summary)
    for gone in [p for p in _PARSED if p not in seen and os.path.dirname(p) == paths.sessions]:
        _PARSED.pop(gone, None)
    out.sort(key=lambda s: (s.ts, s.session_id))
    return out


def signals_in(summary: Summary, rules: list) -> list:
    """The signals of one summary: ``[{type, subject, pattern, text}]`` (text redacted, capped) —
    one per problem, not per line (the module docstring says how lines are merged)."""
    mentions: dict = {}               # (type, subject) -> the first line that says it
    stated = set()                    # (type, subject) said by a line on its own (not a topic word)
    for section, raw in summary.lines:
        item = _ITEM.match(raw)
        line = item.group(2) if item else raw
        line = _MARKUP.sub("", line).strip()
        if not line:
            continue
        found = classify(line, rules)
        if section == "corrections":
            found.append(("correction", "user-correction", "", "statement"))
        tool_error = bool(_TOOL_ERROR.match(line))
        for sig_type, subject, _matched, evidence in found:
            if not (tool_error and sig_type == "error"):
                mentions.setdefault((sig_type, subject), line)
                if evidence == "statement":
                    stated.add((sig_type, subject))
    out = []
    for sig_type in SIGNAL_TYPES:
        subjects = [subject for t, subject in mentions if t == sig_type]
        if any((sig_type, s) in stated for s in subjects):     # a topic word beside a stated problem
            subjects = [s for s in subjects if (sig_type, s) in stated]   # of its type is its context
        for subject in _kept_subjects(sig_type, subjects, summary.failed_commands):
            line = mentions[(sig_type, subject)]
            out.append({"type": sig_type, "subject": subject, "pattern": f"{sig_type}:{subject}",
                        "text": redact(line)[:TEXT_CHARS]})
    return out[:MAX_SIGNALS_PER_SESSION]


def _kept_subjects(sig_type: str, subjects: list, failed_commands: int) -> list:
    """The subjects of one type that stand for a problem of their own: the specific ones (else the
    most telling catch-all), errors capped by the failed commands, one correction."""
    generic = GENERIC_SUBJECTS.get(sig_type, ()) + ("general",)
    specific = [s for s in subjects if s not in generic]
    if specific:
        subjects = specific
    else:
        subjects = sorted(subjects, key=generic.index)[:1]      # the most telling catch-all
    if sig_type == "error":
        rank = {name: i for i, name in enumerate(_ERROR_RANK)}
        subjects = sorted(subjects, key=lambda s: rank.get(s, len(rank)))[:max(1, failed_commands)]
    elif sig_type == "correction":
        subjects = sorted(subjects, key=lambda s: _CORRECTION_RANK.index(s) if s in _CORRECTION_RANK
                          else len(_CORRECTION_RANK))[:1]
    return subjects


# ---------------------------------------------------------------------------------------------
# the signals log

_EXTRACTIONS: dict = {}  # signals log path -> ((mtime_ns, size), extractions): read again only when it grew


def load_extractions(paths) -> dict:
    """``{session_id: {"digest", "session_time", "ts", "project", "signals": [...]}}`` — the latest
    extraction of every session ever extracted (also those whose summary was cleaned up)."""
    try:
        st = os.stat(paths.signals_log)
        key = (st.st_mtime_ns, st.st_size)
    except OSError:
        key = None
    cached = _EXTRACTIONS.get(paths.signals_log)
    if key is not None and cached is not None and cached[0] == key:
        return dict(cached[1])
    out: dict = {}
    for rec in iter_jsonl(paths.signals_log):
        sid = rec.get("session_id")
        if not isinstance(sid, str):
            continue
        if rec.get("event_type") == "extraction":
            out[sid] = {"digest": rec.get("digest"), "session_time": rec.get("session_time"),
                        "ts": rec.get("session_ts"), "project": rec.get("project"), "signals": [],
                        "rules_version": rec.get("rules_version", 1)}
        elif rec.get("event_type") == "signal" and sid in out and rec.get("digest") == out[sid]["digest"]:
            out[sid]["signals"].append({k: rec.get(k) for k in ("type", "subject", "pattern", "text")})
    if key is not None:
        _EXTRACTIONS[paths.signals_log] = (key, out)
    return dict(out)


def extract(paths, settings: Settings, session_id: str | None = None, force: bool = False,
            now: float | None = None) -> dict:
    """Extract signals from one session's summary (``session_id``) or from every summary not yet
    extracted in its current version. Idempotent; ``force`` re-extracts."""
    summaries = list_summaries(paths)
    if session_id is not None:
        summaries = [s for s in summaries if s.session_id == session_id or
                     os.path.basename(s.path) == os.path.basename(paths.session_note(session_id))]
        if not summaries:
            raise CodeMemoryError("NOT_FOUND", f"no summary for session {session_id}",
                                  hint="summaries live in sessions/<id>.md")
    known = load_extractions(paths)
    rules = settings.rules()
    done, skipped = [], 0
    stamp = now_iso(now)
    for summary in summaries:
        if not force and _current(known.get(summary.session_id), summary):
            skipped += 1
            continue
        found = signals_in(summary, rules)
        _record_extraction(paths, summary, found, stamp)
        done.append({"session_id": summary.session_id, "signals": len(found),
                     "types": sorted({s["type"] for s in found})})
    return {"extracted": done, "skipped": skipped}


def _current(extraction: dict | None, summary: Summary) -> bool:
    """Is ``extraction`` of this version of the summary, by the current rules?"""
    return bool(extraction) and extraction.get("digest") == summary.digest \
        and extraction.get("rules_version") == RULES_VERSION


def _record_extraction(paths, summary: Summary, found: list, stamp: str) -> None:
    base = {"timestamp": stamp, "session_id": summary.session_id, "digest": summary.digest}
    records = [{**base, "event_type": "extraction", "session_time": summary.time_text,
                "session_ts": summary.ts, "project": summary.project, "signals": len(found),
                "rules_version": RULES_VERSION}]
    records += [{**base, "event_type": "signal", **sig} for sig in found]
    append_events(paths.signals_log, records)


def sessions_with_signals(paths, settings: Settings, persist: bool = True, now: float | None = None) -> list:
    """Every known session, oldest first, with its signals: the summaries on disk (extracted now
    when new or changed — appended to signals.jsonl unless ``persist`` is false) plus sessions
    whose summary was cleaned up but whose extraction is in the log. Cleanup never shrinks the
    signal window."""
    sessions = {}
    known = load_extractions(paths)
    for sid, ext in known.items():
        sessions[sid] = {"session_id": sid, "ts": ext["ts"] or parse_ts(ext["session_time"]) or 0.0,
                         "time_text": ext["session_time"] or "", "project": ext["project"] or "",
                         "digest": ext["digest"], "signals": ext["signals"]}
    rules = None
    stamp = now_iso(now)
    for summary in list_summaries(paths):
        if _current(known.get(summary.session_id), summary):
            continue
        rules = rules or settings.rules()
        found = signals_in(summary, rules)
        if persist:
            _record_extraction(paths, summary, found, stamp)
        sessions[summary.session_id] = {"session_id": summary.session_id, "ts": summary.ts,
                                        "time_text": summary.time_text, "project": summary.project,
                                        "digest": summary.digest, "signals": found}
    return sorted(sessions.values(), key=lambda s: (s["ts"], s["session_id"]))


# ---------------------------------------------------------------------------------------------
# pattern states

def check_pattern(pattern: str) -> str:
    if not isinstance(pattern, str) or not _PATTERN.match(pattern):
        raise invalid(f"not a pattern: {pattern!r}", hint=f"<type>:<subject>, type one of {', '.join(SIGNAL_TYPES)}")
    return pattern


def set_state(paths, pattern: str, state: str, reason: str = "", by: str = "user",
              now: float | None = None, **extra) -> dict:
    check_pattern(pattern)
    if state not in STATES:
        raise invalid(f"state must be one of {', '.join(STATES)}")
    record = {"timestamp": now_iso(now), "pattern": pattern, "state": state,
              "reason": redact(reason)[:300], "by": by, **extra}
    append_events(paths.pattern_states_log, [record])
    return record


def load_states(paths) -> dict:
    states: dict = {}
    for rec in iter_jsonl(paths.pattern_states_log):
        if isinstance(rec.get("pattern"), str) and rec.get("state") in STATES:
            states[rec["pattern"]] = rec
    return states


# ---------------------------------------------------------------------------------------------
# recurring patterns

def is_actionable(sig_type: str, subject: str) -> bool:
    """Can a concrete Skill come from this pattern? Not from a catch-all subject, a correction
    (never a Skill on its own) or a bare "again"."""
    return subject != "general" and sig_type not in NOT_ACTIONABLE_TYPES


def failure_streak(outcomes: list) -> dict:
    """The run of failed sessions at the end of ``outcomes`` (oldest first)."""
    run = []
    for item in reversed(outcomes):
        if item["outcome"] != "failed":
            break
        run.append(item["session_id"])
    return {"length": len(run), "sessions": run[::-1]}


def analyze(paths, settings: Settings, outcomes: list | None = None, now: float | None = None,
            persist: bool = True) -> dict:
    """Recurring patterns over the window of the last ``window_sessions`` sessions.

    Summaries not yet extracted (in their current version) are extracted first (and recorded
    unless ``persist`` is false). ``outcomes`` are the sessions' last outcomes, oldest first
    (``feedback.session_outcomes``), for the failure streak.
    """
    now = time.time() if now is None else now
    window = sessions_with_signals(paths, settings, persist, now)[-settings.window_sessions:]
    states = load_states(paths)
    patterns: dict = {}
    by_type = {t: 0 for t in SIGNAL_TYPES}
    for position, session in enumerate(window):
        signals = session["signals"]
        for sig_type in {s["type"] for s in signals}:
            by_type[sig_type] += 1
        for sig in signals:
            entry = patterns.setdefault(sig["pattern"], {
                "pattern": sig["pattern"], "type": sig["type"], "subject": sig["subject"],
                "sessions": [], "positions": [], "examples": [], "projects": [], "_ts": []})
            if session["session_id"] not in entry["sessions"]:
                entry["sessions"].append(session["session_id"])
                entry["positions"].append(position)
                entry["_ts"].append(session["ts"])
                entry["last_seen"] = session["time_text"] or now_iso(session["ts"])
                entry.setdefault("first_seen", entry["last_seen"])
            if len(entry["examples"]) < 3 and sig["text"] not in entry["examples"]:
                entry["examples"].append(sig["text"])
            if session["project"] and session["project"] not in entry["projects"]:
                entry["projects"].append(session["project"])
    out = []
    for entry in patterns.values():
        count = len(entry["sessions"])
        streak = 0
        for position in range(len(window) - 1, -1, -1):
            if position not in entry["positions"]:
                break
            streak += 1
        state_rec = states.get(entry["pattern"], {})
        state = state_rec.get("state", "active")
        item = {k: v for k, v in entry.items() if not k.startswith("_") and k != "positions"}
        item.update(count=count, level=settings.level(count), streak=streak, state=state,
                    actionable=is_actionable(entry["type"], entry["subject"]), reopened=False)
        if state == "addressed":
            since = parse_ts(state_rec.get("timestamp")) or 0
            again = sum(1 for ts in entry["_ts"] if ts > since)
            item["count_since_addressed"] = again
            if again >= settings.reopen_after:
                item.update(state="active", reopened=True)
        if state_rec:
            item["state_reason"] = state_rec.get("reason", "")
        out.append(item)
    rank = {"active": 0, "addressed": 1, "suppressed": 2}
    out.sort(key=lambda p: (rank[p["state"]], -p["count"], -p["streak"], p["pattern"]))
    streak = failure_streak(outcomes or [])
    streak["flagged"] = streak["length"] >= settings.failure_streak
    streak["threshold"] = settings.failure_streak
    return {"generated_at": now_iso(now), "window": [s["session_id"] for s in window],
            "window_size": settings.window_sessions,
            "thresholds": {"high": settings.high_threshold, "critical": settings.critical_threshold},
            "patterns": out, "by_type": by_type, "failure_streak": streak,
            "recurring": [p for p in out if p["count"] >= 2 and p["state"] == "active"]}


def analyze_with_outcomes(paths, settings: Settings, now: float | None = None, persist: bool = True) -> dict:
    """:func:`analyze` with the failure streak taken from the feedback loop's session outcomes."""
    from .feedback import session_outcomes

    return analyze(paths, settings, outcomes=session_outcomes(paths), now=now, persist=persist)


def render_report(result: dict) -> str:
    """The Markdown signal report (evolution/signal_report_latest.md)."""
    th = result["thresholds"]
    lines = [f"# Signal report ({result['generated_at']})", "",
             f"Window: the last {len(result['window'])} of up to {result['window_size']} session summaries. "
             f"Levels: count ≥ {th['critical']} CRITICAL, ≥ {th['high']} HIGH, 2 MEDIUM, 1 LOW.", ""]
    streak = result["failure_streak"]
    if streak["flagged"]:
        lines += [f"**Failure streak:** the last {streak['length']} sessions failed "
                  f"({', '.join(streak['sessions'])}).", ""]
    else:
        lines += [f"Failure streak: {streak['length']} (flagged at {streak['threshold']}).", ""]
    lines += ["## Recurring patterns", ""]
    active = [p for p in result["patterns"] if p["state"] == "active" and p["count"] >= 2]
    if not active:
        lines += ["(none)", ""]
    for p in active:
        flags = [p["level"], f"{p['count']} sessions", f"streak {p['streak']}"]
        if p["reopened"]:
            flags.append("reopened after being addressed")
        if not p["actionable"]:
            flags.append("catch-all, not actionable")
        lines.append(f"### `{p['pattern']}` — {', '.join(flags)}")
        lines.append("")
        lines += [f"- {text}" for text in p["examples"]]
        if p["projects"]:
            lines.append(f"- projects: {', '.join(p['projects'])}")
        lines.append(f"- sessions: {', '.join(p['sessions'])}")
        lines.append("")
    lines += ["## Signals per type (sessions in the window)", "", "| type | sessions |", "|---|---|"]
    lines += [f"| {t} | {n} |" for t, n in result["by_type"].items()]
    others = [p for p in result["patterns"] if p not in active]
    if others:
        lines += ["", "## Other patterns", ""]
        lines += [f"- `{p['pattern']}` {p['state']}, {p['count']} session(s)" for p in others]
    lines += ["", "Change a pattern's state: `signal-analyzer.py suppress|address|activate PATTERN`."]
    return "\n".join(lines) + "\n"


def write_report(paths, result: dict) -> str:
    path = paths.signal_report
    atomic_write_text(path, render_report(result))
    return path
