"""Every ``[ ]`` line is one open piece of work (issue 20, round 6): a line that names no work (a
lead announcing a list, an absence that spares work) is no to-do; a later line that only says an open
to-do was left as it was, is put off again, or — answering a question about it — still stands as it
was, carries that to-do over instead of adding a second line; and each rule beside its twin that MUST
still be captured (a new open item in the same report, a sibling). Phrasings are the test's own (not
taken from any bench set)."""

from __future__ import annotations

import pytest

from code_memory.summary import carry
from code_memory.summary.todos import capture, carried_over, restated, restates, same_todo

# ---------------------------------------------------------------------------------------------
# not work at all

@pytest.mark.parametrize("line", [
    "还有三件事没做",
    "几个问题还没解决",
    "A couple of things are still open",
    "Two items remain",
    "We use SQLite, so there's no database server to run",
    "The cache lives in process memory, so there is nothing to deploy",
    "Rendering happens at build time — no render service to maintain",
    "缺页率从 3.2% 降到 0.4%",                 # a measured change: a result, whatever word it holds
    "缺货提醒的点击率从 1.2% 涨到 3.5%",
])
def test_a_line_that_names_no_work_is_not_work(line):
    assert carry.not_work(line)


@pytest.mark.parametrize("line", [
    "there's no test to cover the retry path",         # the verb has an object: a missing test
    "There's no script to rotate the keys yet",
    "还有三件事没做完的导出任务要重跑",
    "the queue has no dead-letter topic",
    "导出还没有表头",
    "The admin page still has no pagination",
    "the upload bar in the iOS app still jumps from 0 to 100",       # a behaviour, not a measured change
    "进度条还是从 0 直接跳到 100",
])
def test_missing_work_is_still_work(line):
    assert not carry.not_work(line)


def test_a_lead_is_no_todo_but_its_items_are():
    message = ("迁移脚本写好了，测试都过了。还有三件事没做：\n- 回滚脚本还没写；\n- 索引还没建；\n"
               "- 以后把旧表删掉。")
    assert capture(message, worked=True) == ["回滚脚本还没写", "索引还没建", "以后把旧表删掉"]
    english = ("The importer works. A couple of things are still open:\n- the CSV header row isn't skipped yet\n"
               "- there's no progress output")
    assert capture(english, worked=True) == ["the CSV header row isn't skipped yet", "there's no progress output"]


def test_an_absence_that_spares_work_is_no_todo_beside_a_real_gap():
    message = ("Feeds are rendered as static files at build time, so there's no feed server to operate. "
               "The Atom feed has no author field yet.")
    assert capture(message, worked=True) == ["The Atom feed has no author field yet"]


# ---------------------------------------------------------------------------------------------
# left as it was, put off again

@pytest.mark.parametrize("later, earlier, others", [
    # only "left as it was": half of its opening words are the to-do's own
    ("发票模板的抬头这次没碰，还是原来那样", "发票模板里公司抬头是写死的，换主体时得手工改", ["导出 PDF 偶尔会缺字体"]),
    ("签名的密钥这次没动", "回调签名用的是测试环境的密钥，上线前要换成正式的", []),
    ("The rate limiter part is unchanged this time", "the rate limiter ignores the burst setting", ["no metrics for 429s"]),
    # a topic mark before "left as it was"
    ("重试那段逻辑原封不动", "发送失败的重试还是同步的，会卡住请求", ["模板预览没有缓存"]),
    # put off again, two of its words, one of other wording
    ("历史数据的迁移脚本下次再写", "历史数据的回填脚本还没写，新表现在是空的", ["监控大盘还没配"]),
    # a put-off request that names it after 把
    ("有空把回调的密钥挪到配置中心吧", "回调的密钥写死在代码里", ["日志没有脱敏"]),
    # its words in the other language (CC-CEDICT: 安装 ← install)
    ("The Linux installer is still untested", "只在 Windows 上试过，Linux 的安装包还没验证", ["更新日志还没写"]),
])
def test_a_later_line_that_only_says_how_an_open_todo_stands_carries_it_over(later, earlier, others):
    assert restates(later, earlier, others)
    open_todos = [("s1", earlier)] + [("s1", o) for o in others]
    assert carried_over([later], open_todos) == [earlier]


