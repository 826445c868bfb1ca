"""The conversations of the evolution-inputs held-out set, and what the feedback loop should learn.

HELD-OUT EVALUATION SET, written before the signal, Skill and score changes of issue 20 part 4
(branch point cadb3b9). Do not tune scripts/code_memory/evolution/ to it: see README.md here.

Each scenario is one user's history in one memory root: ``projects`` (name → the files of its git
checkout, and its ``rules`` — the list items of its areas/projects/<name>/rules.md), and
``sessions`` in the order they happen. A session is a list of user turns; each turn is what the
user types and the assistant's steps (tool calls the real binary runs in the checkout, then a text
answer). ``@/`` in a tool input is the checkout's directory. bench/record_evolution_heldout.py
records them with the real Claude Code binary; bench/bench_evolution_inputs.py scores them.

Annotations per session (a human's reading of what happened, not of any extractor's output):
- ``signals``: ``expect`` — the problems the session really had, one entry per problem, each a
  pattern or ``a|b`` alternatives, ``type:*`` for any subject of a type; ``allow`` — signals that
  are acceptable but not required (an error signal for the failing command behind an environment
  problem). Anything else extracted is a false positive, and so is a second signal for one problem.
- ``relevant``: the rules (by key) and pitfalls (by key) whose files the session's work touched —
  whether the rule applied to what was changed, judged from the rule's text and the edits.
Per scenario, ``skills``: the recurring problems that deserve a Skill (patterns or alternatives);
every other proposal is a false positive.
"""

import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    "handover_heldout_scenarios", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                               "handover_heldout", "scenarios.py"))
_steps = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_steps)
read, edit, write, bash, reply, turn = _steps.read, _steps.edit, _steps.write, _steps.bash, _steps.reply, _steps.turn

# MEMORY.md pitfalls every scenario starts with (key -> the list item)
PITFALLS = {
    "bash3": "- macOS 自带 bash 3.2：`*.sh` 脚本里不要用 `declare -A`",
    "sqlite-decimal": "- sqlite3 不能直接绑定 Decimal，先 `sqlite3.register_adapter(Decimal, str)`",
    "test-ports": "- Tests must not bind fixed ports: bind port 0 and read the real port back (`tests/`)",
    "npm-ci": "- `npm ci` wipes node_modules: never run it while the dev server is up (`package.json`)",
    "index-dupes": "- 建唯一索引的迁移（`migrations/*.sql`）上线前先查重复数据，否则迁移会失败",
}


def session(project, what, turns, expect=(), allow=(), relevant=(), files_before=None):
    return {"project": project, "what": what, "turns": list(turns),
            "signals": {"expect": list(expect), "allow": list(allow)}, "relevant": list(relevant),
            **({"files_before": files_before} if files_before else {})}


SCENARIOS = []

# =============================================================================================
# 1. zh-inventory — failing tests with many lines, a timeout setting, two corrections
# =============================================================================================

STOCK = '''"""库存：可用量、出库。"""


class OutOfStock(Exception):
    pass


def available(levels: dict, sku: str) -> int:
    return levels["on_hand"][sku] - levels["reserved"].get(sku, 0)


def take(levels: dict, sku: str, qty: int) -> None:
    if qty > available(levels, sku):
        raise OutOfStock(sku)
    levels["on_hand"][sku] -= qty
'''

INVENTORY_FILES = {
    "README.md": "# inventory\n\n库存服务。\n\n    python3 -m pytest -q\n",
    "conftest.py": "",
    "inventory/__init__.py": "",
    "inventory/stock.py": STOCK,
    "inventory/cache.py": '''"""Redis 缓存客户端的参数。"""

READ_TIMEOUT_MS = 5000
CONNECT_TIMEOUT_MS = 1000
RETRIES = 1


def client_options() -> dict:
    return {"socket_timeout": READ_TIMEOUT_MS / 1000, "socket_connect_timeout": CONNECT_TIMEOUT_MS / 1000,
            "retries": RETRIES}
''',
    "inventory/pricing.py": '''"""售价计算。"""
from decimal import Decimal


def unit_price(cost: Decimal, margin: Decimal) -> Decimal:
    return cost * (1 + margin)
''',
    "inventory/export.py": '''"""订单导出。"""
import logging

log = logging.getLogger(__name__)


def export_order(order: dict) -> dict:
    row = {"order_no": order["order_no"], "sku": order["sku"], "qty": order["qty"]}
    log.info("exported order %s", order["order_no"])
    return row
''',
    "migrations/0003_items.sql": "-- up\nCREATE TABLE items (id INTEGER PRIMARY KEY, sku TEXT NOT NULL, name TEXT);\n"
                                 "-- down\nDROP TABLE items;\n",
    "scripts/check_migrations.py": '''"""每个迁移都要有 -- up 和 -- down 两段。"""
import pathlib
import sys

bad = [p.name for p in sorted(pathlib.Path("migrations").glob("*.sql"))
       if "-- up" not in p.read_text(encoding="utf-8") or "-- down" not in p.read_text(encoding="utf-8")]
print(f"{len(bad)} migration(s) without up/down: {bad}" if bad else "all migrations have up and down")
sys.exit(1 if bad else 0)
''',
    "tests/test_stock.py": '''import pytest

from inventory.stock import OutOfStock, available, take


def levels():
    return {"on_hand": {"A": 5, "B": 2}, "reserved": {"A": 1}}


def test_available_subtracts_reserved():
    assert available(levels(), "A") == 4


def test_unknown_sku_has_nothing():
    assert available(levels(), "X") == 0


def test_take_reduces_on_hand():
    lv = levels()
    take(lv, "B", 2)
    assert lv["on_hand"]["B"] == 0


def test_take_more_than_available():
    with pytest.raises(OutOfStock):
        take(levels(), "A", 5)


def test_take_rejects_non_positive():
    with pytest.raises(ValueError):
        take(levels(), "A", 0)
''',
    "tests/test_cache.py": '''from inventory.cache import client_options


def test_options_are_seconds():
    opts = client_options()
    assert 0 < opts["socket_timeout"] <= 10 and opts["retries"] >= 1
''',
}

