#!/usr/bin/env python3
"""Continuity benchmark: does the next session know what the last one did?

    .venv-test/bin/python bench/bench_continuity.py [--backend both|none|llm] [--json OUT] [--smoke]

12 scripted multi-session scenarios (6 Chinese, 6 English), each a project with three or four
sessions in a row. A session plants facts — its topic, a decision, a file it changed, open
to-dos — and finishes to-dos an earlier session left. For every session the benchmark writes the
transcript in the shapes the real Claude Code binary writes (tests/support/transcripts.py: tool
calls and results, a gate denial, errors), runs the summarizer as the SessionEnd hook would
(``session-summary.py --transcript … --cwd …``, a new process), then runs the real
``hooks/session-start.sh`` shim for the next session and checks its context:

  recall           planted facts of the previous session found in the next start context
  finished absent  to-dos a session finished that the next start context no longer shows
  leaks            planted facts of the other projects (all twelve share one memory root) found
                   in a project's start context — must be 0
  context chars    size of the whole start context (p50, max), against hooks.session_start_max_chars

The memory root is not empty, so the brief competes for the budget as it does for a real user: a
MEMORY.md with preferences and 40 pitfalls (~2,400 characters), a project summary.md of ~2,000
characters for every project, a dozen kv entries and the routing table — with the brief, more
than the 6,000-character budget, so the priority order decides what is cut.

Backends: ``none`` — the deterministic summary (no LLM); ``llm`` — the real anthropic SDK
against the loopback stand-in (tests/support/standin_api.py). The stand-in's answers are what a
correct summary of each session says (scripted per session: topic, decision, to-dos, and the ids
of the earlier to-dos it finished, looked up in the ``[T<n>]`` list the request carries) — so the
``llm`` numbers measure the pipeline around the model (prompt inputs, ids, note, index, brief), not
a model's judgement. Everything runs in a temp HOME; prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))
sys.path.insert(0, os.path.join(REPO, "tests"))

from code_memory.timeutil import now_iso  # noqa: E402
from report import emit  # noqa: E402
from support.standin_api import StandinAPI  # noqa: E402
from support.transcripts import TranscriptWriter  # noqa: E402

DENIAL = ("PreToolUse:Edit hook error: [code-memory] This Edit was not applied: project \"{p}\" has rules that "
          "are not loaded in this session yet. Read its rules.md first, then retry the edit.")


def S(prompt, files, final, *, topic, decision, todos, done=(), bash=(), llm_topic=None, more=""):
    """One session: the request, files it changes, the final assistant message; the facts the
    next session must see (``topic``, ``decision``, ``todos`` — short phrases), the earlier to-dos it
    finishes (``done``: phrases of them), commands (``(command, ok)``)."""
    return {"prompt": prompt, "files": list(files), "final": final, "topic": topic, "decision": decision,
            "todos": list(todos), "done": list(done), "bash": list(bash), "llm_topic": llm_topic or prompt,
            "more": more}


SCENARIOS = [
    ("zh-pool", "zh", [
        S("把 app.py 里写死的连接池大小改成从 config/db.yaml 读取", ["app.py", "config/db.yaml"],
          "已把 POOL_SIZE 改成从 config/db.yaml 读取（决定用 YAML 而不是环境变量，因为其它配置也在 config/ 下）。"
          "下一步：给 load_config 补单元测试；在 README 里说明 pool_size 配置项。",
          topic="连接池大小", decision="YAML 而不是环境变量", todos=["load_config 补单元测试", "README 里说明 pool_size"],
          bash=[("python3 -m pytest -q tests/test_db.py", False), ("python3 -m pytest -q", True)]),
        S("继续昨天的工作：连接池配置还差什么？", ["tests/test_load_config.py"],
          "已给 load_config 补好单元测试（tests/test_load_config.py），测试通过。决定把超时也放进 db.yaml，而不是写死在代码里。"
          "接下来：README 里说明 pool_size 和 timeout 两个配置项。",
          topic="连接池配置还差什么", decision="超时也放进 db.yaml", todos=["README 里说明 pool_size 和 timeout"],
          done=["load_config 补单元测试"]),
        S("README 的配置说明补一下", ["README.md"],
          "README 已补上 pool_size 和 timeout 的说明。选择在 README 末尾加一张配置表，因为字段会越来越多。"
          "后续：给配置表加一个 CI 校验脚本 scripts/check_config.py。",
          topic="配置说明", decision="配置表", todos=["scripts/check_config.py"],
          done=["README 里说明 pool_size 和 timeout"]),
        S("看看 CI 校验脚本怎么写", [], "还没开始写。", topic="", decision="", todos=[]),
    ]),
    ("zh-export", "zh", [
        S("导出报表太慢了，把 exporter.py 改成流式写 CSV", ["src/exporter.py"],
          "exporter.py 现在按 1000 行一批流式写 CSV，内存从 2GB 降到 80MB。决定用 csv.writer 而不是 pandas，因为不想引入新依赖。"
          "还差：给大文件导出加进度条；处理字段里的换行符转义。",
          topic="流式写 CSV", decision="csv.writer 而不是 pandas", todos=["进度条", "换行符转义"],
          bash=[("python3 bench_export.py > export.log", True)]),
        S("把换行符转义的问题修掉", ["src/exporter.py", "tests/test_escape.py"],
          "换行符转义已修复，加了 tests/test_escape.py 覆盖含换行和引号的字段。采用 QUOTE_MINIMAL 而不是 QUOTE_ALL，文件更小。"
          "下一步：进度条还没做。",
          topic="换行符转义", decision="QUOTE_MINIMAL 而不是 QUOTE_ALL", todos=["进度条"], done=["换行符转义"]),
        S("进度条用 tqdm 吗", [], "可以用 tqdm，但它是新依赖。", topic="", decision="", todos=[]),
    ]),
    ("zh-auth", "zh", [
        S("登录接口要加限流，每个 IP 每分钟最多 10 次", ["api/auth.py", "api/ratelimit.py"],
          "在 api/ratelimit.py 里实现了令牌桶限流，登录接口已接入。决定把计数放在 Redis 里，因为有多个实例。"
          "待办：1. 给限流加监控指标 2. 管理后台的白名单配置",
          topic="限流", decision="计数放在 Redis", todos=["监控指标", "白名单配置"],
          bash=[("redis-cli ping", False), ("python3 -m pytest -q tests/test_ratelimit.py", True)]),
        S("加限流的监控指标", ["api/metrics.py"],
          "已在 api/metrics.py 加好限流监控指标 ratelimit_rejected_total，Grafana 面板也配了。改用 Counter 而不是 Gauge。"
          "接下来还需要：管理后台的白名单配置。",
          topic="限流的监控指标", decision="Counter 而不是 Gauge", todos=["白名单配置"], done=["监控指标"]),
        S("白名单配置放哪里好", [], "可以放在 settings 表里。", topic="", decision="", todos=[]),
    ]),
    ("zh-migrate", "zh", [
        S("把 orders 表的 amount 字段从 float 改成 decimal", ["migrations/0042_amount_decimal.py", "models/order.py"],
          "写好了迁移 0042_amount_decimal，模型也改成 Decimal。决定分两步迁移：先加新列再回填，避免锁表。"
          "下一步：在预发环境跑一次回填脚本；删除旧的 amount_float 列。",
          topic="amount 字段", decision="分两步迁移", todos=["预发环境跑一次回填脚本", "删除旧的 amount_float 列"]),
        S("预发回填跑完了，看看结果", ["scripts/backfill_report.py"],
          "预发环境回填脚本已跑完，12 万行全部一致，报表脚本 scripts/backfill_report.py 也写好了。"
          "选择保留旧列一周再删除，以便回滚。后续：一周后删除旧的 amount_float 列。",
          topic="预发回填", decision="保留旧列一周", todos=["删除旧的 amount_float 列"], done=["预发环境跑一次回填脚本"]),
        S("旧列什么时候删", [], "下周一。", topic="", decision="", todos=[]),
    ]),
    ("zh-cache", "zh", [
        S("商品详情页加缓存", ["services/product.py"],
          "商品详情加了本地 LRU 缓存，TTL 60 秒。决定不用 Redis，因为单机 QPS 够用。还差：缓存命中率日志；库存变更时主动失效。",
          topic="商品详情页加缓存", decision="不用 Redis", todos=["缓存命中率日志", "库存变更时主动失效"]),
        S("库存变更时让缓存失效", ["services/product.py", "services/stock.py"],
          "库存变更时会主动失效对应商品的缓存，已在 services/stock.py 里调用 invalidate。采用事件回调而不是轮询。"
          "接下来：缓存命中率日志还没加。",
          topic="让缓存失效", decision="事件回调而不是轮询", todos=["缓存命中率日志"], done=["库存变更时主动失效"]),
        S("命中率日志格式", [], "建议 JSON 格式。", topic="", decision="", todos=[]),
    ]),
    ("zh-ci", "zh", [
        S("CI 太慢了，帮我把测试并行起来", [".github/workflows/ci.yml", "pytest.ini"],
          "CI 改成 pytest-xdist 4 个 worker 并行，时间从 12 分钟降到 4 分钟。选择按文件分组而不是按用例分组，避免共享夹具冲突。"
          "遗留问题：test_upload 在并行时偶发失败；缓存 pip 依赖。",
          topic="测试并行", decision="按文件分组", todos=["test_upload 在并行时偶发失败", "缓存 pip 依赖"],
          bash=[("pytest -n 4", False), ("pytest -n 4 --dist loadfile", True)]),
        S("修一下 test_upload 的偶发失败", ["tests/test_upload.py"],
          "test_upload 的偶发失败已修复：临时目录改成每个 worker 独立。决定用 tmp_path 而不是固定的 /tmp/upload。"
          "下一步：缓存 pip 依赖。",
          topic="偶发失败", decision="tmp_path 而不是固定的 /tmp/upload", todos=["缓存 pip 依赖"], done=["test_upload"]),
        S("pip 缓存怎么配", [], "用 actions/cache。", topic="", decision="", todos=[]),
    ]),
    ("en-parser", "en", [
        S("The config parser crashes on empty sections, please fix it", ["cfgparse/parser.py", "tests/test_parser.py"],
          "Fixed the crash: empty sections now parse to an empty dict, with a regression test in tests/test_parser.py. "
          "I decided to return an empty dict instead of raising, because callers already handle missing keys.\n\n"
          "Next steps:\n- add a fuzz test for parse_header\n- document the --strict flag in docs/cli.md",
          topic="empty sections", decision="empty dict instead of raising", todos=["fuzz test for parse_header",
                                                                                 "--strict flag"],
          bash=[("pytest -q tests/test_parser.py", False), ("pytest -q", True)]),
        S("Let's do the fuzz test now", ["tests/test_fuzz_parser.py"],
          "Added a fuzz test for parse_header in tests/test_fuzz_parser.py using hypothesis; it passes 500 examples. "
          "We chose hypothesis over atheris because it runs inside pytest. Remaining: document the --strict flag in docs/cli.md.",
          topic="fuzz test", decision="hypothesis over atheris", todos=["--strict flag"], done=["fuzz test for parse_header"]),
        S("Anything left on the parser?", [], "Only the docs.", topic="", decision="", todos=[]),
    ]),
    ("en-billing", "en", [
        S("Invoices round totals wrong for JPY, fix the currency handling", ["billing/money.py"],
          "Fixed: money.py now uses each currency's minor units, so JPY has zero decimals. "
          "Decided to keep amounts as integers in minor units instead of Decimal everywhere, since the DB stores cents.\n"
          "TODO: backfill the 37 affected JPY invoices; add KWD (three decimals) to the currency table.",
          topic="JPY", decision="integers in minor units", todos=["backfill the 37 affected JPY invoices", "KWD"]),
        S("Backfill the broken JPY invoices", ["scripts/backfill_jpy.py"],
          "Backfilled the 37 affected JPY invoices with scripts/backfill_jpy.py; totals now match the ledger. "
          "I opted for a dry-run flag that prints the diff first. Still to do: add KWD to the currency table.",
          topic="JPY invoices", decision="dry-run flag", todos=["KWD"], done=["backfill the 37 affected JPY invoices"]),
        S("What about KWD?", [], "Not done yet.", topic="", decision="", todos=[]),
    ]),
    ("en-deploy", "en", [
        S("Move the deploy script from Makefile to a Python tool", ["tools/deploy.py", "Makefile"],
          "tools/deploy.py replaces the make targets; make deploy now calls it. We'll use click for the CLI instead of argparse "
          "because the team already uses it elsewhere.\nNext steps:\n- add a --dry-run option\n- delete the old deploy.sh",
          topic="deploy script", decision="click for the CLI instead of argparse", todos=["--dry-run option", "old deploy.sh"],
          bash=[("python tools/deploy.py --help > deploy-help.txt", True)]),
        S("Add the dry run option", ["tools/deploy.py"],
          "Implemented the --dry-run option in tools/deploy.py; it prints every command without running it. "
          "Switched to subprocess.run with check=True instead of os.system. Remaining: delete the old deploy.sh.",
          topic="dry run option", decision="subprocess.run with check=True", todos=["deploy.sh"], done=["--dry-run option"]),
        S("Can I delete deploy.sh now?", [], "Yes, nothing calls it.", topic="", decision="", todos=[]),
    ]),
    ("en-search", "en", [
        S("Search results ignore accents, make café match cafe", ["search/normalize.py"],
          "search/normalize.py now strips accents with NFKD before indexing and querying. "
          "Decided to normalise at index time instead of using a custom SQLite collation, since FTS5 tokenizers cannot use it.\n"
          "TODO: reindex production; add Turkish dotless i to the tests.",
          topic="accents", decision="normalise at index time", todos=["reindex production", "Turkish dotless i"]),
        S("Add the Turkish i cases", ["tests/test_normalize.py"],
          "Added the Turkish dotless i cases to tests/test_normalize.py; they pass after a casefold fix. "
          "Chose casefold() over lower() for the comparison. Next: reindex production.",
          topic="Turkish", decision="casefold() over lower()", todos=["reindex production"], done=["Turkish dotless i"]),
        S("When do we reindex?", [], "Tonight.", topic="", decision="", todos=[]),
    ]),
    ("en-api", "en", [
        S("Add pagination to GET /orders", ["api/orders.py", "api/pagination.py"],
          "GET /orders is paginated with cursors; api/pagination.py holds the helper. "
          "I chose cursor pagination instead of offset because the table grows fast.\n"
          "Next steps:\n- update the OpenAPI spec\n- make the mobile client follow next_cursor",
          topic="pagination", decision="cursor pagination instead of offset", todos=["OpenAPI spec", "next_cursor"]),
        S("Update the OpenAPI spec for it", ["openapi.yaml"],
          "Updated the OpenAPI spec in openapi.yaml with the cursor parameters and the next_cursor field. "
          "Decided to document the limit maximum (200) instead of leaving it implicit. "
          "Still to do: make the mobile client follow next_cursor.",
          topic="OpenAPI spec", decision="limit maximum (200)", todos=["next_cursor"], done=["OpenAPI spec"]),
        S("Mobile team asks about next_cursor", [], "Tell them to loop until it is null.", topic="", decision="",
          todos=[]),
    ]),
    ("en-logging", "en", [
        S("Our logs leak user emails, mask them", ["app/logging_filters.py", "app/settings.py"],
          "Added a logging filter in app/logging_filters.py that masks emails; it is installed in app/settings.py. "
          "Decided to mask in a logging.Filter instead of at every call site, so new code is covered too.\n"
          "Remaining: scrub the emails already in the S3 log archive; add phone numbers to the filter.",
          topic="mask", decision="logging.Filter instead of at every call site",
          todos=["S3 log archive", "phone numbers"]),
        S("Add phone numbers to the filter", ["app/logging_filters.py", "tests/test_filters.py"],
          "Phone numbers are masked now too, covered by tests/test_filters.py. I went with the phonenumbers library "
          "instead of a regex because of international formats. Next: scrub the S3 log archive.",
          topic="phone numbers", decision="phonenumbers library", todos=["S3 log archive"], done=["phone numbers"]),
        S("How big is the S3 archive?", [], "About 2 TB.", topic="", decision="", todos=[]),
    ]),
]


# ---------------------------------------------------------------------------------------------
# transcripts and the scripted model

def write_transcript(path: str, sid: str, cwd: str, project: str, session: dict) -> None:
    with TranscriptWriter(path, session_id=sid, cwd=cwd) as t:
        t.user(session["prompt"])
        files = session["files"]
        if files:   # the first edit meets the rules gate, as in a real first session of the day
            t.tool("Edit", {"file_path": f"{cwd}/{files[0]}", "old_string": "a", "new_string": "b"},
                   DENIAL.format(p=project), is_error=True)
            t.tool("Read", {"file_path": f"{cwd}/{files[0]}"}, "...")
        for i, name in enumerate(files):
            tool = "Edit" if i % 2 == 0 else "Write"
            args = {"file_path": f"{cwd}/{name}", "old_string": "a", "new_string": "b"} if tool == "Edit" \
                else {"file_path": f"{cwd}/{name}", "content": "x\n"}
            t.tool(tool, args)
        for command, ok in session["bash"]:
            t.tool("Bash", {"command": command}, "ok" if ok else "Exit code 1\nAssertionError: boom", is_error=not ok)
        t.say(session["final"] + session["more"])


class ScriptedModel(StandinAPI):
    """The stand-in answering each summary request with :func:`scripted_answer`."""

    def __init__(self, sessions: dict):
        super().__init__(default_text="{}")
        self.sessions = sessions

    def _next_step(self, body, raw, role):
        answer = scripted_answer(body, self.sessions)
        return None if answer is None else {"text": answer}


def scripted_answer(body: dict, sessions: dict) -> str | None:
    """What a correct summary of the session in ``body`` says, in the format the system prompt
    asks for (JSON, or the numbered Markdown of short sessions) — see the module docstring."""
    prompt = body["messages"][0]["content"] if body.get("messages") else ""
    if not isinstance(prompt, str):
        return None
    session = next((s for key, s in sessions.items() if key in prompt), None)
    if session is None:
        return None
    earlier = re.findall(r"^\s*\[T(\d+)\] (.+)$", prompt, re.M)
    done = [f"T{n}" for n, text in earlier if any(phrase in text for phrase in session["done"])]
    decision_line = next((s for s in re.split(r"(?<=。)|(?<=\.)\s+", session["final"]) if session["decision"] and
                          session["decision"] in s), "")
    # the open work: what the message says after it turns to what is left
    marker = re.search(r"下一步|接下来|还差|待办|遗留|后续|TODO|Next|Remaining|Still to do", session["final"])
    rest = session["final"][marker.start():] if marker else ""
    clauses = [c.strip(" -") for c in re.split(r"[。；;\n：:]|\d\. |(?<=\.)\s+", rest) if c.strip(" -")]
    todos = [c for c in clauses for phrase in session["todos"] if phrase in c][:4]
    summary = {"topic": session["llm_topic"], "key_points": [], "files": session["files"],
               "decisions": [decision_line.strip()] if decision_line else [],
               "todos": list(dict.fromkeys(t.strip(" -") for t in todos)), "done_todos": done}
    if "Reply with Markdown only" in json.dumps(body.get("system"), ensure_ascii=False):
        return "\n".join([f"1. **主题**: {summary['topic']}", "2. **关键知识点**: —",
                          f"3. **涉及文件**: {', '.join(summary['files']) or '—'}",
                          f"4. **决策记录**: {summary['decisions'][0] if summary['decisions'] else '—'}",
                          "5. **待办**:", *[f"   - {t}" for t in summary["todos"]],
                          f"6. **已完成的待办**: {', '.join(done) or '—'}"])
    return json.dumps({"summary": summary, "knowledge": {"has_knowledge": False}}, ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# the run

def fill_root(root: str, python: str, env: dict, checkout: str = REPO, projects=None) -> None:
    """What a user's root holds besides the sessions (see the module docstring); ``projects``:
    the project names that get a summary.md (default: this benchmark's scenarios)."""
    from code_memory.memory.templates import template

    os.makedirs(root, exist_ok=True)
    text = template("MEMORY.md")
    text = text.replace("## 个人偏好 (Preferences)\n", "## 个人偏好 (Preferences)\n\n- 回答用中文，先给结论\n- 代码注释用英文\n", 1)
    lesson = "修改共享配置前先确认其它服务是否也读取它，否则问题会在部署后才暴露；改动要写进变更说明并通知相关的人"
    pitfalls = "".join(f"- 坑 {i}: {lesson[: 40 + i % 20]}\n" for i in range(40))
    text = text.replace("## 避坑经验 (Pitfalls)\n", "## 避坑经验 (Pitfalls)\n\n" + pitfalls, 1)
    with open(os.path.join(root, "MEMORY.md"), "w", encoding="utf-8") as fh:
        fh.write(text)
    for name in projects or [name for name, _lang, _sessions in SCENARIOS]:
        folder = os.path.join(root, "areas", "projects", name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "summary.md"), "w", encoding="utf-8") as fh:
            fh.write(f"# {name} — summary\n\n## Overview\n\n" + f"{name} is a service of the shop platform. " * 50 + "\n")
    for i in range(12):
        subprocess.run([python, os.path.join(checkout, "scripts", "set-memory.py"), f"/user/notes/n{i}",
                        json.dumps({"summary": f"偏好 {i}: 提交前跑完整测试并附上命令输出", "importance": 5}), "bench"],
                       env=env, capture_output=True, check=True)


