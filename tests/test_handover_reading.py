"""The deterministic reading of a session (issue 20): to-dos captured as people state them — with
their subject, negation-aware — and closed by what a later session reports, asks for and does;
decisions from a proposal and the answer, with the reason; the outcome as said; a change put back.
Pure functions over strings and digests, Chinese and English."""

from __future__ import annotations

import pytest

from code_memory.summary import decisions, extract
from code_memory.summary.todos import Evidence, capture, finished, from_message, same_todo
from code_memory.transcript import SessionDigest, read_session
from support.transcripts import TranscriptWriter


def digest(*texts, files=(), requests=("继续",), failed=False, checked=(), exchanges=()):
    """A later session that says ``texts`` (its assistant messages, the last one final) and ran
    ``pytest -q`` (``failed``: how it ended; None: ran no command)."""
    commands = [] if failed is None else [{"command": "pytest -q", "failed": failed}]
    return SessionDigest(path="x", assistant_notes=list(texts), final_message=texts[-1] if texts else "",
                         files_touched=list(files), user_requests=list(requests), commands=commands,
                         checked_files=list(checked), exchanges=[list(e) for e in exchanges])


@pytest.mark.parametrize("message, todos", [
    ("Not done yet: negative amounts are not handled — that is the next step",
     ["negative amounts are not handled — that is the next step"]),
    ("负数金额还没支持，后面需要补上。", ["负数金额还没支持，后面需要补上"]),
    ("The limits are hard-coded for now; they ought to move into settings eventually.",
     ["The limits are hard-coded for now; they ought to move into settings eventually"]),
    ("改好了，测试全过。另外上线前要先跟 DBA 确认索引已经建好，否则迁移会锁表。",
     ["上线前要先跟 DBA 确认索引已经建好，否则迁移会锁表"]),
    ("Migrated the endpoint. I haven't updated the Android client yet.", ["I haven't updated the Android client yet"]),
    ("utils/retry.py 里的 print 是故意保留的，没有改。", []),                 # intended
    ("如果以后要改它，得先跟运维确认解析脚本。", []),                       # a condition
    ("要不要顺便把日志也改了？", []),                                     # a question
    ("都是 api 章节改名以后没同步，现在修好了。", []),                      # a cause, not a to-do
    ("Not done yet.", []),                                                # nothing left once the markers go
    ("Nothing — days without events are simply missing from the output.", []),
    ("Done. Next: reindex production.", ["reindex production"]),
])
def test_todos_are_captured_as_people_say_them(message, todos):
    assert from_message(message) == todos


def test_the_persons_deferrals_count_unless_the_session_did_them():
    said = "好的，记下了。"
    asked = ["对了，发版前要先把开关默认值改成关。有空的话再把放量比例做成后台可调的。"]
    assert capture(said, asked) == ["发版前要先把开关默认值改成关", "有空的话再把放量比例做成后台可调的"]
    done = Evidence.from_digest(digest("开关默认值已经改成关了。", files=["/p/flags.yaml"])).done_words
    assert capture(said, asked, done) == ["有空的话再把放量比例做成后台可调的"]


def test_a_later_session_finishes_a_todo_in_other_words():
    ci = [("s1", "在 CI 里加一个死链检查，免得以后再出现这种情况")]
    assert finished(ci, Evidence.from_digest(digest("已在 CI 里加了死链检查。")), []) == ci   # the reason left out
    load = [("s1", "跑一次压测看看锁冲突率")]
    stated = digest("CHANGELOG 写好了。", requests=["压测我这边跑完了，锁冲突率 12%，帮我补一下 CHANGELOG"],
                    files=["/p/CHANGELOG.md"])
    assert finished(load, Evidence.from_digest(stated), []) == load             # a completion the person states
    docs = [("s1", "document the --strict flag in docs/cli.md")]
    edited = digest("Done, the docs build passes.", files=["/p/docs/cli.md"], checked=["/p/docs/cli.md"], failed=False)
    assert finished(docs, Evidence.from_digest(edited), []) == docs             # its file changed, a command passed
    # … but a report of other work on that file after "继续" is no evidence of it (summary/guards.py other_work)
    other = digest("Tidied the wording.", files=["/p/docs/cli.md"], checked=["/p/docs/cli.md"], failed=False)
    assert finished(docs, Evidence.from_digest(other), []) == []
    unchecked = digest("Tidied the wording.", files=["/p/docs/cli.md"], failed=True)
    assert finished(docs, Evidence.from_digest(unchecked), []) == []
    restated = digest("已在 CI 里加了死链检查。")
    assert finished(ci, Evidence.from_digest(restated), ["CI 里的死链检查还没加"]) == []      # still open: carried


