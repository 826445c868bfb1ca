"""The checks that REJECT a close (summary/guards.py, issue 20, fifth round): a subject said to be
left as it was, a file of the to-do edited for other work, a scope limit restated, a sibling named
by the same head word with another modifier, other work on the same thing. Each trap sits beside
the true finish that must STILL close. Every phrasing here is this file's own (none is in a bench
set)."""

from __future__ import annotations

from code_memory.summary import guards
from code_memory.summary import progress as pg
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


# ---------------------------------------------------------------------------------------------
# sixth round: partial reports and "continue" sessions (each trap beside the true finish)

from test_todos_taken_up import closed as closed_after  # noqa: E402


def test_a_report_of_part_done_and_part_open_does_not_close_the_whole():
    locales = [("s1", "The Spanish and French locales aren't translated yet"),
               ("s1", "Dates in the footer ignore the user's timezone")]
    work = dict(requests=["do the translations"], files=["/p/locales/es.json"], failed=False)
    assert closed(locales, "Translated the Spanish locale — 412 strings. The French strings aren't done yet.",
                  **work) == []
    assert closed(locales, "Both the Spanish and the French locales are translated now; the lint passes.",
                  **work) == locales[:1]
    admin = [("s1", "None of the four admin endpoints check permissions")]
    work = dict(requests=["add the permission checks"], files=["/p/admin/views.py"], failed=False)
    assert closed(admin, "2 of the 4 admin endpoints check permissions now: users and roles. Billing and audit "
                         "endpoints still don't.", **work) == []
    assert closed(admin, "Billing and audit check permissions too, so all four admin endpoints do now; tests pass.",
                  **work) == admin
    # the open part names other work, or only what was done: the to-do is finished
    search = [("s1", "Search results aren't paginated yet")]
    assert closed(search, "Search results are paginated with a cursor now; tests pass. Search ranking is next.",
                  requests=["paginate the search"], files=["/p/api/search.py"], failed=False) == search


def test_a_report_of_part_done_in_chinese_and_mixed():
    reports = [("s1", "三个报表接口都还没加缓存"), ("s1", "导出的文件名还没带日期")]
    work = dict(requests=["报表接口加缓存"], files=["/p/api/reports.py"], failed=False)
    assert closed(reports, "报表接口的缓存加了一半：日报接口已经走缓存了，周报和月报接口还没加。", **work) == []
    assert closed(reports, "日报已经走缓存了。周报和月报接口的缓存还没加，下次弄。", **work) == []
    assert closed(reports, "周报和月报也加上缓存了，三个报表接口现在都走缓存，测试通过。", **work) == reports[:1]
    # the part done is of a sibling that shares only the head word: not this to-do's part
    todo = "压测脚本还没写，现在只能手工点"
    half = guards.partial_reports(pg.read("部署脚本写了一半，密钥还没配。"))
    assert half and not guards.partly_done(weights(todo), half, todo)
    assert guards.partly_done(weights("压测和部署脚本还没写"), half, "压测和部署脚本还没写")
    docs = [("s1", "README 和 CHANGELOG 都还没更新到 v3")]
    work = dict(requests=["更新一下 README 和 CHANGELOG"], files=["/p/README.md"], failed=False)
    assert closed(docs, "README is updated to v3, 但 CHANGELOG 还没写。", **work) == []
    assert closed(docs, "CHANGELOG 也写好了，README and CHANGELOG both describe v3 now.", **work) == docs


def test_partial_reports_pairs_the_done_part_with_the_open_one():
    read = pg.read("Moved the invoices table. The payments table isn't migrated yet; the rollback works.")
    assert guards.partial_reports(read) == [("Moved the invoices table.", "The payments table isn't migrated yet;")]
    assert guards.partial_reports(pg.read("Moved both tables and the rollback works.")) == []
    assert guards.partial_reports(pg.read("发票表迁好了，付款表还没迁。"))


