"""Checks that REJECT a close a later session seemed to give an open to-do (summary/todos.py
``finished``; docs/summaries.md § To-dos): a wrong close hides open work from the model, a missed
one the person can still close by hand.

* **left as it was** — a clause that says its subject was not touched ("the burst refill logic is
  untouched", "its reconnect handling is unchanged", "缩略图那段原封不动", "过期清理的逻辑保持原样")
  reports no work on it: it is no statement of work done, and it holds its subject open for the
  session (:func:`untouched`, :func:`without_untouched`);
* **a scope limit restated** — a to-do that is a limit of scope ("the e2e suite only runs on
  Chromium so far", "目前只在 macOS 上测过", "only run on API 34") is not finished by more work
  inside the same scope ("the suite went from 95 s to 41 s on Chromium", "macOS 上的增量更新也验证
  过了"): when the session names the limit's scope and nothing it says goes beyond it — another
  value beside it ("Chromium, Firefox and WebKit", "API 26 和 34", "next to Chromium"), "no longer
  only", or more of the work ("as well", "too", 也, 其他) said without the scope — the close is
  rejected (:func:`restates_scope`);
* **a sibling by its modifier** — the to-do's main clause names a thing by a modifier and a head
  word ("the **Android** build", "**签名**校验", "**操作**日志"); a session that says the same head
  word with another modifier ("The **iOS** build is green", "**整包**校验通过", "**登录**日志加好了")
  and never the to-do's modifier did the sibling, not the to-do (:func:`sibling_named`).
* **part done, part open** (sixth round) — a report that says part of the work is done and another
  part open ("I translated the 14 guides. The API reference pages aren't done yet", "Tutorials are
  in English now, 但 API 文档还没翻", "定时任务迁了一半", "3 of the 5 fields are validated now")
  closes neither the to-do its open part names nor the whole (:func:`partial_reports`,
  :func:`partly_done`);
* **other work on the to-do's file** — file evidence (or a "continue" that takes up unfinished work)
  is none when the report names work of its own and none of the to-do's, a path word never counting
  as its subject (:func:`other_work`), and a report that holds a to-do's words only through the
  paths it changed does not name it (:func:`by_path_only`);
* **the next work asked for** — "Now the redirects for the old URLs", "现在弄一下 API 文档" read as
  finished only by the leading "now": a request, not the person's word that it is done
  (:func:`asks_next`).

Pure functions over strings and the weighted words of text/keywords.py.
"""

from __future__ import annotations

import re

from ..text import soft
from ..text.keywords import _segmenter, expand, names, stem, weights
from ..text.segment import HAN_RUN
from . import clauses as cl
from . import progress as pg
from . import subject

# ---------------------------------------------------------------------------------------------
# left as it was

_UNTOUCHED_EN = (r"\b(?:(?:is|are|was|were|stays?|stayed|remains?|remained|left|kept)\s+(?:\w+\s+)?"
                 r"(?:unchanged|untouched|unmodified|as (?:it|they) (?:was|were|is|are)|as[- ]is|alone)|"
                 r"(?:unchanged|untouched|unmodified)|"
                 r"(?:did ?n[o']t|did not|have ?n[o']t|has ?n[o']t|have not|has not|never)\s+(?:\w+\s+)?"
                 r"(?:touch(?:ed)?|change[sd]?|modif(?:y|ied)|edit(?:ed)?)|"
                 r"(?:left|kept)\s+(?:it|them|that|this)\s+(?:alone|as[- ]is|as (?:it|they) (?:was|were)))\b")
_UNTOUCHED_ZH = r"原封不动|保持原样|保持不变|维持原样|维持不变|照旧|(?:没|没有|未|并未|不)(?:动|碰|改动|修改|去动)(?![了过完好手])"
_UNTOUCHED = re.compile(_UNTOUCHED_EN + "|" + _UNTOUCHED_ZH, re.I)
# what says how it was left, removed to leave the subject ("the burst refill logic")
_HOW_LEFT = re.compile(_UNTOUCHED_EN + "|" + _UNTOUCHED_ZH + r"|\b(?:I|we|its?|their|the|logic|code|path|part|"
                       r"handling|still|only|also|for now)\b|那段|那块|这块|那部分|逻辑|代码|我|我们|还是|都|也",
                       re.I)


