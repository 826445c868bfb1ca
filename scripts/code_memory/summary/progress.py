"""Where the work a statement names stands, in Chinese and English: finished — or only started,
half done, next, planned, put off, failed, still open, or a state of how things are (issue 20,
docs/summaries.md § To-dos).

Only a FINISHED statement may close an earlier to-do; a statement that puts its subject in progress,
next, planned or still open *holds* that subject open for the rest of the session (summary/todos.py
``Evidence.held_open``), whatever else the session did. The markers are grammatical, not topical:

* in progress — started on / began / partially / the first half / a first pass / scaffolded / WIP /
  in review / still running / waiting for; 开始做 / 写了一半 / 先搭了个架子 / 雏形 / 正在 / 还在跑 /
  等合并 (negated — "not started", 还没开始 — it is still open);
* next — "X is next", "comes next", "Next:"; 下一步 / 接下来;
* planned or put off — "I'll / we'll / I'm going to / plan to", tomorrow, next week, later, on hold;
  明天 / 下周 / 回头 / 打算 / 准备 / 先别管 / 放一放 / 再补;
* still open, said outright — "not started", "still to do", 还没开始, 待办 (other "not yet" sentences
  are capture's to-dos, summary/clauses.py);
* failed — a test, build or run that fails, breaks, times out; 挂了 / 失败 / 报错 / 没过 / 卡住 —
  unless the sentence reports the fix;
* a status mark per item — ✅ / [x] / "— done" finish their item; ⏳ / 🚧 / ❌ / [ ] / "— still open" /
  "— not started" / "— WIP" leave theirs open; a line of several marked items is read item by item;
* finished — a completed clause (summary/clauses.py: 已 / 了 / 完 / 好, past participles, "is in",
  "now …") and the person's words for it: 搞定 / 上线了 / 合进去了 / 处理了 / 成功了, "sorted",
  "that's in", "done and deployed", a measured change ("p99 900 ms → 120 ms", "从 14 分钟降到 6 分钟"),
  "yes, merged" answering the assistant's question whether it was.

An offer is not a finish: the person's plain go-ahead to it ("要我现在加上吗？" — "加吧", "yes, do it")
makes the offered work asked for (:func:`accepted_offer`), which the session must still do.

Pure functions over strings.
"""

from __future__ import annotations

import re

from ..text.keywords import weights
from . import clauses as cl

FINISHED = "finished"
IN_PROGRESS = "in progress"
NEXT = "next"             # the next piece of work: "X is next", 下一步, 接下来
PLANNED = "planned"       # for later, or put off: "I'll …", "tomorrow", "on hold", 回头, 先放一放
FAILED = "failed"
OPEN = "open"             # not done yet, still to do, not started
STATE = "state"           # how things are: neither reports work finished nor leaves it open
QUESTION = "question"
HELD = (IN_PROGRESS, NEXT, PLANNED, FAILED, OPEN)       # verdicts whose subject a session holds open

# per-item status marks: a check mark or a trailing "— done" finishes the item; an hourglass, a
# cross, an empty box or "— still open" leaves it open
_MARK_DONE = re.compile(r"(?:^|\s)(?:✅|✔️?|☑️?|✓)(?=\s|$)|"
                        r"(?:\s[—–-]{1,2}\s*|——\s*|[:：]\s*)(?:done|fixed|merged|shipped|deployed|landed|resolved|"
                        r"complete|completed|finished|live|in|ok|已完成|完成|搞定|已上线|上线了|已合并|合了|好了|已修复)"
                        r"(?=\s*(?:[,，.。;；(（]|$))", re.I)
_MARK_OPEN = re.compile(r"(?:^|\s)(?:⏳|⌛|🚧|❌|✗|✘|⬜|🔲|☐|🔄|⏸️?)(?=\s|$)|"
                        r"(?:\s[—–-]{1,2}\s*|——\s*|[:：]\s*)(?:still open|open|pending|todo|to do|not started|not done|"
                        r"not yet|wip|in progress|blocked|next|later|waiting|on hold|未开始|没开始|还没开始|未完成|"
                        r"进行中|待定|待办|待做|还没|没做|未做|下一步|阻塞)\b", re.I)
