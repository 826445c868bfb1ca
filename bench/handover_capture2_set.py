"""The second to-do CAPTURE tuning set (issue 20, fourth round): open work in the classes of phrasing
the capture rules missed on data written blind, next to look-alike sentences that are not open work.

Written on 2026-11-26 by the engineer of the capture rules (branch ``capture4``) BEFORE the rules of
this round changed, after reading the misses of closing-heldout2 and closing-heldout3 (tuning,
formerly blind): it is a TUNING set and every number on it is an UPPER BOUND. The sentences are my
own, on other projects and in other words than those sets. The classes of open work:

- absence said as a state, existential or possessive: "the importer has no retry", "there is no
  rollback step", "no alerting for the nightly job", "导出接口没有分页", "配置里缺少超时";
- a scope limit: "only runs on x86 right now", "only understands CSV", "只能在 Chrome 上用";
- a present behaviour negated: "the cache doesn't invalidate on rename", "两个实例之间不同步",
  "I didn't wire up the webhook";
- a bad outcome said as what happens: "deleted rows get resurrected by the sync", "会把空格吞掉",
  "large files are silently truncated";
- an inability: "there's no way to cancel a running job", "没法按租户区分";
- a hedged wish: "it'd be nice to …", "might be worth …", "要不之后…";
- items under a lead that announces them ("Still open:", "Not done:", "Caveats:", "没弄的：");
- a to-do in the person's prompt ("remind me to …", "之后提醒我…").

Look-alikes that must not become to-dos (33): how the code works with a negation or "no" ("returns
403 when there is no session", "没有权限时返回 403"), results ("no errors", "没有报错", "no
regressions"), intended limits ("only admins can purge, by design", "只支持 UTF-8，这是需求定的"),
pitfalls already handled, a good property negated ("doesn't block the UI thread", "不会阻塞主线程"),
what a change does ("the migration only adds a nullable column"), requests to the person.

10 projects (4 Chinese, 4 English, 2 mixed), 32 planted open to-dos. ``bench_handover_tuning.py --set
capture2`` runs it; the ``spurious_todos`` count is the precision measure.

BASELINE — main c789752, ``.venv-test/bin/python bench/bench_handover_tuning.py --set capture2 --json
OUT`` with ``--checkout`` of ``git archive c789752``, offline summarizer, 2026-11-26 09:33 UTC, load
average ~3 (2 shared cores), recorded before any rule of this round changed: open to-dos captured (on a
``[ ]`` line of the next start) 11/32; spurious ``[ ]`` lines 2/14; topics 10/10, files 10/10.
After the rules of this round (branch ``capture4``, same command, 10:04–10:12 UTC): 29/32 (zh 10/12,
en 12/13, mixed 7/7), spurious 1/37 — an upper bound (BENCHMARKS.md, fourth round).
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, S, U, W

SCENARIOS = [
    ("c2-zh-export", "zh", [
        S([U("报表导出改成异步任务，导出完发站内信"),
           E("export/tasks.py"), W("export/notify.py"), B("python -m pytest tests/test_export.py -q", True, "11 passed"),
           A("导出改成 Celery 任务了，完成后发站内信，11 个用例都过了，没有报错。导出接口没有分页，一次拉全表，"
             "十万行以上会很慢；任务失败时用户那边什么提示都没有。没有权限的用户点导出会直接返回 403，这是原来就有的逻辑。"
             "文件只保留 24 小时，这是产品定的。队列里没有积压。")],
          topic=["异步任务"], files=["export/tasks.py"],
          todos=["导出接口没有分页", "任务失败时用户那边什么提示都没有"]),
        S([U("顺便帮我看下导出的文件名，之后提醒我把导出任务的并发数做成可配置的"),
           E("export/tasks.py"), B("python -m pytest tests/test_export.py -q", True, "12 passed"),
           A("文件名改成“报表名_日期.xlsx”了，12 个用例通过。中文文件名在旧版 Edge 下载时会变成乱码的问题这次也顺手处理了，"
             "现在用 RFC 5987 的 filename* 头。")],
          todos=["导出任务的并发数做成可配置"]),
        END,
    ]),
    ("c2-zh-sync", "zh", [
        S([U("门店库存和总部 ERP 每 10 分钟同步一次，写个同步脚本"),
           E("sync/erp.py"), B("python -m pytest tests/test_sync.py -q", True, "8 passed"),
           A("同步脚本写好了，每 10 分钟跑一次，8 个用例通过。两个门店实例之间的本地缓存不同步，"
             "一边改了库存另一边要等下一轮才看得到；ERP 那边删掉的商品同步过来以后会重新出现；"
             "商品名里的全角空格会被吞掉。同步过程不会阻塞收银，走的是单独的线程。条码没有变化的商品不会重复写库。")],
          topic=["同步脚本"], files=["sync/erp.py"],
          todos=["本地缓存不同步", "删掉的商品同步过来以后会重新出现", "全角空格会被吞掉"]),
        S([U("同步失败的时候能告警吗？"),
           A("现在同步失败只写日志，没法按门店区分是哪家出的问题，也没有告警。要加的话可以接企业微信机器人。")],
          light=True),
        END,
    ]),
    ("c2-zh-search", "zh", [
        S([U("商品搜索加上拼写纠错"),
           E("search/spell.py"), W("search/dict/brands.txt"), B("python -m pytest tests/test_search.py -q", True, "15 passed"),
           A("拼写纠错加上了，用编辑距离 2 以内的词典匹配，15 个用例都过了。还没弄的：\n"
             "- 纠错词典只能手工维护\n"
             "- 品牌名的别名映射\n"
             "- 纠错结果没有埋点，看不到命中率\n"
             "召回率从 71% 提到了 83%。纠错只对长度大于 3 的词生效，短词容易误纠，这是故意的。")],
          topic=["拼写纠错"], files=["search/spell.py"],
          todos=["纠错词典只能手工维护", "品牌名的别名映射", "纠错结果没有埋点"]),
        S([U("好的，辛苦"), A("不客气。")], light=True),
        END,
    ]),
    ("c2-zh-deploy", "zh", [
        S([U("帮我把发布脚本从 Jenkins 挪到 GitLab CI"),
           E(".gitlab-ci.yml"), W("deploy/release.sh"), B("bash deploy/release.sh --dry-run", True, "dry run ok"),
           A("发布流水线挪到 GitLab CI 了，dry run 通过。目前只能在 x86 的 runner 上跑，ARM 机器上 docker buildx 会报错；"
             "回滚步骤也没有，发坏了只能手工把镜像 tag 改回去。要不之后把镜像扫描也加进流水线。"
             "生产发布需要你在 GitLab 上手动点一下确认，这是你们的审批流程要求的。之前 Jenkins 上偶尔超时是因为共享 agent 被占满，"
             "新流水线用的是专用 runner。镜像只构建一次，测试和生产用的是同一个。")],
          topic=["GitLab CI"], files=[".gitlab-ci.yml"],
          todos=["只能在 x86 的 runner 上跑", "回滚步骤也没有", "把镜像扫描也加进流水线"]),
        END,
    ]),
    ("c2-en-importer", "en", [
        S([U("Write an importer for the vendors' CSV price lists"),
           E("importer/prices.py"), W("tests/test_prices.py"), B("python -m pytest tests/test_prices.py -q", True, "10 passed"),
           A("The importer reads the vendor CSVs, maps the columns by header name and upserts into prices; 10 tests "
             "pass and there were no warnings on the three sample files. It only understands comma-separated files "
             "right now, and rows with a missing SKU are silently dropped. The importer has no retry when the "
             "database connection blips. Rows without a price return a validation error with the line number, "
             "which is what the vendors asked for. The importer only reads the files; it never moves or deletes them.")],
          topic=["price lists"], files=["importer/prices.py"],
          todos=["only understands comma-separated files", "silently dropped", "has no retry"]),
        S([U("Thanks. Remind me to ask the vendors for a sample with semicolons before we support them."),
           A("Sure, noted.")],
          light=True, todos=["ask the vendors for a sample with semicolons"]),
        END,
    ]),
    ("c2-en-cache", "en", [
        S([U("Put a Redis cache in front of the product detail endpoint"),
           E("api/products.py"), W("api/cache.py"), B("pytest tests/test_products.py -q", True, "18 passed"),
           A("Product detail is cached in Redis for 10 minutes; p95 went from 240 ms to 35 ms and all 18 tests pass. "
             "Not done:\n"
             "- the cache doesn't invalidate when a product is renamed in the admin\n"
             "- there is no metric for the hit rate\n"
             "The cache key includes the locale, so translations never collide. Requests without a locale header fall "
             "back to English. There are no regressions in the checkout tests. Nothing else in the endpoint changed.")],
          topic=["Redis cache"], files=["api/products.py"],
          todos=["doesn't invalidate when a product is renamed", "no metric for the hit rate"]),
        S([U("Also I'd like the TTL to come from settings at some point. For now, fix the typo in the 404 message"),
           E("api/products.py"), B("pytest tests/test_products.py -q", True, "18 passed"),
           A("Fixed the typo: the message now reads 'Product not found'. Tests still pass.")],
          todos=["TTL to come from settings"]),
        END,
    ]),
    ("c2-en-mobile", "en", [
        S([U("Add push notifications to the Android app with FCM"),
           E("app/src/main/java/com/acme/push/PushService.kt"), B("./gradlew testDebugUnitTest", True, "BUILD SUCCESSFUL"),
           A("FCM push is in: the service registers the token on login and shows a notification per message; unit "
             "tests are green. Caveats: I didn't wire up the token refresh callback, so a rotated token is never sent "
             "to the backend; and notifications tapped while the app is killed open the home screen instead of the "
             "chat. It'd be nice to group messages per conversation too. The service doesn't block the main thread, "
             "it posts to a background handler. Only signed-in users get a token, by design.")],
          topic=["push notifications"], files=["PushService.kt"],
          todos=["didn't wire up the token refresh callback", "open the home screen instead of the chat",
                 "group messages per conversation"]),
        END,
    ]),
    ("c2-en-billing", "en", [
        S([U("Generate monthly invoices as PDFs for every tenant"),
           E("billing/invoices.py"), W("billing/templates/invoice.html"), B("pytest tests/test_invoices.py -q", True, "9 passed"),
           A("Invoices are generated on the 1st for every tenant and emailed as PDFs; 9 tests pass. There's no way to "
             "re-send a single invoice without regenerating the whole batch. Tenants on annual plans also get an "
             "empty invoice every month. The PDF renderer runs headless Chromium, so it needs no fonts on the host. "
             "You'll need to add the SMTP password to the vault on your side before the first run. The old CSV "
             "export was removed, as agreed.")],
          topic=["monthly invoices"], files=["billing/invoices.py"],
          todos=["no way to re-send a single invoice", "annual plans also get an empty invoice"]),
        S([U("Might be worth adding a dry-run flag later; for now bump the invoice number padding to 6 digits"),
           E("billing/invoices.py"), B("pytest tests/test_invoices.py -q", True, "9 passed"),
           A("Invoice numbers are padded to 6 digits now (INV-000123); tests pass. Existing invoices keep their numbers.")],
          todos=["adding a dry-run flag"]),
        END,
    ]),
    ("c2-mx-ingest", "mixed", [
        S([U("帮我写个 Kafka -> ClickHouse 的 ingest job，用 Go"),
           E("ingest/main.go"), W("ingest/batch.go"), B("go test ./ingest/...", True, "ok  ingest 1.8s"),
           A("ingest job 写好了，每 5000 条或 2 秒 flush 一次 batch，go test 全过，本地压测 8 万条/秒没有丢数据。"
             "几个问题：consumer group 的 offset 只在 flush 成功后提交，但 ClickHouse 超时的那批没有重试；"
             "schema 变更以后 job 得重启才认新字段；dead letter topic 还没有。JSON 里的 null 会写成 ClickHouse 的默认值，"
             "这是 ClickHouse 本身的行为。")],
          topic=["ingest job"], files=["ingest/main.go"],
          todos=["超时的那批没有重试", "得重启才认新字段", "dead letter topic 还没有"]),
        S([U("有空的话把 batch size 也做成 flag。现在先帮我把日志改成 JSON 格式"),
           E("ingest/main.go"), B("go test ./ingest/...", True, "ok  ingest 1.7s"),
           A("日志改成 zap 的 JSON 输出了，字段带 partition 和 offset，测试通过。")],
          todos=["batch size 也做成 flag"]),
        END,
    ]),
    ("c2-mx-docs", "mixed", [
        S([U("Set up Docusaurus for the SDK docs, 中英文两套"),
           E("docs/docusaurus.config.js"), W("docs/i18n/zh/intro.md"), B("npm run build", True, "Success! Generated static files"),
           A("Docusaurus 搭好了，npm run build 通过，英文和中文两套都能切换。Remaining gaps: the API reference "
             "pages have no Chinese version yet; 代码示例里的 import 路径是旧包名；the version dropdown only lists "
             "the current release. 侧边栏是按目录自动生成的，不用手动维护。Search 用的是 Algolia 的免费额度，够用。The build reported no broken links.")],
          topic=["Docusaurus"], files=["docs/docusaurus.config.js"],
          todos=["no Chinese version yet", "import 路径是旧包名", "version dropdown only lists"]),
        END,
    ]),
]
