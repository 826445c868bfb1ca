"""The conversations of the handover held-out set, and what each session must hand over.

HELD-OUT EVALUATION SET, written before the extractor change of issue 20 (base commit ba21af9).
Do not tune the extractor (scripts/code_memory/summary/) to these phrasings: see README.md here.

Each scenario: ``projects`` (name → the files of its git checkout), and ``sessions`` in the order
they happen. A session is a list of user turns; each turn is what the user types and the
assistant's steps (tool calls that the real binary runs in the checkout, then a text answer).
``@/`` in a tool input is the checkout's directory. bench/record_handover_heldout.py records them
with the real Claude Code binary; bench/bench_handover_heldout.py scores what reaches the next
session.

Annotations per session:
- ``carry``: facts the NEXT session of the same project must find in its SessionStart context,
  each a kind (topic, files, decisions, reasons, todos, pitfalls) and keywords that must all appear
  (case-insensitive). A fact may come from an earlier session (an open to-do, or the work session
  before a run of one-line sessions).
- ``finished``: to-dos this session finished (in its own words, or the user said so); from the
  next start context on, no open to-do line (a line with ``[ ]``) may hold all their keywords.
"""


def read(path, say=None):
    return _step("Read", {"file_path": "@/" + path}, say)


def edit(path, old, new, say=None):
    return _step("Edit", {"file_path": "@/" + path, "old_string": old, "new_string": new}, say)


def write(path, content, say=None):
    return _step("Write", {"file_path": "@/" + path, "content": content}, say)


def bash(command, say=None, fails=False, description=None):
    tool_input = {"command": command}
    if description:
        tool_input["description"] = description
    return {**_step("Bash", tool_input, say), "fails": fails}


def _step(tool, tool_input, say):
    return {"tool": tool, "input": tool_input, **({"say": say} if say else {})}


def reply(text):
    return {"text": text}


def turn(user, *steps):
    return {"user": user, "steps": list(steps)}


def fact(kind, *keys, leak=True):
    return {"kind": kind, "keys": list(keys), **({} if leak else {"leak": False})}


def session(project, what, turns, carry=(), finished=(), files_before=None):
    """``files_before``: files the user changed on their own since the last session (written first)."""
    return {"project": project, "what": what, "turns": list(turns), "carry": list(carry),
            "finished": list(finished), **({"files_before": files_before} if files_before else {})}


SCENARIOS = []


# =============================================================================================
# 1. zh-refund-dedup — pay-gateway (Chinese)
# =============================================================================================

PAY_FILES = {
    "README.md": "# pay-gateway\n\n支付网关：下单、退款回调、对账。\n\n    python3 -m pytest -q\n",
    "conftest.py": "",
    "refund/__init__.py": "",
    "refund/db.py": '''import sqlite3
from pathlib import Path

SCHEMA = Path(__file__).with_name("schema.sql")


def connect(path: str = ":memory:") -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA.read_text(encoding="utf-8"))
    return conn
''',
    "refund/schema.sql": '''CREATE TABLE IF NOT EXISTS orders (
    order_no TEXT PRIMARY KEY,
    total REAL NOT NULL,
    refunded REAL NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS refunds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    refund_no TEXT NOT NULL,
    order_no TEXT NOT NULL,
    amount REAL NOT NULL,
    status TEXT NOT NULL
);
''',
    "refund/service.py": '''"""退款回调：支付渠道退款成功后回调我们，记一笔退款并累加订单的已退金额。"""
import sqlite3


def handle_callback(conn: sqlite3.Connection, payload: dict) -> str:
    amount = float(payload["amount"])
    conn.execute(
        "INSERT INTO refunds (refund_no, order_no, amount, status) VALUES (?, ?, ?, ?)",
        (payload["refund_no"], payload["order_no"], amount, "SUCCESS"),
    )
    conn.execute("UPDATE orders SET refunded = refunded + ? WHERE order_no = ?", (amount, payload["order_no"]))
    conn.commit()
    return "processed"
''',
    "refund/reconcile.py": '''"""对账：把渠道账单和本地退款记录逐笔比对。"""


def diff(channel_rows, local_rows):
    local = {r["refund_no"]: float(r["amount"]) for r in local_rows}
    return [r for r in channel_rows if abs(float(r["amount"]) - local.get(r["refund_no"], 0.0)) > 0.001]
''',
    "tests/test_refund.py": '''from refund.db import connect
from refund.service import handle_callback


def make_conn():
    conn = connect()
    conn.execute("INSERT INTO orders (order_no, total) VALUES ('O1', 100)")
    return conn


def test_callback_records_refund():
    conn = make_conn()
    assert handle_callback(conn, {"refund_no": "R1", "order_no": "O1", "amount": "30"}) == "processed"
    assert conn.execute("SELECT refunded FROM orders").fetchone()[0] == 30
''',
}

SCENARIOS.append({
    "id": "zh-refund-dedup", "lang": "zh",
    "kinds": ["decision-in-conversation", "reason", "indirect-todo", "finished-by-user", "pitfall",
              "negated-completion", "read-only-qa"],
    "about": "退款回调去重：助手给出两个方案、用户选唯一约束并给出理由；上线前要先压测（间接待办），"
             "下一会话用户自己说压测跑完了；换 Decimal 时踩坑；超额退款没拦（否定式未完成）；最后一次只读问答。",
    "projects": {"pay-gateway": PAY_FILES},
    "sessions": [
        session("pay-gateway", "去重：方案讨论 → 唯一约束 → 压测脚本", [
            turn("退款回调偶尔会重复推过来，同一个 refund_no 被记了两次账，orders.refunded 直接翻倍了。"
                 "你看下 refund/service.py 怎么防一下",
                 read("refund/service.py", say="我先看下回调是怎么处理的。"),
                 read("refund/schema.sql"),
                 bash("grep -rn refund_no refund/ tests/", description="看 refund_no 都在哪里用到"),
                 reply("看完了，handle_callback 里没有任何去重：同一个 refund_no 推两次，就插两行 refunds、"
                       "orders.refunded 也加两次。\n\n能想到两种办法：\n"
                       "1. 给 refunds.refund_no 加唯一约束，重复的回调插入时会撞 IntegrityError，捕获后直接回"
                       "“已处理”，和累加 refunded 在同一个事务里；\n"
                       "2. 处理前先用 Redis 的 SET NX 抢一把锁，抢不到就丢掉这次回调。\n\n"
                       "第一种只靠数据库本身；第二种多一个外部依赖，锁的过期时间也不好拿捏。你看用哪种？")),
            turn("行，那就唯一约束吧。Redis 那个集群这个月已经挂过两次了，不想把退款也绑上去。",
                 edit("refund/schema.sql", "    refund_no TEXT NOT NULL,\n", "    refund_no TEXT NOT NULL UNIQUE,\n"),
                 edit("refund/service.py",
                      '''    amount = float(payload["amount"])
    conn.execute(
        "INSERT INTO refunds (refund_no, order_no, amount, status) VALUES (?, ?, ?, ?)",
        (payload["refund_no"], payload["order_no"], amount, "SUCCESS"),
    )
''',
                      '''    amount = float(payload["amount"])
    try:
        conn.execute(
            "INSERT INTO refunds (refund_no, order_no, amount, status) VALUES (?, ?, ?, ?)",
            (payload["refund_no"], payload["order_no"], amount, "SUCCESS"),
        )
    except sqlite3.IntegrityError:
        conn.rollback()   # the channel pushed this refund_no before: already counted
        return "duplicate"
'''),
                 read("tests/test_refund.py"),
                 edit("tests/test_refund.py",
                      '''    assert conn.execute("SELECT refunded FROM orders").fetchone()[0] == 30
''',
                      '''    assert conn.execute("SELECT refunded FROM orders").fetchone()[0] == 30


def test_same_refund_no_twice_counts_once():
    conn = make_conn()
    payload = {"refund_no": "R1", "order_no": "O1", "amount": "30"}
    assert handle_callback(conn, payload) == "processed"
    assert handle_callback(conn, payload) == "duplicate"
    assert conn.execute("SELECT refunded FROM orders").fetchone()[0] == 30
    assert conn.execute("SELECT COUNT(*) FROM refunds").fetchone()[0] == 1
'''),
                 write("migrations/0007_refund_no_unique.sql",
                       "-- 线上已有的 refunds 表：先确认没有重复的 refund_no，再建唯一索引\n"
                       "CREATE UNIQUE INDEX IF NOT EXISTS ux_refunds_refund_no ON refunds (refund_no);\n"),
                 bash("python3 -m pytest -q", description="跑测试"),
                 reply("改好了：\n- refund/schema.sql：refund_no 加了 UNIQUE；\n"
                       "- refund/service.py：插入撞上唯一约束就回滚并返回 \"duplicate\"，refunded 不会再加第二次；\n"
                       "- tests/test_refund.py：加了同一个 refund_no 推两次的用例；\n"
                       "- migrations/0007_refund_no_unique.sql：线上表补唯一索引。\n\n"
                       "`python3 -m pytest -q` 两个用例都过了。")),
            turn("好。上线前得先在预发环境把并发回调压一下，看看撞约束的比例和库的负载，压完再发。",
                 write("scripts/stress_callbacks.py", '''"""预发压测：并发推重复的退款回调，统计撞唯一约束的比例。"""
import argparse
import concurrent.futures
import json
import urllib.request


def push(url: str, refund_no: str) -> int:
    body = json.dumps({"refund_no": refund_no, "order_no": "STRESS", "amount": "1"}).encode()
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as resp:
        return resp.status


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--workers", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    jobs = [f"STRESS-{i}" for i in range(1000) for _ in range(args.repeat)]
    with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
        codes = list(pool.map(lambda n: push(args.url, n), jobs))
    print({code: codes.count(code) for code in set(codes)})


if __name__ == "__main__":
    main()
'''),
                 bash("python3 scripts/stress_callbacks.py --help", description="确认脚本能跑"),
                 reply("压测脚本放在 scripts/stress_callbacks.py 了：默认 200 并发、每个 refund_no 重复推 3 次，"
                       "跑完打印各个状态码的数量，撞约束的那部分就是重复比例。预发环境我这边连不上，得你那边跑一下，"
                       "结果告诉我再决定发不发。")),
        ], carry=[
            fact("topic", "回调", "重复"),
            fact("files", "refund/service.py"), fact("files", "refund/schema.sql"),
            fact("files", "stress_callbacks.py"),
            fact("decisions", "唯一约束"),
            fact("reasons", "Redis", "挂过两次"),
            fact("todos", "预发", "并发"),
        ]),
        session("pay-gateway", "用户报告压测结果；金额换 Decimal，踩 sqlite3 的坑；超额退款没拦", [
            turn("预发那边跑完了：200 并发、每单推 3 次，撞约束的大概 8%，库的 CPU 基本没动，可以发了。\n"
                 "另外 amount 现在是 float，对账那边已经抱怨过好几次 0.1+0.2 这种误差了，换成 Decimal 吧。",
                 read("refund/service.py"),
                 edit("refund/service.py", '"""退款回调：支付渠道退款成功后回调我们，记一笔退款并累加订单的已退金额。"""\nimport sqlite3\n',
                      '"""退款回调：支付渠道退款成功后回调我们，记一笔退款并累加订单的已退金额。"""\nimport sqlite3\n'
                      'from decimal import Decimal\n'),
                 edit("refund/service.py", '    amount = float(payload["amount"])\n',
                      '    amount = Decimal(str(payload["amount"]))\n'),
                 bash("python3 -m pytest -q", fails=True, description="跑测试"),
                 reply("测试挂了：sqlite3 不认识 Decimal，绑定参数时直接抛 ProgrammingError。我在连接那里给它注册一个适配器。"),
            ),
            turn("那就注册一下，但别存成字符串导致排序出问题啊",
                 read("refund/db.py"),
                 edit("refund/db.py", "import sqlite3\nfrom pathlib import Path\n",
                      "import sqlite3\nfrom decimal import Decimal\nfrom pathlib import Path\n\n"
                      "# sqlite3 cannot bind Decimal: store it as TEXT, the REAL column's affinity turns it back into a number\n"
                      "sqlite3.register_adapter(Decimal, str)\n"),
                 bash("python3 -m pytest -q", description="再跑一次"),
                 bash("python3 -c \"from decimal import Decimal; from refund.db import connect; c = connect(); "
                      "c.execute('INSERT INTO orders VALUES (?, ?, 0)', ('O9', Decimal('0.3'))); "
                      "print(c.execute('SELECT typeof(total), total FROM orders').fetchall())\"",
                      description="确认落库是数字不是字符串"),
                 reply("好了。踩的坑记一下：sqlite3 默认不支持 Decimal 作为参数，必须先 `sqlite3.register_adapter(Decimal, str)`，"
                       "否则一绑定就报 ProgrammingError；适配成字符串之后 REAL 列的类型亲和会把它转回数字，"
                       "上面查了 typeof 是 real，排序不受影响。以后别的表换 Decimal 也要走 refund/db.py 这个连接。\n\n"
                       "还有一点这次没做：部分退款累加以后 orders.refunded 可能超过 total（渠道多推了一笔不同 refund_no 的），"
                       "现在没有任何拦截，这块不算完成，得补一个超额校验。")),
            turn("嗯，超额那个先记着，今天先到这。",
                 reply("好，记下了：超额退款的校验留到下次。")),
        ], carry=[
            fact("topic", "Decimal"),
            fact("files", "refund/db.py"), fact("files", "refund/service.py"),
            fact("reasons", "对账"),
            fact("pitfalls", "register_adapter"),
            fact("todos", "超过", "total"),
        ], finished=[fact("todos", "预发", "并发")]),
        session("pay-gateway", "只读问答：哪里还在用 float", [
            turn("现在代码里还有哪些地方在用 float 算金额？列出来就行，先别改。",
                 bash("grep -rn \"float\" --include=*.py .", description="找 float"),
                 reply("还剩一处：refund/reconcile.py 的 diff() 里把渠道和本地的 amount 都转成了 float，"
                       "再用 0.001 的容差比较。service.py 已经是 Decimal 了，测试里没有 float。")),
        ], carry=[
            fact("topic", "float"),
            fact("todos", "超过", "total"),
        ]),
    ],
})


# =============================================================================================
# 2. zh-docs-links — handbook (Chinese)
# =============================================================================================

CHECK_LINKS = '''"""站内链接检查：docs 下每个 Markdown 里的相对链接和锚点都要指向存在的文件和标题。"""
import pathlib
import re
import sys

LINK = re.compile(r"\\]\\(([^)#\\s]*)(#[^)\\s]*)?\\)")
HEADING = re.compile(r"^#+\\s+(.+)$", re.M)


def anchors(page: pathlib.Path) -> set:
    return {"#" + h.strip().lower().replace(" ", "-") for h in HEADING.findall(page.read_text(encoding="utf-8"))}


def broken_links(root: pathlib.Path) -> list:
    found = []
    for page in sorted(root.rglob("*.md")):
        for path, anchor in LINK.findall(page.read_text(encoding="utf-8")):
            if path.startswith(("http://", "https://", "mailto:")):
                continue
            target = page.parent / path if path else page
            if not target.exists():
                found.append(f"{page}: {path}{anchor} -> no such file")
            elif anchor and anchor.lower() not in anchors(target):
                found.append(f"{page}: {path}{anchor} -> no such heading")
    return found


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    found = broken_links(root)
    for line in found:
        print(line)
    print(f"{len(found)} broken link(s) under {root}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
'''

HANDBOOK_FILES = {
    "mkdocs.yml": "site_name: 研发手册\nnav:\n  - 首页: index.md\n  - 新人入职: onboarding.md\n  - 环境准备: environment.md\n"
                  "  - 代码规范: style-guide.md\n  - 发布: deploy.md\ntheme:\n  name: material\n",
    "docs/index.md": "# 研发手册\n\n![首页](images/home.png)\n\n- [新人入职](onboarding.md)\n- [发布](deploy.md)\n",
    "docs/images/home.png": "PNG placeholder\n",
    "docs/onboarding.md": "# 新人入职\n\n第一周按顺序看：\n\n1. [环境准备](setup.md)\n2. [代码规范](style-guide.md#命名)\n"
                          "3. [发布流程](deploy.md#回滚)\n\n有问题找自己的 mentor。\n",
    "docs/environment.md": "# 环境准备\n\n## 安装\n\n装 Python 3.11 和 Node 20。\n\n## 常见问题\n\n公司代理要配在 ~/.npmrc。\n",
    "docs/style-guide.md": "# 代码规范\n\n## 命名\n\n变量用 snake_case。\n\n## 提交信息\n\n说清楚为什么改。\n",
    "docs/deploy.md": "# 发布\n\n## 发布步骤\n\n1. 打 tag\n2. 等流水线\n\n## 回滚步骤\n\n重新部署上一个 tag。\n\n"
                      "监控看 [Grafana](https://grafana.example.com)，常见问题见 [FAQ](faq.md)。\n",
    ".github/workflows/docs.yml": "name: docs\non: [pull_request]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
                                 "      - uses: actions/checkout@v4\n      - run: pip install mkdocs-material\n"
                                 "      - run: mkdocs build --strict\n",
}

FIND_BROKEN = CHECK_LINKS.split("\n\ndef main()")[0].split('"""\n', 2)[-1]