_BOX = re.compile(r"^(\s*(?:[-*+•]\s+|\d+[.)、]\s+)?)\[([ xX])\]\s*")

# in progress: the work began but is not finished
_IN_PROGRESS_EN = re.compile(
    r"\b(?:start(?:ed|ing)? (?:on|to|with|work(?:ing)? on|wiring|writing|building|migrating|porting)|"
    r"(?:began|begun) (?:on|to|work|\w+ing)|kicked off|partially|partly|"
    r"half[- ](?:done|way|finished|written|implemented|wired|migrated)|halfway|"
    r"(?:the|a) first (?:half|pass|cut|draft|slice)|(?:an )?initial (?:draft|pass|skeleton|stub)|scaffolded|"
    r"stubbed(?: out)?|a skeleton|(?:just|only) a (?:stub|placeholder)|wip|work in progress|"
    r"(?:is|are|still|currently) in progress|in progress\s*$|under ?way|in review|under review|up for review|"
    r"awaiting (?:review|approval|merge|sign-?off|confirmation)|"
    r"(?:^|(?<=[—:：-] )|still |currently |(?:is|are|am|'s|'re) (?:still )?)(?:waiting|blocked) (?:for|on)|"
    r"(?:tests?|suite|job|build|migration|backfill|benchmark|load test|pipeline|ci|rollout|deploy(?:ment)?|"
    r"crawl|reindex\w*|import) (?:is|are) (?:still )?running|"
    r"(?:is|are) (?:still )?being (?:\w+ed|built|written|run|done)|"
    r"still (?:running|working on|in progress|going|waiting|being|in review|migrating|deploying|building|testing))\b",
    re.I)
_IN_PROGRESS_ZH = re.compile(
    r"(?:开始|着手|动手)(?:做|弄|写|搞|改|接|搭|迁|处理|实现|重构|排查|查)|(?:写|做|改|弄|搞|迁|测|接|实现|完成)(?:了|到)?一半|"
    r"一半(?:还没|没|未)|部分(?:完成|实现|支持|接入|迁移)|只(?:完成|做|写|改|迁)了(?:一部分|部分|一半|前半)|"
    r"(?:先|只)?搭了?(?:个|一个)?(?:架子|框架|骨架)|架子|骨架(?!屏)|雏形|"
    r"正在(?![\u4e00-\u9fff]{1,3}的)|还在(?=[跑做弄写改查测等迁评审部署编译构建])|进行中|"
    r"(?<![现正存实所自好])在(?:跑|做|弄)(?![了成完好])|跑着|"
    r"(?:待|等(?:着)?)(?:评审|合并|审核|确认|验证|review|上线|发布)")
# next: the next piece of work
_NEXT_EN = re.compile(r"\b(?:is|are|comes?|coming) (?:up )?next\b|\bnext (?:up|on the list|in line)\b|^\s*next\s*(?:[:：]|$)",
                      re.I)
_NEXT_ZH = re.compile(r"下一步|接下来(?!的)|然后再|之后再")
# planned or put off: the work is for later (first person — "the worker will retry" is what the code does)
_PLANNED_EN = re.compile(
    r"\b(?:I'?ll|I will|we'?ll|we will|I'm going to|I am going to|we're going to|we are going to|I plan to|"
    r"we plan to|planning to|I intend to|I'm about to)\b|"
    r"\b(?:tomorrow|next (?:week|sprint|session|time|release|month|iteration)|later (?:today|this week)|"
    r"after (?:lunch|the release|the weekend))\b|(?<!\d )(?<!seconds )(?<!minutes )(?<!hours )(?<!days )"
    r"\blater\b(?! versions?| releases?| builds?| on\b)|\b(?:put|pushed|moved) (?:\w+ )?off\b|"
    r"\bpostpon\w*|\bparked\b|" + cl.PUT_OFF_EN, re.I)
