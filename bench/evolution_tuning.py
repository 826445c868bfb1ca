"""The TUNING set of the evolution-inputs bench (bench/bench_evolution_inputs.py): synthetic
transcripts in the shapes Claude Code 2.1.330 writes (tests/support/transcripts.py), built at run
time, with annotations in the shape of bench/data/evolution_heldout/annotations.json.

Written for developing the signal rules, the Skill gate and the outcome evidence of issue 20 part 4;
numbers on it are an upper bound. The held-out set (bench/data/evolution_heldout/) is what the
report is judged on: nothing of it is copied here.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))

from support.transcripts import TranscriptWriter  # noqa: E402

CWD = "/home/dev/work"

PITFALLS = {
    "docker-tz": "- Docker 容器默认 UTC：`Dockerfile` 里显式设置 TZ",
    "yaml-safe": "- Never `yaml.load` untrusted input; use `yaml.safe_load` (`*.py`)",
    "ts-strict": "- `tsconfig.json` 保持 strict，别为了过编译关掉",
}

PYTEST_FAILS = """..F.F..F.                                                                [100%]
=================================== FAILURES ===================================
_____________________________ test_cancel_paid ______________________________

    def test_cancel_paid():
>       assert cancel(order("PAID")) == "REFUNDING"
E       AssertionError: assert 'CANCELLED' == 'REFUNDING'

tests/test_state.py:22: AssertionError
_____________________________ test_ship_twice _______________________________

    def test_ship_twice():
>       ship(ship(order("PAID")))
E       TypeError: ship() got an order already SHIPPED

orders/state.py:31: TypeError
_____________________________ test_total ____________________________________
E       AssertionError: assert 19.99 == Decimal('19.99')
=========================== short test summary info ============================
FAILED tests/test_state.py::test_cancel_paid - AssertionError: assert 'CANCELLED' == 'REFUNDING'
FAILED tests/test_state.py::test_ship_twice - TypeError: ship() got an order already SHIPPED
FAILED tests/test_total.py::test_total - AssertionError: assert 19.99 == Decimal('19.99')
3 failed, 6 passed in 0.12s"""

PORT_TAKEN = ("Error response from daemon: driver failed programming external connectivity on endpoint "
              "orders-db-1: Bind for 0.0.0.0:5432 failed: port is already allocated")

READ_TIMEOUT = """Traceback (most recent call last):
  File "/home/dev/work/feedparse/feedparse/importer.py", line 40, in fetch
    resp = session.get(url, timeout=HTTP_TIMEOUT)
requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='staging.example.com', port=443): Read timed out. (read timeout=5)"""

TSC_FAILS = """src/cart.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.
src/cart.ts(22,3): error TS2554: Expected 2 arguments, but got 1.
src/api.ts(5,10): error TS2305: Module '"./types"' has no exported member 'Cart'.

Found 3 errors in 2 files."""

NO_YAML = """Traceback (most recent call last):
  File "/home/dev/work/shopweb/scripts/gen_config.py", line 3, in <module>
    import yaml
