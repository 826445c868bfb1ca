"""A report that shares some of an open to-do's words is no finish of it when the words it shares
only qualify, place or measure it (issue 20, sixth round: summary/shared.py, the weakest closing
path of summary/todos.py ``finished``). Each trap shares a time, frequency, measure or number word,
or a word the report uses to qualify another thing (the same page's other widget, the plan's
benefits), with the to-do; beside it a TRUE finish that reports the to-do's own subject done in part
of its words, while the person asked for something else, and must still close. Every phrasing here is
this file's own (none is in a bench set)."""

from __future__ import annotations

import pytest

from code_memory.summary import extract, shared
from code_memory.text.keywords import expand, weights
from test_handover_reading import digest

WORKED = dict(files=["/p/src/app.py"], failed=False)

# (to-do, trap report, what the trap's session was asked, true finish, what that session was asked)
PAIRS = [
    ("The nightly export takes about 90 minutes",
     "The nightly backup is down to 12 minutes now; tests pass.", "speed up the nightly backup",
     "The nightly export now finishes in 9 minutes; tests pass.", "tidy up the jobs module"),
    ("企业版套餐还没做，只支持月付",
     "退订改成月底生效，保留原套餐权益，测试通过。", "退订改成月底生效",
     "企业版套餐加上了，年付月付都能选，测试通过。", "整理一下计费代码"),
    ("The settings page's avatar upload has no size limit",
     "The settings page's theme toggle now remembers the choice; tests pass.", "make the theme toggle persist",
     "The avatar upload has a 2 MB size limit now; tests pass.", "tidy the settings form"),
    ("设置页的头像上传没有大小限制",
     "设置页的主题切换按钮现在会记住选择了，测试通过。", "主题切换记住用户选择",
     "头像上传加了 2MB 的大小限制，测试通过。", "整理一下设置页的表单"),
    ("还有 30 个单测没过",
     "修了 30 个 lint 警告，测试通过。", "把 lint 警告清一下",
     "那 30 个单测修好了，全部通过。", "看看测试"),
    ("The weekly digest email never goes out",
     "The weekly cleanup job now runs on Sundays; tests pass.", "schedule the weekly cleanup",
     "The digest email goes out every Monday now; tests pass.", "look at the mailer"),
    ("每周报表的邮件还没发出去",
     "每周备份加上了压缩，测试通过。", "每周备份压缩一下",
     "报表邮件现在每周一早上自动发出，测试通过。", "看一下定时任务"),
    ("CI 里的 nightly build 经常超时 40 分钟",
     "nightly 的 lint job 现在只要 3 分钟，测试通过。", "lint job 提速",
     "nightly build 现在 12 分钟就跑完了，测试通过。", "看一下 CI 配置"),
    ("The checkout page's coupon field ignores expired codes",
     "The checkout page's address form now validates postcodes; tests pass.", "validate postcodes on checkout",
     "Expired coupon codes are refused at checkout now; tests pass.", "clean up checkout"),
    ("订单列表页的导出按钮点了没反应",
     "订单详情页的打印按钮样式调好了，测试通过。", "详情页打印按钮样式",
     "导出按钮修好了，点了会下载 CSV，测试通过。", "订单列表页顺手看看"),
    ("p99 latency of the search API is 800 ms",
     "The p99 of the upload API is 120 ms now; tests pass.", "speed up uploads",
     "Search API p99 latency is down to 150 ms; tests pass.", "profile the services"),
    ("登录接口每分钟会超时两三次",
     "注册接口每分钟的限流加上了，测试通过。", "注册接口加限流",
     "登录接口的超时修好了，压了十分钟没再出现，测试通过。", "查一下网关日志"),
    ("The daily report email shows times in UTC",
     "The daily backup email now lists sizes in MB; tests pass.", "add sizes to the backup email",
     "The report email shows local times now; tests pass.", "look at the mailer"),
    ("支付回调每小时会丢 3 到 5 条",
     "退款回调每小时的重试次数改成 5 次了，测试通过。", "退款回调重试改 5 次",
     "支付回调不丢了，跑了一小时一条没少，测试通过。", "查一下消息队列"),
    ("导出 Excel 要等 2 分钟",
     "导入 Excel 的模板下载现在只要 2 秒，测试通过。", "导入模板下载提速",
     "导出 Excel 现在 5 秒就好了，测试通过。", "优化一下报表模块"),
    ("The admin dashboard's user chart loads slowly",
     "The admin dashboard's revenue table now loads in 200 ms; tests pass.", "speed up the revenue table",
     "The user chart on the dashboard loads in 200 ms now; tests pass.", "profile the admin app"),
    ("商品详情页的评论区加载要 3 秒",
     "商品详情页的推荐栏现在 300 毫秒就出来了，测试通过。", "推荐栏提速",
     "评论区加载现在 300 毫秒，测试通过。", "看看详情页性能"),
    ("Only 200 of 500 product images have alt text",
     "Compressed 500 product thumbnails; tests pass.", "compress the thumbnails",
     "All 500 product images have alt text now; tests pass.", "go over accessibility"),
]