def test_what_the_person_asked_for_closes_the_best_match_only():
    siblings = [("s1", "Partial refunds aren't supported yet"), ("s1", "the refund webhook isn't wired to notifications")]
    asked = digest("Done: the amount is checked against what is left.", requests=["do the partial refunds"],
                   files=["/p/billing/refunds.py"], failed=False)
    assert finished(siblings, Evidence.from_digest(asked), []) == siblings[:1]
    nothing_done = digest("I looked at it.", requests=["do the partial refunds"], files=[], failed=False)
    assert finished(siblings, Evidence.from_digest(nothing_done), []) == []     # asked, but no work done
    resumed = digest("All twelve GET endpoints now send ETags.", requests=["continue"], files=["/p/api/x.py"],
                     failed=False)
    ev = Evidence.from_digest(resumed, previous="s1")
    assert finished([("s1", "the other ten GET endpoints still need the same treatment")], ev, []) != []
    assert same_todo("在 README 里说明 pool_size 配置项", "README 的 pool_size 说明还没写")
    assert not same_todo("给 load_config 补单元测试", "给 parse_args 补单元测试")


@pytest.mark.parametrize("proposal, reply, wanted, unwanted", [
    ("方案一：按天分表；方案二：加一个 created_at 索引。我倾向方案二，因为改动小、不用迁移历史数据。你看呢？", "行，就按你说的",
     ["加一个 created_at 索引", "因为改动小", "行，就按你说的"], ["按天分表"]),
    ("We could (a) cache the token in memory or (b) store it in Redis. Memory is simpler; Redis survives restarts.",
     "go with the second one", ["store it in Redis", "Redis survives restarts"], ["cache the token in memory"]),
    ("Two ways: a cron job, or a Celery beat task.", "Celery beat it is — we already run Celery",
     ["a Celery beat task", "we already run Celery"], ["a cron job"]),
])
def test_a_proposal_and_the_answer_make_a_decision_with_its_reason(proposal, reply, wanted, unwanted):
    line = decisions.from_exchange(proposal, reply)
    assert line and all(w in line for w in wanted) and not any(u in line for u in unwanted), line


def test_what_is_not_a_decision():
    assert decisions.from_exchange("改好了，测试都过了。", "谢谢") is None            # no proposal
    assert decisions.from_exchange("要用 A 还是 B？", "A 和 B 有什么区别？") is None    # a question back
    assert decisions.statements(["Options: 1. keep the cron job, 2. move to Celery beat."]) == []
    assert decisions.statements(["Fixed the loop to use a set instead of a list."]) == []    # a change, no reason
    assert decisions.statements(["I'd pick SQLite — it is simpler."]) == []                  # still a proposal
    assert decisions.statements(["改用 Counter 而不是 Gauge，因为要算速率。"]) == ["改用 Counter 而不是 Gauge，因为要算速率"]


def test_outcome_revert_and_short_sessions(tmp_path):
    final = ("已经退回 pydantic 1.10，requirements.txt 恢复原样，测试全绿。要升 v2 得先把 .dict() 换成 "
             "model_dump()，等有空再弄。")
    path = str(tmp_path / "t.jsonl")
    with TranscriptWriter(path, cwd="/w/p") as t:
        t.user("把 pydantic 升级到 2.x 试试")
        t.tool("Edit", {"file_path": "/w/p/requirements.txt", "old_string": "1", "new_string": "2"})
        t.tool("Edit", {"file_path": "/w/p/models.py", "old_string": "1", "new_string": "2"})
        t.tool("Bash", {"command": "pytest -q"}, "Exit code 1\n31 failed", is_error=True)
        t.user("算了，先退回去")
        t.tool("Bash", {"command": "git checkout -- requirements.txt"}, "")
        t.tool("Bash", {"command": "pytest -q"}, "212 passed")
        t.say(final)
    d = read_session(path)
    assert d.reverted_files == ["/w/p/requirements.txt"] and d.files_touched == ["/w/p/models.py"]
    assert d.reverts == ["git checkout -- requirements.txt"] and d.last_command_failed is False
    fields = extract.read(d)
    assert fields["reverted"].startswith("已经退回 pydantic 1.10")
    assert fields["todos"] == ["要升 v2 得先把 .dict() 换成 model_dump()，等有空再弄"]
    assert fields["outcome"] == "" and fields["asked"] == ["算了，先退回去"]      # both already carried
    long = "First the headline. " + " ".join(f"Middle sentence {i} says little." for i in range(30)) + " The end."
    outcome = extract.outcome_of(long)
    assert outcome.startswith("First the headline.") and outcome.endswith("The end.") and len(outcome) <= 320


