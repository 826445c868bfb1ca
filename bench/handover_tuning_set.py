"""The handover TUNING set (issue 20): multi-turn sessions written to develop the extractor against.

Written before the extractor changed, in people's phrasing and deliberately away from the marker
words of ``bench_continuity.py`` (下一步 / 接下来 / 还差 / 待办 / TODO / Next steps / Remaining): a
proposal and the user's agreement, reasons, to-dos stated indirectly and with negations, finishes in
other words or stated by the user, a reverted upgrade, short sessions ("thanks", a question, "ok"),
a long session. Because the extractor was developed against these, numbers on this set are an
UPPER BOUND; the held-out set (``bench_handover_heldout.py``, written by someone else) is the
measure.

A session is a list of steps — ``U`` (the person), ``A`` (assistant text), ``E``/``W``/``R``
(Edit/Write/Read of a path in the project), ``B`` (a Bash command, its output, failed or not) — and
what it plants for the next session: phrases that must appear in the next start context.
"""

from __future__ import annotations


def U(text):
    return ("user", text)


def A(text):
    return ("say", text)


def E(path):
    return ("Edit", path)


def W(path):
    return ("Write", path)


def R(path):
    return ("Read", path)


def B(command, ok=True, output="ok"):
    return ("Bash", command, ok, output)


def S(steps, *, topic=(), files=(), decisions=(), reasons=(), todos=(), done=(), notes=(), reverted=False,
      light=False, not_decisions=(), traps=(), done_at=None):
    """One session and its planted facts (phrases): ``todos`` open after it, ``done`` earlier to-dos
    it finished, ``notes`` other facts said (numbers, warnings), ``reverted`` when its change was
    backed out, ``light`` for a short session (thanks, a question, ok) that must not push the last
    work session out of the brief, ``not_decisions`` phrases that must not be reported as decided,
    ``traps`` earlier open to-dos this session touches, asks about, reports half done or puts off
    but does NOT finish (it must not close them), ``done_at`` ``{planted finish: the 0-based user turn
    that finishes it}`` (round 9, long sessions; a finish not named is at turn 0)."""
    return {"steps": list(steps), "topic": list(topic), "files": list(files), "decisions": list(decisions),
            "reasons": list(reasons), "todos": list(todos), "done": list(done), "notes": list(notes),
            "reverted": reverted, "light": light, "not_decisions": list(not_decisions), "traps": list(traps),
            "done_at": dict(done_at or {})}


END = S([])        # the last entry of a scenario: only its start context is checked