_PLANNED_ZH = re.compile(
    r"回头|改天|下次|下回|明天|后天|下周|下个?(?:迭代|版本|sprint|月)|晚点|待会|等会|稍后|"
    r"准备(?=[要去把下明做弄开接])|打算|计划(?=[要在把做下明])|"
    r"(?:我|我们|咱们?)(?:来|会|再|先)(?=[把做弄写改加接补跑])(?![^，,。；;]*?[了过完好])|"
    r"(?<![不])再(?:做|弄|补|加|接|写|改|处理|说|看|跑|约|定)(?![了过好完])|以后再|"
    r"先(?:别管|不管|放一边|不做|不弄|缓)|放一边|推迟|延后|顺延|" + cl.PUT_OFF_ZH)
# still open, said outright: not started, still to do
_STILL_OPEN = re.compile(
    r"\bnot (?:yet )?(?:started|begun)\b|\b(?:haven't|hasn't|didn't|did not|have not) (?:started|begun)\b|"
    r"\bstill (?:to do|open|pending|outstanding|on the list)\b|(?:还|尚)?(?:没|未)开始|待办|待做|"
    r"(?:还|仍)是?(?:未解决|没解决|悬而未决)", re.I)
# failed: a run, test or build that does not pass (not what the code does with a failure: "failed
# deliveries are retried, then marked failed"; not a fix: "the failing test is fixed")
_FAILED_EN = re.compile(
    r"\b(?:tests?|build|run|job|checks?|ci|pipeline|migration|deploy(?:ment)?|rollout|upgrade|step|command|"
    r"install(?:ation)?|compil(?:e|ation)|lint|shard|suite|specs?|e2e|it)\b[^,.;:—]{0,30}?"
    r"\b(?:fails|failed|broke|crashed|timed out|times out|errored|is (?:still )?(?:red|failing|broken))\b|"
    r"\b(?:does ?n[o']t|did ?n[o']t|won'?t) (?:pass|build|compile|start|deploy|boot)\b", re.I)
_FAILED_ZH = re.compile(r"挂了|挂掉了|失败了|(?:还是|一直|又|仍然)(?:失败|报错|超时|挂)|(?:个|条)(?:用例|测试)(?:失败|没过)|"
                        r"报错了|没(?:有)?(?:跑|测)?过(?![的去来])|不通过|没通过|跑不通|起不来|卡住了|超时了|编译不过|红了|"
                        r"还挂着|(?:测试|用例|构建|流水线)[^，。；]{0,3}挂着")
# a condition inside the clause: a failure the work handles ("失败时发告警", "if the upload fails, …"), a
# change of numbers that only happens then ("go from 5 to 30 s if the header asks")
_CONDITIONAL = re.compile(r"如果|要是|万一|(?<![超小耗定实及临同按准暂])时(?![间])|的时候|的话|就(?:会|进|发|重试|报)|"
                         r"\b(?:if|when|whenever|once|unless|in case|until)\b", re.I)
_FIX = re.compile(r"\b(?:fix(?:ed|es)?|resolved|repaired|no longer)\b|修好|修复|解决了|不再", re.I)
# the person's words for finished work that the aspect markers of summary/clauses.py do not carry
_FINISHED_WORDS = re.compile(
    r"搞定|弄好|整好|办好|处理(?:了|好|掉|完)|解决了|成功了?(?![率])|(?:上线|发布|发版|部署|合并|合入)了|"
    r"合(?:进|到)(?:去|主干|master|main)|合了|"
    r"(?:进去|上去|下来|出来|起来|过来|掉|成|到)了|"
    r"\b(?:sorted(?: out)?|taken care of|took care of|all set|good to go|done|merged|shipped|landed|deployed|"
    r"released)\b|\b(?:that'?s|it'?s|is|are) in(?: now)?\s*(?:[,.;!—]|$)", re.I)
# a change made, its new state between the verb and the 了 that ends the sentence ("warmup 做成
# --warmup-epochs 了", "超时我改成 30 秒了", "缓存换成 Redis 了") — not "改成…了，但还没部署"
_CHANGED_TO = re.compile(r"(?:改|换|做|调|设|配)(?:成|为)[^，,。；;？?]{1,30}?了\s*[。.!！]?\s*$")
# a result with numbers: a measured change ("p99 900 ms → 120 ms", "from 14 to 6 minutes", "内存从 2G 降到 600M")
_MEASURED = re.compile(r"\d[\d.,]*\s*[A-Za-z%\u4e00-\u9fff]{0,4}\s*(?:→|->|=>|⇒|\bto\b|降到|降至|降为|减到|缩短到|"
                       r"提升到|提到|升到|涨到|变成|变为)\s*\d", re.I)
