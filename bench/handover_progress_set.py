"""The PROGRESS tuning set (issue 20, fourth round): is a sentence a statement of FINISHED work — or
work started, half done, next, planned, failed, or a state of how things are?

Written on 2026-11-26 by the engineer of the progress rules (branch ``progress``) BEFORE any rule
of that round changed: a TUNING set, and every number on it is an UPPER BOUND.

Each project plants open to-dos in its first session, then later sessions either finish one in
words people actually use, or only touch it without finishing it:

- traps (``traps`` on a session: an open to-do that session must NOT close): work started but not
  wired in ("Started on retries: … the sender doesn't enqueue anything yet", "先搭了个架子"), half
  done ("写了一半", "the first half"), "X is next" / "下一步做 X" / "接下来把 X 补上" / "I'll do X next",
  a status line or list where the item is still open ("— still open", "⏳ not started"), other work in
  the same file followed by "X comes next", a session whose last command failed, the person's
  "X 还在跑", work put off by the person ("I'll do the index next week").
- finishes (``done``): the person's own word ("I added the Retry-After header myself last night",
  "表头那个我已经手动处理了", "index is sorted", "that's in now", "合进去了", "已经上线了",
  "done and deployed"), a report with numbers ("p99 went from 900 ms to 120 ms"), a bulleted status
  list with ✅ per item (each item its own statement), a bare "continue"/"继续" whose work passes,
  "yes, merged" answering the assistant's question.

10 projects (5 English, 3 Chinese, 2 mixed), 49 sessions, 22 planted to-dos, 20 finishes, 21 traps.
``.venv-test/bin/python bench/bench_handover_tuning.py --set progress --json OUT`` runs it.

MAIN (scripts of c789752, before any rule of this round), ``--checkout`` of that commit, same command,
2026-11-26 09:13 UTC, offline summarizer, load average 1.22 at start, 95 s: to-dos captured 22/22;
finished still shown 6/20; closes right 9, missed 6, wrong 3; traps held 17, sprung 4, untested 0;
spurious to-dos 11 of 68 ``[ ]`` lines; topics 10/10, files 9/10; leaks 0.
"""

from __future__ import annotations

from handover_closing_heldout3 import S
from handover_tuning_set import END, A, B, E, R, U, W

PYTEST = "python -m pytest -q"

