#!/usr/bin/env python3
"""Search at scale — 10,000 and 50,000 memory files — through the warm search server, in a process
of its own, and the way every search walked the tree before (issue 21, part 4).

  python bench/bench_search_scale.py [--sizes 10000,50000] [--runs 20] [--repeats 5]
                                     [--old CHECKOUT] [--no-vectors] [--out DIR] [--smoke]

Builds (once, then reused from --out) a lived-in memory root per size: session notes in the
product's note format (``sessions/<id>.md`` — almost all of the files, in one directory, the worst
case for a directory rescan), a year of daily notes, 20 projects' rules.md / summary.md /
facts.json and MEMORY.md. The text is real: LoCoMo dev turns (English) and CMRC 2018 sentences
(Chinese) from ../shared/bench-data; without that data (CI) a small generated vocabulary is used
and the report says so. The 10,000-file root is embedded with the offline test model (all-MiniLM
int8 from PyPI packages) for the hybrid numbers; the 50,000-file root is BM25 only.

Measured in one run, per size (medians and p90 of ``--runs``; scenarios: medians of ``--repeats``):

* ``python -c pass`` — the floor of any new process;
* the prompt-recall hook as registered: ``sh -c '"<repo>/hooks/prompt-recall.sh"'`` with a
  UserPromptSubmit payload on stdin (a new session each time, so its ledger never silences it),
  which asks the warm server (op ``recall``: the search, the relevance gate, the lines) — bm25
  and, on the 10k root, hybrid through the warm embedding daemon (``recall.mode``); how many runs
  injected something is reported beside it;
* the client call from a warm process (what the server itself costs);
* ``memory-search.py --mode bm25`` as a new process: with the warm server; with no server (the
  catch-up: journal + directory mtimes); and the baseline where every search walks every file —
  the code before this change when ``--old`` names a checkout of it (``git worktree add --detach
  /tmp/old <commit>``), else this code with ``index.sweep_seconds=0`` and no server;
* the first search after the summarizer (``session-summary.py --backend none``) wrote a new
  Chinese session note; the first search after code-memory's writer noted a note nobody indexed
  yet (no server: the journal catch-up segments it);
* the first search after a note was edited by hand in place (``>>``) and saved by rename, with
  whether the new words were found.

The load average before and after is part of the report (2 shared cores: compare within a run).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(REPO, "scripts")
sys.path.insert(0, SCRIPTS)
sys.path.insert(0, os.path.join(REPO, "tests", "support"))
sys.path.insert(0, os.path.join(REPO, "bench"))

HOOK = os.path.join(REPO, "hooks", "prompt-recall.sh")
PROJECTS = [f"proj{i}" for i in range(20)]
ZH_QUERIES = ["数据库连接池怎么配置", "范廷颂是什么时候被任为主教的", "色林错位于哪里", "光荣公司的总部在哪里",
              "升庵桂湖的地址", "重试策略和超时"]
EN_QUERIES = ["When did Caroline go to the LGBTQ support group?", "camping trip with the kids",
              "retry with exponential backoff", "What books does Tim like?", "pottery class", "adoption agencies"]
# a whole prompt, as a recall hook sends it (~270 characters, ~50 terms)
LONG_PROMPT = ("我们上次决定把数据库连接池的超时改成可配置，并且用指数退避重试，最多三次；另外 pottery class 和 camping trip "
               "的笔记在哪里？请帮我看看 config/db.yaml 里的 pool_size 应该设多少，以及 README 里怎么说明这个配置项。") * 2
GEN_ZH = ("连接池 配置 超时 重试 缓存 索引 数据库 接口 部署 日志 测试 权限 队列 事务 迁移 监控 告警 编码 依赖 版本"
          " 主教 湖泊 公司 总部 地址 河流 发源").split()
GEN_EN = ("pool config timeout retry cache index database api deploy log test permission queue transaction"
          " migration monitor alert encoding dependency version camping pottery books support group").split()


# ---------------------------------------------------------------------------------------------
# the corpus

def text_units(limit: int) -> tuple:
    """(units, where they came from): real sentences when the bench data is there."""
    import retrieval

    if os.path.isdir(retrieval.DATA):
        units = []
        with open(os.path.join(retrieval.DATA, "cmrc2018", "cmrc2018_dev.json"), encoding="utf-8") as fh:
            for article in json.load(fh)["data"]:
                for para in article["paragraphs"]:
                    units += [para["context"][s:e].strip() for s, e in retrieval._sentences(para["context"])]
        with open(os.path.join(retrieval.DATA, "locomo", "locomo_dev.json"), encoding="utf-8") as fh:
            for sample in json.load(fh):
                for key, turns in sample["conversation"].items():
                    if key.startswith("session_") and isinstance(turns, list):
                        units += [f"{t['speaker']}: {t['text']}" for t in turns]
        return [u for u in units if u][:limit], "LoCoMo dev + CMRC 2018 dev (real text)"
    rng = random.Random(7)
    units = []
    for i in range(min(limit, 4000)):
        words = rng.sample(GEN_ZH, 4) if i % 2 else rng.sample(GEN_EN, 6)
        units.append(("".join(words) + "。") if i % 2 else (" ".join(words) + "."))
    return units, "generated vocabulary (bench data not found)"


def session_note(sid: str, project: str, day: str, parts: list) -> str:
    return (f"# 会话摘要: {sid}\n\n- **项目**: {project}\n- **时间**: {day}\n\n---\n\n"
            f"1. **主题**: {parts[0]}\n2. **关键知识点**:\n   - {parts[1]}\n   - {parts[2]}\n"
            f"3. **涉及文件**: src/{project}/app.py, config/db.yaml\n4. **决策记录**: {parts[3]}\n"
            f"5. **待办**:\n   - [ ] {parts[4]}\n")


def build_root(root: str, files: int, units: list, vectors_model: str | None) -> dict:
    """Write the corpus (skipped when it is there) and index it (and embed it, with a model).
    Returns its description; a build that was interrupted resumes."""
    stamp = os.path.join(root, ".bench-built")
    if os.path.exists(stamp):
        with open(stamp, encoding="utf-8") as fh:
            return json.load(fh)
    if not os.path.exists(os.path.join(root, ".bench-files")):
        write_corpus(root, files, units, vectors_model)
    started = time.monotonic()          # indexing is incremental: an interrupted build resumes here
    out = run([sys.executable, os.path.join(SCRIPTS, "memory-search.py"), "index"], env_for(root, server=False))
    info = {"files": files, "indexed": json.loads(out.stdout).get("counts"),
            "index_seconds": round(time.monotonic() - started, 1), "vectors": bool(vectors_model)}
    with open(stamp, "w", encoding="utf-8") as fh:
        json.dump(info, fh)
    return info


def write_corpus(root: str, files: int, units: list, vectors_model: str | None) -> None:
    if os.path.isdir(root):
        shutil.rmtree(root)
    rng = random.Random(files)
    pick = lambda n: [units[rng.randrange(len(units))] for _ in range(n)]  # noqa: E731
    os.makedirs(os.path.join(root, "sessions"))
    os.makedirs(os.path.join(root, "daily"))
    days = min(365, max(10, files // 40))
    small = 1 + len(PROJECTS) * 3 + days
    with open(os.path.join(root, "MEMORY.md"), "w", encoding="utf-8") as fh:
        fh.write("# MEMORY\n\n## 个人偏好\n- 回答用中文\n\n## 避坑\n" + "".join(f"- {u}\n" for u in pick(8)))
    for p in PROJECTS:
        d = os.path.join(root, "areas", "projects", p)
        os.makedirs(d)
        with open(os.path.join(d, "rules.md"), "w", encoding="utf-8") as fh:
            fh.write(f"# {p} rules\n\n## 规范\n" + "".join(f"- {u}\n" for u in pick(6)))
        with open(os.path.join(d, "summary.md"), "w", encoding="utf-8") as fh:
            fh.write(f"# {p}\n\n{pick(1)[0]}\n")
        with open(os.path.join(d, "facts.json"), "w", encoding="utf-8") as fh:
            json.dump({"facts": [{"id": f"f{p}{i}", "fact": u, "status": "active", "category": "fact",
                                  "evidence": "bench", "timestamp": "2026-01-01T00:00:00Z"}
                                 for i, u in enumerate(pick(3))]}, fh, ensure_ascii=False)
    for n in range(days):
        day = f"2025-{1 + n // 28 % 12:02d}-{1 + n % 28:02d}"
        with open(os.path.join(root, "daily", f"{day}-{n}.md"), "w", encoding="utf-8") as fh:
            fh.write(f"# {day}\n\n" + "".join(f"- 10:{i:02d} [{rng.choice(PROJECTS)}] {u}\n"
                                              for i, u in enumerate(pick(5))))
    for n in range(files - small):
        sid = f"s{n:06d}"
        with open(os.path.join(root, "sessions", f"{sid}.md"), "w", encoding="utf-8") as fh:
            fh.write(session_note(sid, rng.choice(PROJECTS), "2025-06-01", pick(5)))
    cfg = {"embedding": {"enabled": False}}
    if vectors_model:
        import testmodel
        cfg = {"embedding": {**testmodel.model_config(vectors_model), "daemon": True, "daemon_idle_seconds": 1800,
                             "daemon_start_wait_seconds": 120}}
    with open(os.path.join(root, "config.json"), "w", encoding="utf-8") as fh:
        json.dump(cfg, fh)
    open(os.path.join(root, ".bench-files"), "w").close()


# ---------------------------------------------------------------------------------------------
# running things

# private (0700): this run's servers only; in /tmp, whatever TMPDIR says (a socket path has 108 bytes)
SOCKETS = tempfile.mkdtemp(prefix="cm-bench-", dir="/tmp")


def env_for(root: str, server: bool = True, **config) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CODE_MEMORY_", "CLAUDE"))}
    env.update({"CODE_MEMORY_ROOT": root, "CODE_MEMORY_SOCKET_DIR": SOCKETS, "HF_HUB_OFFLINE": "1",
                "CODE_MEMORY_SEARCH__SERVER": "1" if server else "0"})
    env.update({f"CODE_MEMORY_{k.upper()}": str(v) for k, v in config.items()})
    return env


def run(cmd, env, stdin: str | None = None, cwd: str | None = None, shell: bool = False):
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, cwd=cwd, shell=shell)


class Sample(float):
    """A wall time in ms, with the CPU time the command's processes used (``cpu``: user + system,
    from ``RUSAGE_CHILDREN``) and the warm server's CPU time meanwhile (``server_cpu``, from
    /proc in clock ticks; None without a server) — CPU times stretch far less with the load."""

    cpu: float = 0.0
    server_cpu: float | None = None


SERVER = {"pid": None}          # the warm server being measured


def server_cpu_ms() -> float | None:
    try:
        with open(f"/proc/{SERVER['pid']}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
    except (OSError, TypeError, IndexError, ValueError):
        return None


def timed(cmd, env, stdin=None, cwd=None, shell=False) -> tuple:
    before, server_before = resource.getrusage(resource.RUSAGE_CHILDREN), server_cpu_ms()
    started = time.perf_counter()
    result = run(cmd, env, stdin, cwd, shell)
    sample = Sample((time.perf_counter() - started) * 1000)
    after, server_after = resource.getrusage(resource.RUSAGE_CHILDREN), server_cpu_ms()
    sample.cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    if server_before is not None and server_after is not None:
        sample.server_cpu = server_after - server_before
    return sample, result


def stats(ms: list) -> dict:
    """Wall p50/p90; for :class:`Sample` s the CPU p50 and the server's mean CPU (a mean: it is
    counted in 10 ms ticks)."""
    out = {"p50_ms": round(statistics.median(ms), 1), "p90_ms": round(sorted(ms)[int(0.9 * (len(ms) - 1))], 1),
           "runs": len(ms)}
    if ms and all(isinstance(m, Sample) for m in ms):
        out["cpu_p50_ms"] = round(statistics.median(m.cpu for m in ms), 1)
        server = [m.server_cpu for m in ms if m.server_cpu is not None]
        if server:
            out["server_cpu_mean_ms"] = round(statistics.mean(server), 1)
    return out


def load() -> str:
    with open("/proc/loadavg") as fh:
        return " ".join(fh.read().split()[:3])


def answer_of(result) -> dict:
    try:
        return json.loads(result.stdout)
    except ValueError:
        return {"ok": False, "stdout": result.stdout[-300:], "stderr": result.stderr[-300:]}


class Case:
    """One memory root and the commands that search it."""

    def __init__(self, root: str, project_dir: str, old: str | None):
        self.root = root
        self.project_dir = project_dir
        self.old = old
        self.py = sys.executable
        self.sessions = 0

    def cli(self, query: str, env: dict, mode: str = "bm25", old: bool = False) -> tuple:
        scripts = os.path.join(self.old, "scripts") if old else SCRIPTS
        return timed([self.py, os.path.join(scripts, "memory-search.py"), query, "--mode", mode], env,
                     cwd=self.project_dir)

    def hook(self, prompt: str, mode: str = "bm25", server: bool = True) -> tuple:
        """The prompt-recall hook as Claude Code runs it, in a session of its own (``server``
        False: ``search.server`` off, the search runs in the hook's process — main before this)."""
        self.sessions += 1
        payload = json.dumps({"session_id": f"bench-{os.getpid()}-{self.sessions}", "transcript_path": "/dev/null",
                              "cwd": self.project_dir, "permission_mode": "default",
                              "hook_event_name": "UserPromptSubmit", "prompt": prompt}, ensure_ascii=False)
        env = {**env_for(self.root, server, recall__mode=mode), "CODE_MEMORY_PYTHON": self.py, "TMPDIR": SOCKETS}
        return timed(["sh", "-c", f'"{HOOK}"'], env, stdin=payload, cwd=self.project_dir)

    def baseline(self, query: str) -> tuple:
        if self.old:
            return self.cli(query, env_for(self.root, server=False), old=True)
        return self.cli(query, env_for(self.root, server=False, index__sweep_seconds=0))

    def wait_warm(self, mode: str = "bm25", seconds: float = 600) -> float:
        """Start the server (and, for hybrid, the embedding daemon) and wait until it answers."""
        from code_memory.search import client

        os.environ["CODE_MEMORY_SOCKET_DIR"] = SOCKETS
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            answer = client.call(self.root, "search", {"query": "warm up", "mode": mode, "project": "proj0"}, 30)
            if answer is not None and answer.get("mode_used") == mode:
                SERVER["pid"] = client.call(self.root, "ping", {}, 30)["pid"]
                return time.monotonic() - started
            time.sleep(0.2)
        raise SystemExit(f"the warm server of {self.root} did not answer in {seconds}s")

    def stop_server(self) -> None:
        from code_memory.search import client
        client.call(self.root, "shutdown", {}, 10)


def own_notes(root: str, project: str):
    """The corpus's session notes of ``project`` (the searches are scoped to it)."""
    folder = os.path.join(root, "sessions")
    for name in sorted(os.listdir(folder)):
        if name.startswith("s0"):
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                if f"**项目**: {project}\n" in fh.read():
                    yield os.path.join(folder, name)


def hit(answer: dict, word: str) -> bool:
    return any(word in (h.get("snippet") or "") for h in answer.get("results", []))


# ---------------------------------------------------------------------------------------------
# the measurements of one root

def latency(case: Case, runs: int, hybrid: bool) -> dict:
    from code_memory.search import client

    queries = [q for pair in zip(ZH_QUERIES, EN_QUERIES) for q in pair]
    out = {}
    warm_env, cold_env = env_for(case.root), env_for(case.root, server=False)
    out["server_start_s"] = round(case.wait_warm(), 2)
    series = {"python -c pass": [], "hook as registered, bm25": [], "hook as registered, bm25, a 270-character prompt": [],
              "hook as registered, bm25, no server (the search in the hook's process)": [],
              "client call, bm25 (warm process)": [],
              "memory-search.py, warm server": [], "memory-search.py, no server (catch-up)": [],
              "memory-search.py, every search walks (baseline)": []}
    answered = {"cli_warm": 0}
    hook_log = HookOutcomes(case.root)
    for n in range(runs):              # interleaved: load swings hit every series alike
        q = queries[n % len(queries)]
        series["python -c pass"].append(timed([case.py, "-c", "pass"], warm_env)[0])
        series["hook as registered, bm25"].append(case.hook(q)[0])
        series["hook as registered, bm25, a 270-character prompt"].append(case.hook(LONG_PROMPT)[0])
        series["hook as registered, bm25, no server (the search in the hook's process)"].append(
            case.hook(q, server=False)[0])
        started = time.perf_counter()
        client.call(case.root, "search", {"query": q, "mode": "bm25", "project": "proj0", "signals": True}, 5)
        series["client call, bm25 (warm process)"].append((time.perf_counter() - started) * 1000)
        ms, res = case.cli(q, warm_env)
        series["memory-search.py, warm server"].append(ms)
        answered["cli_warm"] += bool(answer_of(res).get("warm"))
        series["memory-search.py, no server (catch-up)"].append(case.cli(q, cold_env)[0])
        series["memory-search.py, every search walks (baseline)"].append(case.baseline(q)[0])
    out.update({name: stats(ms) for name, ms in series.items()})
    out["answered_warm"] = {k: f"{v}/{runs}" for k, v in answered.items()}
    out["hook_outcomes_bm25"] = hook_log.since()
    if hybrid:
        out["embedding_daemon_start_s"] = round(case.wait_warm("hybrid"), 2)
        hyb = {"hook as registered, hybrid": [], "memory-search.py hybrid, warm server": []}
        for n in range(runs):
            q = queries[n % len(queries)]
            hyb["hook as registered, hybrid"].append(case.hook(q, "hybrid")[0])
            hyb["memory-search.py hybrid, warm server"].append(case.cli(q, warm_env, "hybrid")[0])
        out.update({name: stats(ms) for name, ms in hyb.items()})
        out["hook_outcomes_hybrid"] = hook_log.since()
    return out


def hooks_only(case: Case, runs: int, hybrid: bool) -> dict:
    """The prompt-recall hook as registered, bm25 and hybrid, and ``python -c pass``, interleaved
    run by run (one load for all three)."""
    queries = [q for pair in zip(ZH_QUERIES, EN_QUERIES) for q in pair]
    case.wait_warm("hybrid" if hybrid else "bm25")
    hook_log = HookOutcomes(case.root)
    series: dict = {"python -c pass": [], "hook as registered, bm25": []}
    if hybrid:
        series["hook as registered, hybrid"] = []
    for n in range(runs):
        q = queries[n % len(queries)]
        series["python -c pass"].append(timed([case.py, "-c", "pass"], env_for(case.root))[0])
        series["hook as registered, bm25"].append(case.hook(q)[0])
        if hybrid:
            series["hook as registered, hybrid"].append(case.hook(q, "hybrid")[0])
    return {**{name: stats(ms) for name, ms in series.items()}, "hook_outcomes": hook_log.since()}


class HookOutcomes:
    """What the prompt-recall hook did, from its log (``logs/hooks.log``: metadata only): injected
    (``recall``, with the mode the server used) or silent, and why — ``no answer`` means the warm
    server did not answer in time, the other reasons are the gate's."""

    def __init__(self, root: str):
        self.path = os.path.join(root, "logs", "hooks.log")
        self.offset = os.path.getsize(self.path) if os.path.exists(self.path) else 0

    def since(self) -> dict:
        counts: dict = {}
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as fh:
                fh.seek(self.offset)
                for line in fh:
                    rec = json.loads(line)
                    if rec.get("hook") == "prompt-recall" and rec.get("action") in ("recall", "recall-silent"):
                        key = "injected" if rec["action"] == "recall" else f"silent: {rec.get('reason')}"
                        counts[key] = counts.get(key, 0) + 1
                self.offset = fh.tell()
        return counts


def transcript(path: str, cwd: str, sid: str, word: str) -> None:
    from transcripts import TranscriptWriter

    with TranscriptWriter(path, session_id=sid, cwd=cwd) as t:
        t.user(f"把连接池的超时改成可配置，顺便记录{word}的决定")
        t.tool("Read", {"file_path": f"{cwd}/app.py"}, "POOL_TIMEOUT = 30")
        t.tool("Edit", {"file_path": f"{cwd}/app.py", "old_string": "30", "new_string": "cfg['timeout']"})
        t.say(f"已把连接池超时改成从 config/db.yaml 读取。决定：{word}采用指数退避重试，最多三次。下一步：补单元测试。")


def scenarios(case: Case, repeats: int, tag: str) -> dict:
    """First searches after a change: medians over ``repeats`` fresh changes."""
    from code_memory.memory.sessions import write_session_note
    from code_memory.paths import MemoryPaths

    warm_env, cold_env = env_for(case.root), env_for(case.root, server=False)
    rows: dict = {}

    def record(name: str, ms: float, found: bool) -> None:
        row = rows.setdefault(name, {"ms": [], "found": 0})
        row["ms"].append(ms)
        row["found"] += found

    case.wait_warm()
    tmp = tempfile.mkdtemp(prefix="cm-bench-t-")
    notes = iter(own_notes(case.root, "proj0"))
    for n in range(repeats):
        for server in (True, False):
            word = f"zq{tag}{n}{'w' if server else 'c'}"
            path = os.path.join(tmp, f"{word}.jsonl")
            transcript(path, case.project_dir, f"bench-{word}", word)
            env = warm_env if server else cold_env
            res = run([case.py, os.path.join(SCRIPTS, "session-summary.py"), "--transcript", path, "--backend", "none",
                       "--no-followups", "--project", "proj0"], env)
            if res.returncode:
                raise SystemExit(f"the summarizer failed: {res.stderr[-500:]}")
            label = "warm server" if server else "no server"
            ms, out = case.cli(f"{word} 指数退避", env)
            record(f"first memory-search.py after the summarizer wrote a Chinese note, {label}", ms,
                   hit(answer_of(out), word))
            if server:
                ms, out = case.hook(f"{word} 指数退避重试")
                record("first hook (as registered) after the summarizer wrote a Chinese note", ms, word in out.stdout)
        # written by code-memory's writer, not indexed by anyone yet: the journal catch-up segments it
        word = f"zq{tag}{n}j"
        write_session_note(MemoryPaths(case.root), f"bench-{word}",
                           session_note(word, "proj0", "2026-01-01", [f"{word} 指数退避重试", "连接池", "超时",
                                                                       "决定用 YAML", "补测试"]))
        ms, out = case.cli(f"{word} 指数退避", cold_env)
        record("first memory-search.py after code-memory wrote a note nobody indexed yet, no server", ms,
               hit(answer_of(out), word))
        # edited by hand: in place (>>), then saved by rename like vim
        for server, how in ((True, "in place"), (False, "in place"), (False, "by rename")):
            word = f"zq{tag}{n}{'w' if server else 'c'}{how[0]}"
            note = next(notes)
            with open(note, encoding="utf-8") as fh:
                text = fh.read() + f"\n手工补充：{word} 重试上限改为五次。\n"
            if how == "in place":
                with open(note, "a", encoding="utf-8") as fh:
                    fh.write(f"\n手工补充：{word} 重试上限改为五次。\n")
            else:
                with open(note + ".swp", "w", encoding="utf-8") as fh:
                    fh.write(text)
                os.replace(note + ".swp", note)
            ms, out = case.cli(f"{word} 重试上限", warm_env if server else cold_env)
            label = "warm server" if server else "no server"
            record(f"first memory-search.py after a note was edited by hand {how}, {label}", ms,
                   hit(answer_of(out), word))
        if case.old or n == 0:
            word = f"zq{tag}{n}b"
            path = os.path.join(tmp, f"{word}.jsonl")
            transcript(path, case.project_dir, f"bench-{word}", word)
            scripts = os.path.join(case.old, "scripts") if case.old else SCRIPTS
            run([case.py, os.path.join(scripts, "session-summary.py"), "--transcript", path, "--backend", "none",
                 "--no-followups", "--project", "proj0"], cold_env)
            ms, out = case.baseline(f"{word} 指数退避")
            record("first memory-search.py after the summarizer wrote a Chinese note, baseline (every search walks)",
                   ms, hit(answer_of(out), word))
    shutil.rmtree(tmp, ignore_errors=True)
    return {name: {**stats(row["ms"]), "found": f"{row['found']}/{len(row['ms'])}"} for name, row in rows.items()}


# ---------------------------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10000,50000", help="memory files per root (comma-separated)")
    ap.add_argument("--runs", type=int, default=20, help="searches per latency series")
    ap.add_argument("--repeats", type=int, default=5, help="fresh changes per first-search scenario")
    ap.add_argument("--old", help="a checkout of the code before this change, for the baseline")
    ap.add_argument("--no-vectors", action="store_true", help="skip the hybrid (embedding) measurements")
    ap.add_argument("--out", default=os.path.join(REPO, "bench", "out", "search_scale"))
    ap.add_argument("--smoke", action="store_true", help="a few seconds on 300 files (CI)")
    ap.add_argument("--hooks-only", action="store_true",
                    help="only the prompt-recall hook series (bm25, hybrid) and python -c pass, interleaved")
    args = ap.parse_args(argv)
    if args.smoke:
        args.sizes, args.runs, args.repeats, args.no_vectors, args.old = "300", 3, 1, True, None
        args.out = tempfile.mkdtemp(prefix="cm-bench-scale-")
    subprocess.run([sys.executable, "-m", "compileall", "-q", SCRIPTS], check=True)
    units, origin = text_units(60000)
    model = None
    if not args.no_vectors:
        import testmodel
        model = testmodel.assemble(os.path.join(args.out, "model"))
    report = {"python": sys.executable, "text": origin, "load_before": load(), "sizes": {},
              "baseline": f"the code at {args.old}" if args.old else "this code, index.sweep_seconds=0, no server"}
    project_dir = os.path.join(args.out, "work", "proj0")
    os.makedirs(os.path.join(project_dir, ".git"), exist_ok=True)
    try:
        for size in [int(s) for s in args.sizes.split(",")]:
            root = os.path.join(args.out, f"root-{size}")
            vectors = model if size <= 10000 else None
            info = build_root(root, size, units, vectors)
            case = Case(root, project_dir, args.old)
            print(f"[{size}] built {info}; load {load()}", file=sys.stderr)
            entry = {"corpus": info, "load_start": load()}
            if args.hooks_only:
                entry["hooks"] = hooks_only(case, args.runs, hybrid=vectors is not None)
            else:
                entry["latency"] = latency(case, args.runs, hybrid=vectors is not None)
                entry["first_search"] = scenarios(case, args.repeats, str(size))
            entry["load_end"] = load()
            case.stop_server()
            report["sizes"][size] = entry
    finally:
        shutil.rmtree(SOCKETS, ignore_errors=True)
        if args.smoke:
            shutil.rmtree(args.out, ignore_errors=True)
    report["load_after"] = load()
    print(json.dumps(report, ensure_ascii=False, indent=2))
    if not args.smoke:
        with open(os.path.join(args.out, "report.json"), "w", encoding="utf-8") as fh:
            json.dump(report, fh, ensure_ascii=False, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