def test_cautions_said_in_the_session_are_kept_and_a_short_final_reaches_back():
    d = digest("Looked at the retry loop. Note that the Redis client retries on its own, so a second retry "
               "layer doubles the load during an outage.", "Done.", files=["/p/retry.py"], failed=False)
    fields = extract.read(d)
    assert fields["outcome"].startswith("Looked at the retry loop.")
    assert fields["noted"] == []                           # carried by the outcome already
    d = digest("注意：批量导入时不要开事务自动提交，否则会导致一半数据写进去。" * 1, "导入脚本改好了，测试通过，速度提升了三倍，"
               "现在每批 5000 行，整个导入从 40 分钟降到 13 分钟，日志里会打印每一批的耗时和失败行号，方便排查问题。"
               "失败的行会写进 failed_rows.csv，可以单独重跑。",
               files=["/p/import.py"], failed=False)
    fields = extract.read(d)
    assert fields["noted"] == ["注意：批量导入时不要开事务自动提交，否则会导致一半数据写进去。"]
    assert "Redis" not in fields["outcome"] and fields["outcome"].startswith("导入脚本改好了")


def test_a_first_request_answers_the_last_sessions_proposal_and_defers_work():
    proposal = ("查清楚了：慢在全表扫描。两个办法：一是给 orders.created_at 加索引，二是按月分表。"
                "我倾向加索引，改动小，分表要改所有查询。明天你决定一下？")
    d = digest("索引加好了，查询从 3 秒降到 40 毫秒。", files=["/p/migrations/0009_idx.sql"], failed=False,
               requests=["就用第一个吧，分表以后再说", "顺便看下慢查询日志"])
    fields = extract.read(d, previous_final=proposal)
    assert fields["decisions"] and "给 orders.created_at 加索引" in fields["decisions"][0]
    assert "改动小" in fields["decisions"][0] and "按月分表" not in fields["decisions"][0].split("(")[0]
    assert fields["todos"] == ["分表以后再说"]
    assert extract.read(d)["decisions"] == []                          # no proposal to answer


@pytest.mark.parametrize("segmenter", ["jieba dictionary", "bigrams (no jieba)"])
def test_closing_does_not_hang_on_the_segmenter(segmenter, monkeypatch):
    from code_memory.text import keywords
    from code_memory.text.segment import BigramSegmenter
    if segmenter.startswith("bigrams"):
        monkeypatch.setattr(keywords, "_segmenter", lambda: BigramSegmenter())
    keywords._weights.cache_clear()
    keywords.sub_words.cache_clear()
    try:
        todo = [("s1", "给 load_config 补单元测试")]
        report = digest("tests/test_load_config.py 写好了，默认值和文件缺失两种情况都覆盖到了，跑过一遍全绿。",
                        files=["/p/tests/test_load_config.py"], failed=False)
        assert finished(todo, Evidence.from_digest(report), []) == todo
        ci = [("s1", "在 CI 里加一个死链检查，免得以后再出现这种情况")]
        assert finished(ci, Evidence.from_digest(digest("已在 CI 里加了死链检查。")), []) == ci
        assert finished(ci, Evidence.from_digest(digest("已在 CI 里加了 lint 步骤。")), []) == []
    finally:
        keywords._weights.cache_clear()
        keywords.sub_words.cache_clear()


def test_a_change_reported_as_no_longer_happening_is_done_and_continue_resumes_older_work():
    from code_memory.summary import clauses
    assert clauses.completed("高并发下不再超卖") and clauses.completed("the nightly job no longer times out")
    assert not clauses.completed("the nightly job does not time out yet")
    timeout = [("s1", "the nightly job still times out on large tenants")]
    report = digest("The nightly job no longer times out on large tenants: it pages through them.",
                    files=["/p/jobs/nightly.py"], failed=False)
    assert finished(timeout, Evidence.from_digest(report), []) == timeout
    older = [("s2", "缓存命中率日志还没加"), ("s1", "库存变更时还要让缓存失效")]   # s1 is not the session continued
    resumed = digest("命中率日志加好了，每分钟打印一次。", requests=["继续"], files=["/p/cache.py"], failed=False)
    assert finished(older, Evidence.from_digest(resumed, previous="s3"), []) == older[:1]