def _parts(sentence: str) -> list:
    return [c for c in cl.clauses(sentence) if c and c.strip()] or [sentence]


def untouched(sentence: str) -> list:
    """The subjects ``sentence`` says were left as they were ("the burst refill logic is untouched":
    "burst refill"; "缩略图那段逻辑原封不动": "缩略图"), one per such clause that names one."""
    out = []
    for clause in _parts(sentence):
        if _UNTOUCHED.search(clause):
            rest = " ".join(_HOW_LEFT.sub(" ", clause).split()).strip(" ,，;；:：.。")
            if subject.what_words(weights(cl.main_text(rest))):
                out.append(rest)
    return out


def left_alone(words: dict, subjects) -> bool:
    """Is a to-do (``words``) one of the ``subjects`` a session says it left as they were: every real
    word of one of them, but mere work words, is the to-do's (in any form)?"""
    mine = expand(words)
    for said in subjects:
        real = subject.what_words(weights(cl.main_text(said)))
        if real and all(soft.share(t, mine) > 0 for t in real):
            return True
    return False


def without_untouched(sentence: str) -> str:
    """``sentence`` without its clauses that say their subject was left as it was ("I only touched
    limiter.go for the header; the burst refill logic is untouched": the first clause)."""
    parts = _parts(sentence)
    kept = [c for c in parts if not _UNTOUCHED.search(c)]
    return " ".join(kept) if len(kept) < len(parts) else sentence


# ---------------------------------------------------------------------------------------------
# a scope limit restated

# "only runs on Chromium", "only run on API 34 so far", "only supports CSV"; 只在 macOS 上测过, 目前只支持月付
_ONLY_EN = re.compile(r"\b(?:only|solely|exclusively)\b\s+(?:\w+\s+){0,2}?(?P<rest>(?:on|in|with|for|against|under|via|"
                      r"at|supports?|handles?|accepts?|covers?|knows?|reads?|parses?)\b[^,.;:!?()]+)", re.I)
_ONLY_ZH = re.compile(r"(?:只|仅|仅仅|单单)(?P<rest>[^，。；！？,;:：!?（）()]+)")
# words in a scope clause that say what is done there, not where: the scope is the rest
_SCOPE_VERBS = re.compile(
    r"\b(?:runs?|ran|running|tested|tests?|tried|works?|worked|supports?|supported|handles?|handled|covers?|"
    r"covered|checks?|checked|verified|built|builds?|deploy(?:s|ed)?|on|in|with|for|against|under|via|at|by|"
    r"the|a|an|so far|yet|for now|now|currently|today|been|has|have|is|are|was|were|one|single|target(?:s|ed)?)\b|"
    r"在|上|里|中|下|测过|试过|测试|测了|试了|支持|跑过|跑|用过|用|验证过|验证|目前|暂时|现在|了|过|的|有|能|会|对",
    re.I)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_.+\-]*[A-Za-z0-9+]|[A-Za-z]|\d[\w.]*|[\u4e00-\u9fff]+")
# a value beside the scope's own: "Chromium, Firefox and WebKit", "API 26 和 34", "macOS、Windows"
_BESIDE = r"\s*(?:,|，|、|/|&|\+|\band\b|\bor\b|和|及|以及|跟|与|或)\s*"
_BEYOND = re.compile(r"\b(?:next to|besides|alongside|as well as|in addition to|beyond|no longer only|not just|"
                     r"not only|all (?:of )?(?:the )?(?:\w+ )?(?:platforms|browsers|versions|devices|targets))\b|"
                     r"不再只|不止|除了|之外|以外|全平台|所有平台|各个?平台", re.I)
