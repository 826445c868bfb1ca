"""Open work a report states as a plain state, told by the SHAPE of the sentence rather than by a word
for a defect (docs/summaries.md § To-dos): what makes a state a defect to a developer.

  * it is an item of a list the message introduces as problems ("排查下来存在的问题：", "A few rough
    edges:", "I found these problems while testing:") — :func:`problem_lead`, :func:`problem_item`;
  * it comes with a consequence that is trouble ("日志只打到 stdout，节点重启以后就找不回来了", "the bucket
    keeps every file forever, so storage grows by 30 GB a week") — not good news ("…, so it is safe to
    expose", "所以不受外网限速影响") nor a trouble said absent ("不会丢");
  * the old thing is still in place ("对账任务还在老的 crontab 上") or it is hedged as a stopgap ("reads
    the token from an env var for now", "暂时用环境变量顶着") or as tried only so far ("目前只在 S3
    上试过", "I only tested it with the CLI");
  * something that should be there is absent, said emphatically ("什么提示都没有", "Nothing alerts us
    when …", "there's nothing to undo it yet") or by a clause that starts with 没有 after the subject
    ("评估只看总体 F1，没有每个类别的混淆矩阵");
  * someone gets a bad outcome ("annual customers also get an empty invoice");
  * a task the person asked to be reminded of, said again ("As you asked: ask Lena for the logo",
    "你让我提醒的：找运维要权限") — :func:`reminder_lead`.

Each gives way to what tells a state rather than leaves it open (summary/clauses.py: told, intended,
a fix, a question, a condition) — the look-alikes: how it works now, a result, an intended or agreed
limit, a cause that was fixed, a list of what was done or checked. Pure functions over strings.
"""

from __future__ import annotations

import re

from . import clauses as cl

# ---------------------------------------------------------------------------------------------
# a list introduced as problems

_PROBLEM_NOUN = re.compile(
    r"问题|隐患|风险|不足|缺陷|毛病|短板|局限|待改进|需要注意|要注意|"
    r"\b(?:problems?|issues?|concerns?|rough edges?|gaps?|caveats?|limitations?|shortcomings?|weak spots?|"
    r"warts|(?:things?|stuff) (?:I|we) (?:noticed|found|spotted|saw|ran into|hit|didn't like)|"
    r"(?:noticed|found|spotted) (?:while|along|on the way|in there))\b", re.I)
# … unless the lead says they are dealt with ("之前说的几个问题都处理了：", "Fixed along the way:",
# "Issues resolved:") or asks
_RESOLVED = re.compile(r"(?<![待要需未没得])(?:处理|解决|修|改好|改掉|搞定|消除)|没有了|不存在|都好了|"
                       r"(?<!\bto )\b(?:fix\w*|resolv\w*|solv\w*|address\w*|handl\w*|sort\w*|clear\w*|clos\w*|"
                       r"gone|no)\b", re.I)
_LEAD = re.compile(r"^(?P<lead>[^:：\n]{2,48}?)\s*[:：]\s*")
_LEAD_WORDS = 9
# an item that is dealt with all the same: fixed, now true, or fine
_DEALT_WITH = re.compile(r"已经?|修好|修复|搞定|解决了|处理了|改好了|\b(?:fixed|resolved|solved|already|no longer)\b|(?<!\bfor )\bnow\b",
                         re.I)


def _short_lead(sentence: str):
    lead = _LEAD.match(sentence)
    if not lead:
        return None
    text = lead.group("lead").strip()
    short = len(text) <= 24 if cl.is_cjk(text) else len(text.split()) <= _LEAD_WORDS
    return lead if short and not cl.is_question(text) else None


def resolved_lead(sentence: str):
    """A lead that introduces what follows as problems dealt with ("之前提的几个问题都解决了：", "Issues
    fixed along the way:") or as what was done or checked ("Fixed along the way:", "Things I checked:")."""
    lead = _short_lead(sentence)
    if not lead:
        return None
    text = lead.group("lead")
    dealt = _PROBLEM_NOUN.search(text) and _RESOLVED.search(text) or _DONE_LEAD.match(text.strip())
    return lead if dealt and not cl.is_open(text, obligations=False) else None


_DONE_LEAD = re.compile(r"^(?:(?:also|and)\s+)?(?:(?:fixed|done|changed|checked|verified|tested|cleaned up|tidied up)"
                        r"(?: along the way| on the way| as well| too)?|(?:things?|what) (?:I|we) (?:fixed|changed|checked|"
                        r"verified|tested|did)|顺手(?:修|改|处理)了?|顺便(?:修|改|处理)了?|(?:已经?)?(?:修|改|处理|完成|检查)(?:了|过)的)$",
                        re.I)


