"""To-do CLOSING traps of the sixth round (issue 20): partial reports and "continue" sessions —
TUNING data, written by the rule's engineer — an upper bound.

Written by the engineer of the rejecting guards (branch ``wrongs6``, 2026-11-26) BEFORE changing any
rule, in his own words: the wrong closes of closing-heldout5/6 (tuning, formerly blind) and of the
lead's probe gave the classes, not the phrasings. Every number on it is an upper bound: the guards
are tuned against it.

9 projects (4 English, 3 Chinese, 2 mixed), 4–5 sessions each plus a last start. Each first session
leaves two open to-dos; later sessions spring a trap of one class and, in a neighbouring session,
finish the same to-do in other words (so precision is not bought by never closing):

- a partial report: part of the to-do's work done and another part said to be open, in the same
  sentence or the next ("I translated the guides; the API reference pages aren't done yet", "定时任务
  迁了一半：…剩下三个还没迁", "3 of the 5 fields are validated now", "Tutorials are translated, 但 API
  文档还没翻");
- a bare "continue" that does other work on the to-do's own file ("Refactored the signup handler",
  "给 compress.py 加了 EXIF 方向校正");
- two bare "continue" sessions in a row, each doing other work on the file whose path shares a word
  with the to-do (``sync/order_sync.py`` and "同步失败的订单没有重试"; ``api/search.py`` and "Search
  results aren't paginated");
- file evidence where the path shares a word with the to-do but the report names other work
  (``billing/refunds.py`` edited for a new S3 prefix, "no tests for refunds");
- a to-do restated and carried over ("这次先不动，下次一起改"), then other work on its file after
  "继续".

18 open to-dos planted; 34 traps (``traps``: an open to-do the session must NOT close) and 18 right
closes (``done``). Same shapes as ``handover_tuning_set.py``; ``bench_handover_tuning.py --set
wrongs6`` runs it.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, U, W
from handover_wrongs_set import S

PYTEST = "pytest -q"
NPM = "npm test"

SCENARIOS = [
    # ---------------------------------------------------------------- English
    ("w6-en-i18n", "en", [
        S([U("Translate the docs site into German."),
           W("docs/de/index.md"), W("docs/astro.config.mjs"), B("npm run build", True, "38 page(s) built"),
           A("The German landing page is live and the build passes. The guides and the API reference aren't "
             "translated into German yet. The language switcher doesn't remember the reader's choice.")],
          topic=["docs site into German"], files=["docs/de/index.md"],
          todos=["guides and the API reference aren't translated", "switcher doesn't remember"]),
        S([U("Carry on with the German translation."),
           W("docs/de/guides/install.md"), W("docs/de/guides/config.md"), B("npm run build", True, "52 page(s) built"),
           A("I translated all 14 guides into German. The API reference pages aren't done yet — there are 60 of "
             "them and the parameter tables need care.")],
          traps=["guides and the API reference aren't translated", "switcher doesn't remember"]),
        S([U("Now do the API reference."),
           W("docs/de/reference/client.md"), W("docs/de/reference/server.md"), B("npm run build", True,
                                                                               "112 page(s) built"),
           A("All 60 API reference pages are in German now, so the whole site has a German version; the build "
             "passes.")],
          done=["guides and the API reference aren't translated"], traps=["switcher doesn't remember"]),
        S([U("Make the language switcher keep the reader's choice."),
           E("docs/src/components/LangSwitch.astro"), B("npm run build", True, "112 page(s) built"),
           A("The switcher stores the picked language in localStorage and restores it on every page; the build "
             "passes.")],
          done=["switcher doesn't remember"]),
        END,
    ]),
    ("w6-en-signup", "en", [
        S([U("Add input validation to the signup API."),
           E("api/signup.py"), B(PYTEST, True, "9 passed"),
           A("Email and password are validated and the tests pass. Five signup fields still have no validation: "
             "phone, birthday, country, zip and referral code. The signup endpoint has no rate limit.")],
          topic=["input validation to the signup API"], files=["api/signup.py"],
          todos=["Five signup fields still have no validation", "signup endpoint has no rate limit"]),
        S([U("Validate the remaining signup fields."),
           E("api/signup.py"), B(PYTEST, True, "14 passed"),
           A("3 of the 5 fields are validated now: phone, birthday and country. Zip and referral code still "
             "have none; I need the list of valid referral formats.")],
          traps=["Five signup fields still have no validation", "signup endpoint has no rate limit"]),
        S([U("continue"),
           E("api/signup.py"), B(PYTEST, True, "14 passed"),
           A("Split the signup handler into smaller functions and added type hints throughout; the tests "
             "pass.")],
          traps=["Five signup fields still have no validation", "signup endpoint has no rate limit"]),
        S([U("Referral codes are REF- plus four digits, or eight hex characters. Finish the field validation."),
           E("api/signup.py"), B(PYTEST, True, "19 passed"),
           A("Zip and referral code are validated too, so every field of the signup form is checked now; 19 "
             "tests pass.")],
          done=["Five signup fields still have no validation"], traps=["signup endpoint has no rate limit"]),
        S([U("Throttle the signup endpoint."),
           E("api/signup.py"), E("api/throttle.py"), B(PYTEST, True, "21 passed"),
           A("Signups are throttled to 5 a minute per IP with a token bucket; the 6th gets a 429. 21 tests "
             "pass.")],
          done=["signup endpoint has no rate limit"]),
        END,
    ]),
    ("w6-en-search", "en", [
        S([U("Add a search endpoint to the notes API."),
           W("api/search.py"), B(PYTEST, True, "11 passed"),
           A("GET /search works with SQLite FTS5 and the tests pass. Search results aren't paginated yet, so a "
             "common word returns thousands of rows. Search doesn't rank newer notes higher "
             "yet.")],
          topic=["search endpoint"], files=["api/search.py"],
          todos=["Search results aren't paginated", "doesn't rank newer notes higher"]),
        S([U("continue"),
           E("api/search.py"), B(PYTEST, True, "13 passed"),
           A("Matched words are highlighted in the snippets now; 13 tests pass.")],
          traps=["Search results aren't paginated", "doesn't rank newer notes higher"]),
        S([U("continue"),
           E("api/search.py"), B(PYTEST, True, "15 passed"),
           A("The query ignores accents now, so café matches cafe; 15 tests pass.")],
          traps=["Search results aren't paginated", "doesn't rank newer notes higher"]),
        S([U("Give the results pages of 20 with a cursor."),
           E("api/search.py"), B(PYTEST, True, "18 passed"),
           A("/search takes ?cursor= and returns 20 hits a page with the next cursor; 18 tests pass.")],
          done=["Search results aren't paginated"], traps=["doesn't rank newer notes higher"]),
        S([U("Let newer notes rank higher."),
           E("api/search.py"), B(PYTEST, True, "20 passed"),
           A("Ranking multiplies BM25 by a decay on the note's age, so last week's notes come first; 20 tests "
             "pass.")],
          done=["doesn't rank newer notes higher"]),
        END,
    ]),
    ("w6-en-billing", "en", [
        S([U("Write the nightly billing export job."),
           W("billing/export.py"), W("billing/refunds.py"), B(PYTEST, True, "8 passed"),
           A("The billing export runs nightly and writes Parquet files to S3; 8 tests pass. There are no tests "
             "for refunds. Invoices in currencies other than USD aren't exported yet.")],
          topic=["nightly billing export"], files=["billing/export.py"],
          todos=["no tests for refunds", "currencies other than USD aren't exported"]),
        S([U("Move the S3 prefix to billing-v2."),
           E("billing/export.py"), E("billing/refunds.py"), B(PYTEST, True, "8 passed"),
           A("Both writers use s3://data/billing-v2/ now and the old prefix is gone from the config; 8 tests "
             "pass.")],
          traps=["no tests for refunds", "currencies other than USD aren't exported"]),
        S([U("Cover the refund path with tests."),
           W("tests/test_refunds.py"), B(PYTEST, True, "15 passed"),
           A("tests/test_refunds.py checks full and partial refunds and a refund issued after the export ran; "
             "15 tests pass.")],
          done=["no tests for refunds"], traps=["currencies other than USD aren't exported"]),
        S([U("Export the EUR and GBP invoices too."),
           E("billing/export.py"), W("billing/fx.py"), B(PYTEST, True, "18 passed"),
           A("Non-USD invoices are converted at the day's ECB rate and exported with their original amount; 18 "
             "tests pass.")],
          done=["currencies other than USD aren't exported"]),
        END,
    ]),
    # ---------------------------------------------------------------- Chinese
    ("w6-zh-airflow", "zh", [
        S([U("把老机器上的定时任务从 crontab 迁到 Airflow"),
           W("dags/_template.py"), B("airflow dags test _template", True, "DagRun Finished: state=success"),
           A("Airflow 环境搭好了，DAG 模板也写了，测试跑通。五个定时任务都还没迁过去，还在老机器的 crontab 上跑。"
             "任务失败的告警还没接到钉钉。")],
          topic=["定时任务"], files=["dags/_template.py"],
          todos=["五个定时任务都还没迁过去", "告警还没接到钉钉"]),
        S([U("先迁定时任务"),
           W("dags/report_daily.py"), W("dags/reconcile.py"), B("airflow dags test report_daily", True,
                                                                "DagRun Finished: state=success"),
           A("定时任务迁了一半：日报和对账两个已经在 Airflow 上跑通了，剩下三个依赖老机器上的脚本，还没迁。")],
          traps=["五个定时任务都还没迁过去", "告警还没接到钉钉"]),
        S([U("老机器上的脚本我拷到 scripts/legacy 了，把剩下的三个也迁完"),
           W("dags/cleanup.py"), W("dags/sync_stock.py"), W("dags/weekly_mail.py"),
           B("airflow dags test weekly_mail", True, "DagRun Finished: state=success"),
           A("剩下三个也迁好了，五个任务都在 Airflow 上各跑了一轮，老机器的 crontab 已经清空。")],
          done=["五个定时任务都还没迁过去"], traps=["告警还没接到钉钉"]),
        S([U("任务失败的时候发钉钉"),
           E("dags/_template.py"), W("plugins/dingtalk.py"), B("airflow dags test _template", True, "success"),
           A("DAG 模板加了 on_failure_callback，失败会往钉钉群发一条带日志链接的消息，故意弄挂了一次，群里收到了。")],
          done=["告警还没接到钉钉"]),
        END,
    ]),
    ("w6-zh-ordersync", "zh", [
        S([U("写一个把订单同步到 ERP 的服务"),
           W("sync/order_sync.py"), B(PYTEST, True, "12 passed"),
           A("订单同步服务写好了，每 5 分钟拉一次，测试通过。同步失败的订单没有重试，失败了就丢了。"
             "同步日志里没有订单号，出了问题查不到是哪一单。")],
          topic=["订单同步到 ERP"], files=["sync/order_sync.py"],
          todos=["同步失败的订单没有重试", "同步日志里没有订单号"]),
        S([U("继续"),
           E("sync/order_sync.py"), B(PYTEST, True, "13 passed"),
           A("拉取间隔改成可配置的了，默认还是 5 分钟，测试通过。")],
          traps=["同步失败的订单没有重试", "同步日志里没有订单号"]),
        S([U("继续"),
           E("sync/order_sync.py"), B(PYTEST, True, "13 passed"),
           A("给 ERP 接口加了连接池，压测下吞吐翻了一倍，测试通过。")],
          traps=["同步失败的订单没有重试", "同步日志里没有订单号"]),
        S([U("失败的订单加个重试"),
           E("sync/order_sync.py"), B(PYTEST, True, "16 passed"),
           A("推送失败的订单会进重试队列，按指数退避最多重试 5 次，还失败就标记为人工处理，测试通过。")],
          done=["同步失败的订单没有重试"], traps=["同步日志里没有订单号"]),
        S([U("日志里把订单号打出来"),
           E("sync/order_sync.py"), B(PYTEST, True, "16 passed"),
           A("每条同步日志都带上订单号和 ERP 返回的单据号了，按订单号能直接 grep 到，测试通过。")],
          done=["同步日志里没有订单号"]),
        END,
    ]),
    ("w6-zh-compress", "zh", [
        S([U("给图片上传加压缩"),
           W("upload/compress.py"), B(PYTEST, True, "7 passed"),
           A("上传时会压成 WebP，质量 80，测试通过。compress.py 里的最大边长写死成 2048 了，应该挪到配置里。"
             "GIF 动图还没处理，压完只剩第一帧。")],
          topic=["图片上传加压缩"], files=["upload/compress.py"],
          todos=["最大边长写死成 2048", "GIF 动图还没处理"]),
        S([U("最大边长那个你先看看怎么改"),
           A("看了一下，最大边长要跟前端的裁剪框一起改，这次先不动，下次一起挪到配置里。")],
          light=True, traps=["最大边长写死成 2048"]),
        S([U("继续"),
           E("upload/compress.py"), B(PYTEST, True, "9 passed"),
           A("给 compress.py 加了 EXIF 方向校正，竖着拍的照片不会再躺倒了，测试通过。")],
          traps=["最大边长写死成 2048", "GIF 动图还没处理"]),
        S([U("把最大边长挪到配置里，前端那边我改好了"),
           E("upload/compress.py"), W("config/upload.yaml"), B(PYTEST, True, "10 passed"),
           A("最大边长改成从 config/upload.yaml 读，默认 2048，前端裁剪框读同一个值，测试通过。")],
          done=["最大边长写死成 2048"], traps=["GIF 动图还没处理"]),
        S([U("动图也处理一下"),
           E("upload/compress.py"), B(PYTEST, True, "12 passed"),
           A("GIF 现在逐帧压成动画 WebP，帧率和循环次数都保留，测试通过。")],
          done=["GIF 动图还没处理"]),
        END,
    ]),
    # ---------------------------------------------------------------- mixed
    ("w6-mix-docs", "mixed", [
        S([U("把项目的 README 和 docs 翻成英文"),
           W("README.en.md"), B("mkdocs build --strict", True, "INFO - Documentation built"),
           A("README 已经翻成英文了，strict build 通过。docs/ 下面的教程和 API 文档都还没翻。"
             "CI 里没有检查中英文档是否一致，改了中文很容易忘了英文。")],
          topic=["翻成英文"], files=["README.en.md"],
          todos=["教程和 API 文档都还没翻", "CI 里没有检查中英文档是否一致"]),
        S([U("接着翻 docs"),
           W("docs/en/tutorial.md"), W("docs/en/quickstart.md"), B("mkdocs build --strict", True,
                                                                   "INFO - Documentation built"),
           A("Tutorials are in English now, 但 API 文档还没翻，参数表太多了，下次弄。")],
          traps=["教程和 API 文档都还没翻", "CI 里没有检查中英文档是否一致"]),
        S([U("API 文档也翻完吧"),
           W("docs/en/api.md"), B("mkdocs build --strict", True, "INFO - Documentation built"),
           A("API docs are translated as well — every page under docs/ has an English version now, strict build "
             "通过。")],
          done=["教程和 API 文档都还没翻"], traps=["CI 里没有检查中英文档是否一致"]),
        S([U("CI 加个检查，中英文档对不上就报错"),
           W("tools/check_translations.py"), E(".github/workflows/docs.yml"),
           B("python tools/check_translations.py", True, "42 pairs checked, 0 out of date"),
           A("CI 新增一步 check_translations：中文页比英文页新就失败，现在 42 对页面都是最新的。")],
          done=["CI 里没有检查中英文档是否一致"]),
        END,
    ]),
    ("w6-mix-cache", "mixed", [
        S([U("给 product API 加 Redis 缓存"),
           W("api/cache.py"), E("api/products.py"), B(PYTEST, True, "21 passed"),
           A("商品详情走 Redis 缓存了，命中率压测下 94%，测试通过。改价以后缓存还没做失效，得等 TTL 过期。"
             "Cache keys have no version prefix, so a schema change serves stale JSON.")],
          topic=["Redis 缓存"], files=["api/cache.py"],
          todos=["改价以后缓存还没做失效", "Cache keys have no version prefix"]),
        S([U("continue"),
           E("api/cache.py"), B(PYTEST, True, "23 passed"),
           A("Added hit and miss counters to the cache module and a /metrics line for them; tests pass.")],
          traps=["改价以后缓存还没做失效", "Cache keys have no version prefix"]),
        S([U("改价的时候把缓存清掉"),
           E("api/products.py"), E("api/cache.py"), B(PYTEST, True, "25 passed"),
           A("改价、改库存以后都会删掉对应商品的缓存 key，下一次请求就拿到新价格，测试通过。"
             "The key prefix is next.")],
          done=["改价以后缓存还没做失效"], traps=["Cache keys have no version prefix"]),
        S([U("continue"),
           E("api/cache.py"), B(PYTEST, True, "26 passed"),
           A("Every cache key now starts with v2: and the prefix is bumped whenever the product schema changes, "
             "so old JSON is never served; tests pass.")],
          done=["Cache keys have no version prefix"]),
        END,
    ]),
]