@pytest.mark.parametrize("later, earlier, others", [
    # a sibling: more words of its own than the to-do's
    ("历史数据的校验脚本和对账报表下次再写", "历史数据的回填脚本还没写，新表现在是空的", ["监控大盘还没配"]),
    # new work that names one word of it and says it is put off
    ("发票的邮件通知下次再做", "发票模板里公司抬头是写死的，换主体时得手工改", ["导出 PDF 偶尔会缺字体"]),
    # left as it was, but about something the to-do does not name
    ("The billing webhook is unchanged", "the rate limiter ignores the burst setting", ["no metrics for 429s"]),
    ("支付回调这次没动", "回调签名用的是测试环境的密钥，上线前要换成正式的", ["退款接口还没接"]),
    ("The Linux tray icon is still untested", "只在 Windows 上试过，Linux 的安装包还没验证", ["更新日志还没写"]),
    # more than a status: what is left of it (half_done keeps it with the to-do, in its words)
    ("暗色主题的截图测试没过，对比度还差一点，得再调", "暗色主题下表格的边框看不清", ["导出没有分页"]),
    # one word in the other language alone: a new limit of the same thing, not its status
    ("Search only indexes the default locale for now", "搜索还没接，现在只能翻目录", ["图片没有压缩"]),
])
def test_a_sibling_or_other_work_in_the_same_words_is_not_carried_over(later, earlier, others):
    assert not restates(later, earlier, others)


def test_a_line_that_says_left_as_it_was_and_names_something_missing_is_new_work():
    assert not carry.left_as_it_was("重试逻辑没动，但是还没有超时设置")
    assert carry.left_as_it_was("the export code is untouched")
    assert not carry.left_as_it_was("the export code still has no header row")


# ---------------------------------------------------------------------------------------------
# a "not yet" answer

@pytest.mark.parametrize("question, answer, line", [
    ("缓存预热做了吗", "还没做，启动时还是冷启动，第一批请求都打到数据库。", "启动时还是冷启动，第一批请求都打到数据库"),
    ("did the load test happen?", "No — I want a staging copy of the database first, so it hasn't been run.", None),
    ("Is the staging mirror up?", "Not yet — the mirror script still points at the old bucket.", None),
    ("缓存预热做了吗", "还没呢，现在只有首页接口会预热。", None),
    ("can we drop the old queue", "Not yet — the billing worker still reads from it.", None),   # asked without "?"
])
def test_a_not_yet_answer_that_says_the_asked_todo_still_stands_is_that_todo(question, answer, line):
    open_todos = {"缓存预热做了吗": [("s1", "缓存预热还没做，重启后前几分钟很慢"), ("s1", "慢查询日志没开")],
                  "did the load test happen?": [("s1", "we never ran a load test against the new checkout"),
                                                ("s1", "the admin export is slow")],
                  "Is the staging mirror up?": [("s1", "the staging mirror of the S3 bucket isn't set up"),
                                                ("s1", "no alert when the sync fails")],
                  "can we drop the old queue": [("s1", "the old queue is still running beside the new one"),
                                                ("s1", "no alert when the sync fails")]}[question]
    todos = capture(answer, [question], worked=False)
    assert todos
    assert restated(todos, [question], open_todos, same_todo, answer) == [open_todos[0][1]]


@pytest.mark.parametrize("question, answer", [
    ("缓存预热做了吗", "还没做，不过我发现慢查询日志的路径配错了，写不进去。"),      # turns to other work
    ("Is the staging mirror up?", "Not yet — the sync job isn't scheduled either."),   # names other missing work
])
def test_a_not_yet_answer_that_turns_to_other_work_keeps_it_new(question, answer):
    open_todos = {"缓存预热做了吗": [("s1", "缓存预热还没做，重启后前几分钟很慢")],
                  "Is the staging mirror up?": [("s1", "the staging mirror of the S3 bucket isn't set up")]}[question]
    todos = capture(answer, [question], worked=False)
    assert todos and restated(todos, [question], open_todos, same_todo, answer) != [open_todos[0][1]]


def test_a_topic_before_its_pronoun_is_no_pointer_back():
    message = "登录页的验证码接上了，测试通过。导出的问题接下来把它补上。"
    assert capture(message, worked=True) == ["导出的问题接下来把它补上"]


# ---------------------------------------------------------------------------------------------
# partial progress on the asked to-do: one line, what is left of it

def test_partial_progress_on_the_asked_todo_is_that_todo_with_what_is_left():
    from code_memory.summary.todos import half_done
    open_todos = [("s1", "发送失败没有重试，消息直接丢了"), ("s1", "模板预览没有缓存")]
    failing = "重试写了，但 test_backoff 挂了：第二次重试没等够时间，还得再看。"
    todos = capture(failing, ["给发送加上失败重试"], worked=True, open_todos=open_todos)
    out = half_done(todos, failing, ["给发送加上失败重试"], open_todos, failed=True)
    assert len(out) == 1 and out[0].startswith("发送失败没有重试，消息直接丢了")
    # half done, said without its words, in a session asked for it alone
    open_todos = [("s1", "旧的 v1 接口没有兼容层，老客户端会报错"), ("s1", "接口文档还是手写的")]
    halfway = "v1 的读接口都转发好了。写接口那批参数改过名，还没对上，先做了一半。"
    todos = capture(halfway, ["把 v1 的兼容层加一下"], worked=True, open_todos=open_todos)
    assert half_done(todos, halfway, ["把 v1 的兼容层加一下"], open_todos)[0].startswith("旧的 v1 接口没有兼容层")
    # what is left, said right after the part that was done
    open_todos = [("s1", "There's no migration guide for 3.0"), ("s1", "the changelog is out of date")]
    report = "I wrote the first half of the migration guide, the schema part; the backfill section is still to do."
    todos = capture(report, ["Write the migration guide"], worked=True, open_todos=open_todos)
    assert half_done(todos, report, ["Write the migration guide"], open_todos) == \
        ["There's no migration guide for 3.0 — the backfill section is still to do"]


