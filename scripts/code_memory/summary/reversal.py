"""A to-do that names a bad state, finished by a session that says the state is now the opposite
(summary/todos.py ``finished``; docs/summaries.md § To-dos).

People finish a stated deficiency by saying how things are NOW, not by repeating its words:
"从站地址现在是写死在数组里的" is finished by "从站地址现在从配置分区读"; "the rpID is hard-coded" by
"the RP ID now comes from the environment"; "it only works on macOS — Windows needs developer
mode" by "tried it on Windows: link and unlink both work"; "上传是同步的" by "上传改成异步的了";
"还没在真板子上测过" by "真板子上跑了一晚上，没丢帧". Each bad state the to-do names gives the
opposite that closes it:

* **hard-coded / by hand** (写死, 硬编码, 手动, hard-coded, by hand, manually): the thing now comes
  from somewhere or is set (从…读, 可以配, 做成参数, 环境变量, 自动, comes from, configurable, from the
  environment, automatically) — and is not still said to be hard-coded;
* **only X** (只支持…, 目前只在…, only works on …, only targets …): something the to-do itself names
  beyond X (the other platform it says fails: "Windows", "the Rocky hosts") works now, or the state
  of the opposite word ("单卡" → "多卡");
* **a state word with an opposite** (同步/异步, 手动/自动, 单…/多…, 红/绿, sync/async, manual/automatic,
  red/green …): the opposite word said of the same thing;
* **not yet tested or run** (还没在…测过, 还没跑过, 没验证, never tried, hasn't been tested on …): a
  report of having run or tried it, with a result (a number, "没丢帧", "passed", "match"), and no
  failure in the same statement ("ran it on the board — 3 of 8 fail" stays open);
* **a trouble of time with its measure** (进关会卡 1 秒左右, "the export takes 90 minutes"): the
  same thing's measure reported reduced ("从 1.1 秒降到 180ms", "now takes 12 minutes (was 90)"),
  two of its words named, nothing said to be still so.

The statement must name what the to-do is about: a word of the bad state's clause that no other
open to-do of the project holds (for "only X", a name the to-do gives beyond X — Windows, Rocky —
or two of its words beyond X), read in the to-do's own words (summary/synonyms.py), and no sibling
of the same list by a word of that one's own ("降级改成…生效" reverses nothing of "年付还没做，目前只
支持月付"). It must be a statement of finished work or a state the session
reports (summary/progress.py), with nothing in it left open ("改成了从配置读，但还没部署"), or —
for a change asked for (hard-coded, an opposite word) — the person's request, when the session
did the work (its files changed, its last command passed) and its report speaks of the same
thing. Every close found here passes the rejecting guards of summary/todos.py afterwards.
"""

from __future__ import annotations

import re

from ..text import soft
from ..text.keywords import expand, weights
from . import clauses as cl
from . import progress as pg
from . import subject


def content(text: str) -> dict:
    """The weighted words of a clause, its markers removed (as summary/todos.py reads a to-do)."""
    return weights(cl.main_text(text))


HARD_CODED = "hard-coded"
ONLY = "only"
OPPOSITE = "opposite"
UNTESTED = "untested"
SLOW = "slow"

_HARD = re.compile(r"写死|硬编码|手动|手工|人工(?:维护|配置|填|改|拷)|手填|手敲|手拷|手抄|"
                   r"\bhard[- ]?(?:coded|wired)\b|\bby hand\b|\bmanual(?:ly)?\b|\bhand[- ](?:copied|edited|written|typed|"
                   r"maintained)\b|\bbaked in(?:to)?\b", re.I)
# said of the thing once it is no longer so: "不用再手动拷了", "no manual upload any more", "instead of hard-coding"
_NO_LONGER_HARD = re.compile(r"(?:不用再|不再|不必再|无需再?|不需要再?)[^，。；,.;]{0,8}?(?:手动|手工|写死|硬编码)|"
                             r"\b(?:no (?:more |longer )?|instead of |rather than |without )(?:\w+ )?"
                             r"(?:manual|hard[- ]?cod|by hand)\w*", re.I)
