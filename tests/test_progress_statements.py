"""Where the work a statement names stands (issue 20, fourth round): only FINISHED statements close an
earlier to-do; work started, half done, next, planned, put off, failed or still open does not, and
holds its subject open for the session. Every phrasing here is this file's own (none is in a bench
set), in English, Chinese and both mixed."""

from __future__ import annotations

import pytest

from code_memory.summary import progress as pg
from code_memory.summary.todos import Evidence
from test_handover_reading import digest
from test_todos_closing import closed


@pytest.mark.parametrize("statement, kind", [
    # finished: aspect markers, past participles, and the words people use for it
    ("The nightly export job is rewritten in Go now", pg.FINISHED),
    ("I renewed the TLS certificate myself this morning", pg.FINISHED),
    ("The flaky login test is sorted", pg.FINISHED),
    ("that's in now", pg.FINISHED),
    ("done and released", pg.FINISHED),
    ("sitemap 生成那块搞定了", pg.FINISHED),
    ("灰度开关合进去了", pg.FINISHED),
    ("新的计费规则已经上线了", pg.FINISHED),
    ("那个我已经手动清掉了", pg.FINISHED),
    ("cold start went from 4.1 s to 1.3 s", pg.FINISHED),
    ("p95: 840 ms → 95 ms", pg.FINISHED),
    ("镜像体积从 1.2G 降到 380M", pg.FINISHED),
    ("Fixed the test that timed out on arm64", pg.FINISHED),           # a fix, not a failure
    ("✅ Sitemap regenerated nightly", pg.FINISHED),
    ("Image resizing — done", pg.FINISHED),
    # in progress: started, half done, scaffolded, still running
    ("Began moving the cron jobs to Temporal", pg.IN_PROGRESS),
    ("Started on the CSV importer: parsing works, nothing is saved yet", pg.IN_PROGRESS),
    ("The importer is partially wired: rows parse, the writes are stubbed out", pg.IN_PROGRESS),
    ("I did the first pass of the German translation", pg.IN_PROGRESS),
    ("迁移脚本写了一半", pg.IN_PROGRESS),
    ("权限校验先搭了个骨架，规则还是空的", pg.IN_PROGRESS),
    ("全量回归还在跑", pg.IN_PROGRESS),
    ("The PR is in review", pg.IN_PROGRESS),
    # next, planned, put off
    ("Rotating the API keys comes next", pg.NEXT),
    ("I'll add the audit log tomorrow", pg.PLANNED),
    ("We're going to split the monolith after the release", pg.PLANNED),
    ("下一步做离线缓存", pg.NEXT),
    ("接下来把导入的进度条补上", pg.NEXT),
    ("埋点先放一放", pg.PLANNED),
    ("Next: backfill the old invoices", pg.NEXT),
    ("We'll get to the audit log later", pg.PLANNED),
    ("回头再补单测", pg.PLANNED),
    ("Search by tag — not started", pg.OPEN),
    ("Audit log: still open", pg.OPEN),
    # failed, still open, a question
    ("The resize step still fails on HEIC files", pg.FAILED),
    ("镜像构建挂了", pg.FAILED),
    ("⏳ Audit log — waiting for the schema", pg.IN_PROGRESS),
    ("❌ Audit log", pg.OPEN),
    ("Translations aren't merged yet", pg.OPEN),
    ("水印还没加", pg.OPEN),
    ("Has the certificate been renewed?", pg.QUESTION),
])
def test_each_statement_carries_its_own_verdict(statement, kind):
    assert pg.verdict(statement) == kind, statement


def test_not_every_past_form_or_sequence_word_is_a_plan_or_a_failure():
    assert pg.verdict("Then I ran the backfill against staging, 4,210 rows") == pg.FINISHED
    assert pg.verdict("A failed upload is retried three times now") == pg.FINISHED      # names what failed
    assert pg.verdict("The worker will retry a timed-out call") != pg.PLANNED            # "will" of the code
    assert pg.verdict("准备好了，可以发版") == pg.FINISHED                               # 准备好 is ready
    assert pg.verdict("不再重复发送了") == pg.FINISHED
    assert pg.verdict("Timeouts go from 5 to 30 seconds if the header asks for it") != pg.FINISHED