SCENARIOS.append({
    "id": "zh-docs-links", "lang": "zh",
    "kinds": ["indirect-todo", "continue-session", "decision-in-conversation", "reason", "finished-by-assistant",
              "read-only-qa", "trivial-turn"],
    "about": "文档坏链接：修完后用户顺口交代两件事（CI 里要能拦住坏链接、有空的话压缩截图）；下次只说“接着上回的弄”，"
             "助手给两个方案、用户选自己写脚本并说明理由，助手用别的说法报告 CI 那件做完了；最后一次是只读问答。",
    "projects": {"handbook": HANDBOOK_FILES},
    "sessions": [
        session("handbook", "修坏链接；交代 CI 拦截和压截图", [
            turn("新人说 onboarding 文档里好几个链接点进去是 404，你帮我把 docs 下面坏掉的链接都找出来修一下",
                 bash("ls -R docs", say="先看看 docs 目录里有什么。"),
                 bash("python3 - <<'EOF'\n" + FIND_BROKEN +
                      "\nfor line in broken_links(pathlib.Path('docs')):\n    print(line)\nEOF",
                      description="找出指向不存在的文件或标题的站内链接"),
                 read("docs/onboarding.md"),
                 read("docs/deploy.md"),
                 edit("docs/onboarding.md", "1. [环境准备](setup.md)", "1. [环境准备](environment.md)"),
                 edit("docs/onboarding.md", "3. [发布流程](deploy.md#回滚)", "3. [发布流程](deploy.md#回滚步骤)"),
                 edit("docs/deploy.md", "常见问题见 [FAQ](faq.md)。", "常见问题见 [环境准备](environment.md#常见问题)。"),
                 bash("python3 - <<'EOF'\n" + FIND_BROKEN +
                      "\nprint(broken_links(pathlib.Path('docs')) or 'no broken links')\nEOF",
                      description="再查一遍"),
                 reply("找到并修了 3 处：\n"
                       "- onboarding.md 里“环境准备”指向的 setup.md 不存在，实际文件叫 environment.md；\n"
                       "- onboarding.md 里 deploy.md#回滚 这个锚点不存在，标题是“回滚步骤”；\n"
                       "- deploy.md 末尾的 faq.md 从来没写过，改成指向 environment.md 的“常见问题”一节。\n\n"
                       "再查一遍已经没有坏的站内链接了。外链（Grafana）没查。")),
            turn("好。这种事以后别再靠新人踩出来了，CI 里得能自动拦住坏链接，不然下回谁挪个目录又是一样。"
                 "另外首页那张截图有 2MB，有空的话顺手压一下，手机上打开太慢。",
                 reply("明白。这两件这次先不动：CI 里自动拦坏链接我下回来加；首页截图等有空再压。")),
        ], carry=[
            fact("topic", "onboarding", "链接"),
            fact("files", "docs/onboarding.md"), fact("files", "docs/deploy.md"),
            fact("todos", "CI", "链接"),
            fact("todos", "截图"),
        ]),
        session("handbook", "“接着上回的弄”：CI 链接检查，自写脚本", [
            turn("接着上回的弄吧",
                 read(".github/workflows/docs.yml", say="上回留了两件：CI 里自动拦坏链接、压首页截图。先弄 CI 这件。"),
                 reply("CI 这件有两种做法：\n"
                       "1. 用现成的 lychee action，外链内链都能查，但每次 job 都要下载它的二进制，外链还会因为对方网站抽风而误报；\n"
                       "2. 把上回那段检查正式放进仓库（scripts/check_links.py），只查站内的相对链接和锚点，纯 Python，不用装东西。\n"
                       "你倾向哪个？")),
            turn("用第二种。外链抽风把 CI 搞红这种事我受够了，站内的查住就行。",
                 write("scripts/check_links.py", CHECK_LINKS),
                 edit(".github/workflows/docs.yml", "      - run: pip install mkdocs-material\n",
                      "      - run: python3 scripts/check_links.py docs\n      - run: pip install mkdocs-material\n"),
                 bash("python3 scripts/check_links.py docs", description="现在的 docs 应该是干净的"),
                 bash("mkdir -p build/linkcheck-demo && printf '[坏的](nope.md)\\n' > build/linkcheck-demo/a.md && "
                      "python3 scripts/check_links.py build/linkcheck-demo; status=$?; rm -rf build; exit $status",
                      fails=True, description="故意造一个坏链接，确认会失败"),
                 reply("弄好了：scripts/check_links.py 会把 docs 下所有站内相对链接和锚点过一遍，有坏的就列出来并以 1 退出；"
                       "docs.yml 在装 mkdocs 之前先跑它，以后 PR 里谁引入坏链接，这一步直接红。"
                       "故意造了一个坏链接试过，确实会失败。首页截图这次还是没动。")),
        ], carry=[
            fact("topic", "CI", "链接"),
            fact("files", "scripts/check_links.py"), fact("files", ".github/workflows/docs.yml"),
            fact("decisions", "站内"),
            fact("reasons", "外链", "抽风"),
            fact("todos", "截图"),
        ], finished=[fact("todos", "CI", "链接")]),
        session("handbook", "只读问答：本地预览命令", [
            turn("docs 本地预览的命令是啥来着？",
                 read("mkdocs.yml"),
                 reply("`mkdocs serve`，默认开在 127.0.0.1:8000，改了 Markdown 会自动刷新。站点配置在 mkdocs.yml，"
                       "左侧导航的顺序由 nav 决定；主题是 material，本地要先 `pip install mkdocs-material`。")),
            turn("ok",
                 reply("好的。")),
        ], carry=[
            fact("topic", "预览"),
            fact("todos", "截图"),
        ]),
    ],
})


# =============================================================================================
# 3. zh-esm-revert — admin-console (Chinese, Node)
# =============================================================================================

ADMIN_FILES = {
    "package.json": '{\n  "name": "admin-console",\n  "version": "1.8.0",\n  "private": true,\n'
                    '  "scripts": {\n    "test": "node --test",\n    "build": "node scripts/build.js"\n  }\n}\n',
    "src/format.js": "'use strict';\n\nfunction formatPrice(cents) {\n  return (cents / 100).toFixed(2);\n}\n\n"
                     "function formatDate(d) {\n  return d.toISOString().slice(0, 10);\n}\n\n"
                     "module.exports = { formatPrice, formatDate };\n",
    "src/permissions.js": "'use strict';\n\nconst WRITE_ACTIONS = ['create', 'update', 'delete'];\n\n"
                          "function canDo(user, action, { readOnly = false } = {}) {\n"
                          "  if (user.role === 'superadmin') return true;\n"
                          "  if (readOnly && WRITE_ACTIONS.includes(action)) return false;\n"
                          "  return user.permissions.includes(action);\n}\n\nmodule.exports = { canDo, WRITE_ACTIONS };\n",
    "src/api.js": "'use strict';\n\nconst BASE = process.env.ADMIN_API || '/api';\n\n"
                  "async function get(path) {\n  const res = await fetch(BASE + path);\n"
                  "  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);\n  return res.json();\n}\n\n"
                  "module.exports = { get };\n",
    "src/index.js": "'use strict';\n\nconst { canDo } = require('./permissions');\nconst { formatPrice } = require('./format');\n"
                    "const api = require('./api');\n\nmodule.exports = { canDo, formatPrice, api };\n",
    "scripts/build.js": "'use strict';\n\nconst path = require('path');\nconst fs = require('fs');\n\n"
                        "const out = path.join(__dirname, '..', 'dist');\nfs.mkdirSync(out, { recursive: true });\n"
                        "for (const name of ['minify', 'banner']) {\n"
                        "  const plugin = require(`./plugins/${name}`);\n  plugin.run(out);\n}\n",
    "scripts/plugins/minify.js": "'use strict';\n\nmodule.exports = { run: (out) => console.log('minify', out) };\n",
    "scripts/plugins/banner.js": "'use strict';\n\nmodule.exports = { run: (out) => console.log('banner', out) };\n",
    "test/format.test.js": "'use strict';\n\nconst test = require('node:test');\nconst assert = require('node:assert');\n"
                           "const { formatPrice, formatDate } = require('../src/format');\n\n"
                           "test('formatPrice shows two decimals', () => {\n"
                           "  assert.strictEqual(formatPrice(1999), '19.99');\n});\n\n"
                           "test('formatDate keeps the day', () => {\n"
                           "  assert.strictEqual(formatDate(new Date('2026-03-01T08:00:00Z')), '2026-03-01');\n});\n",
}

PERMISSIONS_SPEC = """'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { canDo } = require('./permissions');

const superadmin = { role: 'superadmin', permissions: [] };

test('read-only mode blocks writes for everyone, superadmin included', () => {
  assert.strictEqual(canDo(superadmin, 'delete', { readOnly: true }), false);
});

test('superadmin can still do everything else', () => {
  assert.strictEqual(canDo(superadmin, 'view', { readOnly: true }), true);
});
"""

SCENARIOS.append({
    "id": "zh-esm-revert", "lang": "zh",
    "kinds": ["reverted-upgrade", "indirect-todo", "decision-in-conversation", "reason", "pitfall", "read-only-qa"],
    "about": "切 ESM：改了 package.json，测试全挂，用户说算了撤回、等 2.0 再说（撤回的升级不能当成做完）；"
             "下一次修超管只读 bug，助手给两个方案、用户选“只读对所有人生效”并给理由，踩了 node --test 不跑 spec 文件的坑；"
             "最后一次只读：列出 ESM 要改的文件清单。",
    "projects": {"admin-console": ADMIN_FILES},
    "sessions": [
        session("admin-console", "试切 ESM → 撤回", [
            turn("Node 20 了，项目还在用 require，切成 ESM 吧，package.json 里加 \"type\": \"module\"，import 都改过来",
                 read("package.json", say="先看下 package.json，再跑一遍现有测试当基线。"),
                 bash("npm test", description="基线"),
                 bash("grep -rlE \"require\\(|module\\.exports|__dirname\" src test scripts", description="哪些文件用了 CommonJS"),
                 edit("package.json", '  "private": true,\n', '  "private": true,\n  "type": "module",\n'),
                 bash("npm test", fails=True, description="加上 type: module 后再跑"),
                 reply("加上 type: module 之后，所有 .js 都按 ESM 加载，src 和 test 里的 require / module.exports 一个都跑不了"
                       "（上面的 ReferenceError: require is not defined in ES module scope）。真要切过去得改这几类：\n"
                       "- 每个文件的 require → import、module.exports → export；\n"
                       "- scripts/build.js 里的 __dirname 要换成 import.meta.url；\n"
                       "- scripts/build.js 按名字动态 require 插件，得改成 await import()。\n"
                       "涉及 src 4 个、test 1 个、scripts 3 个文件。要继续全改吗？")),
            turn("这么多……算了，先撤回去吧，这个版本先不折腾了，等 2.0 再说。",
                 bash("git checkout -- package.json && git status --short", description="撤回 package.json"),
                 bash("npm test", description="确认恢复正常"),
                 reply("撤回了：package.json 恢复原样，工作区是干净的，npm test 全过。ESM 这件留到 2.0 再做。")),
        ], carry=[
            fact("topic", "ESM"),
            fact("decisions", "撤回"),
            fact("todos", "ESM", "2.0"),
        ]),
        session("admin-console", "超管只读 bug：方案讨论、踩 node --test 的坑", [
            turn("有个权限 bug：超管在只读模式下还能删数据，src/permissions.js 看一下",
                 read("src/permissions.js"),
                 read("test/format.test.js", say="再看下现有测试的写法。"),
                 reply("原因是 canDo 一上来就对 superadmin 直接 return true，只读的判断排在它后面，超管永远走不到。\n"
                       "改法有两种：\n1. 只读模式对所有人生效，超管也不能写；\n"
                       "2. 超管保留一个强制写的开关，只读时要显式带 force: true 才能写。\n你想要哪种？")),
            turn("第一种。只读就是只读，维护窗口里谁写进去都可能把迁移搞坏。",
                 edit("src/permissions.js",
                      "  if (user.role === 'superadmin') return true;\n"
                      "  if (readOnly && WRITE_ACTIONS.includes(action)) return false;\n",
                      "  if (readOnly && WRITE_ACTIONS.includes(action)) return false;\n"
                      "  if (user.role === 'superadmin') return true;\n"),
                 write("src/permissions.spec.js", PERMISSIONS_SPEC),
                 bash("npm test", description="跑测试"),
                 bash("mv src/permissions.spec.js test/permissions.test.js",
                      say="测试数还是 2，新写的 permissions.spec.js 根本没被执行：node --test 默认只找 *.test.js 和 test/ 目录下的文件。挪过去。"),
                 edit("test/permissions.test.js", "require('./permissions')", "require('../src/permissions')"),
                 bash("npm test", description="再跑"),
                 reply("改好了：只读判断挪到了最前面，只读模式下 create / update / delete 对谁都返回 false，包括超管。\n\n"
                       "踩了个坑：一开始测试写成 src/permissions.spec.js，npm test 照样全绿——因为它压根没被执行，"
                       "node --test 默认只认 *.test.js（以及 test/ 目录）。挪到 test/permissions.test.js 以后测试数从 2 变成 4。"
                       "以后测试文件都放 test/ 下、用 .test.js 结尾。")),
        ], carry=[
            fact("topic", "只读", "超管"),
            fact("files", "src/permissions.js"), fact("files", "test/permissions.test.js"),
            fact("decisions", "所有人"),
            fact("reasons", "维护窗口"),
            fact("pitfalls", "node --test", ".test.js"),
            fact("todos", "ESM", "2.0"),
        ]),
        session("admin-console", "只读：列 ESM 要改的清单", [
            turn("ESM 那个下个迭代想再试一次，你先帮我列个清单：哪些文件要改、各是什么问题，先别动代码。",
                 bash("grep -rnE \"require\\(|module\\.exports|__dirname\" src test scripts",
                      description="列出所有 CommonJS 写法"),
                 reply("清单如下（只看了，没改）：\n"
                       "- src/format.js、src/permissions.js、src/api.js：末尾的 module.exports 改成 export；\n"
                       "- src/index.js：三个 require 改成 import；\n"
                       "- test/format.test.js、test/permissions.test.js：require('node:test') 等改成 import；\n"
                       "- scripts/build.js：__dirname 换成 fileURLToPath(import.meta.url)，插件的动态 require 改成 await import()；\n"
                       "- scripts/plugins/*.js：module.exports 改成 export default。\n"
                       "另外 package.json 要加 \"type\": \"module\"。一共 10 个文件。")),
        ], carry=[
            fact("topic", "ESM"),
            fact("todos", "ESM", "2.0"),
        ]),
    ],
})


# =============================================================================================
# 4. zh-mall-interleaved — mall-api + mall-web in one memory root (Chinese)
# =============================================================================================

MALL_API_FILES = {
    "conftest.py": "",
    "mall_api/__init__.py": "",
    "mall_api/db.py": '''import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS inventory (sku TEXT PRIMARY KEY, stock INTEGER NOT NULL);
"""


def connect(path: str = ":memory:") -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    return conn
''',
    "mall_api/stock.py": '''"""库存扣减：下单和秒杀都走这里。"""
import sqlite3


def deduct(conn: sqlite3.Connection, sku: str, qty: int) -> bool:
    row = conn.execute("SELECT stock FROM inventory WHERE sku = ?", (sku,)).fetchone()
    if row is None or row[0] < qty:
        return False
    conn.execute("UPDATE inventory SET stock = stock - ? WHERE sku = ?", (qty, sku))
    conn.commit()
    return True
''',
    "tests/test_stock.py": '''from mall_api.db import connect
from mall_api.stock import deduct


def test_deduct_reduces_stock():
    conn = connect()
    conn.execute("INSERT INTO inventory VALUES ('SKU1', 5)")
    assert deduct(conn, "SKU1", 2)
    assert conn.execute("SELECT stock FROM inventory").fetchone()[0] == 3
''',
}

MALL_WEB_FILES = {
    "package.json": '{\n  "name": "mall-web",\n  "version": "3.2.0",\n  "private": true,\n'
                    '  "scripts": {\n    "test": "node --test"\n  }\n}\n',
    "src/cart.js": "'use strict';\n\n"
                   "// items come from GET /api/cart: { sku, name, price: '¥19.90', price_cents: 1990, qty }\n"
                   "function computeTotal(items) {\n  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n}\n\n"
                   "function renderTotal(items) {\n  return '合计：¥' + computeTotal(items).toFixed(2);\n}\n\n"
                   "module.exports = { computeTotal, renderTotal };\n",
    "src/coupon.js": "'use strict';\n\n"
                     "// coupons come from GET /api/coupons:\n"
                     "// { code, threshold: '¥300.00', discount: '¥40.00', threshold_cents: 30000, discount_cents: 4000 }\n"
                     "function applyCoupon(totalCents, coupon) {\n"
                     "  if (totalCents / 100 >= parseFloat(coupon.threshold)) {\n"
                     "    return totalCents - parseFloat(coupon.discount) * 100;\n  }\n  return totalCents;\n}\n\n"
                     "module.exports = { applyCoupon };\n",
    "test/smoke.test.js": "'use strict';\n\nconst test = require('node:test');\nconst assert = require('node:assert');\n\n"
                          "test('modules load', () => {\n  assert.ok(require('../src/cart'));\n"
                          "  assert.ok(require('../src/coupon'));\n});\n",
}

CART_TEST = """'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { computeTotal, renderTotal } = require('../src/cart');

const items = [
  { sku: 'A', price: '¥19.90', price_cents: 1990, qty: 2 },
  { sku: 'B', price: '¥5.00', price_cents: 500, qty: 1 },
];

test('total is computed in cents', () => {
  assert.strictEqual(computeTotal(items), 4480);
});

test('total renders with two decimals', () => {
  assert.strictEqual(renderTotal(items), '合计：¥44.80');
});
"""

COUPON_TEST = """'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { applyCoupon } = require('../src/coupon');

const coupon = { code: 'M300', threshold: '¥300.00', discount: '¥40.00', threshold_cents: 30000, discount_cents: 4000 };

test('300 minus 40 applies at the threshold', () => {
  assert.strictEqual(applyCoupon(30000, coupon), 26000);
});

test('below the threshold nothing is taken off', () => {
  assert.strictEqual(applyCoupon(29999, coupon), 29999);
});
"""