# more of the work, said without the scope ("Run them on Firefox and WebKit as well", "Windows 上也跑通了")
_MORE = re.compile(r"\b(?:as well|also|too|other|another|more)\b|也|都|其他|其它|别的|另外的", re.I)


def scope(todo: str) -> list:
    """The words of the scope a to-do is limited to ("Chromium" of "The e2e suite only runs on
    Chromium so far"; "API", "34" of "only run on API 34"; "macOS" of "目前只在 macOS 上测过";
    "月付" of "目前只支持月付") as written, or ``[]`` when it is no scope limit."""
    out = []
    for match in list(_ONLY_EN.finditer(todo)) + list(_ONLY_ZH.finditer(todo)):
        rest = _SCOPE_VERBS.sub(" ", match.group("rest"))
        found: list = []
        for token in _TOKEN.findall(rest):
            words = weights(token)
            if found and not token[:1].isdigit():
                break                 # the value and its number ("API 34", "Pixel 7"), not what it holds (files)
            if any(subject.real(t, w) or t.isdigit() for t, w in words.items()) and \
                    not all(t in subject.PLAIN for t in words):
                found.append(token)
        out += found
    return list(dict.fromkeys(out))


def _holds(sentence: str, value: str) -> re.Match | None:
    if value.isascii():
        return re.search(r"(?<![\w.])" + re.escape(value) + r"(?![\w])", sentence, re.I)
    return re.search(re.escape(value), sentence)


def _widens(sentence: str, values: list) -> bool:
    """Does ``sentence`` go beyond the scope ``values``: another value beside one of them, a word
    that says more than it, or more of the work said without the scope?"""
    held = [v for v in values if _holds(sentence, v)]
    if _BEYOND.search(sentence):
        return True
    if not held:
        return bool(_MORE.search(sentence))
    for value in held:
        v = re.escape(value)
        if re.search(v + _BESIDE + r"(?:the\s+)?[\w\u4e00-\u9fff]", sentence, re.I) or \
                re.search(r"[\w\u4e00-\u9fff]" + _BESIDE + r"(?:the\s+)?" + v, sentence, re.I):
            return True
    return False


def restates_scope(todo: str, sentences) -> bool:
    """Does a session (``sentences``: what it reports done and what the person asked for) name only
    the scope a to-do is limited to ("23 instrumented tests pass on the API 34 emulator" for "The
    instrumented tests only run on API 34 so far") — one of its sentences holds the scope and does
    not go beyond it, and none goes beyond it?"""
    values = scope(todo)
    if not values:
        return False
    sentences = [s for s in sentences if s and s.strip()]
    if any(_widens(s, values) for s in sentences):
        return False
    return any(_holds(s, v) for s in sentences for v in values)


# ---------------------------------------------------------------------------------------------
# the thing that lacks a part

# "The CSV export has no column headers", "the importer lacks a dry-run mode", "导出的 Excel 还没有表头",
# "报表缺少页码": the thing (before) and the part it lacks (after)
_LACKS = re.compile(r"^(?P<owner>.+?)\s+(?:still\s+|also\s+)?(?:has|have|had)\s+no\b(?P<part>.+)$|"
                    r"^(?P<owner2>.+?)\s+(?:still\s+)?(?:lacks?|(?:is|are) missing(?=\s+(?:a|an|the|its|their|any)\b)|"
                    r"does ?n[o']t have|does not have)\b(?P<part2>.+)$|"
                    r"^(?P<owner3>[^，,。；;]+?)(?:还|也|都|目前|现在)*(?:没有|缺少|缺了?|少了)(?P<part3>[^，,。；;]+)", re.I)


