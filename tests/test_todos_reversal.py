"""A to-do that names a bad state closes on a statement that the state is now the opposite, naming
the same thing (summary/reversal.py, issue 20 round 6) — and the trap beside each rule stays open:
the state changed for another subject, the opposite said of a sibling, the change not yet deployed,
a run that failed, a question. Every phrasing here is this file's own (none is in a bench set)."""

from __future__ import annotations

import pytest

from code_memory.summary import reversal
from test_todos_closing import closed

WORKED = dict(files=["/p/app/export.py"], failed=False)
SAID = dict(failed=None)          # the person's word in a session that ran nothing

EXPORT = [("s1", "导出目录现在写死在 /tmp 下面，换台机器就找不到文件"), ("s1", "导出的文件名还没带日期")]
SMTP = [("s1", "The SMTP host is hard-coded for now"), ("s1", "Bounce handling is missing")]
MYSQL = [("s1", "目前只支持 MySQL，PostgreSQL 上建表会报错"), ("s1", "迁移脚本没有回滚")]
INSTALLER = [("s1", "The installer only runs on x86_64 — ARM Macs get a bad CPU type error"),
             ("s1", "There is no uninstall command")]
THUMBS = [("s1", "缩略图是同步生成的，大图上传要等好几秒"), ("s1", "原图没有压缩")]
MAILS = [("s1", "Report emails are sent synchronously inside the request"), ("s1", "Invoice PDFs have no page numbers")]
NIGHTLY = [("s1", "The nightly e2e job is still red on main"), ("s1", "Flaky screenshot diffs are not quarantined")]
RESUME = [("s1", "断点续传还没在弱网下测过"), ("s1", "上传进度条不准")]
IMPORTER = [("s1", "The importer hasn't been tested against the 2 GB export yet"), ("s1", "Progress output is missing")]
STAGING = [("s1", "staging 上还没跑过 schema migration"), ("s1", "回滚脚本还没写")]
WEBHOOK = [("s1", "webhook 的 signing secret 是 hard-coded 的"), ("s1", "webhook 失败了不会重试")]


def test_the_kinds_of_bad_state():
    kinds = {kind for kind, _c in reversal.bad_states("导出目录现在写死在 /tmp 下面，换台机器就找不到文件")}
    assert kinds == {reversal.HARD_CODED}
    assert {k for k, _c in reversal.bad_states("The installer only runs on x86_64")} == {reversal.ONLY}
    assert {k for k, _c in reversal.bad_states("缩略图是同步生成的")} == {reversal.OPPOSITE}
    assert {k for k, _c in reversal.bad_states("缩略图是异步生成的")} == {reversal.OPPOSITE}     # its opposite: 同步
    assert {k for k, _c in reversal.bad_states("The importer hasn't been tested against the 2 GB export yet")} == \
        {reversal.UNTESTED}
    assert reversal.bad_states("导出的文件名还没带日期") == []
    assert reversal.bad_states("如果以后只支持 MySQL，就得改建表语句") == []                        # a condition


@pytest.mark.parametrize("todos, statement, session, closes", [
    # hard-coded → it now comes from somewhere, the same thing named
    (EXPORT, "导出目录现在从 settings.yaml 里读，没配的时候用 /tmp。", WORKED, [0]),
    (EXPORT, "导出的文件名现在从 settings.yaml 里读模板。", WORKED, []),             # another subject
    (EXPORT, "导出目录改成从 settings.yaml 里读了，但还没部署。", WORKED, []),       # not deployed yet
    (EXPORT, "导出目录还是写死的，配置文件里的那一项没生效。", WORKED, []),          # still so
    (SMTP, "The SMTP host now comes from MAIL_HOST, falling back to localhost.", WORKED, [0]),
    (SMTP, "The SMTP port now comes from MAIL_PORT; the host is still hard-coded.", WORKED, []),
    (WEBHOOK, "webhook 的 signing secret 现在从 Vault 里读了。", WORKED, [0]),        # mixed
    (WEBHOOK, "webhook 的重试次数现在从 Vault 里读了。", WORKED, []),                  # the sibling's word
    # only X → what the to-do says fails beyond X now works
    (MYSQL, "测试通过。", dict(requests=["PostgreSQL 上我试过了，建表和查询都正常"], failed=None), [0]),
    (MYSQL, "好的。", dict(requests=["PostgreSQL 上试了一下，建表还是报错"], failed=None), []),
    (INSTALLER, "Tried the installer on an M2: it runs fine on ARM now.", WORKED, [0]),
    (INSTALLER, "ARM Macs still get the bad CPU type error from the installer.", WORKED, []),
    (INSTALLER, "The installer only runs on x86_64 for now; ARM is next.", WORKED, []),
    # a state word → its opposite, said of the same thing
    (THUMBS, "缩略图改成异步生成了，放到队列里做。", WORKED, [0]),
    (THUMBS, "原图压缩改成异步的了。", WORKED, []),                                 # another subject
    (THUMBS, "缩略图改成异步生成了，不过队列还没部署。", WORKED, []),
    (MAILS, "Report emails go out asynchronously from the worker now.", WORKED, [0]),
    (MAILS, "Invoice emails are sent asynchronously now.", WORKED, []),
    (NIGHTLY, "The nightly e2e job passes again after pinning Chrome.", WORKED, [0]),
    (NIGHTLY, "The nightly e2e job still fails on main, now on a timeout.", WORKED, []),
    # not yet tested or run → run, with a result and no failure
    (RESUME, "好的。", dict(requests=["我在 3G 限速下测了断点续传，传了 20 个文件都能续上"], failed=None), [0]),
    (RESUME, "还没。", dict(requests=["断点续传在弱网下测过了吗？"], failed=None), []),
    (IMPORTER, "Nice.", dict(requests=["Ran the importer on the 2 GB export last night — 4.1M rows, all match"],
                             failed=None), [0]),
    (STAGING, "OK.", dict(requests=["ran the schema migration on staging, all 12 tables migrated fine"],
                          failed=None), [0]),
    (STAGING, "OK.", dict(requests=["ran the rollback script on staging, all 12 tables fine"], failed=None), []),
])
def test_a_bad_state_closes_on_its_opposite(todos, statement, session, closes):
    """The first to-do names the bad state; whatever the other rules make of its sibling."""
    assert (todos[0] in closed(todos, statement, **session)) == (closes == [0])