def lead(sentence: str) -> tuple:
    """The lead of a list this module reads and what keeps an item under it: a problem lead
    (:func:`problem_item`), a reminder (:func:`reminder_item`), or a list of what was dealt with or
    done (no item is open work); ``(None, None)`` else."""
    for find, keeps in ((problem_lead, problem_item), (reminder_lead, reminder_item),
                        (resolved_lead, lambda item: False)):
        found = find(sentence)
        if found:
            return found, keeps
    return None, None


def problem_lead(sentence: str):
    """A lead that introduces what follows as problems ("还有这些问题：", "Known problems 还有几个：",
    "Things I noticed while in there:") — not one that says they are fixed ("之前的几个问题都处理了：",
    "Fixed along the way:") — as a match whose end is where the items start, else None."""
    lead = _short_lead(sentence)
    if not lead:
        return None
    text = lead.group("lead")
    resolved = _RESOLVED.search(text) and not cl.is_open(text, obligations=False)      # not "Problems not yet fixed:"
    return lead if _PROBLEM_NOUN.search(text) and not resolved and not cl.told(text) else None


# the items after a lead: one a ``；`` or a number ("…: a; b; and c", "1. a 2. b"), not at ", and" — "augmentation is
# only a random flip, and we should add jitter" is one problem and what to do about it
_ITEMS = re.compile(r"[；;]|(?:^|\s)\(?\d+[.)、]\s+|\s*[①②③④⑤⑥]\s*")


def items(rest: str) -> list:
    return [cl.strip_connective(p.strip(" ，,。.、")) for p in _ITEMS.split(rest) if p and p.strip(" ，,。.、")]


def problem_item(item: str) -> bool:
    """Does an item under a problem lead leave work open: it names something, and it does not tell
    (a pitfall, an agreed or intended limit, a request to the person), ask, say it is fine or dealt with."""
    item = cl.strip_connective(item)
    return bool(cl.main_text(item).strip()) and not (
        cl.told(item) or cl.for_the_person(item) or cl.is_question(item) or cl.NOTHING_LEFT.search(item) or
        _DEALT_WITH.search(item) or _GOOD.search(item))


# a reminder of a task the person asked for, said again: "As you asked: …", "Reminder: …", "你让我提醒的：…"
_REMINDER = re.compile(r"^(?:(?:and|also|oh,? and)\s+)?(?:as (?:you )?(?:asked|requested)|(?:a |your |the )?reminders?"
                       r"(?: for you)?|you asked me to remind you(?: to)?|(?:还有|另外|对了)?[，,]?\s*"
                       r"(?:你(?:让|要|叫)我提醒(?:你)?的?|提醒(?:你)?一下|提醒你|备忘))\s*[:：]\s*", re.I)


def reminder_lead(sentence: str):
    """"As you asked: ask Lena for the logo SVG", "你让我提醒的：找运维要权限": the lead, else None."""
    return _REMINDER.match(sentence.strip())


def reminder_item(item: str) -> bool:
    return bool(cl.main_text(item).strip()) and not (cl.completed(item) or _DEALT_WITH.search(item) or
                                                     cl.is_question(item))


# ---------------------------------------------------------------------------------------------
# a state that is a defect by its shape

# a consequence: a clause that opens with one, or says what will / can happen
_CONSEQUENCE_OPENS = re.compile(r"^(?:so(?! that)|which|that means|meaning|and then|then|所以|导致|结果|于是|这样|那样|"
                                r"因此|到时候?)\b|^(?:所以|导致|结果|于是|这样|那样|因此|到时)", re.I)
_MODAL = re.compile(r"\b(?:will|would|can|could|may|might|gets?|get|keeps?|ends? up)\b|会|就得|就要|就会|容易|可能|都要|就|得",
                    re.I)
# what is trouble when it happens
_BAD_EN = re.compile(
    r"\b(?:break|breaks|broken|drifts?|drift|crash(?:es)?|lost|lose|loses|leaks?|wiped|erased|"
    r"grows? (?:by|without|unbounded|forever|every|each)|stale|slow|slower|404s?|overflows?|fills? up|diverges?|"
    r"duplicated?|twice|random|wrong|out of sync|keeps? access|never (?:\w+ed|sent|seen|run|fires?)|"
    r"(?:everything|all over) again|from scratch|expensive|garbage|unreadable|blocked|stuck|locked out|confus\w+|"
    r"surprised?)\b", re.I)