SCENARIOS.append({
    "id": "zh-inventory", "lang": "zh",
    "about": "一次 pytest 失败输出很多行（两个用例失败）；缓存超时只是配置值；两次用户纠正（float→Decimal、手机号进日志）；"
             "迁移规则和 Decimal 规则各有一次真正相关的会话。",
    "projects": {"inventory": {"files": INVENTORY_FILES, "rules": {
        "decimal": "- 金额一律用 `Decimal`，四舍五入用 ROUND_HALF_UP（`inventory/pricing.py`）",
        "migrations": "- 数据库迁移放 `migrations/`，每个迁移都要写 `-- down`",
        "no-phone-logs": "- 日志里不要打印客户手机号",
    }}},
    "skills": [],
    "sessions": [
        session("inventory", "跑测试：两个用例失败（KeyError、DID NOT RAISE），修 stock.py", [
            turn("跑一下测试，昨天合进来的改动之后库存这块好像有几个用例过不了",
                 bash("python3 -m pytest -q", fails=True, description="跑测试"),
                 read("inventory/stock.py", say="两个用例失败，我看下 stock.py。"),
                 edit("inventory/stock.py", '''    return levels["on_hand"][sku] - levels["reserved"].get(sku, 0)
''', '''    return levels["on_hand"].get(sku, 0) - levels["reserved"].get(sku, 0)
'''),
                 edit("inventory/stock.py", '''def take(levels: dict, sku: str, qty: int) -> None:
    if qty > available(levels, sku):
''', '''def take(levels: dict, sku: str, qty: int) -> None:
    if qty <= 0:
        raise ValueError(f"qty must be positive, got {qty}")
    if qty > available(levels, sku):
'''),
                 bash("python3 -m pytest -q", description="再跑一次"),
                 reply("两个失败的用例都修好了：\n"
                       "- test_unknown_sku_has_nothing：available() 对没入过库的 SKU 直接 KeyError，现在按 0 处理；\n"
                       "- test_take_rejects_non_positive：take() 没校验数量，0 或负数也能出库，现在抛 ValueError。\n\n"
                       "`python3 -m pytest -q` 6 个用例全部通过。")),
        ], expect=["error:*"], relevant=[]),
        session("inventory", "缓存客户端：读超时 1500 毫秒、连接超时 300 毫秒、重试 3 次（纯配置）", [
            turn("缓存读超时改成 1500 毫秒，连接超时 300 毫秒，重试次数改成 3，改完跑下测试",
                 read("inventory/cache.py"),
                 edit("inventory/cache.py", "READ_TIMEOUT_MS = 5000\nCONNECT_TIMEOUT_MS = 1000\nRETRIES = 1\n",
                      "READ_TIMEOUT_MS = 1500\nCONNECT_TIMEOUT_MS = 300\nRETRIES = 3\n"),
                 bash("python3 -m pytest -q", description="跑测试"),
                 reply("改好了：Redis 读超时 1500 毫秒、连接超时 300 毫秒，重试 3 次，都在 inventory/cache.py。"
                       "测试全部通过。")),
        ], relevant=[]),
        session("inventory", "加折扣价函数；用户纠正：金额要用 Decimal", [
            turn("给 inventory/pricing.py 加一个按折扣算售价的函数 discounted(price, rate)",
                 read("inventory/pricing.py"),
                 edit("inventory/pricing.py", '''def unit_price(cost: Decimal, margin: Decimal) -> Decimal:
    return cost * (1 + margin)
''', '''def unit_price(cost: Decimal, margin: Decimal) -> Decimal:
    return cost * (1 + margin)


def discounted(price: float, rate: float) -> float:
    return round(price * (1 - rate), 2)
'''),
                 bash("python3 -c \"from inventory.pricing import discounted; print(discounted(19.99, 0.15))\"",
                      description="试一下"),
                 reply("加好了：discounted(price, rate) 返回打折后的价格，保留两位小数，19.99 打 85 折是 16.99。")),
            turn("不对，金额要用 Decimal，不能用 float，四舍五入用 ROUND_HALF_UP",
                 edit("inventory/pricing.py", '''def discounted(price: float, rate: float) -> float:
    return round(price * (1 - rate), 2)
''', '''def discounted(price: Decimal, rate: Decimal) -> Decimal:
    return (price * (1 - rate)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
'''),
                 edit("inventory/pricing.py", "from decimal import Decimal\n",
                      "from decimal import ROUND_HALF_UP, Decimal\n"),
                 write("tests/test_pricing.py", '''from decimal import Decimal

from inventory.pricing import discounted


def test_discount_rounds_half_up():
    assert discounted(Decimal("19.99"), Decimal("0.15")) == Decimal("16.99")
    assert discounted(Decimal("0.05"), Decimal("0.5")) == Decimal("0.03")
'''),
                 bash("python3 -m pytest -q", description="跑测试"),
                 reply("改成 Decimal 了：参数和返回值都是 Decimal，用 quantize(Decimal(\"0.01\"), ROUND_HALF_UP) 取两位；"
                       "加了 tests/test_pricing.py，0.025 这种半分也按四舍五入进位。测试全部通过。")),
        ], expect=["correction:*"], relevant=["decimal"]),
        session("inventory", "写迁移：items.sku 唯一索引，带 down", [
            turn("给 items 表的 sku 加唯一索引，写个迁移",
                 read("migrations/0003_items.sql"),
                 write("migrations/0004_items_sku_unique.sql",
                       "-- up\nCREATE UNIQUE INDEX ux_items_sku ON items (sku);\n"
                       "-- down\nDROP INDEX ux_items_sku;\n"),
                 bash("python3 scripts/check_migrations.py", description="检查迁移格式"),
                 bash("python3 -m pytest -q", description="跑测试"),
                 reply("迁移写好了：migrations/0004_items_sku_unique.sql，up 建唯一索引 ux_items_sku，down 删掉它。"
                       "check_migrations 通过，测试也都过了。上线前如果表里已有重复 sku，建索引会失败，需要先清理。")),
        ], relevant=["migrations", "index-dupes"]),
        session("inventory", "导出日志加客户信息；用户纠正：手机号不能进日志", [
            turn("订单导出的日志里把客户信息也打出来，方便排查",
                 read("inventory/export.py"),
                 edit("inventory/export.py", '''    log.info("exported order %s", order["order_no"])
''', '''    log.info("exported order %s customer=%s phone=%s", order["order_no"], order.get("customer_name"),
             order.get("customer_phone"))
'''),
                 reply("加上了：导出日志现在带客户姓名和手机号。")),
            turn("搞错了，手机号不能进日志，只打订单号和客户 ID",
                 edit("inventory/export.py", '''    log.info("exported order %s customer=%s phone=%s", order["order_no"], order.get("customer_name"),
             order.get("customer_phone"))
''', '''    log.info("exported order %s customer_id=%s", order["order_no"], order.get("customer_id"))
'''),
                 bash("python3 -m pytest -q", description="跑测试"),
                 reply("改了：日志只打订单号和 customer_id，姓名和手机号都去掉了。测试通过。")),
        ], expect=["correction:*"], relevant=["no-phone-logs"]),
    ],
})

