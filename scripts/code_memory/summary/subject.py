"""What an open to-do is about, as against where it is, and whether ONE thing a later session says
names it (summary/todos.py ``finished``; docs/summaries.md § To-dos).

A to-do names a place and a piece of work there: "商品下架以后缓存也还没清掉" is about clearing a
product's entry (下架, 清掉) in the cache (缓存); "The API reference doesn't cover the webhook
endpoints" is about the webhook endpoints of the API reference. A later session in the same place
says the place's words all the time — "缓存命中率的指标加好了", "Wrote the quickstart page of the
docs" — while doing other work. So:

* its **area words** are the words it shares with the project's other open to-dos (what several
  pieces of work have in common is where they are: 缓存 of "缓存的过期时间还是写死的" and
  "商品下架以后缓存也还没清掉") and the names of the files the session changed (chart of
  ``revenue_chart.ts``); its **distinguishing words** are the rest, without mere work and result
  words (add, fix, 改, 测试通过, …) — or all of them when nothing else is left;
* a **unit** is one thing the session says: one statement of work done, one sentence the person
  asked for, or one such request with one such statement (the person names the work, the report
  says it is done) — never the union of unrelated sentences;
* a clause that puts work off ("rebalance 误报那个先放一放", "leave the dead-letter handling for
  now") is neither asked for nor reported done (:func:`without_put_off`);
* a unit **names** the to-do when it holds :data:`MOST_SHARE` of the weight of the to-do's
  distinguishing words (or of its main clause's), or :data:`SUBJECT_SHARE` with
  :data:`SUBJECT_WORDS` of them, or says nothing but the to-do's words and one of them that is no
  place word ("接着弄中文文件名的问题") — unless it names **other work in the same place**: it lacks :data:`OTHER_SHARE` of them, holds a real word
  of its own that the person asked for this session (日期/排序 of "导出的日期列按年月日格式化" for
  "导出的 Excel 还没有表头"; install of "write the install section" for "no section on upgrading
  from v1"), and of the to-do it holds only words that say where the project's work is — its
  area words, the topic and files of the session the to-do came from, what two earlier sessions
  or more were about (导出 and Excel of "做一个订单导出 Excel 的功能") — or a word that only names a
  part (section, page, 部分).

Pure functions over the weighted words of text/keywords.py (other forms of a word: text/soft.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text import soft
from ..text.keywords import ACRONYM_WEIGHT, expand, stem, weights
from ..text.keywords import names as identifiers
from . import clauses as cl

SUBJECT_SHARE = 0.3     # of a to-do's distinguishing words' weight, held by one unit …
SUBJECT_WORDS = 2       # … with this many real words of them (or MOST_SHARE of their weight)
OTHER_SHARE = 0.3       # … a unit that lacks this share of them and asks for words of its own is other work
MOST_SHARE = 0.5        # of its distinguishing words' weight: one real word of them is enough

# verbs that name no work of their own, and words that report a result rather than name an object
PLAIN = frozenset({stem(w) for w in (
    "add update fix change implement handle improve finish complete remove create write wrote written adjust "
    "tweak make done pass passes passed green work works working now test tests build builds built run runs "
    "ran support wire hook set move put show shows get use keep").split()} | {
    "测试", "通过", "测试通过", "加好", "好了", "改好", "做好", "写好", "弄好", "完成", "现在", "已经", "改成",
    "加上", "支持", "修好", "搞定", "用例", "全过", "跑通"})
# words that name a part of something, not what it is
_PARTS = frozenset({stem(w) for w in "section page part chapter piece bit area side".split()} |
                   {"部分", "章节", "页面", "地方", "一块"})


# a clause that puts its work off: named, not asked for now ("rebalance 误报那个先放一放", "leave the
# export for now", "skip the retries until next sprint")
_SHELVED = re.compile(
    cl.PUT_OFF_ZH + r"|先放(?:下|一下)|先不(?:管|弄|做|改|动)|暂(?:时)?不(?:管|弄|做|改|动)|不急|以后再|回头再|改天再|下次再|"
    r"\bhold off\b|\b(?:put|leave|park|skip|set)\b[^,.;:]{0,30}?\b(?:aside|off|for now|until|for later)\b|"
    r"\b(?:later|next (?:time|week|sprint))\b|\bcan wait\b|不着急|等等再", re.I)


_AND_THEN = re.compile(r"\s+(?:and|then|and then)\s+|然后|再去|接着", re.I)


def without_put_off(sentence: str) -> str:
    """A sentence asked for or reported without its clauses that put work off ("rebalance 误报那个
    先放一放，我这周要弄 schema registry": only schema registry is asked for now; "leave the
    dead-letter handling for now and add a metrics endpoint": only the endpoint)."""
    parts = [p for c in cl.clauses(sentence) for p in _AND_THEN.split(c) if p and p.strip()]
    kept = [c for c in parts if not _SHELVED.search(c)]
    return " ".join(kept) if len(kept) < len(parts) else sentence


_JOINED = re.compile(r"[-_./]+")


def real(token: str, weight: float) -> bool:
    """A word that says what the work is — not a lone character, not an acronym alone."""
    return weight >= 1.0 and not (token.isascii() and weight == ACRONYM_WEIGHT)


def what_words(words: dict) -> dict:
    """Of weighted ``words``, those that say what the work is about: real words (:func:`real`) that
    are no mere work or result words (:data:`PLAIN`)."""
    return {t: w for t, w in words.items() if real(t, w) and t not in PLAIN}


def _telling(token: str, weight: float) -> bool:
    """A distinguishing word that tells the work from other work: any word but a lone character
    (an acronym too: the CSV of "update the CSV export" is not the PDF of another export)."""
    return weight >= 1.0


def _held(token: str, texts) -> bool:
    return soft.share(token, texts) > 0


def area(words: dict, others, files) -> set:
    """The words of a to-do (``words``) that say where it is: those of another open to-do of the
    project (``others``: their weighted words) or of ``files`` (the names of the changed files) —
    never an identifier or file name the to-do itself names (补 load_config 的测试 is about it)."""
    held = set(expand(files))
    for other in others:
        held |= expand(other)
    named = identifiers(words)
    return {token for token in words if token in held and token not in named}


def distinguishing(words: dict, where: set) -> dict:
    """What a to-do is about: its words without the area words and mere work and result words
    (all its words but those when nothing else is left)."""
    own = {t: w for t, w in words.items() if t not in PLAIN}
    return {t: w for t, w in own.items() if t not in where} or own or dict(words)


def _distinct(dicts) -> list:
    return list({tuple(d.items()): d for d in dicts if d}.values())


@dataclass
class Said:
    """What one session says, read once for all the open to-dos: its statements of work done and
    the sentences the person asked for, each with the words it holds (in any form); what the person
    asked for that is no word of work done (``requests``, ``wanted``: their words); the names of
    the files it changed."""

    said: list
    asked: list
    wanted: set
    files: set
    requests: list

    @classmethod
    def of(cls, said: list, asked: list, requests: list, files) -> "Said":
        """``requests``: the sentences ``asked`` that are no word of work done."""
        requests = [r for r in requests if r]
        return cls([(s, expand(s)) for s in _distinct(said)], [(a, expand(a)) for a in _distinct(asked)],
                   set().union(*requests), set(files), requests)

    def units(self, about) -> list:
        """``(unit, what it holds)`` of the things said: every statement of work done, every
        sentence asked for, and every sentence asked for that names what a to-do is about
        (``about``: those of its words) with every statement (the person names the work, the
        report says it is done) — never the union of unrelated sentences."""
        return self.said + self.asked + [({**a, **s}, held_a | held_s) for a, held_a in self.asked
                                         if any(_held(t, held_a) for t in about) for s, held_s in self.said]


def _own_words(unit: dict, words: dict) -> list:
    """The real words of ``unit`` that are not the to-do's (in any form) nor plain words."""
    mine = expand(words)
    return [t for t, w in unit.items()
            if real(t, w) and t not in PLAIN and not _held(t, mine) and not any(_held(m, {t}) for m in words)
            and not any(stem(part) in words for part in _JOINED.split(t) if part != t)]   # warmup-epochs


def unit_names(words: dict, spec: dict, unit: dict, wanted=frozenset(), where=frozenset(), held=None) -> bool:
    """Does one ``unit`` name the to-do (``words``; ``spec``: its distinguishing words), not other
    work in the same place? (``wanted``: the words the person asked for this session; ``where``:
    the words that say where the project's work is; ``held``: ``expand(unit)`` when known.)"""
    held = expand(unit) if held is None else held
    total = sum(spec.values())
    if total <= 0:
        return False
    found = [t for t in spec if _held(t, held)]
    share = sum(spec[t] * soft.share(t, held) for t in found) / total
    telling = [t for t in found if _telling(t, spec[t])]
    own = _own_words(unit, words)
    if not (share >= MOST_SHARE and telling or share >= SUBJECT_SHARE and len(telling) >= SUBJECT_WORDS or
            not own and any(t not in where for t in telling)):     # it says nothing but the to-do's words
        return False
    lacks = sum(w for t, w in spec.items() if _telling(t, w) and t not in found) / total
    if lacks < OTHER_SHARE or not any(t in wanted for t in own):
        return True
    return not all(t in where or t in _PARTS for t in found)


def project_area(places, ref: str) -> set:
    """The words that say where a to-do of session ``ref`` is, from what the project's earlier
    sessions were about (``places``: ``[(session id, text)]`` of their topics and files): the words
    of ``ref``'s own topic and files (the session was about 导出 Excel, its to-do "导出的 Excel 还没有
    表头" is about 表头) and those that two sessions or more name (a session that only asked about
    the to-do does not make its words a place)."""
    sessions: dict = {}
    for sid, text in places:
        sessions.setdefault(sid, set()).update(expand(weights(text)))
    out = set(sessions.get(ref, ()))
    seen: set = set()
    for held in sessions.values():
        out |= held & seen
        seen |= held
    return out


def named_by_one(words: dict, main: dict, others, place_words, session: Said, owner=frozenset()) -> bool | None:
    """Does one thing the ``session`` says (see :meth:`Said.units`) name this to-do (``words``; ``main``:
    the words of its main clause) by what it is about, not only by where it is? ``True`` when it
    does; ``False`` when nothing does, but the person asked for no other work either (what the
    session said together may still name it); ``None`` when nothing does and the person asked for
    other work: the to-do is not what the session did. ``others``: the weighted words of the other
    open to-dos of the same list; ``place_words``: the words that say where it is
    (:func:`project_area`); ``owner``: words that say where it is although the to-do names them — the
    thing it says lacks a part (merge.go of "merge.go has no tests for the reconnect path") and a file
    it names as the place of its work ("the CRS examples in docs/api/crs.rst …"; summary/guards.py)."""
    near = area(words, others, session.files) | (set(owner) & set(words))
    where = near | {t for t in words if _held(t, place_words)}
    specs = [distinguishing(words, near)] + ([distinguishing(main, near)] if main and main != words else [])
    if any(unit_names(words, spec, unit, session.wanted, where, held)
           for unit, held in session.units([t for t in words if t not in where]) for spec in specs):
        return True
    # no one thing names it: the union of what was said may still, unless the person asked for
    # other work — a request more about something else than about the to-do: as many words of its
    # own as the to-do's ("加个缓存命中率统计": 命中率, 统计 against 缓存), or words of its own and of
    # the to-do's only where it is ("compress the nightly backups" for "Nightly backups are never
    # pruned"); not "add the example env file" for "needs a sample .env file" (example against env,
    # file)
    mine = expand(words)
    for request in session.requests:
        own = _own_words(request, words)
        shared = [t for t, w in request.items() if real(t, w) and _held(t, mine)]
        if own and (len(own) >= len(shared) or all(t in where or _held(t, expand({w: 1 for w in where}))
                                                    for t in shared)):
            return None
    return False
