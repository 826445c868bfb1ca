import json
import os

import pytest

from code_memory.errors import CodeMemoryError
from code_memory.evolution import signals as sg
from code_memory.evolution.signal_rules import SIGNAL_TYPES, classify_line, compile_rules
from code_memory.fsutil import iter_jsonl
from conftest import run_script
from evolution_support import DAY, MODULE, PORT, ROUTINE, SLOW, history, write_summary

RULES = compile_rules()
NOW = 1_800_000_000.0
S = sg.Settings()


def kinds(line):
    return {(t, s) for t, s, _ in classify_line(line, RULES)}


@pytest.mark.parametrize("line, expected", [
    # error
    ("测试失败: test_login 断言失败", ("error", "test-failure")),
    ("The build failed because of a TypeError in utils.ts", ("error", "build-failure")),
    ("服务启动后崩溃，日志里有 segfault", ("error", "crash")),
    ("json.loads 抛出 JSONDecodeError", ("error", "jsondecodeerror")),
    ("调用接口时报错 500", ("error", "general")),
    # correction
    ("用户指出不应该直接修改生成的代码", ("correction", "user-correction")),
    ("User corrected me: use pnpm, not npm", ("correction", "user-correction")),
    ("把错误的迁移回滚了", ("correction", "revert")),
    ("I misunderstood the requirement and edited the wrong file", ("correction", "wrong-approach")),
    # capability_gap
    ("数据库迁移只能手动执行", ("capability_gap", "manual-step")),
    ("The CLI does not support Windows paths", ("capability_gap", "unsupported")),
    ("没有现成的工具生成 changelog", ("capability_gap", "missing-tool")),
    ("used a workaround for the flaky upload", ("capability_gap", "workaround")),
    # recurring_issue
    ("又一次遇到 CI 缓存失效", ("recurring_issue", "again")),
    ("Same issue as last week with the cron job", ("recurring_issue", "again")),
    # environment_issue
    (PORT, ("environment_issue", "port")),
    ("Permission denied when writing to /var/log", ("environment_issue", "permission")),
    ("bash: rg: command not found", ("environment_issue", "path")),
    ("Docker 容器里时区不对导致定时任务报错", ("environment_issue", "docker")),
    ("macOS 自带 bash 3.2 不支持 declare -A，脚本报错", ("environment_issue", "shell")),
    ("venv 没激活导致用错了 python 解释器，报错", ("environment_issue", "python-env")),
    ("读取 CSV 出现乱码", ("environment_issue", "encoding")),
    ("公司代理导致 SSL 证书校验失败", ("environment_issue", "network")),
    # dependency_issue
    (MODULE, ("dependency_issue", "missing-module")),
    ("npm install 失败: ERESOLVE peer dependency 冲突", ("dependency_issue", "version-conflict")),
    ("Upgraded React to 18, which broke the tests", ("dependency_issue", "upgrade")),
    ("poetry.lock 与 pyproject 不一致导致安装报错", ("dependency_issue", "lockfile")),
    # performance_issue
    (SLOW, ("performance_issue", "query")),
    ("调用第三方接口超时", ("performance_issue", "timeout")),
    ("worker 内存泄漏，跑一夜就 OOM", ("performance_issue", "memory")),
    ("page load is slow on the dashboard", ("performance_issue", "slow")),
    ("the importer keeps timing out against staging", ("performance_issue", "timeout")),
    ("请求超时，网关返回 504", ("performance_issue", "timeout")),
    ("每次发版都得手动改三个文件的版本号", ("capability_gap", "manual-step")),
    ("Had to fix the fixtures by hand again", ("capability_gap", "manual-step")),
    # security_issue
    ("代码里硬编码了 API key，已移到环境变量", ("security_issue", "secret-leak")),
    ("Fixed XSS in the comment renderer", ("security_issue", "injection")),
    ("发现订单接口存在越权访问", ("security_issue", "auth")),
    ("npm audit 报告了 CVE-2024-12345", ("security_issue", "vulnerability")),
])
def test_rules_find_each_type_in_chinese_and_english(line, expected):
    assert expected in kinds(line)


