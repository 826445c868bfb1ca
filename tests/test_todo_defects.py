"""To-do capture by the SHAPE of a state (issue 20, sixth round; summary/defects.py): an item of a list
introduced as problems, a state with a bad consequence, the old thing still in place, a stopgap, a
scope tried only so far, an emphatic absence, a clause that opens with 没有 after its subject, a bad
outcome someone gets, a change still to be made ("得换成…"), a reminder of a task for a person — and
for each its negative twins: the same shape telling how it works now, a result, an intended or agreed
limit, good news, a fix, or a list of what was done. Phrasings are the test's own (not taken from any
bench set), in Chinese, English and both mixed."""

import pytest

from code_memory.summary import defects
from code_memory.summary.todos import capture, from_message


def _has(todos, key):
    return any(key in todo for todo in todos)


@pytest.mark.parametrize("message, keys", [
    # an item of a list introduced as problems, stated as a plain state
    ("Export works for all three formats. Problems I ran into:\n- the footer repeats on every page\n"
     "- large tables are split across pages without a header", ["footer repeats", "split across pages"]),
    ("Login is done. A couple of rough edges: the avatar upload ignores EXIF rotation; the locale "
     "switcher sits behind the cookie banner.", ["EXIF rotation", "locale switcher"]),
    ("接口联调完了，测试都过了。发现的几个隐患：\n- 回调地址写的是测试环境\n- 签名用的是 MD5", ["回调地址写的是测试环境", "签名用的是 MD5"]),
    ("Crawler 跑通了。Issues 还有这些：\n- robots.txt 每次都重新下载\n- 重定向链只跟一层", ["robots.txt 每次都重新下载", "重定向链只跟一层"]),
    ("重构完了。待修复的问题：\n- 导出的 Excel 日期列是文本\n- 大文件上传进度条不动", ["日期列是文本", "进度条不动"]),
    ("The API is up. Issues to fix: the pagination cursor is an offset; the error body is HTML.",
     ["pagination cursor is an offset", "error body is HTML"]),
    ("Problems not yet fixed:\n- the sidebar width is a magic number", ["sidebar width is a magic number"]),
])
def test_items_under_a_problem_lead_are_todos(message, keys):
    todos = from_message(message)
    for key in keys:
        assert _has(todos, key), (key, todos)


@pytest.mark.parametrize("message, absent", [
    # the lead says they are dealt with, or the items tell / are fine
    ("Upload is done. Issues fixed along the way:\n- the double submit on slow networks\n- the stale preview",
     ["double submit", "stale preview"]),
    ("之前提的几个问题都解决了：\n- 分页错位\n- 导出乱码", ["分页错位", "导出乱码"]),
    ("Things I checked: the sitemap, the 404 page and the favicon.", ["sitemap", "404 page", "favicon"]),
    ("Known issues from last week:\n- the retry storm is fixed now\n- the cache warm-up is fine",
     ["retry storm", "cache warm-up"]),
])
def test_problem_lists_that_are_done_or_fine_are_not_todos(message, absent):
    todos = from_message(message)
    for key in absent:
        assert not _has(todos, key), (key, todos)


@pytest.mark.parametrize("message, key", [
    # a state with a bad consequence
    ("Thumbnails are written to the container's disk, so they vanish on every redeploy and get lost.", "Thumbnails"),
    ("The queue keeps every dead letter forever, so the disk fills up in about a month.", "every dead letter"),
    ("草稿只存在浏览器内存里，刷新一下就丢了。", "草稿只存在浏览器内存里"),
    ("测试集和训练集来自同一批用户，指标偏乐观。", "测试集和训练集来自同一批用户"),
    ("The worker pool size is per pod，扩容以后数据库连接会很多。", "worker pool size"),
    # the old thing still in place, a stopgap, a scope tried only so far
    ("支付回调还在旧的单体服务里，这次没拆。", "支付回调还在旧的单体服务里"),
    ("The API key is read from a plain env var for now.", "plain env var for now"),
    ("推送证书暂时用的是个人开发者账号。", "推送证书暂时用的是个人开发者账号"),
    ("目前只在 Pixel 7 上测过，其他机型没试。", "只在 Pixel 7 上测过"),
    ("I only tried it against the local MinIO, not real S3.", "only tried it against the local MinIO"),
    # absence said emphatically, or by a clause opening with 没有 after its subject
    ("批量删除以后什么日志都没留。", "什么日志都没留"),
    ("Nothing cleans up the temp uploads when a job is cancelled.", "Nothing cleans up the temp uploads"),
    ("There's nothing to migrate the old settings yet.", "nothing to migrate the old settings"),
    ("报表只有汇总数，没有按渠道拆开的明细。", "没有按渠道拆开的明细"),
    # a bad outcome someone gets; a change still to be made; a longer "not … yet"
    ("Trial users also get a blank welcome email.", "blank welcome email"),
    ("Webhook 的 secret 用的是测试值，得换成正式的。", "得换成正式的"),
    ("The exporter isn't aware of the new currency field yet.", "isn't aware of the new currency field yet"),
    # a wish in a subordinate clause
    ("要是能支持断点续传就好了。", "支持断点续传"),
    ("It would help if the CLI printed the resolved config path.", "printed the resolved config path"),
    ("I'd suggest we move the cleanup cron into the job scheduler.", "move the cleanup cron"),
    # the deleted things that come back (an attributive 删掉的 is no fix)
    ("后台删掉的优惠券刷新后又出现。", "删掉的优惠券"),
])
def test_a_state_that_is_a_defect_by_its_shape_is_a_todo(message, key):
    todos = from_message(message)
    assert _has(todos, key), todos