def owner(todo: str) -> set:
    """The words of the thing a to-do says lacks a part ("CSV", "export" of "The CSV export has no
    column headers"; 导出, Excel of "导出的 Excel 还没有表头"): where the work is, as against the part
    it lacks, which is what the to-do is about. Empty when the to-do says no such thing, or the part
    is no thing of its own ("并发下的重复请求还没有测试": 测试 is work, not a part)."""
    first = (cl.clauses(todo) or [todo])[0]
    match = _LACKS.search(first.strip())
    if not match:
        return set()
    thing = match.group("owner") or match.group("owner2") or match.group("owner3") or ""
    part = match.group("part") or match.group("part2") or match.group("part3") or ""
    lacked = set(subject.what_words(weights(cl.main_text(part))))
    where = {t for t, w in weights(cl.main_text(thing)).items() if subject.real(t, w) or w >= 1.0}
    return where - lacked if lacked else set()


def placed(todo: str, files) -> set:
    """The words of the ``files`` a to-do names as the place of its work ("the CRS examples in
    docs/api/crs.rst", "upload.py 里的缩略图") — not a file that is what it is about ("the existing
    cursors.json isn't migrated")."""
    out: set = set()
    for name in files:
        at = re.escape(name)
        if re.search(r"\b(?:in|inside|within|under|from|across|throughout)\s+(?:the\s+)?`?" + at, todo, re.I) or \
                re.search(at + r"`?\s*(?:里|中|内|下)", todo):
            out |= set(weights(name))
    return out


# ---------------------------------------------------------------------------------------------
# a sibling by its modifier

# words that tell the state of a thing, not which thing it is: "the old VAT line" is fixed by "the new
# VAT line", not a sibling of it
# nor how many of it there are ("the other ten GET endpoints" — "All twelve GET endpoints")
_STATE_MODIFIERS = frozenset({stem(w) for w in "old new current previous legacy existing latest original outdated "
                              "updated same wrong right correct proper broken working other rest remaining all every "
                              "each some both few many several most one two three four five six seven eight nine ten "
                              "eleven twelve twenty hundred".split()} |
                             {"旧", "新", "老", "原来", "原先", "以前", "之前", "现在", "当前", "现有", "最新", "其他", "其余",
                              "剩下", "所有", "全部", "每个", "一些", "几个", "两个", "三个"})


def _counted(token: str) -> bool:
    """A number, an amount or a state, not the name of a thing (300ms, 12, 两个, old)."""
    return token[:1].isdigit() or token in _STATE_MODIFIERS or bool(re.match(r"^[一二两三四五六七八九十几每各多]", token))
# what follows names the variant the to-do complains of, which the fix replaces ("The iOS job still uses
# the dev provisioning profile" is finished by "iOS builds with the App Store distribution profile")
_VARIANT = re.compile(r"\b(?:still|only|uses?|using|is set to|are set to|defaults? to)\b|还是|仍然|依然|仍|只|用的是|用的|写死|"
                      r"默认是", re.I)
# a verb that leads a to-do names the work, not a kind of its object ("处理字段里的换行符转义")
_WORK_VERBS = frozenset({stem(w) for w in "handle implement support migrate clean configure resolve optimize "
                         "refactor enable disable".split()} |
                        {"处理", "实现", "添加", "增加", "修复", "修改", "优化", "调整", "补充", "接入", "配置", "解决",
                         "清理", "迁移", "完善", "检查", "更新", "删除", "去掉", "补齐", "完成"})
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_.\-/]*[A-Za-z0-9_]|[A-Za-z]|\d[\w.]*")


