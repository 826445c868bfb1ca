"""Closing a to-do the session took up without naming it (issue 20, fifth round): work the person
accepted as the assistant offered or proposed it ("要我现在加上吗？" — "加吧"), and the unfinished work a
"continue" takes up (the session before was asked for it, changed a file and left it failing; this one
changes that file and its check passes) — each beside the trap that must keep the to-do open. Every
phrasing here is this file's own (none is in a bench set)."""

from __future__ import annotations

import pytest

from code_memory.summary import extract
from code_memory.summary import progress as pg
from test_handover_reading import digest

IMPORTS = [("s1", "导入的时候没有校验手机号格式，脏数据直接进库"), ("s1", "导出还不支持按部门筛选")]
WEBHOOKS = [("s1", "Webhook deliveries that time out are never retried"), ("s1", "The dashboard has no dark mode")]


def closed(open_todos, *texts, previous=None, previous_final="", places=(), **session):
    """The earlier to-dos a session closes, read as the summarizer reads it."""
    return extract.read(digest(*texts, **session), open_todos, previous=previous, previous_final=previous_final,
                        places=places)["done"]


@pytest.mark.parametrize("answer, accepted", [
    ("可以，写吧", True), ("加吧", True), ("行，就这么办", True), ("yes, do it", True), ("Sure — go ahead.", True),
    ("ok", True), ("好，那就做吧", True),
    ("先不用，下周再说", False), ("later", False), ("not now", False), ("可以，不过先别上线", False),
    ("yes but only for the admin page", False), ("do it tomorrow", False), ("回头再说吧", False),
    ("go ahead and also rename the table", False),        # a request of its own, not a plain go-ahead
])
def test_a_go_ahead_is_plain(answer, accepted):
    assert pg.go_ahead(answer) is accepted


def test_an_offer_is_accepted_only_by_a_go_ahead():
    offer = "我打算用 libphonenumber 按地区校验，不合法的行单独导出一份报告。要我现在就加上吗？"
    assert pg.accepted_offer(offer, "行，加吧") == ["我打算用 libphonenumber 按地区校验，不合法的行单独导出一份报告。",
                                                 "要我现在就加上吗？"]
    assert pg.accepted_offer(offer, "先不用") == []
    assert pg.accepted_offer("校验加好了，测试都过了。", "好") == []               # nothing offered
    assert pg.accepted_offer("Retries could become a worker with backoff. I haven't changed anything yet.",
                             "yes, do it") == ["Retries could become a worker with backoff."]


def test_the_last_sessions_offer_accepted_in_chinese():
    asked = dict(previous="s2", places=[("s2", "手机号校验你准备怎么做？")],
                 previous_final="我打算用 libphonenumber 按地区校验，不合法的行单独导出一份报告。要我现在就加上吗？")
    report = "加好了：不合法的行写进 rejects.csv，测试通过。"
    work = dict(files=["/p/importer/rows.py"], failed=False)
    assert closed(IMPORTS, report, requests=["行，加吧"], **asked, **work) == IMPORTS[:1]
    assert closed(IMPORTS, report, requests=["先不用，下周再说"], **asked, **work) == []       # declined
    assert closed(IMPORTS, report, requests=["行，加吧"], **asked, files=["/p/importer/rows.py"], failed=True) == []
    assert closed(IMPORTS, report, requests=["行，加吧"], **work) == []        # no offer before it: "加吧" names nothing


def test_the_last_sessions_proposal_accepted_in_english():
    asked = dict(previous="s2", places=[("s2", "what would retrying the webhooks take?")],
                 previous_final="Timed-out webhook deliveries could go into a table that a worker resends with "
                                "backoff. Shall I build it?")
    report = "Done: the worker resends them with exponential backoff; 14 tests pass."
    work = dict(files=["/p/hooks/resend.go"], failed=False)
    assert closed(WEBHOOKS, report, requests=["yes, go ahead"], **asked, **work) == WEBHOOKS[:1]
    assert closed(WEBHOOKS, report, requests=["not now, later"], **asked, **work) == []
    assert closed(WEBHOOKS, "Started on the worker; the backoff test still fails.", requests=["yes, go ahead"],
                  **asked, files=["/p/hooks/resend.go"], failed=True) == []