@pytest.mark.parametrize("message, todos", [
    ("The password reset endpoint has no limit yet, and the lockout message isn't translated — it's English for "
     "every locale.", ["The password reset endpoint has no limit yet",
                       "the lockout message isn't translated — it's English for every locale"]),
    ("health check 还没加，k8s 的 readinessProbe 也得配一下。", ["health check 还没加", "k8s 的 readinessProbe 也得配一下"]),
    ("mypy 还是在每个 job 里各跑一遍，应该只跑一次；Node 的依赖也没缓存。",
     ["mypy 还是在每个 job 里各跑一遍，应该只跑一次", "Node 的依赖也没缓存"]),
    ("Two things remain: supporting the Revolut format, and skipping duplicate rows.",
     ["supporting the Revolut format", "skipping duplicate rows"]),
    ("压测还没做，上线前要跑一轮。", ["压测还没做，上线前要跑一轮"]),                  # one piece of work, not two
    ("Retries aren't done yet: a failed delivery is simply dropped.",
     ["Retries aren't done yet: a failed delivery is simply dropped"]),
    ("Also the PDF template still shows the old logo.", ["the PDF template still shows the old logo"]),
    ("改好了，测试也没问题。", []),
    ("这样改应该没问题。", []),
    ("按理说这里需要加锁，我已经加了 threading.Lock。", []),                     # a need met in the same sentence
    ("The old endpoint still uses the same handler, which is fine.", []),
    ("The login page still shows the old logo until the CDN cache expires.", []),
])
def test_one_todo_per_piece_of_open_work(message, todos):
    assert from_message(message) == todos


def _finished(open_todos, *texts, **session):
    """What a later session finishes, read as the summarizer reads it (its own to-dos included)."""
    return extract.read(digest(*texts, **session), open_todos)["done"]


def test_closing_on_the_main_clause_a_request_and_a_stated_completion():
    load = [("s1", "压测还没做，上线前要跑一轮")]                                   # the person says it is done
    assert _finished(load, "好的，数据很不错。", requests=["压测我昨天自己跑完了，QPS 从 800 到了 3100。今天先不改代码"]) == load
    rounding = [("s1", "Before the next release someone has to check the rounding against the accountant's spreadsheet")]
    assert _finished(rounding, "Great, thanks.", failed=None,
                     requests=["I checked the VAT rounding against the accountant's spreadsheet myself — every total "
                               "matches to the cent."]) == rounding
    webhook = [("s1", "Retries aren't done yet: a failed delivery is simply dropped"),
               ("s1", "Signing the payload with HMAC is still missing as well")]
    asked = dict(requests=["Do the retries. Not the signing yet, we'll get to that later."],
                 files=["/p/orders/webhooks.py"], failed=False)
    assert _finished(webhook, "Failed deliveries are retried with exponential backoff, then marked failed.",
                     **asked) == webhook[:1]                                       # its main clause; not what is put off
    cache = [("s1", "缓存失效还没处理：商品改价以后得主动删掉对应的 key，不然会读到旧价格"), ("s1", "拼音搜索还不支持")]
    assert _finished(cache, "update_price 之后会删除对应的缓存 key，测试确认改价后读到新价格。",
                     requests=["改价的时候把缓存清掉"], files=["/p/products/service.py"], failed=False) == cache[:1]