_FROM_SOMEWHERE = re.compile(
    r"从[^，。；,.;]{1,30}?(?:读|取|加载|拉|获取|拿)|(?:可以|能)[^，。；]{0,30}?(?:配|改|设|调)|可配置?|"
    r"做成(?:了)?[^，。；]{0,6}?(?:参数|配置|选项|--?[A-Za-z])|读(?:取)?配置|配置(?:文件|项|里)|环境变量|命令行参数|自动(?!化测试)|动态|"
    r"\bnow (?:come|load|read)s? from\b|\b(?:a|an|the|new) --[a-z][\w-]+\b|"
    r"\b(?:comes|came|(?:is|are) read|reads|loaded|loads|pulled|taken|picked up|fetched|synced|resolved|looked up)\s+"
    r"(?:\w+\s+){0,2}?"
    r"(?:from|on|via|through)\b|\bconfigurable\b|\bfrom (?:the )?(?:env\b|environment|config|settings)|"
    r"\b(?:environment variable|env var|setting|option|flag|parameter)s?\b|\bautomatic(?:ally)?\b|"
    r"\b(?:generated?|generates|built|builds) (?:\w+ ){0,3}?(?:in|by) (?:the )?(?:ci|workflow|pipeline|build)\b", re.I)
_ONLY = re.compile(r"(?:目前|现在|暂时)?(?:只|仅)(?:支持|在|能|有|针对|适配|跑)|"
                   r"\bonly (?:works?|runs?|targets?|supports?|handles?|builds?|tested|been tested|on|for|in|with)\b", re.I)
_WORKS = re.compile(r"\b(?:works?|worked|working|supports?|supported|runs?|ran|pass(?:es|ed)?|green|cleanly|fine|"
                    r"succeed(?:s|ed)?|successful(?:ly)?|handles?|merged|covered)\b|也能|都能|也可以|也支持|支持了|能跑|跑通|"
                    r"正常|没问题|成功|通过|绿了|合了|合进|上线", re.I)
# a state word and its opposite: the opposite said of the same thing is the state reversed
_OPPOSITES = (("同步", "异步"), ("单卡", "多卡"), ("单机", "多机"), ("单线程", "多线程"), ("手动", "自动"),
              ("串行", "并行"), ("明文", "加密"), ("全量", "增量"), ("阻塞", "非阻塞"),
              ("sync", "async"), ("synchronous", "asynchronous"), ("synchronously", "asynchronously"),
              ("manual", "automatic"), ("manually", "automatically"), ("serial", "parallel"),
              ("sequential", "parallel"), ("plaintext", "encrypted"), ("blocking", "non-blocking"),
              ("single-gpu", "multi-gpu"), ("single-threaded", "multi-threaded"))
# a build or check that is red: its opposite is green, passing
_RED = re.compile(r"红|\bred\b", re.I)
_GREEN = re.compile(r"绿|通过|过了|成功|\b(?:green|pass(?:es|ed|ing)?|succeed(?:s|ed)?|successful(?:ly)?)\b", re.I)
_UNTESTED = re.compile(
    r"(?:还|尚|仍|暂|目前|现在还?)?(?:没有?|未)(?:在[^，。；]{1,20}?)?[^，。；]{0,16}?(?:测试?|跑|试|验证|验|实测)过?(?![一\w]*(?:完|好))|"
    r"\b(?:never|not yet|haven't|hasn't|have not|has not|didn't|did not|wasn't|weren't)\b(?: \w+){0,3}? "
    r"(?:tried|tested|run|ran|verified|checked|exercised|validated)\b|\b(?:untested|unverified)\b", re.I)
# a report of having run, tested or tried it
_RAN = re.compile(r"跑了|跑过|跑通|测了|测过|试了|试过|装了|验证了|验证过|实测|接上了|都接上|演练|"
                  r"\b(?:ran|tried|tested|verified|validated|exercised|restored|installed|deployed|drill)\b", re.I)
# … with a result
_RESULT = re.compile(r"\d|没问题|没丢|不丢|一致|成功|正常|都过|全过|通过|对上|没报错|没出错|"
                     r"\b(?:pass(?:es|ed)?|match(?:es|ed)?|works?|worked|fine|succeed(?:s|ed)|successful(?:ly)?|clean(?:ly)?|"
                     r"green|ok)\b", re.I)