@pytest.mark.parametrize("line", [
    "实现用户认证模块", "JWT token 过期时间设为 24 小时", "密码使用 bcrypt 加密",
    "选择 JWT 而不是 Session，因为需要支持微服务间认证", "Use JWT instead of server sessions",
    "Added error handling middleware", "实现错误处理中间件", "Set up docker compose for local dev",
    "没有报错，所有测试通过", "no errors, all tests pass", "Refactored the payment service to use dependency injection",
    "升级到新的设计稿", "给设置页加了一个开关",
    # a setting stated as a fact, a lone keyword, a prevention: no problem happened
    "Redis 超时设为 2 秒", "连接超时改成 300 毫秒，重试 3 次", "Set the HTTP timeout to 5 seconds",
    "We parse the feed by hand, no lxml", "I'll tag the release manually", "列表接口避免 N+1 查询",
    "金额为负数时抛 ValueError", "改了 orders/errors.py 和 failure_report.ts", "run the tests again",
])
def test_routine_lines_are_not_signals(line):
    assert kinds(line) == set()


def test_every_type_has_rules_and_extra_rules_come_first():
    assert {t for t, *_ in compile_rules()} == set(SIGNAL_TYPES)
    extra = compile_rules([{"type": "environment_issue", "subject": "vpn", "pattern": "VPN", "needs_problem": True}])
    assert ("environment_issue", "vpn") in {(t, s) for t, s, _ in classify_line("VPN 断开导致部署失败", extra)}
    assert classify_line("VPN 配好了", extra) == []
    for bad in ({"type": "nope", "pattern": "x"}, {"type": "error", "subject": "Bad Name", "pattern": "x"},
                {"type": "error", "pattern": "("}, {"type": "error", "subject": "x"}):
        with pytest.raises(ValueError):
            compile_rules([bad])
    with pytest.raises(CodeMemoryError):
        sg.Settings(extra_rules=({"type": "nope"},)).rules()


def test_summary_parsing_follows_the_spec_format(initialized_root, tmp_path):
    path = write_summary(initialized_root, "abc-1", NOW, [PORT, "实现登录"], project="shop",
                         files=("error_handler.py", "crash_report.ts"), decisions=["改用 3001 端口"])
    s = sg.parse_summary(path, open(path, encoding="utf-8").read())
    assert (s.session_id, s.project) == ("abc-1", "shop")
    assert abs(s.ts - NOW) < 60
    found = sg.signals_in(s, RULES)
    assert [f["pattern"] for f in found] == ["environment_issue:port"]   # file names are not scanned
    # free-form Markdown without the header still works; mtime gives the time
    other = tmp_path / "free.md"
    other.write_text("# notes\n\n- Tests still failing on CI\n")
    parsed = sg.parse_summary(str(other), other.read_text())
    assert parsed.session_id == "free" and sg.signals_in(parsed, RULES)


def test_signal_text_is_redacted(initialized_root):
    write_summary(initialized_root, "s1", NOW, ["泄露了 token sk-ant-api03-" + "a" * 40 + " 到日志"])
    sg.extract(initialized_root, S)
    raw = open(initialized_root.signals_log, encoding="utf-8").read()
    assert "security_issue" in raw and "sk-ant-api03" not in raw


def test_extract_is_idempotent_and_follows_resummaries(initialized_root):
    paths = initialized_root
    write_summary(paths, "s1", NOW - DAY, [PORT])
    write_summary(paths, "s2", NOW, [ROUTINE])
    first = sg.extract(paths, S)
    assert [(e["session_id"], e["signals"]) for e in first["extracted"]] == [("s1", 1), ("s2", 0)]
    assert sg.extract(paths, S) == {"extracted": [], "skipped": 2}
    write_summary(paths, "s2", NOW, [MODULE])                         # re-summarised
    again = sg.extract(paths, S, session_id="s2")
    assert again["extracted"][0]["types"] == ["dependency_issue", "error"]
    ext = sg.load_extractions(paths)
    assert {s["pattern"] for s in ext["s2"]["signals"]} == {"dependency_issue:missing-module", "error:general"}
    assert sg.extract(paths, S, session_id="s1", force=True)["extracted"][0]["signals"] == 1
    assert len(sg.load_extractions(paths)["s1"]["signals"]) == 1       # forced re-extraction replaces
    with pytest.raises(CodeMemoryError) as err:
        sg.extract(paths, S, session_id="missing")
    assert err.value.code == "NOT_FOUND"


