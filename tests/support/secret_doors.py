"""Every door through which text reaches memory or an LLM (issue 22), driven as a user or an agent
drives it, for the held-out secret sweeps (tests/adversarial/test_redaction_doors.py) and the bench
(bench/bench_redact.py).

``run_door(name, cases, workdir)`` writes every case ``(case id, text, secrets)`` through the door
into a fresh memory root under ``workdir`` and returns :class:`Stored`: everything the door wrote
(every file under the root, JSON and SQLite values decoded) or sent (the LLM request bodies). A case
is delivered when its marker (``door-case-0007``, on the line before the text, so a line-anchored
secret stays at the start of its line) is found there, and leaks when
:func:`support.secrets_heldout.leaked` finds one of its secrets.

Doors: ``session-note`` and ``llm-request`` (the summarizer with the anthropic SDK against the
loopback stand-in, whose answer echoes every case back, as a model quoting the conversation
would), ``daily-note`` (the edit hook's file label), ``remember`` (workspace memory), ``memtool``,
``kv`` (set-memory), ``mcp`` (memory_store and set_memory through the real server and SDK client),
``review-queue`` (propose, then edit), ``browser-edit`` (the real ``code-memory ui``: the rule edit
form and a proposal approved with edited text).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import re
import sqlite3
import sys

from support.secrets_heldout import leaked

DOORS = ("session-note", "llm-request", "daily-note", "remember", "memtool", "kv", "mcp", "review-queue",
         "browser-edit")
NOW = dt.datetime(2026, 3, 1, 18, 0)


def marker(i: int) -> str:
    return f"door-case-{i:04d}"


def marked(i: int, text: str) -> str:
    return f"{marker(i)}\n{text}"


def by_surrounding(cases) -> list:
    """The cases in groups, one per surrounding (``…@env``): the same fixture's secret appears in
    every surrounding, so one run holds it once."""
    groups: dict = {}
    for case in cases:
        groups.setdefault(case[0].rsplit("@", 1)[1], []).append(case)
    return [groups[k] for k in sorted(groups)]


class Stored:
    def __init__(self, text, errors=()):
        # text: everything (raw bytes of databases included); readable: the text and values as
        # stored, in order — where a case's marker is followed by what the door kept of it
        self.text, self.readable = (text, text) if isinstance(text, str) else text
        self.errors = list(errors)          # what the door refused or failed on (it must not)

    def delivered(self, cases) -> list:
        return [cid for i, (cid, _t, _s) in enumerate(cases) if marker(i) in self.text]

    def _segments(self) -> dict:
        """{case index: the text from each of its markers to the next marker}."""
        found = [(m.start(), int(m.group(1))) for m in re.finditer(r"door-case-(\d{4})", self.readable)]
        out: dict = {}
        for n, (at, i) in enumerate(found):
            end = found[n + 1][0] if n + 1 < len(found) else len(self.readable)
            out[i] = out.get(i, "") + "\n" + self.readable[at:end]
        return out

    def leaks(self, cases) -> list:
        """The cases whose secret the door kept. A secret found anywhere counts for its case when
        no other case's text holds it; one that several cases hold (detect-secrets reuses values,
        ``password`` is a word) counts only where it follows the case's own marker."""
        texts = [t for _cid, t, _s in cases]
        segments = None
        out = []
        for i, (cid, _t, secrets) in enumerate(cases):
            if not leaked(secrets, self.text):
                continue
            if any(leaked(secrets, other) for j, other in enumerate(texts) if j != i):
                segments = self._segments() if segments is None else segments
                if not leaked(secrets, segments.get(i, "")):
                    continue
            out.append(cid)
        return out


# ------------------------------------------------------------------------------------ what was stored

def _strings(value, out: list) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.append(str(k))
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)


def _sqlite_values(path: str, out: list, raw: list) -> None:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            try:
                for row in conn.execute(f'SELECT * FROM "{table}"'):
                    out.extend(v for v in row if isinstance(v, str))
                    raw.extend(v.decode("utf-8", "replace") for v in row if isinstance(v, bytes))
            except sqlite3.Error:
                continue
    finally:
        conn.close()


