"""Which open to-do a later session names (issue 20, fourth round; summary/subject.py): ONE thing
the session says must name what the to-do is about — not the union of unrelated sentences, not the
words of the place it is in (shared with sibling to-dos, the changed files, the project's earlier
topics), not other work the person asked for in the same place — and the to-do finished in other
words still closes. Every phrasing here is this file's own (none is in a bench set)."""

from __future__ import annotations

from code_memory.summary import extract, subject
from code_memory.summary.todos import work
from test_handover_reading import digest

WORKED = dict(failed=False)


def closed(open_todos, *texts, places=(), **session):
    return extract.read(digest(*texts, **session), open_todos, places=places)["done"]


def test_other_work_on_the_same_page_or_chart_is_not_the_todo():
    coupon = [("s1", "结算页的优惠券入口还没做")]
    assert closed(coupon, "结算页的按钮颜色换成橙色了，测试通过。", requests=["结算页按钮换个颜色"],
                  files=["/p/web/checkout.vue"], **WORKED) == []
    assert closed(coupon, "结算页现在可以选优惠券了，测试通过。", requests=["把优惠券入口加到结算页"],
                  files=["/p/web/checkout.vue"], **WORKED) == coupon
    graph = [("s1", "The latency graph has no percentile lines")]
    assert closed(graph, "The latency graph uses a log scale now; tests pass.",
                  requests=["switch the latency graph to a log scale"], files=["/p/ui/latency_graph.ts"], **WORKED) == []
    assert closed(graph, "The latency graph draws p50 and p99 percentile lines now; tests pass.",
                  requests=["add the p50/p99 lines to the latency graph"], files=["/p/ui/latency_graph.ts"],
                  **WORKED) == graph


def test_words_collected_from_unrelated_sentences_do_not_close():
    uploads = [("s1", "Large uploads fail on the mobile client")]
    report = ("Fixed the avatar cropping on the mobile client. Large thumbnails load faster now. "
              "Uploads keep their EXIF data.")
    assert closed(uploads, report, requests=["fix avatar cropping on mobile"], files=["/p/mobile/avatar.ts"],
                  **WORKED) == []
    assert closed(uploads, "Large uploads on the mobile client go up in 8 MB chunks now and no longer fail.",
                  requests=["fix large uploads on mobile"], files=["/p/mobile/upload.ts"], **WORKED) == uploads


def test_a_sibling_of_the_same_list_stays_open():
    notices = [("s1", "邮件通知还没接"), ("s1", "短信通知也还没接")]
    assert closed(notices, "邮件通知接好了，测试通过。", requests=["把邮件通知接上"],
                  files=["/p/notify/mail.py"], **WORKED) == notices[:1]
    platforms = [("s1", "The Windows installer isn't signed"), ("s1", "The macOS installer isn't signed")]
    assert closed(platforms, "The macOS installer is signed and notarized now.", requests=["sign the macOS installer"],
                  files=["/p/release/mac.sh"], **WORKED) == platforms[1:]


def test_the_project_topic_says_where_the_work_is():
    header = [("s1", "导入的 CSV 还不能跳过表头")]
    places = [("s1", "做一个 CSV 导入功能"), ("s1", "importer/csv_reader.py")]
    other = dict(requests=["CSV 导入加个进度显示"], files=["/p/importer/csv_reader.py"], **WORKED)
    assert closed(header, "CSV 导入现在会显示进度了，测试通过。", places=places, **other) == []
    assert closed(header, "CSV 导入现在会自动跳过第一行表头，测试通过。", places=places,
                  requests=["导入时跳过表头"], files=["/p/importer/csv_reader.py"], **WORKED) == header