def _pattern(result, name):
    return next((p for p in result["patterns"] if p["pattern"] == name), None)


def test_levels_high_and_critical_in_the_eight_session_window(initialized_root):
    paths = initialized_root
    # 10 sessions; only the last 8 count. PORT in 5 of the window (+1 outside), MODULE in 3,
    # SLOW in 2, one 'again' line once.
    plan = [[PORT], [MODULE],                                   # outside the window
            [PORT], [MODULE], [SLOW], [PORT, MODULE], [ROUTINE], [PORT, SLOW], [PORT], [PORT, MODULE]]
    history(paths, NOW, plan)
    res = sg.analyze(paths, S, now=NOW)
    assert res["window"] == [f"sess-{i:02d}" for i in range(2, 10)]
    port = _pattern(res, "environment_issue:port")
    assert (port["count"], port["level"]) == (5, "CRITICAL")
    assert port["streak"] == 3                                  # sess-07, 08, 09
    module = _pattern(res, "dependency_issue:missing-module")
    assert (module["count"], module["level"], module["streak"]) == (3, "HIGH", 1)
    slow = _pattern(res, "performance_issue:query")
    assert (slow["count"], slow["level"], slow["streak"]) == (2, "MEDIUM", 0)
    assert res["by_type"]["environment_issue"] == 5
    assert [p["pattern"] for p in res["recurring"]][:2] == ["environment_issue:port", "dependency_issue:missing-module"]
    generic = _pattern(res, "error:general")
    assert generic and generic["actionable"] is False


def test_counts_below_the_thresholds_stay_low(initialized_root):
    paths = initialized_root
    history(paths, NOW, [[PORT], [ROUTINE], [PORT], [ROUTINE], [ROUTINE], [ROUTINE], [ROUTINE], [ROUTINE],
                         [ROUTINE], [ROUTINE]])
    res = sg.analyze(paths, S, now=NOW)
    port = _pattern(res, "environment_issue:port")
    assert (port["count"], port["level"]) == (1, "LOW")        # the first PORT fell out of the window
    assert res["recurring"] == []
    custom = sg.Settings(window_sessions=10, high_threshold=2, critical_threshold=4)
    assert _pattern(sg.analyze(paths, custom, now=NOW), "environment_issue:port")["level"] == "HIGH"


def test_failure_streaks(initialized_root):
    paths = initialized_root
    from code_memory.evolution.feedback import session_outcomes
    history(paths, NOW, [[ROUTINE]] * 6, outcomes=["failed", "success", "success", "failed", "failed", "failed"])
    res = sg.analyze(paths, S, outcomes=session_outcomes(paths), now=NOW)
    assert res["failure_streak"] == {"length": 3, "sessions": ["sess-03", "sess-04", "sess-05"],
                                     "flagged": True, "threshold": 3}
    assert "**Failure streak:** the last 3 sessions failed" in sg.render_report(res)
    from code_memory.evolution import feedback as fb
    fb.record_outcome(paths, "sess-05", "success", now=NOW)   # the last session re-assessed as success
    res = sg.analyze(paths, S, outcomes=session_outcomes(paths), now=NOW)
    assert res["failure_streak"]["length"] == 0 and not res["failure_streak"]["flagged"]
    two = sg.failure_streak([{"session_id": "a", "outcome": "failed"}, {"session_id": "b", "outcome": "failed"}])
    assert two["length"] == 2 and two["length"] < S.failure_streak