def test_a_request_for_the_opposite_and_work_that_passes():
    asked = dict(requests=["Read the SMTP host from the environment"], files=["/p/app/mail.py"])
    assert closed(SMTP, "Switched the SMTP host over; 8 tests pass.", failed=False, **asked) == SMTP[:1]
    assert closed(SMTP, "Switched the SMTP host over; 2 tests fail.", failed=True, **asked) == []    # its run failed
    asked = dict(requests=["缩略图改成异步生成"], files=["/p/media/thumbs.py"])
    assert closed(THUMBS, "改好了，测试全过。", failed=False, **asked) == THUMBS[:1]
    assert closed(THUMBS, "改好了，测试全过。缩略图的队列还没接上，下次再弄。", failed=False, **asked) == []   # held open


def test_a_run_with_a_failure_is_no_reversal():
    """The rule alone: a run that reports a failure never says the state is reversed (the person's
    own word of having run it is judged by the other rules and summary/guards.py as well)."""
    def reverses(todo, sentence):
        words = reversal.content(sentence)
        return reversal.reversed_by(todo, reversal.content(todo), [], [(sentence, words)])
    assert reverses(RESUME[0][1], "我在 3G 限速下测了断点续传，传了 20 个文件都能续上")
    assert not reverses(RESUME[0][1], "弱网下测了断点续传，20 个里有 3 个失败")
    assert reverses(IMPORTER[0][1], "Ran the importer on the 2 GB export last night — 4.1M rows, all match")
    assert not reverses(IMPORTER[0][1], "Ran the importer on the 2 GB export — 3 of 8 batches fail")
    assert not reverses(IMPORTER[0][1], "Ran the importer on the 2 GB export; the row counts don't match")
    assert not reverses(INSTALLER[0][1], "Tried the installer on an M2: ARM still crashes at launch")


def test_an_identifier_named_in_parts_and_a_flag_as_its_new_home():
    base = [("s1", "the apiURL is hard-coded to the staging host"), ("s1", "Token refresh is not implemented")]
    assert base[0] in closed(base, "The API URL now comes from API_URL; staging stays the default.", **WORKED)
    assert base[0] not in closed(base, "The API token now comes from API_TOKEN.", **WORKED)
    retries = [("s1", "重试次数写死在代码里，最好做成参数"), ("s1", "超时时间也没法改")]
    assert retries[0] in closed(retries, "好的。", requests=["重试次数已经做成 --max-retries 参数了"], failed=None)
    assert retries[0] not in closed(retries, "好的。", requests=["超时已经做成 --timeout 参数了"], failed=None)


def test_a_trouble_of_time_closes_on_its_measure_reduced():
    report = [("s1", "导出报表要等 30 秒左右，运营一直在催"), ("s1", "导出的文件名没带日期")]
    assert report[0] in closed(report, "导出报表从 30 秒降到 4 秒，加了联合索引。", **WORKED)
    assert report[0] not in closed(report, "首页加载从 3 秒降到 1 秒。", **WORKED)                  # another subject
    assert report[0] not in closed(report, "导出报表从 30 秒降到 20 秒，还是慢。", **WORKED)         # still slow
    nightly = [("s1", "The nightly export takes about 90 minutes"), ("s1", "The export has no retry")]
    jobs = dict(files=["/p/jobs/runner.py"], failed=False)      # no file of the export's name
    assert nightly[0] in closed(nightly, "The nightly export now takes 12 minutes (was 90 minutes).", **jobs)
    # the rule alone ("nightly" and "minutes" are enough for the word-share rules, summary/guards.py's to reject)
    assert not reversal.reversed_by(nightly[0][1], reversal.content(nightly[0][1]), [reversal.content(nightly[1][1])],
                                    [(s, reversal.content(s)) for s in ["The nightly backup is down to 12 minutes."]])
    assert not reversal.reversed_by(nightly[0][1], reversal.content(nightly[0][1]), [reversal.content(nightly[1][1])],
                                    [(s, reversal.content(s)) for s in
                                     ["The nightly export is down to 12 minutes but 2 jobs failed."]])
    assert nightly[0] not in closed(nightly, "The nightly export still takes 80 minutes.", **jobs)


def test_the_opposite_said_of_a_sibling_stays_open():
    """The rule alone: a statement about a sibling by a word of its own ("短信模板") is that one's; a
    word of the to-do's context alone (手机号) names no other platform than the one it is limited to."""
    todos = ["海外手机号还没适配，目前只支持大陆号码", "短信模板还是写死的"]

    def reverses(sentence):
        other = reversal.content(todos[1])
        return reversal.reversed_by(todos[0], reversal.content(todos[0]), [other],
                                    [(sentence, reversal.content(sentence))], siblings=[other])
    assert reverses("海外手机号也支持了，按 E.164 校验，测试通过。")
    assert not reverses("短信模板改成从配置读了，海外手机号也能收到，测试通过。")
    assert not reverses("手机号的格式校验改好了，测试通过。")