SCENARIOS = [
    # ---------------------------------------------------------------- English
    ("pg-en-ratelimit", "en", [
        S([U("Add a token-bucket rate limiter to the API gateway"),
           W("gateway/limiter.py"), W("tests/test_limiter.py"), B(PYTEST, True, "11 passed in 0.6s"),
           A("The token-bucket limiter is in front of every route and 11 tests pass. Two gaps: the buckets "
             "are counted per process, not across the cluster; and the 429 response has no Retry-After header yet.")],
          topic=["rate limiter"], files=["gateway/limiter.py"],
          todos=["counted per process", "no Retry-After header"]),
        S([U("Give the limiter a burst allowance of 20%"),
           E("gateway/limiter.py"), B(PYTEST, True, "13 passed in 0.7s"),
           A("Added the burst allowance: a client may go 20% over its rate for two seconds; 13 tests pass. "
             "Counting across the cluster comes next, once Redis is provisioned.")],
          traps=["counted per process"]),
        S([U("Where do we stand on the gateway?"),
           A("Status:\n- Burst allowance — done.\n- Retry-After header — still open.\n"
             "- Cluster-wide counting — not started.")],
          traps=["no Retry-After header", "counted per process"]),
        S([U("I added the Retry-After header myself last night, it's on main. Now move the bucket counts to Redis."),
           E("gateway/limiter.py"), W("gateway/redis_store.py"), B(PYTEST, True, "15 passed in 0.9s"),
           A("The buckets live in Redis now and a Lua script takes tokens atomically, so every gateway replica "
             "shares one bucket per key. 15 tests pass.")],
          done=["no Retry-After header", "counted per process"]),
        END,
    ]),
    ("pg-en-webhooks", "en", [
        S([U("Send a webhook when an order ships"),
           W("hooks/sender.py"), W("tests/test_sender.py"), B(PYTEST, True, "8 passed in 0.4s"),
           A("Webhooks go out on order.shipped, signed with HMAC-SHA256; 8 tests pass. Retries for failed "
             "deliveries aren't implemented: a 500 from the receiver just drops the event. The admin page has "
             "no delivery log yet.")],
          topic=["webhook"], files=["hooks/sender.py"],
          todos=["Retries for failed deliveries", "no delivery log"]),
        S([U("Start on the webhook retries"),
           W("hooks/retry_queue.py"), W("migrations/0012_retry_queue.sql"), B(PYTEST, True, "10 passed in 0.5s"),
           A("Started on retries: the retry_queue table and its model exist, but the sender doesn't enqueue "
             "anything yet. Wiring it into the sender is next.")],
          traps=["Retries for failed deliveries"]),
        S([U("continue"),
           E("hooks/sender.py"), E("hooks/retry_queue.py"), B(PYTEST, True, "14 passed in 0.8s"),
           A("The sender now enqueues a failed delivery and a worker retries it with exponential backoff, up "
             "to 6 attempts; tests/test_retry.py covers a receiver that fails twice. 14 passed.")],
          done=["Retries for failed deliveries"]),
        S([U("Build the delivery log page in the admin"),
           W("admin/deliveries.tsx"), B("npx playwright test deliveries", False, "1 failed: paging"),
           A("The delivery log page is partially there: the table renders the last 50 deliveries, but paging "
             "is broken and the e2e test fails.")],
          traps=["no delivery log"]),
        END,
    ]),
    ("pg-en-search-perf", "en", [
        S([U("The search endpoint is slow, profile it"),
           R("search/query.py"), B("py-spy record -o profile.svg -- python bench.py", True, "saved profile.svg"),
           A("Most of the time goes to an N+1 query over tags: each hit loads its tags separately. TODO: batch "
             "the tag lookup; add an index on tags.item_id.")],
          topic=["search endpoint"], files=["search/query.py"],
          todos=["batch the tag lookup", "index on tags.item_id"]),
        S([U("Make search faster"),
           E("search/query.py"), B(PYTEST, True, "34 passed in 2.1s"),
           A("Tags now load in one query per page instead of one per hit. p99 went from 900 ms to 120 ms on "
             "the staging dataset; 34 tests pass.")],
          done=["batch the tag lookup"]),
        S([U("Add the index"),
           W("migrations/0031_tags_item_id.sql"), B("alembic upgrade head", False, "lock timeout on tags"),
           A("The migration for the tags.item_id index is written, but alembic upgrade failed on staging with "
             "a lock timeout.")],
          traps=["index on tags.item_id"]),
        S([U("I'll do the index next week in the maintenance window. Meanwhile cache the facet counts."),
           E("search/facets.py"), B(PYTEST, True, "36 passed in 2.2s"),
           A("Facet counts are cached in Redis for 60 seconds; 36 tests pass.")],
          traps=["index on tags.item_id"]),
        S([U("The index is sorted — I ran the migration in last night's window."),
           A("Great, thanks for letting me know.")],
          done=["index on tags.item_id"]),
        END,
    ]),
    ("pg-en-docs", "en", [
        S([U("Write the docs for v2"),
           W("docs/install.md"), B("mkdocs build --strict", True, "Documentation built in 1.2 seconds"),
           A("The v2 install guide is written and the site builds with --strict. There's no upgrade guide from "
             "v1 yet, and the API reference still documents the v1 endpoints.")],
          topic=["docs"], files=["docs/install.md"],
          todos=["no upgrade guide from v1", "API reference still documents the v1 endpoints"]),
        S([U("Do the upgrade guide"),
           W("docs/upgrade.md"), B("mkdocs build --strict", True, "Documentation built in 1.3 seconds"),
           A("I wrote the first half of the upgrade guide, the config changes; the data migration part is still "
             "to do. I'll do the API reference next.")],
          traps=["no upgrade guide from v1", "API reference still documents the v1 endpoints"]),
        S([U("Finish the upgrade guide"),
           E("docs/upgrade.md"), B("mkdocs build --strict", True, "Documentation built in 1.3 seconds"),
           A("The upgrade guide is complete: config changes, the data migration with its rollback, and a "
             "checklist. The site builds cleanly.")],
          done=["no upgrade guide from v1"], traps=["API reference still documents the v1 endpoints"]),
        S([U("The API reference is sorted, I regenerated it from the OpenAPI spec myself — that's in now."),
           A("Thanks, noted.")],
          done=["API reference still documents the v1 endpoints"]),
        END,
    ]),
    ("pg-en-release", "en", [
        S([U("Set up the release pipeline for the mobile app"),
           W(".github/workflows/release.yml"), B("act -j build --dryrun", True, "Job succeeded"),
           A("The release workflow builds both apps when a tag is pushed. Open items:\n"
             "- Android signing isn't configured yet\n- The iOS job still uses the dev provisioning profile\n"
             "- Crash reporting isn't wired up yet")],
          topic=["release pipeline"], files=[".github/workflows/release.yml"],
          todos=["Android signing", "dev provisioning profile", "Crash reporting"]),
        S([U("Do the signing and the profiles"),
           E(".github/workflows/release.yml"), B("act -j build --dryrun", True, "Job succeeded"),
           A("Status:\n- ✅ Android signing — the keystore comes from the repository secret\n"
             "- ✅ iOS builds with the App Store distribution profile\n"
             "- ⏳ Crash reporting — not started, waiting for the Sentry DSN")],
          done=["Android signing", "dev provisioning profile"], traps=["Crash reporting"]),
        S([U("Did you see the Sentry PR?"),
           A("I see PR #41 wires Sentry crash reporting into both apps with the DSN from the release secrets. "
             "Has it been merged?"),
           U("yes, merged"),
           A("Good, crashes from the next release will show up in Sentry.")],
          done=["Crash reporting"]),
        END,
    ]),
    # ---------------------------------------------------------------- Chinese
    ("pg-zh-export", "zh", [
        S([U("订单导出加一个 Excel 格式"),
           W("export/excel.py"), W("tests/test_excel.py"), B(PYTEST, True, "12 passed in 0.9s"),
           A("Excel 导出做好了，12 个测试都过了。导出的 Excel 还没有表头；超过 10 万行会超时，分批写入还没做。")],
          topic=["Excel"], files=["export/excel.py"],
          todos=["还没有表头", "分批写入还没做"]),
        S([U("分批写入先搭个架子"),
           E("export/excel.py"), B(PYTEST, True, "13 passed in 1.0s"),
           A("分批写入先搭了个架子：按 5000 行一批的循环写好了，但还没接到导出接口上。下一步把它接进去。")],
          traps=["分批写入还没做"]),
        S([U("表头那个我已经手动处理了，模板里加好了。你把分批写入接上"),
           E("export/excel.py"), B(PYTEST, True, "15 passed in 1.1s"),
           A("分批写入接上了，20 万行导出现在 14 秒，内存稳定在 180MB 左右，测试全过。")],
          done=["还没有表头", "分批写入还没做"]),
        END,
    ]),
    ("pg-zh-k8s", "zh", [
        S([U("把订单服务迁到 k8s 上"),
           W("deploy/app.yaml"), B("kubectl apply --dry-run=server -f deploy/", True, "deployment.apps/orders created (server dry run)"),
           A("Deployment 和 Service 都写好了，server dry-run 通过。还缺三样：HPA 还没配；日志还没接到 Loki；压测也还没跑。")],
          topic=["k8s"], files=["deploy/app.yaml"],
          todos=["HPA 还没配", "日志还没接到 Loki", "压测也还没跑"]),
        S([U("HPA 配一下"),
           W("deploy/hpa.yaml"), B("kubectl apply -f deploy/hpa.yaml", True, "horizontalpodautoscaler created"),
           B("kubectl rollout status deploy/orders", False, "error: deployment \"orders\" exceeded its progress deadline"),
           A("HPA 写好了，CPU 超过 70% 就扩容，最多 10 个副本。rollout 卡住了，镜像拉不下来。")],
          traps=["HPA 还没配"]),
        S([U("Loki 这块先弄一下"),
           W("deploy/promtail.yaml"), B("kubectl apply --dry-run=server -f deploy/promtail.yaml", True, "created (server dry run)"),
           A("promtail 的配置写了一半：采集规则写好了，还没部署到集群，Loki 那边的租户也还没建。")],
          traps=["日志还没接到 Loki"]),
        S([U("镜像仓库的权限我修好了，HPA 重新部署也成功了。压测还在跑。Loki 租户建好了，你把 promtail 部署上去"),
           E("deploy/promtail.yaml"), B("kubectl apply -f deploy/promtail.yaml", True, "daemonset.apps/promtail created"),
           A("promtail 部署上去了，Grafana 里已经能按 namespace 查到订单服务的日志。")],
          done=["HPA 还没配", "日志还没接到 Loki"], traps=["压测也还没跑"]),
        END,
    ]),
    ("pg-zh-captcha", "zh", [
        S([U("登录加上图形验证码"),
           W("auth/captcha.py"), B(PYTEST, True, "9 passed in 0.5s"),
           A("图形验证码加好了，连续输错 3 次才出现，9 个测试都过了。找回密码页还没接验证码；验证码图片在暗色模式下看不清。")],
          topic=["图形验证码"], files=["auth/captcha.py"],
          todos=["找回密码页还没接验证码", "暗色模式下看不清"]),
        S([U("暗色模式那个先别管，下一步做找回密码页"),
           R("auth/reset.py"),
           A("好的，下一步做找回密码页的验证码。找回密码走的是另一个接口 auth/reset.py，校验逻辑可以和登录共用。")],
          traps=["找回密码页还没接验证码", "暗色模式下看不清"]),
        S([U("把找回密码页的验证码接上"),
           E("auth/reset.py"), B(PYTEST, True, "11 passed in 0.6s"),
           A("找回密码页也接上验证码了，和登录页共用一套校验，11 个测试通过。暗色模式的问题接下来把它补上。")],
          done=["找回密码页还没接验证码"], traps=["暗色模式下看不清"]),
        S([U("暗色模式看不清那个，设计同学把颜色改好了，已经上线了"), A("好的，记下了。")],
          done=["暗色模式下看不清"]),
        END,
    ]),
    # ---------------------------------------------------------------- mixed
    ("pg-mix-synonyms", "mixed", [
        S([U("给搜索加 synonym 支持"),
           W("search/synonyms.py"), B(PYTEST, True, "15 passed in 0.7s"),
           A("synonym 词典加载好了，查询时会展开同义词，15 个 test 都过了。词典热更新还没做，现在改了词典要重启服务；"
             "highlight 还不支持同义词命中。")],
          topic=["synonym"], files=["search/synonyms.py"],
          todos=["词典热更新还没做", "highlight 还不支持同义词命中"]),
        S([U("热更新写一下"),
           E("search/synonyms.py"), B(PYTEST, True, "16 passed in 0.7s"),
           A("热更新写了一半：file watcher 已经能检测到词典变化，reload 的逻辑还没写。接下来把 reload 补上。")],
          traps=["词典热更新还没做"]),
        S([U("继续"),
           E("search/synonyms.py"), B(PYTEST, True, "17 passed in 0.8s"),
           A("reload 补上了，词典改了 2 秒内生效，不用重启服务，17 passed。")],
          done=["词典热更新还没做"]),
        S([U("highlight 同义词那个我昨天自己改好了，合进去了"), A("好的，收到。")],
          done=["highlight 还不支持同义词命中"]),
        END,
    ]),
    ("pg-mix-ci", "mixed", [
        S([U("CI 太慢了，加一下缓存"),
           E(".github/workflows/ci.yml"), B("act -j test", True, "Job succeeded"),
           A("加了 pip 和 node_modules 的 cache，CI 从 14 分钟降到 6 分钟。e2e 测试还没拆成并行的 job；"
             "Docker 镜像的 layer cache 也还没开。")],
          topic=["CI"], files=[".github/workflows/ci.yml"],
          todos=["e2e 测试还没拆成并行的 job", "layer cache 也还没开"]),
        S([U("I'll do the e2e split next week. 先把 docker layer cache 开了"),
           E(".github/workflows/ci.yml"), B("docker buildx build --cache-from type=gha .", True, "done in 48s"),
           A("Docker layer cache 开好了，用的是 buildx 的 gha cache，镜像构建从 5 分钟降到 50 秒。")],
          done=["layer cache 也还没开"], traps=["e2e 测试还没拆成并行的 job"]),
        S([U("e2e 拆分开始弄吧"),
           E(".github/workflows/ci.yml"), B("act -j e2e", False, "shard 3/4 failed: test_checkout_flow"),
           A("e2e 拆成了 4 个 shard，但 shard 3 挂了：test_checkout_flow 依赖前一个测试建的数据。")],
          traps=["e2e 测试还没拆成并行的 job"]),
        S([U("顺序依赖那个测试我修了，e2e 拆分 done and deployed"), A("👍 收到。")],
          done=["e2e 测试还没拆成并行的 job"]),
        END,
    ]),
]