_BAD_ZH = re.compile(r"丢|找不回|挡住|遮住|挡|变砖|崩|卡住|卡死|很慢|变慢|很大|很多|偏(?:乐观|高|低|大|小)|不准|乱|"
                     r"泄露|泄漏|白屏|从头|手工|手动|手改|重复|漏掉|误[删报判杀伤触]|以为|看不到|"
                     r"找不到|用不了|打不开|进不去|没法|无法|不了|膨胀|爆|溢出|多\s*\d|翻倍|不一致|对不上")
# … said absent or prevented ("won't break", "不会丢", "不受影响")
_BAD_NEGATED = re.compile(r"(?:不会|不受|没有|不再|避免|防止|免得|以免)[\u4e00-\u9fff]{0,3}$|"
                          r"\b(?:no|won't|will not|never|doesn't|don't|not|no longer|can't|cannot|without)\s*(?:\w+\s+){0,2}$",
                          re.I)
_GOOD = re.compile(r"\b(?:safe|thread-safe|fine|ok|okay|correct|stable|fast|faster|cheap|cheaper|harmless|idempotent|"
                   r"deterministic|survives?|secure|intact)\b|安全|稳定|没问题|不受|更快|正常|省", re.I)


def _trouble(clause: str, after: int = 0) -> bool:
    """Does a clause say that something bad happens (after ``after``: in what follows, not in the
    condition before it — "都失败就打日志") and not that it is avoided ("不会再被误丢")?"""
    for found in list(_BAD_EN.finditer(clause)) + list(_BAD_ZH.finditer(clause)):
        if found.start() >= after and not _BAD_NEGATED.search(clause[:found.start()][-24:]):
            return True
    return False


def _consequence(clause: str) -> bool:
    """A clause that says a bad consequence follows ("so storage grows by 30 GB a week", "节点重启以后
    就找不回来了", "“去兑换”按钮会被挡住"): it opens with a consequence or says what will happen,
    the happening is trouble, and it is not good news."""
    clause = cl.strip_connective(clause)
    opens = _CONSEQUENCE_OPENS.search(clause) or _MODAL.search(clause)
    if not opens or cl._NO_LONGER.search(clause):
        return False
    return _trouble(clause, opens.start()) and not _GOOD.search(clause) and not cl.is_condition(clause)


# a judgement that a measure or a result is off, said last: "…，指标偏乐观", "…, so the numbers are inflated"
_JUDGED = re.compile(r"偏(?:乐观|高|低)|虚高|不准|不可信|对不上|\b(?:(?:overly )?optimistic|inflated|misleading|unreliable|"
                     r"meaningless|off by \w+)\b", re.I)


def _judged_bad(clause: str) -> bool:
    return bool(_JUDGED.search(clause)) and not _BAD_NEGATED.search(clause[:_JUDGED.search(clause).start()][-24:])


def _untold(clause: str) -> bool:
    """A clause that names something and is no reason, condition or question, nor dealt with."""
    return bool(cl.main_text(clause).strip()) and not (
        cl.is_rationale(clause) or cl.is_condition(clause) or cl.is_question(clause) or
        cl._CONDITION_IN.search(clause) or cl._WHEN_ZH.search(clause) or cl._FIXED.search(clause) or
        _DEALT_WITH.search(clause) or cl._NO_LONGER.search(clause))


def _a_state(clause: str) -> bool:
    """A clause that can be the state a consequence follows from: it names something, does not report
    work done, is no reason, condition or question, and is not itself the consequence."""
    return _untold(clause) and not (
        cl.reports_done(clause) or _CONSEQUENCE_OPENS.search(cl.strip_connective(clause)) or
        re.match(r"^(?:without|否则|不然|要不然|otherwise)", cl.strip_connective(clause), re.I))


# the old thing still in place: 还在 Jenkins 上, 还放在本地, 还留在老集群里 — not a limit kept ("还在 2MB 的限制以内")
_STILL_THERE_ZH = re.compile(r"(?<![我们你他她它])还(?:在|留在|放在|跑在|挂在|停在|存在|写在)\s*(?P<where>[^，,。；;]{1,24}?)(?:上|里|中|下)(?![面午])")
_WITHIN = re.compile(r"以内|之内|范围|限制|预算|额度|跑|进行|处理|路上|排队")
# a stopgap: "for now", "暂时用…", "先…顶着"
_STOPGAP = re.compile(r"\b(?:for now|for the time being|for the moment|as a stopgap|temporarily)\b|暂时(?![没不别无未])|"
                      r"顶着|凑合|将就|临时方案|权宜", re.I)