# … and no failure in it
_FAILURE = re.compile(r"失败|挂了|挂掉|报错|出错|不行|不对|没过|没通过|丢了|丢帧了|崩|超时|不一致|对不上|"
                      r"\b(?:fail(?:s|ed|ing|ure|ures)?|errors?|broke|broken|crash(?:es|ed)?|mismatch(?:es)?|"
                      r"(?:don't|doesn't|didn't|do not|does not) (?:match|work|pass))\b", re.I)
# a trouble of time said with its measure ("进关会卡 1 秒左右", "每次训练要卡 40 秒", "the export takes 90 s")
_SLOW = re.compile(r"卡|慢|超时|延迟|耗时|要等|\b(?:slow|slows|takes|took|lags?|stalls?|blocks?|latency|hangs?)\b", re.I)
_AMOUNT = r"\d+(?:\.\d+)?\s*(?:毫秒|秒|分钟|小时|ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?)\b"
_MEASURE = re.compile(_AMOUNT.replace(r"\b", "(?![A-Za-z])"), re.I)
# … reported reduced: "从 1.1 秒降到 180ms", "down to 0.3 s", "180 ms (was 1100 ms)"
_REDUCED = re.compile(r"降到|降至|降为|降低到|减到|减少到|缩短到|缩到|只要|只需|只停|"
                      r"\b(?:down to|dropped to|drops to|reduced to|cut to|now takes|only takes|(?:was|from) \d)", re.I)
_STILL = re.compile(r"还是|仍然|依然|依旧|\bstill\b", re.I)
_STATE_WORDS = frozenset(content("写死 硬编码 手动 手工 hard coded hardcoded hard-coded hard-wired manual manually by hand only works runs "
                                 "targets supports 测试 测过 跑过 试过 验证 never tried tested run verified").keys()) | \
    {"目前", "现在", "暂时", "还是", "仍然", "still", "now", "right", "yet", "currently"}
_FILE = re.compile(r"[./]")      # a file named as the place of the state, not the thing in it
COMMON_WEIGHT = 0.8      # a common Chinese word (上传) still says what a short clause is about
DISTINCT_SHARE = 0.34     # of the bad state's subject words' weight a statement holds, one of them distinctive


# a sentence that asks for the work rather than reports it ("Read the host from the environment", "把…改成…")
_COMMAND = re.compile(r"^\s*(?:please\s+)?(?:make|let|add|read|run|try|get|set|move|use|switch|change|put|have|check|"
                      r"test|load|pull|fetch|sync|wire|hook|generate|give|do|go)\b|^\s*(?:请|麻烦)?(?:你|先)?把", re.I)


def bad_states(todo: str) -> list:
    """``[(kind, clause)]``: each bad state the to-do's clauses name (see the module docstring)."""
    out = []
    for clause in cl.clauses(todo):
        if cl.is_rationale(clause) or cl.is_condition(clause):
            continue
        if _HARD.search(clause):
            out.append((HARD_CODED, clause))
        if _ONLY.search(clause):
            out.append((ONLY, clause))
        if _UNTESTED.search(clause):
            out.append((UNTESTED, clause))
        if _opposite_words(clause):
            out.append((OPPOSITE, clause))
        if _SLOW.search(clause) and _MEASURE.search(clause):
            out.append((SLOW, clause))
    return out


def _has_word(text: str, word: str) -> bool:
    if word.isascii():
        return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.I) is not None
    return word in text


def _opposite_words(clause: str) -> list:
    """``[(state word, its opposite)]`` the clause names (a state word inside its opposite — 同步 of
    异步, 阻塞 of 非阻塞 — is the opposite); a red build's opposite is ``None`` (:data:`_GREEN`)."""
    out = [(m.group(0), None) for m in _RED.finditer(clause)][:1]
    for a, b in _OPPOSITES:
        for state, opposite in ((a, b), (b, a)):
            if _has_word(clause, state) and not _has_word(clause, opposite):
                out.append((state, opposite))
    return out