SCENARIOS.append({
    "id": "zh-mall-interleaved", "lang": "zh",
    "kinds": ["interleaved-projects", "decision-in-conversation", "reason", "indirect-todo", "pitfall",
              "finished-by-assistant"],
    "about": "同一个记忆根里交替做两个项目：mall-api（超卖：三个方案、用户选条件扣减并说理由；“还需要”加失败计数，"
             "下次用户定走日志、踩 caplog 的坑、助手换个说法报告做完）和 mall-web（购物车 NaN、接口价格是展示字符串的坑；"
             "发版前要把优惠券也改掉，下次做完）。两个项目的事实不能串。",
    "projects": {"mall-api": MALL_API_FILES, "mall-web": MALL_WEB_FILES},
    "sessions": [
        session("mall-api", "超卖：方案讨论 → 条件扣减", [
            turn("秒杀的时候库存扣成负数了。mall_api/stock.py 的 deduct 是先查再扣的，并发一上来就超卖，你看怎么改",
                 read("mall_api/stock.py"),
                 read("mall_api/db.py"),
                 reply("问题就在先 SELECT 再 UPDATE：两个请求同时查到 stock=1，都判断够，然后都扣，库存就成了 -1。\n\n"
                       "几种改法：\n"
                       "1. 加 version 列做乐观锁：UPDATE … WHERE sku = ? AND version = ?，没更新到就重试；\n"
                       "2. 把判断写进 UPDATE 本身：UPDATE inventory SET stock = stock - ? WHERE sku = ? AND stock >= ?，"
                       "看 rowcount 是不是 1——一条语句，原子完成；\n"
                       "3. SELECT … FOR UPDATE 悲观锁（线上 PostgreSQL 支持，本地 SQLite 不支持）。\n\n"
                       "我倾向第 2 种，改动最小。你定？")),
            turn("用第二种，条件扣减。别上悲观锁，秒杀的时候行锁一排队，连接池马上就被占满了。",
                 edit("mall_api/stock.py",
                      '''    row = conn.execute("SELECT stock FROM inventory WHERE sku = ?", (sku,)).fetchone()
    if row is None or row[0] < qty:
        return False
    conn.execute("UPDATE inventory SET stock = stock - ? WHERE sku = ?", (qty, sku))
    conn.commit()
    return True
''',
                      '''    # one statement: the stock check and the deduction cannot interleave with another request
    cur = conn.execute("UPDATE inventory SET stock = stock - ? WHERE sku = ? AND stock >= ?", (qty, sku, qty))
    conn.commit()
    return cur.rowcount == 1
'''),
                 read("tests/test_stock.py"),
                 edit("tests/test_stock.py",
                      '''    assert conn.execute("SELECT stock FROM inventory").fetchone()[0] == 3
''',
                      '''    assert conn.execute("SELECT stock FROM inventory").fetchone()[0] == 3


def test_never_below_zero():
    conn = connect()
    conn.execute("INSERT INTO inventory VALUES ('SKU1', 1)")
    assert deduct(conn, "SKU1", 1)
    assert not deduct(conn, "SKU1", 1)
    assert conn.execute("SELECT stock FROM inventory").fetchone()[0] == 0
'''),
                 bash("python3 -m pytest -q", description="跑测试"),
                 reply("改好了：deduct 现在只有一条 UPDATE … WHERE stock >= ?，靠 rowcount 判断有没有扣成功，不会再扣成负数。"
                       "tests/test_stock.py 加了库存只剩 1 件时连扣两次的用例，测试都过了。")),
            turn("行。还需要给扣减失败加个计数，运营那边想看每场秒杀有多少人没抢到。",
                 reply("可以，不过得先确认你们的指标是走 Prometheus 还是走日志，确认了再加。")),
        ], carry=[
            fact("topic", "超卖"),
            fact("files", "mall_api/stock.py"), fact("files", "tests/test_stock.py"),
            fact("decisions", "条件扣减"),
            fact("reasons", "连接池"),
            fact("todos", "扣减失败", "计数"),
        ]),
        session("mall-web", "购物车合计 NaN", [
            turn("购物车页面的合计显示 NaN，你看下 src/cart.js",
                 read("src/cart.js"),
                 bash("node -e \"const {renderTotal} = require('./src/cart'); "
                      "console.log(renderTotal([{price: '¥19.90', price_cents: 1990, qty: 2}]))\"",
                      description="复现"),
                 reply("复现了：接口返回的 price 是给人看的展示字符串 '¥19.90'，'¥19.90' * 2 就是 NaN。"
                       "同一个接口里有 price_cents（整数分），计算应该用它。我改成按分累加，渲染时再除以 100。")),
            turn("改吧",
                 edit("src/cart.js", "sum + item.price * item.qty", "sum + item.price_cents * item.qty"),
                 edit("src/cart.js", "'合计：¥' + computeTotal(items).toFixed(2)", "'合计：¥' + (computeTotal(items) / 100).toFixed(2)"),
                 write("test/cart.test.js", CART_TEST),
                 bash("npm test", description="跑测试"),
                 reply("改好了，合计现在按 price_cents 累加，显示时再换算成元；test/cart.test.js 的两个用例过了。\n"
                       "记一下这个坑：接口里 price、threshold 这类字段都是带 ¥ 的展示字符串，只能拿来显示，"
                       "算钱一律用 *_cents 字段。")),
            turn("好。发版之前得把优惠券那块也一起改了，它也是拿展示字符串算的，满减现在肯定不对。",
                 read("src/coupon.js"),
                 reply("看了下确实是：applyCoupon 用 parseFloat('¥300.00')，结果是 NaN，比较永远不成立，满减根本不会生效。"
                       "这个等你说了再动。")),
        ], carry=[
            fact("topic", "NaN"),
            fact("files", "src/cart.js"), fact("files", "test/cart.test.js"),
            fact("pitfalls", "展示字符串", "cents"),
            fact("todos", "优惠券"),
        ]),
        session("mall-api", "扣减失败计数：走日志，踩 caplog 的坑", [
            turn("扣减失败的计数现在加吧。指标走日志就行，运维那边有现成的从日志聚合的看板，不用再上 Prometheus。",
                 read("mall_api/stock.py"),
                 edit("mall_api/stock.py", '"""库存扣减：下单和秒杀都走这里。"""\nimport sqlite3\n',
                      '"""库存扣减：下单和秒杀都走这里。"""\nimport logging\nimport sqlite3\n\n'
                      'log = logging.getLogger("mall_api.stock")\n'),
                 edit("mall_api/stock.py", "    conn.commit()\n    return cur.rowcount == 1\n",
                      "    conn.commit()\n    if cur.rowcount != 1:\n"
                      "        log.info(\"stock_deduct_failed sku=%s qty=%s\", sku, qty)\n        return False\n    return True\n"),
                 edit("tests/test_stock.py", "def test_never_below_zero():\n",
                      "def test_failed_deduction_is_logged(caplog):\n    conn = connect()\n"
                      "    conn.execute(\"INSERT INTO inventory VALUES ('SKU1', 0)\")\n"
                      "    assert not deduct(conn, \"SKU1\", 1)\n"
                      "    assert \"stock_deduct_failed sku=SKU1\" in caplog.text\n\n\n"
                      "def test_never_below_zero():\n"),
                 bash("python3 -m pytest -q", fails=True, description="跑测试"),
                 edit("tests/test_stock.py", "def test_failed_deduction_is_logged(caplog):\n    conn = connect()\n",
                      "def test_failed_deduction_is_logged(caplog):\n    caplog.set_level(logging.INFO, logger=\"mall_api.stock\")\n"
                      "    conn = connect()\n",
                      say="日志确实打了，但 caplog 没抓到：它默认跟着 root logger 的 WARNING 级别，INFO 被丢了。测试里要先 set_level。"),
                 edit("tests/test_stock.py", "from mall_api.db import connect\n", "import logging\n\nfrom mall_api.db import connect\n"),
                 bash("python3 -m pytest -q", description="再跑"),
                 reply("好了：每次没扣成功都会打一条 INFO 日志 `stock_deduct_failed sku=… qty=…`，运维那边按这个关键字聚合就能看到每场没抢到的人数。\n\n"
                       "中间踩了个坑：pytest 的 caplog 默认只抓 WARNING 及以上，INFO 日志测试里看不到，"
                       "要先 caplog.set_level(logging.INFO, logger=\"mall_api.stock\")。")),
        ], carry=[
            fact("topic", "扣减失败"),
            fact("files", "mall_api/stock.py"),
            fact("decisions", "日志", "Prometheus"),
            fact("reasons", "看板"),
            fact("pitfalls", "caplog"),
        ], finished=[fact("todos", "扣减失败", "计数")]),
        session("mall-web", "优惠券按分计算（上次的待办）", [
            turn("优惠券那块也改成用分来算吧",
                 read("src/coupon.js"),
                 edit("src/coupon.js",
                      "  if (totalCents / 100 >= parseFloat(coupon.threshold)) {\n"
                      "    return totalCents - parseFloat(coupon.discount) * 100;\n",
                      "  if (totalCents >= coupon.threshold_cents) {\n"
                      "    return totalCents - coupon.discount_cents;\n"),
                 write("test/coupon.test.js", COUPON_TEST),
                 bash("npm test", description="跑测试"),
                 reply("满减现在按 threshold_cents / discount_cents 算了，300 减 40 在门槛上正好生效、差一分不生效，两个用例都过了。"
                       "展示字符串已经不参与任何计算。")),
        ], carry=[
            fact("topic", "优惠券"),
            fact("files", "src/coupon.js"),
        ], finished=[fact("todos", "优惠券")]),
    ],
})


# =============================================================================================
# 5. zh-ledger-long — ledger (Chinese): a ~50-tool-call session, then one-liners, then work
# =============================================================================================

LEDGER_VARS = [  # module, constant, variable, default expression, settings field, type, usage
    ("db", "DB_URL", "LEDGER_DB_URL", '"sqlite:///ledger.db"', "db_url", "str", "engine_url"),
    ("export", "EXPORT_DIR", "LEDGER_EXPORT_DIR", '"/var/ledger/exports"', "export_dir", "str", "export_path"),
    ("mailer", "SMTP_HOST", "LEDGER_SMTP_HOST", '"localhost"', "smtp_host", "str", "smtp_server"),
    ("currency", "DEFAULT_CURRENCY", "LEDGER_CURRENCY", '"CNY"', "currency", "str", "currency_code"),
    ("report", "REPORT_TZ", "LEDGER_REPORT_TZ", '"Asia/Shanghai"', "report_tz", "str", "report_zone"),
    ("cache", "CACHE_TTL", "LEDGER_CACHE_TTL", '"300"', "cache_ttl", "int", "ttl"),
    ("audit", "AUDIT_ON", "LEDGER_AUDIT", '"1"', "audit", "bool", "audit_enabled"),
    ("backup", "KEEP_DAYS", "LEDGER_BACKUP_KEEP_DAYS", '"30"', "backup_keep_days", "int", "keep_days"),
    ("api", "API_PORT", "LEDGER_API_PORT", '"8080"', "api_port", "int", "port"),
    ("auth", "TOKEN_TTL", "LEDGER_TOKEN_TTL", '"3600"', "token_ttl", "int", "token_lifetime"),
    ("limits", "MAX_ENTRIES", "LEDGER_MAX_ENTRIES_PER_DAY", '"5000"', "max_entries_per_day", "int", "daily_cap"),
    ("sync", "SYNC_URL", "LEDGER_SYNC_URL", '""', "sync_url", "str", "sync_endpoint"),
]


def _ledger_read_expr(var, default, kind):
    raw = f'os.environ.get("{var}", {default})'
    return {"int": f"int({raw})", "bool": f"{raw} == \"1\""}.get(kind, raw)


def _ledger_module(module, const, var, default, kind, usage):
    return f'import os\n\n{const} = {_ledger_read_expr(var, default, kind)}\n\n\ndef {usage}():\n    return {const}\n'


LEDGER_SETTINGS = '"""All of ledger\'s configuration, read from LEDGER_* environment variables when first asked for."""\n' \
    'import os\nfrom dataclasses import dataclass\nfrom functools import lru_cache\n\n\n@dataclass(frozen=True)\nclass Settings:\n' + \
    "".join(f"    {field}: {kind}\n" for _m, _c, _v, _d, field, kind, _u in LEDGER_VARS) + \
    "\n\n@lru_cache(maxsize=1)\ndef get_settings() -> Settings:\n    return Settings(\n" + \
    "".join(f"        {field}={_ledger_read_expr(var, default, kind)},\n"
            for _m, _c, var, default, field, kind, _u in LEDGER_VARS) + "    )\n"

LEDGER_FILES = {
    "README.md": "# ledger\n\n记账服务。\n\n## 环境变量\n\n| 变量 | 默认值 |\n|---|---|\n"
                 "| LEDGER_DB_URL | sqlite:///ledger.db |\n| LEDGER_EXPORT_DIR | /var/ledger/exports |\n"
                 "| LEDGER_CURRENCY | CNY |\n| LEDGER_CACHE_TTL | 300 |\n| LEDGER_API_PORT | 8080 |\n",
    "ledger/__init__.py": "",
    **{f"ledger/{m}.py": _ledger_module(m, c, v, d, k, u) for m, c, v, d, _f, k, u in LEDGER_VARS},
    "tests/test_cache.py": "import importlib\n\nimport ledger.cache\n\n\ndef test_ttl_from_env(monkeypatch):\n"
                           "    monkeypatch.setenv(\"LEDGER_CACHE_TTL\", \"60\")\n    importlib.reload(ledger.cache)\n"
                           "    assert ledger.cache.ttl() == 60\n",
    "tests/test_currency.py": "import importlib\n\nimport ledger.currency\n\n\ndef test_currency_from_env(monkeypatch):\n"
                              "    monkeypatch.setenv(\"LEDGER_CURRENCY\", \"USD\")\n    importlib.reload(ledger.currency)\n"
                              "    assert ledger.currency.currency_code() == \"USD\"\n",
}


def _ledger_steps():
    steps = []
    for module, const, var, default, field, kind, _usage in LEDGER_VARS:
        path = f"ledger/{module}.py"
        steps += [read(path),
                  edit(path, f"import os\n\n{const} = {_ledger_read_expr(var, default, kind)}\n",
                       "from ledger.settings import get_settings\n"),
                  edit(path, f"    return {const}\n", f"    return get_settings().{field}\n")]
    return steps


LEDGER_TEST_FIX = {
    "tests/test_cache.py": ("import importlib\n\nimport ledger.cache\n", "import ledger.cache\nfrom ledger.settings import get_settings\n",
                            "    importlib.reload(ledger.cache)\n", "    get_settings.cache_clear()\n"),
    "tests/test_currency.py": ("import importlib\n\nimport ledger.currency\n",
                               "import ledger.currency\nfrom ledger.settings import get_settings\n",
                               "    importlib.reload(ledger.currency)\n", "    get_settings.cache_clear()\n"),
}

LEDGER_WORK = [
    fact("topic", "os.environ"),
    fact("files", "ledger/settings.py"), fact("files", "tests/conftest.py"),
    fact("decisions", "lru_cache"),
    fact("reasons", "import 时"),
    fact("pitfalls", "cache_clear"),
    fact("todos", "README", "环境变量"),
]