def test_no_wrong_close():
    export = [("s1", "超过 10 万行的导出会超时，需要改成异步任务")]
    assert _finished(export, "异步导出写了一半：任务能排进 Celery 了，但下载链接还没生成，下次接着弄。",
                     requests=["异步导出开始弄吧"], files=["/p/export/tasks.py"], failed=True) == []      # it failed
    assert _finished(export, "用 openpyxl 写 xlsx，测试都过了。超时的问题没动，10 万行以上还是会超时。",
                     requests=["先把 xlsx 的导出做了"], files=["/p/export/xlsx.py"], failed=False) == []  # "没动"
    reports = [("s1", "Pagination isn't implemented yet"),
               ("s1", "the endpoint should be cached since the list only changes once a month")]
    assert _finished(reports, 'Fixed "mothly" in the docstring of api/reports.py.',
                     requests=["fix the typo in the reports docstring"], files=["/p/api/reports.py"],
                     checked=["/p/api/reports.py"], failed=False) == []           # same file, other work
    revolut = [("s1", "supporting the Revolut format"), ("s1", "skipping duplicate transactions on re-import")]
    assert _finished(revolut, "Importing a file twice no longer creates duplicate transactions. I started on Revolut "
                     "too but it isn't finished — their date column isn't mapped yet.",
                     requests=["let's deal with the duplicates"], files=["/p/importer/csv.py"],
                     failed=False) == revolut[1:]                                   # half done stays open
    retries = [("s1", "Retries aren't done yet: a failed delivery is simply dropped")]
    for answer in ("Right now a failed delivery is simply dropped; nothing retries it.",      # how things are,
                   "Failed deliveries are dropped and logged at warning level."):              # not work done
        assert _finished(retries, answer, requests=["what happens when a webhook delivery fails?"], failed=None) == []
    docs = [("s1", "接口文档还没更新，等前端确认字段命名以后再改")]
    asked = extract.read(digest("还没有，前端那边还没确认字段命名，接口文档先没动。", requests=["接口文档更新了吗？"],
                                failed=None), docs)
    assert asked["done"] == [] and asked["todos"] == [docs[0][1]]                  # restated in the words it had


@pytest.mark.parametrize("message, todos", [
    # open work stated as a state of things: missing, unsupported, untested, hard-coded, flaky, broken,
    # "still <the old thing>", "only … for now", 还是/仍然, 目前只, 写死, 不支持, 缺, 显示不出来
    ("Rewrote the importer. The XML feed is still unsupported.", ["The XML feed is still unsupported"]),
    ("Added the endpoint. Pagination is missing, and the docs page still lists the old parameters.",
     ["Pagination is missing", "the docs page still lists the old parameters"]),
    ("Deployed to staging. The Helm chart is hard-coded to one replica.", ["The Helm chart is hard-coded to one replica"]),
    ("Search works now. The ranking test is flaky on CI.", ["The ranking test is flaky on CI"]),
    ("Fixed the login bug. The mobile build is broken since the SDK bump.",
     ["The mobile build is broken since the SDK bump"]),
    ("The cron job still deletes logs older than 7 days instead of 30.",
     ["The cron job still deletes logs older than 7 days instead of 30"]),
    ("Ported the CLI. The Windows installer is untested.", ["The Windows installer is untested"]),
    ("The uploaded files are still unscanned.", ["The uploaded files are still unscanned"]),
    ("The dashboard loads in 1.2 s now. The chart legend overlaps the axis on small screens.",
     ["The chart legend overlaps the axis on small screens"]),
    ("页面改版上线了。IE 下布局是乱的。", ["IE 下布局是乱的"]),
    ("There is no retry for failed uploads yet.", ["There is no retry for failed uploads yet"]),
    ("Cache added. It currently only covers the product pages.",           # the pronoun keeps what it means
     ["Cache added; It currently only covers the product pages"]),
    ("报表页改好了。导出按钮还是灰的，点了没反应。", ["导出按钮还是灰的，点了没反应"]),
    ("上传改成分片了。断点续传不支持，网络一断就得重来。", ["断点续传不支持，网络一断就得重来"]),
    ("新版首页上线了，但是 Safari 下轮播图显示不出来。", ["新版首页上线了，但是 Safari 下轮播图显示不出来"]),
    ("配置抽出来了，不过 Redis 地址仍然写死在 worker.py 里。", ["配置抽出来了，不过 Redis 地址仍然写死在 worker.py 里"]),
    ("登录改成短信验证码了。海外手机号目前只支持少数几个国家。", ["海外手机号目前只支持少数几个国家"]),
    ("支付回调加了签名校验。测试环境的证书缺了一张，沙箱回调验不过。", ["测试环境的证书缺了一张，沙箱回调验不过"]),
    ("排期改好了；队列里的任务现在是串行跑的，最好改成并发。", ["队列里的任务现在是串行跑的，最好改成并发"]),   # its subject kept
    ("日志接好了，告警规则还没配；还有 Grafana 面板的单位不对。", ["告警规则还没配", "Grafana 面板的单位不对"]),  # the list goes on
    ("日志接好了，告警规则还没配；还有值班表的同步。", ["告警规则还没配", "值班表的同步"]),   # … with no marker of its own
    ("Logging is wired up. The alert rules aren't set yet; also the on-call rota sync.",
     ["The alert rules aren't set yet", "the on-call rota sync"]),
    # lead-ins that announce open items, the items after them
    ("Moved the jobs to the queue. Known gaps: retries are unbounded; the dead-letter topic doesn't exist yet.",
     ["retries are unbounded", "the dead-letter topic doesn't exist yet"]),
    ("Three things remain: the CLI help text, the changelog entry, and a migration note.",
     ["the CLI help text", "the changelog entry", "a migration note"]),
    ("迁移脚本写好了。已知问题：大表迁移会锁表；回滚脚本缺失。", ["大表迁移会锁表", "回滚脚本缺失"]),
    ("## Summary\n- Added the export endpoint\n- Updated the tests (all 31 pass)\n\n## Known issues\n"
     "- Large exports time out after 30 s\n- The CSV header is still in English",
     ["Large exports time out after 30 s", "The CSV header is still in English"]),
    ("改完了。目前导入只认 UTF-8，GBK 编码的文件会乱码。", ["目前导入只认 UTF-8，GBK 编码的文件会乱码"]),
    ("All tests pass. The refresh token is still stored in localStorage, which isn't ideal.",
     ["The refresh token is still stored in localStorage, which isn't ideal"]),
    ("Bumped the version to 2.3.0 and updated the changelog. Nothing else is outstanding.", []),
    ("The migration ran on staging in 4 minutes. Production has 10x the rows, so expect 40 minutes.", []),
    ("接口改好了。有两个地方还没处理：空列表返回 500；另外分页参数没校验。", ["空列表返回 500", "分页参数没校验"]),
    # not open work: a result, a description of how it works, the past, a cause, a condition, intended, a question
    ("Renamed the module; all 48 tests still pass.", []),
    ("The v1 routes still work for existing clients.", []),
    ("Upgraded Django; the admin still renders correctly.", []),
    ("You can still log in with the old password until Friday.", []),
    ("Removed the hard-coded timeout; it reads settings.timeout now.", []),
    ("Added a fallback for missing locale files.", []),
    ("Fixed the flaky test_login by waiting for the socket.", []),
    ("The crash happened because the config file was missing.", []),
    ("The endpoint returns 404 when the record is missing.", []),
    ("The parser deliberately leaves unknown fields untouched.", []),
    ("Retries are capped at 5 by design.", []),
    ("Nothing is broken.", []),
    ("The crash report now includes the stack trace.", []),
    ("I kept the old endpoint; it still answers with the v1 schema for existing clients.", []),
    ("如果 Redis 连不上，会退回到直接查库。", []),
    ("旧的接口还保留着，老客户端不受影响。", []),
    ("Only admins can see the audit page.", []),
    ("There is no global state, so it is thread-safe.", []),
    ("Is the Windows installer still untested?", []),
    ("之前搜不到是因为没有分词，现在能搜到了。", []),
    ("我们还是用 SQLite 吧。", []),
    ("测试还是全过的。", []),
    ("旧接口仍然可用，兼容老客户端。", []),
    ("把写死的 Redis 地址改成读环境变量了。", []),
    ("不管是 CSV 还是 Excel 都能导出。", []),
    ("查询耗时不到 10 毫秒。", []),
    ("数据库连不上时返回 503。", []),
    ("这个字段缺省是 0。", []),
])
def test_open_work_stated_as_a_state(message, todos):
    assert from_message(message) == todos