def _subject(clause: str) -> dict:
    """The words of a bad state's clause that say what it is about: no state word, no mere work word."""
    return {t: w for t, w in content(clause).items()
            if t not in _STATE_WORDS and t not in subject.PLAIN and len(t) >= 2 and not _HARD.search(t)
            and not _FILE.search(t) and
            (subject.real(t, w) or not t.isascii() and w >= COMMON_WEIGHT)}


def _a_name(token: str, text: str) -> bool:
    """Is ``token`` (an English word or its stem) written as a name in ``text`` — capitalized, or an
    acronym (Windows, Rocky, ARM, PostgreSQL)?"""
    if not token.isascii() or not token[:1].isalpha():
        return False
    match = re.search(rf"(?<![\w-]){re.escape(token[:4])}\w*", text, re.I)
    return bool(match) and match.group(0)[0].isupper()


def _slow_subject(clause: str) -> dict:
    """What a trouble of time is about: its clause's words without the measure and the trouble word."""
    return {t: w for t, w in _subject(_MEASURE.sub(" ", clause)).items() if not _SLOW.fullmatch(t) and t != "take" and
            not re.fullmatch(r"[\d.]+|左右|大概|差不多|around|about", t)}


def _opposite_subject(clause: str) -> dict:
    """The subject of a state word's clause: without the state words themselves."""
    states = [a for a, _b in _opposite_words(clause)]
    return {t: w for t, w in _subject(clause).items() if not any(a.lower() in t or t in a.lower() for a in states)}


def _joined(text: str) -> set:
    """Two adjacent words of ``text`` written as one ("rpid" of "The RP ID …"): an identifier named in parts."""
    parts = re.findall(r"[A-Za-z0-9]+", text or "")
    return {(a + b).lower() for a, b in zip(parts, parts[1:])}


def _names(words: dict, unit: dict, others, share: float = None, text: str = "", least_words: int = 1) -> bool:
    """Does ``unit`` (a statement's words, in the to-do's words) name ``words``: one of them that no
    other open to-do holds, and :data:`DISTINCT_SHARE` of their weight?"""
    if not words:
        return False
    held = expand(unit)
    joined = _joined(text)
    found = {t for t in words if soft.share(t, held) > 0 or t in joined or
             (len(t) >= 2 and not t.isascii() and t in text)}       # written as it is, split otherwise
    least = DISTINCT_SHARE if share is None else share
    if len(found) < min(least_words, len(words)) or sum(words[t] for t in found) < least * sum(words.values()):
        return False
    return any(len(t) >= 2 and not any(soft.share(t, expand(o)) > 0 for o in others) for t in found)


def _names_another(words: dict, unit: dict, siblings) -> bool:
    """Does a statement (``unit``: its words) name a sibling of the to-do (an open to-do of the same
    list) by a word of its own — a real word that one holds and this one does not ("降级改成…生效，保留原
    套餐权益" is about 降级, not about "年付套餐还没考虑")? Then the state it reverses is the sibling's."""
    mine, held = expand(words), expand(unit)
    return any(subject.real(t, w) and len(t) >= 2 and t not in subject.PLAIN and soft.share(t, mine) == 0
               and soft.share(t, held) > 0 for other in siblings for t, w in other.items())


def _left_open(sentence: str) -> bool:
    """Does a statement leave something open or put it off ("…，但还没部署", "… — not deployed yet")?"""
    return any(cl.not_yet(c) or cl.deferred(c, obligations=True) for c in cl.clauses(sentence)) or \
        pg.verdict(sentence) in pg.HELD