@pytest.mark.parametrize("statement", [
    # descriptions that use the words of progress, plans or failure for how the code behaves
    "The service is running on port 8080",
    "Three seconds later the retry goes out",
    "Later versions of the SDK handle this",
    "Returns 429 with Retry-After while waiting for the bucket to refill",
    "Requests are blocked by the WAF when they carry no token",
    "In-progress uploads resume after a restart",
    "Partial refunds are supported now",
    "Added a placeholder image for missing avatars",
    "The first part of the URL is the tenant",
    "The outage began at 3am",
    "Images use deferred loading now",
    "The connection remains open until the client hangs up",
    "Failed deliveries are retried with backoff, then marked failed",
    "If the upload fails, it is retried three times",
    "正在运行的任务不受影响",
    "现在做成异步的了",
    "在测试环境跑过了",
    "草稿箱功能做好了",
    "加了骨架屏",
    "准备数据的脚本写好了",
    "我先把表头加上了",
    "任务失败时会往值班群发消息",
    "第 3 次还失败就进死信队列",
    "Timeouts go from 5 to 30 seconds if the header asks for it",
])
def test_descriptions_are_not_progress_plans_or_failures(statement):
    assert pg.verdict(statement) not in (pg.IN_PROGRESS, pg.NEXT, pg.PLANNED, pg.FAILED), statement
    assert pg.held_open(statement) == [], statement


def test_a_status_list_is_read_item_by_item():
    report = "Where it stands:\n- [x] dark theme\n- [ ] keyboard shortcuts\n- ✅ print layout\n- 🚧 offline mode"
    items = pg.statements(report)
    assert [pg.verdict(s) for s in items] == [pg.STATE, pg.FINISHED, pg.OPEN, pg.FINISHED, pg.OPEN]
    assert [pg.verdict(s) for s in pg.statements("缩略图 — 完成，水印 — 还没开始")] == [pg.FINISHED, pg.OPEN]
    assert pg.held_open("⏳ keyboard shortcuts — waiting for design") == ["keyboard shortcuts"]


def test_what_a_statement_holds_open_is_its_subject():
    assert pg.held_open("Started on the CSV importer: parsing works, nothing is saved yet") == ["CSV importer"]
    assert pg.held_open("迁移脚本写了一半，回滚还没写") == ["迁移脚本"]
    assert pg.held_open("The CSV importer is done") == [] and pg.held_open("水印还没加") == []   # capture's
    assert "audit log" in pg.held_open("Status: audit log — still open")[0]


def test_yes_to_the_question_whether_it_was_done():
    question = "I see the branch renames the billing tables. Has it been merged?"
    assert pg.confirmed(question, "yes, merged") == ["I see the branch renames the billing tables.",
                                                      "Has it been merged"]
    assert pg.confirmed("证书续期了吗？", "对，续好了") == ["证书续期了吗"]
    assert pg.confirmed(question, "not yet") == [] and pg.confirmed(question, "还没") == []
    assert pg.confirmed("Shall I merge the billing branch?", "yes") == []          # an offer answered
    assert pg.confirmed("要不要我把证书续一下？", "好") == []
    assert pg.confirmed("The billing branch renames three tables.", "yes") == []   # no question
    assert pg.confirmed("Has the hotfix been deployed?", "yes, but only to staging") == []
    assert pg.confirmed("证书续期了吗？", "对，明天上线") == [] and pg.confirmed("合了吗？", "合了一半") == []
    assert pg.confirmed("DNS 记录改了吗？", "那个我已经手动处理了") == ["DNS 记录改了吗"]      # names nothing else
    assert pg.confirmed("Did you rotate the signing key?", "I rotated the webhook secret instead") == []


RENAME = ("s1", "The billing tables still use the old names")
CERT = ("s1", "The staging TLS certificate expires on Friday and isn't renewed yet")
WORKED = dict(files=["/p/app/billing.py"], failed=False)


