"""The checks that REJECT a close (summary/guards.py, issue 20, fifth round): a subject said to be
left as it was, a file of the to-do edited for other work, a scope limit restated, a sibling named
by the same head word with another modifier, other work on the same thing. Each trap sits beside
the true finish that must STILL close. Every phrasing here is this file's own (none is in a bench
set)."""

from __future__ import annotations

from code_memory.summary import guards
from code_memory.text.keywords import weights
from test_todos_closing import closed


def test_a_subject_left_as_it_was_is_no_work_done():
    assert guards.untouched("Bumped the timeout; the pooling code is untouched.") == ["pooling"]
    assert guards.untouched("重试那段逻辑原封不动。") == ["重试"]
    assert guards.untouched("签名的部分保持不变") and guards.untouched("I didn't change the parser at all")
    assert guards.untouched("Added the cache and the tests pass.") == []
    assert guards.untouched("The test code is unchanged.") == []            # names no work of its own
    assert guards.without_untouched("Bumped the timeout; the pooling code is untouched.") == "Bumped the timeout"

    pool = [("s1", "The connection pooling has no tests"), ("s1", "The request timeout is too short for uploads")]
    work = dict(files=["/p/db/pool.py"], failed=False)
    assert closed(pool, "Raised the upload timeout to 120 s; the tests pass. The connection pooling is untouched.",
                  requests=["make the upload timeout longer"], **work) == pool[1:]
    assert closed(pool, "Connection pooling is covered now: eight tests for checkout, return and overflow, all pass.",
                  requests=["write tests for the pool"], **work) == pool[:1]

    retry = [("s1", "发送失败还没有重试"), ("s1", "短信模板还是写死在代码里")]
    work = dict(files=["/p/sms/send.py"], failed=False)
    assert closed(retry, "短信模板改成从数据库读了，测试通过。发送重试那块原封不动。",
                  requests=["短信模板改成从数据库读"], **work) == retry[1:]
    assert closed(retry, "发送失败以后会按 1、5、30 秒退避重试三次，测试通过。",
                  requests=["发送失败加个重试"], **work) == retry[:1]


def test_its_file_edited_for_other_work_is_no_evidence():
    assert guards.placed("the snippets in docs/howto.md are never run", ["docs/howto.md"]) >= {"docs/howto.md"}
    assert guards.placed("schema.sql 里的索引还没加", ["schema.sql"]) >= {"schema.sql"}
    assert guards.placed("the legacy settings.ini isn't converted yet", ["settings.ini"]) == set()   # it is the work
    legacy = [("s1", "the legacy settings.ini isn't converted yet")]
    assert closed(legacy, "tools/convert_settings.py turns every key of settings.ini into settings.toml; tests pass.",
                  requests=["get the old settings.ini converted"], files=["/p/tools/convert_settings.py"],
                  failed=False) == legacy
    docs = [("s1", "the examples in docs/guide.md aren't executed anywhere")]
    assert closed(docs, "Reworded the intro of docs/guide.md and fixed two links; the build passes.",
                  requests=["tidy up the intro of the guide"], files=["/p/docs/guide.md"], checked=["/p/docs/guide.md"],
                  failed=False) == []
    assert closed(docs, "Both pass.", requests=["继续"], files=["/p/docs/guide.md"], checked=["/p/docs/guide.md"],
                  failed=False) == docs                       # a bare "continue" that edits it: evidence
    mixed = [("s1", "config/loader.py 里的环境变量覆盖还没有测试")]
    assert closed(mixed, "日志格式改成 JSON 了，测试通过。", requests=["把 loader 的日志改成 JSON"],
                  files=["/p/config/loader.py"], checked=["/p/config/loader.py"], failed=False) == []
    assert closed(mixed, "环境变量覆盖的测试补上了，6 个用例全过。", requests=["补一下环境变量覆盖的测试"],
                  files=["/p/config/loader.py"], checked=["/p/config/loader.py"], failed=False) == mixed