# =============================================================================================
# 2. en-hookrelay — a port clash twice, a CSV built by hand, a timeout setting, a real timeout
# =============================================================================================

HOOKRELAY_CONFIG = '''"""Ports and limits of the relay."""

API_PORT = 18765
METRICS_PORT = 18765
OUTBOUND_TIMEOUT_SECONDS = 30
OUTBOUND_RETRIES = 3
FORWARD_BUDGET_SECONDS = 0.25
'''

HOOKRELAY_SERVE = '''"""Start the listeners (``--check`` binds them and exits)."""
import socket
import sys

from hookrelay import config


def bind(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", port))
    sock.listen()
    return sock


def main(argv) -> int:
    ports = [config.API_PORT, config.METRICS_PORT]
    sockets = [bind(port) for port in ports]
    print("listening on", [s.getsockname()[1] for s in sockets])
    for sock in sockets:
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''

HOOKRELAY_FORWARD = '''"""Forward one webhook to its target within the time budget."""
import time

from hookrelay import config


def forward(send, payload):
    started = time.monotonic()
    result = send(payload)
    elapsed = time.monotonic() - started
    if elapsed > config.OUTBOUND_TIMEOUT_SECONDS:
        raise TimeoutError(f"upstream did not answer within {config.OUTBOUND_TIMEOUT_SECONDS}s")
    return result
'''

HOOKRELAY_FILES = {
    "README.md": "# hookrelay\n\nRelays webhooks to internal services.\n\n    python3 -m hookrelay.serve --check\n",
    "conftest.py": "",
    "hookrelay/__init__.py": "",
    "hookrelay/config.py": HOOKRELAY_CONFIG,
    "hookrelay/serve.py": HOOKRELAY_SERVE,
    "hookrelay/export.py": '''"""CSV export of delivered webhooks (rows built here, no pandas)."""
import csv
import io

HEADER = ["id", "target", "status"]


def to_csv(deliveries) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(HEADER)
    for d in deliveries:
        writer.writerow([d["id"], d["target"], d["status"]])
    return out.getvalue()
''',
    "hookrelay/forward.py": HOOKRELAY_FORWARD,
    "tests/test_export.py": '''from hookrelay.export import to_csv


def test_header_first():
    assert to_csv([{"id": 1, "target": "a", "status": 200}]).splitlines()[0].startswith("id,target,status")
''',
    "tests/test_forward.py": '''import time

from hookrelay.forward import forward


def test_slow_upstream_within_the_outbound_timeout_is_fine():
    def send(payload):
        time.sleep(0.4)
        return "ok"
    assert forward(send, {"id": 1}) == "ok"