def test_pattern_states_suppress_address_and_reopen(initialized_root):
    paths = initialized_root
    history(paths, NOW, [[PORT], [PORT], [PORT]], start_days_ago=10)
    sg.set_state(paths, "environment_issue:port", "suppressed", reason="known, fixing upstream", now=NOW - 9 * DAY)
    res = sg.analyze(paths, S, now=NOW)
    port = _pattern(res, "environment_issue:port")
    assert port["state"] == "suppressed" and port["state_reason"] == "known, fixing upstream"
    assert res["recurring"] == []
    sg.set_state(paths, "environment_issue:port", "addressed", reason="skill generated", now=NOW - 5 * DAY)
    port = _pattern(sg.analyze(paths, S, now=NOW), "environment_issue:port")
    assert (port["state"], port["count_since_addressed"], port["reopened"]) == ("addressed", 0, False)
    for i in range(3):                                        # it comes back three times
        write_summary(paths, f"late-{i}", NOW - (3 - i) * DAY, [PORT])
    port = _pattern(sg.analyze(paths, S, now=NOW), "environment_issue:port")
    assert (port["state"], port["reopened"], port["count_since_addressed"]) == ("active", True, 3)
    with pytest.raises(CodeMemoryError):
        sg.set_state(paths, "nonsense", "active")
    with pytest.raises(CodeMemoryError):
        sg.set_state(paths, "error:general", "forgotten")


def test_report_file(initialized_root):
    history(initialized_root, NOW, [[PORT], [PORT], [PORT, SLOW]])
    res = sg.analyze(initialized_root, S, now=NOW)
    path = sg.write_report(initialized_root, res)
    assert path == initialized_root.signal_report
    text = open(path, encoding="utf-8").read()
    assert "### `environment_issue:port` — HIGH, 3 sessions, streak 3" in text
    assert "| environment_issue | 3 |" in text


def test_cli(initialized_root):
    paths = initialized_root
    history(paths, NOW, [[PORT], [PORT, MODULE], [PORT, MODULE]])

    def run(*args):
        proc = run_script("signal-analyzer.py", *args)
        return proc.returncode, (json.loads(proc.stdout) if proc.stdout.startswith("{") else proc.stdout)

    code, out = run("extract", "--all")
    assert code == 0 and len(out["extracted"]) == 3
    code, out = run("extract", "--session-id", "sess-01")
    assert out["extracted"] == [] and out["skipped"] == 1
    code, out = run("extract")
    assert code == 2
    code, out = run("recurring")
    assert [p["pattern"] for p in out["patterns"]][:2] == ["environment_issue:port", "dependency_issue:missing-module"]
    assert out["patterns"][0]["level"] == "HIGH"
    code, text = run("recurring", "--format", "text")
    assert "HIGH" in text and "environment_issue:port" in text
    code, out = run("suppress", "environment_issue:port", "--reason", "noise")
    assert code == 0 and out["state"]["state"] == "suppressed"
    code, out = run("recurring")
    assert "environment_issue:port" not in [p["pattern"] for p in out["patterns"]]
    code, out = run("recurring", "--all-states")
    assert "environment_issue:port" in [p["pattern"] for p in out["patterns"]]
    code, out = run("activate", "bogus")
    assert code == 2 and out["error"] == "INVALID_ARGUMENT"
    code, out = run("report")
    assert code == 0 and os.path.exists(out["path"])
    code, text = run("report", "--format", "text")
    assert text.startswith("# Signal report")
    code, out = run("rules")
    assert set(out["types"]) == set(SIGNAL_TYPES) and len(out["rules"]) > 30
    assert {r["type"] for r in out["rules"]} == set(SIGNAL_TYPES)
    proc = run_script("code-memory.py", "signals", "recurring")
    assert json.loads(proc.stdout)["ok"] is True
    assert any(r.get("event_type") == "signal" for r in iter_jsonl(paths.signals_log))


def test_analysis_without_persisting_records_nothing(initialized_root):
    history(initialized_root, NOW, [[PORT], [PORT]])
    res = sg.analyze(initialized_root, S, now=NOW, persist=False)
    assert res["recurring"][0]["pattern"] == "environment_issue:port"
    assert not os.path.exists(initialized_root.signals_log)
