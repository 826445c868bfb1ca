"""To-do precision (issue 20): report sentences that tell a state — a pitfall written down, how the
code works, a result, an intended or agreed limit, the past, a request to the person — are no to-do,
while open work said as a state or indirectly still is. Phrasings are the test's own (not taken from
any bench set)."""

import pytest

from code_memory.summary.todos import from_message


@pytest.mark.parametrize("message", [
    # a pitfall already fixed and written down
    "踩坑备注：本地时钟比服务器快两分钟，签名校验照样全绿，上了预发就失败，已经改成取服务器时间了。",
    "教训：重试装饰器把异常吞掉了，任务看起来照样成功，现在会重新抛出。",
    "Lesson learned: the health check still returned 200 while the DB was down; it pings the DB now.",
    # the past told in an earlier clause
    "一开始把缓存放在进程内，多副本时数据照样对不上，后来统一放到 Redis 了。",
    # how the code works now, with what the change did
    "同步任务还是每小时跑一次，只是加了一个失败重试。",
    "The importer still runs in a single thread; I only changed how it logs progress.",
    "重试次数还是 3。",
    # a result
    "The legacy reports still render correctly after the upgrade.",
    # an intended or agreed limit, a choice to leave something alone
    "这一期先不动权限模型。",
    "好的，这次不碰部署脚本。",
    "签名只支持 HMAC-SHA256，这是对接方约定的。",
    "The client library itself doesn't support HTTP/3, which is documented upstream.",
    "I kept the old flag untouched on purpose, since two cron jobs still pass it.",
    # a request to the person that is not code work
    "线上日志我这边看不到，得你那边查一下有没有 5xx。",
    "I can't open the admin panel from here, so you'll have to confirm the new banner on your side.",
    # a summary of the change
    "漏掉的两个唯一索引已经补上。",
    "The undocumented option now has a docstring and an entry in the reference.",
    # a note worth keeping is no deferral
    "Worth noting: the API paginates from 1, not 0.",
])
def test_a_sentence_that_tells_a_state_is_no_todo(message):
    assert from_message(message) == []


@pytest.mark.parametrize("message, key", [
    ("消息推送还是走的轮询，没换成长连接。", "轮询"),
    ("夜间对账脚本完全没测过。", "对账脚本"),
    ("用户删除后缓存仍然有效，这个得处理。", "缓存"),
    ("The signup form still posts to the old endpoint.", "signup form"),
    ("Team invites are still sent with the old logo.", "old logo"),
    ("The PDF renderer breaks on right-to-left text.", "PDF renderer"),
    ("We'll need a retention policy for the audit table before launch.", "retention policy"),
    ("The status page is untested on mobile.", "status page"),
    ("导出接口目前只支持同步调用，数据量大了会超时。", "导出接口"),
    ("有空的话把重复的校验逻辑抽成一个函数。", "校验逻辑"),
    ("扫描件上的手写签名识别不出来。", "手写签名"),          # 别 before 不: not "先不动"
    ("记得你上线前把灰度开关关掉。", "灰度开关"),             # 记得 + 你 is a deferral, not a request to you
])
def test_open_work_said_as_a_state_or_indirectly_is_still_a_todo(message, key):
    todos = from_message(message)
    assert any(key in todo for todo in todos), todos