def _sequence(text: str) -> list:
    """The words of ``text`` in order as keys of text/keywords.py ``weights``, ``None`` where a word
    that weighs nothing (a stop word, a lone character, punctuation) breaks the run."""
    out: list = []
    pos = 0
    tokens = sorted([(m.start(), m.group(), "latin") for m in _LATIN.finditer(text)] +
                    [(m.start(), m.group(), "han") for m in HAN_RUN.finditer(text)])
    for start, token, kind in tokens:
        if start > pos and text[pos:start].strip():
            out.append(None)               # punctuation between
        pos = start + len(token)
        if kind == "latin":
            keys = list(weights(token))
            out.append(keys[0] if keys else None)
            continue
        singles: list = []
        for word, _freq in list(_segmenter().words(token)) + [("", 0)]:     # the same cut as weights (jieba)
            if word == "的" and not singles:
                continue              # "iOS 的推送证书": 的 joins a modifier to its head
            if len(word) == 1:
                singles.append(word)
                continue
            # lone characters weigh as the bigrams they make (整包 of 整包校验), as in weights — taken
            # two by two, so that overlapping bigrams (字段, 段里 of 字段里) are never a pair
            out += [singles[i] + singles[i + 1] if singles[i] + singles[i + 1] in weights(singles[i] + singles[i + 1])
                    else None for i in range(0, len(singles) - 1, 2)] + ([None] if len(singles) % 2 else [])
            singles = []
            if word:
                keys = [k for k in weights(word) if k == word]
                out.append(keys[0] if keys else None)
    return out


def _pairs(text: str) -> list:
    seq = _sequence(text)
    return [(a, b) for a, b in zip(seq, seq[1:]) if a and b]


def _first_compound(text: str) -> list:
    """The pairs of the first run of two words or more in ``text`` — the thing it names first ("the
    Android build", "签名校验", "iOS 的推送证书"), not a circumstance later on ("on small screens")."""
    run: list = []
    for token in _sequence(text) + [None]:
        if token:
            run.append(token)
        elif len(run) >= 2:
            break
        else:
            run = []
    return list(zip(run, run[1:])) if len(run) >= 2 else []


def _modifiers(text: str, head: str, words: dict) -> set:
    """The real words right before ``head`` in the first thing a clause of ``text`` names (its
    subject: "The iOS build is green", "整包校验通过才切换") that are not the to-do's (``words``)."""
    mine = expand(words)
    return {a for clause in _parts(text) for a, b in _first_compound(clause)
            if b == head and a not in mine and a not in subject.PLAIN and not _counted(a)}


def sibling_named(main_text: str, words: dict, said, everything) -> bool:
    """Does the session name a sibling of the to-do rather than the to-do: the to-do's main clause
    (``main_text``; ``words``: all its weighted words) names a thing by a modifier and a head word
    ("the Android build"), a statement the session makes (``said``: their texts) says the head word
    with another modifier of its own ("The iOS build is green now"), and nothing the session says
    (``everything``: its statements and requests) holds the to-do's modifier?"""
    pairs = [(m, h) for m, h in _first_compound(_VARIANT.split(main_text, 1)[0]) if m not in subject.PLAIN
             and m not in _WORK_VERBS and not _counted(m) and subject.real(m, words.get(m, 0.0))]
    if not pairs:
        return False
    held = expand(set().union(*(weights(s) for s in everything))) if everything else set()
    for head in dict.fromkeys(h for _m, h in pairs):
        if any(m in held for m, h in pairs if h == head):
            continue          # one of the to-do's own modifiers of it is said (集群 of "prod 集群地址")
        if any(_modifiers(s, head, words) for s in said):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# part done, part left open

# words that say how much of the work was done, not what it is ("3 of the 5", 一半, the rest)
_AMOUNT = frozenset({stem(w) for w in "half part rest remaining first last all none some most".split()} |
                    {"一半", "剩下", "剩余", "部分", "其余", "全部"})


def _telling(words: dict) -> dict:
    """Of weighted ``words``, those that say which work it is: real words and acronyms (API, CSV),
    but no mere work word, amount, state or number."""
    return {t: w for t, w in words.items()
            if (subject.real(t, w) or t.isascii() and w >= 1.0 and t.isalpha()) and t not in subject.PLAIN
            and t not in _AMOUNT and not _counted(t)}


def _left_open(statement: str, kind: str) -> bool:
    return kind in pg.HELD or kind == pg.STATE and cl.open_sentence(statement, states=True)


# a statement that says only part of the work is done: "迁了一半", "加了一部分", "partly", "3 of the 5"
_PART_DONE = re.compile(r"(?:了|到)(?:一半|一部分|部分)|只(?:做|改|加|迁|写|弄)了(?:一半|一部分|部分|[一二两三四\d]+个)|"
                        r"\b(?:partly|partially|half of|some of)\b|\b(?P<n>\d+) (?:of|out of) (?:the |all )?(?P<m>\d+)\b",
                        re.I)


