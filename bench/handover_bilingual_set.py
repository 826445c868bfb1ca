"""To-dos finished in the OTHER language or in a synonym (issue 20, fifth round): TUNING data, an
upper bound.

Written by the rule's engineer (branch ``bilingual``, 2026-11-26), alongside the CC-CEDICT word
matching (text/lexicon.py, summary/synonyms.py), in his own words — none of these phrasings is in
another set or in the unit tests. Every number on it is an upper bound: the rules were written
with it in view.

8 projects (6 mixed: a to-do said in one language and finished in the other, 2 Chinese: finished in
a synonym), 3–4 sessions each plus a last start. Each first session leaves two open to-dos in one
area; later sessions finish one of them in the other language or another word (a translation of
what it is about: 限流 ← rate limited, "retried" ← 重试, 分页 ← pagination, 登入 ← 登录, 筛选 ← 过滤)
and spring the traps a too-loose translation would: other work in the same area said in the other
language ("The Excel export now streams rows" for "导出的 Excel 还没有表头"), a sibling finished in
the other language, the to-do put next, a failing run, a "not yet" answer.

16 open to-dos planted, 9 finished later, 16 traps (``traps``: an open to-do the session must NOT
close).

Same shapes as ``handover_tuning_set.py``; ``bench_handover_tuning.py --set bilingual`` runs it.
"""

from __future__ import annotations

from handover_tuning_set import END, A, B, E, S, U, W