def closed(todo, report, request):
    open_todos = [("s1", todo)]
    return extract.read(digest(report, requests=[request], **WORKED), open_todos)["done"]


@pytest.mark.parametrize("todo,trap,trap_request,finish,finish_request", PAIRS, ids=[p[0][:24] for p in PAIRS])
def test_shared_qualifier_is_no_finish_but_the_subject_is(todo, trap, trap_request, finish, finish_request):
    assert closed(todo, trap, trap_request) == []
    assert closed(todo, finish, finish_request) == [("s1", todo)]


def test_what_the_shared_words_tell():
    nightly = weights("The nightly export takes about 90 minutes")
    done = expand(weights("The nightly backup is down to 12 minutes now"))
    told = shared.telling(nightly, ["The nightly backup is down to 12 minutes now"], done)
    assert "backup" in told and not {"night", "minut"} & told          # a time word and a unit alone
    told = shared.telling(nightly, ["The nightly export now finishes in 9 minutes"],
                          expand(weights("The nightly export now finishes in 9 minutes")))
    assert {"night", "export", "minut"} <= told                            # beside the export itself they count
    plan = weights("企业版套餐还没做")
    said = "保留原套餐权益"
    assert "套餐" not in shared.telling(plan, [said], expand(weights(said)))   # 套餐 qualifies 权益
    said = "企业版套餐上线了"
    assert "套餐" in shared.telling(plan, [said], expand(weights(said)))       # said of it: 上线了
    assert shared.is_measure("分钟") and shared.is_measure("月底") and shared.is_measure("90")
    assert not shared.is_measure("月付") and not shared.is_measure("export")


def test_without_jiebas_dictionary(monkeypatch):
    """Without jieba's dictionary no Chinese word is taken for a noun (the rule holds less, never
    more): 套餐 before 权益 still counts; after 的 the thing qualified is still told."""
    monkeypatch.setattr(shared, "_dictionary", lambda: "")
    shared._noun.cache_clear()
    shared._english_noun.cache_clear()
    try:
        plan = weights("企业版套餐还没做")
        assert "套餐" in shared.telling(plan, ["保留原套餐权益"], expand(weights("保留原套餐权益")))
        said = "保留原套餐的权益"
        assert "套餐" not in shared.telling(plan, [said], expand(weights(said)))
    finally:
        shared._noun.cache_clear()
        shared._english_noun.cache_clear()


def test_a_later_clause_word_may_qualify():
    """Only what the to-do is about (its main clause) is held to the modifier rule: 读数据 of the
    consequence "续训后…会从头读数据" still counts in "读数据的进度随 checkpoint 一起存"."""
    todo = "dataloader 的采样位置没有恢复，续训后会从头读数据"
    said = "读数据的进度随 checkpoint 一起存，续训后从中断的 batch 接着读。"
    words, done = weights(todo), expand(weights(said))
    assert "读数据" not in shared.telling(words, [said], done)                          # held to it: qualifies 进度
    assert "读数据" in shared.telling(words, [said], done, main=weights("dataloader 的采样位置没有恢复"))
