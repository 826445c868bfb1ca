"""To-do capture by sentence structure (issue 20, fourth round): open work said as an absence, a
negated behaviour, a scope that stops short, an outcome that is trouble, an inability, a hedged wish,
items under a lead that is open itself, and the person's "remind me to" — and, for each, look-alikes
whose structure is the same but whose news is good or which tell rather than leave work open.
Phrasings are the test's own (not taken from any bench set)."""

import pytest

from code_memory.summary.todos import capture, from_message


@pytest.mark.parametrize("message, key", [
    # absence, existential or possessive
    ("The upload endpoint has no size limit.", "size limit"),
    ("There's no audit trail for role changes.", "audit trail"),
    ("There is no way to pause a running import.", "pause a running import"),
    ("订单列表没有排序功能。", "排序功能"),
    ("退款流程的回调也没有。", "退款流程的回调"),
    ("目前没法按部门导出。", "按部门导出"),
    # a behaviour negated
    ("The search index doesn't pick up edited titles.", "edited titles"),
    ("I didn't hook up the password reset email.", "password reset email"),
    ("主备节点之间的会话不共享，切换后要重新登录。", "会话不共享"),
    ("The search box doesn't index the changelog pages.", "changelog pages"),
    # a scope that stops short
    ("The exporter only handles UTF-8 input right now.", "only handles UTF-8"),
    ("报表只能在桌面端打开。", "只能在桌面端打开"),
    # an outcome that is itself trouble
    ("Long descriptions are truncated in the email preview.", "truncated"),
    ("Comments with emoji are silently ignored by the parser.", "silently ignored"),
    ("断网重连后消息会重复推送。", "会重复推送"),
    # mixed
    ("The retry job 没有 backoff，失败后立刻重试。", "backoff"),
    ("The importer has no retry, so a blip loses the batch.", "no retry"),
])
def test_open_work_said_through_structure_is_a_todo(message, key):
    todos = from_message(message)
    assert any(key in todo for todo in todos), todos


@pytest.mark.parametrize("message", [
    # the absent, negated or stopped thing is itself trouble: good news
    "The nightly run finished with no errors.",
    "There are no conflicts with the staging branch.",
    "迁移跑完了，没有报错，也没有丢数据。",
    "The worker doesn't block the request thread.",
    "新的锁不会阻塞读请求。",
    "The migration doesn't lock the table.",
    "The API doesn't return the password hash.",
    "We don't keep raw card numbers.",
    "草稿不发通知，发布后才发。",
    "新版本不依赖 Java 了。",
    "It never drops or duplicates a message.",
    # inside a condition: how the code works
    "Requests with no token get a 401.",
    "没有登录态时跳转到登录页。",
    # an attributive 没有…的: names, reports nothing
    "没有头像的用户显示默认图标。",
    # intended or agreed
    "The exporter only handles UTF-8, which is what the spec requires on purpose.",
    "只支持微信登录，这是约定好的。",
    # a cause told, with nothing left open in it
    "卡顿是因为列表没有做虚拟滚动，已经加上了。",
    # a good consequence
    "这个模块没有外部依赖，所以很稳定。",
    # a span of time, not work put off
    "I restarted the worker and the queue drained two minutes later.",
])
def test_the_same_structure_with_good_news_or_told_is_no_todo(message):
    assert from_message(message) == []


def test_items_under_a_lead_that_is_open_itself():
    todos = from_message("Renamed the settings module and moved the loaders.\nStill open:\n"
                         "- the CLI ignores --quiet\n- the sample config is out of date")
    assert any("--quiet" in t for t in todos) and any("sample config" in t for t in todos), todos
    assert not any(t.strip(" :") in ("Still open", "Still open:") for t in todos), todos
    todos = from_message("翻译接好了。还没弄的：日期格式本地化；复数形式。")
    assert any("日期格式本地化" in t for t in todos) and any("复数形式" in t for t in todos), todos
    todos = from_message("导入做好了。没做的：\n- 大文件分片上传\n- 进度条")
    assert any("分片上传" in t for t in todos) and any("进度条" in t for t in todos), todos
    todos = from_message("Login works. A few things I left out: SSO; the audit log.")
    assert any("SSO" in t for t in todos) and any("audit log" in t for t in todos), todos
    assert from_message("没有问题的：登录；注册。") == []        # nothing left: the items are fine
    # a lead that names its work is a to-do, not a lead ("Retries aren't done yet: …")
    todos = from_message("Webhooks are sent. Signing isn't done yet: payloads go out unsigned.")
    assert any("Signing" in t for t in todos), todos


def test_items_under_a_caveats_lead_drop_what_is_intended():
    todos = from_message("Sharing works. Two caveats: links never expire — and revoked users keep "
                         "their cached copy; the 20-link cap per user is on purpose.")
    assert any("never expire" in t for t in todos) and any("cached copy" in t for t in todos), todos
    assert not any("20-link cap" in t for t in todos), todos


def test_the_person_asks_to_be_reminded_and_hedged_wishes():
    todos = capture("Done: the banner text is updated.",
                    ["Later, remind me to rotate the staging keys. For now update the banner text"])
    assert any("rotate the staging keys" in t for t in todos), todos
    todos = capture("横幅文案改好了。", ["之后提醒我把测试账号清掉。先把横幅文案改一下"])
    assert any("测试账号清掉" in t for t in todos), todos
    todos = from_message("Pagination works. It'd be nice to remember the page size per user.")
    assert any("page size per user" in t for t in todos), todos


def test_work_the_person_puts_off_is_carried_as_open():
    todos = capture("Login redirect fixed.", ["Put the CSV export on hold, fix the login redirect first"])
    assert any("CSV export" in t for t in todos), todos
    todos = capture("登录跳转修好了。", ["支付回调那块先放一放，先把登录跳转修了"])
    assert any("支付回调" in t for t in todos), todos
    # a choice made in the report to leave something alone stays no to-do
    assert from_message("这一期先不动权限模型。") == []


def test_a_todo_inside_one_open_todo_is_that_todo_carried_over():
    from code_memory.summary.todos import restated, same_todo
    open_todos = [("s1", "导出目前只支持 CSV，Excel 格式没做"), ("s1", "上传接口没有大小限制")]
    assert restated(["好，Excel 先放着"], (), open_todos, same_todo) == ["导出目前只支持 CSV，Excel 格式没做"]
    # a new piece of work, or words found in two open to-dos, stay as they were said
    assert restated(["下载接口还没有鉴权"], (), open_todos, same_todo) == ["下载接口还没有鉴权"]
    two = open_todos + [("s2", "Excel 模板的表头还是旧的")]
    assert restated(["好，Excel 先放着"], (), two, same_todo) == ["好，Excel 先放着"]


def test_a_put_off_request_keeps_the_words_of_the_open_todo_it_names():
    open_todos = [("s1", "导出大文件会超时，这个还没处理"), ("s1", "上传接口没有大小限制")]
    todos = capture("横幅改好了。", ["导出超时那个先放一放，先改横幅"], frozenset(), True, open_todos)
    assert todos == ["导出大文件会超时，这个还没处理"], todos
    # a failure explained after a colon tells its cause; with "还得再看" it stays open
    assert from_message("The deploy fails: the staging bucket has no write policy.") == []
    assert from_message("部署挂了：staging 的桶没有写权限，还得再查") != []