def test_a_scope_limit_restated_does_not_finish_it():
    assert guards.scope("The importer only handles UTF-8 files for now") == ["UTF-8"]
    assert guards.scope("目前只支持 PostgreSQL") == ["PostgreSQL"] and guards.scope("The importer is slow") == []
    limited = "The importer only handles UTF-8 files for now"
    assert guards.restates_scope(limited, ["UTF-8 files import twice as fast now."])
    assert not guards.restates_scope(limited, ["The importer reads UTF-8, Latin-1 and Shift-JIS files now."])
    assert not guards.restates_scope(limited, ["Latin-1 files import as well now."])
    assert not guards.restates_scope(limited, ["Besides UTF-8 it detects the encoding with charset-normalizer."])

    db = [("s1", "迁移脚本目前只在 PostgreSQL 上跑过")]
    work = dict(files=["/p/migrate/run.py"], failed=False)
    assert closed(db, "PostgreSQL 上的迁移又跑了一遍，耗时从 40 秒降到 12 秒。", requests=["PostgreSQL 上的迁移再优化一下"],
                  **work) == []
    assert closed(db, "迁移脚本在 PostgreSQL、MySQL 和 SQLite 上都跑过了。", requests=["迁移脚本在其他数据库上跑一下"],
                  **work) == db
    en = [("s1", "The screenshot tests only run on Pixel 7 so far")]
    work = dict(files=["/p/android/screenshots.gradle"], failed=False)
    assert closed(en, "The screenshot tests on the Pixel 7 are 30% faster with a warm emulator.",
                  requests=["speed up the screenshot tests"], **work) == []
    assert closed(en, "The screenshot tests run on Pixel 7, Pixel Fold and a small tablet now.",
                  requests=["run the screenshot tests on more devices"], **work) == en


def test_a_sibling_named_by_its_head_word_does_not_finish_it():
    sign = weights("The staging deploy is still manual")
    assert guards.sibling_named("staging deploy", sign, ["The production deploy runs from CI now."], ["automate prod"])
    assert not guards.sibling_named("staging deploy", sign, ["The staging deploy runs from CI now."], [])

    deploys = [("s1", "The staging deploy is still manual"), ("s1", "Rollbacks aren't documented")]
    work = dict(files=["/p/.github/workflows/deploy.yml"], failed=False)
    assert closed(deploys, "The production deploy is automated now: a tag triggers it and the workflow passes.",
                  requests=["automate the production deploy"], **work) == []
    assert closed(deploys, "The staging deploy is automated now: every merge to main triggers it.",
                  requests=["automate the staging deploy"], **work) == deploys[:1]

    logs = [("s1", "访问日志还没有按天切割"), ("s1", "告警还没接钉钉")]
    work = dict(files=["/p/ops/logrotate.conf"], failed=False)
    assert closed(logs, "错误日志现在按天切割了，保留 7 天。", requests=["错误日志按天切一下"], **work) == []
    assert closed(logs, "访问日志现在每天零点切割，保留 14 天。", requests=["访问日志按天切"], **work) == logs[:1]
    mixed = [("s1", "iOS 的推送证书还没配")]
    assert closed(mixed, "Android 的推送证书配好了，测试推送能收到。", requests=["配一下 Android 推送"],
                  files=["/p/push/config.json"], failed=False) == []
    assert closed(mixed, "iOS 推送证书配好了，真机收到了测试推送。", requests=["配一下 iOS 推送"],
                  files=["/p/push/config.json"], failed=False) == mixed


def test_other_work_on_the_same_thing_with_no_history():
    report = [("s1", "导出的 PDF 报表还没有页码")]
    work = dict(files=["/p/report/pdf.py"], failed=False)
    assert closed(report, "导出的 PDF 报表现在带公司 logo 了，测试通过。", requests=["PDF 报表加上公司 logo"], **work) == []
    assert closed(report, "导出的 PDF 报表每页底部都有页码了，测试通过。", requests=["PDF 报表加页码"], **work) == report
    en = [("s1", "The weekly digest email has no unsubscribe link")]
    work = dict(files=["/p/mail/digest.py"], failed=False)
    assert closed(en, "The weekly digest email now groups items by project; tests pass.",
                  requests=["group the digest items by project"], **work) == []
    assert closed(en, "The weekly digest email has an unsubscribe link in its footer now; tests pass.",
                  requests=["add an unsubscribe link to the digest"], **work) == en


