"""What a generated Skill says when no LLM writes it: trigger words and concrete steps for each
recurring pattern (``<type>:<subject>``), with a fallback per signal type. Pure data. Corrections
and "again" have none: they never become a Skill (signals.is_actionable).

Trigger words go into the Skill's ``description`` (what Claude matches on), in Chinese and English;
steps are the body. ``{subject}`` in a step is replaced with the pattern's subject (e.g. an
exception class name).
"""

from __future__ import annotations

TYPE_SHORT = {"error": "error", "correction": "correction", "capability_gap": "gap",
              "recurring_issue": "recurring", "environment_issue": "env", "dependency_issue": "dep",
              "performance_issue": "perf", "security_issue": "security"}

TYPE_LABEL = {"error": "error", "correction": "correction of Claude's work",
              "capability_gap": "capability gap", "recurring_issue": "recurring problem",
              "environment_issue": "environment problem", "dependency_issue": "dependency problem",
              "performance_issue": "performance problem", "security_issue": "security problem"}

# pattern -> (title, trigger words, steps)
PLAYBOOKS = {
    "environment_issue:port": ("Port already in use", ["端口被占用", "端口冲突", "EADDRINUSE", "address already in use", "port in use"], [
        "Find who holds the port: `lsof -nP -iTCP:<port> -sTCP:LISTEN` (or `ss -ltnp | grep :<port>`).",
        "If it is a stale dev server of this project, stop it (`kill <pid>`); ask the user before killing anything else.",
        "Otherwise start on a free port the project supports (`PORT=<n>`, `--port <n>`) and say which port you used.",
        "Check the server answers (`curl -sS localhost:<port>/`) before going on.",
    ]),
    "environment_issue:permission": ("Permission denied", ["权限不足", "权限被拒", "permission denied", "EACCES", "EPERM", "read-only file system"], [
        "Show the failing path's owner and mode (`ls -ld <path>`) and who you run as (`id`).",
        "Prefer a user-writable location (the project dir, `$HOME`, `$TMPDIR`) over changing system paths.",
        "Never add `sudo` or `chmod 777` on your own; propose the exact ownership/mode fix and ask first.",
        "Re-run the command that failed to confirm.",
    ]),
    "environment_issue:path": ("Command or file not found", ["command not found", "找不到命令", "找不到文件", "no such file", "ENOENT", "路径错误"], [
        "Print where you are and what you call: `pwd`, `command -v <cmd>`, `ls -l <path>`.",
        "Use paths relative to the project root or absolute paths; do not assume the current directory.",
        "If a tool is missing, look for the project's way to get it (README, Makefile, package scripts) before installing anything.",
        "Re-run the exact failing command to confirm.",
    ]),
    "environment_issue:env-var": ("Missing or wrong environment variables", ["环境变量", "env var", ".env", "environment variable not set"], [
        "List the variables the code reads (grep for `os.environ`, `process.env`, `getenv`) and compare with `.env.example` / the README.",
        "Check presence without printing secrets: `printenv VAR >/dev/null && echo set || echo missing`.",
        "Set missing values in the project's `.env` (never commit it) or tell the user exactly which ones to set.",
    ]),
    "environment_issue:python-env": ("Wrong Python environment", ["venv", "virtualenv", "conda", "python 版本", "wrong interpreter", "pip installs to the wrong python"], [
        "Show the interpreter in use: `python -c 'import sys; print(sys.executable, sys.version)'`.",
        "Use the project's environment explicitly (`.venv/bin/python`, `poetry run`, `uv run`) instead of a bare `python`/`pip`.",
        "Install with `<that python> -m pip install …` so packages land in the same interpreter.",
        "Re-run the failing command with the same interpreter.",
    ]),
    "environment_issue:node-env": ("Wrong Node.js version", ["node 版本", "node version", "nvm", ".nvmrc", "engines"], [
        "Compare `node -v` with `.nvmrc` / `package.json` `engines`.",
        "Switch with the project's manager (`nvm use`, `fnm use`, `volta`) before installing or building.",
        "Remove `node_modules` only if they were built with another Node version, then reinstall.",
    ]),
    "environment_issue:shell": ("Shell compatibility", ["bash 3", "declare -A", "zsh", "shell 版本", "macOS bash"], [
        "Check which shell runs the script (shebang, `bash --version`); macOS ships bash 3.2.",
        "Avoid bash 4+ features (`declare -A`, `mapfile`, `${var,,}`) in scripts meant to run there, or require bash 4 explicitly.",
        "Run `bash -n` and shellcheck (if installed) on the script before finishing.",
    ]),
    "environment_issue:docker": ("Container environment problems", ["docker", "容器", "container", "docker compose"], [
        "Look at the container's state and logs first: `docker ps -a`, `docker logs <name> --tail 100`.",
        "Check the effective configuration: `docker compose config`, environment, mounted volumes, time zone.",
        "Change the compose/Dockerfile setting rather than patching inside a running container; rebuild and re-check.",
    ]),
    "environment_issue:encoding": ("Text encoding problems", ["乱码", "编码", "encoding", "UnicodeDecodeError", "mojibake"], [
        "Find the file's real encoding (`file -i <file>`).",
        "Read and write with an explicit encoding (`encoding=\"utf-8\"`, or the detected one); never rely on the locale default.",
        "Check `LANG`/`LC_ALL` in the environment that fails.",
    ]),
    "environment_issue:network": ("Network, proxy or certificate problems", ["代理", "证书", "proxy", "SSL", "certificate", "ECONNREFUSED", "connection refused"], [
        "Reproduce with `curl -v <url>` to see DNS, connect and TLS steps.",
        "Check proxy variables (`HTTPS_PROXY`, `NO_PROXY`) and CA settings (`REQUESTS_CA_BUNDLE`, `NODE_EXTRA_CA_CERTS`).",
        "Never disable certificate verification as a fix; report what is blocked instead.",
    ]),
    "dependency_issue:missing-module": ("Missing module or package", ["ModuleNotFoundError", "No module named", "Cannot find module", "找不到模块", "缺少依赖", "ImportError"], [
        "Confirm which interpreter/runtime runs the code (`sys.executable`, `node -v`) — most 'missing' modules are installed elsewhere.",
        "Check the project's dependency file (pyproject/requirements/package.json) for the package.",
        "Install it into the project environment with the project's tool, and add it to the dependency file if it was missing there.",
        "Re-run the failing import or test.",
    ]),
    "dependency_issue:version-conflict": ("Dependency version conflicts", ["版本冲突", "不兼容", "ERESOLVE", "peer dependency", "version conflict", "incompatible"], [
        "Show the tree around the conflict: `pip check` / `pipdeptree -p <pkg>`, `npm ls <pkg>`.",
        "Pick versions that satisfy every requirement and pin them in the manifest.",
        "Do not use `--force` / `--legacy-peer-deps` / `--no-deps` without telling the user why.",
        "Run the test suite after changing versions.",
    ]),
    "dependency_issue:lockfile": ("Lock file out of sync", ["lock file", "package-lock", "poetry.lock", "yarn.lock", "pnpm-lock", "依赖锁"], [
        "Regenerate the lock file with the project's tool and version (`npm install`, `poetry lock --no-update`, `uv lock`).",
        "Commit the manifest and the lock file together; never hand-edit a lock file.",
    ]),
    "dependency_issue:install-failure": ("Package installation fails", ["安装失败", "install failed", "pip install", "npm install", "build wheel failed"], [
        "Read the first error in the install log, not the last.",
        "Check runtime version compatibility (Python/Node) and required system build tools.",
        "Check network/proxy settings if downloads fail; retry once, then report.",
    ]),
    "dependency_issue:upgrade": ("Upgrades that break things", ["升级", "降级", "upgrade", "downgrade", "breaking change"], [
        "Read the changelog / migration guide of the version range before upgrading.",
        "Upgrade one package at a time and run the tests after each.",
        "Pin the last good version if the upgrade cannot be finished now, and note why.",
    ]),
    "performance_issue:query": ("Slow database queries", ["慢查询", "N+1", "全表扫描", "slow query", "missing index"], [
        "Measure first: log the query and its time, run `EXPLAIN` (or `EXPLAIN ANALYZE`).",
        "Fix N+1 access with joins/eager loading or batching; add the index the plan asks for.",
        "Re-measure with the same data and report before/after numbers.",
    ]),
    "performance_issue:timeout": ("Timeouts", ["超时", "timeout", "timed out", "deadline exceeded"], [
        "Find which call times out and how long it really takes (log timings).",
        "Set explicit timeouts on network calls, with bounded retries and backoff where the call is idempotent.",
        "Move long work out of request paths (background job, streaming) instead of raising limits blindly.",
    ]),
    "performance_issue:memory": ("Memory growth", ["内存泄漏", "内存溢出", "OOM", "out of memory", "memory leak"], [
        "Measure: `tracemalloc` / heap snapshots / `ps -o rss` over time.",
        "Look for unbounded caches, lists growing per request, and files read whole instead of streamed.",
        "Fix, then re-measure under the same load.",
    ]),
    "performance_issue:slow": ("Slow code paths", ["太慢", "卡顿", "性能", "slow", "latency", "performance"], [
        "Profile before changing anything (`python -m cProfile`, `py-spy`, the browser's performance panel).",
        "Fix the hottest path first; avoid speculative optimisation.",
        "Report before/after timings measured the same way.",
    ]),
    "performance_issue:cpu": ("High CPU", ["CPU", "高负载", "high load", "busy loop"], [
        "Profile the busy process (`py-spy top`, `perf top`) to find the hot loop.",
        "Look for polling without sleep, repeated parsing, and accidental quadratic loops.",
    ]),
    "security_issue:secret-leak": ("Secrets in code or logs", ["密钥", "泄露", "硬编码", "hard-coded secret", "API key", "credential leak"], [
        "Never write a secret into code, config in git, logs or memory; read it from the environment or a secret store.",
        "If a secret was committed or logged, tell the user it must be rotated; removing it from the file is not enough.",
        "Search for other copies: `git grep -n '<prefix>'`, `git log -S '<prefix>'`.",
    ]),
    "security_issue:injection": ("Injection (SQL, command, XSS)", ["注入", "SQL injection", "XSS", "command injection", "shell=True", "eval"], [
        "Use parameterised queries; never build SQL or shell commands from user input.",
        "Escape output for its context (HTML, attribute, URL); prefer the framework's safe templating.",
        "Add a test with a malicious input that used to get through.",
    ]),
    "security_issue:auth": ("Authorisation gaps", ["越权", "鉴权", "权限绕过", "authorization", "privilege escalation"], [
        "Check every handler that reads or changes a resource verifies the caller may access that resource.",
        "Add tests that call the endpoint as another user and as an anonymous user.",
    ]),
    "security_issue:vulnerability": ("Known vulnerabilities", ["漏洞", "安全风险", "CVE", "npm audit", "pip-audit", "vulnerability"], [
        "Run the ecosystem's audit (`npm audit`, `pip-audit`) and read which paths are actually used.",
        "Upgrade to the patched version; if impossible, document the mitigation.",
    ]),
    "error:test-failure": ("Failing tests", ["测试失败", "断言失败", "tests failing", "test failed", "AssertionError"], [
        "Run only the failing test, verbosely (`pytest path::test -x -vv`, `npm test -- -t name`).",
        "Read the first failure and reproduce it; decide whether the code or the test is wrong — do not weaken a test to make it pass.",
        "Fix, then run the whole suite before saying it is done.",
    ]),
    "error:build-failure": ("Build failures", ["构建失败", "编译失败", "build failed", "compile error", "syntax error"], [
        "Run the build yourself and read the first error.",
        "Check what changed since the last good build (`git diff`, `git log -p -1`).",
        "Fix the cause, rebuild, and run the tests.",
    ]),
    "error:crash": ("Crashes", ["崩溃", "闪退", "crash", "segfault", "panic", "core dump"], [
        "Get the full stack trace or core dump and the exact input that crashes.",
        "Reproduce with the smallest input; then fix and add a regression test.",
    ]),
    "error:traceback": ("Tracebacks", ["Traceback", "stack trace", "堆栈"], [
        "Read the traceback bottom-up; find the innermost frame in this project's code.",
        "Reproduce with the same input, fix, and add a test for it.",
    ]),
    "capability_gap:manual-step": ("Manual steps", ["手动", "手工", "manually", "by hand"], [
        "Write the manual step down as a script in the project (with `--dry-run`) instead of doing it by hand again.",
        "Document how to run it in the README.",
    ]),
    "capability_gap:unsupported": ("Unsupported operations", ["不支持", "not supported", "unsupported"], [
        "Check the documentation or `--help` of the tool for a supported alternative before working around it.",
        "If there is none, say so plainly and offer the smallest safe workaround.",
    ]),
    "capability_gap:missing-tool": ("Missing tooling", ["缺少工具", "没有现成的工具", "no tool to", "missing tool"], [
        "Look for an existing tool in the project or its ecosystem first.",
        "Otherwise write a small script (in `scripts/`) with clear input/output and reuse it next time.",
    ]),
    "capability_gap:workaround": ("Recurring workarounds", ["绕过", "变通", "临时方案", "workaround", "hack"], [
        "Find the workaround used last time (search memory) and check whether the root cause can now be fixed.",
        "If the workaround stays, make it a documented script rather than an ad-hoc sequence.",
    ]),
}