# an answer that confirms what was asked ("yes, merged", "对，合了", "done")
_AFFIRM = re.compile(r"^\s*(?:yes|yep|yeah|yup|sure did|indeed|correct|confirmed|done|是的?|对(?:的)?|嗯|恩|没错|"
                     r"(?:已经)?(?:好了|弄好了|搞定了?|合了|上线了|做完了))(?![a-z])", re.I)
_NEGATIVE_ANSWER = re.compile(r"^\s*(?:no\b|nope|not yet|not really|还没|没有|没呢|不是|没)", re.I)
# a question whether something was done ("Has it been merged?", "Did you rotate the key?",
# "DNS 改了吗？") — not an offer or a proposal ("Shall I merge it?", "要不要我来改？")
_ASKS_DONE = re.compile(
    r"\b(?:has|have|had|is|are|was|were|did)\b[^?]*\?\s*$|(?:了|过|好|完)(?:吗|没有?|么)\s*[？?]?\s*$|"
    r"是不是(?:已经)?[^？?]*[？?]\s*$|有没有[^？?]*(?:过|了)[^？?]*[？?]?\s*$", re.I)
_OFFER = re.compile(r"\b(?:shall|should|can|could|may) (?:I|we)\b|\b(?:do|would) you (?:want|like)\b|\bwant me\b|"
                    r"\bhow about\b|\bwhy not\b|要不要|需要我|我来|要我|可以吗|行吗|好吗|怎么样", re.I)
_POINTS_BACK = re.compile(r"\b(?:it|this|that|they|them|those|these)\b|那个|这个|那块|这块|它", re.I)


def with_marks(text: str) -> str:
    """``text`` with Markdown check boxes written as marks that survive sentence splitting
    (summary/clauses.py drops ``[x]`` / ``[ ]`` with the bullet): ``- [x] a`` → ``- ✅ a``."""
    return "\n".join(_BOX.sub(lambda m: m.group(1) + ("✅ " if m.group(2) in "xX" else "⏳ "), line)
                     for line in (text or "").split("\n"))


def statements(text: str) -> list:
    """The statements of ``text``, each carrying its own verdict: its sentences (and list items), and
    a sentence that lists several items each with its status mark ("burst allowance — done,
    Retry-After — still open") one per item."""
    out = []
    for sentence in cl.sentences(with_marks(text)):
        parts = [p for p in re.split(r"\s*[,，;；、]\s*", sentence) if p.strip()]
        marked = [p for p in parts if _MARK_DONE.search(p) or _MARK_OPEN.search(p)]
        out += parts if len(parts) > 1 and len(marked) == len(parts) else [sentence]
    return out


# a clause that turns against what came before it: "…, but the models still use the old names",
# "…；不过 iPad 横屏还是会挤"
_CONTRAST = re.compile(r"^(?:but|however|though|although|except|yet|only|不过|但是?|可是|然而|只是|就是|只不过)(?![a-z])", re.I)


def _against(clause: str) -> bool:
    """Does a clause turn against the work before it: a contrast that leaves it open, failing or
    lacking ("…, but paging is broken", "不过 iPad 横屏还是会挤")?"""
    clause = clause.strip()
    return bool(_CONTRAST.match(clause)) and (
        cl.not_yet(clause) or cl.lacking(clause) or _clause_verdict(_CONTRAST.sub("", clause).strip()) is not None)


def read(text: str) -> list:
    """``[(statement, verdict)]`` of ``text`` (:func:`statements`, :func:`verdict`); a finished statement
    that the next one turns against ("图例挪到了下面；不过 iPad 横屏还是会挤") is only partly done."""
    out = [[s, verdict(s)] for s in statements(text)]
    for i in range(len(out) - 1):
        if out[i][1] == FINISHED and _against(out[i + 1][0]):
            out[i][1] = IN_PROGRESS
    return [tuple(pair) for pair in out]