SCENARIOS.append({
    "id": "zh-ledger-long", "lang": "zh",
    "kinds": ["long-session", "decision", "reason", "pitfall", "indirect-todo", "trivial-sessions",
              "finished-by-assistant"],
    "about": "一次约 50 个工具调用的长会话：把 12 个模块里散落的 os.environ 收进 settings.py（get_settings + lru_cache），"
             "测试因为缓存踩坑、用户要求放进 conftest，最后“回头记得”更新 README 的环境变量表；之后三次一句话的会话"
             "（谢谢 / 一个问题 / 好），长会话的主题、文件、决定和待办不能被挤掉；第五次把 README 表更新了。",
    "projects": {"ledger": LEDGER_FILES},
    "sessions": [
        session("ledger", "长会话：配置收拢到 settings.py", [
            turn("把各个模块里直接读 os.environ 的配置统一收到 ledger/settings.py 里，现在散得到处都是，改个默认值要翻十几个文件",
                 bash("grep -rn \"os.environ\" ledger tests", description="先看有多少处",
                      say="先看看 os.environ 散在哪些地方。"),
                 write("ledger/settings.py", LEDGER_SETTINGS,
                       say="12 个模块各读一个 LEDGER_* 变量。做法：settings.py 里一个冻结的 Settings 数据类，"
                           "由 get_settings() 在第一次被调用时从环境变量读出来、用 lru_cache 缓存——而不是在 import 时就读成模块常量，"
                           "这样测试和 worker 在启动后改环境变量也能生效。各模块在用到时调用 get_settings()。"),
                 *_ledger_steps(),
                 bash("python3 -m pytest -q", fails=True, description="跑测试"),
                 read("tests/test_cache.py", say="test_currency 挂了：它改完 LEDGER_CURRENCY 以后 reload 了 ledger.currency，"
                                                 "但值现在来自 get_settings() 的缓存，reload 模块根本不会让它重新读。"),
                 read("tests/test_currency.py"),
                 *[edit(path, old_top, new_top) for path, (old_top, new_top, _o, _n) in LEDGER_TEST_FIX.items()],
                 *[edit(path, old, new) for path, (_a, _b, old, new) in LEDGER_TEST_FIX.items()],
                 bash("python3 -m pytest -q", description="再跑"),
                 bash("grep -rn \"os.environ\" ledger", description="确认只剩 settings.py"),
                 reply("收拢完了：\n"
                       "- 新增 ledger/settings.py：Settings 数据类 + get_settings()，第一次调用时读全部 12 个 LEDGER_* 变量，lru_cache 缓存；\n"
                       "- 12 个模块不再 import os，用到配置时调用 get_settings()；\n"
                       "- os.environ 现在只出现在 settings.py 里。\n\n"
                       "踩了个坑：测试里 monkeypatch 环境变量以后，必须调 get_settings.cache_clear()，否则拿到的还是缓存里的旧值；"
                       "原来那种 importlib.reload 模块的写法已经没用了。两个测试我先各自加了 cache_clear，现在都过了。")),
            turn("cache_clear 别让每个测试自己写，放 conftest 里统一处理",
                 write("tests/conftest.py", "import pytest\n\nfrom ledger.settings import get_settings\n\n\n"
                                            "@pytest.fixture(autouse=True)\ndef fresh_settings():\n"
                                            "    \"\"\"Every test reads the environment anew (get_settings caches).\"\"\"\n"
                                            "    get_settings.cache_clear()\n    yield\n    get_settings.cache_clear()\n"),
                 *[edit(path, "    get_settings.cache_clear()\n", "") for path in LEDGER_TEST_FIX],
                 bash("python3 -m pytest -q", description="跑测试"),
                 bash("git diff --stat", description="看看改了多少"),
                 reply("放进 tests/conftest.py 了：一个 autouse 的 fixture 在每个测试前后都 cache_clear，两个测试里手写的那行去掉了，"
                       "测试全过。这次一共动了 16 个文件：12 个模块、2 个测试，新增 settings.py 和 conftest.py。")),
            turn("行，先这样。回头记得把 README 里的环境变量表也更新一下，现在还是半年前那版，只写了 5 个。",
                 reply("好，README 那张表下次按 settings.py 里的 12 个变量更新。")),
        ], carry=LEDGER_WORK),
        session("ledger", "一句话：谢谢", [
            turn("谢谢", reply("不客气。")),
        ], carry=LEDGER_WORK),
        session("ledger", "一句话：问默认值", [
            turn("LEDGER_CACHE_TTL 默认多少来着？",
                 reply("300 秒，在 ledger/settings.py 的 get_settings() 里，没设环境变量时就用它。")),
        ], carry=LEDGER_WORK),
        session("ledger", "一句话：好", [
            turn("好", reply("好的。")),
        ], carry=LEDGER_WORK),
        session("ledger", "更新 README 的环境变量表", [
            turn("把 README 的环境变量表更新一下",
                 read("README.md"),
                 read("ledger/settings.py"),
                 edit("README.md",
                      "| LEDGER_DB_URL | sqlite:///ledger.db |\n| LEDGER_EXPORT_DIR | /var/ledger/exports |\n"
                      "| LEDGER_CURRENCY | CNY |\n| LEDGER_CACHE_TTL | 300 |\n| LEDGER_API_PORT | 8080 |\n",
                      "".join(f"| {var} | {default.strip(chr(34)) or '（空）'} |\n"
                              for _m, _c, var, default, _f, _k, _u in LEDGER_VARS)),
                 reply("README 里现在是 12 行，每个 LEDGER_* 变量和它的默认值都和 settings.py 对得上。"
                       "表上面再加一句：所有配置只在 ledger/settings.py 读取？")),
            turn("加吧",
                 edit("README.md", "## 环境变量\n\n", "## 环境变量\n\n所有配置只在 ledger/settings.py 里读取（get_settings()）。\n\n"),
                 reply("加上了。")),
        ], carry=[
            fact("topic", "README"),
            fact("files", "README.md"),
        ], finished=[fact("todos", "README", "环境变量")]),
    ],
})


# =============================================================================================
# 6. zh-notify-pitfalls — notify-worker (Chinese): pitfalls found the hard way
# =============================================================================================

NOTIFY_FILES = {
    "conftest.py": "",
    "worker/__init__.py": "",
    "worker/schedule.py": '''"""提醒推送的调度：算出下一次该发的时间。"""
from datetime import datetime, timedelta

SEND_HOUR = 8   # 每天早上 8 点（北京时间）


def next_send_time(now: datetime) -> datetime:
    target = now.replace(hour=SEND_HOUR, minute=0, second=0, microsecond=0)
    if target <= now:
        target += timedelta(days=1)
    return target
''',
    "worker/main.py": '''from datetime import datetime

from worker.schedule import next_send_time

CRON_CLEANUP = "0 3 * * *"       # 凌晨 3 点清理
CRON_REPORT = "30 9 * * 1-5"     # 工作日 9:30 日报


def plan():
    return next_send_time(datetime.utcnow())
''',
    "worker/cleanup.py": '''"""凌晨清理：删掉还留在 Redis 里、却忘了设过期时间的 token（ttl 为 -1）。"""


def purge_stale_tokens(r) -> int:
    stale = [key for key in r.keys("token:*") if r.ttl(key) == -1]
    if stale:
        r.delete(*stale)
    return len(stale)
''',
    "worker/report.py": '''"""每天的推送日报：统计“今天”发出去多少条。"""
from datetime import datetime


def report_date() -> str:
    return datetime.now().strftime("%Y-%m-%d")
''',
    "worker/fake_redis.py": '''"""In-memory stand-in for the redis client in tests: only what the worker uses."""
import fnmatch


class FakeRedis:
    def __init__(self, data=None):
        self.data = dict(data or {})    # key -> ttl
        self.calls = []

    def keys(self, pattern):
        self.calls.append(("keys", pattern))
        return [k for k in self.data if fnmatch.fnmatch(k, pattern)]

    def scan_iter(self, match=None, count=None):
        self.calls.append(("scan_iter", match, count))
        for k in list(self.data):
            if match is None or fnmatch.fnmatch(k, match):
                yield k

    def ttl(self, key):
        return self.data[key]

    def delete(self, *keys):
        for k in keys:
            self.data.pop(k, None)
''',
}

SCHEDULE_TEST = '''from datetime import datetime, timezone

import pytest

from worker.schedule import next_send_time


def test_eight_in_beijing_is_midnight_utc():
    now = datetime(2026, 3, 1, 20, 0, tzinfo=timezone.utc)      # 04:00 on 2 March in Beijing
    assert next_send_time(now).astimezone(timezone.utc) == datetime(2026, 3, 2, 0, 0, tzinfo=timezone.utc)


def test_naive_time_is_refused():
    with pytest.raises(ValueError):
        next_send_time(datetime(2026, 3, 1, 8, 0))
'''

CLEANUP_TEST = '''from worker.cleanup import purge_stale_tokens
from worker.fake_redis import FakeRedis


def test_only_tokens_without_expiry_are_removed():
    r = FakeRedis({"token:a": -1, "token:b": 120, "session:x": -1})
    assert purge_stale_tokens(r) == 1
    assert set(r.data) == {"token:b", "session:x"}


def test_scans_in_batches_of_500():
    r = FakeRedis({"token:a": -1})
    purge_stale_tokens(r)
    assert r.calls[0] == ("scan_iter", "token:*", 500)
    assert all(call[0] != "keys" for call in r.calls)
'''

SCENARIOS.append({
    "id": "zh-notify-pitfalls", "lang": "zh",
    "kinds": ["pitfall", "indirect-todo", "decision-in-conversation", "reason", "read-only-qa"],
    "about": "推送 worker：早上 8 点的提醒下午 4 点才发（utcnow 的时区坑），用户顺口说“有空的话”把 cron 挪到配置；"
             "下次 Redis 被 KEYS 卡住，助手问每批多少、用户选 500 并说理由；最后一次只读排查时区隐患，用户说下周自己改。",
    "projects": {"notify-worker": NOTIFY_FILES},
    "sessions": [
        session("notify-worker", "8 点提醒晚了 8 小时：utcnow 的坑", [
            turn("每天早上 8 点的提醒推送，昨天下午 4 点才发出去，用户投诉了。你看看 worker/schedule.py",
                 read("worker/schedule.py"),
                 read("worker/main.py"),
                 bash("TZ=UTC python3 -c \"from worker.main import plan; print('next send:', plan())\"",
                      description="在 UTC 的机器上看下一次发送时间"),
                 reply("找到了：main.py 拿 datetime.utcnow() 当“现在”，schedule 再在它上面取 8 点——那是 UTC 的 8 点，"
                       "也就是北京时间下午 4 点。服务器是 UTC，正好差 8 小时。\n"
                       "改法：next_send_time 只接受带时区的时间，内部换算到 Asia/Shanghai 再取 8 点；不带时区的直接报错。")),
            turn("改吧，顺便加个测试，别再出这种事",
                 edit("worker/schedule.py", "from datetime import datetime, timedelta\n\nSEND_HOUR = 8   # 每天早上 8 点（北京时间）\n",
                      "from datetime import datetime, timedelta\nfrom zoneinfo import ZoneInfo\n\n"
                      "SEND_HOUR = 8   # 每天早上 8 点（北京时间）\nBEIJING = ZoneInfo(\"Asia/Shanghai\")\n"),
                 edit("worker/schedule.py",
                      "    target = now.replace(hour=SEND_HOUR, minute=0, second=0, microsecond=0)\n"
                      "    if target <= now:\n",
                      "    if now.tzinfo is None:\n        raise ValueError(\"next_send_time needs an aware datetime\")\n"
                      "    local = now.astimezone(BEIJING)\n"
                      "    target = local.replace(hour=SEND_HOUR, minute=0, second=0, microsecond=0)\n"
                      "    if target <= local:\n"),
                 edit("worker/main.py", "from datetime import datetime\n", "from datetime import datetime, timezone\n"),
                 edit("worker/main.py", "next_send_time(datetime.utcnow())", "next_send_time(datetime.now(timezone.utc))"),
                 write("tests/test_schedule.py", SCHEDULE_TEST),
                 bash("python3 -m pytest -q", description="跑测试"),
                 bash("TZ=UTC python3 -c \"from worker.main import plan; print('next send:', plan())\"",
                      description="再看一次"),
                 reply("改好了，下一次发送现在是北京时间 08:00（+08:00）。tests/test_schedule.py 两个用例："
                       "UTC 晚上 8 点算出来是北京时间第二天 8 点；不带时区的时间会被拒绝。\n\n"
                       "这个坑记一下：服务器和容器都是 UTC，datetime.utcnow() 返回的是不带时区的 UTC 时间，"
                       "跟按北京时间定的“8 点”混着比就差 8 小时。凡是按北京时间定的任务，都用带时区的 datetime 加 ZoneInfo。")),
            turn("好。另外 cron 表达式现在散在代码里好几处，有空的话挪到 config/jobs.toml 里集中管。",
                 reply("好，记下了，这次不动。")),
        ], carry=[
            fact("topic", "提醒", "8 点"),
            fact("files", "worker/schedule.py"), fact("files", "worker/main.py"), fact("files", "tests/test_schedule.py"),
            fact("decisions", "带时区"),
            fact("pitfalls", "utcnow"),
            fact("todos", "cron", "jobs.toml"),
        ]),
        session("notify-worker", "Redis 被 KEYS 卡住：SCAN 每批 500", [
            turn("凌晨清理过期 token 的任务一跑，Redis 就卡 3 秒，监控上一个大尖刺，看下 worker/cleanup.py",
                 read("worker/cleanup.py"),
                 reply("罪魁是 r.keys('token:*')：KEYS 一次性遍历整个库，Redis 又是单线程，几百万个 key 的时候这几秒里别的请求全被卡住。\n"
                       "换成 SCAN 分批遍历（scan_iter），每批的 count 可以调：批小，对线上的影响小但总耗时长；批大反过来。"
                       "你想每批多少，500 还是 5000？")),
            turn("500 吧，慢点没关系，凌晨跑完就行，别影响线上。",
                 edit("worker/cleanup.py", 'r.keys("token:*")', 'r.scan_iter(match="token:*", count=500)'),
                 write("tests/test_cleanup.py", CLEANUP_TEST),
                 bash("python3 -m pytest -q", description="跑测试"),
                 bash("grep -rn \"\\.keys(\" worker --include=*.py | grep -v fake_redis || echo 'no KEYS left'",
                      description="确认没有别的地方用 KEYS"),
                 reply("改成 scan_iter(match='token:*', count=500) 了，测试里用 FakeRedis 确认了走的是 SCAN、每批 500，"
                       "而且不会再调 keys。别的地方也没有用 KEYS 的了。\n\n"
                       "踩坑记录：生产上任何地方都不要用 KEYS，哪怕是凌晨的任务；要遍历就用 SCAN。")),
        ], carry=[
            fact("topic", "Redis", "token"),
            fact("files", "worker/cleanup.py"), fact("files", "tests/test_cleanup.py"),
            fact("decisions", "SCAN", "500"),
            fact("reasons", "线上"),
            fact("pitfalls", "KEYS", "生产"),
            fact("todos", "cron", "jobs.toml"),
        ]),
        session("notify-worker", "只读：还有哪里会踩时区坑", [
            turn("上次那个时区的坑，除了 schedule.py，别的地方还有没有会踩的？只看不改。",
                 bash("grep -rn \"utcnow\\|datetime.now(\" worker", description="找取当前时间的地方"),
                 read("worker/report.py"),
                 reply("还有一处：worker/report.py 用不带时区的 datetime.now() 取“今天”。服务器是 UTC，"
                       "北京时间 0 点到 8 点之间生成的日报，日期会是前一天。main.py 那处已经是 datetime.now(timezone.utc) 了，没问题。")),
            turn("行，report.py 那个下周我自己改。",
                 reply("好。")),
        ], carry=[
            fact("topic", "时区"),
            fact("todos", "report.py"),
            fact("todos", "cron", "jobs.toml"),
        ]),
    ],
})


# =============================================================================================
# 7. zh-weekly-report — bi-report (Chinese)
# =============================================================================================

REFUND_ROWS = [("2026-11-13", "客服部", "120.00"), ("2026-11-17", "财务部", "35.50"), ("2026-11-19", "客服部", "88.00"),
               ("2026-11-19", "市场/品牌", "200.00"), ("2026-11-20", "渠道部", "15.25"), ("2026-11-21", "客服部", "42.75"),
               ("2026-11-23", "财务部", "9.90"), ("2026-11-24", "市场/品牌", "61.10"), ("2026-11-25", "渠道部", "300.00")]

BI_FILES = {
    "conftest.py": "",
    "report/__init__.py": "",
    "report/source.py": '''"""退款明细：从导出的 CSV 读出 date / dept / amount。"""
import csv
from datetime import date
from decimal import Decimal


def load_refunds(path):
    with open(path, encoding="utf-8") as fh:
        return [{"date": date.fromisoformat(r["date"]), "dept": r["dept"], "amount": Decimal(r["amount"])}
                for r in csv.DictReader(fh)]
''',
    "data/refunds_sample.csv": "date,dept,amount\n" + "".join(f"{d},{p},{a}\n" for d, p, a in REFUND_ROWS),
}

WEEKLY_PY = '''"""退款周报：按财务结账周（周四到下周三）汇总每天的退款金额，写成给 Excel 看的 CSV。"""
import argparse
import csv
import os
from collections import defaultdict
from datetime import timedelta
from decimal import Decimal

from report.source import load_refunds


def week_start(day):
    """The Thursday that opens the finance week holding ``day``."""
    return day - timedelta(days=(day.weekday() - 3) % 7)


def daily_totals(rows):
    totals = defaultdict(Decimal)
    for row in rows:
        totals[row["date"]] += row["amount"]
    return dict(sorted(totals.items()))


def write_report(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["日期", "退款金额"])
        for day, amount in daily_totals(rows).items():
            writer.writerow([day.isoformat(), f"{amount:.2f}"])
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("source", help="退款明细 CSV")
    parser.add_argument("--out", default="out", help="输出目录")
    args = parser.parse_args(argv)
    rows = load_refunds(args.source)
    start = week_start(max(r["date"] for r in rows))
    week = [r for r in rows if start <= r["date"] < start + timedelta(days=7)]
    print(write_report(os.path.join(args.out, f"weekly_{start}.csv"), week))


if __name__ == "__main__":
    main()
'''

WEEKLY_TEST = '''from datetime import date
from decimal import Decimal

from report.weekly import daily_totals, week_start


def test_finance_week_starts_on_thursday():
    assert week_start(date(2026, 11, 25)) == date(2026, 11, 19)   # a Wednesday
    assert week_start(date(2026, 11, 19)) == date(2026, 11, 19)


def test_daily_totals_add_up_per_day():
    rows = [{"date": date(2026, 11, 20), "dept": "客服部", "amount": Decimal("10.50")},
            {"date": date(2026, 11, 20), "dept": "财务部", "amount": Decimal("4.50")}]
    assert daily_totals(rows) == {date(2026, 11, 20): Decimal("15.00")}
'''