''',
}

SCENARIOS.append({
    "id": "en-hookrelay", "lang": "en",
    "about": "Address already in use twice (metrics, then admin listener on the API port); a CSV the code "
             "builds itself and a changelog updated manually (no gap); a timeout setting (no problem); a real "
             "TimeoutError in the tests.",
    "projects": {"hookrelay": {"files": HOOKRELAY_FILES, "rules": {
        "ports-in-config": "- Ports live in `hookrelay/config.py`; never hard-code a port anywhere else",
        "csv-header": "- CSV exports keep their header stable: new columns go at the end (`hookrelay/export.py`)",
        "pytest-first": "- Run `python3 -m pytest -q` before saying a change is done",
    }}},
    "skills": ["environment_issue:port"],
    "sessions": [
        session("hookrelay", "Startup dies with Address already in use: metrics default = API port", [
            turn("`python3 -m hookrelay.serve --check` dies right away with address already in use, can you look?",
                 bash("python3 -m hookrelay.serve --check", fails=True, description="Reproduce"),
                 read("hookrelay/config.py"),
                 edit("hookrelay/config.py", "METRICS_PORT = 18765\n", "METRICS_PORT = 18766\n"),
                 bash("python3 -m hookrelay.serve --check && python3 -m pytest -q", description="Check again"),
                 reply("The metrics listener defaulted to the API port (18765), so the second bind failed with "
                       "`OSError: [Errno 98] Address already in use`. METRICS_PORT is 18766 now; both listeners "
                       "start and the tests pass.")),
        ], expect=["environment_issue:port"], allow=["error:*"], relevant=["ports-in-config", "pytest-first"]),
        session("hookrelay", "The new admin listener clashes with the API port again", [
            turn("I added an admin listener but startup fails again with address already in use. Same thing as last time?",
                 bash("python3 -m hookrelay.serve --check", fails=True, description="Reproduce"),
                 read("hookrelay/config.py"),
                 edit("hookrelay/config.py", "ADMIN_PORT = 18765\n", "ADMIN_PORT = 18767\n"),
                 edit("hookrelay/config.py", "FORWARD_BUDGET_SECONDS = 0.25\n",
                      "FORWARD_BUDGET_SECONDS = 0.25\n\n"
                      "assert len({API_PORT, METRICS_PORT, ADMIN_PORT}) == 3, \"every listener needs its own port\"\n"),
                 bash("python3 -m hookrelay.serve --check && python3 -m pytest -q", description="Check again"),
                 reply("Yes, the same kind of clash: ADMIN_PORT was set to 18765, the API port. It is 18767 now, and "
                       "config.py asserts at import that all listener ports differ, so the next clash fails with a "
                       "clear message instead of Errno 98. Startup works and the tests pass.")),
        ], expect=["environment_issue:port"], allow=["error:*", "recurring_issue:*"],
            relevant=["ports-in-config", "pytest-first"],
            files_before={"hookrelay/config.py": HOOKRELAY_CONFIG.replace(
                "METRICS_PORT = 18765\n", "METRICS_PORT = 18766\nADMIN_PORT = 18765\n"),
                "hookrelay/serve.py": HOOKRELAY_SERVE.replace(
                    "ports = [config.API_PORT, config.METRICS_PORT]",
                    "ports = [config.API_PORT, config.METRICS_PORT, config.ADMIN_PORT]")}),
        session("hookrelay", "Add a retries column to the CSV export (rows built by the code; changelog by hand)", [
            turn("We build the CSV rows ourselves here, no pandas. Add a retries column to the export; "
                 "I'll update the changelog manually later.",
                 read("hookrelay/export.py"),
                 edit("hookrelay/export.py", 'HEADER = ["id", "target", "status"]\n',
                      'HEADER = ["id", "target", "status", "retries"]\n'),
                 edit("hookrelay/export.py", '        writer.writerow([d["id"], d["target"], d["status"]])\n',
                      '        writer.writerow([d["id"], d["target"], d["status"], d.get("retries", 0)])\n'),
                 bash("python3 -m pytest -q", description="Run the tests"),
                 reply("Added `retries` as the last column (header and rows, 0 when a delivery has none), so "
                       "existing readers of the first three columns are unaffected. Tests pass.")),
        ], relevant=["csv-header", "pytest-first"]),
        session("hookrelay", "Outbound timeout to 10 seconds (a setting)", [
            turn("Bump the outbound timeout to 10 seconds and keep 3 retries.",
                 read("hookrelay/config.py"),
                 edit("hookrelay/config.py", "OUTBOUND_TIMEOUT_SECONDS = 30\n", "OUTBOUND_TIMEOUT_SECONDS = 10\n"),
                 bash("python3 -m hookrelay.serve --check", description="Check startup"),
                 reply("Outbound timeout is 10 seconds now, retries stay at 3 (hookrelay/config.py).")),
        ], relevant=["ports-in-config", "pytest-first"]),
        session("hookrelay", "A forward test fails with TimeoutError: the budget ignores the outbound timeout", [
            turn("test_forward is failing with a TimeoutError since this morning, please check",
                 bash("python3 -m pytest -q tests/test_forward.py", fails=True, description="Run the failing test"),
                 read("hookrelay/forward.py"),
                 edit("hookrelay/forward.py", "    if elapsed > config.FORWARD_BUDGET_SECONDS:\n"
                                              "        raise TimeoutError(f\"upstream did not answer within {config.FORWARD_BUDGET_SECONDS}s\")\n",
                      "    if elapsed > config.OUTBOUND_TIMEOUT_SECONDS:\n"
                      "        raise TimeoutError(f\"upstream did not answer within {config.OUTBOUND_TIMEOUT_SECONDS}s\")\n"),
                 bash("python3 -m pytest -q", description="Run all tests"),
                 reply("forward() still measured against the old 0.25 s FORWARD_BUDGET_SECONDS instead of the "
                       "outbound timeout, so a 0.4 s upstream raised TimeoutError. It uses OUTBOUND_TIMEOUT_SECONDS "
                       "(10 s) now; all tests pass.")),
        ], expect=["performance_issue:timeout"], allow=["error:*"], relevant=["pytest-first"],
            files_before={"hookrelay/forward.py": HOOKRELAY_FORWARD.replace(
                "config.OUTBOUND_TIMEOUT_SECONDS", "config.FORWARD_BUDGET_SECONDS")}),
    ],
})

# =============================================================================================
# 3. zh-release — versions bumped by hand in three files (a real gap, twice); a missing module twice
# =============================================================================================

RENDER_MAIL = '''"""生成促销邮件预览：模板渲染后把 CSS 内联。"""
import pathlib
import sys

import premailer


def render(template: str, **values) -> str:
    html = template.format(**values)
    return premailer.transform(html)