def test_the_thing_that_lacks_a_part_is_where_the_todo_is():
    assert guards.owner("The billing report has no totals row") == {"bill", "report"}
    assert guards.owner("订单列表还没有筛选") == {"订单", "列表"} and guards.owner("订单列表加载太慢") == set()
    assert guards.owner("并发写入还没有测试") == set()          # 测试 is work, not a part
    # the to-do names the file, but the file is where it is: other work in it names nothing
    todo = [("s1", "worker.go has no handling for a closed channel")]
    work = dict(files=["/p/worker.go"], checked=["/p/worker.go"], failed=False)
    assert closed(todo, "I touched worker.go to log the job id on every line; tests pass.",
                  requests=["log the job id in the worker"], **work) == []
    assert closed(todo, "worker.go now handles a closed channel: the loop exits and drains; tests pass.",
                  requests=["handle the closed channel in the worker"], **work) == todo
    zh = [("s1", "订单列表还没有筛选，找单子很麻烦")]
    work = dict(files=["/p/web/orders.tsx"], failed=False)
    assert closed(zh, "订单列表现在每页显示 50 条，测试通过。", requests=["订单列表每页改成 50 条"], **work) == []
    assert closed(zh, "订单列表加了按状态和日期的筛选，测试通过。", requests=["订单列表加上筛选"], **work) == zh


def test_one_word_left_alone_keeps_its_todo_open():
    assert guards.left_alone(weights("Pagination is missing from the audit view"), ["pagination"])
    assert not guards.left_alone(weights("Pagination is missing from the audit view"), ["sorting"])
    view = [("s1", "Pagination is missing from the audit view")]
    work = dict(files=["/p/audit/view.py"], failed=False)
    assert closed(view, "The audit view shows the actor's email now; pagination is unchanged.",
                  requests=["show the actor's email in the audit view"], **work) == []
    assert closed(view, "The audit view pages by 100 rows now, with next and previous links.",
                  requests=["add pagination to the audit view"], **work) == view


def test_the_variant_a_todo_complains_of_is_replaced_not_a_sibling():
    bucket = [("s1", "The nightly export still writes to the staging bucket")]
    work = dict(files=["/p/jobs/export.py"], failed=False)
    assert closed(bucket, "The nightly export writes to the production bucket now; the job passes.",
                  requests=["point the nightly export at production"], **work) == bucket
    assert closed(bucket, "The weekly export writes to the production bucket now; the job passes.",
                  requests=["point the weekly export at production"], **work) == []     # its sibling job
    zh = [("s1", "金额字段用的是 float，精度会丢")]
    assert closed(zh, "金额字段改成 decimal(12,2) 了，历史数据也迁好了，测试通过。", requests=["金额字段改成 decimal"],
                  files=["/p/db/models.py"], failed=False) == zh
    assert guards.owner("the rates for Chile and Peru are missing since nobody asked") == set()   # they are the gap


def test_a_verb_that_leads_the_todo_is_no_modifier():
    quotes = [("s1", "处理报表里的千分位格式")]
    work = dict(files=["/p/report/format.py"], failed=False)
    assert closed(quotes, "千分位格式已修好，加了测试覆盖负数和小数的报表。", requests=["把千分位格式的问题修掉"],
                  **work) == quotes
    en = [("s1", "handle the retry headers in the webhook client")]
    assert closed(en, "The webhook client now honours the retry headers (Retry-After and X-Retry-In); the unit "
                      "tests for the HTTP client pass.", requests=["handle the retry headers in the webhook client"],
                  files=["/p/hooks/client.py"], failed=False) == en