def _clause_verdict(clause: str) -> str | None:
    """The verdict a clause's own markers give, strongest first, else ``None``."""
    if _STILL_OPEN.search(clause):
        return OPEN
    if _IN_PROGRESS_EN.search(clause) or _IN_PROGRESS_ZH.search(clause):
        return IN_PROGRESS
    if _NEXT_EN.search(clause) or _NEXT_ZH.search(clause):
        return NEXT
    if _PLANNED_EN.search(clause) or _PLANNED_ZH.search(clause):
        return PLANNED
    if (_FAILED_EN.search(clause) or _FAILED_ZH.search(clause)) and not _FIX.search(clause) and \
            not _CONDITIONAL.search(clause):
        return FAILED
    return None


def verdict(statement: str) -> str:
    """Where the work one statement names stands: :data:`FINISHED`, :data:`IN_PROGRESS`, :data:`NEXT`,
    :data:`PLANNED` (for later, put off), :data:`FAILED`, :data:`OPEN`, :data:`QUESTION` or
    :data:`STATE`. A statement is finished only when a clause reports it done and no clause says it
    is in progress, next, planned, failed or still open; a status mark of its own decides an item."""
    text = statement.strip()
    if not text:
        return STATE
    if _MARK_OPEN.search(text):
        found = _clause_verdict(text)
        return found if found in (IN_PROGRESS, NEXT, PLANNED) else OPEN
    if cl.is_question(text):
        return QUESTION
    parts = cl.clauses(text) or [text]
    found = [v for v in (_clause_verdict(c) for c in parts) if v]
    for kind in (IN_PROGRESS, NEXT, PLANNED, FAILED, OPEN):
        if kind in found:
            return kind
    if any(_against(c) and any(cl.completed(b) for b in parts[:i]) for i, c in enumerate(parts) if i):
        return IN_PROGRESS          # partly done: "Renamed the tables, but the models still use the old names"
    if cl.open_sentence(text):
        return OPEN
    if _MARK_DONE.search(text) or cl.done_sentence(text) or \
            ((_FINISHED_WORDS.search(text) or _CHANGED_TO.search(text) or
              _MEASURED.search(text) and not _CONDITIONAL.search(text))
             and not cl.negated(text) and not cl.is_condition(text)):
        return FINISHED
    return STATE


def finished(statement: str) -> bool:
    return verdict(statement) == FINISHED


# the words that only say where the work stands, removed to leave its subject ("Started on
# retries" → "retries", "分批写入先搭了个架子" → "分批写入")
_STANDING = re.compile(
    rf"{_MARK_OPEN.pattern}|"
    r"\b(?:start(?:ed|ing)?|began|begun|kicked off|partially|partly|half(?:way)?|first|pass|cut|draft|initial|"
    r"skeleton|stub(?:bed)?(?: out)?|scaffolded|placeholder|wip|work in progress|in progress|under ?way|review|"
    r"awaiting|waiting|blocked|running|being|still|next|then|I'?ll|will|we'?ll|let'?s|going to|plan(?:ning)? to|"
    r"intend to|about to|like to|want to|need to|tomorrow|week|sprint|session|time|release|later|today|after|"
    r"lunch|weekend|for|put|pushed|moved|off|postpon\w*|parked|on hold|not|open|pending|outstanding|to do|todo|"
    r"on the list|in line|up|comes?|coming|"
    r"I|we|wrote|did|do|done|made|got|the|a|an|of|on|it|is|are|am|some|part|work|working|wiring|doing)\b", re.I)
_STANDING_ZH = re.compile(rf"{_IN_PROGRESS_ZH.pattern}|{_NEXT_ZH.pattern}|{_PLANNED_ZH.pattern}|{_STILL_OPEN.pattern}|"
                          r"先|再|把|了|一下|我|我们|那个|这个|这块|它")