def test_partial_progress_on_other_open_work_stays_its_own_line():
    from code_memory.summary.todos import half_done
    open_todos = [("s1", "旧的 v1 接口没有兼容层，老客户端会报错"), ("s1", "接口文档还是手写的")]
    other = "接口文档的生成脚本写了一半，还没接进 CI。"
    todos = capture(other, ["把 v1 的兼容层加一下"], worked=True, open_todos=open_todos)
    assert not any(t.startswith("旧的 v1 接口没有兼容层") for t in
                   half_done(todos, other, ["把 v1 的兼容层加一下"], open_todos))


def test_work_begun_on_an_open_todo_not_asked_for_is_that_todo_with_what_is_left():
    from code_memory.summary.todos import half_done
    open_todos = [("s1", "the exporter only writes CSV — Parquet output isn't handled yet"),
                  ("s1", "there's no retry when the upload to S3 fails")]
    report = ("The summary table now has a totals row; 9 tests pass. I've also started on Parquet: the writer "
              "is stubbed in, but the nested columns are not mapped yet.")
    asked = ["Add a totals row to the summary table"]
    todos = capture(report, asked, worked=True, open_todos=open_todos)
    out = half_done(todos, report, asked, open_todos)
    assert len(out) == 1 and out[0].startswith("the exporter only writes CSV — Parquet output isn't handled yet")
    # begun work that names no open to-do is new work
    other = "The summary table now has a totals row. I've also started on a dark theme: the chart colours are not mapped yet."
    todos = capture(other, asked, worked=True, open_todos=open_todos)
    assert todos and half_done(todos, other, asked, open_todos) == todos


def test_work_begun_on_a_todo_the_person_deferred_in_the_topic_request_is_that_todo():
    from code_memory.summary.todos import half_done
    # every word of the deferred to-do is a place word (it came from the request that set the topic)
    open_todos = [("r1", "没有限流，压测时网关会被打挂"), ("r2", "下次记得把导出失败重试做了")]
    places = [("r1", "给报表服务加一个导出接口 api/export.py"), ("r2", "下次记得把导出失败重试做了。今天先把分页加上")]
    report = "开始做重试了：第一次失败会等 2 秒再试，但还没有记录重试次数，连续失败会一直重试。"
    todos = capture(report, ["继续"], worked=True, open_todos=open_todos)
    out = half_done(todos, report, ["继续"], open_todos, places, True)
    assert len(out) == 1 and out[0].startswith("下次记得把导出失败重试做了")


@pytest.mark.parametrize("message, todos", [
    # "do it too", its object left out: one piece of work
    ("报表服务还是单机部署的，回头也改一下。", ["报表服务还是单机部署的，回头也改一下"]),
    ("旧的 cron 任务还在跑 crontab，以后可以考虑也迁过来。", ["旧的 cron 任务还在跑 crontab，以后可以考虑也迁过来"]),
    # twins: a second subject before 也 is a second piece of work
    ("登录页还没适配暗色，注册页也没有。", ["登录页还没适配暗色", "注册页也没有"]),
    ("限流还没加，压测也得做一下。", ["限流还没加", "压测也得做一下"]),
])
def test_an_item_that_only_says_do_it_too_is_the_item_before_it(message, todos):
    assert capture(message, worked=True) == todos


def test_asked_how_to_do_an_open_todo_the_answer_is_how_to_do_it():
    open_todos = [("s1", "导出超过 10 万行会超时"), ("s1", "上传没有断点续传")]
    question = ["导出超时那个怎么搞？"]
    answer = "要改成异步任务，先返回任务 id、后台分批写文件，这个下次再弄。"
    todos = capture(answer, question, worked=False)
    assert todos and restated(todos, question, open_todos, same_todo, answer) == ["导出超过 10 万行会超时"]
    # asked whether, not how: a new missing thing in the answer stays new
    whether = ["导出超时那个弄了吗？"]
    other = "还没，不过我发现上传接口没有鉴权。"
    todos = capture(other, whether, worked=False)
    assert todos and restated(todos, whether, open_todos, same_todo, other) != ["导出超过 10 万行会超时"]
