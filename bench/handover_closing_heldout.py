"""The to-do CLOSING HELD-OUT set (issue 20): to-dos finished later in other words, written blind.

Written blind on 2026-11-26 by someone who did not read the closing rules (summary/todos.py,
summary/clauses.py, summary/extract.py, text/keywords.py) nor the scenarios of the closing tuning
set (``handover_closing_set.py``) beyond its docstring and first scenario. It is the measure of
the closing rules: NEVER tune to it — do not read its misses to change a rule; write a new set
instead. (Later the same day its misses were read to develop the third round of closing rules, so
it is TUNING data now: its numbers are an upper bound.)

12 projects (5 Chinese, 5 English, 2 mixed), 21 to-dos finished later in other words — said in a
report ("搞定了", "合进去了", "上了", "landed", "that's in", "shipped", "wired up"), by a request and
work that passed, by the person stating it ("流式导出那个我周末自己弄好了", "Priya went through the
guide on her Windows laptop"), by numbers as evidence ("p99 is 40 ms", "主包从 1.8MB 降到 420KB"),
by evidence alone (the named file edited and its command passed, after a bare "继续") — and 14
traps that must NOT close one: a "not yet" / "还没" answer, the same file edited for something
else, half-finished work, a failed run, a sibling to-do finished, work put off again.

Same shapes as ``handover_closing_set.py``: each session's ``todos`` are open after it (checked on
a ``[ ]`` line of the next start) and ``done`` are earlier to-dos it finished (checked gone from
``[ ]`` lines); ``bench_handover_tuning.py --set closing-heldout`` runs it and counts wrong closes
from the to-do index.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, S, U, W

SCENARIOS = [
    ("h-zh-export", "zh", [
        S([U("运营要按月导出订单，做个 CSV 导出接口"),
           W("orders/export.py"), E("orders/routes.py"), B("python -m pytest tests/test_export.py -q", True, "6 passed"),
           A("导出接口好了，/orders/export?month=2026-10 直接返回 CSV。还有两件事没弄：金额列现在是分，财务要的是元，"
             "得除以 100；另外超过 5 万行的月份会超时，得改成流式写出。")],
          topic=["CSV 导出"], files=["orders/export.py"],
          todos=["金额列现在是分", "得改成流式写出"]),
        S([U("金额那个改成元了吗？"), A("还没，导出里的金额还是按分输出的。")], light=True),
        S([U("把金额换算成元，保留两位小数"),
           E("orders/export.py"), B("python -m pytest tests/test_export.py -q", True, "7 passed"),
           A("搞定了，金额列现在是 123.45 这种格式，财务那边可以直接用。")],
          done=["金额列现在是分"]),
        S([U("流式导出那个我周末自己弄好了，11 月 8 万行 4 秒就导完。今天看看别的"),
           A("好的，那导出这块就齐了。")],
          done=["得改成流式写出"]),
        END,
    ]),
    ("h-zh-push", "zh", [
        S([U("App 推送老是重复，用户会收到两条一样的"),
           E("push/sender.py"), B("python -m pytest tests/test_push.py -q", True, "9 passed"),
           A("重复是因为重试时没有幂等键，我给每条推送加了 message_id 去重，Redis 里保留 24 小时。iOS 角标清零在 "
             "push/badge.py 里还没接上，角标数字会一直涨；另外失败重试现在是立即重试，最好改成指数退避。")],
          topic=["推送"], files=["push/sender.py"],
          todos=["角标清零", "改成指数退避"]),
        S([U("推送文案里的用户名要脱敏，只显示姓"),
           E("push/sender.py"), B("python -m pytest tests/test_push.py -q", True, "11 passed"),
           A("推送文案里的名字现在只保留姓，后面用 * 代替，测试也补上了。")]),
        S([U("重试间隔按 1 秒、2 秒、4 秒翻倍，最多 5 次"),
           E("push/sender.py"), B("python -m pytest tests/test_push.py -q", True, "12 passed"),
           A("弄好了，第 5 次还失败就进死信队列。")],
          done=["改成指数退避"]),
        S([U("继续"),
           E("push/badge.py"), B("python -m pytest tests/test_badge.py -q", True, "4 passed"),
           A("好了。")],
          done=["角标清零"]),
        END,
    ]),
    ("h-zh-migrate", "zh", [
        S([U("把用户表从 MySQL 迁到 PostgreSQL，先写迁移脚本"),
           W("migrate/users.py"), B("python migrate/users.py --dry-run", True, "migrated 120000 rows (dry run)"),
           A("迁移脚本写好了，dry run 跑通了 12 万行。不过带 emoji 的昵称到 PG 里会乱码，字符集转换还要处理一下。"
             "正式迁移之前还得和 DBA 约个停机窗口。")],
          topic=["PostgreSQL"], files=["migrate/users.py"],
          todos=["字符集转换还要处理一下", "和 DBA 约个停机窗口"]),
        S([U("先弄昵称乱码"),
           E("migrate/users.py"),
           B("python migrate/users.py --dry-run", False, "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xf0"),
           A("改了一半：普通中文昵称没问题了，4 字节的 emoji 还是报错，明天接着查。")]),
        S([U("接着弄 emoji 的问题"),
           E("migrate/users.py"), B("python migrate/users.py --dry-run", True, "migrated 120000 rows (dry run), 0 errors"),
           A("原因是源库连接用的 utf8 而不是 utf8mb4，换过来以后带 emoji 的昵称全迁过去了，抽查 200 条都正常。")],
          done=["字符集转换还要处理一下"]),
        S([U("停机时间跟 DBA 定了，周六凌晨 2 点到 4 点"), A("收到，周六凌晨 2 点到 4 点迁移。")],
          done=["和 DBA 约个停机窗口"]),
        END,
    ]),
    ("h-zh-search", "zh", [
        S([U("商品搜索里搜'苹果手机'搜不到 iPhone"),
           E("search/synonyms.py"), B("python -m pytest tests/test_search.py -q", True, "18 passed"),
           A("加了一张同义词表，'苹果手机'现在能搜到 iPhone 了。拼音搜索还不支持，输 pingguo 什么都搜不到；"
             "同义词表现在写死在代码里，以后应该放到后台让运营自己配。")],
          topic=["同义词"], files=["search/synonyms.py"],
          todos=["拼音搜索还不支持", "放到后台让运营自己配"]),
        S([U("拼音那个这周先不做了，排到下个迭代吧"), A("好，拼音搜索挪到下个迭代。")], light=True),
        S([U("同义词再加几组：笔记本对 laptop，耳机对 earphone"),
           E("search/synonyms.py"), B("python -m pytest tests/test_search.py -q", True, "19 passed"),
           A("加上了，这两组现在都能互相搜到。")]),
        S([U("拼音搜索用 pypinyin 接上吧"),
           E("search/index.py"), B("python -m pytest tests/test_search.py -q", True, "23 passed"),
           A("拼音搜索上了：建索引时多存一份拼音，输 pingguo 或者 pg 都能搜到苹果。")],
          done=["拼音搜索还不支持"]),
        END,
    ]),
    ("h-zh-dashboard", "zh", [
        S([U("仪表盘首页要 6 秒才出来，优化一下"),
           E("web/dashboard.ts"), B("npm test", True, "41 passed"),
           A("把 5 个接口改成并行请求，首屏从 6 秒降到 2.1 秒。图表库还是整包引入的，打出来 1.8MB，应该按需加载；"
             "还有深色模式下折线图的颜色看不清。")],
          topic=["仪表盘"], files=["web/dashboard.ts"],
          todos=["图表库还是整包引入的", "深色模式下折线图的颜色看不清"]),
        S([U("图表库拆成按需加载"),
           E("web/charts.ts"), B("npm run build", True, "dist/main.js 420 kB"),
           A("合进去了，主包从 1.8MB 降到 420KB。")],
          done=["图表库还是整包引入的"]),
        S([U("修一下深色模式折线图的颜色"),
           E("web/charts.ts"), B("npm test", False, "1 failed: dark theme snapshot mismatch"),
           A("颜色换了，但深色模式的快照测试没过，对比度还差一点，得再调。")]),
        S([U("对比度按 WCAG 调到 4.5 以上"),
           E("web/charts.ts"), B("npm test", True, "42 passed"),
           A("深色模式下折线图对比度到 4.8 了，快照也更新了，全部通过。")],
          done=["深色模式下折线图的颜色看不清"]),
        END,
    ]),
    ("h-en-vat", "en", [
        S([U("Invoices need to show VAT for EU customers"),
           E("billing/invoice.py"), B("pytest tests/billing -q", True, "31 passed"),
           A("Invoices now carry a VAT line for EU addresses, using the rate table in billing/vat_rates.py. Two gaps: "
             "the rates for Norway and Switzerland are missing since they're outside the EU, and the PDF template "
             "still prints the old totals block without the VAT breakdown.")],
          topic=["VAT"], files=["billing/invoice.py"],
          todos=["rates for Norway and Switzerland are missing", "PDF template still prints the old totals block"]),
        S([U("Add NO and CH to the rate table"),
           E("billing/vat_rates.py"), B("pytest tests/billing -q", True, "33 passed"),
           A("Landed — Norway at 25% and Switzerland at 8.1%, with a test for each.")],
          done=["rates for Norway and Switzerland are missing"]),
        S([U("Does the PDF show the VAT breakdown yet?"),
           A("Not yet — the PDF still uses the old totals block; only the HTML invoice has the breakdown.")],
          light=True),
        S([U("ok, do the pdf one"),
           E("billing/templates/invoice_pdf.html"), B("pytest tests/billing -q", True, "35 passed"),
           A("That's in: the PDF lists net, VAT and gross per rate, same as the HTML version.")],
          done=["PDF template still prints the old totals block"]),
        END,
    ]),
    ("h-en-ci", "en", [
        S([U("CI takes 25 minutes, can we cut it down?"),
           E(".github/workflows/ci.yml"), B("act -j test", True, "job succeeded in 11m"),
           A("Split the tests into 4 shards and cached the pip downloads: 11 minutes now. The docker image build "
             "still runs on every push even when the Dockerfile didn't change, and the flaky "
             "test_websocket_reconnect fails about one run in ten.")],
          topic=["shards"], files=[".github/workflows/ci.yml"],
          todos=["docker image build still runs on every push", "flaky test_websocket_reconnect"]),
        S([U("Also add a lint job"),
           E(".github/workflows/ci.yml"), B("act -j lint", True, "job succeeded in 40s"),
           A("Added a ruff job that runs alongside the shards; it takes 40 seconds.")]),
        S([U("I fixed test_websocket_reconnect myself last night — it was a race on the port. It has passed 50 runs "
             "in a row since."),
           A("Great, that takes care of the flake.")],
          done=["flaky test_websocket_reconnect"]),
        S([U("Only rebuild the image when the Dockerfile or requirements change"),
           E(".github/workflows/ci.yml"), B("act push", True, "build-image skipped; test succeeded"),
           A("Wired up a paths filter, so a docs-only push skips the image build entirely.")],
          done=["docker image build still runs on every push"]),
        END,
    ]),
    ("h-en-latency", "en", [
        S([U("The /search endpoint has a p99 of 900 ms. Find out why."),
           E("api/search.py"), B("pytest tests/test_search_api.py -q", True, "14 passed"),
           A("Most of it was an N+1 query loading tags per result; batched it, p99 is 310 ms now. Still above the "
             "100 ms target: the ranking step recomputes embeddings on every request. Also the slow query log "
             "isn't enabled in production, so we can't see regressions.")],
          topic=["N+1"], files=["api/search.py"],
          todos=["recomputes embeddings on every request", "slow query log isn't enabled in production"]),
        S([U("cache the embeddings"),
           E("api/ranking.py"), B("pytest tests/test_search_api.py -q", False, "2 failed: stale embedding after update"),
           A("I started on the embedding cache but invalidation on document updates isn't right yet — two tests "
             "fail. Leaving it here for today.")]),
        S([U("continue with the cache"),
           E("api/ranking.py"), B("pytest tests/test_search_api.py -q", True, "16 passed"),
           A("Invalidation is keyed on the document's updated_at now. p99 is 40 ms.")],
          done=["recomputes embeddings on every request"]),
        S([U("Let's leave the slow query log until after the release freeze."),
           A("Sure, it stays on the list for after the freeze.")], light=True),
        END,
    ]),
    ("h-en-onboarding", "en", [
        S([U("New hires can't get the dev environment running. Write a setup guide."),
           W("docs/setup.md"), B("make docs", True, "built 1 page"),
           A("docs/setup.md walks through Python, Postgres and the seed data. The Windows steps are untested — I "
             "only checked macOS and Linux. And the seed script needs a sample .env file that doesn't exist in "
             "the repo yet.")],
          topic=["setup guide"], files=["docs/setup.md"],
          todos=["Windows steps are untested", "sample .env file that doesn't exist"]),
        S([U("add the example env file"),
           W(".env.example"), E("docs/setup.md"), B("make check-env", True, "all 14 variables documented"),
           A("Added .env.example with all 14 variables and a comment on each; the guide links to it.")],
          done=["sample .env file that doesn't exist"]),
        S([U("Priya went through the guide on her Windows laptop this morning and it worked end to end, apart "
             "from one typo she fixed."),
           A("Good to hear.")],
          done=["Windows steps are untested"]),
        END,
    ]),
    ("h-en-upload", "en", [
        S([U("Uploads over 10 MB fail on mobile."),
           E("upload/handler.go"), B("go test ./upload/...", True, "ok  example.com/app/upload 1.2s"),
           A("Switched to chunked uploads with 5 MB parts, so a 200 MB video goes through. Resuming an "
             "interrupted upload isn't supported yet — it restarts from zero. And the progress bar in the "
             "Android app still jumps from 0 to 100.")],
          topic=["chunked uploads"], files=["upload/handler.go"],
          todos=["Resuming an interrupted upload isn't supported", "progress bar in the Android app"]),
        S([U("Reject files that aren't images or video"),
           E("upload/handler.go"), B("go test ./upload/...", True, "ok  example.com/app/upload 1.3s"),
           A("Uploads now check the MIME type and answer 415 for anything else.")]),
        S([U("Resumable uploads please"),
           E("upload/handler.go"), W("upload/session.go"), B("go test ./upload/...", True, "ok  example.com/app/upload 2.0s"),
           A("Shipped: the client asks for the last part received and continues from there; cutting the "
             "connection at 60% and reconnecting finishes the file.")],
          done=["Resuming an interrupted upload isn't supported"]),
        S([U("is the android progress bar smooth now?"),
           A("No, I haven't touched the Android app; it still jumps from 0 to 100.")], light=True),
        END,
    ]),
    ("h-mix-i18n", "mixed", [
        S([U("帮我把 settings 页面做成 i18n，先支持 English 和中文"),
           E("web/settings.tsx"), W("locales/zh.json"), W("locales/en.json"), B("npm test", True, "58 passed"),
           A("settings 页面的文案都抽到 locales 里了。日期格式还是写死的 YYYY-MM-DD，English 用户应该看到 MM/DD/YYYY；"
             "另外 error messages from the API are still English only。")],
          topic=["i18n"], files=["web/settings.tsx"],
          todos=["日期格式还是写死的", "error messages from the API are still English only"]),
        S([U("日期按 locale 格式化"),
           E("web/settings.tsx"), B("npm test", True, "60 passed"),
           A("弄好了，用 Intl.DateTimeFormat，English 显示 11/26/2026，中文显示 2026年11月26日。")],
          done=["日期格式还是写死的"]),
        S([U("API errors 也翻译一下"),
           E("api/errors.py"), W("locales/api_zh.json"), B("pytest tests/test_errors.py -q", True, "27 passed"),
           A("Done — the API reads Accept-Language now and returns 中文 error messages to zh clients; tests cover both.")],
          done=["error messages from the API are still English only"]),
        END,
    ]),
    ("h-mix-k8s", "mixed", [
        S([U("把 worker 部署到 k8s，先上 staging"),
           W("deploy/worker.yaml"),
           B("kubectl apply -f deploy/worker.yaml --dry-run=server", True, "deployment.apps/worker created (server dry run)"),
           A("worker 的 Deployment 写好了，staging 上 dry run 通过。还缺两样：readiness probe 没配，滚动更新时请求会打到"
             "还没起来的 pod；HPA 也没加，流量高峰不会自动扩容。")],
          topic=["staging"], files=["deploy/worker.yaml"],
          todos=["readiness probe 没配", "HPA 也没加"]),
        S([U("加上 HPA，CPU 70% 就扩"),
           W("deploy/worker-hpa.yaml"),
           B("kubectl apply -f deploy/worker-hpa.yaml", True, "horizontalpodautoscaler.autoscaling/worker created"),
           A("HPA is up: 2 to 10 replicas at 70% CPU; the load test scaled it to 6 pods.")],
          done=["HPA 也没加"]),
        S([U("readiness probe 加了吗"), A("还没有，Deployment 里目前只有 liveness probe。")], light=True),
        S([U("加 readiness probe 吧，/healthz 就行"),
           E("deploy/worker.yaml"), B("kubectl apply -f deploy/worker.yaml", True, "deployment.apps/worker configured"),
           A("readiness probe 配上了，rolling update 期间 0 个 5xx。")],
          done=["readiness probe 没配"]),
        END,
    ]),
]