def test_work_the_person_puts_off_is_not_asked_for():
    dead = [("s1", "The retry queue has no dead-letter handling")]
    assert closed(dead, "Added a /metrics endpoint to the retry queue; tests pass.",
                  requests=["leave the dead-letter handling for now and add a metrics endpoint to the retry queue"],
                  files=["/p/queue/retry.py"], **WORKED) == []
    assert subject.without_put_off("死信那块先放一放，先加个监控接口") == "先加个监控接口"
    assert subject.without_put_off("skip the dead-letter part for now; add a metrics endpoint") == "add a metrics endpoint"
    assert subject.without_put_off("加个监控接口") == "加个监控接口"


def test_mixed_language_other_work_and_the_right_close():
    suggest = [("s1", "搜索页的 autocomplete 还没做")]
    assert closed(suggest, "The search page has a dark theme now; tests pass.", requests=["give the search page a dark theme"],
                  files=["/p/web/search.vue"], **WORKED) == []
    assert closed(suggest, "搜索框输入时会弹出 autocomplete 建议了，测试通过。", requests=["做一下 autocomplete"],
                  files=["/p/web/search.vue"], **WORKED) == suggest


def test_area_and_distinguishing_words():
    expiry, purge = work("缓存的过期时间还是写死的"), work("商品下架以后缓存也还没清掉")
    assert subject.area(purge, [expiry], set()) == {"缓存"}
    assert "缓存" not in subject.distinguishing(purge, {"缓存"}) and "下架" in subject.distinguishing(purge, {"缓存"})
    config = work("给 load_config 补单元测试")          # an identifier the to-do names is what it is about
    assert "load_config" not in subject.area(config, [], {"load_config", "test_load_config.py"})


def test_one_statement_naming_only_where_the_todo_is_with_other_work_asked_for():
    prune = [("s1", "Nightly backups are never pruned, so the bucket keeps growing")]
    places = [("s1", "set up nightly backups to the S3 bucket"), ("s1", "ops/backup.sh")]
    other = "Nightly backups are compressed with zstd now. The bucket listing page loads faster."
    assert closed(prune, other, places=places, requests=["compress the nightly backups"],
                  files=["/p/ops/backup.sh"], **WORKED) == []
    assert closed(prune, "Backups older than 30 days are pruned every night now, so the bucket stops growing.",
                  places=places, requests=["prune old nightly backups"], files=["/p/ops/backup.sh"], **WORKED) == prune
    legend = [("s1", "深色模式下图例的文字看不清")]             # the request in other words, the report names it
    assert closed(legend, "深色模式下图例文字改成浅灰了，对比度 7.2，测试通过。", requests=["图例对比度按 WCAG 调一下"],
                  places=[("s1", "做一个深色模式")], files=["/p/web/legend.ts"], **WORKED) == legend


def test_nothing_names_it_and_other_work_was_asked_for():
    """No single thing said names the to-do; the words of several sentences together would — but
    the person asked for other work, so the union does not close it."""
    hints = [("s1", "搜索框的输入提示还没做防抖")]
    report = "搜索框换了新的图标。输入提示的样式跟设计稿对齐了。防抖用的 lodash 版本也升级了。"
    places = [("s1", "搜索框加上输入提示"), ("s1", "web/search.vue")]
    assert closed(hints, report, places=places, requests=["搜索框换个图标，样式对齐设计稿"], files=["/p/web/search.vue"],
                  **WORKED) == []
    assert closed(hints, "搜索框的输入提示加了 300ms 防抖，测试通过。", places=places, requests=["输入提示加个防抖"],
                  files=["/p/web/search.vue"], **WORKED) == hints


def test_where_the_work_is_from_the_project_history():
    places = [("s1", "做一个订单导出 Excel 的功能"), ("s1", "export/orders.py"),
              ("s2", "导出的文件名加上日期"), ("s3", "改价以后多久能看到新价格？")]
    assert {"导出", "excel"} <= subject.project_area(places, "s1")       # the to-do's own session's topic
    assert "导出" in subject.project_area(places, "s9")                   # named by two sessions
    assert "改价" not in subject.project_area(places, "s9")               # one question about it is no place