def stored_text(*roots: str) -> tuple:
    """``(everything, readable)``: every file under ``roots`` as text, plus the decoded strings of
    JSON, JSONL and SQLite files (an escaped quote must not hide a secret from the search); the
    readable part leaves out the raw bytes of databases and their blobs (index pages)."""
    out: list = []
    raw_only: list = []
    for root in roots:
        for dirpath, _dirs, files in os.walk(root):
            for name in files:
                path = os.path.join(dirpath, name)
                with open(path, "rb") as fh:
                    raw = fh.read()
                text = raw.decode("utf-8", "replace")
                if raw.startswith(b"SQLite format 3") or name.endswith(("-wal", "-shm", "-journal")):
                    raw_only.append(text)
                    if raw.startswith(b"SQLite format 3"):
                        _sqlite_values(path, out, raw_only)
                    continue
                out.append(text)
                for chunk in ([text] if name.endswith(".json") else text.splitlines()):
                    if chunk.lstrip()[:1] in ("{", "["):
                        try:
                            _strings(json.loads(chunk), out)
                        except ValueError:
                            pass
    readable = "\n".join(out)
    return readable + "\n" + "\n".join(raw_only), readable


def _root(workdir: str):
    from code_memory.memory.tree import init_root
    from code_memory.paths import MemoryPaths
    paths = MemoryPaths(os.path.join(workdir, "memory"))
    init_root(paths)
    return paths


def _env(workdir: str, paths) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CODE_MEMORY_", "CLAUDE", "MEMTOOL"))}
    env.update(HOME=os.path.join(workdir, "home"), CODE_MEMORY_ROOT=paths.root)
    os.makedirs(env["HOME"], exist_ok=True)
    return env


# ------------------------------------------------------------------------------------------ the doors

def _distinct(i: int) -> str:
    """A proposal text no other is near (the queue drops near-duplicates)."""
    import hashlib
    return f"proposal {i}: " + " ".join(hashlib.sha256(f"{i}:{n}".encode()).hexdigest()[:10] for n in range(4))


def _summarizer(cases, workdir: str, sink: str) -> Stored:
    from code_memory.llm import get_backend
    from code_memory.summary.summarize import SummaryOptions, summarize_session
    from support.standin_api import StandinAPI, strings_in
    from support.transcripts import TranscriptWriter

    paths = _root(workdir)
    project = os.path.join(workdir, "work", "shop")
    os.makedirs(os.path.join(project, ".git"), exist_ok=True)
    batch = 10                      # the summary keeps 10 key points: each case is echoed back once
    with StandinAPI(default_text="unexpected request") as api:
        backend = get_backend({"backend": "anthropic", "base_url": api.base_url, "timeout_seconds": 30},
                              paths=paths, env={"ANTHROPIC_API_KEY": "k"}, purpose="summary")
        for b in range(0, len(cases), batch):
            part = list(enumerate(cases))[b:b + batch]
            transcript = os.path.join(workdir, f"t{b}.jsonl")
            with TranscriptWriter(transcript, session_id=f"door-{b}", cwd=project) as t:
                t.user(f"Add caching to the API client in {project}/client.py. Context: " + "x" * 300)
                for i, (_cid, text, _s) in part:
                    t.user(marked(i, text))
                    t.say(f"Noted {marker(i)}.")
            echo = [marked(i, text) for i, (_cid, text, _s) in part]
            answer = {"summary": {"topic": "缓存层", "key_points": echo, "files": ["client.py"],
                                  "decisions": echo[:3], "todos": echo[3:6]},
                      "knowledge": {"has_knowledge": True, "project": "shop",
                                    "rules": [{"category": "配置", "rule": e} for e in echo[:5]],
                                    "avoidances": echo[5:]}}
            api.push({"text": json.dumps(answer, ensure_ascii=False)})
            summarize_session(paths, transcript, backend=backend, options=SummaryOptions(), now=NOW.astimezone())
        sent = "\n".join(s for r in api.requests for s in strings_in(r.get("body") or {}))
    return Stored(sent if sink == "llm-request" else stored_text(paths.root))


def _daily(cases, workdir: str) -> Stored:
    from code_memory.memory.daily import append_daily_edit
    paths = _root(workdir)
    for i, (_cid, text, _s) in enumerate(cases):
        append_daily_edit(paths, NOW + dt.timedelta(minutes=i), "alpha", marked(i, text))
    return Stored(stored_text(paths.daily))


def _remember(cases, workdir: str) -> Stored:
    from code_memory.workspace.registry import Registry
    from code_memory.workspace.store import remember
    space = os.path.join(workdir, "ws", "alpha")
    os.makedirs(space, exist_ok=True)
    ws = Registry([space]).get("alpha")
    for i, (_cid, text, _s) in enumerate(cases):
        remember(ws, "event", {"text": marked(i, text), "handling": text}, NOW + dt.timedelta(minutes=i))
    return Stored(stored_text(os.path.join(space, "memory")))