if __name__ == "__main__":
    tpl = pathlib.Path("mail/promo.html").read_text(encoding="utf-8")
    out = pathlib.Path("out")
    out.mkdir(exist_ok=True)
    (out / "promo.html").write_text(render(tpl, title="双十一"), encoding="utf-8")
    print("wrote out/promo.html")
    sys.exit(0)
'''

SHOPFRONT_FILES = {
    "README.md": "# shopfront\n\n商城前台。发版：改版本号、写 CHANGELOG、打 tag。\n",
    "conftest.py": "",
    "package.json": '{\n  "name": "shopfront",\n  "version": "1.4.0"\n}\n',
    "shopfront/__init__.py": '__version__ = "1.4.0"\n',
    "CHANGELOG.md": "# Changelog\n\n## 1.4.0 - 2026-09-20\n\n- 购物车合并\n",
    "mail/promo.html": "<style>h1 {{ color: red; }}</style><h1>{title}</h1>\n",
    "scripts/render_mail.py": RENDER_MAIL,
    "scripts/preview_all.py": r'''"""把 mail/ 下每个模板都渲染一遍，检查没有漏掉的占位符。"""
import pathlib
import re

from premailer import transform

for tpl in sorted(pathlib.Path("mail").glob("*.html")):
    html = transform(tpl.read_text(encoding="utf-8").format(title="预览"))
    print(tpl.name, "placeholder left" if re.search(r"\{\w+\}", html) else "ok")
''',
    "tests/test_version.py": '''import json
import pathlib

import shopfront


def test_versions_agree():
    pkg = json.loads(pathlib.Path("package.json").read_text(encoding="utf-8"))
    assert pkg["version"] == shopfront.__version__
''',
}

BUMP = '''"""把版本号同步到 package.json、shopfront/__init__.py 和 CHANGELOG.md。"""
import argparse
import json
import pathlib
import re


def bump(version: str, dry_run: bool = False) -> list:
    changed = []
    pkg_path = pathlib.Path("package.json")
    pkg = json.loads(pkg_path.read_text(encoding="utf-8"))
    pkg["version"] = version
    init = pathlib.Path("shopfront/__init__.py")
    log = pathlib.Path("CHANGELOG.md")
    text = log.read_text(encoding="utf-8")
    if f"## {version}" not in text:
        text = text.replace("# Changelog\\n", f"# Changelog\\n\\n## {version}\\n", 1)
    plan = {pkg_path: json.dumps(pkg, indent=2, ensure_ascii=False) + "\\n",
            init: re.sub(r'__version__ = ".*"', f'__version__ = "{version}"', init.read_text(encoding="utf-8")),
            log: text}
    for path, content in plan.items():
        changed.append(str(path))
        if not dry_run:
            path.write_text(content, encoding="utf-8")
    return changed


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("version")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    print(("would change: " if args.dry_run else "changed: ") + ", ".join(bump(args.version, args.dry_run)))
'''

SCENARIOS.append({
    "id": "zh-release", "lang": "zh",
    "about": "发版要手动改三处版本号（真实的能力缺口，两次会话都提到）；两次 ModuleNotFoundError（premailer 没装）。",
    "projects": {"shopfront": {"files": SHOPFRONT_FILES, "rules": {
        "version-source": "- 版本号只在 `shopfront/__init__.py` 手改，其他文件由 `scripts/bump_version.py` 同步",
        "mail-preview": "- 邮件模板（`mail/*.html`）改动要附预览截图",
    }}},
    "skills": ["capability_gap:*", "dependency_issue:missing-module"],
    "sessions": [
        session("shopfront", "发版要手动改三处版本号：写 bump 脚本", [
            turn("每次发版都得手动改 package.json、shopfront/__init__.py 和 CHANGELOG 三个地方的版本号，老是漏一个，"
                 "写个脚本一次改完",
                 read("package.json"), read("shopfront/__init__.py"), read("CHANGELOG.md"),
                 write("scripts/bump_version.py", BUMP),
                 bash("python3 scripts/bump_version.py 1.4.1 --dry-run", description="先试运行"),
                 bash("python3 -m pytest -q", description="跑测试"),
                 reply("写好了 scripts/bump_version.py：`python3 scripts/bump_version.py 1.4.1` 一次改 package.json、"
                       "shopfront/__init__.py，并在 CHANGELOG.md 顶上加 `## 1.4.1` 小节；`--dry-run` 只列出会改的文件。"
                       "测试（版本号一致性）通过。")),
        ], expect=["capability_gap:*"], relevant=["version-source"]),
        session("shopfront", "bump 脚本没写 CHANGELOG 日期，发版时又得手动补", [
            turn("昨天发版又得手动补 CHANGELOG 里的日期，bump 脚本没管这个，顺手加上",
                 read("scripts/bump_version.py"),
                 edit("scripts/bump_version.py", '''import argparse
import json
''', '''import argparse
import datetime
import json
'''),
                 edit("scripts/bump_version.py", '''        text = text.replace("# Changelog\\n", f"# Changelog\\n\\n## {version}\\n", 1)
''', '''        today = datetime.date.today().isoformat()
        text = text.replace("# Changelog\\n", f"# Changelog\\n\\n## {version} - {today}\\n", 1)
'''),
                 bash("python3 scripts/bump_version.py 1.4.2 --dry-run && python3 -m pytest -q", description="试运行并跑测试"),
                 reply("加上了：新小节的标题现在是 `## 1.4.2 - <今天的日期>`，和之前手写的格式一致。测试通过。")),
        ], expect=["capability_gap:*"], allow=["recurring_issue:*"], relevant=["version-source"]),
        session("shopfront", "生成邮件预览：No module named 'premailer'，改成缺包时降级", [
            turn("跑一下 scripts/render_mail.py 生成促销邮件预览",
                 bash("python3 scripts/render_mail.py", fails=True, description="生成预览"),
                 edit("scripts/render_mail.py", '''import premailer