def test_the_person_asking_for_the_next_work_is_no_word_of_theirs_that_it_is_done():
    assert guards.asks_next("Now the French strings") and guards.asks_next("OK, now the settings page")
    assert guards.asks_next("现在弄一下付款表")
    assert not guards.asks_next("现在好了") and not guards.asks_next("now it's merged")
    assert not guards.asks_next("The export streams rows now")
    locales = [("s1", "The French and German locales aren't translated yet")]
    work = dict(files=["/p/locales/fr.json"], failed=False)
    assert closed(locales, "Added the French strings for the settings page. The rest of the French locale and all "
                           "of German aren't done yet.", requests=["Now the French strings"], **work) == []
    assert closed(locales, "French and German are fully translated; the lint passes.",
                  requests=["Now the French and German strings"], **work) == locales


def test_other_work_on_the_todos_file_after_continue_is_no_evidence():
    parser = [("s1", "parser.py 里的超时还是写死的 30 秒"), ("s1", "Malformed rows are dropped without a warning")]
    work = dict(requests=["继续"], files=["/p/etl/parser.py"], checked=["/p/etl/parser.py"], failed=False)
    assert closed(parser, "给 parser.py 加了日志，出错时能看到是哪一行，测试通过。", **work) == []
    assert closed(parser, "超时改成从配置读了，默认还是 30 秒，测试通过。", **work) == parser[:1]
    assert closed(parser, "好了，测试通过。", **work) == parser[:1]        # says nothing else: the file is the evidence
    # what it leaves open and how its checks came out are no other work
    assert closed(parser, "改完了，31 个用例都过了。坏行告警还没开始。", **work) == parser[:1]
    settings = [("s1", "settings.py still hard-codes the retry count")]
    work = dict(requests=["continue"], files=["/p/app/settings.py"], checked=["/p/app/settings.py"], failed=False)
    assert closed(settings, "Added type hints to settings.py; tests pass.", **work) == []
    assert closed(settings, "The retry count comes from an environment variable now; tests pass.", **work) == settings
    assert guards.other_work(weights("settings.py still hard-codes the retry count"),
                             ["Added type hints to settings.py; tests pass."])


def test_a_path_word_is_never_the_subject_after_two_continues():
    sync = [("s2", "The sync log has no timestamps")]
    before = dict(previous="s2", previous_final="Carried on with the worker; the sync log still has no timestamps.",
                  places=[("s2", "continue"), ("s2", "sync/worker.go")])
    work = dict(requests=["continue"], files=["/r/sync/worker.go"], checked=["/r/sync/worker.go"], failed=False)
    assert closed_after(sync, "Batched the upserts in the worker; all tests pass.", **before, **work) == []
    assert closed_after(sync, "Every sync log line starts with an ISO timestamp now; all tests pass.", **before,
                        **work) == sync
    imports = [("s2", "导入任务还没有进度显示")]
    before = dict(previous="s2", previous_final="继续弄了导入，导入任务还没有进度显示。",
                  places=[("s2", "继续"), ("s2", "import/loader.py")])
    work = dict(requests=["继续"], files=["/r/import/loader.py"], checked=["/r/import/loader.py"], failed=False)
    assert closed_after(imports, "把批量大小调成 500 了，测试通过。", **before, **work) == []
    assert closed_after(imports, "导入时会显示已处理的行数和百分比的进度，测试通过。", **before, **work) == imports


def test_a_todo_carried_over_then_other_work_on_its_file():
    limits = [("s2", "config.yaml 里的限流阈值还没定，下次一起调")]
    before = dict(previous="s2", previous_final="阈值我看了一下，还没定，下次一起调。",
                  places=[("s2", "限流阈值看一下")])
    work = dict(requests=["继续"], files=["/p/config.yaml"], checked=["/p/config.yaml"], failed=False)
    assert closed_after(limits, "给 config.yaml 加了注释，说明每个字段的单位，测试通过。", **before, **work) == []
    assert closed_after(limits, "限流阈值按压测结果定成每秒 200 了，测试通过。", **before, **work) == limits
