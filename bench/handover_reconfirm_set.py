"""Premature finishes: a session SAYS an open to-do is done, and it is not (issue 20, round 8).

Written by the engineer of round 8 (branch ``reconfirm8``, 2026-11-26) alongside the change — the
Stop question's second part, the summarizer's unconfirmed closes — and BEFORE running it on the
summarizer: every number on it is an UPPER BOUND. The tuning sets hold no wrong close of the
summarizer (it was tuned on them: 0 in every one), so they cannot show what reconfirming corrects;
this set has the class the summarizer cannot judge from words at all — a report that claims the
to-do done when the work did not finish it (a fix that did not hold, a part taken for the whole,
a claim made before the check) — and that only a later session's work reveals.

6 projects (3 Chinese, 3 English), 4 sessions each plus a last start:

1. work that leaves two open to-dos (A and B);
2. B finished for real (``done``), and A claimed finished in the words of a report (``traps``: the
   summarizer may close A from those words; the truth is that A is not finished);
3. work in A's area that shows A is not finished (a failure comes back, the other half is
   missing) without finishing it (``traps``: A);
4. A finished for real, in other words (``done``).

``bench_todo_check.py --set reconfirm`` replays it; ``bench_handover_tuning.py`` does not list it.
"""

from __future__ import annotations

from handover_traps_set import S  # a session with ``traps``
from handover_tuning_set import END, A, B, E, U, W