def test_an_offer_accepted_within_the_session_mixed():
    orders = [("s1", "订单列表还没有 pagination，一次拉全部"), ("s1", "CSV export 的文件名没带日期")]
    offer = ("The 订单列表 query could take a cursor so each page fetches 50 rows. 要我顺手加上 pagination 吗？", "好，做吧")
    work = dict(files=["/p/api/orders.py"], failed=False, requests=["订单接口太慢了看一下", "好，做吧"])
    assert closed(orders, "加了 cursor，一页 50 条，测试通过。", exchanges=[offer], **work) == orders[:1]
    assert closed(orders, "加了 cursor，一页 50 条，测试通过。", exchanges=[(offer[0], "先不用")], **work) == []


RESUMED = dict(previous="s2", places=[("s2", "进度条卡住那个查一下"), ("s2", "web/upload.ts")],
               previous_final="改成了分片上传，但最后一片的回调还是没触发，测试还挂着一个。")
UPLOADS = [("s1", "上传大文件的时候进度条会卡在 99%"), ("s1", "下载链接没有过期时间")]


def test_a_continue_takes_up_the_work_left_failing():
    report = "最后一片的回调补上了，测试都过了。"
    same_file = dict(files=["/p/web/upload.ts"], checked=["/p/web/upload.ts"])
    assert closed(UPLOADS, report, requests=["继续"], failed=False, **same_file, **RESUMED) == UPLOADS[:1]
    # its check fails again: nothing is finished
    assert closed(UPLOADS, "回调还是没触发。", requests=["继续"], failed=True, **same_file, **RESUMED) == []
    # another file changed (the same session's other work): not shown to be the work taken up
    assert closed(UPLOADS, report, requests=["继续"], failed=False, files=["/p/web/download.ts"],
                  checked=["/p/web/download.ts"], **RESUMED) == []
    # the session before finished its work: there is nothing unfinished to take up
    done_before = {**RESUMED, "previous_final": "分片上传改好了，测试通过。"}
    assert closed(UPLOADS, report, requests=["继续"], failed=False, **same_file, **done_before) == []
    # not a continue: the person asks for other work on the same file
    assert closed(UPLOADS, "加了上传速度的显示。", requests=["上传页显示一下速度"], failed=False, **same_file,
                  **RESUMED) == []


def test_continue_with_the_work_in_english_closes_the_earlier_todo_and_the_leftover():
    todos = [("s1", "The nightly report still takes 40 minutes because every row is fetched on its own"),
             ("s1", "Nobody gets an email when the report fails"),
             ("s2", "I started batching the report queries but the totals test fails")]
    before = dict(previous="s2", places=[("s2", "batch the report queries"), ("s2", "reports/nightly.py")],
                  previous_final="I started batching the report queries but the totals test fails.")
    report = "Totals match again; the run takes 6 minutes."
    work = dict(files=["/work/app/reports/nightly.py"], checked=["/work/app/reports/nightly.py"])
    assert sorted(closed(todos, report, requests=["continue with the batching"], failed=False, **work, **before)) == \
        [todos[0], todos[2]]
    assert closed(todos, report, requests=["continue with the batching"], failed=True, **work, **before) == []


def test_a_continue_after_a_light_session_goes_back_to_the_work_left_open():
    todos = [("s1", "订单导出在手机上排版是乱的，还没做适配"), ("s2", "平板上表格还是会溢出"), ("s3", "回头加个导出 PDF")]
    places = [("s3", "回头加个导出 PDF 吧。今天先到这"), ("s2", "手机上订单导出那页看一下"), ("s2", "web/export/Orders.vue"),
              ("s1", "订单导出做一下"), ("s1", "web/export/Orders.vue")]
    light = dict(previous="s3", previous_final="好的，PDF 导出记下了。", places=places)
    report = "平板也改好了：两列排布，不再溢出，测试通过。"
    work = dict(requests=["继续"], failed=False, files=["/p/web/export/Orders.vue"], checked=["/p/web/export/Orders.vue"])
    assert sorted(closed(todos, report, **light, **work)) == todos[:2]     # the PDF put off in between stays open
    assert closed(todos, report, **light, requests=["继续"], failed=True, files=work["files"]) == []
    assert todos[0] not in closed(todos, report, **light, requests=["继续"], failed=False, files=["/p/web/Invoice.vue"],
                                  checked=["/p/web/Invoice.vue"])          # another file: not the work left open
    # the session in between asked about other work: "continue" is not shown to go back past it
    asked = dict(light, places=[("s3", "PDF 导出做了吗？")] + places[1:])
    assert todos[0] not in closed(todos, report, **asked, **work)
    # the working session left nothing of its own open: its work was done, nothing to take up
    assert closed([todos[0], todos[2]], report, **light, **work) == []