def subject(statement: str) -> str:
    """What a statement held open is about: the item a status mark marks ("Retry-After header —
    still open", "⏳ Crash reporting — not started"), else its clause that carries the marker, without
    the words that only say where the work stands."""
    mark = _MARK_OPEN.search(statement)
    if mark and mark.start() > 0:
        text = statement[:mark.start()]
        lead = re.match(r"^[^:：]{1,24}[:：]\s*(?=\S)", text)       # "Status: X — still open"
        text = text[lead.end():] if lead else text
    elif mark:
        text = re.split(r"\s[—–-]{1,2}\s|——|[:：]", statement[mark.end():])[0]
    else:
        parts = cl.clauses(statement) or [statement]
        marked = [c for c in parts if _clause_verdict(c) in HELD] or parts[:1]
        # a clause that names its work only by pointing back ("we'll get to that later"): the sentence
        text = statement if all(_POINTS_BACK.search(c) or not _named(c) for c in marked) else " ".join(marked)
    text = _STANDING_ZH.sub(" ", _STANDING.sub(" ", text))
    return " ".join(text.replace("✅", " ").split()).strip(" ,，:：—–-")


def _named(text: str) -> bool:
    """Does ``text`` name work, once the words that say where it stands are gone?"""
    return bool(weights(cl.main_text(_STANDING_ZH.sub(" ", _STANDING.sub(" ", text)))))


def held_open(statement: str, kind: str | None = None) -> list:
    """The subjects a statement holds open in its session (``[]`` unless it is in progress, next,
    failed or marked open): the marked clause's subject, and — for a statement in progress or failed —
    its first clause's ("Started on retries: the table exists, the worker doesn't use it yet" holds
    "retries"; "Renamed the tables, but the migration test fails" holds "the tables")."""
    kind = kind or verdict(statement)
    if kind not in HELD or (kind == OPEN and not _MARK_OPEN.search(statement) and not _STILL_OPEN.search(statement)):
        return []                     # "水印还没加": capture's to-do, not a subject held by a marker
    out = [subject(statement)]
    first = cl.clauses(statement)[:1]
    if kind in (IN_PROGRESS, FAILED) and first:
        out.append(subject(first[0]))
    return [s for s in dict.fromkeys(out) if s and _named(s)]


def confirmed(question: str, answer: str) -> list:
    """The statements a short answer confirms: "yes, merged" (or "对，合了", "done") to the
    assistant's question whether something was done ("I see PR #41 wires crash reporting in. Has it
    been merged?") makes that question — and the sentence before it, when the question points back
    to it — a statement of finished work. Never an offer answered ("Shall I merge it?" — "yes"), nor
    "not yet"."""
    answer = answer.strip()
    if not answer or _NEGATIVE_ANSWER.match(answer) or len(answer) > 80 or \
            verdict(answer) in (IN_PROGRESS, NEXT, PLANNED, FAILED, OPEN) or \
            re.search(r"\b(?:but|however|though|except|only|partly)\b|不过|但|只是|只有|除了|一半", answer, re.I):
        return []                     # "yes, but only on staging", "合了一半", "对，明天上线"
    if not (_AFFIRM.match(answer) or (finished(answer) and not _content_beyond_pointing(answer))):
        return []
    said = cl.sentences(question)
    if not said or not cl.is_question(said[-1]) or not _ASKS_DONE.search(said[-1]) or _OFFER.search(said[-1]):
        return []
    asked = said[-1].rstrip(" ?？")
    out = [asked]
    if len(said) > 1 and _POINTS_BACK.search(asked):
        out.insert(0, said[-2])
    return out


# what an answer may say besides that it is done, and still name no work of its own
_ANSWER_FILLER = re.compile(
    r"\b(?:yes|yeah|yep|already|I|we|myself|ourselves|by hand|manually|just|now|all|the|was|were|has|have|had|"
    r"been|did|do|it|this|that|morning|yesterday|today|tonight|last night|earlier|ago|an? hour)\b|"
    r"我们?|咱们?|已经|早就|手动|自己|亲自|刚才?|昨天|今天|前天|早上|上午|下午|晚上|这边|那边|了|的|都|"
    r"周末|上周|顺手|那块|这块|\b(?:last (?:week|night)|over the weekend|myself)\b", re.I)