def _part_done(statement: str) -> bool:
    found = _PART_DONE.search(statement)
    return bool(found) and not (found.group("n") and found.group("n") == found.group("m"))


def partial_reports(report) -> list:
    """``[(done, left)]``: where a report (``report``: ``[(statement, verdict)]`` of summary/progress.py
    ``read``) says part of a piece of work is done and another part is still open — a finished
    statement and the open one right after it ("I translated the 14 guides. The API reference pages
    aren't done yet"; "3 of the 5 fields are validated now: … Zip and referral code still have none"),
    one statement with a finished clause and an open one ("Tutorials are in English now, 但 API 文档
    还没翻": its other clauses are the rest), or one that says only part is done ("缓存加了一半",
    "2 of the 4 endpoints check it now": ``("", statement)``, the whole of it names what is left)."""
    out = []
    for i, (statement, kind) in enumerate(report):
        if _part_done(statement):
            out.append(("", statement))
        parts = _parts(statement)
        if len(parts) > 1 and kind != pg.FINISHED:
            done = [c for c in parts if pg.verdict(c) == pg.FINISHED]
            rest = [c for c in parts if c not in done]
            if done and any(_left_open(c, pg.verdict(c)) for c in rest):
                out.append((" ".join(done), " ".join(rest)))
        if kind == pg.FINISHED and i + 1 < len(report) and _left_open(*report[i + 1]):
            out.append((statement, report[i + 1][0]))
    return out


def _conjuncts(text: str) -> set:
    """The words of the things a to-do names side by side ("Spanish", "French" of "The Spanish and
    French locales"; 教程, API of "教程和 API 文档"): each of them is part of its work."""
    out: set = set()
    for match in re.finditer(r"([\w\u4e00-\u9fff.+-]+)" + _BESIDE + r"(?:the\s+)?([\w\u4e00-\u9fff.+-]+)", text, re.I):
        for side in match.groups():
            out |= {t for t, w in weights(side).items() if subject.real(t, w) or t.isascii() and t.isalpha()}
    return out


def partly_done(words: dict, partial, todo: str = "") -> bool:
    """Is a to-do (``words``; ``todo``: its text) one a session did only in part: the open part of a
    report that says part of its work is done (``partial``: :func:`partial_reports`) names a real word
    of the to-do that the done part does not say — the rest of the to-do, left open — and with it one
    more of its words or one of the things it names side by side ("there's no redirect from the old
    docs URLs" after "Added redirects for the old guide pages. The reference section's old URLs aren't
    mapped yet"; "The Spanish and French locales aren't translated" after "Translated the Spanish
    locale. The French strings aren't done yet")? An open part that only repeats what was done
    ("Paginated the search results. Search ranking is next": search) names other work."""
    mine = expand(words)
    side_by_side = _conjuncts(todo) if todo else set()
    for done, left in partial:
        said = expand(weights(cl.main_text(done))) if done else set()
        shared = {t: w for t, w in weights(cl.main_text(left)).items()
                  if soft.share(t, mine) > 0 and w >= 1.0 and t not in subject.PLAIN}
        if not done:       # only part done: the clause that says so must name this to-do by two of its words
            marked = next((c for c in _parts(left) if _part_done(c)), left)     # (not "上传的脚本写了一半" for
            if sum(soft.share(t, mine) > 0 for t in _telling(weights(cl.main_text(marked)))) < 2:   # "评测脚本还没写")
                continue
        rest = [t for t, w in shared.items() if t in _telling(shared) and subject.real(t, w) and soft.share(t, said) == 0]
        if rest and (len(shared) >= 2 or any(soft.share(t, side_by_side) > 0 for t in rest)):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# other work on the same file