def test_a_request_to_finish_takes_up_what_was_left_half_done():
    todos = [("s1", "下次记得把大表导出改成分批"), ("s1", "导出的文件名还没带日期")]
    before = dict(previous="s2", places=[("s2", "继续"), ("s2", "export/big_table.py")],
                  previous_final="开始做分批导出了：每批一万行，但最后一批的合计还对不上，测试挂着一个。")
    report = "换成游标翻页了，合计对上了，测试全过。"
    work = dict(files=["/srv/app/export/big_table.py"], checked=["/srv/app/export/big_table.py"])
    assert closed(todos, report, requests=["把游标翻页的方案做完"], failed=False, **work, **before) == todos[:1]
    assert closed(todos, report, requests=["把游标翻页的方案做完"], failed=True, **work, **before) == []
    assert closed(todos, report, requests=["游标翻页做完了吗？"], failed=False, **work, **before) == []   # a question
    assert closed(todos, report, requests=["下周再把它做完，先加个日期"], failed=False, **work, **before) == []
    english = [("s1", "Remind me to make the sync resumable"), ("s1", "The sync log has no timestamps")]
    left = dict(previous="s2", places=[("s2", "continue"), ("s2", "sync/worker.go")],
                previous_final="I started on resumable sync: offsets are saved, but the restart test fails.")
    done = dict(files=["/r/sync/worker.go"], checked=["/r/sync/worker.go"])
    assert closed(english, "Restarts pick up from the saved offset; all tests pass.", requests=["Finish the offsets work"],
                  failed=False, **done, **left) == english[:1]
    # another file changed and a report that does not name the work: nothing is shown to be taken up
    # (a report that says the work in other words — "restarts pick up from the saved offset" — closes it
    # by what it says, whichever file changed: tests/test_todos_lexicon.py)
    assert closed(english, "Log lines are tidier now; all tests pass.", requests=["Finish the offsets work"],
                  failed=False, files=["/r/sync/log.go"], checked=["/r/sync/log.go"], **left) == []


def test_a_continue_after_asking_about_a_todo_takes_it_up():
    todos = [("s1", "回头有空把批量删除也加上"), ("s1", "列表页还没有空状态的提示")]
    places = [("s2", "批量删除做了吗？"), ("s1", "相册列表页做一下"), ("s1", "app/pages/Album.tsx")]
    asked = dict(previous="s2", previous_final="还没，目前只能一张一张删。", places=places)
    report = "长按进入多选，选中后一键删掉，12 个用例都过了。"
    work = dict(requests=["继续"], files=["/w/app/pages/Album.tsx"], checked=["/w/app/pages/Album.tsx"])
    assert closed(todos, report, failed=False, **asked, **work) == todos[:1]
    assert closed(todos, report, failed=True, **asked, **work) == []
    # no file of the to-do's session changed and the report names other work: the continue is not shown
    # to be that work (the report above, which says the work in other words, closes it on its own)
    assert closed(todos, "设置页的开关顺序调好了，12 个用例都过了。", failed=False, requests=["继续"],
                  files=["/w/app/pages/Settings.tsx"],
                  checked=["/w/app/pages/Settings.tsx"], **asked) == []
    # asked about it, then other work asked for by name: not a continue
    assert closed(todos, "设置页加了深色模式，用例都过了。", failed=False, requests=["设置页加个深色模式"],
                  files=work["files"], checked=work["checked"], **asked) == []
    english = [("s1", "Eventually add CSV import"), ("s1", "The contacts page has no search")]
    question = dict(previous="s2", previous_final="Not yet — contacts can only be added one by one.",
                    places=[("s2", "did the CSV import happen?"), ("s1", "contacts page"), ("s1", "web/people.py")])
    assert closed(english, "Upload a file and the rows appear after a preview; 9 tests pass.", requests=["continue"],
                  failed=False, files=["/r/web/people.py"], checked=["/r/web/people.py"], **question) == english[:1]


def test_work_taken_up_but_part_of_the_todo_left_open_stays_open():
    todos = [("s1", "Still missing: exports never expire, and downloads aren't throttled per user")]
    before = dict(previous="s2", places=[("s2", "continue"), ("s2", "api/exports.py")],
                  previous_final="Started on expiring exports: each gets an expires_at, but the cleanup job test fails.")
    work = dict(requests=["continue"], failed=False, files=["/a/api/exports.py"], checked=["/a/api/exports.py"])
    assert closed(todos, "Expired exports are deleted nightly; all tests pass.", **before, **work) == todos
    assert closed(todos, "Expired exports are deleted nightly; all tests pass. Per-user throttling of downloads is "
                         "still the gap.", **before, **work) == []
