"""The to-do CAPTURE tuning set (issue 20, third round): open work stated as a state, and reports that
state things which are not open work.

Written on 2026-11-26 by the engineer of the capture rules (branch ``capture``), after the rules of
``summary/clauses.py`` (``lacking``) were first written and before they were tuned further: it is a
TUNING set and every number on it is an UPPER BOUND. It exists to measure precision as well as
recall: each first session's report mixes what was done, open work said as a state ("the Safari
build is untested", "the export still rounds to whole euros", "导出按钮还是灰的", "只覆盖了首页"),
lead-ins that announce open items ("Open issues:", "还剩两件事："), and sentences that must NOT
become to-dos — results ("all 212 tests still pass"), how the code works ("returns 404 when the id is
missing"), causes ("it was slow because the index was missing"), caveats that are intended ("the
admin list is capped at 50 on purpose"), the past ("之前一直是写死的"), a question. Later sessions
finish some of the to-dos and restate others.

10 projects (4 Chinese, 4 English, 2 mixed), 20 planted to-dos, 8 of them finished later. ``bench_handover_tuning.py --set
capture`` runs it; the ``spurious_todos`` count is the precision measure (a ``[ ]`` line holding no
planted to-do).
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, S, U, W

SCENARIOS = [
    ("p-zh-report", "zh", [
        S([U("财务报表页加一个按季度汇总"),
           E("report/quarter.py"), B("python -m pytest tests/test_report.py -q", True, "14 passed"),
           A("按季度汇总加好了，原来的月度报表不受影响，14 个测试都过了。导出 Excel 的按钮在季度视图下还是灰的；"
             "另外汇率目前只用了月末的一个值，财务希望按日加权。季度的起始月份按自然年算，这是和财务确认过的。")],
          topic=["按季度汇总"], files=["report/quarter.py"],
          todos=["导出 Excel 的按钮在季度视图下还是灰的", "汇率目前只用了月末的一个值"]),
        S([U("季度视图的导出按钮弄一下"),
           E("report/export.py"), B("python -m pytest tests/test_report.py -q", True, "16 passed"),
           A("季度视图现在可以导出 Excel 了，表头带季度名。导出用的是同一个模板，之前月度导出的格式没变。")],
          done=["导出 Excel 的按钮在季度视图下还是灰的"]),
        END,
    ]),
    ("p-zh-sms", "zh", [
        S([U("注册时加短信验证码"),
           E("auth/sms.py"), W("auth/templates/sms.txt"), B("python -m pytest tests/test_sms.py -q", True, "9 passed"),
           A("短信验证码接上了，验证码 5 分钟有效，同一手机号 60 秒内只能发一次，这是故意的，防刷。"
             "海外号码不支持，发送接口直接报 400；短信模板的签名还是测试账号的【测试】。")],
          topic=["短信验证码"], files=["auth/sms.py"],
          todos=["海外号码不支持", "短信模板的签名还是测试账号的"]),
        S([U("签名换成正式的【云帆】"),
           E("auth/templates/sms.txt"), B("python -m pytest tests/test_sms.py -q", True, "9 passed"),
           A("模板签名改成【云帆】了，测试没变化，还是 9 个全过。")],
          done=["短信模板的签名还是测试账号的"]),
        END,
    ]),
    ("p-zh-cache", "zh", [
        S([U("商品详情页太慢了，加一层缓存"),
           E("shop/detail.py"), B("python -m pytest tests/test_detail.py -q", True, "22 passed"),
           A("详情页加了 Redis 缓存，命中时 8ms，原来慢是因为每次都要查 6 张表。还剩两件事：库存数字会被缓存住，"
             "下单后最多 5 分钟才刷新；缓存的 key 前缀写死成了 shop:，多个环境共用一个 Redis 会串。")],
          topic=["Redis 缓存"], files=["shop/detail.py"],
          todos=["库存数字会被缓存住", "缓存的 key 前缀写死成了"]),
        S([U("缓存命中率大概多少？"), A("今天上午是 93%，没命中的大多是新上架的商品。")], light=True),
        END,
    ]),
    ("p-zh-ocr", "zh", [
        S([U("发票识别接上 OCR"),
           W("invoice/ocr.py"), B("python -m pytest tests/test_ocr.py -q", True, "7 passed"),
           A("OCR 接好了，增值税专票能识别出金额、税号和开票日期。手写的发票识别不出来；"
             "电子发票的 PDF 目前也只能读第一页，多页的后面几页会丢。识别失败时返回 422，前端会提示重新拍照。")],
          topic=["OCR"], files=["invoice/ocr.py"],
          todos=["手写的发票识别不出来", "电子发票的 PDF 目前也只能读第一页"]),
        S([U("多页 PDF 的问题处理一下"),
           E("invoice/ocr.py"), B("python -m pytest tests/test_ocr.py -q", True, "9 passed"),
           A("多页 PDF 现在每一页都会识别，合并成一张发票的明细。")],
          done=["电子发票的 PDF 目前也只能读第一页"]),
        END,
    ]),
    ("p-en-export", "en", [
        S([U("Accountants want the ledger as a CSV download"),
           E("ledger/export.py"), B("pytest tests/test_ledger.py -q", True, "27 passed"),
           A("The ledger page has a CSV download now, one row per entry, UTF-8 with a BOM so Excel opens it. "
             "The export still rounds amounts to whole euros, and entries in foreign currencies are left out "
             "entirely. All 27 ledger tests still pass. The download is capped at 50,000 rows on purpose.")],
          topic=["CSV download"], files=["ledger/export.py"],
          todos=["still rounds amounts to whole euros", "entries in foreign currencies are left out"]),
        S([U("Keep the cents in the export"),
           E("ledger/export.py"), B("pytest tests/test_ledger.py -q", True, "28 passed"),
           A("Amounts keep two decimals now; I added a test with 0.05.")],
          done=["still rounds amounts to whole euros"]),
        END,
    ]),
    ("p-en-mobile", "en", [
        S([U("The settings screen crashes on iOS 17"),
           E("app/settings/Screen.swift"), B("xcodebuild test -scheme App", True, "Test Succeeded"),
           A("The crash was a force-unwrap of a nil locale; it falls back to en_US now and the screen opens. "
             "Open issues: the dark mode toggle has no effect until the app restarts, and the Safari "
             "share extension is untested on iPadOS.")],
          topic=["force-unwrap"], files=["app/settings/Screen.swift"],
          todos=["dark mode toggle has no effect", "Safari share extension is untested"]),
        S([U("does the dark mode toggle apply right away now?"),
           A("No — it still needs a restart; I haven't touched the toggle yet.")], light=True),
        S([U("make the dark mode toggle apply immediately"),
           E("app/settings/Theme.swift"), B("xcodebuild test -scheme App", True, "Test Succeeded"),
           A("Toggling dark mode now re-renders every window right away, no restart.")],
          done=["dark mode toggle has no effect"]),
        END,
    ]),
    ("p-en-queue", "en", [
        S([U("Move email sending off the request path"),
           W("mail/worker.py"), E("mail/send.py"), B("pytest tests/test_mail.py -q", True, "12 passed"),
           A("Emails go through a Redis queue now and a worker sends them; the signup request dropped from "
             "900 ms to 120 ms. Failed sends aren't retried — a bounce just disappears from the queue. "
             "There's also no dashboard for the queue depth, so a stuck worker would go unnoticed. "
             "The worker reads the same SMTP settings as before.")],
          topic=["Redis queue"], files=["mail/worker.py"],
          todos=["Failed sends aren't retried", "no dashboard for the queue depth"]),
        S([U("add retries with backoff for failed sends"),
           E("mail/worker.py"), B("pytest tests/test_mail.py -q", False, "1 failed: test_retry_backoff"),
           A("Retries are in but the backoff test fails: the delay doubles from the wrong base. I'll pick it "
             "up next session.")]),
        END,
    ]),
    ("p-en-docs", "en", [
        S([U("Generate the API reference from the OpenAPI file"),
           W("docs/gen_api.py"), B("python docs/gen_api.py", True, "wrote 41 pages"),
           A("docs/gen_api.py writes one page per endpoint from openapi.yaml — 41 pages. The examples for "
             "the webhook endpoints are empty because the spec has none, and the search box on the docs site "
             "doesn't index the generated pages. The generator runs in about 2 seconds.")],
          topic=["API reference"], files=["docs/gen_api.py"],
          todos=["examples for the webhook endpoints are empty", "doesn't index the generated pages"]),
        S([U("thanks"), A("You're welcome.")], light=True),
        END,
    ]),
    ("p-mix-auth", "mixed", [
        S([U("给 admin 后台加上 SSO 登录，用公司的 Okta"),
           E("admin/auth.py"), B("pytest tests/test_admin_auth.py -q", True, "15 passed"),
           A("Okta SSO 接好了，admin 登录跳转到 Okta，回来以后按 group 分配角色。The logout button still only "
             "clears the local session, so Okta keeps the user signed in；另外 group 到角色的映射是写死在 "
             "admin/auth.py 里的。本地开发仍然可以用账号密码登录，这是特意留的。")],
          topic=["SSO"], files=["admin/auth.py"],
          todos=["logout button still only clears the local session", "group 到角色的映射是写死在"]),
        S([U("映射放到配置里"),
           E("admin/auth.py"), E("config/roles.yaml"), B("pytest tests/test_admin_auth.py -q", True, "16 passed"),
           A("group → role mapping now lives in config/roles.yaml; the tests read a fixture copy.")],
          done=["group 到角色的映射是写死在"]),
        END,
    ]),
    ("p-mix-build", "mixed", [
        S([U("前端构建太慢了，从 webpack 换成 vite 试试"),
           E("web/vite.config.ts"), B("npm run build", True, "built in 14s"),
           A("换成 vite 了，构建从 95 秒降到 14 秒，dev server 热更新也快了很多。Storybook is still on webpack, "
             "so it builds twice as slow as the app；legacy 浏览器的 polyfill 也还没配。之前 webpack 的缓存目录可以删掉了。")],
          topic=["vite"], files=["web/vite.config.ts"],
          todos=["Storybook is still on webpack", "polyfill 也还没配"]),
        S([U("把 legacy polyfill 配上"),
           E("web/vite.config.ts"), B("npm run build", True, "built in 19s"),
           A("加了 @vitejs/plugin-legacy，IE11 不管，Safari 12 能正常打开了。")],
          done=["polyfill 也还没配"]),
        END,
    ]),
]