SCENARIOS = [
    ("r-zh-flaky", "zh", [
        S([U("把订单导出的接口改成流式写 CSV"),
           E("export/orders.py"), W("tests/test_export.py"), B("pytest tests/test_export.py -q", True, "8 passed"),
           A("订单导出改成流式写了，内存占用从 1.2G 降到 60M，8 个用例通过。test_export_timeout 这个用例偶尔会超时失败，"
             "还没查原因；导出的文件名还没带日期。")],
          topic=["流式写 CSV"], files=["export/orders.py"],
          todos=["test_export_timeout 这个用例偶尔会超时失败", "导出的文件名还没带日期"]),
        S([U("导出文件名加上日期，顺便看看那个偶尔超时的用例"),
           E("export/orders.py"), E("tests/test_export.py"), B("pytest tests/test_export.py -q", True, "9 passed"),
           A("文件名现在是 orders-2026-11-26.csv 这种格式了。test_export_timeout 偶尔超时的问题修好了，"
             "把超时从 2 秒放宽到 5 秒，本地跑了一遍通过。")],
          done=["导出的文件名还没带日期"], traps=["test_export_timeout 这个用例偶尔会超时失败"]),
        S([U("CI 上 test_export_timeout 又红了，看一下"),
           E("tests/test_export.py"), B("pytest tests/test_export.py -q -k timeout --count 20", False, "3 failed, 17 passed"),
           A("看了 CI 日志：test_export_timeout 在 CI 上还是会偶发超时，20 次里失败 3 次，放宽超时只是掩盖了，"
             "根因像是测试里的假数据库连接没有关。今天先加了日志，明天继续查。")],
          traps=["test_export_timeout 这个用例偶尔会超时失败"]),
        S([U("继续查导出那个超时的用例"),
           E("tests/conftest.py"), B("pytest tests/test_export.py -q -k timeout --count 50", True, "50 passed"),
           A("找到了：fixture 里的假数据库连接没关，连接池耗尽后就会卡住。conftest.py 里改成 yield 后关闭，"
             "超时也改回 2 秒，连跑 50 次全过。")],
          done=["test_export_timeout 这个用例偶尔会超时失败"]),
        END,
    ]),
    ("r-zh-i18n", "zh", [
        S([U("设置页做一下多语言"),
           W("web/settings/i18n.ts"), E("web/settings/page.tsx"), B("npm test -- settings", True, "14 passed"),
           A("设置页接上了 i18n，中英文切换正常，测试通过。日期格式还没跟着语言变；设置页的日文翻译也还没有。")],
          topic=["设置页多语言"], files=["web/settings/i18n.ts"],
          todos=["日期格式还没跟着语言变", "设置页的日文翻译也还没有"]),
        S([U("日期格式跟着语言走，再把日文加上"),
           E("web/settings/i18n.ts"), W("web/settings/locales/ja.json"), B("npm test -- settings", True, "16 passed"),
           A("日期现在按语言格式化了，英文是 Nov 26, 2026，中文是 2026年11月26日。设置页的日文翻译也加上了。")],
          done=["日期格式还没跟着语言变"], traps=["设置页的日文翻译也还没有"]),
        S([U("日文的设置页有一半还是英文，看一下"),
           E("web/settings/locales/ja.json"), B("npm test -- settings", True, "16 passed"),
           A("查了一下：ja.json 只翻了通用和账户两个分组，通知、隐私、账单三个分组还是英文的 key 在兜底，"
             "所以一半显示英文。先把缺的 key 列出来了，共 42 个，还没翻。")],
          traps=["设置页的日文翻译也还没有"]),
        S([U("把剩下 42 个日文 key 补上"),
           E("web/settings/locales/ja.json"), B("npm test -- settings", True, "17 passed"),
           A("通知、隐私、账单三个分组的 42 条日文都补齐了，加了一个检查缺失 key 的测试，切到日语后整页都是日文。")],
          done=["设置页的日文翻译也还没有"]),
        END,
    ]),
    ("r-zh-backup", "zh", [
        S([U("给 Postgres 加每天的自动备份"),
           W("ops/backup.sh"), W("ops/cron/backup.cron"), B("bash ops/backup.sh --dry-run", True, "ok"),
           A("每天凌晨 3 点的 pg_dump 备份脚本写好了，dry-run 通过。备份还没传到对象存储，只在本机；"
             "恢复流程也没演练过。")],
          topic=["自动备份"], files=["ops/backup.sh"],
          todos=["备份还没传到对象存储", "恢复流程也没演练过"]),
        S([U("备份传到 OSS 上，恢复也演练一下"),
           E("ops/backup.sh"), B("bash ops/backup.sh", True, "uploaded backup-20261126.sql.gz"),
           A("备份现在会上传到 OSS 的 db-backup 桶，保留 30 天。恢复流程也演练过了。")],
          done=["备份还没传到对象存储"], traps=["恢复流程也没演练过"]),
        S([U("恢复演练的记录我没看到，到底跑没跑"),
           E("ops/restore.sh"), B("bash ops/restore.sh --target staging", False, "pg_restore: error: could not read input file"),
           A("说实话上次只是看了一眼 pg_restore 的参数，没真跑。刚才在 staging 上跑恢复失败了：OSS 下载的是分片文件，"
             "需要先合并再 pg_restore，restore.sh 还没处理这个。")],
          traps=["恢复流程也没演练过"]),
        S([U("把分片合并加上，再在 staging 上完整恢复一次"),
           E("ops/restore.sh"), B("bash ops/restore.sh --target staging", True, "restored 48 tables, 2.1M rows"),
           A("restore.sh 先合并分片再 pg_restore，staging 上完整恢复了一遍：48 张表、210 万行，和生产的行数对上，"
             "用时 6 分钟，步骤写进了 ops/RESTORE.md。")],
          done=["恢复流程也没演练过"]),
        END,
    ]),
    ("r-en-retry", "en", [
        S([U("Add retries to the upload client"),
           E("client/upload.py"), W("tests/test_upload.py"), B("pytest tests/test_upload.py -q", True, "11 passed"),
           A("Uploads now retry three times with exponential backoff; 11 tests pass. Downloads still have no retry "
             "at all, and the retry count is hard-coded instead of read from the config.")],
          topic=["retries to the upload client"], files=["client/upload.py"],
          todos=["Downloads still have no retry", "the retry count is hard-coded"]),
        S([U("Make the retry count configurable and do the same for downloads"),
           E("client/upload.py"), E("client/config.py"), B("pytest tests/ -q", True, "13 passed"),
           A("The retry count comes from client.retries in the config now (default 3). Downloads have retries too.")],
          done=["the retry count is hard-coded"], traps=["Downloads still have no retry"]),
        S([U("A download just died on the first timeout in staging, no retry in the log"),
           E("client/download.py"), B("pytest tests/test_download.py -q", False, "1 failed, 6 passed"),
           A("Found it: the download path calls the raw session, not the retrying wrapper, so a download still fails "
             "on the first timeout. I only wired the wrapper into upload.py last time. Added a failing test for it.")],
          traps=["Downloads still have no retry"]),
        S([U("Route downloads through the retrying wrapper"),
           E("client/download.py"), B("pytest tests/ -q", True, "15 passed"),
           A("download.py goes through the same backoff wrapper now; the new test passes and a staging download "
             "survived two injected timeouts.")],
          done=["Downloads still have no retry"]),
        END,
    ]),
    ("r-en-auth", "en", [
        S([U("Add password reset by email"),
           E("auth/reset.py"), W("mail/reset.html"), B("pytest tests/test_reset.py -q", True, "9 passed"),
           A("Password reset by email works end to end; 9 tests pass. Reset tokens never expire yet, and the reset "
             "endpoint has no rate limit.")],
          topic=["password reset"], files=["auth/reset.py"],
          todos=["Reset tokens never expire yet", "the reset endpoint has no rate limit"]),
        S([U("Expire the reset tokens after an hour and rate limit the endpoint"),
           E("auth/reset.py"), E("auth/limits.py"), B("pytest tests/test_reset.py -q", True, "12 passed"),
           A("The reset endpoint is limited to 5 requests a minute per IP now. Token expiry is done too.")],
          done=["the reset endpoint has no rate limit"], traps=["Reset tokens never expire yet"]),
        S([U("QA says a reset link from yesterday still works"),
           E("auth/reset.py"), B("pytest tests/test_reset.py -q -k expiry", False, "1 failed"),
           A("QA is right: the expiry check compares against the token's creation time in local time while tokens are "
             "stored in UTC, so an old link still works. Tokens still don't really expire; wrote a failing test.")],
          traps=["Reset tokens never expire yet"]),
        S([U("Fix the token expiry for real"),
           E("auth/reset.py"), B("pytest tests/test_reset.py -q", True, "14 passed"),
           A("Both sides use UTC now; a link older than an hour is refused with 410 Gone, and the test with "
             "yesterday's link passes.")],
          done=["Reset tokens never expire yet"]),
        END,
    ]),
    ("r-en-report", "en", [
        S([U("Build the monthly revenue report"),
           W("reports/monthly.py"), W("tests/test_monthly.py"), B("pytest tests/test_monthly.py -q", True, "7 passed"),
           A("The monthly revenue report is in reports/monthly.py; 7 tests pass. Refunds are not subtracted yet, "
             "and the report has no CSV download.")],
          topic=["monthly revenue report"], files=["reports/monthly.py"],
          todos=["Refunds are not subtracted yet", "the report has no CSV download"]),
        S([U("Add the CSV download and handle refunds"),
           E("reports/monthly.py"), W("reports/csv_view.py"), B("pytest tests/test_monthly.py -q", True, "9 passed"),
           A("There is a Download CSV button on the report now. Refunds are subtracted as well.")],
          done=["the report has no CSV download"], traps=["Refunds are not subtracted yet"]),
        S([U("Finance says October is 3% too high compared to the ledger"),
           E("reports/monthly.py"), B("python -m reports.monthly --month 2026-10", True, "revenue 1,031,200"),
           A("Checked October against the ledger: only full refunds are subtracted; partial refunds live in another "
             "table the report does not read, which is the 3%. Refunds are still only half handled.")],
          traps=["Refunds are not subtracted yet"]),
        S([U("Include the partial refunds"),
           E("reports/monthly.py"), B("pytest tests/test_monthly.py -q", True, "11 passed"),
           A("The report reads partial_refunds as well; October now matches the ledger to the cent (1,000,264.18).")],
          done=["Refunds are not subtracted yet"]),
        END,
    ]),
]