def _memtool(cases, workdir: str) -> Stored:
    from code_memory.memtool.store import MemoryStore
    folder = os.path.join(workdir, "memtool")
    os.makedirs(folder, exist_ok=True)
    with MemoryStore(os.path.join(folder, "m.db")) as store:
        for i, (_cid, text, _s) in enumerate(cases):
            store.put(content=marked(i, text), type="run")
    return Stored(stored_text(folder))


def _kv(cases, workdir: str) -> Stored:
    from code_memory.kv.write import set_memory
    paths = _root(workdir)
    for i, (_cid, text, _s) in enumerate(cases):
        set_memory(paths.root, f"/doors/k{i}", {"note": marked(i, text), "detail": {"said": text}}, {"kind": "user"})
    return Stored(stored_text(os.path.join(paths.root, "kv")))


def _mcp(cases, workdir: str) -> Stored:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    paths = _root(workdir)
    env = _env(workdir, paths)
    project = os.path.join(workdir, "work", "alpha")
    os.makedirs(project, exist_ok=True)
    env.update(MEMTOOL_DB=os.path.join(paths.root, "memtool.db"), CLAUDE_PROJECT_DIR=project)
    server = os.path.join(os.path.dirname(sys.executable), "code-memory-mcp")

    errors = []

    async def session():
        params = StdioServerParameters(command=server, args=[], env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                for i, (cid, text, _s) in enumerate(cases):
                    for tool, args in (("memory_store", {"content": marked(i, text), "type": "run"}),
                                       ("set_memory", {"key": f"/doors/k{i}", "json_content": {"note": marked(i, text)},
                                                       "source": "chat"})):
                        result = await s.call_tool(tool, args)
                        if getattr(result, "isError", False) or getattr(result, "is_error", False):
                            errors.append(f"{cid} {tool}: {result.content[0].text[:200]}")

    asyncio.run(asyncio.wait_for(session(), timeout=600))
    return Stored(stored_text(paths.root), errors)


def _review(cases, workdir: str) -> Stored:
    from code_memory.review import queue
    paths = _root(workdir)
    for i, (_cid, text, _s) in enumerate(cases):
        prop = queue.propose(paths.root, "fact", _distinct(i), project="alpha", payload={"note": marked(i, text)},
                             title=marked(i, text), source="door")
        queue.edit(paths.root, prop["id"], marked(i, text))
    return Stored(stored_text(os.path.join(paths.root, "review")))


def _browser(cases, workdir: str) -> Stored:
    import httpx

    from code_memory.review import queue
    from support.ui_server import UiServer

    paths = _root(workdir)
    rules = os.path.join(paths.project_dir("alpha"), "rules.md")
    os.makedirs(os.path.dirname(rules), exist_ok=True)
    with open(rules, "w", encoding="utf-8") as fh:
        fh.write("# alpha rules\n\n## 配置\n- 连接池大小从 config/db.yaml 读取\n")
    pids = [queue.propose(paths.root, "rule", _distinct(i), project="alpha", source="door")["id"]
            for i in range(len(cases))]
    with UiServer(_env(workdir, paths)) as ui:
        with httpx.Client(base_url=ui.base, cookies=ui.cookie, timeout=60) as c:
            page = c.get("/area/projects/alpha").text
            start = page.index('name="csrf" value="') + len('name="csrf" value="')
            headers = {"X-CSRF-Token": page[start:page.index('"', start)]}
            rule = c.get("/api/area/projects/alpha").json()["rules"][0]
            rid, line = rule["id"], rule["line"]
            for i, (_cid, text, _s) in enumerate(cases):
                r = c.post("/api/area/projects/alpha/edit", headers=headers,
                           json={"id": rid, "text": marked(i, text), "expected": line}).json()
                if r.get("ok"):
                    rid, line = r["new_id"], r["new"]
                c.post(f"/api/review/{pids[i]}/approve", headers=headers, json={"text": marked(i, text)})
    return Stored(stored_text(paths.root))


_RUN = {"session-note": lambda c, w: _summarizer(c, w, "session-note"),
        "llm-request": lambda c, w: _summarizer(c, w, "llm-request"),
        "daily-note": _daily, "remember": _remember, "memtool": _memtool, "kv": _kv, "mcp": _mcp,
        "review-queue": _review, "browser-edit": _browser}


def run_door(name: str, cases, workdir: str) -> Stored:
    os.makedirs(workdir, exist_ok=True)
    return _RUN[name](list(cases), workdir)