ModuleNotFoundError: No module named 'yaml'"""


def _orders(w: TranscriptWriter, i: int) -> dict:
    p = f"{CWD}/orders"
    if i == 0:
        w.user("Redis 超时设为 2 秒")
        w.tool("Read", {"file_path": f"{p}/orders/settings.py"}, "REDIS_TIMEOUT = 5\n")
        w.tool("Edit", {"file_path": f"{p}/orders/settings.py", "old_string": "REDIS_TIMEOUT = 5",
                        "new_string": "REDIS_TIMEOUT = 2"})
        w.tool("Bash", {"command": "pytest -q"}, "9 passed in 0.10s")
        w.say("Redis 超时已设为 2 秒，测试通过。")
        return {"relevant": ["no-hardcoded-redis"]}
    if i == 1:
        w.user("订单状态机的测试挂了，修一下")
        w.tool("Bash", {"command": "pytest -q"}, PYTEST_FAILS, is_error=True)
        w.say("3 个用例失败：取消已支付订单、重复发货、金额类型。先看 orders/state.py。")
        w.tool("Read", {"file_path": f"{p}/orders/state.py"}, "def cancel(o): ...")
        w.tool("Edit", {"file_path": f"{p}/orders/state.py", "old_string": "CANCELLED", "new_string": "REFUNDING"})
        w.tool("Bash", {"command": "pytest -q"}, PYTEST_FAILS.replace("..F.F..F.", "....F..F.").replace("3 failed", "2 failed"),
               is_error=True)
        w.tool("Edit", {"file_path": f"{p}/orders/state.py", "old_string": "def ship(o):", "new_string": "def ship(o):\n    if o.shipped: raise AlreadyShipped"})
        w.tool("Edit", {"file_path": f"{p}/orders/total.py", "old_string": "float(", "new_string": "Decimal("})
        w.tool("Bash", {"command": "pytest -q"}, "9 passed in 0.11s")
        w.say("修好了：已支付订单取消后进入 REFUNDING；重复发货抛 AlreadyShipped；金额改用 Decimal。测试失败的 3 个用例现在都通过。")
        return {"signals": {"expect": ["error:*"], "allow": []}, "relevant": ["state-file"]}
    if i == 2:
        w.user("给订单接口加一个取消的 endpoint")
        w.tool("Edit", {"file_path": f"{p}/orders/views.py", "old_string": "# routes", "new_string": "# routes\n@app.post('/cancel')"})
        w.say("加在 orders/views.py 了。")
        w.user("不对，接口都在 orders/api.py，views.py 是旧的")
        w.tool("Edit", {"file_path": f"{p}/orders/views.py", "old_string": "# routes\n@app.post('/cancel')", "new_string": "# routes"})
        w.tool("Edit", {"file_path": f"{p}/orders/api.py", "old_string": "# endpoints", "new_string": "# endpoints\n@router.post('/orders/{no}/cancel')"})
        w.tool("Bash", {"command": "pytest -q"}, "10 passed")
        w.say("挪到 orders/api.py 了，views.py 恢复原样。")
        return {"signals": {"expect": ["correction:*"], "allow": []}, "relevant": []}
    if i == 3:
        w.user("重复取消的时候返回什么状态码？改成合适的")
        w.tool("Edit", {"file_path": f"{p}/orders/api.py", "old_string": "status_code=200", "new_string": "status_code=400"})
        w.say("重复取消现在返回 400。")
        w.user("搞错了，应该是 409，错误码放 orders/errors.py 里统一定义")
        w.tool("Edit", {"file_path": f"{p}/orders/errors.py", "old_string": "# codes", "new_string": "# codes\nALREADY_CANCELLED = 409"})
        w.tool("Edit", {"file_path": f"{p}/orders/api.py", "old_string": "status_code=400", "new_string": "status_code=errors.ALREADY_CANCELLED"})
        w.tool("Bash", {"command": "pytest -q"}, "10 passed")
        w.say("改成 409，定义在 orders/errors.py。")
        return {"signals": {"expect": ["correction:*"], "allow": []}, "relevant": ["error-codes"]}
    if i == 4:
        w.user("docker compose up 起不来，说 5432 端口已经被占了")
        w.tool("Bash", {"command": "docker compose up -d db"}, PORT_TAKEN, is_error=True)
        w.tool("Bash", {"command": "ss -ltnp | grep 5432"}, "LISTEN 0 244 0.0.0.0:5432 users:((\"postgres\",pid=812))")
        w.tool("Edit", {"file_path": f"{p}/docker-compose.yml", "old_string": "- \"5432:5432\"", "new_string": "- \"15432:5432\""})
        w.tool("Bash", {"command": "docker compose up -d db"}, "Container orders-db-1 Started")
        w.say("本机已经有一个 postgres 占着 5432 端口。compose 里把映射改成 15432:5432，容器起来了。")
        return {"signals": {"expect": ["environment_issue:port"], "allow": ["error:*", "environment_issue:docker"]},
                "relevant": []}
    w.user("又是端口冲突，这次是 redis 的 6379")
    w.tool("Bash", {"command": "docker compose up -d redis"}, PORT_TAKEN.replace("5432", "6379").replace("db-1", "redis-1"),
           is_error=True)
    w.tool("Edit", {"file_path": f"{p}/docker-compose.yml", "old_string": "- \"6379:6379\"", "new_string": "- \"16379:6379\""})
    w.tool("Bash", {"command": "docker compose up -d redis"}, "Container orders-redis-1 Started")
    w.say("6379 端口被本机的 redis 占用，映射改成 16379 后启动成功。")
    return {"signals": {"expect": ["environment_issue:port"], "allow": ["error:*", "environment_issue:docker",
                                                                          "recurring_issue:*"]}, "relevant": []}


def _feedparse(w: TranscriptWriter, i: int) -> dict:
    p = f"{CWD}/feedparse"
    if i == 0:
        w.user("We parse the feed by hand, no lxml. Add the author field to the entries.")
        w.tool("Read", {"file_path": f"{p}/feedparse/parse.py"}, "def entry(node): ...")
        w.tool("Edit", {"file_path": f"{p}/feedparse/parse.py", "old_string": "title=", "new_string": "author=find(node, 'author'), title="})
        w.tool("Bash", {"command": "python -m pytest -q"}, "14 passed")
        w.say("Entries carry `author` now, parsed by hand like the other fields. Tests pass.")
        return {"relevant": ["parser-file"]}
    if i == 1:
        w.user("Set the HTTP timeout to 5s.")
        w.tool("Edit", {"file_path": f"{p}/feedparse/http.py", "old_string": "HTTP_TIMEOUT = 30", "new_string": "HTTP_TIMEOUT = 5"})
        w.say("HTTP timeout is 5 seconds now.")
        return {"relevant": ["http-settings"]}
    if i == 2:
        w.user("the importer keeps timing out against staging, can you look")
        w.tool("Bash", {"command": "python -m feedparse.importer --source staging"}, READ_TIMEOUT, is_error=True)
        w.tool("Read", {"file_path": f"{p}/feedparse/importer.py"}, "def fetch(url): ...")
        w.tool("Edit", {"file_path": f"{p}/feedparse/importer.py", "old_string": "session.get(url, timeout=HTTP_TIMEOUT)",
                        "new_string": "session.get(url, timeout=(3, HTTP_TIMEOUT), stream=True)"})
        w.tool("Bash", {"command": "python -m feedparse.importer --source staging"}, "imported 412 entries")
        w.say("The staging feed is large; the read timed out at 5 s because the whole body was read at once. "
              "Streaming it fixes the timeout; 412 entries imported.")
        return {"signals": {"expect": ["performance_issue:timeout"], "allow": ["error:*", "recurring_issue:*"]},
                "relevant": []}
    if i == 3:
        w.user("Every release I have to manually regenerate the test fixtures from the live feed; there's no script for it. Write one.")
        w.tool("Write", {"file_path": f"{p}/scripts/regen_fixtures.py", "content": "import feedparse\n..."})
        w.tool("Bash", {"command": "python scripts/regen_fixtures.py --dry-run"}, "would write 6 fixtures")
        w.say("scripts/regen_fixtures.py regenerates the six fixtures; --dry-run lists them.")
        return {"signals": {"expect": ["capability_gap:*"], "allow": []}, "relevant": []}
    w.user("Had to fix the fixtures by hand again for the new podcast feed. Make the script cover it.")
    w.tool("Edit", {"file_path": f"{p}/scripts/regen_fixtures.py", "old_string": "FEEDS = [", "new_string": "FEEDS = ['podcast', "})
    w.tool("Bash", {"command": "python scripts/regen_fixtures.py --dry-run"}, "would write 7 fixtures")
    w.say("The script covers the podcast feed too: 7 fixtures.")
    return {"signals": {"expect": ["capability_gap:*"], "allow": ["recurring_issue:*"]}, "relevant": []}


def _shopweb(w: TranscriptWriter, i: int) -> dict:
    p = f"{CWD}/shopweb"
    if i == 0:
        w.user("npm run build 挂了，帮我看看")
        w.tool("Bash", {"command": "npm run build"}, TSC_FAILS, is_error=True)
        w.tool("Read", {"file_path": f"{p}/src/cart.ts"}, "export const qty: number = '1'")
        w.tool("Edit", {"file_path": f"{p}/src/cart.ts", "old_string": "'1'", "new_string": "1"})
        w.tool("Edit", {"file_path": f"{p}/src/types.ts", "old_string": "export type Item", "new_string": "export type Cart = Item[]\nexport type Item"})
        w.tool("Bash", {"command": "npm run build"}, "built in 2.1s")
        w.say("3 个 TypeScript 错误（类型不匹配、参数个数、缺少导出的 Cart 类型）都修了，build 通过。")
        return {"signals": {"expect": ["error:*"], "allow": []}, "relevant": ["no-any"]}
    if i == 1:
        w.user("Run scripts/gen_config.py to regenerate the config")
        w.tool("Bash", {"command": "python scripts/gen_config.py"}, NO_YAML, is_error=True)
        w.tool("Bash", {"command": ".venv/bin/python scripts/gen_config.py"}, "wrote config/app.json")
        w.say("The system python lacks PyYAML (No module named 'yaml'); the project's .venv has it. Regenerated with .venv/bin/python.")
        return {"signals": {"expect": ["dependency_issue:missing-module"], "allow": ["error:*", "environment_issue:python-env"]},
                "relevant": []}
    if i == 2:
        w.user("CI 里的 gen_config 步骤也失败了")
        w.tool("Bash", {"command": "cat .github/workflows/ci.yml"}, "run: python scripts/gen_config.py")
        w.tool("Edit", {"file_path": f"{p}/.github/workflows/ci.yml", "old_string": "run: python scripts/gen_config.py",
                        "new_string": "run: pip install -r requirements.txt && python scripts/gen_config.py"})
        w.say("CI 日志里同样是 ModuleNotFoundError: No module named 'yaml'：CI 没装依赖。先 pip install -r requirements.txt 再生成。")
        return {"signals": {"expect": ["dependency_issue:missing-module"], "allow": ["error:*", "recurring_issue:*"]},
                "relevant": []}
    w.user("README 里补一段本地开发怎么启动")
    w.tool("Edit", {"file_path": f"{p}/README.md", "old_string": "## Dev", "new_string": "## Dev\n\nnpm install && npm run dev"})
    w.say("README 加了本地启动说明，没有别的改动。")
    return {"relevant": []}


SCENARIOS = [
    ("tune-zh-orders", "zh", "orders", 6, _orders, {
        "state-file": "- 订单状态变更只写在 `orders/state.py`",
        "error-codes": "- 接口错误码统一在 `orders/errors.py` 定义",
        "no-hardcoded-redis": "- 不要在代码里写死 Redis 地址，读 `orders/settings.py`",
    }, ["environment_issue:port"]),
    ("tune-en-feedparse", "en", "feedparse", 5, _feedparse, {
        "parser-file": "- Parser code stays in `feedparse/parse.py`",
        "http-settings": "- HTTP settings live in `feedparse/http.py`",
    }, ["capability_gap:*"]),
    ("tune-mixed-shopweb", "mixed", "shopweb", 4, _shopweb, {
        "no-any": "- No `any` in `src/*.ts`",
    }, ["dependency_issue:missing-module"]),
]


def build(out_dir: str, limit: int | None = None) -> dict:
    """Write the tuning transcripts under ``out_dir``; return annotations shaped like the held-out
    set's annotations.json (``limit``: only the first scenarios, for --smoke)."""
    scenarios = []
    for sid, lang, project, count, script, rules, skills in SCENARIOS[:limit]:
        sessions = []
        for i in range(count):
            rel = f"{sid}/{i + 1:02d}-{project}.jsonl"
            path = os.path.join(out_dir, rel)
            with TranscriptWriter(path, session_id=f"{sid}-{i + 1}", cwd=f"{CWD}/{project}") as w:
                labels = script(w, i)
            sessions.append({"index": i + 1, "project": project, "transcript": rel,
                             "signals": labels.get("signals", {"expect": [], "allow": []}),
                             "relevant": labels["relevant"]})
        scenarios.append({"id": sid, "lang": lang, "projects": {project: {"rules": rules}}, "skills": skills,
                          "sessions": sessions})
    return {"held_out": False, "pitfalls": PITFALLS, "scenarios": scenarios}
