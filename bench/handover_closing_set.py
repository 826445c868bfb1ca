"""The to-do CLOSING tuning set (issue 20, second round): to-dos finished later in other words.

Written before the closing rules of this round changed, to develop them against — so numbers on
this set are an UPPER BOUND; the held-out set (``bench_handover_heldout.py``, written by someone
else before issue 20's extractor change) is the measure and is never tuned to.

What it covers, in Chinese, English and mixed sessions: a to-do finished by a later session that
says so in other words; finished by a request naming part of it and work that passed; finished
by evidence alone (a later session edited the file the to-do names and its command passed, with a
terse report or a bare "continue"); completions the person states ("压测我昨天跑完了", "I compared
… every total matches"); and the traps that must NOT close a to-do — a question about it answered
"not yet" / "还没有", a session that edits the same file for something else, a partial finish
("I started on X but it isn't finished", "写了一半，测试还有 2 个没过"), a sibling to-do of the one
finished, a to-do restated as still open — and (added after the first round of rules, so doubly an
upper bound) a question whose answer describes how things are today ("a failed delivery is simply
dropped", "缓存里还是旧价格").

Same shapes as ``handover_tuning_set.py``: each session's ``todos`` are open after it (checked on
a ``[ ]`` line of the next start) and ``done`` are earlier to-dos it finished (checked gone from
``[ ]`` lines). ``bench_handover_tuning.py --set closing`` runs it and also reads the to-do index
(``code-memory todo list --status all``) to count WRONG closes: a planted to-do shown done although
no session finished it, or closed by another session than the one that did.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, R, S, U, W

SCENARIOS = [
    ("c-zh-cache", "zh", [
        S([U("商品详情页太慢了，给 products/service.py 的 get_product 加个 Redis 缓存"),
           E("products/service.py"), B("python -m pytest tests/test_products.py -q", True, "12 passed"),
           A("get_product 现在先查 Redis，TTL 10 分钟，命中时 p50 从 120ms 降到 8ms。不过缓存失效还没处理：商品改价以后"
             "得主动删掉对应的 key，不然会读到旧价格。另外压测还没做，上线前要跑一轮。")],
          topic=["Redis 缓存"], files=["products/service.py"],
          todos=["商品改价以后得主动删掉对应的 key", "压测还没做"]),
        S([U("压测我昨天自己跑完了，QPS 从 800 到了 3100，缓存命中率 92%。今天先不改代码"),
           A("好的，数据很不错，那上线前就只剩缓存失效那件事了。")],
          notes=["3100"], done=["压测还没做"]),
        S([U("改价以后多久能看到新价格？"), A("现在改价以后缓存里还是旧价格，要等 10 分钟 TTL 过期才会读到新的。")], light=True),
        S([U("改价的时候把缓存清掉"),
           E("products/service.py"), W("tests/test_price_cache.py"),
           B("python -m pytest tests/test_products.py tests/test_price_cache.py -q", True, "15 passed"),
           A("update_price 提交事务之后会 cache.delete(f'product:{id}')，新加的测试确认改价后马上能读到新价格。")],
          done=["商品改价以后得主动删掉对应的 key"]),
        END,
    ]),
    ("c-en-login", "en", [
        S([U("People are brute-forcing the login form. Throttle it."),
           W("auth/limits.py"), E("auth/routes.py"), B("pytest tests/auth -q", True, "22 passed"),
           A("Login is now limited to 5 attempts per minute per IP (auth/limits.py), answering 429 after that. "
             "The password reset endpoint has no limit yet, and the lockout message isn't translated — it's "
             "English for every locale.")],
          topic=["brute-forcing"], files=["auth/limits.py"],
          todos=["password reset endpoint has no limit yet", "lockout message isn't translated"]),
        S([U("Put the same throttle on the forgot-password route"),
           E("auth/routes.py"), W("tests/auth/test_forgot_throttle.py"), B("pytest tests/auth -q", True, "25 passed"),
           A("The forgot-password route shares the 5-per-minute bucket now; the new test hammers it and gets a 429 "
             "on the sixth try.")],
          done=["password reset endpoint has no limit yet"]),
        S([U("FYI the translators sent the strings back and I put the lockout text into locales/de.json and "
             "locales/fr.json myself — it shows up translated now."),
           A("Thanks for letting me know.")],
          done=["lockout message isn't translated"]),
        END,
    ]),
    ("c-zh-export", "zh", [
        S([U("报表页加一个导出按钮"),
           E("export/views.py"), W("export/csv_writer.py"), B("python -m pytest tests/test_export.py -q", True, "9 passed"),
           A("导出 CSV 做好了。Excel 格式还没支持；另外超过 10 万行的导出会超时，需要改成异步任务。")],
          topic=["导出按钮"], files=["export/csv_writer.py"],
          todos=["Excel 格式还没支持", "改成异步任务"]),
        S([U("先把 xlsx 的导出做了"),
           E("export/views.py"), W("export/xlsx_writer.py"), B("python -m pytest tests/test_export.py -q", True, "11 passed"),
           A("用 openpyxl 写 xlsx，表头加粗、日期列按日期格式输出，测试都过了。超时的问题没动，10 万行以上还是会超时。")],
          done=["Excel 格式还没支持"]),
        S([U("异步导出开始弄吧"),
           W("export/tasks.py"), E("export/views.py"),
           B("python -m pytest tests/test_export.py -q", False, "2 failed, 11 passed"),
           A("异步导出写了一半：导出任务已经能排进 Celery，但下载链接还没生成，测试还有 2 个没过，下次接着弄。")],
          todos=["下载链接还没生成"]),
        END,
    ]),
    ("c-en-legacy", "en", [
        S([U("Switch the settings loader to pydantic-settings"),
           E("config/settings.py"), B("pytest -q", True, "64 passed"),
           A("config/settings.py now builds Settings from pydantic-settings with env prefix APP_. "
             "config/legacy.py still imports the old loader; it should be moved over too.")],
          topic=["pydantic-settings"], files=["config/settings.py"],
          todos=["config/legacy.py still imports the old loader"]),
        S([U("ok do config/legacy.py"),
           E("config/legacy.py"), B("pytest -q", True, "64 passed"),
           A("All 64 tests pass.")],
          done=["config/legacy.py still imports the old loader"]),
        END,
    ]),
    ("c-zh-apidoc", "zh", [
        S([U("订单接口返回里加上 coupon_amount 字段"),
           E("orders/serializers.py"), B("python -m pytest tests/test_orders_api.py -q", True, "18 passed"),
           A("coupon_amount 已经加到订单接口的返回里了。接口文档还没更新，等前端确认字段命名以后再改。")],
          topic=["coupon_amount"], files=["orders/serializers.py"], todos=["接口文档还没更新"]),
        S([U("接口文档更新了吗？"), A("还没有，前端那边还没确认字段命名，接口文档先没动。")], light=True),
        S([U("前端确认了，字段统一用 camelCase，把文档改一下"),
           E("docs/api/orders.md"), B("npm run lint:docs", True, "0 problems"),
           A("docs/api/orders.md 里订单相关的字段全部改成了 camelCase，couponAmount 也写进去了，和前端对齐。")],
          done=["接口文档还没更新"]),
        END,
    ]),
    ("c-mixed-docker", "mixed", [
        S([U("镜像太大了，把 Dockerfile 改成 multi-stage build"),
           E("Dockerfile"), B("docker build -t app:test .", True, "Successfully tagged app:test"),
           A("Dockerfile 改成了两阶段构建，镜像从 1.2GB 降到 180MB。health check 还没加，k8s 的 readinessProbe "
             "也得配一下。")],
          topic=["multi-stage"], files=["Dockerfile"], notes=["180MB"],
          todos=["health check 还没加", "readinessProbe 也得配一下"]),
        S([U("add the health check endpoint"),
           W("app/health.py"), E("app/main.py"), B("pytest tests/test_health.py -q", True, "3 passed"),
           A("GET /healthz 返回 200 和当前版本号，数据库连不上时返回 503，tests/test_health.py 覆盖了这两种情况。")],
          done=["health check 还没加"]),
        S([U("readinessProbe 我在 helm chart 里配好了，指向 /healthz，已经在 staging 上生效"),
           A("好的，那部署这块就齐了。")],
          done=["readinessProbe 也得配一下"]),
        END,
    ]),
    ("c-en-flaky", "en", [
        S([U("Five scheduler tests fail randomly in CI, can you stabilise them?"),
           E("tests/test_scheduler.py"), B("pytest tests/test_scheduler.py -q --count 30", True, "90 passed"),
           A("I pinned the clock in tests/test_scheduler.py, which fixes three of the five. The two in "
             "tests/test_retry.py are not fixed yet: they still sleep for real.")],
          topic=["stabilise"], files=["tests/test_scheduler.py"],
          todos=["tests/test_retry.py are not fixed yet"]),
        S([U("any luck with the retry tests?"),
           A("Not yet — I haven't touched tests/test_retry.py since last time; they still sleep for real.")],
          light=True),
        S([U("Replace the sleeps in the retry tests with the fake clock"),
           E("tests/test_retry.py"), B("pytest tests/test_retry.py -q --count 50", True, "100 passed"),
           A("The retry tests now advance the fake clock instead of sleeping; 50 repeated runs all pass.")],
          done=["tests/test_retry.py are not fixed yet"]),
        END,
    ]),
    ("c-zh-rank", "zh", [
        S([U("搜索结果排序不对，应该按相关度排"),
           E("search/rank.py"), B("python -m pytest tests/test_search.py -q", True, "20 passed"),
           A("排序改成了按 BM25 分数降序。拼音搜索还不支持，有空的话可以加上。另外标题和正文现在是同一个权重，"
             "记得把标题的权重调高一些。")],
          topic=["相关度"], files=["search/rank.py"],
          todos=["拼音搜索还不支持", "标题的权重调高一些"]),
        S([U("标题字段加权，调成正文的 3 倍"),
           E("search/rank.py"), B("python -m pytest tests/test_search.py -q", True, "21 passed"),
           A("标题字段的 boost 现在是 3.0，正文 1.0，加了一个用例确认标题命中的排在前面。")],
          done=["标题的权重调高一些"]),
        S([U("谢谢"), A("不客气。")], light=True),
        END,
    ]),
    ("c-en-invoice", "en", [
        S([U("Invoices need VAT"),
           E("billing/invoice.py"), B("pytest tests/billing -q", True, "31 passed"),
           A("Invoices now carry VAT per line and a VAT total (billing/invoice.py). Before the next release "
             "someone has to check the rounding against the accountant's spreadsheet. Also the PDF template still "
             "shows the old logo.")],
          topic=["VAT"], files=["billing/invoice.py"],
          todos=["check the rounding against the accountant's spreadsheet", "PDF template still shows the old logo"]),
        S([U("I went through last month's invoices against the accountant's sheet — every total matches to the cent."),
           A("Great, then the VAT rounding is confirmed.")],
          done=["check the rounding against the accountant's spreadsheet"]),
        S([U("swap the logo on the invoice PDF for the new one"),
           E("billing/templates/invoice.html"), W("billing/static/logo.svg"),
           B("pytest tests/billing -q", True, "31 passed"),
           A("The invoice PDF uses the new logo now; I rendered a sample invoice to check it.")],
          done=["PDF template still shows the old logo"]),
        END,
    ]),
    ("c-zh-signup", "zh", [
        S([U("登录页做一下英文翻译"),
           E("web/login.vue"), E("locales/en.json"), B("npm test", True, "48 passed"),
           A("登录页的文案都抽到 locales 里了，英文也补上了。注册页还没翻译，错误提示也还是硬编码的中文。")],
          topic=["英文翻译"], files=["web/login.vue"],
          todos=["注册页还没翻译", "错误提示也还是硬编码的中文"]),
        S([U("注册页也翻一下"),
           E("web/register.vue"), E("locales/en.json"), B("npm test", True, "52 passed"),
           A("注册页的文案也都抽到 locales 里了，英文翻译补上了。错误提示还没动，还是硬编码的中文。")],
          todos=["错误提示"], done=["注册页还没翻译"]),
        S([U("错误提示也抽出来吧"),
           E("web/errors.js"), E("locales/en.json"), E("locales/zh.json"), B("npm test", True, "55 passed"),
           A("所有错误提示现在都从 locales 读取，中英文两套都有了。")],
          done=["错误提示"]),
        END,
    ]),
    ("c-en-bank", "en", [
        S([U("Import bank statements from CSV"),
           W("importer/csv_import.py"), B("pytest tests/importer -q", True, "14 passed"),
           A("The CSV importer reads the three bank formats we have samples for. Two things remain: supporting the "
             "Revolut format, and skipping duplicate transactions when a file is imported twice.")],
          topic=["bank statements"], files=["importer/csv_import.py"],
          todos=["Revolut format", "skipping duplicate transactions"]),
        S([U("let's deal with the duplicates"),
           E("importer/csv_import.py"), B("pytest tests/importer -q", True, "17 passed"),
           A("Importing the same file twice no longer creates duplicates: each row is keyed by date, amount and "
             "reference. I started on Revolut too but it isn't finished — their export has a different date column "
             "that I haven't mapped yet.")],
          done=["skipping duplicate transactions"]),
        S([U("finish the Revolut one"),
           W("importer/formats/revolut.py"), B("pytest tests/importer -q", True, "20 passed"),
           A("Revolut exports import now: the date column is mapped and their sample file round-trips.")],
          done=["Revolut format"]),
        END,
    ]),
    ("c-zh-backup", "zh", [
        S([U("备份脚本每天凌晨跑失败，看一下"),
           E("scripts/backup.sh"), B("bash scripts/backup.sh --dry-run", True, "would upload 3 files"),
           A("失败是因为 S3 的 bucket 名字拼错了，已修正，dry-run 正常。scripts/backup.sh 里的保留天数写死成 7 天，"
             "应该改成从配置读。")],
          topic=["备份脚本"], files=["scripts/backup.sh"], todos=["保留天数写死成 7 天"]),
        S([U("继续"),
           E("scripts/backup.sh"), B("bats tests/backup.bats", True, "6 tests, 0 failures"),
           A("改好了，bats 全过。")],
          done=["保留天数写死成 7 天"]),
        END,
    ]),
    ("c-en-reports", "en", [
        S([U("Add a /reports endpoint listing the monthly reports"),
           W("api/reports.py"), E("api/urls.py"), B("pytest tests/api -q", True, "40 passed"),
           A("GET /reports lists the monthly reports from api/reports.py. Pagination isn't implemented yet, and "
             "the endpoint should be cached since the list only changes once a month.")],
          topic=["/reports"], files=["api/reports.py"],
          todos=["Pagination isn't implemented yet", "endpoint should be cached"]),
        S([U("fix the typo in the reports docstring"),
           E("api/reports.py"), B("pytest tests/api -q", True, "40 passed"),
           A("Fixed \"mothly\" → \"monthly\" in the docstring of api/reports.py.")]),
        S([U("add pagination to /reports"),
           E("api/reports.py"), B("pytest tests/api -q", True, "43 passed"),
           A("GET /reports now takes page and per_page (default 20) and returns a next link.")],
          done=["Pagination isn't implemented yet"]),
        END,
    ]),
    ("c-mixed-ci", "mixed", [
        S([U("CI 太慢了，帮我看看 .github/workflows/ci.yml"),
           R(".github/workflows/ci.yml"), E(".github/workflows/ci.yml"), B("act -j test", True, "Job succeeded"),
           A("加了 pip cache，CI 从 14 分钟降到 6 分钟。mypy 还是在每个 job 里各跑一遍，应该只跑一次；Node 的依赖也没缓存。")],
          topic=["CI 太慢"], files=[".github/workflows/ci.yml"], notes=["6 分钟"],
          todos=["mypy 还是在每个 job 里各跑一遍", "Node 的依赖也没缓存"]),
        S([U("cache the node_modules as well"),
           E(".github/workflows/ci.yml"), B("act -j frontend", True, "Job succeeded"),
           A("npm ci now restores ~/.npm from a cache keyed on package-lock.json; the frontend job went from 4 to "
             "1.5 minutes.")],
          done=["Node 的依赖也没缓存"]),
        S([U("mypy 只在 lint job 里跑一次就行"),
           E(".github/workflows/ci.yml"), B("act -j lint", True, "Job succeeded"),
           A("mypy 挪到了 lint job，其他 job 不再跑它，整体又快了 1 分钟。")],
          done=["mypy 还是在每个 job 里各跑一遍"]),
        END,
    ]),
    ("c-en-webhook", "en", [
        S([U("Send a webhook when an order ships"),
           W("orders/webhooks.py"), E("orders/shipping.py"), B("pytest tests/orders -q", True, "27 passed"),
           A("A POST goes to the merchant's webhook URL when an order ships. Retries aren't done yet: a failed "
             "delivery is simply dropped. Signing the payload with HMAC is still missing as well.")],
          topic=["webhook"], files=["orders/webhooks.py"],
          todos=["Retries aren't done yet", "Signing the payload with HMAC"]),
        S([U("what happens right now when a delivery fails?"),
           A("Right now a failed delivery is simply dropped and logged at warning level; nothing retries it.")],
          light=True),
        S([U("Do the retries. Not the signing yet, we'll get to that later."),
           E("orders/webhooks.py"), B("pytest tests/orders -q", True, "30 passed"),
           A("Failed deliveries are retried with exponential backoff — 1, 5 and 25 minutes — then marked failed.")],
          done=["Retries aren't done yet"]),
        END,
    ]),
]