SCENARIOS.append({
    "id": "zh-weekly-report", "lang": "zh",
    "kinds": ["decision-in-conversation", "reason", "pitfall", "indirect-todo", "finished-by-user",
              "finished-by-assistant", "negated-completion", "trivial-question"],
    "about": "退款周报：助手问按自然周还是结账周、用户选结账周并说理由；Excel 打开乱码（BOM 的坑）；用户交代“还需要”按部门拆、"
             "发之前先和台账对数。下次用户说对过数了，助手拆完部门却发现带斜杠的部门名没处理（否定式未完成）；"
             "第三次补上；最后一句话问输出目录。",
    "projects": {"bi-report": BI_FILES},
    "sessions": [
        session("bi-report", "周报：结账周、BOM 乱码、交代两件事", [
            turn("财务要一个每周的退款周报：按天汇总退款金额，导出来他们用 Excel 看。数据从 report/source.py 里取",
                 read("report/source.py"),
                 bash("head -5 data/refunds_sample.csv", description="看下明细长什么样"),
                 reply("明细里有日期、部门、金额。先确认一件事：周报的“一周”按哪个算——自然周（周一到周日），"
                       "还是财务的结账周（周四到下周三）？两种算出来的周汇总不一样。")),
            turn("按结账周，财务每周四关账，按自然周出的数对不上，会被打回来。",
                 write("report/weekly.py", WEEKLY_PY),
                 write("tests/test_weekly.py", WEEKLY_TEST),
                 bash("python3 -m pytest -q", description="跑测试"),
                 bash("python3 -m report.weekly data/refunds_sample.csv && cat out/weekly_*.csv", description="用样例数据跑一次"),
                 reply("写好了：report/weekly.py 按结账周（周四开头）取最近一周，逐日汇总金额，输出 out/weekly_<周四日期>.csv；"
                       "用样例数据跑出来是 2026-11-19 这一周。tests/test_weekly.py 覆盖了周四起算和逐日汇总。")),
            turn("我用 Excel 打开，中文全是乱码",
                 bash("head -c 3 out/weekly_*.csv | od -c | head -1", description="看文件开头有没有 BOM"),
                 read("report/weekly.py"),
                 edit("report/weekly.py", 'open(path, "w", newline="", encoding="utf-8")',
                      'open(path, "w", newline="", encoding="utf-8-sig")'),
                 edit("tests/test_weekly.py", "from report.weekly import daily_totals, week_start\n",
                      "from report.weekly import daily_totals, week_start, write_report\n"),
                 edit("tests/test_weekly.py", '    assert daily_totals(rows) == {date(2026, 11, 20): Decimal("15.00")}\n',
                      '    assert daily_totals(rows) == {date(2026, 11, 20): Decimal("15.00")}\n\n\n'
                      'def test_file_starts_with_a_bom_for_excel(tmp_path):\n'
                      '    path = write_report(str(tmp_path / "w.csv"), [])\n'
                      '    assert open(path, "rb").read(3) == b"\\xef\\xbb\\xbf"\n'),
                 bash("python3 -m pytest -q && python3 -m report.weekly data/refunds_sample.csv && "
                      "head -c 3 out/weekly_*.csv | od -c | head -1", description="再跑，看开头"),
                 reply("原因：Excel 打开没有 BOM 的 UTF-8 CSV 时按系统编码（中文 Windows 上是 GBK）解析，中文就乱了。"
                       "改成用 utf-8-sig 写文件，开头多了 BOM（ef bb bf），Excel 就能认出是 UTF-8。加了一个测试守住这点。\n"
                       "这个坑以后所有给 Excel 打开的 CSV 都一样。")),
            turn("好了。还需要按部门拆开，每个部门一个文件，各部门只看自己的。另外发给财务之前，先拿上周的数据跑一遍，跟他们的台账对一下数。",
                 reply("好，两件都记下：按部门拆文件；发之前用上周数据跟财务台账对一遍。")),
        ], carry=[
            fact("topic", "周报"),
            fact("files", "report/weekly.py"), fact("files", "tests/test_weekly.py"),
            fact("decisions", "结账周"),
            fact("reasons", "关账"),
            fact("pitfalls", "BOM"),
            fact("todos", "按部门"),
            fact("todos", "台账"),
        ]),
        session("bi-report", "用户对过数；按部门拆，带斜杠的部门没处理", [
            turn("上周的数据我自己跑过了，跟财务台账对上了，一分不差。现在按部门拆吧。",
                 read("report/weekly.py"),
                 edit("report/weekly.py", "\n\ndef main(argv=None):",
                      "\n\ndef write_by_dept(out, start, rows):\n    written = []\n"
                      "    for dept in sorted({r[\"dept\"] for r in rows}):\n"
                      "        mine = [r for r in rows if r[\"dept\"] == dept]\n"
                      "        written.append(write_report(os.path.join(out, f\"weekly_{start}_{dept}.csv\"), mine))\n"
                      "    return written\n\n\ndef main(argv=None):"),
                 edit("report/weekly.py", '    print(write_report(os.path.join(args.out, f"weekly_{start}.csv"), week))\n',
                      '    for path in write_by_dept(args.out, start, week):\n        print(path)\n'),
                 bash("rm -rf out && python3 -m report.weekly data/refunds_sample.csv && ls -R out", description="跑一次看输出"),
                 reply("拆出来了，但有个问题：部门“市场/品牌”里的斜杠被当成了目录分隔符，生成了一个叫 weekly_2026-11-19_市场 的目录，"
                       "里面是 品牌.csv。其他部门的文件都正常。")),
            turn("今天要先把其他部门的发出去，斜杠那个回头再说，先别生成它。",
                 edit("report/weekly.py", "        mine = [r for r in rows if r[\"dept\"] == dept]\n",
                      "        if \"/\" in dept:\n            print(f\"skipped {dept}: a slash in the name\")\n            continue\n"
                      "        mine = [r for r in rows if r[\"dept\"] == dept]\n"),
                 bash("rm -rf out && python3 -m report.weekly data/refunds_sample.csv && ls out", description="再跑"),
                 bash("python3 -m pytest -q", description="跑测试"),
                 reply("其他 3 个部门（客服部、渠道部、财务部）的文件都出来了，可以先发。"
                       "市场/品牌 这次被跳过了：名字带斜杠的部门还没处理，这块不算完成，回头得补上。")),
        ], carry=[
            fact("topic", "部门"),
            fact("files", "report/weekly.py"),
            fact("todos", "斜杠"),
        ], finished=[fact("todos", "按部门"), fact("todos", "台账")]),
        session("bi-report", "补上带斜杠的部门名", [
            turn("斜杠那个弄一下吧，市场部说名字不改",
                 read("report/weekly.py"),
                 edit("report/weekly.py",
                      "        if \"/\" in dept:\n            print(f\"skipped {dept}: a slash in the name\")\n            continue\n", ""),
                 edit("report/weekly.py", 'os.path.join(out, f"weekly_{start}_{dept}.csv")',
                      'os.path.join(out, f"weekly_{start}_{dept.replace(\'/\', \'-\')}.csv")'),
                 bash("rm -rf out && python3 -m report.weekly data/refunds_sample.csv && ls out && python3 -m pytest -q",
                      description="跑一次，再跑测试"),
                 reply("部门名里的 / 现在换成 - 再当文件名（weekly_2026-11-19_市场-品牌.csv），文件里的内容不变。"
                       "4 个部门的文件都出来了，测试也过了。")),
        ], carry=[
            fact("topic", "斜杠"),
            fact("files", "report/weekly.py"),
        ], finished=[fact("todos", "斜杠")]),
        session("bi-report", "一句话问题：输出目录", [
            turn("周报默认输出到哪个目录来着？",
                 reply("默认写到 out/ 下面，文件名是 weekly_<结账周周四>_<部门>.csv，可以用 --out 换目录。")),
        ]),
    ],
})


# =============================================================================================
# 8. en-linkstash-sqlite — linkstash (English)
# =============================================================================================

LINKSTASH_FILES = {
    "README.md": "# linkstash\n\nA tiny bookmark manager for the terminal.\n\n    python3 -m linkstash add URL\n"
                 "    python3 -m linkstash list\n",
    "linkstash/__init__.py": "",
    "linkstash/__main__.py": "from linkstash.cli import main\n\nmain()\n",
    "linkstash/store_json.py": '''"""Bookmarks in one JSON file: load it, change the list, write it back."""
import json
import os

PATH = os.environ.get("LINKSTASH_JSON", os.path.expanduser("~/.linkstash.json"))


def load():
    if not os.path.exists(PATH):
        return []
    with open(PATH, encoding="utf-8") as fh:
        return json.load(fh)


def add(url, title=""):
    items = load()
    items.append({"url": url, "title": title})
    with open(PATH, "w", encoding="utf-8") as fh:
        json.dump(items, fh)
''',
    "linkstash/cli.py": '''import argparse

from linkstash import store_json as store


def main(argv=None):
    parser = argparse.ArgumentParser(prog="linkstash")
    sub = parser.add_subparsers(dest="cmd", required=True)
    add = sub.add_parser("add")
    add.add_argument("url")
    add.add_argument("--title", default="")
    sub.add_parser("list")
    args = parser.parse_args(argv)
    if args.cmd == "add":
        store.add(args.url, args.title)
    else:
        for item in store.load():
            print(item["url"])
''',
}

LINKSTASH_STORE = '''"""Bookmarks in SQLite: one INSERT per add, so concurrent `linkstash add` runs never lose one."""
import os
import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS bookmarks (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    added TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);
"""


def default_path():
    return os.environ.get("LINKSTASH_DB", os.path.expanduser("~/.local/share/linkstash.db"))


def connect(path=None):
    path = path or default_path()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    conn = sqlite3.connect(path, timeout=10)
    conn.executescript(SCHEMA)
    return conn


def add(url, title="", path=None):
    with connect(path) as conn:
        conn.execute("INSERT INTO bookmarks (url, title) VALUES (?, ?)", (url, title))


def load(path=None):
    with connect(path) as conn:
        return [{"url": u, "title": t} for u, t in conn.execute("SELECT url, title FROM bookmarks ORDER BY id")]
'''

LINKSTASH_STORE_TEST = '''import threading

from linkstash import store


def test_parallel_adds_all_land(tmp_path):
    db = str(tmp_path / "b.db")
    threads = [threading.Thread(target=store.add, args=(f"https://example.com/{i}",), kwargs={"path": db})
               for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(store.load(db)) == 20
'''

LINKSTASH_TAGS_TEST = '''from linkstash import store


def test_list_by_tag(tmp_path):
    db = str(tmp_path / "b.db")
    store.add("https://docs.python.org", tags=["python"], path=db)
    store.add("https://nodejs.org", tags=["js"], path=db)
    assert [b["url"] for b in store.load(db, tag="python")] == ["https://docs.python.org"]


def test_deleting_a_bookmark_drops_its_tags(tmp_path):
    db = str(tmp_path / "b.db")
    store.add("https://docs.python.org", tags=["python"], path=db)
    store.delete("https://docs.python.org", path=db)
    with store.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tags").fetchone()[0] == 0
'''

SCENARIOS.append({
    "id": "en-linkstash-sqlite", "lang": "en",
    "kinds": ["decision-in-conversation", "reason", "indirect-todo", "continue-session", "finished-by-assistant",
              "pitfall", "read-only-qa"],
    "about": "Lost bookmarks under concurrent adds: two options, the user picks SQLite with a reason; 'Next time we "
             "should add tags'. The next session only says 'pick up where we left off'; tags get done in other words, "
             "the foreign-key pitfall is found the hard way, a new to-do is stated. Last: a read-only question.",
    "projects": {"linkstash": LINKSTASH_FILES},
    "sessions": [
        session("linkstash", "lost bookmarks → SQLite", [
            turn("When I run two `linkstash add` at the same time from my import script, one of the bookmarks just "
                 "disappears. Can you look at how we store things?",
                 read("linkstash/store_json.py"),
                 read("linkstash/cli.py"),
                 reply("Found it. store_json.add() loads the whole JSON file, appends, and writes the whole list back, "
                       "with no lock. Two processes both load the same list, each appends its own bookmark, and whoever "
                       "writes last wins — the other bookmark is gone.\n\nTwo ways out:\n"
                       "1. Keep the JSON file, but take an fcntl lock around load+write and write through a temp file + rename.\n"
                       "2. Move to SQLite: one INSERT per add, the database serialises writers, and we get queries "
                       "(filtering, search) for free later.\n\nWhich do you prefer?")),
            turn("SQLite. I'm not hand-rolling file locking again — did that in my last project and it bit me on NFS.",
                 write("linkstash/store.py", LINKSTASH_STORE),
                 edit("linkstash/cli.py", "from linkstash import store_json as store\n", "from linkstash import store\n"),
                 write("tests/test_store.py", LINKSTASH_STORE_TEST),
                 bash("python3 -m pytest -q", description="Run the tests"),
                 bash("export LINKSTASH_DB=$PWD/demo.db; for i in $(seq 1 20); do python3 -m linkstash add "
                      "https://example.com/$i & done; wait; python3 -m linkstash list | wc -l; rm -f demo.db",
                      description="20 adds in parallel, count what landed"),
                 reply("Switched over:\n- linkstash/store.py: SQLite at ~/.local/share/linkstash.db (LINKSTASH_DB overrides), "
                       "one INSERT per add, 10 s busy timeout so parallel writers wait instead of failing;\n"
                       "- linkstash/cli.py now uses it;\n- tests/test_store.py adds 20 bookmarks from 20 threads and expects 20.\n\n"
                       "The shell check — 20 `linkstash add` processes at once — lists all 20. store_json.py is unused now; "
                       "I left it in place so you can import your old file.")),
            turn("Nice. Next time we should add tags — the Pocket export I want to bring in has them, and I'd like "
                 "`linkstash list -t python`.",
                 reply("Makes sense — I'll leave that for the next session.")),
        ], carry=[
            fact("topic", "bookmark*"),
            fact("files", "linkstash/store.py"), fact("files", "linkstash/cli.py"), fact("files", "tests/test_store.py"),
            fact("decisions", "SQLite"),
            fact("reasons", "NFS"),
            fact("todos", "tags"),
        ]),
        session("linkstash", "'pick up where we left off': tags, the foreign-key pitfall", [
            turn("let's pick up where we left off",
                 read("linkstash/store.py", say="Last time tags were left for later, so I'll start there."),
                 reply("Plan for tags: a `tags` table (bookmark_id, name) with a foreign key to bookmarks and "
                       "ON DELETE CASCADE, so deleting a bookmark drops its tags; `-t/--tag` (repeatable) on add, "
                       "and `-t` to filter list. Tag names stored lower-case. OK?")),
            turn("go",
                 edit("linkstash/store.py", '    added TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP\n);\n"""\n',
                      '    added TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP\n);\n'
                      'CREATE TABLE IF NOT EXISTS tags (\n'
                      '    bookmark_id INTEGER NOT NULL REFERENCES bookmarks(id) ON DELETE CASCADE,\n'
                      '    name TEXT NOT NULL,\n    PRIMARY KEY (bookmark_id, name)\n);\n"""\n'),
                 edit("linkstash/store.py",
                      'def add(url, title="", path=None):\n    with connect(path) as conn:\n'
                      '        conn.execute("INSERT INTO bookmarks (url, title) VALUES (?, ?)", (url, title))\n',
                      'def add(url, title="", tags=(), path=None):\n    with connect(path) as conn:\n'
                      '        cur = conn.execute("INSERT INTO bookmarks (url, title) VALUES (?, ?)", (url, title))\n'
                      '        conn.executemany("INSERT OR IGNORE INTO tags (bookmark_id, name) VALUES (?, ?)",\n'
                      '                         [(cur.lastrowid, t.lower()) for t in tags])\n'),
                 edit("linkstash/store.py",
                      'def load(path=None):\n    with connect(path) as conn:\n'
                      '        return [{"url": u, "title": t} for u, t in conn.execute("SELECT url, title FROM bookmarks ORDER BY id")]\n',
                      'def load(path=None, tag=None):\n    with connect(path) as conn:\n        if tag:\n'
                      '            rows = conn.execute("SELECT b.url, b.title FROM bookmarks b JOIN tags t ON t.bookmark_id = b.id "\n'
                      '                                "WHERE t.name = ? ORDER BY b.id", (tag.lower(),))\n'
                      '        else:\n            rows = conn.execute("SELECT url, title FROM bookmarks ORDER BY id")\n'
                      '        return [{"url": u, "title": t} for u, t in rows]\n\n\n'
                      'def delete(url, path=None):\n    with connect(path) as conn:\n'
                      '        conn.execute("DELETE FROM bookmarks WHERE url = ?", (url,))\n'),
                 read("linkstash/cli.py"),
                 edit("linkstash/cli.py", '    add.add_argument("--title", default="")\n    sub.add_parser("list")\n',
                      '    add.add_argument("--title", default="")\n'
                      '    add.add_argument("-t", "--tag", action="append", default=[], help="a tag (repeatable)")\n'
                      '    listing = sub.add_parser("list")\n    listing.add_argument("-t", "--tag", help="only bookmarks with this tag")\n'),
                 edit("linkstash/cli.py", "        store.add(args.url, args.title)\n    else:\n        for item in store.load():\n",
                      "        store.add(args.url, args.title, tags=args.tag)\n    else:\n        for item in store.load(tag=args.tag):\n"),
                 write("tests/test_tags.py", LINKSTASH_TAGS_TEST),
                 bash("python3 -m pytest -q", fails=True, description="Run the tests"),
                 edit("linkstash/store.py", "    conn = sqlite3.connect(path, timeout=10)\n",
                      "    conn = sqlite3.connect(path, timeout=10)\n"
                      "    conn.execute(\"PRAGMA foreign_keys = ON\")   # off by default, per connection\n",
                      say="The cascade never fired: SQLite ships with foreign-key enforcement OFF, per connection. "
                          "It has to be switched on every time we connect."),
                 bash("python3 -m pytest -q", description="Run the tests again"),
                 bash("export LINKSTASH_DB=$PWD/demo.db; python3 -m linkstash add https://docs.python.org -t python && "
                      "python3 -m linkstash add https://nodejs.org -t js && python3 -m linkstash list -t python; rm -f demo.db",
                      description="Try it from the shell"),
                 reply("Tags work now: `linkstash add URL -t python -t cli` stores them, `linkstash list -t python` filters, "
                       "and deleting a bookmark drops its tags. tests/test_tags.py covers both.\n\n"
                       "Gotcha worth remembering: SQLite leaves foreign keys OFF unless every connection runs "
                       "`PRAGMA foreign_keys = ON` — without it ON DELETE CASCADE silently does nothing and orphan tags pile up.")),
            turn("Great. The Pocket import comes after that — it's one big HTML file. Not today though.",
                 reply("Got it, the Pocket HTML import is the next piece; nothing more today.")),
        ], carry=[
            fact("topic", "tags"),
            fact("files", "linkstash/store.py"), fact("files", "tests/test_tags.py"),
            fact("decisions", "cascade"),
            fact("pitfalls", "foreign_keys"),
            fact("todos", "Pocket", "HTML"),
        ], finished=[fact("todos", "tags")]),
        session("linkstash", "read-only: backing up the database", [
            turn("What's the safe way to make a backup of the bookmarks db? Just cp the file?",
                 bash("python3 -c \"from linkstash.store import default_path; print(default_path())\"",
                      description="Where the database lives"),
                 reply("Don't cp it while something might be writing — you can copy a half-written page. Use SQLite's own "
                       "online backup instead:\n\n    sqlite3 ~/.local/share/linkstash.db \".backup linkstash-backup.db\"\n\n"
                       "It takes a consistent snapshot even if a `linkstash add` runs at the same time.")),
        ], carry=[
            fact("topic", "backup"),
            fact("todos", "Pocket", "HTML"),
        ]),
    ],
})