def named_work(statement: str) -> str:
    """What a statement of finished work names beyond a pronoun, when and who, and the word that it is
    done: "分区" of "分区那个我周末自己改了", "The API reference" of "The API reference is sorted"."""
    return _ANSWER_FILLER.sub(" ", _FINISHED_WORDS.sub(" ", _POINTS_BACK.sub(" ", statement)))


def _content_beyond_pointing(answer: str) -> bool:
    """Does an answer name work of its own, beyond a pronoun, when and who, and the word that it is done
    ("那个我已经手动处理了", "I did it myself this morning" name none)?"""
    return bool(weights(cl.main_text(named_work(answer))))


# the person's go-ahead to an offer or a proposal: "yes, do it", "go ahead", "sounds good", "可以，写吧",
# "加吧", "行，就这么办" — the whole answer, nothing put off, declined or held back in it
_GO_AHEAD = re.compile(
    r"^\s*(?:(?:yes|yeah|yep|yup|sure|ok(?:ay)?|alright|right|agreed|perfect|great|lgtm|sounds good|go ahead|"
    r"go for it|do it|please do|let'?s do it|make it so|可以|行|好的?|好啊|嗯|恩|没问题|同意|就这么办|就这样|就按这个来?|"
    r"(?:那就|那)?(?:做|写|加|改|弄|搞|上|来|修|开始|动手|干)吧)"
    r"(?:[\s,，.。!！~—–-]+|$))+"
    r"(?:(?:please |just )?(?:do it|go ahead|go for it|do that|write it|add it|ship it|let'?s go|"
    r"(?:那就|就)?(?:做|写|加|改|弄|搞|上|来|修|开始|动手|干)吧|就这么办)[\s.。!！~]*)?$", re.I)
_HOLDS_BACK = re.compile(r"不|别|先不|暂时|以后|下次|回头|改天|再说|等|但|不过|\b(?:no|not|later|wait|hold|but|"
                         r"tomorrow|next)\b", re.I)
# what makes an assistant's text an offer or a proposal the person can accept: "Shall I add it?",
# "要我现在加上吗？", "你确认了我就写", "If you agree I'll …", "The raw query could become an FTS entity"
_PROPOSES = re.compile(_OFFER.pattern + r"|确认了?(?:我|就)|同意的话|需要的话|要的话|没问题的话|你看行不行|我的想法是|我建议|建议(?:用|改|先)|"
                       r"\bif you (?:agree|confirm|want|like|say so|are ok)\b|\bsay the word\b|\blet me know\b|"
                       r"\b(?:I|we) (?:can|could|would) (?:add|write|do|make|wire|set|move|switch|turn|use|build)\b|"
                       r"\b(?:could|can|would) (?:become|be done|work)\b|\bmy (?:plan|suggestion|proposal) (?:is|would be)\b|"
                       r"\bthe plan (?:is|would be)\b", re.I)


def go_ahead(answer: str) -> bool:
    """Is ``answer`` the person's plain go-ahead ("yes, do it", "可以，写吧", "加吧") — not "later",
    "not now", "先不用", nor a go-ahead with a condition or a new request of its own?"""
    answer = (answer or "").strip()
    return 0 < len(answer) <= 40 and bool(_GO_AHEAD.match(answer)) and not _HOLDS_BACK.search(answer)


def accepted_offer(offer: str, answer: str) -> list:
    """The statements of the assistant's ``offer`` the person's ``answer`` accepts: all of them, when
    the answer is a plain go-ahead (:func:`go_ahead`) and the text offers or proposes work ("要我现在加上
    吗？", "Shall I add the retry?", "我的想法是……你确认了我就写") — else ``[]``. What the offer says is
    done or not changed yet ("I haven't changed anything yet") is no part of the work accepted."""
    if not go_ahead(answer):
        return []
    said = statements(offer or "")
    if not any(_PROPOSES.search(s) for s in said):
        return []
    return [s for s in said if verdict(s) != FINISHED and not re.search(
        r"\b(?:haven'?t|have not|didn'?t) (?:changed|touched|done) (?:anything|it)\b|还没(?:改|动)", s, re.I)]