TYPE_FALLBACK = {
    "error": ("{subject} errors", ["{subject}", "报错", "error"], [
        "Reproduce the `{subject}` with the exact command and input; read the innermost frame in this project's code.",
        "Search memory for earlier fixes: `memory-search.py \"{subject}\"`.",
        "Fix the cause, add a regression test, and run the suite.",
    ]),
    "environment_issue": ("Environment problem: {subject}", ["环境问题", "environment", "{subject}"], [
        "Print the relevant environment facts (versions, paths, variables) before changing anything.",
        "Search memory for the fix used last time: `memory-search.py \"{subject}\"`.",
        "Apply the fix in the project's configuration, not by hand, and re-run the failing command.",
    ]),
    "dependency_issue": ("Dependency problem: {subject}", ["依赖问题", "dependency", "{subject}"], [
        "Inspect the dependency tree and the interpreter/runtime in use.",
        "Fix it in the manifest and lock file with the project's tool; re-run the tests.",
    ]),
    "performance_issue": ("Performance problem: {subject}", ["性能", "performance", "{subject}"], [
        "Measure before and after with the same workload; fix the hottest path first.",
    ]),
    "security_issue": ("Security problem: {subject}", ["安全", "security", "{subject}"], [
        "Treat it as a security fix: smallest safe change, a test for the bad input, tell the user what was exposed.",
    ]),
    "capability_gap": ("Capability gap: {subject}", ["能力缺口", "{subject}"], [
        "Turn the repeated manual work into a script and document it.",
    ]),
}


def playbook(pattern: str) -> tuple:
    """``(title, trigger words, steps)`` for a pattern (its own, else its type's, filled in)."""
    if pattern in PLAYBOOKS:
        return PLAYBOOKS[pattern]
    sig_type, _, subject = pattern.partition(":")
    title, triggers, steps = TYPE_FALLBACK.get(sig_type, TYPE_FALLBACK["error"])
    fill = lambda s: s.replace("{subject}", subject)  # noqa: E731
    return fill(title), [fill(t) for t in triggers], [fill(s) for s in steps]
