"""To-dos without an LLM: what a session leaves open, and which earlier to-dos it finished
(docs/summaries.md § To-dos).

Capture — from the final assistant message and from the person's own words:
  * a lead and its items: ``下一步：a；b``, ``Next steps:`` and the list under it, ``TODO: …``,
    unchecked ``- [ ]`` boxes;
  * any sentence that leaves work open (summary/clauses.py): not done yet (还没支持, isn't migrated,
    haven't hooked …, negation scoped to its clause), deferred or asked for (回头…, 上线前要先…,
    有空的话…, next time, should, at some point, please check …), or — after a session that did
    work — a deficiency stated as a state (missing, untested, flaky, hard-coded, still <the old
    thing>, 还是…, 目前只…, 写死, 看不清; or said through structure: has no / there's no / 没有 …,
    doesn't …, only runs on …, silently dropped, 会丢 …; clauses.lacking), and the items after a
    lead-in that announces open work ("Known gaps:", "Two caveats:", "还有两件事没弄：", or a few words
    before a colon that are open and name no work: "Still open:", "还没弄的：") — kept whole, with its subject
    (``负数金额还没支持，后面需要补上``), a marker-only prefix ("Not done yet:") dropped, a pronoun
    kept with the clause it points back to; over ``TODO_CHARS`` the reason and consequence clauses
    go first. Conditions, questions, intended omissions ("故意没改"), lines with no content
    left once the markers are removed ("Not done yet."), a request to the person
    (clauses.for_the_person) and — for the state rules — a sentence that tells a state rather than
    leaves it open (a pitfall written down, an agreed limit, the past, a fix: clauses.told) are not
    to-dos.
  * after a session that did work, a plain state the sentence's shape makes a defect — an item of a
    list introduced as problems, a bad consequence, the old thing still in place, a stopgap, a scope
    tried only so far, an emphatic absence — and a reminder the report says again ("As you asked: …")
    (summary/defects.py);
  * the person's deferrals (下次 / 有空 / 上线前要 / 提醒我 / remember to / remind me to / later …) in their requests,
    unless the session's final message reports them done.

  A sentence listing several pieces of open work ("A 还没加，B 也得配一下", "A has no limit yet,
  and B isn't translated") gives one to-do each (clauses.open_items).

  A line that says an earlier open to-do again — the same work in other words, or opening with what
  the to-do is about and saying how it stands ("时区这块我看了一下，放到下次吧") — is that to-do, in the
  words it had (:func:`restates`, :func:`carried_over`); two pieces of work in one place stay two.

Close — an earlier open to-do is finished by a later session when (reasons, purposes and marker
words are left out of the comparison, and what only frames the to-do: a lead that counts it
"还缺两样：", the event it is due before "正式迁移之前还得…"; text/keywords.py weighs the words, with
Snowball's English stems, and text/soft.py also finds a word in another form, 格式化 for 格式; its
*main clause* is its first clause that names work):
  1. what the session reports done covers it — the completions the person states ("压测我这边已经
     跑过了", or that something was arranged: "停机时间跟 DBA 定了"); when the session did work
     (changed files or ran a command that passed), also the assistant's sentences that state
     completion and leave nothing open and the plain statements
     of a working session's final report — most of its words, or fewer when every identifier and
     file name it mentions is there; for the best match of the open to-dos only, a good share (two
     real words at least) or all of its main clause and some of the rest, of the words that say
     what it is about (no measure word alone, no word that qualifies another thing: summary/shared.py);
     never a question
     (even without its mark: 配了吗) nor a sentence that says the trouble goes on (还是乱码, still);
  2. the person asked for it (a request sentence that is not itself put off names part of the
     same work, covers its main clause, or is mostly the to-do's words — or names nothing but its
     work, "接着弄 emoji 的问题", and the report names half its main clause, or names every word of a
     later clause that says what is missing: "Add LAN discovery" for "the host's IP has to be typed
     in by hand — there's no LAN discovery") and the session did the
     work: it changed files and its last command did not fail — of several to-dos the request
     could mean, only the one it names most closely (and those nearly as close);
  3. it names files, the session changed every one of them, and a command passed after the change —
     unless the person asked for other work and the session speaks of nothing it is about beyond
     its files;
  4. the session is a bare "continue", did the work, and its report names part of the to-do — any
     to-do of the session it continues, else the best-matching open one;
  5. the person says it is finished and names it by what it is about ("分区那个我自己改了", "The index
     is sorted"): the first clause of their finished statement names only its words or where the
     project's work is, and one word of it that no other open to-do holds (:func:`_own_word`);
  6. the person accepts work the assistant offered or proposed ("要我现在加上吗？" — "加吧"; the last
     session's "…你确认了我就写" and this one's first request "可以，写吧"): the offer, with what that
     session was asked, is a request of theirs (2) — only a plain go-ahead (progress.go_ahead);
  7. a "continue" (or a request to finish: "把这个方案做完") takes up the work the session before left
     failing or half done: that session's request or the work it left failing or started names it,
     this session changed that session's file again and a command passed after it
     (after a session that changed nothing, the last one that did, when it left work of its own open;
     after one that only asked about a to-do, that to-do, when a file of its own session is changed again);
  8. the to-do names a bad state (hard-coded, only X, a state word with an opposite, not yet tested)
     and the session says the same thing is now the opposite (summary/reversal.py);
  a change reported as no longer happening ("不会再算两次", "no longer drops them") is work done;
  never when the session lists it as open again (then it is carried over, not finished); and in
  1, 2 and 4's best match only when ONE thing the session says (a statement, a request, or a request with a
  statement) names what the to-do is about rather than where it is — or, when none does, the person
  asked for no other work (summary/subject.py). Last, any close but 5 is rejected when the session
  says the to-do's subject was left as it was, only restates a scope the to-do is limited to, or
  names a sibling by the to-do's head word with another modifier (summary/guards.py); and any close,
  5 too, when the report says part of its work is done and another part open. File evidence, a
  "continue" of its own session and the unfinished work a "continue" takes up (but after a question
  about it or a light session) need a report that names the to-do or names no other work, and a
  path word is never what the session said about it (summary/guards.py).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..text import soft
from ..text.keywords import acronyms, coverage, covers, expand, names, stem, weights
from ..text.similarity import is_near_duplicate
from . import carry, defects, guards, reversal, subject, synonyms
from . import clauses as cl
from . import progress as pg
from .shared import telling as telling_words

TODO_CHARS = 160
LEFT_CHARS = 20           # what is left of asked work done in part, added to its to-do when this much room is left
MAX_TODOS = 6
DONE_SHARE = 0.6          # of a to-do's weight found in what the session reports done
NAMED_SHARE = 0.45        # … when every identifier and file the to-do names is in it
ASKED_MIN = 0.25          # … in what the person asked for (the session did work) …
ASKED_SHARE = 0.4         # … and in both together; of several such to-dos, the best and those
ASKED_MARGIN = 0.75       # within this share of it
CONTINUE_SHARE = 0.3      # … in the report of a bare "continue" of its own session
HEAD_SHARE = 0.75         # of its main clause's weight in what the person asked for (and in both)
REQUEST_SHARE = 0.5       # of a request's weight in the to-do (the request names this work) …
REQUEST_WORDS = 2         # … with at least this many of the request's words
REPORTED_SHARE = 0.45     # … in what the session reports done, for the best match of the open to-dos
NAMED_REPORTED_SHARE = 0.35  # … when one thing the session says names what it is about (summary/subject.py)
REPORTED_WORDS = 2        # … with at least this many of its words there
REPORTED_HEAD = 0.3       # … or its whole main clause there and this share of all its words
ONLY_REQUEST_SHARE = 0.7  # of a request's weight in the to-do: the request names this work only (and
                          # REPORTED_SHARE of its main clause is in what the session reports done)
ASKED_ABOUT_SHARE = 0.5   # of a question's words in an open to-do: the person asks about it
OWN_WORD_WEIGHT = 0.9     # a word of the to-do the person's word of work finished names it by (分区, 流式)

SUBJECT_WORDS = 2         # words of a to-do, beyond its acronyms and work verbs, that say its subject
_GENERIC_VERBS = "add update fix change implement handle improve finish complete remove create write adjust tweak".split()
_WORK_VERBS = frozenset(stem(w) for w in _GENERIC_VERBS)
# a request that starts with its verb asks for work ("retry bounced sends", "add retries for failed
# sends"): its participles (bounced, failed) report nothing done
_IMPERATIVE = re.compile(r"^\s*(?:please\s+)?(?:" + "|".join(_GENERIC_VERBS + (
    "make retry move rename refactor clean switch use run set try put check convert replace support drop delete "
    "split merge wire hook migrate cache limit log send show hide let get go do keep start stop").split()) + r")\b", re.I)
_LEAD = re.compile(
    r"^(?:\*\*)?(?:(?:现在|目前|眼下|暂时|另外|此外)(?=还|有|剩|[一两三四几\d]))?(?:下一步|接下来|后续(?:工作)?|待办(?:事项)?|还需要|遗留|TODO|to-?dos?|next(?: steps?| up)?|"
    r"remaining(?: work)?|still to do|left to do|follow[- ]?ups?|"
    r"(?:(?:one|two|three|four|a few|some|\d) )?(?:more |other )?(?:things?|items?|pieces?|bits?|gaps?) "
    r"(?:remain|are left|left|still open|still to do|to do)|"
    r"(?:(?:one|two|three|four|a few|some|several|\d) )?(?:known |open |remaining |outstanding )?(?:gaps?|loose ends?)|"
    r"(?:known|open|remaining|outstanding|unresolved) (?:issues?|problems?|items?|points?|tasks?|threads?)|"
    r"(?:(?:one|two|three|four|a few|some|several|\d) )?(?:known )?(?:caveats?|limitations?|shortcomings?)|"
    r"(?:[一两三四几]|\d)个(?:问题|限制|不足)|"
    r"(?:还|另外)?有(?:[一两三四几]|\d)(?:件事?|个问题|个地方|处|点|项|样)(?:还)?(?:没|未|要|待|得)[\u4e00-\u9fff]{0,2}|"
    r"还有(?:[一两三四几]|\d)(?:件事|个问题|个地方|处|点|项|样)|还(?:缺|差)(?:[一两三四几]|\d)?(?:件事|样|点|项|处|个)?|"
    r"(?:已知|遗留|未解决|没解决)的?问题|还?剩(?:下|余)?的?(?:[一两三四几]|\d)?(?:件事|个问题|项|点|处|样)?)"
    r"(?:\*\*)?"
    r"\s*(?:(?:要做的|需要做的|的工作)?(?:是|有|要)|is|are)?\s*(?:[:：]\s*|$)", re.I)
_LEAD_NEEDS_COLON = re.compile(r"^(?:next|to-?dos?)\b", re.I)
_HEADING = re.compile(r"^\s*#{1,6}\s+")
_CHECKBOX = re.compile(r"^\s*[-*]\s*\[ \]\s*(.+)$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)、])\s+(.+)$")
_ITEMS = re.compile(r"[；;]|(?:^|\s)\(?\d+[.)、]\s+|\s*[①②③④⑤⑥]\s*|,?\s+[—–]{1,2}\s+and\s+|,\s+and\s+|，以及|，还有")
# a lead that is itself open and says nothing else: "Still open:", "Not done:", "还没弄的：", "没来得及做的："
_OPEN_LEAD = re.compile(r"^(?P<lead>[^:：\n]{2,30}?)\s*[:：]\s*")
_LEAD_WORDS = 6           # … at most this many words (or twice as many CJK characters), none but state words
_STATE_WORD = re.compile(r"\b(?:open|pending|missing|broken|left out|[a-z]+ed|things?|items?|bits|parts|pieces|stuff)\b", re.I)
_NOT_DONE_LEAD = re.compile(r"^(?:还|暂时|目前|这次)?(?:没|未)(?!有?(?:" + cl.TROUBLE_ZH + r"))有?[\u4e00-\u9fff]{1,4}的$")  # "没做的："
_DEFERRAL = re.compile(
    rf"下次|下回|以后|之后|回头|改天|有空|得空|抽空|找时间|{cl.BEFORE_EVENT_ZH}|记得|别忘|不要忘|"
    rf"{cl.PUT_OFF_ZH}|{cl.PUT_OFF_EN}|"
    r"next time|" + cl.AFTER_A_SPAN + r"later|eventually|at some point|remember to|remind (?:me|us)|提醒(?:一下)?(?:我|我们)|don't forget|"
    r"before (?:we|you) (?:deploy|release|ship|merge)|"
    r"when (?:we|you) (?:have|get) (?:time|a chance)", re.I)
_ONLY_PUT_OFF = re.compile(r"再说|再议|再看看?|放着|放一放")       # "回头再说": put off, names nothing
_PRONOUN_START = re.compile(r"^(?:they|it|this|that|these|those|它们?|这个?|那个?|其)\b|^(?:它|这|那)", re.I)
_PREFIX = re.compile(r"^(.{1,40}?)[:：]\s*(.+)$")
_POINTING = re.compile(r"\b(?:it|this|that|them|these|those)\b|这个|那个|它|这块|这部分", re.I)
_NAME_WORDS = 5           # an item of at most this many words is a name, not a sentence
# a part that goes on with a list of open work ("…；还有 B", "…; also B")
_CONTINUES_LIST = re.compile(r"^\s*(?:还有|另外|以及|also|plus)(?![a-z])", re.I)
# an answer word before the work ("Not yet — …", "No, I haven't …", "还没，…")
_ANSWER = re.compile(r"^(?:not yet|no|nope|yes|yeah|还没有?|没有|没呢|还没呢|对|是的)\s*(?:[,，:：]|\s[—–-]{1,2}|——)\s*(?=\S)",
                     re.I)
# a "not yet" answer that goes on about the same work ("还没，目前只有…", "Not yet — it still …"), not
# one that turns to something else ("还没，不过…", "Not yet, but …")
_NOT_YET_ANSWER = re.compile(r"^(?:not yet|no|nope|还没有?|没有|没呢|还没呢)\s*(?:[,，:：]|\s[—–-]{1,2}|——)\s*"
                             r"(?!(?:不过|但是|但|可是|另外|还有|but|however|though|also)(?![a-z]))", re.I)
_WORK_REQUEST = re.compile(r"^\s*(?:继续|接着|go on|continue|keep going|carry on|proceed)[\s。.!！,，~]*$", re.I)
_RESUMING = re.compile(r"^\s*(?:继续|接着)|^\s*(?:continue|keep going|carry on|go on)(?: with| on)?\b", re.I)
# a request to finish work begun ("把 A/B 双分区的方案做完", "finish the export", "wrap it up"): after a
# session that left work unfinished, it takes that work up like "continue"
_FINISH_REQUEST = re.compile(r"(?:做|弄|写|改|搞|调)完|收尾|\bfinish(?:es)?\b|\bwrap (?:it |this |that |the \w+ )?up\b", re.I)


def _finish_request(request: str) -> bool:
    """Does the person ask to finish work begun ("把 A/B 双分区的方案做完") — not ask whether it is
    finished ("做完了吗"), nor put it off ("下周再做完")?"""
    return bool(_FINISH_REQUEST.search(request)) and not (
        cl.is_question(request) or _ASKS.search(request) or _PUT_OFF.search(request) or _DEFERRAL.search(request))


# the trouble goes on, the work carries on: a sentence that reports nothing done
_TROUBLE_GOES_ON = re.compile(r"还是|仍然|依然|依旧|照样|(?:接着|继续|再)(?:查|看|弄|改|做|修|调)|"
                      r"\bstill\b|\bpick (?:it|this|that) up\b|\bcontinue (?:tomorrow|later|next)", re.I)
# a question without its question mark (告警规则配了吗, 加了没有): asks, reports nothing
_ASKS = re.compile(r"(?:吗|么|呢|没有?)\s*[。.!！~]*$")
# the person's word that something was arranged (停机时间跟 DBA 定了, 约好了, 敲定): a completion in
# Chinese that the aspect markers of summary/clauses.py do not carry; not after a negation (还没定)
_SETTLED_ZH = re.compile(r"(?<![没未不别])(?:定|约|谈|商量|订)(?:好了?|妥了?|了)|敲定|确定了|说定了")
# … unless it is put off again: 下周再约, 推到下个迭代, 放到以后
_PUT_OFF = re.compile(r"再|下个?(?:迭代|版本|sprint|月)|下周(?![一二三四五六日天末])|推迟|延后|顺延|[挪推排放]到|以后|回头|改天", re.I)


def content(text: str) -> dict:
    """The weighted words of the work a line names (its main clause, markers removed)."""
    return weights(cl.main_text(text))


def head(text: str) -> dict:
    """The weighted words of a line's first clause that names work ("Retries aren't done yet" of
    "Retries aren't done yet: a failed delivery is simply dropped"; "readiness probe 没配" of
    "还缺两样：readiness probe 没配，…" — a lead that only counts the work is no clause of it) — or,
    when that clause only tells the trouble and a later one says what is not done yet, that one
    ("分批写入还没做" of "超过 10 万行会超时，分批写入还没做"; "the cache isn't there yet" of "p99 is
    800 ms, the cache isn't there yet"), unless it names nothing real of its own ("DDP 还没接")."""
    first = None
    for clause in cl.clauses(_unframed(text)):
        if cl.is_rationale(clause):
            continue
        words = content(clause)
        if not words:
            continue
        if first is None:
            if cl.is_open(clause, obligations=False) or cl.negated(clause):
                return words          # it names the undone work itself ("限流没加，压测也没做")
            first = words
        elif cl.not_yet(clause) and any(_real(t, w) for t, w in words.items()):
            return words
    return first or {}


# what frames a to-do without naming its work: a lead that only counts it ("还缺两样：", "Two gaps:")
# and the event it is due before ("正式迁移之前还得…", "Before the next release someone has to …")
_COUNT_LEAD = re.compile(
    r"^\s*(?:还缺|还差|还有|还剩|剩下|剩余|另有)?\s*(?:[一两二三四五六七八九十几]|\d+)\s*(?:样|件|个|点|处|项|块)"
    r"(?:事情?|问题|东西|地方|工作)?(?:没做|要做|待做|没完成|没弄)?\s*[:：]\s*|"
    r"^\s*(?:(?:one|two|three|four|five|a few|some|\d+) )(?:more |other |open )?"
    r"(?:things?|gaps?|items?|issues?|problems?|pieces?|bits?)(?: (?:remain|are left|left|missing|still open|to do))?"
    r"\s*[:：]\s*", re.I)
_DUE_BEFORE = re.compile(
    r"(?:^|(?<=[，,\s]))(?:[\u4e00-\u9fff]{1,6}?(?:之前|以前)|(?:上线|发版|发布|合并|部署|迁移|提测|交付|切换)前)"
    r"(?=\s*(?:(?:还|也)?(?:要|得|需要|先|记得|务必|一定|必须)|[，,]))|"
    r"\bbefore (?:the |we |you |it )?(?:next |first )?(?:release|deploy\w*|launch\w*|merg\w*|ship\w*|"
    r"go(?:ing)?[- ]live|roll\w* out)\b,?", re.I)


def _unframed(text: str) -> str:
    """``text`` without what frames it (:data:`_COUNT_LEAD`, :data:`_DUE_BEFORE`): the work itself."""
    return _DUE_BEFORE.sub(" ", _COUNT_LEAD.sub("", text, count=1)).strip() or text


def work(text: str) -> dict:
    """The weighted words of the work an open to-do names, for telling whether it was done: its
    main clause (:func:`content`) without the lead that counts it or the event it is due before."""
    return content(_unframed(text))


_real = subject.real     # a word that says what the work is, not a lone character nor an acronym alone


def _found(words: dict, large) -> int:
    """How many of ``words`` that are real words (:func:`_real`) ``large`` holds, in any form (格式化
    holds 格式: text/soft.py)."""
    return soft.found(words, large, _real)


# ---------------------------------------------------------------------------------------------
# capture


def _shorten(text: str, only_open: bool = False) -> str:
    """An open sentence as a to-do line: connectives, a marker-only prefix and leading clauses
    that report work done dropped (``only_open``: every clause that is not open, except the one
    before an open clause with no content of its own — "分表，以后再说"); over TODO_CHARS, the
    clauses that are neither the subject nor open are left out."""
    text = cl.strip_connective(cl.one_line(text)).strip(" -*").rstrip("。.!！;；")
    text = _ANSWER.sub("", text)
    prefix = _PREFIX.match(text)
    if prefix and not content(prefix.group(1)):
        text = prefix.group(2)
    parts = cl.clauses(text)
    joiner = "，" if cl.is_cjk(text) else " — "
    if only_open:
        kept: list = []
        for i, clause in enumerate(parts):
            if cl.is_open(clause, obligations=False):
                if i and not content(clause) and parts[i - 1] not in kept:
                    kept.append(parts[i - 1])
                kept.append(clause)
        text = joiner.join(kept) or text
    else:
        first = 0
        while first < len(parts) - 1 and cl.reports_done(parts[first]) and \
                not (defects.tried_only(parts[first]) and not cl.is_open(parts[first + 1])) and \
                not _PRONOUN_START.match(cl.strip_connective(parts[first + 1])):     # "they" needs it
            first += 1
        if first:
            text = cl.strip_connective(text[text.find(parts[first]):])
    if len(text) > TODO_CHARS:
        parts = cl.clauses(text)
        text = joiner.join(c for i, c in enumerate(parts) if i == 0 or cl.is_open(c))
    return cl.cut(text, TODO_CHARS)


def _points_back(part: str) -> bool:
    """Does a part name its work only through what was said before it: it starts with a pronoun
    ("It currently only covers …"), or a pronoun is nearly all it names ("I'll pick it up next
    session"), or it names almost nothing ("明天接着查")?"""
    part = cl.strip_connective(part)
    words = content(part)
    if head_subject(part)[1]:
        return False              # "暗色模式的问题接下来把它补上": "它" is the topic it opens with
    return bool(_PRONOUN_START.match(part)) or sum(words.values()) < 2 or \
        (_POINTING.search(part) is not None and len(words) <= 2)


def _items(rest: str) -> list:
    """The items after a lead, one each: split at ``；``, numbers, ", and"; a list of short English
    names at its commas ("the CLI help text, the changelog entry")."""
    out = []
    for item in (cl.strip_connective(p.strip(" ，,。.、")) for p in _ITEMS.split(rest) if p and p.strip(" ，,。.、")):
        names = item.split(", ")
        out += names if item.isascii() and all(len(n.split()) <= _NAME_WORDS for n in names) else [item]
    return out


def _open_parts(sentence: str, obligations: bool, before: str = "") -> list:
    """The to-do lines of one full sentence (its ``；``-parts that leave work open; after a session
    that did work, also a deficiency stated as a state — clauses.lacking — and a part that goes on
    with the list of an open one: "…应该按需加载；还有深色模式下折线图的颜色看不清"); ``before``: the
    sentence before it, which a part that starts with a pronoun points back to."""
    if cl.for_the_person(sentence) or cl.explains(sentence):
        return []
    states = obligations and not cl.told(sentence)
    parts = cl.sentences(sentence, clauses=True)
    if before and parts and _points_back(parts[0]) and len(before) + len(sentence) < TODO_CHARS:   # room for both
        parts.insert(0, before.rstrip("。.!！"))
    out, last = [], []           # last: the lines of the part before, when it left work open
    for i, part in enumerate(parts):
        goes_on = bool(last) and obligations and _CONTINUES_LIST.match(part) and not cl.completed(part) and \
            not cl.is_question(part) and content(part)
        if not (cl.open_sentence(part, obligations, states=states) or goes_on or
                (states and defects.stated_defect(part))):       # a defect by its shape (summary/defects.py)
            last = []
            continue
        if i and _points_back(part):
            part = parts[i - 1].rstrip("；;。.") + "; " + part        # "they ought to …": keep what "they" is
            del out[len(out) - len(last):]                         # … once, not also on its own
        last = [_shorten(item) for item in carry.joined(cl.open_items(part, states=states), content)]   # "A …, and B …"
        out += last
    return out


def _open_lead(sentence: str):
    """A lead that is open itself and names no work: a few words before a colon that are not done yet
    or put off ("Still open:", "Not done:", "还没弄的：")."""
    lead = _OPEN_LEAD.match(sentence)
    if not lead:
        return None
    text = lead.group("lead").strip()
    short = len(text) <= 2 * _LEAD_WORDS if cl.is_cjk(text) else len(text.split()) <= _LEAD_WORDS
    if _NOT_DONE_LEAD.match(text):
        return lead
    subject = content(_STATE_WORD.sub(" ", text))         # "Retries aren't done yet:" names its work
    is_open = cl.is_open(text, obligations=False) or re.search(r"\bleft out\b", text, re.I)   # "A few things I left out:"
    return lead if short and not subject and is_open and not cl.is_question(text) else None


def _tells(item: str) -> bool:
    """An item under a lead that tells rather than leaves work open: intended, agreed, a pitfall
    written down, a request to the person (clauses.told, clauses.for_the_person)."""
    return cl.told(item) or cl.for_the_person(item)


def from_message(message: str, worked: bool = True) -> list:
    """The to-dos a message leaves (see the module docstring), in order. After a session that
    changed nothing (``worked`` false) "you should …" is advice, not a to-do: only what is not done
    yet or deferred counts."""
    todos: list = []
    collecting = False
    for line in (message or "").split("\n"):
        line = _HEADING.sub("", line)                 # "## Known issues" leads like "Known issues:"
        box = _CHECKBOX.match(line)
        if box:
            todos.append(box.group(1))
            continue
        item = _LIST_ITEM.match(line)
        if collecting and item and not _LEAD.match(item.group(1).strip()):
            todos += [item.group(1)] if collecting is True else _listed(item.group(1), collecting, worked)
            continue
        collecting = False
        before = ""
        for sentence in cl.sentences(line, clauses=False):
            lead = _LEAD.match(sentence) or _open_lead(sentence)
            if lead and (":" in lead.group(0) or "：" in lead.group(0) or not _LEAD_NEEDS_COLON.match(sentence)):
                rest = sentence[lead.end():].strip()
                todos += [item for item in _items(rest) if not _tells(item)]
                collecting = not rest
                continue
            lead, keeps = defects.lead(sentence)     # "A few rough edges:", "As you asked:", "Fixed along the way:"
            if lead and (worked or keeps is not defects.problem_item):      # a reminder holds after any session
                rest = sentence[lead.end():].strip()
                todos += [line for item in defects.items(rest) for line in _listed(item, keeps, worked)]
                collecting, before = keeps if not rest else False, sentence
                continue
            todos += _open_parts(sentence, worked, before)
            before = sentence
    return _keep(todos)


def _listed(item: str, keeps, worked: bool) -> list:
    """The to-do lines of an item under a lead summary/defects.py reads (``keeps``: whether it is open
    work there): what the sentence rules make of it when they find open work in it ("GPU 机器上还没跑过"
    of "目前只在 CPU 上调通过，GPU 机器上还没跑过"), else the item whole."""
    return (_open_parts(item, worked) or [item]) if keeps(item) else []


def _keep(todos: list) -> list:
    out: list = []
    for todo in todos:
        text = cl.cut(cl.one_line(todo).strip(" :：-*").rstrip("。.!！;；"), TODO_CHARS)
        if len(text) >= 3 and _specific(content(_ONLY_PUT_OFF.sub(" ", text))) and not cl.NOTHING_LEFT.search(text) and \
                not carry.not_work(text) and not any(same_todo(text, kept) for kept in out):
            out.append(text)
    return out


def deferrals(request: str) -> list:
    """Work the person puts off for later in a request (下次…, 上线前要先…, remember to …)."""
    out = []
    for sentence in cl.sentences(request):
        if _DEFERRAL.search(sentence) and cl.open_sentence(sentence, obligations=False):
            out.append(_shorten(sentence, only_open=True))
    return out


def capture(final_message: str, requests=(), done_words=frozenset(), worked: bool = True, open_todos=(),
            is_same=None) -> list:
    """A session's open to-dos: the final message's, then the person's deferrals that the session
    did not report done (``done_words``: keywords of what it reports done; ``worked``: it changed
    files) — one that puts off an earlier open to-do (``open_todos``: ``[(session id, text)]``) in
    that to-do's words ("rebalance 误报那个先放一放" is "消费者 rebalance 期间会误报，这个还没处理")."""
    todos = from_message(final_message, worked)
    for request in requests:
        for todo in deferrals(request):
            if not covers(content(todo), done_words, DONE_SHARE):
                todos += restated([todo], (), open_todos, is_same or same_todo)
    return _keep(todos)[:MAX_TODOS]


def restated(todos: list, requests, open_todos, is_same, answer: str = "") -> list:
    """The to-dos of a session that did no work, in the words they had: one that names the same
    work as an earlier open to-do (``is_same``) is that to-do, and so is one whose every real word
    is in one open to-do only ("好，哨兵先放着" of "…目前只支持单机 Redis，哨兵模式没配"), and any that
    shares a word with the open to-do the person asked about ("readiness probe 加了吗" — "还没有，
    Deployment 里目前只有 liveness probe") or that the ``answer`` (the final message) gives in its
    first sentence after a "not yet" and that says any word of it ("进度条弄了吗" — "还没，目前上传时只有
    一个转圈的 loading": how that to-do stands, not new work — unless it turns to something else: "还没，
    不过…", or names nothing of it: "Not yet — the export button isn't wired up").
    ``open_todos``: ``[(session id, text)]``. (A session that worked and names an open to-do again
    carries it into its own to-do: :func:`carried_over`, recent.rebuild.)"""
    first = next(iter(cl.sentences(answer or "")), "")
    not_yet = _NOT_YET_ANSWER.match(first)
    answered = {_shorten(t) for t in from_message(first[not_yet.end():])} if not_yet else set()
    asked_about, asked_how = None, False
    for request in requests:
        for sentence in cl.sentences(request):
            words = content(sentence)
            if not carry.asks(sentence) or not words:
                continue
            what = subject.what_words(words) or words          # "did the restore test happen?": not "test"
            share, text = max(((max(coverage(words, expand(content(text))), coverage(what, expand(content(text)))), text)
                               for _r, text in open_todos), default=(0.0, None))
            if share >= ASKED_ABOUT_SHARE:
                asked_about, asked_how = text, carry.asks_how(sentence)
    out = []
    for todo in todos:
        earlier = next((text for _ref, text in open_todos if is_same(todo, text)), None)
        if earlier is None:
            words = {w: v for w, v in content(_ONLY_PUT_OFF.sub(" ", todo)).items() if _real(w, v)}
            inside = {text for _ref, text in open_todos if words and _found(words, expand(content(text))) == len(words)}
            earlier = inside.pop() if len(inside) == 1 else None
        if earlier is None and asked_about and (_found(content(todo), expand(content(asked_about))) or
                                                _shorten(todo) in answered and
                                                soft.found(content(todo), expand(content(asked_about)),
                                                           lambda _t, _w: True) >= 1):
            earlier = asked_about          # a "not yet" answer that says a word of it, however common (上传)
        if earlier is None and asked_about and carry.answers_about(todo, answer):
            earlier = asked_about          # "还没换，…还是引用你个人的变量": how the asked one stands
        if earlier is None and asked_how:
            earlier = asked_about          # "回滚那个怎么搞？" — "要开 …": how to do the asked one
        out.append(earlier or todo)
    return list(dict.fromkeys(out))


# ---------------------------------------------------------------------------------------------
# the same work, and what a session finished


def same_todo(a: str, b: str) -> bool:
    """Do two to-do lines name the same work (near-duplicate text, or the words of the lighter
    one mostly in the other, identifiers included)?"""
    if is_near_duplicate(a, b):
        return True
    wa, wb = content(a), content(b)
    specific_a, specific_b = _specific(wa), _specific(wb)
    if specific_a and specific_b:         # "add retries to the upload" is not "add a progress bar to the upload"
        wa, wb = specific_a, specific_b
    small, large = (wa, wb) if sum(wa.values()) <= sum(wb.values()) else (wb, wa)
    return covers(small, expand(large), DONE_SHARE)


def _specific(words: dict) -> dict:
    """``words`` without the mere work and result verbs (add, fix, 改好, …: subject.PLAIN), which two
    pieces of work in one place share."""
    return {t: w for t, w in words.items() if t not in subject.PLAIN}


@dataclass
class Evidence:
    """What one session shows it did (built by :meth:`from_digest`)."""

    done_words: set = field(default_factory=set)     # keywords of what it reports done
    said: list = field(default_factory=list)         # … one weighted dict per statement
    asked_words: set = field(default_factory=set)    # keywords of what the person asked for
    asked: list = field(default_factory=list)        # … one weighted dict per sentence asked
    requests: list = field(default_factory=list)     # … of those, the ones that report nothing done
    file_words: set = field(default_factory=set)     # names of the files it changed
    files: list = field(default_factory=list)
    worked: bool = False          # changed files, its last command did not fail, its report is no partial one
    checked: set = field(default_factory=set)        # files changed before a command that passed
    continues: str | None = None  # the session a bare "continue" resumes
    held_open: list = field(default_factory=list)    # what it puts in progress, next or still open
    own_word: list = field(default_factory=list)     # the person's own statements of work finished
    statements: list = field(default_factory=list)   # the texts of what it reports done (summary/guards.py)
    request_texts: list = field(default_factory=list)  # … and of what the person asked for
    left_alone: list = field(default_factory=list)   # what its report says was left as it was
    resumed: list = field(default_factory=list)      # the unfinished work a "continue" takes up: the words of
                                                     # its request and of what was left failing or half done
    resumed_from: str | None = None                  # … the session that left it unfinished
    resumed_open: bool = False    # … which must have left open work of its own (it came before a light session)
    resumed_files: dict = field(default_factory=dict)   # … or, after a question about it, {session: files} of the
                                                        # to-dos' own sessions, one of which must be changed again
    reported: list = field(default_factory=list)     # its report's statements of work done or of how
                                                     # things are (summary/guards.py)
    partial: list = field(default_factory=list)      # [(done, left)]: work its report says is done in part
    resumed_told: dict = field(default_factory=dict)    # the words of what the session it resumes left open

    @classmethod
    def from_digest(cls, digest, previous: str | None = None, previous_final: str = "", places=()) -> "Evidence":
        """``previous``: the id of the session before this one in its project, ``previous_final`` its
        final message (an offer this session's first request may accept, work it left unfinished);
        ``places``: ``[(session id, text)]`` of the project's earlier sessions' topics and files."""
        said = done_statements(digest)
        ev = cls(files=list(digest.files_touched))
        for sentence in said:
            sentence = guards.without_untouched(sentence)       # "…; the refill logic is untouched"
            ev.statements.append(sentence)
            ev.said.append(content(subject.without_put_off(sentence)))
            ev.done_words |= set(ev.said[-1])
        for path in ev.files:
            base = os.path.basename(path)
            named = os.path.dirname(path) if _ENTRY_FILE.match(base) else path
            ev.file_words |= set(weights(named)) | {base.lower(), path.lower()}
        ev.done_words = expand(ev.done_words | ev.file_words)
        for request in digest.user_requests:     # what the person asks for now, not what they put off
            for sentence in pg.statements(request):
                if sentence in said and not guards.asks_next(sentence):    # not "Now the redirects for …"
                    ev.own_word.append(sentence)
                if _holds(sentence):
                    ev.held_open += pg.held_open(sentence)
                elif not (cl.is_question(sentence) or _ASKS.search(sentence) or cl.is_condition(sentence) or
                          cl.open_sentence(sentence, obligations=False)):
                    ev.asked.append(content(subject.without_put_off(_RESUMING.sub("", sentence))))     # 接着弄 X: X
                    ev.request_texts.append(sentence)
                    ev.asked_words |= set(ev.asked[-1])
                    if sentence not in said:                # not the person's own word of work done
                        ev.requests.append(ev.asked[-1])
        report = pg.read(digest.final_message)
        for sentence, kind in report:
            ev.held_open += pg.held_open(sentence, kind)
            ev.left_alone += guards.untouched(sentence)
            if kind in (pg.FINISHED, pg.STATE):        # not what it leaves open ("编辑器还没开始")
                ev.reported.append(sentence)
        ev.partial = guards.partial_reports(report)
        ev.held_open = list(dict.fromkeys(ev.held_open))
        ev.asked_words = expand(ev.asked_words)
        kinds = {kind for _s, kind in report}
        # a report that finishes nothing and tells of work partly done or failing does not show the
        # asked work done ("图例挪到了下面；不过 iPad 横屏还是会挤", "Started on retries: …")
        partial = pg.FINISHED not in kinds and bool(kinds & {pg.IN_PROGRESS, pg.FAILED})
        ev.worked = bool(ev.files) and not last_command_failed(digest) and not partial
        ev.checked = set(getattr(digest, "checked_files", None) or [])
        requests = [r for r in digest.user_requests if r.strip()]
        if previous and requests and _WORK_REQUEST.match(requests[0]):
            ev.continues = previous
        topic, previous_files = _previous_session(places, previous)
        for offer in accepted_offers(digest, previous_final, topic):          # "要我现在加上吗？" — "加吧"
            ev.asked.append(content(offer))
            ev.asked_words |= expand(set(ev.asked[-1]))
        if requests and (_RESUMING.match(requests[0]) or _finish_request(requests[0])) and ev.worked:
            if previous_files and _left_unfinished(previous_final) and _same_files(ev.checked, previous_files):
                ev.resumed, ev.resumed_from = [content(topic)] + _unfinished_work(previous_final), previous
            elif previous and not previous_files and (cl.is_question(topic) or _ASKS.search(topic)):
                # the session before only asked about it ("进度条弄了吗" — "还没"): "继续" takes up the
                # to-do asked about, when this session changes and checks a file of the to-do's session
                ev.resumed, ev.resumed_from = [content(topic)], previous
                ev.resumed_files = {sid: _previous_session(places, sid)[1] for sid, _t in places}
            elif previous and not previous_files:
                # the session before changed nothing ("回头加个暗色主题吧。今天先到这"): the continue
                # goes back to the last one that did, when this one changes and checks its file again
                # (it must have left work of its own open: finished() checks)
                working, (topic, files) = _last_working(places, previous)
                if working and _same_files(ev.checked, files):
                    ev.resumed, ev.resumed_from, ev.resumed_open = [content(topic)], working, True
                    if ev.continues:
                        ev.continues = working
        if ev.resumed:
            ev.resumed_told = {t: w for statement, kind in pg.read(previous_final or "") if kind in pg.HELD
                               for t, w in content(statement).items()}
        return ev


# a file named for its place, not its work ("api/index.md", "__init__.py", "main.go"): its name says
# where the session worked, not what it did
_ENTRY_FILE = re.compile(r"^(?:index|main|__init__|__main__|mod|lib|app|init|default|base|utils?|common|helpers?|"
                         r"types|constants)\.\w+$", re.I)


def last_command_failed(digest) -> bool:
    """Did the session's last command fail (its work is then not shown to hold)?"""
    commands = getattr(digest, "commands", None) or []
    return bool(commands and commands[-1].get("failed"))


def done_statements(digest) -> list:
    """The statements in which a session reports work FINISHED (summary/progress.py: each sentence,
    list item or marked item carries its own verdict — finished, in progress, next, planned, failed,
    still open, a state): the person's finished statements ("压测我这边已经跑过了", "the index is
    sorted", "合进去了") and their "yes, merged" to the assistant's question whether it was; the
    assistant's finished ones when the session did work — changed files or ran a command that passed
    (in a session of questions and answers "failed deliveries are simply dropped" describes how things
    are, not work done); in a session that changed files, also the plain statements of its final
    report (it describes what was done). Never a statement of work started, half done, next, planned
    or failed ("Started on retries: …", "写了一半", "Cluster-wide counting is next", "⏳ not started"),
    nor one that says the trouble goes on or the work carries on ("文件名还是乱码，明天接着查", "it still
    times out"), and nothing the assistant says when the session's last command failed ("Retries are
    in but the backoff test fails": the work is not shown to hold)."""
    out = []
    commands = digest.commands or []
    did_work = not last_command_failed(digest) and \
        (bool(digest.files_touched) or any(not c.get("failed") for c in commands))
    texts = (list(getattr(digest, "assistant_notes", None) or []) or [digest.final_message]) if did_work else []
    for text in texts:
        out += [s for s, kind in pg.read(text) if kind == pg.FINISHED]
    if did_work and digest.files_touched:
        # "超时的问题没动" reports nothing done; "迟到事件不会再被误丢", "it no longer times out" report a change
        out += [s for s, kind in pg.read(digest.final_message)
                if kind in (pg.FINISHED, pg.STATE) and not cl.is_condition(s)
                and (not cl.negated(_NO_MORE.sub(" ", s)) or kind == pg.FINISHED)]
    for request in digest.user_requests:
        out += [s for s in pg.statements(request) if not _ASKS.search(s) and not _IMPERATIVE.match(s)
                and (pg.finished(s) or _settled(s))]
    for question, answer in getattr(digest, "exchanges", None) or ():
        out += pg.confirmed(question, answer)
    return [s for s in out if not _TROUBLE_GOES_ON.search(s)]


# the person's word that work is still going ("压测还在跑", "the backfill is still running") — not a
# request to start it ("start on the retries", "开始弄 e2e 拆分吧")
_STILL_GOING = re.compile(r"还在|正在|进行中|在跑|跑着|一半|\b(?:still (?:running|going|in progress|waiting)|in progress|"
                          r"partially|half[- ]done|halfway|waiting (?:for|on)|in review)\b", re.I)


# a negation that reports a change done (迟到事件不会再被误丢, no longer drops them): no "not done"
_NO_MORE = re.compile(r"不会?再|再也不|\bno longer\b|\b\w*n[o']t(?: \w+){1,3} any ?more\b", re.I)


def _holds(sentence: str) -> bool:
    """Does the person hold this work open in their own words: planned for later or put off ("I'll do
    the index next week", "暗色模式那个先别管"), still going, not started, or marked open in a status
    list of theirs — not a request for the next piece of work now ("下一步做找回密码页")?"""
    kind = pg.verdict(sentence)
    return kind in (pg.PLANNED, pg.OPEN) and bool(pg.held_open(sentence, kind)) or \
        kind == pg.IN_PROGRESS and bool(_STILL_GOING.search(sentence))


def _settled(sentence: str) -> bool:
    """Does the person say something was arranged (停机时间跟 DBA 定了) — not a question, a
    condition, anything left open, nor put off again (下周再约, 排到下个迭代)?"""
    return bool(_SETTLED_ZH.search(sentence)) and not (
        cl.is_question(sentence) or cl.is_condition(sentence) or cl.open_sentence(sentence) or "等" in sentence
        or _PUT_OFF.search(sentence))


def accepted_offers(digest, previous_final: str = "", previous_topic: str = "") -> list:
    """The work the person accepted as the assistant offered or proposed it (progress.accepted_offer):
    "要我现在加上吗？" — "加吧" within the session, or the last session's proposal that this session's
    first request accepts ("可以，写吧", "yes, do it") together with what that session was asked ("评测你
    打算怎么做？"). A go-ahead is a request for the work offered: the session must still do it."""
    out = []
    for offer, answer in getattr(digest, "exchanges", None) or ():
        out += pg.accepted_offer(offer, answer)
    requests = [r for r in digest.user_requests if r.strip()]
    if previous_final and requests:
        accepted = pg.accepted_offer(previous_final, requests[0])
        out += accepted + ([previous_topic] if accepted and previous_topic else [])
    return [s for s in dict.fromkeys(out) if content(s)]


# a place that is a file ("firmware/src/uart.c", "Dockerfile"), not a topic
_FILE_PLACE = re.compile(r"^[^\s]*(?:/|\.\w{1,8}$)[^\s]*$")


def _previous_session(places, previous: str | None) -> tuple:
    """``(topic, files)`` of the ``previous`` session from ``places`` (``[(session id, text)]``: each
    session's topic, then the files it changed)."""
    texts = [t for sid, t in places if sid == previous] if previous else []
    topic = texts[0] if texts and not _FILE_PLACE.match(texts[0]) else ""
    return topic, [t for t in texts if _FILE_PLACE.match(t)]


def _last_working(places, previous: str) -> tuple:
    """``(id, (topic, files))`` of the newest session before ``previous`` (of ``places``) that changed
    files, when every session after it changed none and asked nothing ("进度条弄了吗" is about other
    work than the one before it) — else ``(None, ("", []))``."""
    for sid in dict.fromkeys(sid for sid, _t in places):
        topic, files = _previous_session(places, sid)
        if files:
            return sid, (topic, files)
        if cl.is_question(topic) or _ASKS.search(topic):
            break
    return None, ("", [])


def _unfinished_work(final: str) -> list:
    """The words of the work a final message leaves failing or half done (progress.held_open: "回滚" of
    "开始做回滚了：…，但还没有保存旧固件的区域", "the embedding cache" of "I started on the embedding cache
    but two tests fail")."""
    out = [_work_words(held) for statement, kind in pg.read(final or "") if kind in (pg.FAILED, pg.IN_PROGRESS)
           for held in pg.held_open(statement, kind)]
    return [words for words in out if words]


def _work_words(text: str) -> dict:
    """The words of ``text`` without those for a check (:data:`_CHECK_WORDS`)."""
    return {t: w for t, w in content(text).items() if t not in _CHECK_WORDS}


# the words for a check rather than for work ("测试还挂着", "two tests fail"): what failed, not what was done
_CHECK_WORDS = frozenset({stem(w) for w in ("test", "tests", "build", "check", "suite", "run", "ci")} |
                         {"测试", "用例", "单测", "构建", "编译", "检查"})


def _left_unfinished(final: str) -> bool:
    """Does a session's final message leave the work it did unfinished: failing or only started
    ("改成了 DMA 接收，但低功耗测试还是挂", "I started on the cache but two tests fail")?"""
    kinds = {kind for _s, kind in pg.read(final or "")}
    return bool(kinds & {pg.FAILED, pg.IN_PROGRESS})


def _same_files(checked, files) -> bool:
    """Did this session change (and then check) one of ``files`` — the relative paths an earlier
    session changed?"""
    return any(path == f or path.endswith("/" + f) or os.path.basename(path) == os.path.basename(f) and "/" not in f
               for path in checked for f in files)


def _resumed_work(open_todos, works: dict, evidence: Evidence, still_open=()) -> set:
    """The open to-dos the work a "continue" takes up names (``evidence.resumed``: the request of the
    session before, which left it failing or half done, and whose file this session changed and then
    checked): most of that request's words are the to-do's — the best match, and any nearly as good,
    of the earlier to-dos it was asked to do, and of the ones that session left of it ("I started on
    the cache but two tests fail")."""
    if not evidence.resumed or \
            evidence.resumed_open and not any(ref == evidence.resumed_from for ref, _t in open_todos):
        return set()
    out = set()
    # the to-dos of the session it resumes (what it left of its work) and the earlier ones apart — but
    # after a question, the one asked about of them all
    for own in (None,) if evidence.resumed_files else (True, False):
        scores = {}
        for ref, todo in open_todos:
            mine = expand(works[todo])
            found = [soft.coverage(words, mine) for words in evidence.resumed if _found(words, mine) >= 1]
            if own in (None, ref == evidence.resumed_from) and found:
                scores[(ref, todo)] = max(found)
        best = max(scores.values(), default=0.0)
        out |= {key for key, score in scores.items() if score >= REQUEST_SHARE and score >= best * ASKED_MARGIN}
    # after a question about it: the to-do asked about, when a file of its own session was changed again;
    # never one that what the session leaves open names part of ("Per-key throttling is still the gap"
    # for "keys never expire, … and usage isn't rate-limited per key"): only part of it is done
    left = [_work_words(text) for text in still_open]
    return {(ref, todo) for ref, todo in out
            if (not evidence.resumed_files or _same_files(evidence.checked, evidence.resumed_files.get(ref, ())))
            and not any(_found(words, expand(works[todo])) for words in left)}


def _named_files(todo: str) -> set:
    return {n for n in names(weights(todo)) if "." in os.path.basename(n) and not n.startswith(".")}


def finished(open_todos: list, evidence: Evidence, still_open: list, is_same=same_todo, places=()) -> list:
    """The earlier ``open_todos`` (``[(session id, text)]``) the session behind ``evidence``
    finished (see the module docstring); ``places``: ``[(session id, text)]``, what the project's
    earlier sessions were about (their topics and files, summary/subject.py)."""
    out, asked, resumed, reported, reported_only, own, reversed_ = [], [], [], [], [], set(), set()
    changed = {p.lower() for p in evidence.files} | {os.path.basename(p).lower() for p in evidence.files}
    checked = {p.lower() for p in evidence.checked} | {os.path.basename(p).lower() for p in evidence.checked}
    works = {todo: work(todo) for _r, todo in open_todos}
    taken_up = _resumed_work(open_todos, works, evidence, still_open)
    # how a to-do reads what the session said in other words or the other language: in its own
    # words (summary/synonyms.py); the others read it as said. ``seen``: the session as this to-do reads it
    read_as = synonyms.in_todo_words(evidence, open_todos, works, places)
    as_said = subject.Said.of(evidence.said, evidence.asked, evidence.requests, evidence.file_words)
    for ref, todo in open_todos:
        seen = read_as.get(todo, evidence)
        said = as_said if seen is evidence else \
            subject.Said.of(seen.said, seen.asked, seen.requests, seen.file_words)
        if any(is_same(todo, other) for other in still_open):
            continue
        words = works[todo]
        if not words:
            continue
        place_words = subject.project_area(places, ref)
        other_texts = [o for _r, o in open_todos if o != todo]
        others = [works[o] for o in other_texts]
        siblings = [works[o] for r, o in open_todos if r == ref and o != todo]      # of its own session's list
        if _own_word(words, others, place_words, seen, todo, other_texts):
            out.append((ref, todo))
            own.add((ref, todo))
            continue
        files = _named_files(todo)
        named = names(words)
        subject_said = _subject_said(todo, words, seen)
        main = head(todo)
        # where it is, as against what it is about: the thing it says lacks a part and a file it names
        # as the place of its work ("the CRS examples in docs/api/crs.rst aren't doctested", summary/guards.py)
        named_by_one = subject.named_by_one(words, main, siblings, place_words, said, guards.owner(todo) | guards.placed(todo, files))
        by_files = bool(files) and all(f in checked or os.path.basename(f) in checked for f in files) and \
            all(f in changed or os.path.basename(f) in changed for f in files)
        # its files edited for other work the person asked for are no evidence, unless the session
        # speaks of what the to-do is about beyond its files
        if _state_reversed(todo, words, others, seen, siblings):
            out.append((ref, todo))           # "写死在数组里" — "现在从配置分区读" (summary/reversal.py)
            reversed_.add((ref, todo))
            continue
        told = _told_words(seen)          # what it reports, without the words of its files' paths
        # after a question about the to-do, or a light session that put it by, the "continue" is that
        # work whatever its report calls it; else a report of other work only is no evidence of it
        tied = (ref, todo) in taken_up and bool(seen.resumed_files or seen.resumed_open)
        if tied or ((by_files and (named_by_one is not None or _speaks_of(words, seen))) or
                    (seen.continues == ref and seen.worked and coverage(words, told) >= CONTINUE_SHARE) or
                    (ref, todo) in taken_up) and \
                not guards.other_work(words, seen.reported, _resumed_words(seen, ref, todo, taken_up)):
            out.append((ref, todo))
        elif not subject_said:
            continue
        gap = _asked_gap(todo, seen) if seen.worked else {}    # "Add LAN discovery" — "… there's no LAN discovery"
        if gap:
            asked.append((_request_match(gap, gap, seen), ref, todo))
            continue
        if named_by_one is None:          # the person asked for other work, and nothing said names it
            continue
        # a report that holds none of its words but those of the paths it changed is no report of it
        by_path = guards.by_path_only(words, told | seen.asked_words, seen.file_words)
        if not by_path and (covers(words, seen.done_words, DONE_SHARE) or
                            (named and named <= seen.done_words and coverage(words, seen.done_words) >= NAMED_SHARE)):
            reported_only.append((ref, todo, words))
        elif seen.worked and (_asked_for(words, main, seen) or _asked_and_reported(words, main, seen)):
            asked.append((_request_match(words, main, seen), ref, todo))
        elif not by_path and seen.worked and seen.continues and coverage(words, told) >= CONTINUE_SHARE:
            resumed.append((coverage(words, told), ref, todo))
        elif not by_path and _reported(words, main, telling_words(words, seen.statements, seen.done_words, main),
                       NAMED_REPORTED_SHARE if named_by_one else REPORTED_SHARE):
            reported.append((coverage(words, seen.done_words), ref, todo))
    # a to-do the report covers but the request names none of, while the request names another
    # one: a sibling ("多页 PDF 的问题处理一下" — "每一页都会识别" says nothing of the handwritten
    # invoices), unless the report holds all of its words
    request_names_one = any(coverage(words, evidence.asked_words) >= ASKED_MIN for words in works.values())
    out += [(ref, todo) for ref, todo, words in reported_only
            if not (request_names_one and coverage(words, evidence.asked_words) == 0.0)
            or covers(words, evidence.done_words, 1.0)]
    # what the person asked for (or, after a bare "continue", what the report names): the best
    # match, and any other nearly as good — not its siblings; what the session reports done in
    # part of the to-do's words: the best match only
    for candidates, margin in ((asked, ASKED_MARGIN), (resumed, ASKED_MARGIN), (reported, 1.0)):
        best = max((score for score, _r, _t in candidates), default=0.0)
        out += [(ref, todo) for score, ref, todo in candidates if score >= best * margin]
    # a to-do the evidence closed also stays in the running for the best match above (it may be
    # what the report is about), so it can be found twice: once each
    # the person's own word stands — unless the report says part of that work is still open; any other
    # close is checked once more (summary/guards.py)
    return [pair for pair in dict.fromkeys(out) if not guards.partly_done(works[pair[1]], evidence.partial, pair[1])
            and (pair in own or not _rejected(pair[1], works[pair[1]], evidence, opposite_state=pair in reversed_))]


def _told_words(evidence: Evidence) -> set:
    """The words of what a session reports done, in any form, without those of its files' paths (a
    path word is never what the work was about: ``sync/worker.go`` says nothing of "the sync log") —
    but with every word its statements say outside a file name ("Per-route limits now come from
    config.yaml" says "limits", whatever ``limiter.go`` holds)."""
    told = expand(set().union(*evidence.said)) if evidence.said else set()
    prose = [content(guards.without_files(s)) for s in evidence.statements]
    return {t for t in told if t not in evidence.file_words} | (expand(set().union(*prose)) if prose else set())


def _resumed_words(evidence: Evidence, ref: str, todo: str, taken_up) -> dict:
    """The words of the unfinished work a "continue" took up (what the session before left failing
    or half done), when the to-do is closed as that work: a report may name it by them."""
    if (ref, todo) not in taken_up:
        return {}
    return {t: w for words in evidence.resumed[1:] + [evidence.resumed_told] for t, w in words.items()}


def _state_reversed(todo: str, words: dict, others, evidence: Evidence, siblings=()) -> bool:
    """Does the session say the bad state the to-do names is now the opposite (summary/reversal.py)?"""
    asked = evidence.asked[:len(evidence.request_texts)]
    return reversal.reversed_by(todo, words, others, list(zip(evidence.statements, evidence.said)),
                                list(zip(evidence.request_texts, asked)), evidence.worked,
                                evidence.held_open, siblings)


def _speaks_of(words: dict, evidence: Evidence) -> bool:
    """Does a statement or request of the session hold a word of the to-do that is no file name it
    names nor a part of one, nor a mere work word ("缩略图" of "缩略图改成后台任务生成" for "upload.py 里
    的缩略图生成还是同步的"; not "crs" of "fixed cross-references in docs/api/crs.rst")?"""
    named = names(words)
    parts = {t for n in named for t in weights(n)}
    subject_words = {t: w for t, w in words.items() if t not in named and t not in parts and t not in subject.PLAIN}
    said = expand(set().union(*evidence.said, *evidence.asked)) if evidence.said or evidence.asked else set()
    return _found(subject_words, said) >= 1


def _rejected(todo: str, words: dict, evidence: Evidence, opposite_state: bool = False) -> bool:
    """Does the session, for all the closing rules found, say the to-do's subject was left as it was,
    only restate a scope the to-do is limited to, or name a sibling of it by the same head word with
    another modifier (summary/guards.py)? ``opposite_state``: the close says the to-do's state word
    is now its opposite, which is no other modifier (summary/reversal.py)."""
    everything = evidence.statements + evidence.request_texts
    main = _head_text(todo)        # a limit of scope in a later clause is not what the to-do is about
    statements = evidence.statements
    if opposite_state:
        statements = [reversal.in_state_words(todo, s) for s in statements]
        everything = [reversal.in_state_words(todo, s) for s in everything]
    return guards.left_alone(words, evidence.left_alone) or guards.restates_scope(main, everything) or \
        guards.sibling_named(main, words, statements, everything)


def _head_text(todo: str) -> str:
    """The text of a to-do's first clause that names work, as written (see :func:`head`)."""
    for clause in cl.clauses(_unframed(todo)):
        if not cl.is_rationale(clause) and content(clause):
            return clause
    return ""


def _own_word(words: dict, others, place_words, evidence: Evidence, text: str = "", other_texts=()) -> bool:
    """Does the person say, in their own words, that this to-do is finished, naming it by what it is
    about: the first clause of a finished statement of theirs names, beyond the word that it is done,
    when and who ("分区那个我周末自己改了", "The API reference is sorted"), only words of this
    to-do or of where the project's work is (``place_words``: summary/subject.py project_area), and
    at least one word of it that no other open to-do (``others``: their words) holds — a word that
    tells it from its siblings, never a place word alone."""
    mine = expand(words)
    others = [expand(o) for o in others]
    for statement in evidence.own_word:
        first = next((c for c in cl.clauses(statement) if content(pg.named_work(c))), "")
        said = {t: w for t, w in content(pg.named_work(first)).items() if t not in subject.PLAIN}     # 加好, fixed
        # a Chinese word written in the to-do as it is, which its words split otherwise (热词 of 热词表:
        # 词表), is its word too — and another to-do's when written in that one
        mine = mine | {t for t in said if _written_in(t, text)}
        others = [o | {t for t in said if _written_in(t, other)} for o, other in zip(others, other_texts)] \
            if other_texts else others
        if not said or any(soft.share(t, mine) == 0 and t not in place_words for t in said):
            continue
        if any(soft.share(t, mine) > 0 and t not in place_words and w >= OWN_WORD_WEIGHT and len(t) >= 2
               and not any(soft.share(t, other) > 0 for other in others) for t, w in said.items()):
            return True
    return False


def _written_in(token: str, text: str) -> bool:
    """Is ``token`` a Chinese word of two characters or more written as it is in ``text``?"""
    return len(token) >= 2 and bool(_HAN_WORD.fullmatch(token)) and token in (text or "")


_HAN_WORD = re.compile(r"[\u4e00-\u9fff]+")


def _subject_said(todo: str, words: dict, evidence: Evidence) -> bool:
    """Does the session speak of what the to-do is about? An acronym its work names (the CSV of
    "update the CSV export") must be in what the session reports or was asked, unless two of its
    other words that are no mere work verb are: another job on the same file ("add a month filter
    to export.py" — "export.py updated") names neither."""
    said = evidence.done_words | evidence.asked_words
    named = acronyms(todo)
    if named & set(words) <= said:
        return True
    specific = {w: v for w, v in words.items() if w not in _WORK_VERBS and w not in named}
    return _found(specific, said) >= SUBJECT_WORDS


def _asked_for(words: dict, main: dict, evidence: Evidence) -> bool:
    """Did the person ask for this to-do: part of its words in the request and most of them in
    the request and the report together, its main clause in both, or a request whose words are
    mostly the to-do's ("改价的时候把缓存清掉" for "缓存失效还没处理：商品改价以后得主动删掉对应的 key")?"""
    both = evidence.done_words | evidence.asked_words
    if coverage(main, evidence.asked_words) >= HEAD_SHARE and coverage(main, both) >= HEAD_SHARE:
        return True
    if coverage(words, evidence.asked_words) < ASKED_MIN:
        return False
    if covers(words, both, ASKED_SHARE):
        return True
    mine = expand(words)
    return any(_found(request, mine) >= REQUEST_WORDS and soft.coverage(request, mine) >= REQUEST_SHARE
               for request in evidence.asked)


GAP_WORDS = 2             # real words a later clause that says what is missing must have, all of them asked for


def _gap_words(todo: str) -> dict:
    """The words of a later clause of the to-do that says what is missing, when its first clause
    only tells the trouble ("LAN discovery" of "the host's IP has to be typed in by hand — there's no
    LAN discovery"): each word of weight 1 or more (an acronym too) but mere work words; ``{}`` when
    there is none of :data:`GAP_WORDS` words with a real word among them."""
    for clause in cl.clauses(_unframed(todo))[1:]:
        if cl.is_rationale(clause) or not (cl.lacking(clause) or cl.not_yet(clause)):
            continue
        gap = {t: w for t, w in content(clause).items() if w >= 1.0 and t not in subject.PLAIN}
        if len(gap) >= GAP_WORDS and subject.what_words(gap):
            return gap
    return {}


def _asked_gap(todo: str, evidence: Evidence) -> dict:
    """The words of what a later clause of the to-do says is missing (:func:`_gap_words`), when its
    first clause only tells the trouble and the person asked for it: every word of that clause is in
    one request sentence ("Add LAN discovery" for "the host's IP has to be typed in by hand — there's
    no LAN discovery"); else ``{}``."""
    gap = _gap_words(todo)
    return gap if gap and any(soft.coverage(gap, expand(request)) >= 1.0 for request in evidence.asked) else {}


# what a request calls the work when it names it by its subject: "the accents issue", "emoji 的问题"
_GENERIC_NOUNS = frozenset({stem(w) for w in ("issue", "problem", "bug", "stuff", "matter", "question")} |
                           {"问题", "事情", "毛病"})


def _request_match(words: dict, main: dict, evidence: Evidence) -> float:
    """How closely what the person asked for names this to-do (to rank the to-dos one request could
    mean): of the best request, the share of the to-do's main clause in it and of its words in the
    to-do, averaged — "加 readiness probe" names "readiness probe 没配" more than "目前只有 liveness probe"."""
    mine = expand(words)
    return max((soft.coverage(main, expand(request)) + soft.coverage(request, mine)) / 2
               for request in evidence.asked) if evidence.asked else 0.0


def _asked_and_reported(words: dict, main: dict, evidence: Evidence) -> bool:
    """A request that names nothing but this to-do's work ("接着弄 emoji 的问题") and a report
    that names its main clause ("带 emoji 的昵称全迁过去了" for "带 emoji 的昵称到 PG 里会乱码，字符集
    转换还要处理一下"): neither is enough alone, together they say the asked work was done."""
    mine = expand(words)
    specific = ({t: w for t, w in request.items() if t not in _GENERIC_NOUNS} for request in evidence.asked)
    if not any(_found(request, mine) >= 1 and soft.coverage(request, mine) >= ONLY_REQUEST_SHARE
               for request in specific):
        return False
    return _found(main, evidence.done_words) >= 1 and soft.coverage(main, evidence.done_words) >= REPORTED_SHARE


def _reported(words: dict, main: dict, done_words, least: float = REPORTED_SHARE) -> bool:
    """Does what the session reports done name this to-do: a good share of its words (two at
    least), or all of its main clause ("压测还没做" of "压测还没做，上线前要跑一轮") and some of the rest?"""
    share = coverage(words, done_words)
    if share >= least and _found(words, done_words) >= REPORTED_WORDS:
        return True
    return bool(main) and share >= REPORTED_HEAD and coverage(main, done_words) >= 1.0 and \
        _found(main, done_words) >= 1


# ---------------------------------------------------------------------------------------------
# an open to-do said again in a later session's words: one line, in the words it had


# what ends the noun phrase a line opens with: its predicate (a state, a negation, a modal, the
# speaker) or a mark that makes it the topic ("时区这块…", "审计日志那块…", "年付的事…")
_TOPIC_MARK = re.compile(r"这一?块|那一?块|这部分|那部分|这边|那边|(?:这|那)个事情?|的事情?|那个|这个|方面|这段|那段|的问题")
# what a put-off line opens with before the work it names: "有空把白名单挪到 consul 吧" is about 白名单
_BA_VERB = re.compile(r"(?:挪|改|换|移|加|接|补|做|写|弄|搬|迁|放|调|拆|删|合|抽|配)(?:到|成|为|上|进|去|掉|好|一下)|统一")
_PUT_OFF_OPENING = re.compile(r"^(?:(?:有空|得空|抽空|回头|下次|下回|以后|之后|改天|找时间|接下来|后面|先|再|也|还)(?:的话)?[，,\s]*)+把\s*")
_PREDICATE = re.compile(
    r"还|仍|也|都|没|未|不|要|得|需|我|你|咱|已|目前|现在|暂|先|只|是|会|能|可以|打算|准备|开始|下一步|下次|下回|回头|"
    r"以后|之后|后面|改天|有空|这次|等|放|留|再|"
    r"\b(?:is|are|was|were|isn't|aren't|wasn't|weren't|still|has|have|hasn't|haven't|had|doesn't|don't|didn't|does|do|"
    r"should|will|won't|would|can|can't|cannot|could|need|needs|must|only|never|remains?|stays?|I|I'll|I'm|I've|we|"
    r"we'll|we're|you|they|also|not|no|goes|points|uses|gets)\b|'s\b|'re\b|'ll\b", re.I)


def head_subject(text: str) -> tuple:
    """``(words, topic)`` of the noun phrase a to-do line opens with — what it is about when it is
    said again ("时区" of "时区这块我看了一下，放到下次吧", "年付 折算" of "年付的折算还没开始写", "tooltip"
    of "The tooltip I'll do myself later") — and whether a topic mark follows it (这块, 那个, 的事):
    its real words that are no mere work verbs; ``({}, False)`` when the line opens with its
    predicate ("开始做回滚了…", "There's no …")."""
    for clause in cl.clauses(_ANSWER.sub("", cl.strip_connective(cl.one_line(text)))):
        clause = cl.strip_connective(clause)
        if cl.is_rationale(clause) or not content(clause):
            continue
        opening = _PUT_OFF_OPENING.match(clause)
        if opening:               # "有空把白名单挪到 consul 吧": what comes after 把, up to its verb
            clause = clause[opening.end():]
            verb = _BA_VERB.search(clause, 1)
            clause = clause[:verb.start()] + "还" if verb else clause
        ends = [m for m in (_PREDICATE.search(clause), _TOPIC_MARK.search(clause)) if m and m.start() > 0]
        if not ends:
            return {}, False
        end = min(ends, key=lambda m: m.start())
        words = subject.what_words(content(clause[:end.start()]))
        return words, bool(words) and end.re is _TOPIC_MARK
    return {}, False


def _objects(text: str) -> dict:
    """The words of what a line says is absent or not done by something ("重试" of "上传还没有重试",
    "progress bar" of "the upload has no progress bar yet": clauses.lacked_objects)."""
    out: dict = {}
    for clause in cl.clauses(text):
        for what in cl.lacked_objects(clause):
            out.update(subject.what_words(content(what)))
    return out


def _status(text: str) -> bool:
    """Does a line say how work stands — not yet done, put off, still so — rather than only that
    some work should be done ("上传还得加个进度条", "we should add a progress bar")?"""
    return any(cl.not_yet(c) or cl.deferred(c, obligations=False) or cl.lacking(c) for c in cl.clauses(text)) or \
        carry.left_as_it_was(text)


def restates(todo: str, earlier: str, others=(), where=frozenset()) -> bool:
    """Does the to-do line ``todo`` of a later session say again the work of the open to-do
    ``earlier`` — the same work in other words (:func:`same_todo`), or a line that opens with what
    ``earlier`` is about and says how it stands ("时区这块我看了一下，要改视图的分组键，放到下次吧" of
    "时区还是写死的 UTC+8"; "The tooltip I'll do myself later" of "Eventually we'll want a tooltip on
    hover")? ``others``: the project's other open to-dos; ``where``: the words that say where the
    project's work is (summary/subject.py project_area). Never a sibling in the same place: the
    line's opening words must all be ``earlier``'s or place words, one of them ``earlier``'s alone (in
    no other open to-do, no place word); it must state how the work stands, not ask for work; what it
    says is absent or not done must be ``earlier``'s words (unless a topic mark makes the rest a comment
    on it: "时区这块…"); and when ``earlier`` says something is absent, the shared word is that thing
    ("上传还没有重试" is about 重试, not about 上传)."""
    if same_todo(todo, earlier):
        return True
    head, topic = head_subject(todo)
    if not head or not _status(todo):
        return False
    mine = expand(content(earlier))
    # a word of its opening that says one of the to-do's in the other language ("installer" of 安装包),
    # beside another of its words ("The Windows installer …"; "Search only …" alone may be new work)
    said = set().union(*(synonyms.said_as(t, head, frozenset(mine)) for t in expand(subject.what_words(content(earlier)))))
    if said and len([t for t in head if t in said or soft.share(t, mine) > 0]) >= 2:
        mine |= said
    elsewhere = expand(set().union(*(content(o) for o in others))) if others else set()
    place = set(where) | elsewhere

    def placed(token: str) -> bool:
        return soft.share(token, place) > 0

    shared = {t: w for t, w in head.items() if soft.share(t, mine) > 0 and not placed(t)}
    if not shared:
        return False
    if any(soft.share(t, mine) == 0 and not placed(t) for t in head) and not _mostly_its_words(head, shared, todo, mine):
        return False              # the line is about something the to-do does not name
    lacked = _objects(earlier)
    if lacked and not any(soft.share(t, expand(lacked)) > 0 for t in shared):
        return False              # "上传还没有重试" is about 重试: a line about 上传 is another piece of it
    if not topic and any(soft.share(t, mine) == 0 and not placed(t) for t in _objects(todo)):
        return False              # "上传还没有进度条": it names other work there
    return True


def _mostly_its_words(head: dict, shared: dict, todo: str, mine=frozenset()) -> bool:
    """May a line whose opening words are not all the to-do's still say it again: the words it shares
    with that to-do alone hold half the opening's weight or more, and it only says the thing was left as
    it was ("推镜像的凭据这次没动" of "推镜像用的是你个人的 token…") or — naming two of its words — that
    it is put off or still open ("全量导入的脚本下次再写" of "全量初始化脚本还没写")? A sibling
    ("全量导入的校验脚本…") has more words of its own than that, and a line that says more than its
    subject and how it stands ("深色模式的快照测试没过，对比度还差一点" — what is left of it: ``half_done``) is
    not a mere status."""
    if sum(shared.values()) * 2 < sum(head.values()):
        return False
    if any(_real(t, w) and t not in head and soft.share(t, mine) == 0 for t, w in content(todo).items()):
        return False
    return carry.left_as_it_was(todo) or len([t for t, w in shared.items() if _real(t, w)]) >= 2


def carried_over(todos: list, open_todos, places=()) -> list:
    """A session's to-dos with each one that says again the work of one earlier open to-do
    (:func:`restates`; ``open_todos``: ``[(session id, text)]``) put back in that to-do's words: the
    brief then shows one line for it, in the words it was first written down in (the index marks the
    earlier copy carried over, memory/recent.py) — the original statement says what is wrong, a later
    one usually only how it stands ("…放到下次吧", "still untested"), and a line that keeps its words
    keeps the name the person knows it by. A line that could be either of two open to-dos stays as
    it is. ``places``: ``[(session id, text)]``, what the project's earlier sessions were about."""
    texts = [text for _ref, text in open_todos]
    # each open to-do's neighbours and place, once for all the session's to-dos
    earlier = [(text, [o for o in texts if o != text], subject.project_area(places, ref)) for ref, text in open_todos]
    out = []
    for todo in todos:
        matches = {text for text, others, where in earlier if restates(todo, text, others, where)}
        out.append(matches.pop() if len(matches) == 1 else todo)
    return list(dict.fromkeys(out))


def half_done(todos: list, final_message: str, requests, open_todos, places=(), failed: bool = False) -> list:
    """A session's to-dos with what is left of the work the person asked for put back as that open
    to-do, in the words it had: when the request names one open to-do by what it is about (a word of
    it that no other open to-do holds and that says no place — summary/subject.py project_area) and
    the report says that work is only partly done or fails ("写了一半：…但查询层还没适配", "Started on
    it: …, but two specs fail"), a to-do taken from that report is the asked one still open with what
    is left of it (:func:`_with_what_is_left`), not new work — the brief keeps one line for it; after a last command that ``failed``, so is a to-do from a
    sentence that says the asked work is still open ("审计日志的写入加上了，但那个用例还挂着，还没修好").
    Another to-do of the report (a sentence that is not the partial one) stays as it is."""
    kinds = (pg.IN_PROGRESS, pg.FAILED) + ((pg.OPEN, pg.PLANNED, pg.STATE) if failed else ())
    read = [(cl.one_line(s), kind) for s, kind in pg.read(final_message or "")]
    if not any(kind in kinds for _s, kind in read) or not open_todos:
        return todos
    asked = _asked_todo(requests, open_todos, places)
    if asked is None:
        return _started_on(todos, read, open_todos, places)
    text, own = asked
    partial = _partial_report(read, kinds, own, [t for _r, t in open_todos if t != text])
    out = [_with_what_is_left(text, todo) if any(cl.one_line(todo)[:24] in sentence for sentence in partial) else todo
           for todo in todos]
    return _started_on(out, read, open_todos, places)


def _started_on(todos: list, read: list, open_todos, places=()) -> list:
    """``todos`` with each one taken from a report of work begun ("I've also started on Windows: …, so
    that part is unverified", "上传 checkpoint 的脚本写了一半，凭证还没配"), or said right after one,
    put back as the open to-do that report names by the most words of its own (:func:`_own_words`) — more
    than any other — with what is left of it: partial progress on an open to-do the person did not
    ask for this time is still that to-do."""
    texts = [text for _r, text in open_todos]
    own: dict = {}            # each open to-do's own words, worked out when a report of work begun needs them
    out = []
    for todo in todos:
        at = next((i for i, (sentence, _k) in enumerate(read) if cl.one_line(todo)[:24] in sentence), None)
        if at is not None and read[at][1] == pg.OPEN and at and read[at - 1][1] == pg.IN_PROGRESS:
            at -= 1
        if at is None or read[at][1] != pg.IN_PROGRESS:
            out.append(todo)
            continue
        said = expand(content(read[at][0]))
        # (a to-do all of whose words say where the work is — it came from the request that set the
        # session's topic — is known by its words that no other open to-do holds)
        if not own:
            own = {text: _own_words(ref, text, texts, places) or _own_words(ref, text, texts) for ref, text in open_todos}
        found = sorted(((_found(own[text], said), text) for _ref, text in open_todos), reverse=True)
        best = found[0] if found and found[0][0] and (len(found) == 1 or found[0][0] > found[1][0]) else None
        out.append(_with_what_is_left(best[1], todo) if best else todo)
    return list(dict.fromkeys(out))


def _own_words(ref: str, text: str, texts: list, places=()) -> dict:
    """The words of the open to-do ``text`` (of session ``ref``) that say what it is about and that no
    other open to-do of ``texts`` holds, nor a word of where the project's work is."""
    others = expand(set().union(*(content(o) for o in texts if o != text))) if len(texts) > 1 else set()
    where = subject.project_area(places, ref) | others
    return {t: w for t, w in subject.what_words(content(text)).items() if soft.share(t, where) == 0}


def _partial_report(read: list, kinds, own: dict, others: list) -> list:
    """The sentences of a report (``read``: ``[(sentence, progress kind)]``) that tell how far the asked
    work got: one of ``kinds`` that names it (``own``: its own words) — or, said to be half done
    ("…还没一一映射，先做了一半"), names no other open to-do — and an open sentence right after one of
    them, which says what is left ("I wrote the first half of the upgrade guide; the data migration
    part is still to do")."""
    elsewhere = expand(set().union(*(content(o) for o in others))) if others else set()
    out: list = []
    for i, (sentence, kind) in enumerate(read):
        words = content(sentence)
        if kind in kinds and (_found(own, expand(words)) or kind == pg.IN_PROGRESS and not _found(words, elsewhere)):
            out.append(sentence)
        elif kind == pg.OPEN and i and read[i - 1][0] in out:
            out.append(sentence)
    return out


def _with_what_is_left(asked: str, left: str) -> str:
    """One line for asked work done in part: the to-do as it was written down, then what is left of it
    as far as room allows — "超过 10 万行的导出会超时，需要改成异步任务，下载链接还没生成": the person keeps
    the name they know it by and sees how far it got, a later session that finishes it may say either,
    and the line still holds the whole to-do (the index marks the earlier copy carried over)."""
    joiner = "，" if cl.is_cjk(asked) else " — "
    room = TODO_CHARS - len(asked) - len(joiner)
    if same_todo(left, asked) or room < LEFT_CHARS:
        return asked
    return asked + joiner + cl.cut(left, room)


def _asked_todo(requests, open_todos, places=()):
    """``(text, its own words)`` of the one open to-do the person's requests name by a word of its
    own — a real word of it in no other open to-do and no place word — or None when none or several do."""
    said: set = set()
    for request in requests:
        for sentence in pg.statements(request):
            if not (_holds(sentence) or pg.finished(sentence) and not _IMPERATIVE.match(sentence)):
                # asked (also as a question: "审计日志今天能弄吗"), not said done nor put off
                said |= set(content(subject.without_put_off(sentence)))
    said = expand(said)
    texts = [text for _r, text in open_todos]
    named = {}
    for ref, text in open_todos:
        own = _own_words(ref, text, texts, places)
        if _found(own, said):
            named[text] = own
    return next(iter(named.items())) if len(named) == 1 else None