# =============================================================================================
# 9. en-invoice-rounding — invoicer (English)
# =============================================================================================

INVOICER_FILES = {
    "conftest.py": "",
    "invoicer/__init__.py": "",
    "invoicer/money.py": '''from decimal import Decimal, ROUND_HALF_EVEN

CENT = Decimal("0.01")


def to_money(value) -> Decimal:
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_EVEN)
''',
    "invoicer/invoice.py": '''from decimal import Decimal

from invoicer.money import to_money

VAT = Decimal("0.19")


def line_total(qty, unit_price):
    return to_money(Decimal(qty) * Decimal(unit_price))


def invoice_total(lines):
    net = sum((line_total(line["qty"], line["unit_price"]) for line in lines), Decimal("0"))
    return to_money(net * (1 + VAT))
''',
    "invoicer/credit_note.py": '''"""Credit notes (negative invoices)."""


def credit_total(lines):
    net = sum(line["qty"] * float(line["unit_price"]) for line in lines)
    return -round(net * 1.19, 2)
''',
    "invoicer/pdf.py": '''"""Invoice PDF body: one text line per invoice line (the renderer draws these)."""


def render_lines(lines):
    return [f"{line['qty']:>4} x {line['description']:<30} {line['unit_price']:>10}" for line in lines]
''',
    "tests/test_invoice.py": '''from decimal import Decimal

from invoicer.invoice import invoice_total


def test_total_with_vat():
    assert invoice_total([{"qty": 2, "unit_price": "10.00"}]) == Decimal("23.80")
''',
}

MONEY_TEST = '''from decimal import Decimal

from invoicer.money import to_money


def test_half_up_from_a_string():
    assert to_money("2.665") == Decimal("2.67")


def test_half_up_from_a_float():
    assert to_money(1.005) == Decimal("1.01")
'''

PDF_TEST = '''from invoicer.pdf import render_lines


def test_zero_quantity_lines_are_left_out():
    lines = [{"qty": 2, "description": "Widget", "unit_price": "9.99"},
             {"qty": 0, "description": "Cancelled item", "unit_price": "5.00"}]
    out = render_lines(lines)
    assert len(out) == 1 and "Widget" in out[0]
'''

CREDIT_NOTE = '''"""Credit notes (negative invoices): the same Decimal helpers and half-up rounding as invoices."""
from decimal import Decimal

from invoicer.invoice import VAT, line_total
from invoicer.money import to_money


def credit_total(lines):
    net = sum((line_total(-abs(Decimal(str(line["qty"]))), line["unit_price"]) for line in lines), Decimal("0"))
    return to_money(net * (1 + VAT))
'''

CREDIT_TEST = '''from invoicer.credit_note import credit_total
from invoicer.invoice import invoice_total


def test_a_credit_note_mirrors_the_invoice_to_the_cent():
    lines = [{"qty": 3, "unit_price": "0.885"}]
    assert credit_total(lines) == -invoice_total(lines)
'''

SCENARIOS.append({
    "id": "en-invoice-rounding", "lang": "en",
    "kinds": ["decision-in-conversation", "reason", "pitfall", "indirect-todo", "finished-by-user",
              "negated-completion", "continue-session", "finished-by-assistant", "trivial-sessions"],
    "about": "Off-by-a-cent VAT: the assistant lays out half-even vs half-up, the user picks half-up because of the "
             "tax office; Decimal-from-float pitfall; 'Remember to re-issue the 214 March invoices'. Next session the "
             "user says finance did it; the assistant flags that credit notes are not handled yet. A bare 'continue' "
             "session fixes credit notes, then a 'great, thanks'.",
    "projects": {"invoicer": INVOICER_FILES},
    "sessions": [
        session("invoicer", "half-up rounding; float pitfall", [
            turn("A customer says invoice INV-2291 is off by a cent: a VAT amount of 2.665 shows as 2.66, their "
                 "accounting software says 2.67. Can you check the rounding in invoicer/money.py?",
                 read("invoicer/money.py"),
                 bash("python3 -c \"from decimal import Decimal, ROUND_HALF_EVEN, ROUND_HALF_UP; d = Decimal('2.665'); "
                      "print('half-even:', d.quantize(Decimal('0.01'), ROUND_HALF_EVEN), "
                      "'half-up:', d.quantize(Decimal('0.01'), ROUND_HALF_UP))\"",
                      description="Compare the two rounding rules"),
                 reply("Confirmed: to_money rounds half-to-even (banker's rounding), so 2.665 becomes 2.66. Rounding "
                       "half-up gives 2.67.\n\nBoth are defensible: half-even is Python's default and doesn't drift "
                       "upwards over millions of sums; half-up is what people and most accounting software expect on "
                       "a document. Which rule should invoices follow?")),
            turn("Half-up. That's what the tax office expects on invoices — we've had this argument with them before.",
                 edit("invoicer/money.py", "from decimal import Decimal, ROUND_HALF_EVEN\n",
                      "from decimal import Decimal, ROUND_HALF_UP\n"),
                 edit("invoicer/money.py", "    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_EVEN)\n",
                      "    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)\n"),
                 write("tests/test_money.py", MONEY_TEST),
                 bash("python3 -m pytest -q", fails=True, description="Run the tests"),
                 edit("invoicer/money.py", "def to_money(value) -> Decimal:\n",
                      "def to_money(value) -> Decimal:\n    if isinstance(value, float):\n"
                      "        value = repr(value)   # Decimal(1.005) is 1.00499999...: go through the shortest repr\n",
                      say="The string case passes, the float one doesn't: Decimal(1.005) is really "
                          "1.00499999999999989341…, because the float was never exactly 1.005 — so even half-up "
                          "rounds it down to 1.00."),
                 bash("python3 -m pytest -q", description="Run the tests again"),
                 reply("Invoices round half-up now (ROUND_HALF_UP in invoicer/money.py), and tests/test_money.py pins "
                       "2.665 → 2.67.\n\nPitfall found on the way: building a Decimal straight from a float keeps the "
                       "float's binary error — Decimal(1.005) is 1.00499…, which rounds to 1.00 whatever the rule. "
                       "to_money now converts floats through their shortest repr; better still, pass strings.")),
            turn("Remember to re-issue the March invoices that were hit by this before the quarter closes — finance "
                 "has a list of 214 of them.",
                 reply("Noted: re-issuing the 214 affected March invoices before the quarter closes.")),
        ], carry=[
            fact("topic", "rounding"),
            fact("files", "invoicer/money.py"), fact("files", "tests/test_money.py"),
            fact("decisions", "half-up|half_up|half up"),
            fact("reasons", "tax office"),
            fact("pitfalls", "float*", "Decimal(1.005)|1.00499"),
            fact("todos", "March", "214"),
        ]),
        session("invoicer", "finance re-issued; zero-quantity lines; credit notes not handled", [
            turn("Finance re-issued the 214 March invoices yesterday with the new rounding, totals match their ledger "
                 "now. Today: invoices with a quantity-0 line still print that line on the PDF. Drop those.",
                 read("invoicer/pdf.py"),
                 edit("invoicer/pdf.py", "for line in lines]\n", "for line in lines\n            if float(line[\"qty\"]) != 0]\n"),
                 write("tests/test_pdf.py", PDF_TEST),
                 bash("python3 -m pytest -q", description="Run the tests"),
                 read("invoicer/credit_note.py"),
                 reply("Quantity-0 lines no longer reach the PDF (invoicer/pdf.py, covered by tests/test_pdf.py).\n\n"
                       "One thing I noticed and did not touch: credit notes (invoicer/credit_note.py) still compute "
                       "with floats and Python's round(), so they can be a cent off the invoice they reverse — the "
                       "same bug we fixed for invoices. That part isn't done; it's the obvious next piece.")),
            turn("ok leave it for now",
                 reply("Leaving it.")),
        ], carry=[
            fact("topic", "quantity|qty"),
            fact("files", "invoicer/pdf.py"),
            fact("todos", "credit note|credit_note"),
        ], finished=[fact("todos", "March", "214")]),
        session("invoicer", "bare 'continue': credit notes", [
            turn("continue",
                 read("invoicer/credit_note.py", say="Picking up the credit notes, which still go through floats."),
                 read("invoicer/invoice.py"),
                 write("invoicer/credit_note.py", CREDIT_NOTE),
                 write("tests/test_credit_note.py", CREDIT_TEST),
                 bash("python3 -m pytest -q", description="Run the tests"),
                 reply("credit_note.py goes through the same Decimal helpers as invoices now (line_total + to_money, "
                       "half-up, away from zero for negatives), so a credit note mirrors its invoice to the cent; "
                       "tests/test_credit_note.py checks exactly that.")),
        ], carry=[
            fact("topic", "credit"),
            fact("files", "invoicer/credit_note.py"),
        ], finished=[fact("todos", "credit note|credit_note")]),
        session("invoicer", "one line: thanks", [
            turn("great, thanks", reply("You're welcome.")),
        ], carry=[
            fact("topic", "credit"),
            fact("files", "invoicer/credit_note.py"),
        ]),
    ],
})


# =============================================================================================
# 10. en-py312-revert — feedparse (English)
# =============================================================================================

FEEDPARSE_FILES = {
    "pyproject.toml": '[project]\nname = "feedparse"\nversion = "0.7.2"\nrequires-python = ">=3.10"\n',
    "conftest.py": "",
    "feedparse/__init__.py": "",
    "feedparse/util.py": '''def chunked(items, size):
    """Yield lists of at most ``size`` items (what itertools.batched does from 3.12 on)."""
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
''',
    "feedparse/fetch.py": '''import time
import urllib.error
import urllib.request

from feedparse.util import chunked

MAX_RETRIES = 3


def fetch(url, opener=urllib.request.urlopen, sleep=time.sleep):
    for attempt in range(MAX_RETRIES + 1):
        try:
            with opener(url, timeout=10) as resp:
                return resp.read()
        except urllib.error.HTTPError as err:
            if err.code not in (429, 503) or attempt == MAX_RETRIES:
                raise
            retry_after = err.headers.get("Retry-After")
            sleep(min(int(retry_after), 60) if retry_after and retry_after.isdigit() else 2 ** attempt)


def fetch_all(urls, batch_size=20, **kwargs):
    out = {}
    for batch in chunked(urls, batch_size):
        for url in batch:
            out[url] = fetch(url, **kwargs)
    return out
''',
    "feedparse/parse.py": '''import xml.etree.ElementTree as ET


def parse_feed(data: bytes):
    text = data.decode("utf-8")
    root = ET.fromstring(text)
    return [item.findtext("title") for item in root.iter("item")]
''',
    "tests/test_fetch.py": '''import io
from contextlib import contextmanager

from feedparse.fetch import fetch_all


@contextmanager
def fake_open(url, timeout):
    yield io.BytesIO(url.encode())


def test_fetch_all_in_batches():
    urls = [f"https://feeds.example/{i}" for i in range(45)]
    assert fetch_all(urls, batch_size=20, opener=fake_open)[urls[-1]] == urls[-1].encode()
''',
}

PARSE_TEST = '''from feedparse.parse import parse_feed

FEED = b'<?xml version="1.0"?><rss><channel><item><title>hello</title></item></channel></rss>'


def test_plain_feed():
    assert parse_feed(FEED) == ["hello"]


def test_feed_with_a_line_break_before_the_declaration():
    assert parse_feed(b"\\r\\n" + FEED) == ["hello"]
'''

SCENARIOS.append({
    "id": "en-py312-revert", "lang": "en",
    "kinds": ["reverted-upgrade", "indirect-todo", "read-only-qa", "pitfall"],
    "about": "A Python 3.12 bump (itertools.batched instead of our chunked()) breaks on the 3.11 build image; the user "
             "has it backed out until ops moves the image in Q3 — it must not read as done. Then a read-only question "
             "about Retry-After, and a feed-parsing bug with its pitfall; the 3.12 to-do stays open throughout.",
    "projects": {"feedparse": FEEDPARSE_FILES},
    "sessions": [
        session("feedparse", "3.12 bump tried, backed out", [
            turn("We're on 3.11 everywhere now, right? Let's bump requires-python to 3.12 and drop our chunked() "
                 "helper for itertools.batched.",
                 read("pyproject.toml"),
                 bash("grep -rn chunked --include=*.py .", description="Where chunked() is used"),
                 edit("pyproject.toml", 'requires-python = ">=3.10"', 'requires-python = ">=3.12"'),
                 read("feedparse/fetch.py"),
                 edit("feedparse/fetch.py", "from feedparse.util import chunked\n", "from itertools import batched\n"),
                 edit("feedparse/fetch.py", "    for batch in chunked(urls, batch_size):\n",
                      "    for batch in batched(urls, batch_size):\n"),
                 bash("python3 --version && python3 -m pytest -q", fails=True, description="Run the tests"),
                 reply("That doesn't work here: this machine runs Python 3.11.7, and itertools.batched only exists from "
                       "3.12 — the tests fail at import (\"cannot import name 'batched' from 'itertools'\"). If CI and "
                       "the build image are 3.11 too, they'd break the same way. Move the images to 3.12 first, or "
                       "something else?")),
            turn("Ugh, right — the build image is still 3.11 and ops won't move it until Q3. Back all of it out.",
                 bash("git checkout -- pyproject.toml feedparse/fetch.py && git status --short", description="Revert"),
                 bash("python3 -m pytest -q", description="Run the tests"),
                 reply("Backed out: pyproject.toml and fetch.py are as they were, the tree is clean and the tests pass "
                       "on 3.11. The 3.12 bump — and swapping chunked() for itertools.batched — can come back once ops "
                       "moves the build image in Q3.")),
        ], carry=[
            fact("topic", "3.12"),
            fact("decisions", "backed out|back out|revert*|roll back|rolled back"),
            fact("todos", "3.12", "Q3|image"),
        ]),
        session("feedparse", "read-only: Retry-After", [
            turn("Quick question: what does fetch() do when a server answers 429 with a Retry-After header?",
                 read("feedparse/fetch.py"),
                 reply("It retries, up to 3 times. On 429 or 503 it sleeps for the Retry-After value when the header is "
                       "a plain number of seconds (capped at 60 s); otherwise it backs off 1, 2, 4 s. A Retry-After "
                       "given as an HTTP date isn't understood, so those fall back to the backoff. Any other status "
                       "is raised straight away.")),
            turn("ok, good to know", reply("Sure.")),
        ], carry=[
            fact("topic", "Retry-After"),
            fact("todos", "3.12", "Q3|image"),
        ]),
        session("feedparse", "a line break before <?xml", [
            turn("Some feeds fail with 'XML or text declaration not at start of entity'. I think it's the ones coming "
                 "from the Windows CMS.",
                 read("feedparse/parse.py"),
                 bash("python3 - <<'EOF'\nfrom feedparse.parse import parse_feed\n"
                      "feed = b'\\r\\n<?xml version=\"1.0\"?><rss><channel><item><title>a</title></item></channel></rss>'\n"
                      "print(parse_feed(feed))\nEOF", fails=True, description="Reproduce with a line break in front"),
                 edit("feedparse/parse.py", 'text = data.decode("utf-8")',
                      'text = data.decode("utf-8").lstrip()   # the declaration must come first: drop leading blank lines'),
                 write("tests/test_parse.py", PARSE_TEST),
                 bash("python3 -m pytest -q", description="Run the tests"),
                 reply("That's it: those feeds start with a line break (\\r\\n) before <?xml …?>. An XML declaration "
                       "has to be the very first thing in the document, so expat rejects the whole feed. parse_feed now "
                       "strips leading whitespace before parsing; tests/test_parse.py covers a feed with and without it.\n\n"
                       "Worth remembering for anything a CMS or template engine emits: even one newline before <?xml "
                       "breaks ElementTree.")),
        ], carry=[
            fact("topic", "<?xml|declaration"),
            fact("files", "feedparse/parse.py"), fact("files", "tests/test_parse.py"),
            fact("pitfalls", "<?xml", "newline*|line break*|whitespace"),
            fact("todos", "3.12", "Q3|image"),
        ]),
    ],
})


# =============================================================================================
# 11. en-status-dotfiles — status-page + dotfiles in one memory root (English)
# =============================================================================================

INCIDENTS = ('[\n  {"id": "inc-41", "title": "Login slow in EU", "status": "degraded", "started": "2026-11-02T08:10:00+00:00"},\n'
             '  {"id": "inc-42", "title": "API outage", "status": "outage", "started": "2026-11-14T21:40:00+00:00"},\n'
             '  {"id": "inc-43", "title": "Webhooks delayed", "status": "degraded", "started": "2026-11-20T09:12:00+00:00"}\n]\n')

STATUS_FILES = {
    "conftest.py": "",
    "incidents.json": INCIDENTS,
    "status/__init__.py": "",
    "status/render.py": '''"""Render the status page body from incidents.json."""
import html
import json

BADGE = {"operational": "#8a8f98", "degraded": "#8a8f98", "outage": "#d0021b"}


def render(incidents):
    rows = []
    for inc in sorted(incidents, key=lambda i: i["started"]):
        color = BADGE[inc["status"]]
        rows.append(f'<li><span class="badge" style="background:{color}">{html.escape(inc["status"])}</span> '
                    f'{html.escape(inc["title"])} <time>{inc["started"]}</time></li>')
    return "<ul>\\n" + "\\n".join(rows) + "\\n</ul>\\n"


def main(path="incidents.json"):
    with open(path, encoding="utf-8") as fh:
        print(render(json.load(fh)))


if __name__ == "__main__":
    main()
''',
}