_PLAN = re.compile(r"\b(?:let's|let us|I'll|we'll|I will|we will|going to|leave it|keep it)\b|先(?:这样|不管|放)|吧\s*$", re.I)
# tried only so far: 目前只在 X 上试过, 只用 Y 测过, "I only tested it with the CLI", "only tried on Chrome"
_TRIED_ONLY = re.compile(r"(?:只|仅)(?:在|用|拿|对|跟|和)[^，,。；;]{1,24}?(?:测|试|跑|验证|验|调通)(?:了|过)|"
                         r"(?:只|仅)(?:测|试|验证)(?:了|过)|"
                         r"\bonly (?:tested|tried|verified|checked|ran|run|exercised)\b(?: (?:it|this|that|them))? "
                         r"(?:on|with|against|in|under|locally|by hand|through)\b", re.I)
# absence said emphatically: 什么提示都没有, 一点记录都没留, 任何告警都没有; "Nothing alerts us when …"
_NOTHING_ZH = re.compile(r"(?:什么|任何|一点|一条|一个)(?P<what>[^，,。；;都也]{1,8})(?:都|也)没(?:有|留|记|给|发|存|报|提示|反应)?")
_NOTHING_EN = re.compile(
    r"^(?:(?:and|but|also)\s+)?(?:nothing|no one|nobody)\s+(?P<what>alerts?|pages?|warns?|notifies|tells?|checks?|catches|"
    r"stops?|prevents?|cleans? up|retries|rotates|expires|validates|monitors|tracks|records|reminds?|removes?|"
    r"deletes?|prunes?|watches|guards?|is (?:alerted|paged|notified|warned|told))\b|"
    r"\bnothing to (?:\w+\s+){1,4}yet\b", re.I)
# a clause that starts with 没有/缺少 after its subject in the clause before: "…，没有每个类别的混淆矩阵"
_ABSENT_OPENS = re.compile(r"^(?:也|都|还|并|完全|根本)?(?:没有|缺少|缺乏)(?P<what>[\u4e00-\u9fffA-Za-z][^，,。；;]{1,30})$")
# someone gets a bad outcome: "annual plans also get an empty invoice", "users see a blank page"
_BAD_OUTCOME = re.compile(r"\b(?:also |still )?(?:gets?|receives?|sees?|ends? up with|is sent|are sent)\s+(?:an?\s+|the\s+|two\s+|"
                          r"a second\s+)?(?:empty|blank|duplicate|wrong|stale|broken|garbled|extra|double|second|premature|"
                          r"incorrect|bogus|spurious)\b|(?:收到|看到|拿到)(?:的是)?(?:空的?|重复的?|错误的?|两[份封条张])", re.I)
# a change still to be made, said as "得换成…" after its subject ("token 得换成项目级的", "得挪到 Secret 里去")
_MUST_CHANGE = re.compile(r"(?:^|(?<=[\sA-Za-z0-9_)）]))得(?=[改换加做补处支接迁拆调写修删配升跟去重挪搬移收关开])")


_DOING = re.compile(r"^(?:[上用做改加去走动写选跑装开关换接迁拆调测修删配提发合放留存读进出过]|什么|任何)")


def _absent_whole(clause: str, sentence_parts: list, i: int) -> bool:
    """A clause opening with 没有 whose subject is the clause before and whose object ends it (没有每个类别
    的混淆矩阵, 没有回退的办法) — not a subject phrase that goes on (没有权限的用户点导出会返回 403)."""
    found = _ABSENT_OPENS.match(cl.strip_connective(clause).rstrip("。.!！"))
    if not found or i == 0:
        return False
    what = found.group("what")
    if _DOING.match(what):
        return False              # "没有上 Postgres", "没有写进代码": a thing not done, told as a choice or a fact
    attributive = re.match(r"^[^的]{0,10}的(?P<rest>.*)$", what)
    if attributive and len(attributive.group("rest")) > 8:
        return False
    return not cl._TROUBLE.search(what) and not re.search(r"了\s*$", what) and \
        not any(cl._CONDITION_IN.search(p) or cl._WHEN_ZH.search(p) for p in sentence_parts[i - 1:i])


# what is news when it is absent ("一条告警都没响", "一个用例都没挂", "什么报错都没有"): a result, not a gap
_NOISE_ZH = re.compile(r"告警|报警|报错|错误|异常|问题|失败|挂|超时|丢|崩|冲突|警告|" + cl.TROUBLE_ZH)