SCENARIOS = [
    ("t-zh-pay", "zh", [
        S([U("下单接口偶尔会重复扣款，帮我看看 orders/service.py 是怎么回事"),
           R("orders/service.py"),
           A("看了一下，重复扣款是因为客户端超时后会重试，而服务端没有幂等键。有两个办法：一是给 payments 表的 "
             "request_id 加唯一索引，二是用 Redis 的 SETNX 去重。我倾向于唯一索引，因为数据库本身就能保证，"
             "不依赖 Redis 的可用性。你看用哪个？"),
           U("可以，就用唯一索引"),
           E("orders/service.py"), W("migrations/0007_payment_request_id.sql"),
           B("python -m pytest tests/test_orders.py -q", True, "14 passed"),
           A("唯一索引加好了：重复请求现在会撞上 IntegrityError，然后直接返回第一次的支付结果，测试都过了。"
             "金额为 0 的订单还没处理，之后得补上。另外上线前要先在从库确认没有重复的 request_id，不然迁移会失败。")],
          topic=["重复扣款"], files=["orders/service.py"], decisions=["唯一索引"], reasons=["不依赖 Redis 的可用性"],
          todos=["金额为 0 的订单还没处理", "在从库确认没有重复的 request_id"]),
        S([U("从库那边我查过了，没有重复的 request_id，迁移已经上线。今天把金额为 0 的订单处理一下吧"),
           E("orders/validators.py"), W("tests/test_validators.py"),
           B("python -m pytest tests/test_validators.py -q", True, "6 passed"),
           A("金额为 0 的订单现在在下单时直接拒绝，返回错误码 AMOUNT_ZERO，tests/test_validators.py 覆盖了这种情况。"
             "下回记得把 AMOUNT_ZERO 写进 docs/errors.md 的错误码表。")],
          topic=["金额为 0 的订单"], files=["orders/validators.py"], todos=["AMOUNT_ZERO 写进 docs/errors.md"],
          done=["在从库确认没有重复的 request_id", "金额为 0 的订单还没处理"]),
        S([U("谢谢！"), A("不客气。")], light=True),
        S([U("AMOUNT_ZERO 这个错误码前端会怎么展示？"), A("前端会走通用的错误提示，显示“金额不能为 0”。")], light=True),
        END,
    ]),
    ("t-en-cursors", "en", [
        S([U("The importer loses its place every time it restarts. Where should we keep the sync cursors?"),
           A("Two options: a cursors.json file next to the importer, or a small SQLite database. I'd pick SQLite — "
             "two importer processes can't corrupt it and updates are atomic. Shall I set that up?"),
           U("Fine, SQLite it is."),
           W("importer/cursor_store.py"), E("importer/run.py"), B("pytest tests/importer -q", True, "9 passed"),
           A("The importer now keeps its cursors in SQLite (importer/cursor_store.py, WAL mode), so a restart picks "
             "up where it stopped. One gap: the existing cursors.json isn't migrated, so the first run after deploy "
             "would re-import everything — we should write a one-off migration before we deploy. Also worth adding "
             "the cursors.db path to the backup job at some point.")],
          topic=["loses its place"], files=["importer/cursor_store.py"], decisions=["SQLite"],
          reasons=["can't corrupt it"], todos=["one-off migration", "cursors.db path to the backup job"]),
        S([U("let's get the old cursors.json moved over"),
           W("importer/migrate_cursors.py"), B("python importer/migrate_cursors.py --dry-run", True, "412 cursors"),
           B("pytest tests/importer -q", True, "11 passed"),
           A("importer/migrate_cursors.py copies every entry of cursors.json into the SQLite store; on a copy of the "
             "prod file it moved 412 cursors and the counts match. Heads-up: running it twice would insert "
             "duplicates — it isn't idempotent yet, and that should be fixed before it runs in prod.")],
          topic=["cursors.json moved over"], files=["importer/migrate_cursors.py"], notes=["412 cursors"],
          todos=["isn't idempotent yet"], done=["one-off migration"]),
        S([U("thanks, that's all for today"), A("You're welcome!")], light=True),
        END,
    ]),
    ("t-zh-docs", "zh", [
        S([U("文档站上有好几个链接点进去是 404，帮我修一下"),
           E("docs/guide.md"), E("docs/api.md"), B("mkdocs build --strict", True, "INFO - Documentation built"),
           A("修好了 7 个失效链接，都是 api 章节改名以后没同步。回头在 CI 里加个死链检查吧，省得以后又有人把链接改坏。")],
          topic=["404"], files=["docs/guide.md"], notes=["7 个失效链接"], todos=["在 CI 里加个死链检查"]),
        S([U("CI 里的链接检查弄一下"),
           E(".github/workflows/docs.yml"), B("lychee --offline docs/", True, "0 errors"),
           A("docs.yml 里新增了一步 lychee，离线跑，有坏链接 PR 就会失败。选了 lychee 而不是 markdown-link-check，"
             "主要是它快得多，还能离线跑。")],
          files=[".github/workflows/docs.yml"], decisions=["lychee 而不是 markdown-link-check"], reasons=["快得多"],
          done=["在 CI 里加个死链检查"]),
        S([U("lychee 会检查外部链接吗？"), A("离线模式下只查站内链接。")], light=True),
        END,
    ]),
    ("t-en-refunds", "en", [
        S([U("Add refunds to the billing API"),
           W("billing/refunds.py"), E("billing/api.py"), B("pytest tests/billing -q", True, "21 passed"),
           A("Full refunds work: POST /refunds creates the refund and reverses the ledger entry. Partial refunds "
             "aren't supported yet, so that's up next. I also haven't hooked the refund webhook up to the "
             "notification service.")],
          topic=["refunds"], files=["billing/refunds.py"],
          todos=["Partial refunds aren't supported yet", "refund webhook"]),
        S([U("do the partial ones"),
           E("billing/refunds.py"), W("tests/billing/test_partial.py"), B("pytest tests/billing -q", True, "25 passed"),
           A("Partial refunds are in: the amount is checked against what is left on the charge, and one charge can "
             "now carry several refunds. The webhook still isn't connected to notifications.")],
          files=["billing/refunds.py"], notes=["several refunds"], todos=["webhook"],
          done=["Partial refunds aren't supported yet"]),
        S([U("Connect the refund webhook to notifications"),
           E("notifications/handlers.py"), W("tests/test_notifications.py"),
           B("pytest tests/test_notifications.py -q", True, "4 passed"),
           A("Every refund now sends a message through the notification service (handlers.on_refund), covered by "
             "tests/test_notifications.py.")],
          topic=["refund webhook"], files=["notifications/handlers.py"], done=["webhook"]),
        END,
    ]),
    ("t-zh-upgrade", "zh", [
        S([U("把 pydantic 升级到 2.x 试试"),
           E("requirements.txt"), E("models/user.py"),
           B("python -m pytest -q", False, "E   AttributeError: 'User' object has no attribute 'dict'"),
           E("models/user.py"), B("python -m pytest -q", False, "31 failed, 181 passed"),
           A("v2 下 .dict()/.json() 都变了，现在有 31 个测试失败，涉及 20 多个文件。"),
           U("算了，改动太大，先退回去，还是用 1.10"),
           B("git checkout -- requirements.txt models/user.py", True, ""),
           B("python -m pytest -q", True, "212 passed"),
           A("已经退回 pydantic 1.10，requirements.txt 和 models/user.py 恢复原样，测试全绿。要升 v2 得先把 20 多处 "
             ".dict() 换成 model_dump()，等有空再弄。")],
          topic=["pydantic"], notes=["31 个测试失败"], todos=[".dict() 换成 model_dump()"], reverted=True),
        S([U("flake8 那些警告要紧吗？"), A("基本都是 E501 行太长，不影响运行。")], light=True),
        END,
    ]),
    ("t-en-etag", "en", [
        S([U("Add ETag support to the public API so clients can cache"),
           W("api/etag.py"), E("api/middleware.py"), B("pytest tests/api -q", True, "40 passed"),
           A("ETags are generated from a hash of the response body in api/etag.py and checked in the middleware; "
             "GET /products and GET /products/{id} return 304 when nothing changed. I only got through those two "
             "routes — the other ten GET endpoints still need the same treatment.")],
          topic=["ETag support"], files=["api/etag.py"], todos=["other ten GET endpoints"]),
        S([U("continue"),
           E("api/routes/orders.py"), E("api/routes/users.py"), B("pytest tests/api -q", True, "52 passed"),
           A("All twelve GET endpoints now send ETags and answer If-None-Match with 304; tests/api covers each of "
             "them. Weak ETags for the CSV exports would be nice to have later, not urgent.")],
          files=["api/routes/orders.py"], notes=["All twelve GET endpoints"], todos=["Weak ETags for the CSV exports"],
          done=["other ten GET endpoints"]),
        END,
    ]),
    ("t-zh-flags", "zh", [
        S([U("新的结账流程要上线了，帮我加个灰度开关，按用户 ID 取模放量"),
           W("config/flags.yaml"), E("checkout/flow.py"), B("python -m pytest tests/checkout -q", True, "17 passed"),
           A("加好了：new_checkout 开关在 config/flags.yaml 里，按 user_id % 100 小于放量比例进入新流程。"),
           U("对了，上线前要先把开关默认值改成关。有空的话再把放量比例做成能在后台改的。"),
           A("好的，记下了。")],
          topic=["灰度开关"], files=["config/flags.yaml"],
          todos=["开关默认值改成关", "放量比例做成能在后台改的"]),
        S([U("开关默认值那个顺手改一下"),
           E("config/flags.yaml"), B("python -m pytest tests/checkout -q", True, "17 passed"),
           A("new_checkout 现在默认 false 了，只有显式放量的用户才会进新流程。")],
          notes=["默认 false"], done=["开关默认值改成关"]),
        S([U("好"), A("👍")], light=True),
        END,
    ]),
    ("t-en-sql", "en", [
        S([U("I need a small service that reports daily active users from the events table. Should we use "
             "SQLAlchemy?"),
           A("A few ways to go: 1. SQLAlchemy Core with a reflected table, 2. the full ORM with a mapped Event class, "
             "3. plain SQL through psycopg. Each works; the ORM gives you models, raw SQL keeps the queries visible."),
           U("Let's skip the ORM — plain SQL with psycopg is fine, the queries are simple and I want to see them."),
           W("dau/report.py"), W("dau/queries.sql"), B("pytest tests/test_dau.py -q", True, "3 passed"),
           A("dau/report.py runs the query in dau/queries.sql through psycopg and prints one line per day. It "
             "assumes the events table has an index on created_at — without it the query is a full scan, so please "
             "check that before pointing it at production.")],
          topic=["daily active users"], files=["dau/report.py"], decisions=["plain SQL with psycopg"],
          reasons=["queries are simple"], todos=["index on created_at"],
          not_decisions=["SQLAlchemy Core with a reflected table"]),
        S([U("what does the report print for days with no events?"),
           A("Nothing — days without events are simply missing from the output.")], light=True),
        END,
    ]),
    ("t-zh-lock", "zh", [
        S([U("库存扣减在高并发下会超卖，帮我改成乐观锁"),
           E("inventory/stock.py"), W("migrations/0012_stock_version.sql"),
           B("python -m pytest tests/test_stock.py -q", True, "8 passed"),
           A("stock 表加了 version 列，扣减时带上 version 做条件更新，失败就重试三次。改完以后得找时间做一轮压测，"
             "看看重试率高不高。")],
          topic=["超卖"], files=["inventory/stock.py"], notes=["重试三次"], todos=["做一轮压测"]),
        S([U("压测我这边已经跑过了，重试率只有 2%，没问题。帮我把 CHANGELOG 补一下"),
           E("CHANGELOG.md"),
           A("CHANGELOG 里加了一条：库存扣减改为乐观锁（version 列），高并发下不再超卖。")],
          files=["CHANGELOG.md"], notes=["重试率只有 2%"], done=["做一轮压测"]),
        END,
    ]),
    ("t-mixed-cron", "mixed", [
        S([U("每天凌晨要清理过期的 session 记录，你看怎么做比较好？"),
           A("可以用系统 crontab 调一个 management command，也可以用项目里已经有的 Celery beat。Celery beat 的好处是"
             "配置跟代码在一起、部署时不用另外改机器。"),
           U("就按你说的，用 Celery beat，别再单独配 crontab 了，运维那边不好管。"),
           E("tasks/cleanup.py"), E("config/celery.py"), B("pytest tests/test_cleanup.py -q", True, "5 passed"),
           A("cleanup_expired_sessions 任务已加到 Celery beat，每天 03:30 跑，一次最多删 5 万行，避免长事务。"
             "还缺一个监控：任务失败的时候现在没人知道。")],
          topic=["过期的 session 记录"], files=["tasks/cleanup.py"], decisions=["Celery beat"],
          reasons=["运维那边不好管"], notes=["5 万行"], todos=["任务失败的时候现在没人知道"]),
        S([U("失败告警加上，发到 #ops 频道"),
           E("tasks/cleanup.py"), E("alerts/slack.py"), B("pytest tests/test_cleanup.py -q", True, "7 passed"),
           A("任务失败时会往 #ops 发一条 Slack 消息，带上异常和重试次数。")],
          files=["alerts/slack.py"], done=["任务失败的时候现在没人知道"]),
        END,
    ]),
    ("t-en-trivial", "en", [
        S([U("Rate-limit the public search endpoint to 30 requests a minute per API key"),
           W("api/ratelimit.py"), E("api/search.py"), B("pytest tests/test_ratelimit.py -q", True, "6 passed"),
           A("Search is limited to 30 requests per minute per API key with a sliding window in api/ratelimit.py; over "
             "the limit it answers 429 with a Retry-After header. I went with a sliding window rather than a fixed "
             "one because fixed windows let a client burst 60 requests across the boundary. The limits are "
             "hard-coded for now; they ought to move into settings eventually.")],
          topic=["Rate-limit the public search endpoint"], files=["api/ratelimit.py"], decisions=["sliding window"],
          reasons=["burst 60 requests across the boundary"], todos=["move into settings"]),
        S([U("thanks"), A("Any time.")], light=True),
        S([U("what status code do clients get when they're over?"), A("429 Too Many Requests, with Retry-After.")],
          light=True),
        S([U("ok"), A("👍")], light=True),
        END,
    ]),
    ("t-zh-long", "zh", [
        S([U("把 utils 里所有 print 调试语句换成 logging，顺便统一日志格式"),
           *[step for i in range(14) for step in (R(f"utils/mod{i:02d}.py"), E(f"utils/mod{i:02d}.py"))],
           W("logging_config.py"),
           *[step for i in range(14, 22) for step in (R(f"utils/mod{i:02d}.py"), E(f"utils/mod{i:02d}.py"))],
           B("python -m pytest -q", False, "E   NameError: name 'logger' is not defined"),
           E("utils/mod07.py"), B("python -m pytest -q", True, "188 passed"),
           B("grep -rn 'print(' utils/ | wc -l", True, "1"),
           A("一共替换了 46 处 print，日志格式统一为 '%(asctime)s %(levelname)s %(name)s: %(message)s'，在 "
             "logging_config.py 里集中配置。注意 utils/retry.py 里的 print 是故意输出到 stdout 给外部脚本解析的，"
             "没有改。日志轮转还没配，之后要加上。")],
          topic=["print 调试语句换成 logging"], files=["logging_config.py"], notes=["46 处 print"],
          todos=["日志轮转还没配"]),
        S([U("日志轮转加一下"),
           E("logging_config.py"), B("python -m pytest -q", True, "188 passed"),
           A("logging_config.py 改用 RotatingFileHandler，单个文件 50MB，保留 5 个。")],
          notes=["RotatingFileHandler"], done=["日志轮转还没配"]),
        END,
    ]),
    ("t-en-options", "en", [
        S([U("The nightly export keeps timing out. Can you look at export/nightly.py?"),
           R("export/nightly.py"),
           A("The query pulls 9M rows in one go. We could (a) paginate by primary key in chunks of 50k, or (b) move "
             "the export to a read replica and keep the single query. Paginating fixes the timeout for good; the "
             "replica only buys time."),
           U("Go with the first one."),
           E("export/nightly.py"), B("pytest tests/test_export.py -q", True, "12 passed"),
           A("export/nightly.py now walks the table by id in 50k chunks; a full run took 6 minutes instead of timing "
             "out at 30. Haven't touched the CSV header order the finance team complained about — that's still "
             "outstanding.")],
          topic=["nightly export"], files=["export/nightly.py"], decisions=["paginate by primary key"],
          reasons=["fixes the timeout for good"], notes=["6 minutes"], todos=["CSV header order"],
          not_decisions=["move the export to a read replica"]),
        S([U("Fix the header order finance wants: date, account, amount"),
           E("export/nightly.py"), B("pytest tests/test_export.py -q", True, "13 passed"),
           A("Columns now come out as date, account, amount, matching what finance asked for.")],
          done=["CSV header order"]),
        END,
    ]),
]
