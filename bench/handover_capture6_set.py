"""The sixth-round to-do CAPTURE tuning set (issue 20): open work in the SHAPES of sentence the capture
rules missed on the sets of round 5, next to look-alike sentences that are not open work.

Written on 2026-11-26 by the engineer of the capture rules (branch ``capture6``) BEFORE the rules of
this round changed, after reading the capture misses of closing-heldout4/5/6 (tuning, formerly blind),
capture2, wrongs and traps: it is a TUNING set and every number on it is an UPPER BOUND. The
sentences are my own, on other projects and in other words than those sets. The shapes of open work:

- an item of a list the message introduces as problems ("排查下来存在的问题：", "A few rough edges:",
  "I found these problems while testing:", "Known problems 还有几个："), stated as a plain state;
- a state that is a defect through its consequence ("日志只打到 stdout，节点重启以后就找不回来了",
  "keeps every intermediate file forever, so storage grows by about 30 GB a week");
- the old thing still in place ("定时对账任务还在老的 crontab 上，这次没动", "state 还放在本地的 …");
- absence said with "nothing" / "什么…都没有" / a clause that starts with 没有 ("Nothing pages anyone when
  the DAG fails", "下发失败时后台什么记录都没留", "…，没有回退的办法");
- a task for a person the assistant was asked to remind of ("你让我提醒的：找财务要…", "As you asked: ask
  Marta for …", "Reminder: ask Sam to …");
- a scope hedged as tried only so far ("目前只在 ESP32-S3 上试过", "I only tested it with the Stripe CLI");
- an obligation or a "not yet" in a shape the markers missed ("得挪到 Secret 里去", "isn't idempotent
  across restarts yet");
- a bad outcome said as what someone gets ("Customers who pay by SEPA also get a renewal email before the
  payment clears").

Look-alikes that must not become to-dos (32): how it works now ("Tokens are validated against Okta's
JWKS"), results ("plan 是 clean 的，没有 diff", "There were no schema changes"), intended or agreed limits
("下钻层级最多三层，这是产品定的", "single-threaded on purpose"), a good consequence ("so it is safe to
expose", "所以不受外网限速影响"), a cause that was fixed ("之前识别超时是因为图片没压缩，现在…了"),
requests to the person that are not code work ("You'll need to add the webhook secret … yourself"), lists
of what was done or checked under a lead ("之前说的几个问题都处理了：…", "Things I checked: …"), what is
somebody else's ("电容是硬件组选的，不归我们"), and a place that is fine ("Task logs go to S3, which is
what the platform team set up").

10 projects (4 Chinese, 4 English, 2 mixed), 32 planted open to-dos. ``bench_handover_tuning.py --set
capture6`` runs it; the ``spurious_todos`` count is the precision measure.

BASELINE — main b220a29, ``.venv-test/bin/python bench/bench_handover_tuning.py --set capture6 --json
OUT`` with ``--checkout`` of ``git archive b220a29``, offline summarizer, 2026-11-26 15:09 UTC, load
average 2.3, recorded before any rule of this round changed: open to-dos captured (on a ``[ ]`` line of
the next start) 7/32 (zh 3/12, en 1/14, mixed 3/6); spurious ``[ ]`` lines 2/9; topics 10/10, files 10/10.
After the rules of this round (branch ``capture6``, same command): 31/32 (zh 12/12, en 13/14, mixed
6/6), spurious 2/33 — an upper bound (BENCHMARKS.md, "Handover — sixth round (capture)").
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, S, U, W

SCENARIOS = [
    ("cap6-zh-ocr", "zh", [
        S([U("发票识别接上 PaddleOCR，识别结果写到 invoices 表"),
           E("ocr/invoice.py"), W("ocr/fields.py"), B("python -m pytest tests/test_ocr.py -q", True, "9 passed"),
           A("发票识别接好了，用的是 PaddleOCR 的 server 模型，30 张样本里 27 张字段全对，9 个测试都过了。排查下来存在的问题：\n"
             "- 竖排的发票号码识别成了乱序\n"
             "- 模型文件打在镜像里，每次发版镜像都要多 400MB\n"
             "- 置信度低的字段没有人工复核的入口\n"
             "识别在单独的进程池里跑，不会卡住 API。金额字段按“分”存整数，这是财务要求的。"
             "之前识别超时是因为图片没压缩，现在统一缩到 1600 像素宽了。")],
          topic=["发票识别"], files=["ocr/invoice.py"],
          todos=["竖排的发票号码识别成了乱序", "模型文件打在镜像里", "没有人工复核的入口"]),
        END,
    ]),
    ("cap6-zh-helm", "zh", [
        S([U("把订单服务的部署从 docker-compose 换到 k8s，写个 Helm chart"),
           E("deploy/chart/values.yaml"), W("deploy/chart/templates/deployment.yaml"),
           B("helm lint deploy/chart", True, "1 chart(s) linted, 0 chart(s) failed"),
           A("Helm chart 写好了，staging 上 3 个副本都起来了，滚动更新也验证过。定时对账任务还在老的 crontab 上，这次没动。"
             "数据库密码现在明文写在 values.yaml 里，得挪到 Secret 里去。日志只打到 stdout，节点重启以后就找不回来了。"
             "就绪探针用的是 /healthz，和原来 compose 里的一样。镜像拉取走的是内网仓库，所以不受外网限速影响。"
             "资源限制是按压测结果配的 1 核 2G。")],
          topic=["Helm chart"], files=["deploy/chart/values.yaml"],
          todos=["定时对账任务还在老的 crontab 上", "明文写在 values.yaml 里", "日志只打到 stdout"]),
        END,
    ]),
    ("cap6-zh-dash", "zh", [
        S([U("销售看板加一个按区域的下钻。对了，做完提醒我找财务要去年的区域划分表"),
           E("web/src/views/SalesBoard.vue"), W("web/src/api/region.ts"), B("npm run test -- --run", True, "Tests 24 passed"),
           A("区域下钻做好了，点省份进城市，再点进门店，24 个前端测试全过。之前说的几个问题都处理了：导出慢、筛选条件丢失、时区不对。"
             "门店维度的数据是 T+1 的，当天的单子看不到，业务那边可能会以为数据丢了。导出按钮点了什么反应都没有，控制台也没报错。"
             "下钻层级最多三层，这是产品定的。图表颜色沿用了设计规范里的色板。没有权限的区域经理只能看到自己的大区，这是原有逻辑。"
             "还有，你让我提醒的：找财务要去年的区域划分表。")],
          topic=["区域的下钻"], files=["SalesBoard.vue"],
          todos=["门店维度的数据是 T+1 的", "导出按钮点了什么反应都没有", "找财务要去年的区域划分表"]),
        END,
    ]),
    ("cap6-zh-ota", "zh", [
        S([U("给网关固件加 OTA 升级，走 MQTT 下发"),
           E("firmware/ota/ota.c"), W("firmware/ota/mqtt_ota.c"), B("idf.py build", True, "Project build complete"),
           A("OTA 做完了，差分包走 MQTT 下发，校验 SHA256，三台样机都升级成功。目前只在 ESP32-S3 上试过，C3 那块板子手头没有。"
             "升级中途断电就会变砖，没有回退的办法。下发失败时后台什么记录都没留。升级包签名用的是厂里的私钥，由产线统一管理。"
             "断电保护的电容是硬件组选的，不归我们。升级期间设备不会掉线，心跳照常。")],
          topic=["OTA 升级"], files=["firmware/ota/ota.c"],
          todos=["目前只在 ESP32-S3 上试过", "断电就会变砖", "什么记录都没留"]),
        END,
    ]),
    ("cap6-en-sso", "en", [
        S([U("Add SSO login with Okta to the admin dashboard, and remind me afterwards to ask Marta for the "
             "production client secret"),
           E("admin/auth/oidc.py"), W("admin/auth/callback.py"), B("pytest tests/test_auth.py -q", True, "22 passed"),
           A("Okta SSO works for the admin dashboard: OIDC code flow with PKCE, and the session cookie is HttpOnly and "
             "SameSite=Lax. All 22 tests pass. Fixed along the way: the redirect loop on /login and the missing CSRF "
             "header. A few rough edges:\n"
             "- logging out of the dashboard leaves the Okta session alive\n"
             "- group claims are read once at login, so a removed admin keeps access until the cookie expires\n"
             "- the callback URL is the staging one\n"
             "As you asked: ask Marta for the production client secret. The login page still offers the password form, "
             "which is intended for the break-glass account. Tokens are validated against Okta's JWKS, cached for an hour.")],
          topic=["Okta"], files=["admin/auth/oidc.py"],
          todos=["leaves the Okta session alive", "group claims are read once at login",
                 "the callback URL is the staging one", "ask Marta for the production client secret"]),
        END,
    ]),
    ("cap6-en-airflow", "en", [
        S([U("Port the nightly ETL from cron and bash scripts to an Airflow DAG"),
           E("dags/nightly_etl.py"), W("dags/sql/load.sql"), B("airflow dags test nightly_etl", True, "DagRun success"),
           A("The DAG is live in Airflow: extract, transform and load run as three tasks with retries, and last "
             "night's run finished in 41 minutes. The warehouse credentials come from an Airflow variable rather "
             "than the secrets backend for now. Nothing pages anyone when the DAG fails; the failure only shows in "
             "the UI. The staging bucket keeps every intermediate file forever, so storage grows by about 30 GB a "
             "week. The transform step is single-threaded on purpose, because the source API rate-limits us. "
             "Task logs go to S3, which is what the platform team set up. There were no schema changes.")],
          topic=["Airflow"], files=["dags/nightly_etl.py"],
          todos=["rather than the secrets backend for now", "Nothing pages anyone when the DAG fails",
                 "keeps every intermediate file forever"]),
        END,
    ]),
    ("cap6-en-search", "en", [
        S([U("Add typo-tolerant search to the docs site with Meilisearch"),
           E("site/search/index.ts"), W("site/search/indexer.ts"), B("npm run build", True, "built 412 pages"),
           A("Search is in: Meilisearch indexes the docs on every deploy, typo tolerance is on, and results show in "
             "under 50 ms. Things I checked: the sitemap, the 404 page and robots.txt. I found these problems while "
             "testing:\n"
             "- code blocks are indexed as prose, so a search for a function name returns random paragraphs\n"
             "- the index is rebuilt from scratch on each deploy\n"
             "- search results ignore the version selector\n"
             "The key in the page is the search-only key, so it is safe to expose. The index holds 3,400 documents. "
             "There's no analytics yet on what people search for.")],
          topic=["Meilisearch"], files=["site/search/index.ts"],
          todos=["code blocks are indexed as prose", "the index is rebuilt from scratch",
                 "ignore the version selector", "no analytics yet"]),
        END,
    ]),
    ("cap6-en-stripe", "en", [
        S([U("Handle Stripe webhooks for subscription renewals"),
           E("billing/webhooks.py"), W("billing/events.py"), B("pytest tests/test_webhooks.py -q", True, "14 passed"),
           A("The webhook endpoint verifies Stripe's signature and updates the subscription on invoice.paid; 14 tests "
             "pass against Stripe's fixtures. Customers who pay by SEPA also get a renewal email before the payment "
             "clears. The handler isn't idempotent across restarts yet, since it keeps processed event IDs in memory. "
             "I only tested it with the Stripe CLI, not with a live test-mode account. You'll need to add the webhook "
             "secret to the production env yourself. Failed signatures return 400, which is what Stripe expects. "
             "Refund events are out of scope, as agreed.")],
          topic=["Stripe webhooks"], files=["billing/webhooks.py"],
          todos=["SEPA also get a renewal email", "isn't idempotent across restarts yet",
                 "only tested it with the Stripe CLI"]),
        END,
    ]),
    ("cap6-mx-unity", "mixed", [
        S([U("给 Unity 项目接上 Addressables 做资源热更"),
           E("Assets/Scripts/Boot/AssetLoader.cs"), W("Assets/AddressableAssetsData/Settings.asset"),
           B("unity -batchmode -runTests -testPlatform EditMode", True, "Tests passed: 31"),
           A("Addressables 接好了，remote catalog 放在 CDN 上，Android 真机上验证过热更一个 prefab。Known problems 还有几个：\n"
             "- iOS 上还没 build 过\n"
             "- catalog 每次都是全量下载，玩家流量会很大\n"
             "- bundle 的命名规则是默认的 hash，CDN 缓存没法按版本清\n"
             "内置的 StreamingAssets 资源没动，首包大小不变。加载失败会重试 3 次，这是 Addressables 默认的行为。")],
          topic=["Addressables"], files=["AssetLoader.cs"],
          todos=["iOS 上还没 build 过", "catalog 每次都是全量下载", "CDN 缓存没法按版本清"]),
        END,
    ]),
    ("cap6-mx-terraform", "mixed", [
        S([U("Terraform 管一下我们的 Cloudflare DNS records"),
           E("infra/dns/main.tf"), W("infra/dns/records.tf"), B("terraform plan", True, "No changes."),
           A("Cloudflare 的 DNS 记录都导进 Terraform 了，plan 是 clean 的，没有 diff。state 还放在本地的 terraform.tfstate，"
             "换台机器就得从头 import。CI 里也没有 plan 检查，谁都能在 dashboard 上手改。MX 记录有两条是邮件服务商管的，"
             "故意没导进来。TTL 全部保持原值。之前 apply 会报错是因为 provider 版本太老，已经升到 4.x 了。"
             "Reminder: ask Sam to revoke the old global API key.")],
          topic=["Cloudflare DNS"], files=["infra/dns/main.tf"],
          todos=["state 还放在本地的 terraform.tfstate", "CI 里也没有 plan 检查", "ask Sam to revoke the old global API key"]),
        END,
    ]),
]