def test_work_started_half_done_next_or_failed_closes_nothing():
    todos = [RENAME, CERT]
    assert closed(todos, "Started on renaming the billing tables: the migration exists, the models still use "
                  "the old names.", requests=["start renaming the billing tables"], **WORKED) == []
    assert closed(todos, "Fixed the invoice rounding; 41 tests pass. Renaming the billing tables comes next.",
                  requests=["fix the invoice rounding in billing"], **WORKED) == []
    assert closed(todos, "I renamed the first half of the billing tables.",
                  requests=["rename the billing tables"], **WORKED) == []
    assert closed(todos, "Renamed the billing tables, but the migration test fails on Postgres 12.",
                  requests=["rename the billing tables"], **WORKED) == []
    assert closed(todos, "Billing tables — still open. Invoice rounding — done.", requests=["status?"],
                  **WORKED) == []
    # the person's plan or what is still going is not a request for now
    assert closed(todos, "Invoice rounding fixed.", requests=["I'll renew the staging certificate tomorrow. "
                                                              "Fix the invoice rounding."], **WORKED) == []
    zh = [("s1", "导入的进度条还没做"), ("s1", "全量回归还没跑")]
    assert closed(zh, "导入的进度条先搭了个架子，还没接后端。", requests=["进度条弄一下"],
                  files=["/p/web/import.tsx"], failed=False) == []
    assert closed(zh, "错别字改好了，测试通过。接下来把导入的进度条补上。", requests=["改一下错别字"],
                  files=["/p/web/import.tsx"], failed=False) == []
    assert closed(zh, "好的，导出按钮改好了。", requests=["全量回归还在跑，你先把导出按钮改一下"],
                  files=["/p/web/export.tsx"], failed=False) == []


def test_finishes_people_actually_say():
    todos = [RENAME, CERT]
    assert closed(todos, "Thanks, noted.", requests=["I renewed the staging TLS certificate myself yesterday."],
                  failed=None) == [CERT]
    assert closed(todos, "Good.", requests=["The staging TLS certificate is renewed, all sorted."], failed=None) == [CERT]
    asked = digest("I see the branch that renames the billing tables. Has it been merged?", "Great.",
                   requests=["did you see my billing branch?", "yes, merged"], failed=None,
                   exchanges=[("I see the branch that renames the billing tables. Has it been merged?",
                               "yes, merged")])
    from code_memory.summary import extract
    assert extract.read(asked, [RENAME, CERT])["done"] == [RENAME]
    offered = digest("Shall I rename the billing tables?", "OK.", requests=["yes"], failed=None,
                     exchanges=[("Shall I rename the billing tables?", "yes")])
    assert extract.read(offered, [RENAME, CERT])["done"] == []
    zh = [("s1", "证书续期还没做"), ("s1", "灰度开关还没合")]
    assert closed(zh, "好的。", requests=["灰度开关合进去了"], failed=None) == zh[1:]
    assert closed(zh, "好的。", requests=["证书续期我这边已经搞定了"], failed=None) == zh[:1]
    assert closed(zh, "好的。", requests=["证书续期还在走流程"], failed=None) == []


def test_a_status_list_finishes_its_done_items_only():
    todos = [("s1", "Exports have no CSV option yet"), ("s1", "The import page has no progress bar yet")]
    report = "Status:\n- ✅ CSV export — added to the export menu\n- ⏳ import progress bar — not started"
    assert closed(todos, report, requests=["work on the export and import pages"],
                  files=["/p/web/export.tsx"], failed=False) == todos[:1]
    ev = Evidence.from_digest(digest(report, requests=["work on the export and import pages"],
                                     files=["/p/web/export.tsx"]))
    assert "import progress bar" in ev.held_open
    mine = [("s1", "证书续期还没做"), ("s1", "灰度开关还没合")]     # the person's own list: asked for nothing open
    assert closed(mine, "好的，知道了。", requests=["我这边：\n- 灰度开关 ✅\n- 证书续期 ⏳ 等运维"],
                  files=["/p/ops/notes.md"], failed=False) == mine[1:]


def test_a_file_named_for_its_place_says_where_not_what():
    ev = Evidence.from_digest(digest("Wrote the German overview page.", files=["/p/site/de/guide/index.md",
                                                                             "/p/parsers/formats/camt053.py"]))
    assert "index" not in ev.done_words and "index.md" in ev.done_words     # named whole, it still counts
    assert {"guid", "camt053", "format"} <= ev.done_words                  # its folders and own name do


@pytest.mark.parametrize("statement, kind", [
    ("重试次数我做成 --max-retries 了", pg.FINISHED),          # the new state between the verb and 了
    ("日志格式我改成 JSON 了。", pg.FINISHED),
    ("队列换成 RabbitMQ 了", pg.FINISHED),
    ("日志级别改成 WARN 了，但还没部署", pg.OPEN),
    ("要不要把日志级别改成 WARN 了？", pg.QUESTION),
    ("如果改成 WARN 了会不会丢信息", pg.STATE),
])
def test_a_change_to_a_new_state_said_with_its_object_before_le(statement, kind):
    assert pg.verdict(statement) == kind
