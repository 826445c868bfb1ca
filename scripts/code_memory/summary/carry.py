"""Which ``[ ]`` lines a session's report should NOT add (summary/todos.py capture, restated,
restates; docs/summaries.md § To-dos): every ``[ ]`` line of the brief should be one open piece of work.

* **not work at all** — a line that names no work (a lead that only announces a list, "几件事还没弄：",
  "A few things are still open:"), or whose only open part is an absence that spares work ("so
  there's no search server to host", "没有单独的服务要部署": nothing is missing — there is nothing to
  do), or a measured change, a result ("缺件的召回从 0.41 升到 0.73") (:func:`not_work`);
* **left as it was** — a line that only says its subject was not touched this time ("按钮被挡的问题这次
  没动", "the retry logic is unchanged") tells how an open to-do stands: it is that to-do, carried
  over, when the line's subject is mostly that to-do's words (:func:`left_as_it_was`);
* **a "not yet" answer** — asked about one open to-do ("token 的事换了吗", "did the restore test
  happen?"), a session that did no work answers "还没换，…还是引用你个人的变量" or "No — …, so it hasn't
  been run": a line of that answer that says the thing still stands as it was, or says it of "it",
  is how that to-do stands, not new work — unless the answer turns to something else ("不过…",
  "but …") or names a missing thing of its own ("Not yet — the export button isn't wired up")
  (:func:`answers_about`); and asked how to do one ("回滚那个怎么搞？"), the answer's open lines
  ("要开 CONFIG_…，自检通过再调用 …") are how to do it (:func:`asks_how`).

Pure functions over strings and the weighted words of text/keywords.py.
"""

from __future__ import annotations

import re

from ..text.keywords import weights
from . import clauses as cl
from . import guards

# ---------------------------------------------------------------------------------------------
# not work at all

# a word that only counts or names "things" — a lead's words, never work: 几件事, 两点, a few things
_COUNT_ONLY = re.compile(
    r"^(?:[几一两二三四五六七八九十]|\d+)?(?:件事?情?|个|样|点|项|处|块|件事)(?:事情?|问题|东西|地方)?$|^(?:事情?|问题|东西|地方)$|"
    r"^(?:few|coupl|sever|some|thing|item|point|piec|bit|stuff|open|remain|left|one|two|three|four|five|more|other)$|"
    r"^(?:几个|解决|处理|完成|搞定|没做|没弄|要做|待做|do|done|fix|handl|solv|address|finish)$",      # … and how they stand
    re.I)
# an absence that spares work: "there's no search server to host", "no database to migrate" — the
# noun is what the verb would act on, so the verb ends the clause; "no test to cover the retry path"
# (the verb has an object of its own) is missing work
_SPARED_EN = re.compile(r"\b(?:no|nothing)\b(?:\s+[\w-]+){0,4}?\s+to\s+(?:[a-z]+)\s*(?:up|on|for|with|about)?\s*[.!]?$",
                        re.I)
_SPARED_ZH = re.compile(r"没有(?:什么|任何|额外的?|单独的?|专门的?)?[^，。；,;]{1,12}(?:要|需要|得)(?:[\u4e00-\u9fff]{1,3})[。！]?$")
_NOTHING_TO_DO = re.compile(r"\bnothing (?:else )?to (?:do|fix|change|add|clean up)\b|没(?:有)?什么(?:要|需要|可以)(?:做|改|修|清理)的?", re.I)


# a measured change, a result: "召回从 0.41 升到 0.73", "p50 went from 40 ms to 12 ms"
_MEASURED = re.compile(r"从\s*[\d.]+\S*\s*(?:升|涨|提|降|掉|减|增|变|缩|跌)[高低少多短长]?(?:到|至|为)\s*[\d.]+|"
                       r"\b(?:went|rose|dropped|fell|improved|increased|decreased|grew|climbed|shrank|came)\s+(?:\w+\s+)?"
                       r"from\s+[\d.]+\S*\s+(?:\w+\s+)?(?:to|down to|up to)\s+[\d.]+", re.I)


def _counts_only(text: str) -> bool:
    """Does ``text`` name nothing but a count of things ("几件事还没弄", "A few things are still open")?"""
    words = weights(cl.main_text(text))
    return bool(words) and all(_COUNT_ONLY.match(w) for w in words)


def _spares_work(clause: str) -> bool:
    clause = cl.strip_connective(clause.strip()).strip()
    return bool(_SPARED_EN.search(clause) or _SPARED_ZH.search(clause) or _NOTHING_TO_DO.search(clause))


def not_work(text: str) -> bool:
    """Is a to-do line no open work at all: it names nothing but a count of things (a lead that
    announces the list under it: "几件事还没弄", "Two things are still open"), or every clause of it
    that leaves anything open is an absence that spares work ("Search uses Pagefind, which indexes at
    build time, so there's no search server to host") or a measured change ("缺件的召回从 0.41 升到
    0.73": a result)?"""
    if _counts_only(text):
        return True
    parts = cl.clauses(text) or [text]
    open_parts = [c for c in parts if cl.is_open(c, obligations=False) or cl.lacking(c) or cl.not_yet(c)]
    if open_parts and all(_MEASURED.search(c) for c in open_parts):
        return True               # "缺件的召回从 0.41 升到 0.73": a result, whatever word it holds
    return any(_spares_work(c) for c in parts) and all(_spares_work(c) for c in open_parts)


