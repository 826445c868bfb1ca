"""To-do CLOSING traps of "other work in the same area" (issue 20): TUNING data, an upper bound.

Written by the engineer of the closing match rules (branch ``match``, 2026-11-26) BEFORE changing
any rule, in his own words (the lead's probe, /work/notes/probe_traps.py, gave the kinds, not the
phrasings). Every number on it is an upper bound: the rules are tuned against it.

12 projects (5 Chinese, 5 English, 2 mixed), 3–4 sessions each plus a last start. Each first
session leaves two open to-dos in one area (a page, a chart, the docs, a cache, a limiter, an
export, CI, search, sign-in, a deploy script, notifications, an importer). Later sessions:

- do OTHER work in the same area or the same file — another element of the same page, another
  section of the same docs, another metric of the same cache, another provider, another platform,
  another sort key of the same search — and report it done with tests passing (the area words of
  the open to-dos are all over the report);
- finish a SIBLING of the same list (the other to-do must stay open);
- report other work and name the to-do as what comes next ("… comes next", "下一步再…");
- finish the to-do itself in other words (a synonym, the other language, what it does now rather
  than what was missing).

24 open to-dos planted (10 Chinese, 10 English, 4 mixed); 43 traps (``traps``: an open to-do the
session must NOT close) and 17 right closes (``done``).

Same shapes as ``handover_tuning_set.py``; ``bench_handover_tuning.py --set traps`` runs it.

MAIN before any rule change (scripts of c789752), ``.venv-test/bin/python bench/bench_handover_tuning.py
--set traps --checkout DIR --json OUT``, 2026-11-26 09:28–09:30 UTC, load 1.3: open to-dos captured
23/24; finished to-dos still shown 8/17; closes right 7, missed 7, **wrong 4**; traps held 31,
**sprung 9**, untested 3 (their to-do was never captured); spurious to-dos 4 of 65 ``[ ]`` lines.
(A first run at 09:11 on the set as first committed, before one phrase of the limiter project was
fixed so that its to-dos are captured, gave 7 · 6 · 4 and 30 · 9 · 4.)
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, S, U, W

PYTEST = "pytest -q"

SCENARIOS = [
    # ---------------------------------------------------------------- Chinese
    ("t-zh-signup", "zh", [
        S([U("注册页改版，按新的设计稿来"),
           E("web/pages/signup.tsx"), W("web/pages/signup.css"), B("npm test -- signup", True, "12 passed"),
           A("注册页按设计稿改完了，测试都过了。注册页的短信验证还没做；欢迎邮件的模板也还没写。")],
          topic=["注册页改版"], files=["web/pages/signup.tsx"],
          todos=["短信验证还没做", "欢迎邮件的模板"]),
        S([U("注册页的输入框圆角改小一点，提交按钮的文字改成“立即注册”"),
           E("web/pages/signup.tsx"), E("web/pages/signup.css"), B("npm test -- signup", True, "12 passed"),
           A("注册页输入框的圆角改成 4px 了，提交按钮的文字也换成了立即注册，注册页的测试都通过。")],
          traps=["短信验证还没做", "欢迎邮件的模板"]),
        S([U("把手机号验证码那一步接上"),
           E("web/pages/signup.tsx"), W("api/sms.py"), B("npm test -- signup", True, "15 passed"),
           A("填完手机号会发六位数字码，输对了才能提交，60 秒内不能重发，测试通过。")],
          done=["短信验证还没做"], traps=["欢迎邮件的模板"]),
        S([U("新用户注册成功后发的那封邮件写一下"),
           W("mail/templates/welcome.html"), B("npm test -- mail", True, "4 passed"),
           A("welcome.html 写好了：问候语、三步上手指引和退订链接，渲染测试通过。")],
          done=["欢迎邮件的模板"]),
        END,
    ]),
    ("t-zh-cache", "zh", [
        S([U("给商品详情接口加 Redis 缓存"),
           W("cache/product_cache.py"), E("api/product.py"), B(PYTEST, True, "22 passed"),
           A("商品详情的 Redis 缓存加好了，压测 QPS 从 800 到 5000。缓存的过期时间还是写死的 300 秒；"
             "商品下架以后缓存也还没清掉。")],
          topic=["Redis 缓存"], files=["cache/product_cache.py"],
          todos=["过期时间还是写死的", "商品下架以后缓存也还没清掉"]),
        S([U("缓存加一个命中率的监控指标"),
           E("cache/product_cache.py"), B(PYTEST, True, "24 passed"),
           A("缓存命中率的指标加好了，Prometheus 里能看到 product_cache_hit_ratio，缓存的测试都通过。")],
          traps=["过期时间还是写死的", "商品下架以后缓存也还没清掉"]),
        S([U("TTL 改成能在配置文件里设"),
           E("cache/product_cache.py"), E("config/settings.yaml"), B(PYTEST, True, "25 passed"),
           A("TTL 现在从 settings.yaml 的 product_cache_ttl 读，不配就用 300 秒，测试通过。")],
          done=["过期时间还是写死的"], traps=["商品下架以后缓存也还没清掉"]),
        S([U("商品下架的时候把它的缓存删掉"),
           E("api/product.py"), B(PYTEST, True, "27 passed"),
           A("下架接口现在会顺手删掉这个商品的缓存 key，再查就回源了，测试通过。")],
          done=["商品下架以后缓存也还没清掉"]),
        END,
    ]),
    ("t-zh-search", "zh", [
        S([U("做站内商品搜索"),
           W("search/query.py"), W("web/search.vue"), B(PYTEST, True, "18 passed"),
           A("站内搜索做好了，测试通过。搜索结果还不支持按价格排序；拼音搜索也还没做。")],
          topic=["站内商品搜索"], files=["search/query.py"],
          todos=["按价格排序", "拼音搜索也还没做"]),
        S([U("搜索框加个一键清空的按钮"),
           E("web/search.vue"), B("npm test -- search", True, "9 passed"),
           A("搜索框右边加了清空按钮，点一下清空关键词并收起下拉，搜索的测试都通过。")],
          traps=["按价格排序", "拼音搜索也还没做"]),
        S([U("搜索结果加一个按销量排序"),
           E("search/query.py"), B(PYTEST, True, "20 passed"),
           A("搜索结果现在可以按销量排序了，默认还是按相关度，排序的测试通过。")],
          traps=["按价格排序", "拼音搜索也还没做"]),
        S([U("输入拼音也要能搜到商品"),
           E("search/query.py"), B(PYTEST, True, "23 passed"),
           A("用 pypinyin 给商品名建了拼音索引，输入 shouji 也能搜到手机了，测试通过。")],
          done=["拼音搜索也还没做"], traps=["按价格排序"]),
        END,
    ]),
    ("t-zh-deploy", "zh", [
        S([U("写一个部署脚本，一键发到测试环境"),
           W("deploy/deploy.sh"), B("bats deploy/test", True, "6 tests, 0 failures"),
           A("部署脚本写好了，能一键发到测试环境，脚本测试通过。生产环境的回滚还没做；部署完也还没有健康检查。")],
          topic=["部署脚本"], files=["deploy/deploy.sh"],
          todos=["回滚还没做", "还没有健康检查"]),
        S([U("部署脚本的输出加上颜色"),
           E("deploy/deploy.sh"), B("bats deploy/test", True, "6 tests, 0 failures"),
           A("部署脚本的输出加了颜色，成功是绿色、失败是红色，部署脚本的测试通过。")],
          traps=["回滚还没做", "还没有健康检查"]),
        S([U("部署完自动看一下服务起没起来"),
           E("deploy/deploy.sh"), B("bats deploy/test", True, "8 tests, 0 failures"),
           A("部署结束后会轮询 /healthz，30 秒内拿不到 200 就报错退出，测试通过。生产环境的回滚下一步再做。")],
          done=["还没有健康检查"], traps=["回滚还没做"]),
        END,
    ]),
    ("t-zh-report", "zh", [
        S([U("做一个销售日报的页面"),
           W("report/daily.py"), W("web/report.vue"), B(PYTEST, True, "14 passed"),
           A("销售日报页面做好了，测试通过。日报里的环比数据还没算；每天早上自动发邮件也还没配。")],
          topic=["销售日报"], files=["report/daily.py"],
          todos=["环比数据还没算", "自动发邮件也还没配"]),
        S([U("日报页面的表格加上斑马纹，标题换成加粗"),
           E("web/report.vue"), B("npm test -- report", True, "7 passed"),
           A("日报页面的表格加了斑马纹，标题加粗了，日报的测试都通过。")],
          traps=["环比数据还没算", "自动发邮件也还没配"]),
        S([U("日报加一个同比的列"),
           E("report/daily.py"), B(PYTEST, True, "16 passed"),
           A("日报里加了同比一列，和去年同一天比，数据的测试通过。")],
          traps=["环比数据还没算"]),
        S([U("跟前一天比的那个涨跌也算出来"),
           E("report/daily.py"), B(PYTEST, True, "18 passed"),
           A("日报每个指标后面都有了较前一日的涨跌百分比，测试通过。")],
          done=["环比数据还没算"], traps=["自动发邮件也还没配"]),
        END,
    ]),
    # ---------------------------------------------------------------- English
    ("t-en-chart", "en", [
        S([U("Build the revenue chart for the dashboard"),
           W("web/revenue_chart.ts"), B("npm test -- chart", True, "11 passed"),
           A("The revenue chart renders from /api/revenue and the chart tests pass. The legend overlaps the "
             "axis labels on small screens, and the chart still has no way to download its data as CSV.")],
          topic=["revenue chart"], files=["web/revenue_chart.ts"],
          todos=["legend overlaps the axis labels", "no way to download its data as CSV"]),
        S([U("Make the chart tooltips show each bar's percentage"),
           E("web/revenue_chart.ts"), B("npm test -- chart", True, "12 passed"),
           A("The chart tooltips now show each bar's share of the total as a percentage; the chart tests pass.")],
          traps=["legend overlaps the axis labels", "no way to download its data as CSV"]),
        S([U("Fix the legend on phones"),
           E("web/revenue_chart.ts"), B("npm test -- chart", True, "13 passed"),
           A("On narrow screens the legend moves below the plot, so it no longer covers the labels; tests pass.")],
          done=["legend overlaps the axis labels"], traps=["no way to download its data as CSV"]),
        END,
    ]),
    ("t-en-docs", "en", [
        S([U("Set up the docs site with mkdocs"),
           W("mkdocs.yml"), W("docs/index.md"), B("mkdocs build --strict", True, "Documentation built"),
           A("The docs site builds with mkdocs. There is no page on migrating from v1 to v2 yet, and the API "
             "reference doesn't cover the webhook endpoints.")],
          topic=["docs site"], files=["mkdocs.yml"],
          todos=["no page on migrating from v1", "doesn't cover the webhook endpoints"]),
        S([U("Write a quickstart page for the docs"),
           W("docs/quickstart.md"), B("mkdocs build --strict", True, "Documentation built"),
           A("Wrote the quickstart page of the docs: install, create a project, first deploy. The docs build "
             "passes.")],
          traps=["no page on migrating from v1", "doesn't cover the webhook endpoints"]),
        S([U("Document the webhook endpoints in the API reference"),
           E("docs/api.md"), B("mkdocs build --strict", True, "Documentation built"),
           A("The API reference now lists the three webhook endpoints with their payloads and retry "
             "behaviour; the build passes.")],
          done=["doesn't cover the webhook endpoints"], traps=["no page on migrating from v1"]),
        S([U("Add a page on the v2 configuration options"),
           W("docs/configuration.md"), B("mkdocs build --strict", True, "Documentation built"),
           A("Added a v2 configuration page to the docs with every option and its default; the build passes.")],
          traps=["no page on migrating from v1"]),
        END,
    ]),
    ("t-en-limiter", "en", [
        S([U("Add rate limiting to the public API"),
           W("api/throttle.py"), B(PYTEST, True, "31 passed"),
           A("Rate limiting is in: a token bucket per API key, 100 requests a minute; tests pass. The buckets "
             "live in process memory, so each worker still counts on its own instead of across the cluster. "
             "The limits aren't configurable per pricing plan yet.")],
          topic=["rate limiting"], files=["api/throttle.py"],
          todos=["each worker still counts on its own", "configurable per pricing plan"]),
        S([U("Log every request the limiter rejects"),
           E("api/throttle.py"), B(PYTEST, True, "32 passed"),
           A("Every request the rate limiter rejects is logged with its key and route; tests pass. Sharing "
             "the buckets across the cluster comes next.")],
          traps=["each worker still counts on its own", "configurable per pricing plan"]),
        S([U("Move the token buckets to Redis so every worker shares them"),
           E("api/throttle.py"), B(PYTEST, True, "34 passed"),
           A("The token buckets are kept in Redis now, so all workers in the cluster draw from one bucket per "
             "key; tests pass.")],
          done=["each worker still counts on its own"], traps=["configurable per pricing plan"]),
        S([U("Give the free tier a smaller burst size"),
           E("api/throttle.py"), B(PYTEST, True, "35 passed"),
           A("The limiter's burst size is 20 for everyone now instead of 50; tests pass.")],
          traps=["configurable per pricing plan"]),
        END,
    ]),
    ("t-en-auth", "en", [
        S([U("Add social login"),
           W("auth/providers.py"), B(PYTEST, True, "27 passed"),
           A("Google login works and the auth tests pass. GitHub login isn't wired up yet, and refresh tokens "
             "aren't stored, so users are signed out after an hour.")],
          topic=["social login"], files=["auth/providers.py"],
          todos=["GitHub login isn't wired up", "refresh tokens aren't stored"]),
        S([U("Add Microsoft login as well"),
           E("auth/providers.py"), B(PYTEST, True, "29 passed"),
           A("Microsoft login works now next to Google; the login tests pass.")],
          traps=["GitHub login isn't wired up", "refresh tokens aren't stored"]),
        S([U("Hook up GitHub sign-in"),
           E("auth/providers.py"), B(PYTEST, True, "31 passed"),
           A("Signing in with GitHub works: the callback creates the account on first sign-in; tests pass.")],
          done=["GitHub login isn't wired up"], traps=["refresh tokens aren't stored"]),
        S([U("Keep people signed in past the hour"),
           E("auth/session.py"), B(PYTEST, True, "33 passed"),
           A("The refresh token is saved encrypted with the session now and used to renew the access token "
             "before it expires; tests pass.")],
          done=["refresh tokens aren't stored"]),
        END,
    ]),
    ("t-en-mobile", "en", [
        S([U("Ship push notifications in the app"),
           W("app/push.ts"), B("npm test -- push", True, "10 passed"),
           A("Push notifications work on iOS and the tests pass. The Android build still fails on the "
             "notification channel, and there is no option to mute notifications at night.")],
          topic=["push notifications"], files=["app/push.ts"],
          todos=["Android build still fails", "no option to mute notifications at night"]),
        S([U("Fix the iOS badge count"),
           E("app/ios/Badge.swift"), B("npm test -- push", True, "11 passed"),
           A("The iOS badge count resets when the app opens; the iOS build and the tests pass.")],
          traps=["Android build still fails", "no option to mute notifications at night"]),
        S([U("Add quiet hours to the settings screen"),
           E("app/settings.ts"), B("npm test -- settings", True, "6 passed"),
           A("Settings has a quiet hours switch now: from 22:00 to 7:00 notifications arrive without sound. "
             "Tests pass.")],
          done=["no option to mute notifications at night"], traps=["Android build still fails"]),
        S([U("Get the Android build green"),
           E("app/android/build.gradle"), B("./gradlew assembleDebug", True, "BUILD SUCCESSFUL"),
           A("Declared the notification channel before first use and bumped the SDK; the Android build succeeds.")],
          done=["Android build still fails"]),
        END,
    ]),
    # ---------------------------------------------------------------- mixed
    ("t-mixed-export", "mixed", [
        S([U("做一个订单导出 Excel 的功能"),
           W("export/orders_xlsx.py"), B(PYTEST, True, "9 passed"),
           A("订单导出 Excel 做好了，测试通过。导出的 Excel 还没有表头；金额列也还没格式化成两位小数。")],
          topic=["订单导出"], files=["export/orders_xlsx.py"],
          todos=["还没有表头", "金额列也还没格式化成两位小数"]),
        S([U("导出的文件名加上日期"),
           E("export/orders_xlsx.py"), B(PYTEST, True, "10 passed"),
           A("导出的 Excel 文件名现在带日期了，比如 orders-2026-11-26.xlsx，导出的测试通过。")],
          traps=["还没有表头", "金额列也还没格式化成两位小数"]),
        S([U("export 里的日期列按年月日格式化一下"),
           E("export/orders_xlsx.py"), B(PYTEST, True, "11 passed"),
           A("导出里的日期列格式化成 yyyy-mm-dd 了，测试通过。")],
          traps=["还没有表头", "金额列也还没格式化成两位小数"]),
        S([U("add the header row to the order export"),
           E("export/orders_xlsx.py"), B(PYTEST, True, "12 passed"),
           A("The first row of the sheet now holds the column titles (订单号, 金额, 下单时间); tests pass.")],
          done=["还没有表头"], traps=["金额列也还没格式化成两位小数"]),
        END,
    ]),
    ("t-mixed-importer", "mixed", [
        S([U("写个 CSV 导入，把客户名单导进数据库"),
           W("importer/csv_import.py"), B(PYTEST, True, "8 passed"),
           A("CSV 导入写好了，在 importer/csv_import.py，测试通过。GBK 编码的文件导进来还是乱码；空行也还没跳过。")],
          topic=["CSV 导入"], files=["importer/csv_import.py"],
          todos=["GBK 编码的文件导进来还是乱码", "空行也还没跳过"]),
        S([U("importer 加一个进度条"),
           E("importer/csv_import.py"), B(PYTEST, True, "8 passed"),
           A("导入的时候显示进度条了，每 1000 行刷新一次，csv_import 的测试通过。")],
          traps=["GBK 编码的文件导进来还是乱码", "空行也还没跳过"]),
        S([U("skip blank lines in the importer"),
           E("importer/csv_import.py"), B(PYTEST, True, "10 passed"),
           A("Empty rows are skipped now and counted in the import summary; tests pass.")],
          done=["空行也还没跳过"], traps=["GBK 编码的文件导进来还是乱码"]),
        S([U("导入前先猜一下文件编码"),
           E("importer/csv_import.py"), B(PYTEST, True, "12 passed"),
           A("导入前用 charset-normalizer 识别编码，GB18030 的客户名单导进来中文正常了，测试通过。")],
          done=["GBK 编码的文件导进来还是乱码"]),
        END,
    ]),
]
