"""Which of the words a report shares with an open to-do say what the to-do is ABOUT (summary/todos.py
``finished``, its weakest path: a report that names part of a to-do's words without the person
asking for it; docs/summaries.md § To-dos).

A report in the same project shares words with open work all the time that only qualify, place or
measure it: "The nightly backup is down to 12 minutes now" shares *nightly* and *minutes* with
"The nightly export takes about 90 minutes" but is about the backup; "保留原套餐权益" shares 套餐 with
"企业版套餐还没做" but is about 权益 (the benefits of a plan). So, of the shared words:

* a **time, frequency, number or measure word** never tells the subject (nightly, weekly, minutes,
  ms, 月底, 凌晨, 分钟, 90);
* a word the report uses only as the **modifier of another thing** — followed by a noun the to-do
  lacks ("the nightly *backup*", "the settings page's *theme* toggle", "原套餐*权益*", "套餐的*权益*")
  — tells the other thing, not the to-do; a word the report also uses as the head of what it says
  ("the export now runs in 8 minutes", "企业版套餐上线了") still tells it.

Chinese nouns are told by the part-of-speech tag of jieba's own dictionary (read without importing
jieba, text/segment.py); without jieba's dictionary a Chinese word is never taken for a modifier (the
rule only holds less). English has no tagger here: a following word is a noun unless it looks like
a verb form or a word of state (-s, -ed, -ing; is, now, …), so a doubtful case keeps the word.
"""

from __future__ import annotations

import functools
import re

from ..text import lexicon
from ..text.keywords import stem
from ..text.segment import get_segmenter, jieba_dict_path
from . import subject

# time, frequency and measure words (their stems): what is said about when or how much, not what
_MEASURE_EN = frozenset(stem(w) for w in (
    "nightly daily weekly monthly hourly yearly annual annually night day week month year hour minute second "
    "millisecond ms sec secs min mins hr hrs percent morning evening afternoon today tomorrow yesterday "
    "weekend time times").split())
_MEASURE_ZH = re.compile(
    r"^(?:每(?:天|日|晚|周|月|年|小时|分钟|次)|(?:月|年|周)(?:底|初|中|末)|凌晨|晚上|夜里|夜间|半夜|早上|上午|下午|中午|"
    r"今天|明天|昨天|分钟|小时|毫秒|秒钟?|天|周|次|倍|百分之\w*)$")
_NUMBER = re.compile(r"^[\d.,%]+[a-z%]*$", re.I)

# English words after a noun that state, not name: the predicate begins ("the export is …", "… now")
_STATES = frozenset(stem(w) for w in (
    "the a an is are was were be been being has have had now no longer also still just only already do does did "
    "will would can could should must may might never again down up back out over off in on at to for of with "
    "from by and or but not than then so that which who this these those it its".split()))
_VERB_FORM = re.compile(r"(?:s|ed|ing)$")
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'’-]*|\d[\d.,]*|[\u4e00-\u9fff]+|[^\sA-Za-z\d\u4e00-\u9fff]")
_POSSESSIVE = re.compile(r"['’]s?$")
_ZH_PREDICATE_END = frozenset("了过啦完好")       # 套餐上线了: 上线 is said of it, not a thing it qualifies


def is_measure(token: str) -> bool:
    """A time, frequency, number or measure word (a keyword of text/keywords.py)."""
    return bool(_NUMBER.match(token)) or token in _MEASURE_EN or bool(_MEASURE_ZH.match(token))


@functools.lru_cache(maxsize=1)
def _dictionary() -> str:
    path = jieba_dict_path()
    if not path:
        return ""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError:
        return ""


@functools.lru_cache(maxsize=4096)
def _noun(word: str) -> bool:
    """Is a Chinese word a noun by jieba's dictionary (its tag starts with n)?"""
    found = re.search(r"(?m)^" + re.escape(word) + r" \d+ (\w+)$", _dictionary())
    return bool(found) and found.group(1).startswith("n")


@functools.lru_cache(maxsize=4096)
def _english_noun(key: str, raw: str) -> bool:
    """Does an English word read as a noun: most of the Chinese words CC-CEDICT glosses it with are
    nouns by jieba's dictionary (thumbnail → 缩略图; not take → 取, 历时, …); a word neither knows is
    a noun unless it looks like a verb form (-s, -ed, -ing)."""
    found = lexicon.words_for(key)
    tagged = [_noun(w) for w in found] if _dictionary() else []
    if tagged:
        return 2 * sum(tagged) >= len(tagged)
    return not _VERB_FORM.search(raw.lower())