def _reverses(kind: str, clause: str, sentence: str, todo_words: dict, unit: dict, others, todo: str = "") -> bool:
    """Does ``sentence`` (``unit``: its words in the to-do's words) say the bad state of ``clause``
    (of ``kind``) is now its opposite, naming the same thing?"""
    if kind == HARD_CODED:
        if _HARD.search(_NO_LONGER_HARD.sub(" ", sentence)) or not _FROM_SOMEWHERE.search(sentence):
            return False
        return _names(_subject(clause), unit, others, text=sentence)
    if kind == OPPOSITE:
        if not any(_GREEN.search(sentence) and not _RED.search(sentence) if b is None else
                   _has_word(sentence, b) and not _has_word(sentence.replace(b, " "), a)
                   for a, b in _opposite_words(clause)):
            return False
        return _names(_opposite_subject(clause), unit, others, share=0.0, text=sentence)  # the opposite is specific
    if kind == ONLY:
        if _ONLY.search(sentence) or not _WORKS.search(sentence) or _FAILURE.search(sentence):
            return False
        scope = content(clause)
        beyond = {t: w for t, w in todo_words.items() if t not in scope and t not in subject.PLAIN
                  and t not in _STATE_WORDS and not _FAILURE.search(t)      # ARM, iOS: acronyms too
                  and (w >= 1.0 or not t.isascii() and len(t) >= 2 and w >= COMMON_WEIGHT)}
        # what is beyond X, named: a name ("Windows", "the Rocky hosts", ARM) or two of its words — a
        # word of its context alone (套餐 of "年付套餐还没考虑，目前只支持月付") is no other platform
        if any(_a_name(t, todo or clause) for t in beyond if _names({t: beyond[t]}, unit, others, share=0.0, text=sentence)):
            return True
        return len(beyond) >= 2 and _names(beyond, unit, others, share=0.0, text=sentence, least_words=2)
    if kind == SLOW:
        if not (_MEASURE.search(sentence) and _REDUCED.search(sentence)) or _STILL.search(sentence) or \
                _FAILURE.search(sentence):
            return False
        # two of its words at least: "the nightly backup is down to 12 minutes" is not the nightly export
        return _names(_slow_subject(clause), unit, others, share=0.0, text=sentence, least_words=2)
    if kind == UNTESTED:
        if not (_RAN.search(sentence) and _RESULT.search(sentence)) or _FAILURE.search(sentence):
            return False
        return _names(_subject(clause), unit, others, text=sentence)
    return False


def reversed_by(todo: str, todo_words: dict, others, statements, requests=(), worked: bool = False,
                held_open=(), siblings=()) -> bool:
    """Does the session say the bad state ``todo`` names is now its opposite (module docstring)?
    ``statements``: ``[(text, words)]`` of what it reports finished or how things now are (words in
    the to-do's own words); ``requests``: ``[(text, words)]`` of what the person asked for;
    ``others``: the words of the project's other open to-dos; ``worked``: the session changed files,
    its last command passed and its report is no partial one; ``held_open``: the texts of what it
    holds open, next or still to do; ``siblings``: the words of the other open to-dos of the same list."""
    states = bad_states(todo)
    if not states:
        return False
    said = [(s, u) for s, u in statements if not _left_open(s) and not cl.is_question(s) and not cl.is_condition(s)
            and not _COMMAND.match(s) and not _names_another(todo_words, u, siblings)]
    requests = [(r, u) for r, u in requests if not _names_another(todo_words, u, siblings)]
    for kind, clause in states:
        if any(_reverses(kind, clause, s, todo_words, u, others, todo) for s, u in said):
            return True
        if worked and kind in (HARD_CODED, OPPOSITE) and said and \
                not any(_names(_subject(clause), content(h), others, text=h) for h in held_open):
            # the person asked for the opposite ("把上传改成异步的", "make the id come from the environment"),
            # the session did the work and reports work finished, and it holds nothing of the same thing open
            if any(_reverses(kind, clause, r, todo_words, u, others, todo) for r, u in requests
                   if not _left_open(r) and not cl.is_question(r)):
                return True
    return False


def in_state_words(todo: str, text: str) -> str:
    """``text`` with each opposite of a state word the to-do names put back as that word ("缩略图改成
    异步生成了" for "缩略图是同步生成的" reads "…同步生成了"): for the guard that a statement names a
    sibling by the same head word with another modifier (summary/guards.py), the opposite state is
    no other modifier."""
    for _kind, clause in bad_states(todo):
        for state, opposite in _opposite_words(clause):
            if opposite:
                text = re.sub(re.escape(opposite), state, text, flags=re.I)
    return text