def render(template: str, **values) -> str:
    html = template.format(**values)
    return premailer.transform(html)
''', '''try:
    import premailer
except ModuleNotFoundError:   # not installed in this environment: preview without inlined CSS
    premailer = None


def render(template: str, **values) -> str:
    html = template.format(**values)
    return premailer.transform(html) if premailer else html
'''),
                 bash("python3 scripts/render_mail.py", description="再跑一次"),
                 reply("报 ModuleNotFoundError: No module named 'premailer'：这个环境没装 premailer。"
                       "我让脚本在缺包时降级为不内联 CSS 的预览，out/promo.html 已经生成；"
                       "要和线上一样的效果，需要在虚拟环境里 `pip install premailer`。")),
        ], expect=["dependency_issue:missing-module"], allow=["error:*"], relevant=[]),
        session("shopfront", "preview_all 也缺 premailer", [
            turn("检查模板占位符的那个脚本也跑不起来",
                 bash("python3 scripts/preview_all.py", fails=True, description="跑检查脚本"),
                 edit("scripts/preview_all.py", '''import re

from premailer import transform
''', '''import re

try:
    from premailer import transform
except ModuleNotFoundError:   # same fallback as render_mail.py: check placeholders without inlining
    def transform(html):
        return html
'''),
                 bash("python3 scripts/preview_all.py", description="再跑一次"),
                 reply("同一个原因：preview_all.py 也 import premailer，环境里没有这个包，报 No module named 'premailer'。"
                       "加了同样的降级，现在 promo.html ok。建议把 premailer 写进 requirements-dev.txt，"
                       "新环境装依赖时就不会漏。")),
        ], expect=["dependency_issue:missing-module"], allow=["error:*", "recurring_issue:*"], relevant=[]),
    ],
})

# =============================================================================================
# 4. en-ledger — four failing tests in one run, a syntax error, a clean rename, a question
# =============================================================================================

LEDGER_MONEY = '''"""Money is integer cents."""


def to_cents(amount: str) -> int:
    units, _, frac = amount.partition(".")
    return int(units) * 100 + int(frac or 0)


def format_cents(cents: int) -> str:
    return f"{cents // 100}.{cents % 100}"


def split(cents: int, parts: int) -> list:
    share = cents // parts
    return [share] * parts
'''

LEDGER_FILES = {
    "README.md": "# ledger\n\nA small bookkeeping library.\n\n    python3 -m pytest -q\n",
    "conftest.py": "",
    "ledger/__init__.py": "",
    "ledger/money.py": LEDGER_MONEY,
    "ledger/report.py": '''"""Text reports."""
from ledger.money import format_cents, to_cents


def total(entries) -> int:
    return sum(to_cents(e["amount"]) for e in entries)


def summary(entries) -> str:
    return f"{len(entries)} entries, total {format_cents(total(entries))}"
''',
    "tests/test_money.py": '''from ledger.money import format_cents, split, to_cents


def test_to_cents_whole():
    assert to_cents("12") == 1200


def test_to_cents_two_digits():
    assert to_cents("12.34") == 1234


def test_to_cents_one_digit():
    assert to_cents("12.5") == 1250


def test_format_pads():
    assert format_cents(1205) == "12.05"


def test_split_keeps_every_cent():
    assert sum(split(1000, 3)) == 1000


def test_split_even():
    assert split(900, 3) == [300, 300, 300]
''',
    "tests/test_report.py": '''from ledger.report import summary, total


def test_total():
    assert total([{"amount": "1.50"}, {"amount": "2"}]) == 350


def test_summary():
    assert summary([{"amount": "1.05"}]) == "1 entries, total 1.05"
''',
}

SCENARIOS.append({
    "id": "en-ledger", "lang": "en",
    "about": "One pytest run with four failures and long tracebacks; a syntax error caught by compileall; "
             "a clean rename; a read-only question.",
    "projects": {"ledger": {"files": LEDGER_FILES, "rules": {
        "integer-cents": "- Money is integer cents; convert only at the edges (`ledger/money.py`)",
        "format-cents": "- Reports never show raw cents: format with `format_cents` (`ledger/report.py`)",
        "pytest-first": "- Run `python3 -m pytest -q` before saying a change is done",
    }}},
    "skills": [],
    "sessions": [
        session("ledger", "Four failing money tests after the cents refactor", [
            turn("CI is red on the ledger tests after the cents refactor. Please get them green.",
                 bash("python3 -m pytest -q", fails=True, description="Run the tests"),
                 read("ledger/money.py"),
                 write("ledger/money.py", '''"""Money is integer cents."""


def to_cents(amount: str) -> int:
    units, _, frac = amount.partition(".")
    return int(units) * 100 + int((frac + "00")[:2])