RENDER_TEST = '''from status.render import BADGE, render

INCIDENTS = [{"id": "a", "title": "old", "status": "outage", "started": "2026-11-01T00:00:00+00:00"},
             {"id": "b", "title": "new", "status": "degraded", "started": "2026-11-20T00:00:00+00:00"}]


def test_newest_first():
    out = render(INCIDENTS)
    assert out.index("new") < out.index("old")


def test_degraded_is_not_grey():
    assert BADGE["degraded"] != BADGE["operational"]
'''

FEED_PY = '''"""incidents.json -> public/feed.xml (RSS 2.0), newest first."""
import json
import os
from datetime import datetime
from xml.sax.saxutils import escape

SITE = "https://status.example.com"


def pub_date(started):
    return datetime.fromisoformat(started).isoformat()


def rss(incidents, site=SITE):
    items = []
    for inc in sorted(incidents, key=lambda i: i["started"], reverse=True):
        items.append(f"<item><title>{escape(inc['title'])}</title><link>{site}/#{inc['id']}</link>"
                     f"<guid>{site}/#{inc['id']}</guid><pubDate>{pub_date(inc['started'])}</pubDate></item>")
    return (\'<?xml version="1.0" encoding="utf-8"?>\\n<rss version="2.0"><channel><title>Status</title>\'
            f"<link>{site}</link><description>Incidents</description>{''.join(items)}</channel></rss>\\n")


def main(path="incidents.json", out="public/feed.xml"):
    with open(path, encoding="utf-8") as fh:
        text = rss(json.load(fh))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(out)


if __name__ == "__main__":
    main()
'''

FEED_TEST = '''from email.utils import parsedate_to_datetime
from xml.etree import ElementTree as ET

from status.feed import rss

INCIDENTS = [{"id": "a", "title": "API outage", "status": "outage", "started": "2026-11-14T21:40:00+00:00"}]


def test_pubdate_is_rfc_822():
    item = ET.fromstring(rss(INCIDENTS)).find("channel/item")
    assert parsedate_to_datetime(item.findtext("pubDate")).isoformat() == "2026-11-14T21:40:00+00:00"
'''

CHECK_FEED = ("python3 -c \"import email.utils, xml.etree.ElementTree as ET; "
              "[print(email.utils.parsedate_to_datetime(i.findtext('pubDate'))) "
              "for i in ET.parse('public/feed.xml').iter('item')]\"")

DOTFILES = {
    "bashrc": "export EDITOR=nvim\nalias gs='git status'\n",
    "gitconfig": "[user]\n\tname = Sam\n[pull]\n\trebase = true\n",
    "vimrc": "set number\n",
    "config/nvim/init.vim": "set number\nset expandtab\n",
    "install.sh": '''#!/usr/bin/env bash
# Link the dotfiles into $HOME.
set -euo pipefail
DOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

link() {
  ln -sf "$DOT/$1" "$HOME/$2"
}

mkdir -p "$HOME/.config"
link bashrc .bashrc
link gitconfig .gitconfig
link vimrc .vimrc
link config/nvim .config/nvim
''',
}

FAKE_HOME = ("rm -rf tmp-home && mkdir -p tmp-home && printf '[user]\\n\\tname = old laptop\\n' > tmp-home/.gitconfig && "
             "HOME=$PWD/tmp-home bash install.sh && ls -A tmp-home tmp-home/.dotfiles-backup/*")

SCENARIOS.append({
    "id": "en-status-dotfiles", "lang": "en",
    "kinds": ["interleaved-projects", "decision-in-conversation", "reason", "indirect-todo", "finished-by-assistant",
              "pitfall", "read-only-qa"],
    "about": "Two projects in one memory root, alternating: status-page (newest-first incidents; amber vs brand orange "
             "for 'degraded', the user's reason; an RSS feed needed before the announcement, done next time in other "
             "words, with the pubDate pitfall) and dotfiles (install.sh clobbered ~/.gitconfig: back up vs skip, the "
             "ln -sf-into-a-directory pitfall, 'Remember it has to work on macOS'; then a read-only question). Facts "
             "must not cross projects.",
    "projects": {"status-page": STATUS_FILES, "dotfiles": DOTFILES},
    "sessions": [
        session("status-page", "newest first; degraded badge colour", [
            turn("The status page lists incidents oldest first, which is backwards. Also the 'degraded' badge is the "
                 "same grey as 'operational', nobody notices it.",
                 read("status/render.py"),
                 bash("python3 -m status.render | head -5", description="Current output"),
                 reply("Both confirmed: render() sorts by start time ascending, and BADGE gives degraded the same "
                       "#8a8f98 as operational. Sorting newest first is a one-liner. For the badge colour I see two "
                       "options: the amber most status pages use (#f5a623), or our brand orange (#ff5a1f). Which one?")),
            turn("Amber. Our brand orange is so close to red that people read it as an outage.",
                 edit("status/render.py", '"degraded": "#8a8f98"', '"degraded": "#f5a623"'),
                 edit("status/render.py", 'sorted(incidents, key=lambda i: i["started"])',
                      'sorted(incidents, key=lambda i: i["started"], reverse=True)'),
                 write("tests/test_render.py", RENDER_TEST),
                 bash("python3 -m pytest -q && python3 -m status.render | head -3", description="Tests and output"),
                 reply("Done: newest incident first, and degraded is amber (#f5a623) now; tests/test_render.py pins both.")),
            turn("Thanks. Before we announce the page we need an RSS feed of incidents — customers keep asking for one.",
                 reply("Understood — an RSS feed before the announcement. Not started yet.")),
        ], carry=[
            fact("topic", "incident*"),
            fact("files", "status/render.py"), fact("files", "tests/test_render.py"),
            fact("decisions", "amber"),
            fact("reasons", "brand orange"),
            fact("todos", "RSS"),
        ]),
        session("dotfiles", "install.sh clobbered ~/.gitconfig: backups; the ln -sf pitfall", [
            turn("my install.sh just clobbered my ~/.gitconfig on the new laptop and the old one is gone. Make it stop doing that.",
                 read("install.sh"),
                 reply("ln -sf replaces whatever is at the target, so an existing real ~/.gitconfig is simply deleted. "
                       "Two ways to stop that:\n1. move existing real files into a timestamped ~/.dotfiles-backup/<time>/ "
                       "before linking;\n2. skip targets that already exist and print a warning.\nWhich do you want?")),
            turn("Back them up. Skipping would leave me with a half-installed config and I'd never notice.",
                 edit("install.sh", 'link() {\n  ln -sf "$DOT/$1" "$HOME/$2"\n}\n',
                      'BACKUP="$HOME/.dotfiles-backup/$(date +%Y%m%d-%H%M%S)"\n\nlink() {\n  local target="$HOME/$2"\n'
                      '  if [ -e "$target" ] && [ ! -L "$target" ]; then\n    mkdir -p "$BACKUP"\n'
                      '    mv "$target" "$BACKUP/"\n    echo "backed up $target -> $BACKUP/"\n  fi\n'
                      '  ln -sf "$DOT/$1" "$target"\n}\n'),
                 bash(FAKE_HOME, description="Try it on a fake home with an existing .gitconfig"),
                 bash("HOME=$PWD/tmp-home bash install.sh && git status --short", description="Run it a second time"),
                 edit("install.sh", '  ln -sf "$DOT/$1" "$target"\n', '  ln -sfn "$DOT/$1" "$target"\n',
                      say="The second run left a stray config/nvim/nvim inside the repo: ~/.config/nvim was already a "
                          "symlink to a directory, and ln -sf followed it and created the new link inside that "
                          "directory. ln -n treats the existing link as a file instead."),
                 bash("rm config/nvim/nvim && HOME=$PWD/tmp-home bash install.sh && HOME=$PWD/tmp-home bash install.sh "
                      "&& git status --short && rm -rf tmp-home", description="Twice more, then clean up"),
                 reply("install.sh now moves an existing real file to ~/.dotfiles-backup/<timestamp>/ before linking "
                       "(your old .gitconfig would have landed there), and leaves existing symlinks alone.\n\n"
                       "Gotcha found on the way: `ln -sf` onto a target that is already a symlink to a directory "
                       "follows it and creates the link *inside* the directory — a second run had put "
                       "config/nvim/nvim into the repo. `ln -sfn` fixes it; running it twice now changes nothing.")),
            turn("Good. Remember it also has to work on macOS, I'll set up the old MacBook with it next month.",
                 reply("Noted: check install.sh on macOS (BSD ln, mv and date) before you set up that machine.")),
        ], carry=[
            fact("topic", "gitconfig"),
            fact("files", "install.sh"),
            fact("decisions", "dotfiles-backup|back up|backup"),
            fact("reasons", "half-installed|half installed"),
            fact("pitfalls", "ln -sfn|-sfn|ln -n"),
            fact("todos", "macOS"),
        ]),
        session("status-page", "the RSS feed, pubDate pitfall", [
            turn("ok let's do the incidents feed now",
                 read("status/render.py"),
                 write("status/feed.py", FEED_PY),
                 bash("python3 -m status.feed && " + CHECK_FEED, fails=True,
                      description="Build the feed and parse every pubDate like a feed reader would"),
                 edit("status/feed.py", "from datetime import datetime\n",
                      "from datetime import datetime\nfrom email.utils import format_datetime\n",
                      say="Feed readers parse pubDate as an RFC 822 date; ISO 8601 doesn't parse, so readers would "
                          "drop or misdate every item."),
                 edit("status/feed.py", "    return datetime.fromisoformat(started).isoformat()\n",
                      "    return format_datetime(datetime.fromisoformat(started))   # RFC 822, as RSS requires\n"),
                 bash("python3 -m status.feed && " + CHECK_FEED, description="Check again"),
                 write("tests/test_feed.py", FEED_TEST),
                 bash("python3 -m pytest -q", description="Run the tests"),
                 reply("Incidents are now also published as public/feed.xml, RSS 2.0, newest first, one item per "
                       "incident linking to its anchor on the page.\n\nPitfall: RSS wants pubDate in RFC 822 "
                       "(\"Sat, 14 Nov 2026 21:40:00 +0000\"), not ISO 8601 — my first version wrote isoformat() and "
                       "the date parser feed readers use choked on it. It uses email.utils.format_datetime now, and "
                       "tests/test_feed.py parses it back.")),
        ], carry=[
            fact("topic", "RSS|feed"),
            fact("files", "status/feed.py"), fact("files", "tests/test_feed.py"),
            fact("pitfalls", "pubDate", "RFC 822|format_datetime"),
        ], finished=[fact("todos", "RSS")]),
        session("dotfiles", "read-only: existing symlinks", [
            turn("what does install.sh do if something in my home is already a symlink to somewhere else?",
                 read("install.sh"),
                 reply("It doesn't back it up — only real files and directories are moved to ~/.dotfiles-backup/. "
                       "An existing symlink, wherever it points, is replaced by `ln -sfn` with a link to the dotfiles "
                       "copy. Nothing is deleted except the old link itself.")),
        ], carry=[
            fact("topic", "symlink*"),
            fact("todos", "macOS"),
        ]),
    ],
})


# =============================================================================================
# 12. en-release-oneliners — shipit (English): a work session, three one-liners, the release
# =============================================================================================

SHIPIT_FILES = {
    "pyproject.toml": '[project]\nname = "shipit"\nversion = "0.8.3"\nrequires-python = ">=3.10"\n',
    "CHANGELOG.md": "# Changelog\n\n## 0.8.3\n\n- fix: keep the wheel's file modes\n",
    "conftest.py": "",
    "shipit/__init__.py": "",
    "shipit/changelog.py": '''"""Turn `git log --format=%s` subjects (stdin) into a changelog section."""
import sys


def render(version, subjects):
    lines = [f"## {version}", ""]
    lines += [f"- {s}" for s in subjects if s.strip()]
    return "\\n".join(lines) + "\\n"


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    version = args[0] if args else "unreleased"
    print(render(version, sys.stdin.read().splitlines()), end="")


if __name__ == "__main__":
    main()
''',
    "shipit/cli.py": '''import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shipit")
    sub = parser.add_subparsers(dest="cmd", required=True)
    release = sub.add_parser("release", help="build, check and upload a release")
    release.add_argument("--offline", action="store_true", help="skip the PyPI name and version check")
    release.add_argument("--dry-run", action="store_true")
    return parser.parse_args(argv)
''',
    "tests/fixtures/log.txt": "feat: parallel uploads\nfix: retry on 502 from the index\nchore: bump dependencies\n"
                              "feat(cli): --offline flag\ndocs: fix a typo in the README\nfix!: keep file modes in the sdist\n",
}

CHANGELOG_GROUPED = '''"""Turn `git log --format=%s` subjects (stdin) into a changelog section, grouped by commit type."""
import re
import sys

SECTIONS = {"feat": "Features", "fix": "Fixes"}
PREFIX = re.compile(r"^(\\w+)(?:\\([^)]*\\))?!?:\\s*")


def group(subjects):
    groups = {title: [] for title in SECTIONS.values()}
    groups["Other"] = []
    for subject in subjects:
        if not subject.strip():
            continue
        found = PREFIX.match(subject)
        title = SECTIONS.get(found.group(1)) if found else None
        if title:
            groups[title].append(subject[found.end():])
        else:
            groups["Other"].append(subject)
    return {title: items for title, items in groups.items() if items}


def render(version, subjects):
    lines = [f"## {version}", ""]
    for title, items in group(subjects).items():
        lines += [f"### {title}", ""] + [f"- {item}" for item in items] + [""]
    return "\\n".join(lines)


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    version = args[0] if args else "unreleased"
    print(render(version, sys.stdin.read().splitlines()), end="")


if __name__ == "__main__":
    main()
'''

CHANGELOG_TEST = '''from shipit.changelog import group


def test_grouped_by_conventional_prefix():
    groups = group(["feat: a", "fix(cli): b", "fix!: c", "chore: d", "no prefix at all"])
    assert groups == {"Features": ["a"], "Fixes": ["b", "c"], "Other": ["chore: d", "no prefix at all"]}
'''

RELEASE_WORK = [
    fact("topic", "changelog"),
    fact("files", "shipit/changelog.py"), fact("files", "tests/test_changelog.py"),
    fact("decisions", "prefix*"),
    fact("reasons", "GitHub API"),
    fact("todos", "0.9", "pyproject"),
]

SCENARIOS.append({
    "id": "en-release-oneliners", "lang": "en",
    "kinds": ["decision-in-conversation", "reason", "indirect-todo", "trivial-sessions", "finished-by-assistant"],
    "about": "A work session (group the changelog by commit type: prefixes vs PR labels, the user's reason; 'Remember "
             "to bump the version in pyproject before we tag 0.9'), then 'thanks!', a one-line question and 'ok' — the "
             "work session must stay in the brief — then 'let's cut 0.9', where the version bump is done in other words.",
    "projects": {"shipit": SHIPIT_FILES},
    "sessions": [
        session("shipit", "changelog grouped by commit type", [
            turn("Make the changelog generator group commits by type — features, fixes, everything else — instead of "
                 "one flat list.",
                 read("shipit/changelog.py"),
                 bash("cat tests/fixtures/log.txt", description="The sample log"),
                 reply("Two ways to learn a commit's type:\n"
                       "1. the conventional-commit prefix in the subject (feat:, fix(cli):, fix!:) — works on plain "
                       "`git log`, offline;\n"
                       "2. the labels of the merged pull request, through the GitHub API — richer, but needs a token "
                       "and network in the release job.\nWhich one?")),
            turn("Prefixes. The release job runs on a locked-down runner that can't reach the GitHub API anyway.",
                 write("shipit/changelog.py", CHANGELOG_GROUPED),
                 write("tests/test_changelog.py", CHANGELOG_TEST),
                 bash("python3 -m pytest -q && python3 -m shipit.changelog 0.9.0 < tests/fixtures/log.txt",
                      description="Tests, then the sample log"),
                 reply("Done: shipit/changelog.py reads the conventional prefix (scopes and ! included) and renders "
                       "### Features, ### Fixes, ### Other; anything without a known prefix lands in Other unchanged. "
                       "tests/test_changelog.py covers it; the sample log renders as above.")),
            turn("Nice. Remember to bump the version in pyproject before we tag 0.9 — last time we tagged with the old "
                 "number and PyPI rejected the upload.",
                 reply("Will do when we cut 0.9.")),
        ], carry=RELEASE_WORK),
        session("shipit", "one line: thanks", [turn("thanks!", reply("Anytime."))], carry=RELEASE_WORK),
        session("shipit", "one line: a question", [
            turn("what was the flag to skip the network check again?",
                 reply("`shipit release --offline` — it skips the PyPI name and version check.")),
        ], carry=RELEASE_WORK),
        session("shipit", "one line: ok", [turn("ok", reply("OK."))], carry=RELEASE_WORK),
        session("shipit", "cut 0.9", [
            turn("alright, let's cut 0.9",
                 read("pyproject.toml"),
                 edit("pyproject.toml", 'version = "0.8.3"', 'version = "0.9.0"'),
                 bash("{ head -2 CHANGELOG.md; python3 -m shipit.changelog 0.9.0 < tests/fixtures/log.txt; "
                      "tail -n +3 CHANGELOG.md; } > CHANGELOG.new && mv CHANGELOG.new CHANGELOG.md && head -16 CHANGELOG.md",
                      description="Prepend the 0.9.0 section"),
                 bash("python3 -m pytest -q && git add -A && git commit -qm 'Release 0.9.0' && git tag v0.9.0 && "
                      "git log --oneline -2 && git tag", description="Test, commit, tag"),
                 reply("0.9.0 is cut: pyproject.toml says 0.9.0, CHANGELOG.md has the 0.9.0 section grouped by type, "
                       "and the release commit is tagged v0.9.0. Nothing is pushed yet — `git push --follow-tags` when "
                       "you're ready.")),
        ], carry=[
            fact("topic", "0.9"),
            fact("files", "pyproject.toml"), fact("files", "CHANGELOG.md"),
        ], finished=[fact("todos", "0.9", "pyproject")]),
    ],
})