def start_context(env: dict, project_dir: str, sid: str, checkout: str = REPO) -> str:
    data = json.dumps({"session_id": sid, "transcript_path": "/dev/null", "cwd": project_dir,
                       "hook_event_name": "SessionStart", "source": "startup"}).encode()
    out = subprocess.run([os.path.join(checkout, "hooks", "session-start.sh")], input=data, capture_output=True,
                         env=env, check=False).stdout
    if not out.strip():
        return ""
    return json.loads(out)["hookSpecificOutput"]["additionalContext"]


def run_backend(backend: str, python: str, checkout: str = REPO, scenarios=SCENARIOS) -> dict:
    results = {"backend": backend, "facts": 0, "found": 0, "finished": 0, "finished_absent": 0, "leaks": 0,
               "context_chars": [], "misses": [], "by_language": {}}
    sessions_by_prompt: dict = {}
    with tempfile.TemporaryDirectory() as tmp, ScriptedModel(sessions_by_prompt) as api:
        home = os.path.join(tmp, "home")
        root = os.path.join(home, ".claude", "memory")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CODE_MEMORY_", "CLAUDE_", "ANTHROPIC_"))}
        env.update({"HOME": home, "CODE_MEMORY_ROOT": root, "TMPDIR": tmp, "CODE_MEMORY_PYTHON": python,
                    "CODE_MEMORY_LLM__BACKEND": "none" if backend == "none" else "anthropic",
                    "ANTHROPIC_BASE_URL": api.base_url, "ANTHROPIC_API_KEY": "bench"})
        os.makedirs(home)
        fill_root(root, python, env, checkout, projects=[name for name, _lang, _sessions in scenarios])
        summarizer = os.path.join(checkout, "scripts", "session-summary.py")
        knows_end = "--ended-at" in subprocess.run([python, summarizer, "--help"], capture_output=True, text=True,
                                                   env=env).stdout
        planted = {name: [p for sess in sessions for p in (sess["topic"], sess["decision"], *sess["todos"]) if p]
                   for name, _lang, sessions in scenarios}
        clock = time.time() - 100 * 3600          # sessions an hour apart, the last ones recent
        for name, lang, sessions in scenarios:
            project_dir = os.path.join(tmp, "work", name)
            os.makedirs(os.path.join(project_dir, ".git"))
            stats = results["by_language"].setdefault(lang, {"facts": 0, "found": 0})
            previous = None
            for k, session in enumerate(sessions):
                sid = f"{name}-{k + 1}"
                context = start_context(env, project_dir, sid, checkout)
                results["context_chars"].append(len(context))
                for other, phrases in planted.items():
                    leaked = [p for p in phrases if other != name and len(p) >= 6 and p in context
                              and not any(p in mine for mine in planted[name])]
                    results["leaks"] += len(leaked)
                    results["misses"] += [f"{sid} leak from {other}: {p}" for p in leaked]
                if previous is not None:
                    checks = [(kind, phrase) for kind, phrase in (("topic", previous["topic"]),
                                                                  ("decision", previous["decision"]),
                                                                  ("file", previous["files"][0] if previous["files"] else ""))
                              if phrase] + [("todo", t) for t in previous["todos"]]
                    for kind, phrase in checks:
                        hit = phrase in context
                        results["facts"] += 1
                        stats["facts"] += 1
                        results["found"] += hit
                        stats["found"] += hit
                        if not hit:
                            results["misses"].append(f"{sid} {kind}: {phrase}")
                    brief = context.split('title="recent work')[1] if 'title="recent work' in context else ""
                    for phrase in previous["done"]:
                        results["finished"] += 1
                        # finished: it may be named as done, never listed as an open to-do any more
                        open_lines = [ln for ln in brief.split("\n") if ln.strip().startswith("- [ ]")]
                        absent = not any(phrase in ln for ln in open_lines)
                        results["finished_absent"] += absent
                        if not absent:
                            results["misses"].append(f"{sid} finished still open: {phrase}")
                if k == len(sessions) - 1:
                    break
                path = os.path.join(tmp, "transcripts", f"{sid}.jsonl")
                write_transcript(path, sid, project_dir, name, session)
                sessions_by_prompt[session["prompt"]] = session
                clock += 3600
                ended = now_iso(clock)
                done = subprocess.run([python, summarizer, "--transcript", path, "--cwd", project_dir,
                                       "--session-id", sid, "--no-followups"]
                                      + (["--ended-at", ended] if knows_end else []),
                                      capture_output=True, env=env, text=True, check=False)
                if done.returncode != 0:
                    raise SystemExit(f"summary of {sid} failed: {done.stdout}{done.stderr}")
                report = json.loads(done.stdout)
                expected = ("deterministic",) if backend == "none" else ("json", "markdown")
                if report.get("mode") not in expected:
                    raise SystemExit(f"{sid}: mode {report.get('mode')} instead of {expected}: {report}")
                previous = session
    chars = results.pop("context_chars")
    results["recall"] = round(results["found"] / results["facts"], 3)
    results["finished_absent_share"] = round(results["finished_absent"] / max(1, results["finished"]), 3)
    results["context_chars_p50"] = statistics.median(chars)
    results["context_chars_max"] = max(chars)
    results["scenarios"] = len(scenarios)
    results["transitions"] = sum(len(s) - 1 for _n, _l, s in scenarios)
    for stats in results["by_language"].values():
        stats["recall"] = round(stats["found"] / stats["facts"], 3)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("both", "none", "llm"), default="both")
    parser.add_argument("--python", default=sys.executable, help="the interpreter the hooks and summarizer run with")
    parser.add_argument("--json", help="also write the result here")
    parser.add_argument("--checkout", default=REPO,
                        help="run the hooks and the summarizer of this checkout (e.g. an older revision, for comparison)")
    parser.add_argument("--smoke", action="store_true", help="two scenarios, the deterministic backend (a few seconds)")
    args = parser.parse_args()
    backends = ["none", "llm"] if args.backend == "both" else [args.backend]
    scenarios = SCENARIOS
    if args.smoke:
        backends, scenarios = ["none"], SCENARIOS[:2]
    started = time.time()
    checkout = os.path.abspath(args.checkout)
    out = {"checkout": checkout, "results": [run_backend(b, args.python, checkout, scenarios) for b in backends],
           "seconds": round(time.time() - started, 1)}
    emit(out, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