# a clause that tells how a check came out, not what was done ("24 个用例都过了", "the tests pass"), and
# a word that says only that work was done (写完, 改好)
_RESULT = re.compile(r"通过|过了|全绿|全过|跑通|没问题|\b(?:pass(?:es|ed|ing)?|green|succeed(?:s|ed)?|"
                     r"(?:\d+|no|zero) (?:errors?|failures?|warnings?))\b", re.I)
_DONE_WORD = re.compile(r"^(?:[写做改弄搞加修调跑接迁补配]|处理)(?:完|好|通|上)$")


def other_work(words: dict, reported, resumed=None) -> bool:
    """Does a session's report (``reported``: its statements of work done or of how things are) name work of its
    own and none of a to-do's (``words``; ``resumed``: the words of the unfinished work a "continue"
    took up, which name it too) — "给 compress.py 加了 EXIF 方向校正" for "compress.py 里的最大边长写死成
    2048"? The names of the files it says (:func:`without_files`) name no work: a path word is never the
    subject. A report of nothing but the result ("Done, all tests pass") names no other work."""
    places = {t for name in names(words) if "." in name for t in weights(name)}     # limiter.go's "limit"
    mine = expand({t: w for t, w in {**words, **(resumed or {})}.items() if t not in places})
    named = False
    for text in reported:
        said = " ".join(c for c in _parts(without_files(text)) if not _RESULT.search(c))   # "24 个用例都过了"
        real = [t for t in subject.what_words(weights(cl.main_text(said)))
                if not _counted(t) and not _DONE_WORD.match(t)]
        if any(soft.share(t, mine) > 0 for t in real):
            return False
        named = named or bool(real)
    return named


# ---------------------------------------------------------------------------------------------
# the next piece of work asked for

# "Now the redirects for the old URLs", "OK, next the API pages", "现在弄一下 API 文档", "接下来把日志加上"
_NEXT_LEAD = re.compile(r"^\s*(?:(?:ok(?:ay)?|good|great|thanks|nice|好的?|行|嗯)\s*[,，!！.。]?\s*)?(?:and\s+|那)?"
                        r"(?:(?:now|next|then)\b|现在|接下来|然后|下面)\s*[,，:：]?\s*", re.I)


def asks_next(sentence: str) -> bool:
    """Does the person ask for the next piece of work with a leading "now" ("Now the redirects for
    the old URLs", "现在弄一下 API 文档") — a sentence that reads as work finished only by that word,
    not their word that something is done ("now the export streams rows" without it still says
    nothing done; "现在好了", "now it's merged" still say it)?"""
    lead = _NEXT_LEAD.match(sentence)
    return bool(lead) and pg.finished(sentence) and not pg.finished(sentence[lead.end():])


def by_path_only(words: dict, held, file_words) -> bool:
    """Does a session hold (``held``: the words of what it said outside file names and was asked, in
    any form) none of a to-do's real words but those of the files it changed (``file_words``) — "给 parser.py 加了日志"
    for "parser.py 里的超时还是写死的"? A to-do of nothing but its file is not judged here, nor one
    whose name in the code a changed file holds ("给 load_config 补单元测试": tests/test_load_config.py)."""
    pool = set(held) | set(file_words)
    for name in names(words):        # a name in the code, which a file name may hold (test_load_config.py)
        parts = [t for t in weights(name) if t != name]
        if "." not in name and (name in pool or parts and all(t in pool for t in parts)):
            return False
    real = [t for t in subject.what_words(words) if t not in file_words or t in held]
    return bool(real) and not any(soft.share(t, held) > 0 for t in real)


# a file name or path said in a sentence ("config.yaml", "sync/worker.go", "`src/app.ts`")
_FILE_TOKEN = re.compile(r"`?[\w.\-]*(?:/[\w.\-]+)+`?|`?[\w\-]+\.[A-Za-z][\w]{0,7}\b`?")


def without_files(text: str) -> str:
    """``text`` without the file names and paths it says: what it says in words."""
    return _FILE_TOKEN.sub(" ", text)