def format_cents(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def split(cents: int, parts: int) -> list:
    share, rest = divmod(cents, parts)
    return [share + 1] * rest + [share] * (parts - rest)
'''),
                 bash("python3 -m pytest -q", description="Run the tests again"),
                 reply("Four tests failed for three bugs in ledger/money.py: to_cents read \"12.5\" as 12 units and "
                       "5 cents (fraction not padded), format_cents dropped the leading zero (\"12.5\" for 1205), and "
                       "split lost the remainder cent. All three are fixed; 8 tests pass.")),
        ], expect=["error:*"], relevant=["integer-cents", "pytest-first"]),
        session("ledger", "Monthly totals: a syntax error caught before the tests", [
            turn("Add a monthly total to ledger/report.py: entries have a `date` like 2026-09-14.",
                 read("ledger/report.py"),
                 edit("ledger/report.py", '''def summary(entries) -> str:''', '''def monthly(entries) -> dict:
    months = {}
    for e in entries:
        month = e["date"][:7]
        months[month] = months.get(month, 0) + to_cents(e["amount"]
    return {m: format_cents(c) for m, c in sorted(months.items())}


def summary(entries) -> str:'''),
                 bash("python3 -m compileall -q ledger", fails=True, description="Byte-compile"),
                 edit("ledger/report.py", '''        months[month] = months.get(month, 0) + to_cents(e["amount"]
''', '''        months[month] = months.get(month, 0) + to_cents(e["amount"])
'''),
                 bash("python3 -m compileall -q ledger && python3 -m pytest -q", description="Compile and test"),
                 reply("Added monthly(entries) → {\"2026-09\": \"12.05\", …}, formatted with format_cents. "
                       "My first edit had an unclosed parenthesis, which compileall caught; fixed, and the tests pass.")),
        ], expect=["error:*"], relevant=["format-cents", "pytest-first"]),
        session("ledger", "Rename to_cents to as_cents (clean)", [
            turn("Rename `to_cents` to `as_cents` everywhere.",
                 bash("grep -rn to_cents --include=*.py .", description="Find uses"),
                 edit("ledger/money.py", "def to_cents(amount: str) -> int:", "def as_cents(amount: str) -> int:"),
                 edit("ledger/report.py", "from ledger.money import format_cents, to_cents",
                      "from ledger.money import as_cents, format_cents"),
                 edit("ledger/report.py", '    return sum(to_cents(e["amount"]) for e in entries)',
                      '    return sum(as_cents(e["amount"]) for e in entries)'),
                 edit("ledger/report.py", '        months[month] = months.get(month, 0) + to_cents(e["amount"])',
                      '        months[month] = months.get(month, 0) + as_cents(e["amount"])'),
                 edit("tests/test_money.py", "from ledger.money import format_cents, split, to_cents",
                      "from ledger.money import as_cents, format_cents, split"),
                 edit("tests/test_money.py", '''def test_to_cents_whole():
    assert to_cents("12") == 1200


def test_to_cents_two_digits():
    assert to_cents("12.34") == 1234


def test_to_cents_one_digit():
    assert to_cents("12.5") == 1250''', '''def test_as_cents_whole():
    assert as_cents("12") == 1200


def test_as_cents_two_digits():
    assert as_cents("12.34") == 1234


def test_as_cents_one_digit():
    assert as_cents("12.5") == 1250'''),
                 bash("grep -rn to_cents --include=*.py . ; python3 -m pytest -q", description="Check and test"),
                 reply("Renamed to_cents → as_cents in ledger/money.py, ledger/report.py and the tests; no use of "
                       "the old name is left. All 8 tests pass, no errors.")),
        ], relevant=["integer-cents", "format-cents", "pytest-first"]),
        session("ledger", "Question: why integer cents", [
            turn("Why do we keep money as integer cents here instead of Decimal?",
                 read("ledger/money.py"),
                 reply("Integers add exactly and are cheap, and every amount in this ledger has at most two decimal "
                       "places, so cents lose nothing. Decimal would also be exact but is slower and easy to mix "
                       "with floats by accident. Conversion happens only at the edges: as_cents when reading, "
                       "format_cents when printing.")),
        ], relevant=[]),
    ],
})

# =============================================================================================
# 5. mixed-reports — worker/timeout settings; two slow reports (N+1), a cache TTL setting
# =============================================================================================

REPORTS_DB = '''"""An in-memory demo database that counts its queries."""
import sqlite3


class DB:
    def __init__(self, customers: int = 200):
        self.conn = sqlite3.connect(":memory:")
        self.queries = 0
        self.conn.executescript(
            "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, supplier_id INTEGER);"
            "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, total INTEGER);"
            "CREATE TABLE suppliers (id INTEGER PRIMARY KEY, name TEXT);")
        for s in range(10):
            self.conn.execute("INSERT INTO suppliers VALUES (?, ?)", (s, f"s{s}"))
        for c in range(customers):
            self.conn.execute("INSERT INTO customers VALUES (?, ?, ?)", (c, f"c{c}", c % 10))
            self.conn.execute("INSERT INTO orders (customer_id, total) VALUES (?, ?)", (c, 100 + c))

    def query(self, sql: str, params=()) -> list:
        self.queries += 1
        return self.conn.execute(sql, params).fetchall()
'''

REPORTS_FILES = {
    "README.md": "# reportsvc\n\n报表服务 / report service.\n\n    python3 -m pytest -q\n    python3 scripts/time_report.py customers\n",
    "conftest.py": "",
    "gunicorn.conf.py": "bind = \"0.0.0.0:8000\"\nworkers = 2\ntimeout = 120\n",
    "reportsvc/__init__.py": "",
    "reportsvc/db.py": REPORTS_DB,
    "reportsvc/cache.py": '''"""Report result cache."""
import time

TTL_SECONDS = 60
_store = {}


def cached(key, compute):
    hit = _store.get(key)
    if hit and time.time() - hit[0] < TTL_SECONDS:
        return hit[1]
    value = compute()
    _store[key] = (time.time(), value)
    return value
''',
    "reportsvc/reports.py": '''"""Reports."""


def customer_totals(db) -> list:
    rows = []
    for cid, name in db.query("SELECT id, name FROM customers ORDER BY id"):
        total = db.query("SELECT SUM(total) FROM orders WHERE customer_id = ?", (cid,))[0][0]
        rows.append((name, total))
    return rows


def supplier_customers(db) -> list:
    rows = []
    for sid, name in db.query("SELECT id, name FROM suppliers ORDER BY id"):
        count = db.query("SELECT COUNT(*) FROM customers WHERE supplier_id = ?", (sid,))[0][0]
        rows.append((name, count))
    return rows
''',
    "scripts/time_report.py": '''"""Time one report and count its queries."""
import sys
import time

sys.path.insert(0, ".")
from reportsvc import reports  # noqa: E402
from reportsvc.db import DB  # noqa: E402

db = DB(customers=2000)
started = time.perf_counter()
rows = getattr(reports, {"customers": "customer_totals", "suppliers": "supplier_customers"}[sys.argv[1]])(db)
print(f"{len(rows)} rows, {db.queries} queries, {time.perf_counter() - started:.3f}s")
''',
    "tests/test_reports.py": '''from reportsvc.db import DB
from reportsvc.reports import customer_totals, supplier_customers


def test_customer_totals():
    rows = customer_totals(DB(customers=3))
    assert rows == [("c0", 100), ("c1", 101), ("c2", 102)]


def test_supplier_customers():
    rows = supplier_customers(DB(customers=20))
    assert rows[0] == ("s0", 2) and len(rows) == 10
''',
}

SCENARIOS.append({
    "id": "mixed-reports", "lang": "mixed",
    "about": "gunicorn workers/timeout and a cache TTL are settings, not problems; two reports are slow because of "
             "N+1 queries (a real recurring performance problem).",
    "projects": {"reportsvc": {"files": REPORTS_FILES, "rules": {
        "one-query": "- 报表一条 SQL 取完，不许在循环里查库（`reportsvc/reports.py`）",
        "gunicorn-conf": "- gunicorn settings only in `gunicorn.conf.py`",
        "cache-key-version": "- 缓存 key 带上报表版本号，改报表时一起改",
    }}},
    "skills": ["performance_issue:query|performance_issue:slow"],
    "sessions": [
        session("reportsvc", "gunicorn: workers 4, timeout 30 s (settings)", [
            turn("把 gunicorn 的 workers 设为 4，timeout 设为 30 秒",
                 read("gunicorn.conf.py"),
                 edit("gunicorn.conf.py", "workers = 2\ntimeout = 120\n", "workers = 4\ntimeout = 30\n"),
                 bash("python3 -c \"import runpy; print(runpy.run_path('gunicorn.conf.py')['workers'])\"",
                      description="确认配置能加载"),
                 reply("改好了：gunicorn.conf.py 里 workers = 4，timeout = 30 秒。")),
        ], relevant=["gunicorn-conf"]),
        session("reportsvc", "The customer report is slow: N+1 queries, one JOIN now", [
            turn("The customer totals report is really slow in staging, around 8 s. 看一下怎么回事",
                 bash("python3 scripts/time_report.py customers", description="Time it"),
                 read("reportsvc/reports.py"),
                 edit("reportsvc/reports.py", '''def customer_totals(db) -> list:
    rows = []
    for cid, name in db.query("SELECT id, name FROM customers ORDER BY id"):
        total = db.query("SELECT SUM(total) FROM orders WHERE customer_id = ?", (cid,))[0][0]
        rows.append((name, total))
    return rows
''', '''def customer_totals(db) -> list:
    return db.query("SELECT c.name, SUM(o.total) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id "
                    "GROUP BY c.id ORDER BY c.id")
'''),
                 bash("python3 scripts/time_report.py customers && python3 -m pytest -q", description="Time it again, test"),
                 reply("It was an N+1: one query for the customers, then one more per customer for the total — "
                       "2001 queries for 2000 customers. customer_totals is one JOIN with GROUP BY now: 1 query, "
                       "same rows; the tests pass.")),
        ], expect=["performance_issue:query|performance_issue:slow"], relevant=["one-query"]),
        session("reportsvc", "The supplier report is slow the same way", [
            turn("供应商那张报表现在也很慢，是不是同样的问题？",
                 bash("python3 scripts/time_report.py suppliers", description="计时"),
                 read("reportsvc/reports.py"),
                 edit("reportsvc/reports.py", '''def supplier_customers(db) -> list:
    rows = []
    for sid, name in db.query("SELECT id, name FROM suppliers ORDER BY id"):
        count = db.query("SELECT COUNT(*) FROM customers WHERE supplier_id = ?", (sid,))[0][0]
        rows.append((name, count))
    return rows
''', '''def supplier_customers(db) -> list:
    return db.query("SELECT s.name, COUNT(c.id) FROM suppliers s LEFT JOIN customers c ON c.supplier_id = s.id "
                    "GROUP BY s.id ORDER BY s.id")
'''),
                 bash("python3 scripts/time_report.py suppliers && python3 -m pytest -q", description="再计时并跑测试"),
                 reply("是同样的 N+1：先查供应商，再每个供应商查一次客户数。改成一条 LEFT JOIN + GROUP BY，"
                       "查询从 11 次降到 1 次，结果一致，测试通过。")),
        ], expect=["performance_issue:query|performance_issue:slow"], allow=["recurring_issue:*"],
            relevant=["one-query"]),
        session("reportsvc", "缓存 TTL 5 分钟（设置）", [
            turn("报表缓存的 TTL 设为 5 分钟",
                 read("reportsvc/cache.py"),
                 edit("reportsvc/cache.py", "TTL_SECONDS = 60\n", "TTL_SECONDS = 300\n"),
                 bash("python3 -m pytest -q", description="跑测试"),
                 reply("TTL_SECONDS 改成 300 了，报表结果缓存 5 分钟。测试通过。")),
        ], relevant=["cache-key-version"]),
    ],
})