# an item that only says "do it too", its object left out: "…，以后可以考虑也迁过来", "回头也改一下"
_DO_IT_TOO = re.compile(r"^(?:以后|之后|回头|后面|下次|有空|可以|考虑|最好|再|还)*也[\u4e00-\u9fff]{1,2}"
                        r"(?:过来|过去|进来|进去|上|掉|一下|起来)?[吧。.！!]?$")


def joined(items: list, weigh) -> list:
    """The open items of one sentence with an item that names nothing but "do it too" ("以后可以考虑也
    迁过来" after "order-api 还是老的滚动发布") put back onto the item before it: it is that work, not a
    second piece (``weigh``: a line's weighted words)."""
    out: list = []
    for item in items:
        if out and _DO_IT_TOO.match(item.strip()) and len(weigh(item)) <= 1:
            out[-1] = out[-1] + "，" + item.strip()
        else:
            out.append(item)
    return out


# ---------------------------------------------------------------------------------------------
# left as it was


def left_as_it_was(text: str) -> bool:
    """Does the line only say that its subject was left as it was ("推镜像的凭据这次没动，还是原来那个",
    "缩略图那段逻辑原封不动", "the reconnect handling is unchanged") — it asks for nothing and names
    nothing missing?"""
    if not guards.untouched(text):
        return False
    rest = [c for c in cl.clauses(text) if c.strip() and not guards.untouched(c)]
    return not any(cl.lacked_objects(c) or cl.deferred(c, obligations=True) for c in rest)


# ---------------------------------------------------------------------------------------------
# a "not yet" answer

# the answer's first words say "not yet": "No —", "Not yet,", "还没有，", "还没换，", "没呢，"
_NOT_YET_OPENING = re.compile(r"^\s*(?:not yet|no|nope|还没有?|没有|没呢|还没呢|还没[\u4e00-\u9fff]{1,2}|没[\u4e00-\u9fff]{1,2}呢)"
                              r"\s*(?:[,，:：]|\s[—–-]{1,2}|——|—)\s*", re.I)
# … and goes on about something else
_TURNS = re.compile(r"^(?:不过|但是|但|可是|另外|还有|除此之外|but|however|though|also|besides)(?![a-z])", re.I)
# a state that goes on: "still points at the VM", "还是直接 append", "目前只有默认的几条"
_GOES_ON = re.compile(r"\bstill\b|还是|仍然|仍是|依然|依旧|照旧|(?:目前|现在)?(?:只有|还只)|\bonly\b", re.I)
_POINTS_BACK = re.compile(r"^(?:so |and |but )?(?:it|this|that|they|these|those)\b|^(?:所以|因此)?(?:它|这个|那个|这块|那块)",
                          re.I)


# a question without its mark: "can we kill the VM", "is the mirror up yet"
_ASKS_EN = re.compile(r"^\s*(?:can|could|may|shall|should|do|does|did|is|are|was|were|has|have|will|would)\s+"
                      r"(?:we|you|i|it|they|this|that|these|those|there|the|our|my)\b(?!.*[.!]\s*$)", re.I)


def asks(sentence: str) -> bool:
    """Is ``sentence`` a question (also without its mark: "can we kill the VM", "配了吗")?"""
    return cl.is_question(sentence) or bool(_ASKS_EN.match(sentence))


# a question how to do something: "回滚那个怎么搞？", "签名校验要怎么做", "how would we do the retries?"
_HOW = re.compile(r"怎么(?:搞|做|弄|办|改|处理|实现|加|接|配)|如何(?:做|实现|处理|改|加)?|咋(?:搞|弄|办)|"
                  r"\bhow (?:do|would|should|can|could|to|will)\b|\bwhat would it take\b", re.I)


def asks_how(sentence: str) -> bool:
    """Does ``sentence`` ask how to do the work it names ("回滚那个怎么搞？", "how would we add retries?")
    — then, in a session that does no work, the answer's open lines are how to do that work, not new work."""
    return asks(sentence) and bool(_HOW.search(sentence))


def answers_about(todo: str, answer: str) -> bool:
    """Is the to-do line ``todo`` of a session that did no work how the open to-do the person asked
    about stands: it comes from the first sentence of the ``answer``, which opens with "not yet" and
    does not turn to something else, and the line says a state goes on ("the CDN origin still points at
    the VM", "transform 里现在还是直接 append") or says its "not yet" of "it" ("…, so it hasn't been
    run") — not a missing thing of its own ("Not yet — the export button isn't wired up")?"""
    first = next(iter(cl.sentences(answer or "")), "")
    opening = _NOT_YET_OPENING.match(first)
    if not opening:
        return False
    if _TURNS.match(first[opening.end():].strip()) or cl.one_line(todo)[:20] not in cl.one_line(first):
        return False
    parts = [cl.strip_connective(c.strip()) for c in cl.clauses(todo) if c.strip()]
    if any(cl.lacked_objects(c) for c in parts):
        return False
    return any(_GOES_ON.search(c) for c in parts) or \
        any(_POINTS_BACK.match(c) and (cl.not_yet(c) or cl.negated(c)) for c in parts)