def _tokens(text: str) -> list:
    """``(key, raw)`` of a statement in order: English words stemmed, Chinese runs cut into words."""
    out = []
    for m in _EN_WORD.finditer(text):
        raw = m.group()
        if "\u4e00" <= raw[0] <= "\u9fff":
            out += [(w, w) for w, _f in get_segmenter().words(raw)]
        elif raw[0].isalpha():
            out.append((stem(_POSSESSIVE.sub("", raw).lower()), raw))
        else:
            out.append((raw, raw))
    return out


def _next(tokens: list, i: int) -> int | None:
    """The position of the word the word at ``i`` would qualify (after 的 or a possessive), or None."""
    raw = tokens[i][1]
    j = i + 1
    if j < len(tokens) and tokens[j][1] == "的" and not raw.isascii():
        j += 1
    return j if j < len(tokens) else None


def _noun_next(tokens: list, i: int, j: int) -> bool:
    """Does the word at ``j`` read as a noun the word at ``i`` qualifies ("nightly *backup*", "原套餐*权益*")?"""
    raw, (nxt_key, nxt) = tokens[i][1], tokens[j]
    if raw.isascii() and raw[0].isalpha():
        if _POSSESSIVE.search(raw) and raw[-1:] in "s'’" and raw[-2:] != "ss":
            return nxt[0].isalpha()                                  # "the settings page's theme toggle"
        return nxt.isascii() and nxt[0].isalpha() and len(nxt) > 2 and nxt_key not in _STATES and \
            nxt_key not in subject.PLAIN and _english_noun(nxt_key, nxt)
    after = tokens[j + 1][1] if j + 1 < len(tokens) else ""
    if "\u4e00" <= nxt[0] <= "\u9fff":
        # after 的 whatever comes is the thing qualified ("详情页的推荐栏"); else a noun ("原套餐权益")
        return nxt not in subject.PLAIN and (j > i + 1 or len(nxt) >= 2 and _noun(nxt)) and \
            not (after and after[0] in _ZH_PREDICATE_END)
    return nxt.isascii() and nxt[0].isalpha() and len(nxt) > 2 and nxt_key not in _STATES     # 的 lint job


def _qualifies_other(tokens: list, i: int, todo_words, depth: int = 0) -> bool:
    """Is the word at ``i`` the modifier of a thing the to-do does not name: the last noun of the run
    of nouns after it ("订单列表页的分页组件", "the settings page's theme toggle") — not "failed
    pg-backup *jobs*" for a to-do of jobs that fail?"""
    j = _next(tokens, i)
    if j is None or depth > 6 or not _noun_next(tokens, i, j):
        return False
    k = _next(tokens, j)
    if k is not None and _noun_next(tokens, j, k):
        return _qualifies_other(tokens, j, todo_words, depth + 1)
    return tokens[j][0] not in todo_words


def _names_its_thing(tokens: list, i: int, todo_words) -> bool:
    """Does a measure word at ``i`` qualify a word of the to-do that is what is said of ("the nightly
    *build* now runs in 12 minutes"), not a thing of its own?"""
    j = _next(tokens, i)
    return j is not None and tokens[j][0] in todo_words and not is_measure(tokens[j][0]) and \
        not _qualifies_other(tokens, j, todo_words)


def telling(todo_words: dict, statements, done_words, main=None) -> set:
    """``done_words`` (what the session reports done) without the to-do's words that tell nothing of
    what it is about (the module docstring): measure words, unless they qualify the to-do's own
    thing, and words of its main clause (``main``; all its words when not given) that every
    statement that holds them uses only to qualify another thing — a word of a later clause (what
    follows from the trouble: "续训后…会从头读数据") is no subject the report could mistake."""
    weak, measures = set(), set()
    cut = [_tokens(statement) for statement in statements]
    for token in todo_words:
        if token not in done_words:
            continue
        uses = [(tokens, i) for tokens in cut for i, (key, _raw) in enumerate(tokens) if key == token]
        if is_measure(token):
            if not any(_names_its_thing(tokens, i, todo_words) for tokens, i in uses):
                measures.add(token)
        elif (main is None or token in main) and uses and \
                all(_qualifies_other(tokens, i, todo_words) for tokens, i in uses):
            weak.add(token)
    # a measure word counts beside a word that tells the to-do's thing, never alone
    if not any(t in done_words and t not in weak and t not in measures and subject.real(t, w)
               for t, w in todo_words.items()):
        weak |= measures
    return set(done_words) - weak