SCENARIOS = [
    ("bl-mx-orders", "mixed", [
        S([U("给下单接口加一个幂等 key，客户端重试的时候不要重复下单"),
           W("orders/idempotency.py"), E("orders/api.py"),
           B("pytest tests/test_orders.py", True, "8 passed in 1.90s"),
           A("幂等 key 做好了：同一个 key 24 小时内只会下一次单，8 个测试通过。"
             "下单接口还没有限流，另外下单接口的日志还没脱敏，手机号是明文打出来的。")],
          topic=["幂等"], files=["orders/idempotency.py"], todos=["下单接口还没有限流", "日志还没脱敏"]),
        S([U("Rate limiting for the order endpoint please: 20 per second per user, counted in Redis"),
           W("orders/ratelimit.py"), E("orders/api.py"),
           B("pytest tests/test_orders.py tests/test_ratelimit.py", True, "14 passed in 2.75s"),
           A("The order endpoint is rate limited now: 20 requests per second per user, counted in Redis with a "
             "sliding window. 14 tests pass.")],
          done=["下单接口还没有限流"], traps=["日志还没脱敏"]),
        S([U("What's the state of the phone numbers in the order logs?"),
           A("Not done yet — the order endpoint still logs the full phone number.")],
          light=True, traps=["日志还没脱敏"]),
        END,
    ]),
    ("bl-mx-uploader", "mixed", [
        S([U("Write the S3 uploader for the nightly export"),
           W("export/uploader.py"), W("tests/test_uploader.py"),
           B("pytest tests/test_uploader.py", True, "5 passed in 0.80s"),
           A("The uploader is in: it streams each file to S3 in 8 MB parts, 5 tests pass. "
             "Failed uploads aren't retried yet, and the uploader has no progress bar.")],
          topic=["S3 uploader"], files=["export/uploader.py"],
          todos=["Failed uploads aren't retried", "has no progress bar"]),
        S([U("进度条下周再说，先把上传的日志级别调成 INFO"),
           E("export/uploader.py"), B("pytest tests/test_uploader.py", True, "5 passed in 0.79s"),
           A("上传的日志级别改成 INFO 了，5 个测试通过。")],
          traps=["Failed uploads aren't retried", "has no progress bar"]),
        S([U("上传失败的时候自动重试，最多三次，指数退避"),
           E("export/uploader.py"), E("tests/test_uploader.py"),
           B("pytest tests/test_uploader.py", True, "7 passed in 0.95s"),
           A("上传失败现在会自动重试，最多三次，间隔 1、2、4 秒，7 个测试都过了。")],
          done=["Failed uploads aren't retried"], traps=["has no progress bar"]),
        END,
    ]),
    ("bl-mx-search", "mixed", [
        S([U("Add full-text search over the wiki pages"),
           W("wiki/search.py"), B("pytest tests/test_search.py", True, "6 passed in 1.10s"),
           A("Full-text search works over titles and bodies, 6 tests pass. Search results have no pagination "
             "yet, and matched words aren't highlighted.")],
          topic=["full-text search"], files=["wiki/search.py"],
          todos=["Search results have no pagination", "matched words aren't highlighted"]),
        S([U("今天先把搜索结果的关键词高亮做了，分页下一步再弄"),
           E("wiki/search.py"), B("pytest tests/test_search.py", True, "8 passed in 1.21s"),
           A("关键词高亮做好了，命中的词会加粗显示，8 个测试通过。分页是下一步。")],
          done=["matched words aren't highlighted"], traps=["Search results have no pagination"]),
        S([U("继续，把分页做了"),
           E("wiki/search.py"), B("pytest tests/test_search.py", True, "10 passed in 1.30s"),
           A("搜索结果的分页做好了，每页 20 条，带上一页、下一页，10 个测试通过。")],
          done=["Search results have no pagination"]),
        END,
    ]),
    ("bl-mx-export", "mixed", [
        S([U("订单导出 Excel 的功能做一下"),
           W("export/excel.py"), B("pytest tests/test_excel.py", True, "4 passed in 0.66s"),
           A("订单导出 Excel 做好了，4 个测试通过。导出的 Excel 还没有表头。另外日期列的格式也还没处理，显示成了数字。")],
          topic=["导出 Excel"], files=["export/excel.py"], todos=["还没有表头", "日期列的格式也还没处理"]),
        S([U("The Excel export runs out of memory on big months, stream the rows"),
           E("export/excel.py"), B("pytest tests/test_excel.py", True, "5 passed in 0.70s"),
           A("The Excel export now streams rows instead of building the whole file in memory; a 2 million row "
             "month takes 180 MB instead of 3 GB. 5 tests pass.")],
          traps=["还没有表头", "日期列的格式也还没处理"]),
        S([U("Fix the dates in the Excel export"),
           E("export/excel.py"), B("pytest tests/test_excel.py", True, "6 passed in 0.72s"),
           A("Dates in the Excel export use the yyyy-mm-dd format now instead of serial numbers. 6 tests pass.")],
          done=["日期列的格式也还没处理"], traps=["还没有表头"]),
        END,
    ]),
    ("bl-mx-gateway", "mixed", [
        S([U("接一下新的支付网关，先做下单和回调"),
           W("pay/gateway.py"), B("pytest tests/test_gateway.py", True, "9 passed in 2.10s"),
           A("支付网关的下单和回调接好了，9 个测试通过。调用支付网关还没有设超时，网关的证书也还没有自动续期。")],
          topic=["支付网关"], files=["pay/gateway.py"], todos=["还没有设超时", "证书也还没有自动续期"]),
        S([U("Add a timeout to the payment gateway calls, 5 seconds"),
           E("pay/gateway.py"), B("pytest tests/test_gateway.py", False,
                                  "FAILED tests/test_gateway.py::test_slow_gateway - AssertionError"),
           A("The payment gateway calls have a 5 s timeout now, but test_slow_gateway fails: the mock sleeps in a "
             "thread the timeout doesn't cover.")],
          traps=["还没有设超时", "证书也还没有自动续期"]),
        S([U("continue"),
           E("tests/test_gateway.py"), B("pytest tests/test_gateway.py", True, "10 passed in 2.30s"),
           A("Fixed the mock. The payment gateway calls have a 5 s timeout now and all 10 tests pass.")],
          done=["还没有设超时"], traps=["证书也还没有自动续期"]),
        END,
    ]),
    ("bl-mx-settings", "mixed", [
        S([U("Build the settings page of the mobile app"),
           W("app/screens/Settings.tsx"), B("yarn jest Settings", True, "Tests: 6 passed, 6 total"),
           A("The settings page is done, 6 tests pass. The settings page has no dark theme yet. The last "
             "opened tab isn't remembered yet either.")],
          topic=["settings page"], files=["app/screens/Settings.tsx"],
          todos=["has no dark theme", "opened tab isn't remembered"]),
        S([U("设置页加上深色主题，跟随系统"),
           E("app/screens/Settings.tsx"), W("app/theme/dark.ts"),
           B("yarn jest", True, "Tests: 9 passed, 9 total"),
           A("设置页的深色主题做好了，默认跟随系统，也可以手动切换，9 个测试通过。")],
          done=["has no dark theme"], traps=["opened tab isn't remembered"]),
        END,
    ]),
    ("bl-zh-phone", "zh", [
        S([U("注册页加上邮箱验证"),
           W("auth/signup.ts"), B("pnpm test signup", True, "5 passed"),
           A("邮箱验证加好了，5 个用例通过。目前还不支持用手机号登入，短信验证码也没有频率限制。")],
          topic=["邮箱验证"], files=["auth/signup.ts"], todos=["还不支持用手机号登入", "短信验证码也没有频率限制"]),
        S([U("把手机号登录做了"),
           W("auth/phone.ts"), B("pnpm test", True, "12 passed"),
           A("手机号登录做好了：输入手机号、收验证码就能进，12 个用例通过。")],
          done=["还不支持用手机号登入"], traps=["短信验证码也没有频率限制"]),
        END,
    ]),
    ("bl-zh-filter", "zh", [
        S([U("工单列表页做一下，按创建时间倒序"),
           W("web/tickets/List.vue"), B("pnpm test tickets", True, "7 passed"),
           A("工单列表页做好了，按创建时间倒序，7 个用例通过。工单列表还不能按状态过滤，列表的导出也还没做。")],
          topic=["工单列表"], files=["web/tickets/List.vue"], todos=["还不能按状态过滤", "导出也还没做"]),
        S([U("工单列表加一个按状态筛选的下拉框"),
           E("web/tickets/List.vue"), B("pnpm test tickets", True, "9 passed"),
           A("按状态筛选做好了：下拉框里可以多选状态，9 个用例通过。")],
          done=["还不能按状态过滤"], traps=["导出也还没做"]),
        END,
    ]),
]