# =============================================================================================
# 13. en-flaky-clock — scheduler (English)
# =============================================================================================

SCHEDULER_FILES = {
    "conftest.py": "",
    ".github/workflows/ci.yml": "name: ci\non:\n  push:\n  schedule:\n    - cron: \"50 21 * * *\"   # nightly, UTC\n"
                                "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                                "      - run: pip install pytest\n      - run: python -m pytest -q\n",
    "scheduler/__init__.py": "",
    "scheduler/jobs.py": '''from datetime import datetime, timedelta


def next_run(hour, now=None):
    """Next time the daily job at ``hour`` (local time) runs."""
    now = now or datetime.now()
    run = now.replace(hour=hour, minute=0, second=0, microsecond=0)
    if run <= now:
        run += timedelta(days=1)
    return run


def is_due_today(hour, now=None):
    return next_run(hour, now).date() == (now or datetime.now()).date()
''',
    "tests/test_jobs.py": '''from datetime import datetime

from scheduler.jobs import is_due_today, next_run


def test_next_run_is_today_before_the_hour():
    assert next_run(23, datetime(2026, 3, 1, 10, 0)) == datetime(2026, 3, 1, 23, 0)


def test_report_job_is_due_today():
    # the 22:00 report should still be due today
    assert is_due_today(22)
''',
}

JOBS_AWARE = '''from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

SCHEDULE_TZ = ZoneInfo("Asia/Shanghai")   # the zone the job hours are written in


def _aware(now):
    if now is None:
        return datetime.now(SCHEDULE_TZ)
    if now.tzinfo is None:
        raise ValueError("pass an aware datetime")
    return now.astimezone(SCHEDULE_TZ)


def next_run(hour, now=None):
    """Next time the daily job at ``hour`` (schedule time) runs."""
    now = _aware(now)
    run = now.replace(hour=hour, minute=0, second=0, microsecond=0)
    if run <= now:
        run += timedelta(days=1)
    return run


def is_due_today(hour, now=None):
    now = _aware(now)
    return next_run(hour, now).date() == now.date()
'''

JOBS_TEST_AWARE = '''from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from scheduler.jobs import is_due_today, next_run

SH = ZoneInfo("Asia/Shanghai")


def test_next_run_is_today_before_the_hour():
    assert next_run(23, datetime(2026, 3, 1, 10, 0, tzinfo=SH)) == datetime(2026, 3, 1, 23, 0, tzinfo=SH)


def test_report_job_is_due_today_before_22():
    assert is_due_today(22, datetime(2026, 3, 1, 21, 59, tzinfo=SH))


def test_report_job_is_not_due_after_22():
    assert not is_due_today(22, datetime(2026, 3, 1, 22, 30, tzinfo=SH))


def test_a_utc_clock_gives_the_same_answer():
    assert is_due_today(22, datetime(2026, 3, 1, 13, 59, tzinfo=timezone.utc))   # 21:59 in Shanghai


def test_naive_is_refused():
    with pytest.raises(ValueError):
        next_run(22, datetime(2026, 3, 1, 10, 0))
'''

SCENARIOS.append({
    "id": "en-flaky-clock", "lang": "en",
    "kinds": ["read-only-qa", "pitfall", "indirect-todo", "continue-session", "decision-in-conversation", "reason",
              "finished-by-assistant"],
    "about": "A test that fails in CI on some nights: a read-only investigation (no edits) finds the wall-clock and "
             "naive-local-time pitfall; the user wants to read up first but says the test should stop depending on the "
             "clock next time. The next session says 'continue'; aware-everywhere vs convert-at-the-edges, the user's "
             "reason, and the clock to-do done in other words. Last: a read-only question.",
    "projects": {"scheduler": SCHEDULER_FILES},
    "sessions": [
        session("scheduler", "read-only investigation of a flaky test", [
            turn("test_report_job_is_due_today fails in CI on some nights and I can't reproduce it locally. Any idea? "
                 "Don't change anything yet, just figure out why.",
                 read("tests/test_jobs.py"),
                 read("scheduler/jobs.py"),
                 read(".github/workflows/ci.yml"),
                 bash("python3 -c \"from datetime import datetime; from scheduler.jobs import is_due_today; "
                      "print('21:59 ->', is_due_today(22, datetime(2026, 3, 1, 21, 59))); "
                      "print('22:30 ->', is_due_today(22, datetime(2026, 3, 1, 22, 30)))\"",
                      description="is_due_today(22) just before and after 22:00"),
                 bash("date '+local %H:%M %Z' && TZ=UTC date '+UTC   %H:%M %Z'", description="Local clock vs a UTC runner"),
                 reply("Found it. test_report_job_is_due_today calls is_due_today(22) with the real clock, and "
                       "next_run() uses naive datetime.now(), i.e. the machine's local time. Once the local clock is "
                       "past 22:00 the next run is tomorrow, so the test fails (22:30 → False above).\n\n"
                       "CI runners are on UTC, and the nightly pipeline is scheduled at 21:50 UTC — so on CI it fails "
                       "whenever the runner queue delays the nightly run past 22:00, while on our laptops (UTC+8) that "
                       "window is 06:00–08:00 in the morning, when nobody runs the tests.\n\n"
                       "Two problems, really: the test reads the wall clock, and naive local times give a different "
                       "answer on a UTC runner than on a laptop. I haven't changed anything.")),
            turn("OK, don't fix it yet — I want to read up on how we handle time elsewhere first. But that test has to "
                 "stop depending on the wall clock, let's do that next time at the latest.",
                 reply("Understood: no changes today; next time the test gets a fixed clock.")),
        ], carry=[
            fact("topic", "test_report_job_is_due_today|is_due_today"),
            fact("pitfalls", "naive", "UTC"),
            fact("todos", "clock"),
        ]),
        session("scheduler", "'continue': aware everywhere, the test gets a fixed clock", [
            turn("continue where we stopped yesterday",
                 read("scheduler/jobs.py", say="Yesterday: the flaky test reads the wall clock, and next_run() uses "
                                               "naive local time."),
                 reply("Two ways to fix the code underneath:\n"
                       "1. aware datetimes everywhere: next_run()/is_due_today() take an aware `now` (refusing naive "
                       "ones) and work in the schedule's zone (Asia/Shanghai) explicitly;\n"
                       "2. keep naive local times inside and convert only at the edges (CLI, API).\n"
                       "Either way the test passes a fixed `now` instead of reading the clock. Which way?")),
            turn("Aware everywhere. Half our bugs this year were naive datetimes leaking from one layer into another.",
                 write("scheduler/jobs.py", JOBS_AWARE),
                 read("tests/test_jobs.py"),
                 write("tests/test_jobs.py", JOBS_TEST_AWARE),
                 bash("python3 -m pytest -q && TZ=UTC python3 -m pytest -q", description="Tests, also on a UTC clock"),
                 bash("grep -rn \"datetime.now()\" scheduler tests || echo 'no naive now() left'",
                      description="Any naive now() left?"),
                 reply("Done. next_run() and is_due_today() work on aware datetimes in the schedule's zone "
                       "(SCHEDULE_TZ = Asia/Shanghai) and refuse naive ones. The tests now pass fixed times instead of "
                       "reading the real time — before and after 22:00, and a UTC clock that must give the same "
                       "answer — and pass under TZ=UTC too. No naive now() is left.")),
        ], carry=[
            fact("topic", "is_due_today|flaky"),
            fact("files", "scheduler/jobs.py"), fact("files", "tests/test_jobs.py"),
            fact("decisions", "aware"),
            fact("reasons", "leak*"),
        ], finished=[fact("todos", "clock")]),
        session("scheduler", "read-only: what still takes naive datetimes", [
            turn("Which functions in scheduler still accept naive datetimes?",
                 bash("grep -rn \"def \\|tzinfo\" scheduler", description="Functions and their tz checks"),
                 reply("None: next_run() and is_due_today() both go through _aware(), which raises ValueError for a "
                       "naive datetime and converts aware ones to Asia/Shanghai.")),
        ], carry=[
            fact("topic", "naive"),
        ]),
    ],
})


# =============================================================================================
# 14. mixed-i18n-locales — i18n-kit (Chinese and English mixed in one conversation)
# =============================================================================================

I18N_FILES = {
    "package.json": '{\n  "name": "i18n-kit",\n  "version": "0.4.0",\n  "private": true,\n'
                    '  "scripts": {\n    "test": "node --test"\n  }\n}\n',
    "locales/en.json": '{\n  "cart.title": "Cart",\n  "cart.items": "{count} items",\n  "checkout.pay": "Pay now",\n'
                       '  "checkout.coupon.invalid": "This coupon is not valid",\n  "profile.save": "Save",\n'
                       '  "profile.avatar.upload": "Upload avatar"\n}\n',
    "locales/zh-CN.json": '{\n  "cart.title": "购物车",\n  "cart.items": "{count} 件商品",\n  "checkout.pay": "立即支付",\n'
                          '  "profile.save": "保存",\n  "legacy.banner": "旧版入口",\n  "promo.2024": "2024 年中大促"\n}\n',
    "src/t.js": "'use strict';\n\nconst messages = {\n  en: require('../locales/en.json'),\n"
                "  'zh-CN': require('../locales/zh-CN.json'),\n};\n\n"
                "function t(locale, key, params = {}) {\n  const text = (messages[locale] || {})[key];\n"
                "  return (text || key).replace(/\\{(\\w+)\\}/g, (m, name) => (name in params ? String(params[name]) : m));\n}\n\n"
                "module.exports = { t, messages };\n",
}

CHECK_LOCALES = """'use strict';
// Compare every locale with locales/en.json. Missing and stale keys are warnings (exit 0): the
// runtime falls back to English. --strict turns them into a failure (exit 1).
const fs = require('fs');
const path = require('path');

const dir = path.join(__dirname, '..', 'locales');
const base = JSON.parse(fs.readFileSync(path.join(dir, 'en.json'), 'utf8'));
let problems = 0;
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'en.json').sort()) {
  const other = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  for (const key of Object.keys(base)) {
    if (!(key in other)) { console.log(`warning: ${file} is missing ${key}`); problems++; }
  }
  for (const key of Object.keys(other)) {
    if (!(key in base)) { console.log(`warning: ${file} has stale key ${key}`); problems++; }
  }
}
console.log(`${problems} problem(s)`);
process.exit(process.argv.includes('--strict') && problems ? 1 : 0);
"""

T_TEST = """'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { t } = require('../src/t');

test('a missing translation falls back to English', () => {
  assert.strictEqual(t('zh-CN', 'checkout.coupon.invalid'), 'This coupon is not valid');
});

test('placeholders are filled', () => {
  assert.strictEqual(t('zh-CN', 'cart.items', { count: 3 }), '3 件商品');
});
"""

JA_JSON = ('{\n  "cart.title": "カート",\n  "cart.items": "{件数} 点",\n  "checkout.pay": "今すぐ支払う",\n'
           '  "checkout.coupon.invalid": "このクーポンは無効です",\n  "profile.save": "保存",\n'
           '  "profile.avatar.upload": "アバターをアップロード"\n}\n')

I18N_WORK = [
    fact("topic", "placeholder*|占位符"),
    fact("files", "scripts/check-locales.js"), fact("files", "locales/ja.json"),
    fact("pitfalls", "placeholder*|占位符", "翻译|translat*"),
]

SCENARIOS.append({
    "id": "mixed-i18n-locales", "lang": "mixed",
    "kinds": ["decision-in-conversation", "reason", "indirect-todo", "finished-by-user", "pitfall", "trivial-sessions"],
    "about": "中英混杂的对话：locale 的 key 对不上，助手问缺 key 时 fallback 还是报错，用户选 fallback to en、CI 只 warn 并给理由；"
             "'Before the release we need ja.json too'。下一次用户说 vendor 已经交稿、自己放进去了（用户完成），"
             "检查时发现 vendor 把占位符也翻译了（踩坑）；最后一句 'ok 👍'。",
    "projects": {"i18n-kit": I18N_FILES},
    "sessions": [
        session("i18n-kit", "locale keys: fallback to en, CI only warns", [
            turn("locales/zh-CN.json 和 en.json 的 key 对不上, some keys are missing in zh and some look stale. "
                 "写个 check script 吧, 要能在 CI 里跑",
                 read("src/t.js"),
                 bash("node -e \"const en = require('./locales/en.json'), zh = require('./locales/zh-CN.json'); "
                      "console.log('missing in zh-CN:', Object.keys(en).filter((k) => !(k in zh))); "
                      "console.log('stale in zh-CN:', Object.keys(zh).filter((k) => !(k in en)))\"",
                      description="Diff the key sets"),
                 reply("zh-CN 缺 2 个 key：checkout.coupon.invalid、profile.avatar.upload；另外有 2 个 stale key en 里早就删了："
                       "legacy.banner、promo.2024。\n\n写 check 之前先定一件事：runtime 遇到缺的 key 怎么办？\n"
                       "(a) fallback to en，页面上显示英文；\n(b) 直接显示 key 名，CI 里 fail 掉。\n"
                       "现在的 t() 是 (b) 的行为，会把 \"checkout.coupon.invalid\" 原样显示给用户。")),
            turn("fallback to en，但 CI 里只 warn 不 fail。翻译那边经常晚一周才交稿，fail 的话所有 PR 都是红的。",
                 edit("src/t.js", "  const text = (messages[locale] || {})[key];\n  return (text || key)",
                      "  const text = (messages[locale] || {})[key] ?? messages.en[key];\n  return (text ?? key)"),
                 write("scripts/check-locales.js", CHECK_LOCALES),
                 read("locales/zh-CN.json"),
                 edit("locales/zh-CN.json", '  "profile.save": "保存",\n  "legacy.banner": "旧版入口",\n  "promo.2024": "2024 年中大促"\n',
                      '  "profile.save": "保存"\n'),
                 write("test/t.test.js", T_TEST),
                 bash("npm test 2>&1 | grep -E '^# (tests|pass|fail)' && node scripts/check-locales.js",
                      description="Tests, then the check"),
                 reply("Done:\n- src/t.js: 缺的 key fallback to en，en 也没有才显示 key 名；\n"
                       "- scripts/check-locales.js: 对比每个 locale 和 en.json，missing / stale 都只打 warning、exit 0；"
                       "加 --strict 才会 exit 1；\n- zh-CN 的两个 stale key 删了，缺的两个等翻译。\n"
                       "test/t.test.js 覆盖 fallback 和占位符替换，都过了。")),
            turn("Before the release we need ja.json too — 我明天发给 vendor 翻。",
                 reply("OK，ja.json 等 vendor 交稿，到了再跑一遍 check。")),
        ], carry=[
            fact("topic", "zh-CN"),
            fact("files", "scripts/check-locales.js"), fact("files", "src/t.js"),
            fact("decisions", "fallback"),
            fact("reasons", "晚一周"),
            fact("todos", "ja.json"),
        ]),
        session("i18n-kit", "the vendor delivered ja.json; translated placeholders", [
            turn("ja 的翻译 vendor 交回来了，我已经放进 locales/ja.json 了。跑一下 check 看看？",
                 bash("node scripts/check-locales.js", description="Run the check"),
                 read("src/t.js"),
                 edit("src/t.js", "  'zh-CN': require('../locales/zh-CN.json'),\n",
                      "  'zh-CN': require('../locales/zh-CN.json'),\n  ja: require('../locales/ja.json'),\n"),
                 bash("node -e \"const { t } = require('./src/t'); console.log(t('ja', 'cart.items', { count: 3 }))\"",
                      description="Render a string with a placeholder in ja"),
                 reply("key 都齐了（只剩 zh-CN 缺的那两个），但有个问题 check 没抓到：vendor 把占位符也翻译了，"
                       "cart.items 在 ja.json 里是 \"{件数} 点\"，渲染出来就是字面的 {件数}，数字填不进去。"
                       "我给 check 加一条：每个 key 的占位符必须和 en 完全一致。")),
            turn("加吧, ja.json 里那个也顺手改掉",
                 read("scripts/check-locales.js"),
                 edit("scripts/check-locales.js",
                      "    if (!(key in other)) { console.log(`warning: ${file} is missing ${key}`); problems++; }\n",
                      "    if (!(key in other)) { console.log(`warning: ${file} is missing ${key}`); problems++; continue; }\n"
                      "    const want = (base[key].match(/\\{[^{}]+\\}/g) || []).sort().join(' ');\n"
                      "    const have = (other[key].match(/\\{[^{}]+\\}/g) || []).sort().join(' ');\n"
                      "    if (have !== want) {\n"
                      "      console.log(`warning: ${file} ${key} has placeholders [${have}], en has [${want}]`);\n"
                      "      problems++;\n    }\n"),
                 bash("node scripts/check-locales.js", description="The check now sees it"),
                 read("locales/ja.json"),
                 edit("locales/ja.json", '"{件数} 点"', '"{count} 点"'),
                 bash("node scripts/check-locales.js && node -e \"const { t } = require('./src/t'); "
                      "console.log(t('ja', 'cart.items', { count: 3 }))\" && npm test 2>&1 | grep -E '^# (pass|fail)'",
                      description="Check, render, test"),
                 reply("好了：check-locales.js 现在也比对占位符，ja.json 的 {件数} 改回 {count}，渲染出来是 \"3 点\"。\n\n"
                       "这个坑记一下：翻译 vendor 会把 {count} 这种占位符当成普通文字一起翻译，key 齐全也照样坏；"
                       "以后交稿先跑 check-locales.js，它会报 placeholders 不一致。")),
        ], carry=I18N_WORK, finished=[fact("todos", "ja.json")],
           files_before={"locales/ja.json": JA_JSON}),
        session("i18n-kit", "one line: ok 👍", [turn("ok 👍", reply("👍"))], carry=I18N_WORK),
    ],
})