@pytest.mark.parametrize("message", [
    # a consequence that is good news, or trouble said to be avoided
    "Thumbnails are written to object storage, so they survive a redeploy.",
    "The public key is the read-only one, so it is safe to ship in the page.",
    "同步走的是单独的线程，所以不会卡住收银。",
    "改成按订单号去重了，重复回调不会再被记两次。",
    # a consequence that is a designed reaction inside a rule (condition, then error)
    "部署完会检查 /ready，60 秒内没就绪就报错退出。",
    "Uploads larger than 10 MB are rejected, so the client shows an error.",
    "识别失败时返回 422，前端会提示用户换张图片。",
    # a consequence that is how it is meant to work: expiry, clean-up, a schedule, a cache miss
    "登录态保存在 Redis，30 分钟不活动就会过期。",
    "日志按天切分，30 天前的会自动清空。",
    "改密码以后，旧的 token 会失效。",
    "The report is built nightly, so it runs again at midnight.",
    "Failed jobs stay in the list, so you can trigger one manually.",
    "Hot keys are served from Redis, so cache misses go to Postgres.",
    # the old thing kept within a limit; a plan; a stopgap that is a plan
    "包体积现在 3.1MB，还在 4MB 的限制以内。",
    "Let's keep the env var for now and revisit next quarter.",
    # the thing still there kept safe or left as it was; nothing more to say for now
    "重启以后数据还在 Redis 里，没有丢。",
    "配置文件还在原来的目录里，路径没变。",
    "That's all for now.",
    "The fallback is good enough for now.",
    # an absence that is good news or a fact of a choice
    "回归跑完了，一个用例都没挂。",
    "昨晚一条告警都没响。",
    "压测跑了一晚上，什么报错都没有。",
    "昨天发版的时候告警群里一条都没响。",
    "最后选了 Redis，没有上 Kafka，量不大。",
    "没有权限的访客点下载会看到登录页，这是原来的逻辑。",
    "Nothing else changed in the checkout flow.",
    # a regret about the past, a wish that asks the person
    "要是当时加了索引就好了。",
    "It would help if you sent me the full log.",
    # tried or scoped on purpose, agreed, a request to the person
    "Only tested on Linux, which is the only platform we ship, as agreed.",
    "You'll need to rotate the old key on your side.",
])
def test_look_alikes_of_a_defect_are_not_todos(message):
    assert from_message(message) == [], from_message(message)


def test_a_reminder_said_again_is_a_todo_and_survives_the_report():
    final = ("The banner is in and the tests pass. As you asked: ask Priya for the dark-mode logo.")
    todos = capture(final, ["Add the banner. Remind me to ask Priya for the dark-mode logo"],
                    done_words=frozenset({"banner", "ask", "priya", "dark", "mode", "logo"}))
    assert _has(todos, "ask Priya for the dark-mode logo"), todos
    zh = from_message("页面改好了。还有，你让我提醒的：找法务确认隐私条款的措辞。")
    assert _has(zh, "找法务确认隐私条款的措辞"), zh
    assert not _has(from_message("As you asked: the banner is now green."), "banner")   # a reminder done


def test_shapes_apply_only_to_a_session_that_did_work():
    """A question answered in a session that changed nothing tells the state; it leaves no to-do."""
    assert from_message("Nothing cleans up the temp uploads when a job is cancelled.", worked=False) == []
    assert from_message("Problems I ran into:\n- the footer repeats on every page", worked=False) == []
    assert _has(from_message("Sure. Reminder: ask Omar for the staging VPN config.", worked=False),
                "ask Omar for the staging VPN config")          # a reminder is one after any session


def test_problem_lead_and_items_read_alone():
    assert defects.problem_lead("Things I noticed while in there: a; b")
    assert defects.problem_lead("看下来还有这些问题：")
    assert not defects.problem_lead("Fixed along the way: a; b")
    assert not defects.problem_lead("Which issues remain: a; b?")
    assert defects.items("a leaks, and we should fix it; b is slow") == ["a leaks, and we should fix it", "b is slow"]