def test_a_state_is_not_a_todo_after_a_session_of_questions():
    answer = "The importer still reads the whole file into memory; the XML feed is unsupported."
    assert from_message(answer, worked=False) == []                      # how the code works, not work left
    assert from_message("Not yet — the XML feed is still unsupported.", worked=False) == \
        ["the XML feed is still unsupported"]                             # "not yet" is; the answer word goes


def test_an_answer_about_an_open_todo_restates_it_in_its_own_words():
    probe = [("s1", "健康检查接口没配，发布时流量会打到还没就绪的实例"), ("s1", "日志采集也没接")]
    asked = extract.read(digest("还没有，现在只有存活检查。", requests=["健康检查弄了吗"], failed=None), probe)
    assert asked["todos"] == [probe[0][1]] and asked["done"] == []           # the one asked about, not a new one
    theme = [("s1", "the theme switch has no effect until the app is relaunched")]
    answer = extract.read(digest("No — it still needs a relaunch.", requests=["does the theme switch work live now?"],
                                 failed=None), theme)
    assert answer["todos"] == [theme[0][1]]
    other = extract.read(digest("Not yet — the export button isn't wired up.", requests=["does the theme switch work live now?"],
                                failed=None), theme)
    assert other["todos"] == ["the export button isn't wired up"]           # shares no word: its own to-do