def _emphatic_absence(clause: str) -> bool:
    zh = _NOTHING_ZH.search(clause)
    if zh and not _NOISE_ZH.search(zh.group("what")) and not _NOISE_ZH.match(clause[zh.end():]) and \
            not cl._WHEN_ZH.search(clause[zh.end():]):
        return True
    en = _NOTHING_EN.search(cl.strip_connective(clause))
    return bool(en) and not re.search(r"\b(?:else|has changed|changed|broke|failed)\b", clause, re.I)


# a wish in a subordinate clause: "要是能支持断点续传就好了", "It would help if the CLI printed the path",
# "I'd suggest we move the cron into the scheduler" — not a regret about the past ("要是当时加了索引就好了")
# nor a request to the person ("It would help if you sent the logs")
_WISH = re.compile(r"^(?:要是|如果|假如|若)(?:能|可以)[^，,。；;]{2,40}?就(?:更|会更|最)?好了?|"
                   r"\bit(?:'d| would) (?:really |also )?(?:help|be (?:good|nice|better|great|useful|cleaner|safer)) if\b|"
                   r"\b(?:I'd|I would|we'd|I)\s+(?:suggest|recommend|propose)\s+(?:we\b|that\b|\w+ing\b)", re.I)
_NOT_A_WISH = re.compile(r"当时|之前|以前|早点|早些|\bif you\b|\byou (?:could|can)\b|你(?:能|可以)", re.I)


def wish(sentence: str) -> bool:
    sentence = cl.strip_connective(sentence)
    return bool(_WISH.search(sentence)) and not _NOT_A_WISH.search(sentence) and not cl.is_question(sentence) and \
        not cl.told(sentence)


def stated_defect(sentence: str) -> bool:
    """Does a sentence state a defect by its shape (see the module docstring): a state with a bad
    consequence, the old thing still in place, a stopgap, a scope tried only so far, an emphatic
    absence, a clause opening with 没有 after its subject, a bad outcome someone gets, or a change
    still to be made ("得换成…"), or a wish in a subordinate clause (:func:`wish`)? Never one that tells
    (clauses.told), asks or is a condition."""
    if wish(sentence):
        return True
    if cl.is_question(sentence) or cl.is_condition(sentence) or cl.told(sentence) or cl.for_the_person(sentence) or \
            cl.explains(sentence) or cl._FINE.search(sentence) or cl.NOTHING_LEFT.search(sentence):
        return False
    parts = cl.clauses(sentence)
    for i, clause in enumerate(parts):
        if cl.is_rationale(clause) and not _CONSEQUENCE_OPENS.search(cl.strip_connective(clause)):
            continue
        if i and (_consequence(clause) or i == len(parts) - 1 and _judged_bad(clause)) and _a_state(parts[0]):
            return True
        if _untold(_STOPGAP.sub(" ", clause)) and (_still_there(clause, sentence) or _stopgap(clause) or
                                                   _BAD_OUTCOME.search(clause)):
            return True           # a state these shapes make a defect, even in a past form ("is read from … for now")
        if _MUST_CHANGE.search(clause) and not cl.reports_done(clause) and not cl.is_rationale(clause):
            return True           # "token 得换成项目级的"
        if tried_only(clause) and not cl.is_rationale(clause):     # "I only tested it with the CLI"
            return True
        if _emphatic_absence(clause) or _absent_whole(clause, parts, i):
            return True
    return False


def tried_only(clause: str) -> bool:
    """"目前只在 ESP32-S3 上试过", "I only tested it with the Stripe CLI": a scope tried only so far."""
    return bool(_TRIED_ONLY.search(clause))


def _still_there(clause: str, sentence: str = "") -> bool:
    """The old thing still in place — not a thing kept safe or left as it was ("重启以后数据还在 Redis 里，
    没有丢", "配置还在原来的目录里，路径没变")."""
    found = _STILL_THERE_ZH.search(clause)
    return bool(found) and not _WITHIN.search(found.group("where")) and not _KEPT.search(sentence or clause)


_KEPT = re.compile(r"没丢|没有丢|不会丢|完好|都在|没变|不变|没动|照旧|一样|\b(?:intact|unchanged|as before)\b", re.I)
# nothing more to say: "That's all for now", "Good enough for now", "先这样"
_ALL_FOR_NOW = re.compile(r"\b(?:that's|that is|this is|it's|that'll be) (?:all|it)\b|\b(?:enough|fine|ok|okay|good)\b|"
                          r"就这些|先这样|够用", re.I)


def _stopgap(clause: str) -> bool:
    return bool(_STOPGAP.search(clause)) and not _PLAN.search(clause) and not _ALL_FOR_NOW.search(clause)
