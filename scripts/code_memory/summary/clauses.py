"""How a sentence of a session reads, in Chinese and English: sentences and clauses, the role of a
clause (a reason or consequence, a condition), negation and its scope, and the aspect a clause
states — done, still open, deferred, intended — the grammar summary/todos.py and
summary/decisions.py build on (docs/summaries.md § The deterministic reading).

The markers are grammatical, not topical: perfective and resultative aspect (已 / 了 / 完 / 好,
past participles, "is in", "now …"), negation scoped to its clause and made "not yet" by a
temporal word (还没, 尚未, not … yet, still isn't, haven't), deferral (回头, 下次, 有空, 上线前要,
later, next time, at some point, before we deploy), modality (得 / 要先 / should / ought to), a
deficiency of the current state said as a state (missing, untested, flaky, hard-coded, still <the
old thing>, 还是…, 目前只…, 写死, 看不清: :func:`lacking`) or through the sentence's structure
(absence, a negated behaviour, a scope that stops short, an outcome that is trouble — unless what is
absent or negated is trouble itself: :func:`_structural_state`), and
connectives that open a reason (因为, 免得, so that, to avoid) or a condition (如果, if); where
one sentence lists several pieces of open work (:func:`open_items`); and a sentence that tells the
states it names — a pitfall written down, an agreed limit, the past, a fix — rather than leaving them
open (:func:`told`), or asks the person to do something (:func:`for_the_person`).

Pure functions over strings.
"""

from __future__ import annotations

import re

_CJK = r"\u3400-\u9fff"
# sentence ends: 。！？ (and ；/; unless ``clauses`` is false: a lead such as "下一步：a；b" keeps its
# items together), line breaks, and "." before a space — except after a list number ("1. item",
# "…: 1. a, 2. b") or an abbreviation ("e.g. ")
_END_MARKS = re.compile(r"[。！？!?]+|[；;]|\n+|\.\s+")
_LIST_NUMBER = re.compile(r"(?:^|[:：,，;；(（\n])\s*\(?\d{1,2}$")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|Mr|Dr|No)|\.\.)$", re.I)
_CLAUSE_SPLIT = re.compile(r"\s*(?:[，；;（）]|,\s|:\s|：|\s[—–-]{1,2}\s|——|—|\s\(|\)(?=[\s,.;:]|$))\s*")
_BULLET = re.compile(r"^\s*(?:[-*+•]\s+|\d+[.)、]\s+|\[[ xX]\]\s*)+")
_CONNECTIVE = re.compile(r"^(?:另外|此外|还有|对了|顺便(?:说一下)?|最后|而且|同时|然后|但是|但|不过|只是|可是|also|and|plus|"
                         r"oh,? and|one more thing|btw|by the way|finally|then|but|however|though)(?![a-z])[,，:：\s]*", re.I)

# a clause that gives a reason, a purpose or a consequence (not the work itself)
_RATIONALE = re.compile(
    r"^(?:因为|由于|所以|因此|否则|不然|免得|省得|以免|以便|为了|为的是|避免|防止|好让|这样(?:就|才|可以|能)?|从而|主要是|"
    r"because|since|as\b|so that|so as to|otherwise|or else|to avoid|to prevent|in case|which (?:means|would|is why)|"
    r"that way|for (?:the )?(?:sake|reason))", re.I)
_CONDITION = re.compile(r"^(?:如果|若|要是|假如|万一|if\b|unless\b|when you\b|in case\b)", re.I)
_QUESTION = re.compile(r"[?？]\s*$|(?:吗|了没有?|好了没)\s*[。.]?\s*$|^(?:要不要|是否|能不能|可不可以|shall|should (?:i|we)\b|do you|would you|want me|which)", re.I)

# completion: perfective / resultative aspect, a state that now holds
_DONE_ZH = re.compile(
    r"已经?|完成|搞定|做完|跑完|写完|改完|弄完|修完|测完|好了|完了|过了|不再|现在|"
    r"[加补改写删修跑测做配换升降迁合提装建移整接查拆调上覆盖拒退收发存接][了好完过](?![解])|覆盖了|通过")
_DONE_EN = re.compile(
    r"\b(?:now|already)\b|\b(?:is|are|was|were|'s|'re) (?:now )?(?:in(?=\s*(?:[,.;:!—]|$))|done|ready|live|fixed|"
    r"working|green|merged|deployed|passing|finished|complete|wired up|hooked up)\b|\b(?:has|have) been\b|"
    r"\b(?!need|speed|seed|feed|embed|indeed|bed|red|hundred|based|used to)[a-z]{3,}ed\b|"
    r"\b(?:wrote|ran|built|made|did|got|put|set up|took|found|kept|moved|went|came out|sent|split|cut|read)\b",
    re.I)
# what is trouble to have, in Chinese: said absent or negated ("没有丢数据", "不会阻塞"), the news is good
TROUBLE_ZH = (r"报错|错误|问题|影响|变化|变动|改动|改变|冲突|重复|丢|泄|警告|异常|积压|区别|必要|关系|差异|延迟|超时|失败|崩|"
              r"卡|阻塞|乱码|回归|遗漏|漏|风险|副作用|复现")
# negation, Chinese: scoped to the clause; "not yet" needs a temporal word (没同步 alone is a cause)
_NOT_YET_ZH = re.compile(r"(?:还|尚|仍|暂|暂时|目前|现在还?)(?:没有?|未|不)(?!(?:什么|任何)?(?:问题|影响|报错|错误|异常|冲突|风险|关系|必要|区别|差异|副作用|回归))|尚未|还未|没来得及|没顾上|没做完|没弄完|没写完|未完成|没(?:动|碰|处理|管)(?![过好完])|"
                         r"(?:也|都)?(?:还是|仍然是|依然是)(?:硬编码|写死)|"
                         r"也还?没(?!有?(?:问题|关系|影响|报错|变化?|什么|必要|用到?|区别|" + TROUBLE_ZH + r"))有?(?=[\u4e00-\u9fffA-Za-z])")
_NEG_ZH = re.compile(r"没有?|未|不|别|无|非")
_NOT_YET_EN = re.compile(
    r"\bnot (?:\w+ )?yet\b|n't (?:[\w-]+ ){0,6}yet\b|\byet to\b|\bstill (?:not|no|isn't|aren't|doesn't|don't|can't|"
    r"hasn't|haven't|missing|broken|open|pending|outstanding|needs?|has to|have to|to do)\b|\bhaven't\b|\bhasn't\b|"
    r"\bdidn't (?:get to|have time|manage)\b|\bwasn't able\b|\b(?:is|are)n't (?:\w+ly )?\w+ed\b|"
    r"\b(?:is|are) not (?:\w+ly )?\w+ed\b|\bnot (?:done|finished|handled|supported|implemented|covered|wired|"
    r"connected|migrated|tested|documented|fixed)\b|"
    r"\bstill (?:uses?|shows?|imports?|calls?|sleeps?|points? (?:to|at)|references?|hard-?codes?|is hard-?coded|"
    r"reads? from|writes? to|depends? on|relies on)\b(?![^.;]*\buntil\b)|\bno (?:\w+ ){1,2}yet\b", re.I)
_NEG_EN = re.compile(r"\b(?:not|no|never|nothing|without|none)\b|n't\b", re.I)
# "before <an event>, …": 上线前要…, 发版前得…, 合并之前记得…
# words that put work off — shared by capture (a deferral), a statement's verdict (planned) and a
# request's clause that is not asked for now: 放一放, 先放着, 先搁置, 暂缓, on hold, put it aside, park the …
PUT_OFF_ZH = r"先?放一放|先放着|先搁(?:置|着|一搁)?|搁置|暂缓"
PUT_OFF_EN = r"\bon hold\b|\bput (?:it|that|this|them) aside\b|\bpark (?:the|it|that|this)\b|\bhold off on\b"
BEFORE_EVENT_ZH = r"[\u4e00-\u9fff]{2}之?前(?=\s*(?:要|得|需要|先|记得|务必|一定|必须))"
# deferral: work put off or still left (下一步, 回头, 下次, 上线前要…, next time, later, remaining …)
_DEFER_ZH = re.compile(
    r"下一步|接下来|后续|待办|待做|还差|还缺|遗留|TODO|记得|别忘了?|不要忘了?|提醒(?:一下)?(?:我|我们)|回头|改天|"
    r"(?<!等)下次|等下次(?!\s*[。.!！]?\s*$)|下回|"
    rf"有空|得空|抽空|找时间|等有空|{BEFORE_EVENT_ZH}|{PUT_OFF_ZH}|"
    r"(?:之后|以后|后面|随后|晚点)(?=\s*(?:要|得|再|需要|还|可以|记得|补|加|做|改|把|给|跟|去|处理|看))")
# "a minute later", "two days later": a span of time that passed, not work put off
AFTER_A_SPAN = "".join(rf"(?<!{unit} )(?<!{unit}s )" for unit in ("second", "minute", "hour", "day", "week", "month", "year"))
_DEFER_EN = re.compile(
    r"\bnext steps?\b|\bup next\b|\bnext up\b|\bto-?dos?\b|\bremaining\b|\bleft to do\b|\bfollow[- ]?ups?\b|"
    r"\boutstanding\b|\bpending\b|\bnext time\b|\bremember to\b|\bdon't forget\b|\bdo not forget\b|"
    r"\bat some point\b|\beventually\b|\b" + AFTER_A_SPAN + r"later\b|\bwhen (?:we|you) (?:have|get) (?:time|a chance)\b|"
    r"\bnice to have\b|\b(?:would|'d|could|might|may) (?:also |probably |really )?be (?:nice|good|worth|better|useful|great|cleaner|wise|safer)\b|"
    r"\bremind (?:me|us)\b|" + PUT_OFF_EN + r"|\bworth (?!noting|knowing|writing down|mentioning|remembering|recording)(?:\w+ing)\b|"
    r"\bbefore (?:we|you|it|this) (?:deploy|release|ship|merge|go live|run|roll out)|\bbefore (?:deploying|releasing|"
    r"shipping|merging|rolling out|going live)\b|\bbefore the (?:next |first )?(?:release|deploy(?:ment)?|launch|merge)\b|\bbefore (?:launch|release|go-live)\b",
    re.I)
# obligation: work that must still be done (还需要, 要先, should, needs to, please check …) — in a
# session that changed nothing this is advice in an answer, not a to-do
_OBLIGE_ZH = re.compile(r"还需要?|还要|还得|仍需|有待|(?:要|得|需要)先|需要补|要补|得补|(?<!已)(?<!已经)补上(?=[。.！!]?$)|(?:这个|这块|这里|这点)(?:要|得|需要)(?:处理|修|改|跟进|解决)|可以(?:再)?考虑|最好(?!的)|"
                        r"也(?:得|要|需要?|该)|(?<![不无])需要(?=[改换加做补处支接迁拆调写修删配])|"
                        r"(?<![不])应(?:该|当)(?![没不是可能会就也还])")
_OBLIGE_EN = re.compile(
    r"\bshould(?! (?:now |also )?(?:work|pass|be fine|be ok|help|fix it|do it)\b)|\bought to\b|\bneeds? to\b|"
    r"\bwill need\b|\bwe'?ll (?:want|need)\b|\bwe will (?:want|need)\b|\bhave to\b|\bhas to\b|\b(?:it'?d|it would) be better to\b|\bideally (?:we|you|it)\b|\bplease (?:check|make sure|verify|remember|update|add|run|confirm)\b|"
    r"\bmake sure\b", re.I)
_INTENDED = re.compile(r"故意|有意|特意|刻意|按设计|是预期|不需要|无需|不用改|没必要|用不着|on purpose|intentional|deliberate|"
                       r"by design|as intended|no need|not needed|not necessary|doesn't need", re.I)
# a sentence that says the state it describes is all right ("…, which is fine"; "这是正常的")
_FINE = re.compile(r"\b(?:which|that|this|it) is (?:fine|expected|ok|okay|normal)\b|\bas expected\b|这是正常的|属于正常", re.I)
NOTHING_LEFT = re.compile(r"nothing (?:left|remaining|else)|no (?:remaining|open|further) |没有(?:待办|遗留|剩下)|无待办|"
                          r"都(?:已经?)?(?:完成|做完|搞定)", re.I)
# marker words, removed before two lines are compared for the work they name
_MARKER_WORDS = re.compile(
    rf"{_DEFER_ZH.pattern}|{_OBLIGE_ZH.pattern}|{_NOT_YET_ZH.pattern}|{_DEFER_EN.pattern}|{_OBLIGE_EN.pattern}|"
    r"\b(?:not|yet|still|never|haven't|hasn't|isn't|aren't|doesn't|don't|didn't|wasn't|weren't)\b|n't\b|"
    r"\b(?:we|i|you|it|that|this|is|are|the|a|an|so|also|still|just)\b|吧|呢|了|一下|那个|这个|顺手|顺便", re.I)


# a deficiency of the current state, stated as a state, not as an instruction: missing, untested,
# not supported, doesn't exist, flaky, hard-coded, broken/red/failing, "still <does the old
# thing>", "only … for now"; 还是/仍然…, 目前只…, 写死, 不支持, 缺…, 没测, a potential complement
# negated (看不清, 搜不到, 打不开)
_STILL_FINE = (r"(?:not|no|need|needs|pass|passes|passed|passing|work|works|working|succeeds?|compiles?|builds? fine|green|fine|"
               r"ok|okay|valid|correct|good|holds?|appl(?:y|ies)|match(?:es)?|supports?|supported|accepts?|handles?|"
               r"redirects?|resolves?|loads?|behaves?|compatible|available|reachable|intact|readable|usable|"
               r"the same|there for|in place|on track|fast|think|want|have access)\b")
_LACKING_EN = re.compile(
    r"\b(?:is|are|'s|'re)\s+(?:still\s+|currently\s+|also\s+)?(?:missing|absent|broken|red|failing|flaky|stale|"
    r"outdated|out of date|wrong|incorrect|left out|lost|garbled|corrupted|truncated|cut off|misaligned)\b|"
    r"\bstill missing\b|\b(?:crashes|hangs|freezes|overlaps|flickers|keeps (?:crashing|failing|hanging|timing out))\b|"
    r"\bleaks? memory\b|\b(?:breaks|chokes|errors out) (?:on|with|for|when)\b|\bthere(?:'s| is| are) (?:also|still|currently) no\b|\bthere(?:'s| is| are) no\b(?=.*\byet\b)|"
    r"\black(?:s|ing)\b|\bflak(?:y|es|ing)\b|"
    r"\bhard-?coded\b|\bun(?:tested|supported|handled|documented|implemented|validated|verified|translated|cached|"
    r"indexed|escaped|saniti[sz]ed|paginated|locali[sz]ed|monitored|enforced|configured)\b|"
    r"\b(?:does|do)(?:n't| not) (?:exist|work|support|handle|cover|scale|apply|respect|validate|check|retry|"
    r"clean up|expire)\b|"
    rf"(?<!\bcan )(?<!\bcould )(?<!\bwill )(?<!\bwould )(?<!\bmay )(?<!\bmight )"
    rf"\bstill (?!{_STILL_FINE})(?:[a-z]+ed\b|(?=\w))|"
    r"\bonly\b[^.;]*\b(?:for now|so far|at the moment)\b|\b(?:currently|for now) only\b|"
    # left out for the time being: "HEIC files are skipped for now", "the check is disabled at the moment"
    r"\b(?:is|are|'s|'re)\s+(?:still\s+)?(?:skipped|ignored|disabled|excluded|stubbed(?: out)?|mocked|turned off|"
    r"switched off|commented out)\s+(?:for now|for the moment|at the moment|so far)\b|"
    # a switch that is off: "the export schema option is off", "the lint check is disabled"
    r"\b(?:option|flag|setting|switch|toggle|check|validation)s?\s+(?:is|are)\s+(?:still\s+|currently\s+)?"
    r"(?:off|disabled|turned off|switched off)\b(?!\s+by default)", re.I)
# a reference to what is gone: "the links in the changelog point to files that no longer exist" (what is
# gone may be told in the past: "… point to anchors that were removed")
_DANGLING = re.compile(r"\bpoints?\s+(?:to|at)\b[^.;]{0,60}?\b(?:that|which)\s+(?:no longer exists?|(?:do|does)(?:n't| not) "
                       r"exist|(?:were|was|have been|has been|got) (?:removed|deleted|moved|renamed))\b", re.I)
_LACKING_ZH = re.compile(
    r"(?<![我们咱就那要最终后])(?:还是|仍然|依然|仍旧|依旧|照样)"
    r"(?!(?:能|可以|可用|正常|好的|好用|通过|全过|全绿|绿|过了?|没问题|对的|兼容|有效|生效|稳定|决定|选|先|改回|保留)|\s*\d[\d.:]*\s*(?:ms|s|MB|KB|GB|%|秒|毫秒|条|个|次)?\s*[。.]?\s*$)|"
    r"(?:(?:目前|暂时|眼下)[^，,。；;]{0,12}?|还|仍)(?:也|都)?(?:只|仅)(?:有|能|支持|覆盖|处理|认|用)|"
    r"写死|硬编码|不支持|缺(?!省)|没测|未测|不稳定|时好时坏|偶尔(?:会)?(?:失败|挂|报错|超时)|"
    r"是(?:乱|错)的|不对(?![称齐])|乱码|错位|重叠|闪退|崩溃|卡死|白屏|"
    r"(?<![离分先次版回暂就都也])(?<=[\u4e00-\u9fff])不(?:清|到|上|通|开|动|出来|起来|进去|了(?![解多]))"
    r"(?![多\d\s]*(?:\d|秒|分钟|毫秒|ms|MB|KB|%))")
# a deficiency said through the sentence's structure rather than a word for it: something the work
# lacks ("has no retry", "there's no canary", "no way to re-send", "缓存没有过期时间", "回滚步骤也没有",
# "没法按租户区分"), a behaviour negated ("doesn't invalidate on rename", "I didn't wire up the
# callback", "两边不同步"), a scope that stops short ("only runs on x86", "只能手工维护") and an
# outcome that is itself trouble ("rows are silently dropped", "会丢字节", "会被吞掉") — each unless
# what is absent, negated or stopped is itself trouble (:data:`_TROUBLE`: "no errors", "没有报错",
# "doesn't block the UI thread", "不会阻塞")
_ABSENT = re.compile(
    r"\b(?:has|have|gets?|there(?:'s| is| are))\s+(?:also\s+|still\s+|currently\s+)?no\s+(?P<what>\S+(?:\s+\S+){0,2})|"
    r"(?<=[\u4e00-\u9fffA-Za-z0-9_)）\]\s])(?:也|都|并|根本|完全|暂时|目前)?(?:没有|缺少|缺乏)\s*"
    r"(?P<what3>[\u4e00-\u9fffA-Za-z]{0,4})|(?:没法|没办法|无法)(?P<what4>[\u4e00-\u9fffA-Za-z]{1,4})", re.I)
# a behaviour negated: an omission of the one who did the work ("I didn't wire up …", "we did not set
# up …"), or what a thing itself does not do ("logout doesn't end the Okta session", "the search box
# doesn't index the new pages"; in Chinese only between parts: "多台网关之间不共享", "两边不同步") — not
# what it is promised not to do (trouble: "doesn't lock the table", "doesn't return the password"; "we
# don't store card numbers", "草稿不发通知", can't / won't / never) nor what it no longer does ("…
# anymore", "不依赖 Java 了")
_NEGATED_DOING = re.compile(
    r"\b(?:I|we)\s+(?:did not|didn't|never got to)\s+(?:\w+ly\s+)?(?P<what>\w+(?:\s+\w+){0,2})|"
    r"\b(?<!I )(?<!we )(?<!you )(?<!they )(?:doesn't|does not)\s+(?:\w+ly\s+)?(?P<what2>\w+(?:\s+\w+){0,2})"
    r"(?![^.;]*\bany ?more\b)|"
    r"(?:之间|互相|彼此|两边|各自)(?:的[^，,。；;]{0,12}?)?不(?!会|用|需|必|是|要|能|可|太|够|过|再|一|了|然|如|管|论|仅|只|但|得|少|多|"
    r"错|同(?!步)|久|断|大|小|高|低|对|好|行|便|妨|限|定|止|足|满|清|到|上|通|开|动|出|起|进|变|敢|想|肯|该|应|许|准)"
    r"(?P<what3>[\u4e00-\u9fff]{2})(?=$|[，,。；;！!\sA-Za-z0-9])", re.I)
_STOPS_SHORT = re.compile(
    r"\b(?:only|can only)\s+(?:works?|runs?|supports?|understands?|handles?|targets?|accepts?|covers?|"
    r"recogni[sz]es?|knows?|speaks?|parses?|builds?|compiles?)\b|"
    r"只(?:能|会)(?:在|手工|手动|人工|靠|通过|从)|只(?:支持|认|覆盖|适用于?|兼容)", re.I)
_TROUBLE_OUTCOME = re.compile(
    r"\b(?:is|are|gets?|being)\s+(?:\w+ly\s+)?(?:lost|truncated|swallowed|corrupted|duplicated|overwritten|garbled|"
    r"mangled|eaten|resurrected|double[- ]counted|counted twice)\b|\bsilently\s+(?:\w+ed|lost|eaten)\b|"
    r"(?<![不没])会(?:被)?(?:丢|吞|漏|截断|覆盖|清空|重复|乱|挤|卡|崩|闪退|误|串|错)|(?:会|又)重新出现|又出现", re.I)
_TROUBLE = re.compile(
    r"\b(?:errors?|warnings?|regressions?|failures?|problems?|issues?|conflicts?|collisions?|duplicates?|leaks?|loss|"
    r"downtime|impact|changes?|diffs?|needs?|exceptions?|timeouts?|delays?|lag|backlog|side[- ]effects?|"
    r"surprises?|differences?|risk|noise|dependenc(?:y|ies)|broken|lose|lost|bad|wrong|stale|way around|more|longer|"
    r"one|passwords?|secrets?|credentials?|pii|personal data|card numbers?|"
    r"(?:crash|depend|lock|block|break|fail|affect|touch|modif(?:y|ie)|alter|remov|delet|renam|mov|leak|hang|"
    r"collid|duplicat|matter|requir|need|interfer|stall|drop|corrupt|overwrit|reproduc|harm|hurt|chang)"
    r"(?:e|s|es|ed|d|ing)?)\b|"
    r"^(?:出现|发生|产生|引入|新增)?(?:" + TROUBLE_ZH + r"|改|动|变|再|需要|用|什么|任何|依赖|敏感|明文)", re.I)


def _structural_state(clause: str):
    """The first deficiency :data:`_ABSENT`, :data:`_NEGATED_DOING`, :data:`_STOPS_SHORT` or
    :data:`_TROUBLE_OUTCOME` find in ``clause`` whose object is not itself trouble, or None."""
    for pattern in (_ABSENT, _NEGATED_DOING):
        for found in pattern.finditer(clause):
            what = next((g for g in found.groups() if g is not None), "")
            attributive = re.match(r"^[^，,。；;]{0,8}的", clause[found.end() - len(what):])   # 没有权限的用户
            if what and _TROUBLE.search(what) or attributive:
                continue
            if not what and (not re.search(r"(?:也|都|还)没有\s*$", clause[:found.end()]) or
                             re.search(rf"(?:{TROUBLE_ZH})(?:也|都)没有\s*$", clause[:found.end()])):
                continue              # a bare 没有 needs its subject before it: "回滚步骤也没有" (not "什么报错都没有")
            if re.search(r"了\s*[。.!！]?\s*$", clause):
                continue              # "不依赖 Java 了", "没有 sleep 了": no longer so, a change done
            return found
    return _STOPS_SHORT.search(clause) or _TROUBLE_OUTCOME.search(clause)


# … unless said of the past or as a cause, inside a condition, as intended, or of what the clause fixes
_NOT_NOW = re.compile(r"之前|以前|原来|原先|本来|当时|一开始|因为|由于|原因是|导致|"
                      r"\b(?:was|were|used to|had|because|caused|due to|turned out)\b", re.I)
_PASSING = re.compile(r"\b(?:until|simply|by design|for (?:existing|older|old|legacy) (?:clients|users|callers|apps)|"
                      r"backwards?[- ]compat\w*)\b|兼容老|向后兼容", re.I)     # a state that passes, or is meant
_CONDITION_IN = re.compile(r"如果|要是|假如|万一|\b(?:if|when|whenever|unless|in case|whether|once)\b", re.I)
_STILL_GOOD = re.compile(r"^[^，,。；;]*?(?:全过|通过|正常|没问题|可用|能用|兼容|有效|生效)|"
                         r"^[^,.;]*?\b(?:pass(?:es|ing)?|works?|working|green|fine|correctly|properly|as before|"
                         r"as expected|normally|cleanly)\b", re.I)     # "…还是 9 个全过", "still all pass"
_WHEN_ZH = re.compile(r"(?<![超小耗定实及临同按准暂])时(?:候)?(?![间])|的话")       # "数据库连不上时返回 503"
_NOW = re.compile(r"现在|目前|\bnow\b", re.I)
_ADJECTIVAL = re.compile(r"\b(for|the|a|an|of|on|with|in|any|all|its|their|our|to|from|by) [a-z]{3,}ed\b|()\bun[a-z]{3,}ed\b|"
                         r"()\b[a-z]+-[a-z]{3,}ed\b", re.I)        # "comma-separated": a compound adjective
_EITHER = re.compile(r"(?:不管|无论|不论)[^，,。]*还是")                 # "不管是 A 还是 B": "or"
_FIXES_ZH = re.compile(r"(?:改|换|替换)(?:成|为)|(?:去掉|去除|移除|删掉|拿掉)(?!的)|修好|修复|了\s*$")   # "把写死的地址改成…了"


_TROUBLE_STATE_ZH = re.compile(r"乱码|错位|重叠|闪退|崩溃|卡死|白屏")
_NEGATION_END_ZH = re.compile(r"(?:没有?|不会?|无|未|再也不|不再)(?:再|出现|发生|产生)?\s*$")
_SUBORDINATE = re.compile(r"\b(?:when|whenever|if|once|after|before|until|unless|because|since)\b|" + _WHEN_ZH.pattern, re.I)
_DETERMINER_END = re.compile(r"\b(?:the|a|an|this|that|these|those|its|their|our|every|each)\s+$", re.I)


def lacking(clause: str) -> bool:
    """A clause that states a deficiency of the current state ("the Windows steps are untested",
    "the PDF still prints the old totals block", "图表库还是整包引入的", "颜色看不清") — not of the
    past or as a cause, not inside a condition ("returns 401 when the header is missing"), not
    intended, and not what the clause reports fixed ("Fixed the flaky test", "把写死的地址改成读配置了")."""
    dangling = _DANGLING.search(clause)
    if dangling:               # told before ("used to point to …"), intended, conditional or asked: no
        return not (_TOLD_BEFORE.search(clause) or _INTENDED.search(clause) or is_question(clause) or
                    _CONDITION_IN.search(clause[:dangling.start()]) or _FIXED.search(clause[dangling.end():]))
    found = _LACKING_EN.search(clause) or _LACKING_ZH.search(clause) or _structural_state(clause)
    if not found:
        return False
    before, after = clause[:found.start()], clause[found.end():]
    if _TROUBLE_STATE_ZH.fullmatch(found.group(0)) and _NEGATION_END_ZH.search(before):
        return False                  # "两边没有重叠的板子", "不会乱码": the trouble is said absent
    if found.group(0)[:2].lower() == "un" and _DETERMINER_END.search(before):
        return False                  # "the untested branch now has two tests": names the branch
    if _NOT_NOW.search(clause[:found.end()]) or _CONDITION_IN.search(before) or _WHEN_ZH.search(before) or \
            _WHEN_ZH.search(after) or _STILL_GOOD.search(after) or _NEG_EN.search(before) or \
            _PASSING.search(clause) or _INTENDED.search(clause) or _FINE.search(clause) or \
            _NO_LONGER.search(clause) or _EITHER.search(clause) or re.search(r"吧\s*$", clause) or is_question(clause):
        return False                  # _NEG_EN before it: "Nothing is broken"
    if found.group(0).lower().rstrip() == "still":               # "still <verb>": the verb is the state
        after = re.sub(r"^\S+", " ", after)
    after = _SUBORDINATE.split(after)[0]          # "… when a product is renamed": not what it reports
    rest = _NOW.sub(" ", before + " " + after)
    rest = _ADJECTIVAL.sub(lambda m: m.group(1) or "", rest)      # "for failed uploads" names, reports nothing
    return not (completed(rest) or _FIXES_ZH.search(rest))


# what makes a sentence tell the states it names rather than leave them open: a pitfall written
# down ("踩坑记录：…", "Lesson learned: …"), an agreed, documented or third-party limit, a contrast with
# what the change did ("…还是走原来的队列，只是多了一个字段", "…; I only changed what it deletes"), the
# past told in an earlier clause ("一开始…，…照样…"), a fix reported after the state
_NOTE_LEAD = re.compile(r"^\s*(?:踩坑|(?:这个|有个|一个)坑|(?:这里|这儿)有个坑|坑[:：]|记一笔|记一下|备忘|教训|"
                        r"lessons? learned|gotcha|pitfall|(?:note )?for the record)", re.I)
_AGREED = re.compile(r"定好的|约定|说好的|商量好的|需求范围|范围内|范围外|文档里(?:写|有|说)|本身(?=不|没)|第三方|"
                     r"这是[^，,。；;]{0,8}(?:定|要求|确认过?)的|"
                     r"\b(?:agreed|in scope|out of scope|per (?:the )?spec|documented|upstream|third[- ]party|asked for|"
                     r"requested)\b", re.I)
_ONLY_CHANGED = re.compile(r"只是(?:多|加|改|换|把|调)|只(?:改|动|加|换)了|其(?:余|他)(?:的)?(?:都)?(?:不变|没变|没动)|"
                           r"\bI only (?:changed|touched|added|moved|renamed)\b|\bthe rest is unchanged\b", re.I)
# a fix reported after the state ("…照样全绿，已经改成 UTC 了"); not any later completion ("— I only
# checked macOS" leaves the Windows steps untested)
_FIXED = re.compile(r"已经?(?:改|换|修|加|补|去|删|拆|统一)|改成|改为|换成|修好|修复|后来|"
                    r"\b(?:fixed|now|removed|replaced|switched|resolved)\b", re.I)
# a consequence that is good news: "there is no global state, so it is thread-safe", "没有外部依赖，所以很稳定"
_GOOD_CONSEQUENCE = re.compile(r"^(?:(?:so|which means|meaning|hence|therefore)\b|所以|因此|这样).*?(?:\b(?:safe|thread-safe|"
                               r"fine|ok|okay|correct|stable|fast|cheap|simple|harmless|idempotent|deterministic)\b|"
                               r"安全|稳定|没问题|不受影响|更快|正常)", re.I)
_TOLD_BEFORE = re.compile(r"之前|以前|原来|本来|当时|一开始|起初|那次|上次|"
                          r"\b(?:used to|turned out|at first|initially|originally)\b", re.I)


def told(sentence: str) -> bool:
    """Does a sentence tell the deficiencies it names — a story, a fact, a description — rather
    than leave them open (:data:`_NOTE_LEAD`, :data:`_AGREED`, :data:`_ONLY_CHANGED`, intended; a
    state after the past is told or before a fix is reported)? Only the state rules
    (:func:`lacking`) give way to it: "not yet" and deferrals stay open."""
    if _NOTE_LEAD.search(strip_connective(sentence)) or _AGREED.search(sentence) or _INTENDED.search(sentence) or \
            _ONLY_CHANGED.search(sentence):
        return True
    parts = clauses(sentence)
    return any(lacking(c) and (any(_TOLD_BEFORE.search(p) for p in parts[:i]) or
                               any(_FIXED.search(p) and completed(p) for p in parts[i + 1:]) or
                               any(_GOOD_CONSEQUENCE.search(p) for p in parts[i + 1:]))
               for i, c in enumerate(parts))


# a sentence that explains what caused a trouble ("白屏是因为…", "The timeout was because …", "the build
# fails: the table has no _loaded_at column"): it tells
# the cause; only a temporal "not yet" (还没, still, yet) or a deferral in it leaves work open
_EXPLAINS = re.compile(r"是因为|原因是|(?:是|就是)由于|\b(?:was|is|were|are) (?:because|due to|caused by)\b|\bthe (?:cause|reason) (?:was|is)\b|"
                       r"\b(?:fails|failed|breaks|broke)\s*:|(?:挂了|报错了?|失败了?)\s*[:：]", re.I)   # "the build fails: …"
_TEMPORAL = re.compile(r"还|尚|仍|\b(?:yet|still)\b", re.I)


def explains(sentence: str) -> bool:
    return bool(_EXPLAINS.search(sentence)) and not _TEMPORAL.search(sentence) and \
        not any(deferred(c, obligations=False) for c in clauses(sentence))


# a sentence that asks the person to do something the assistant cannot (run it on their side, look
# in their browser, click through an account): not code work left open
_FOR_THE_PERSON = re.compile(r"你那边|你这边|(?:需要|(?<!记)得|(?<![只记])要|麻烦|请)你|帮我|帮个忙|"
                             r"\bon your (?:side|end|machine)\b|\byou'll (?:need|have) to\b|\blet me know\b|"
                             r"\btell me\b|\bin your browser\b", re.I)


def for_the_person(sentence: str) -> bool:
    return bool(_FOR_THE_PERSON.search(sentence))


# a clause that starts another item of a list of open work: "…, and the lockout message isn't
# translated", "…，readinessProbe 也得配一下" (its own subject before 也), "另外…"
_NEXT_ITEM = re.compile(r"^(?:and|also|plus|as well as)\s+(?!(?:it|they|this|that|then|so|now)\b)|"
                        r"^(?:另外|还有|以及|并且)|^[^，,。]{2,}?也", re.I)


def one_line(text) -> str:
    return " ".join(str(text or "").split())


def cut(text: str, limit: int) -> str:
    """``text`` on one line within ``limit`` characters, cut at a clause boundary when one is near."""
    text = one_line(text).strip(" -*")
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    for mark in ("。", "；", ";", "，", ", ", "、", " "):
        at = head.rfind(mark)
        if at >= limit // 2:
            return head[:at].rstrip(" ,，;；、") + "…"
    return head.rstrip() + "…"


def sentences(text: str, clauses: bool = True) -> list:
    """The sentences of ``text``, list markers removed (also split at ``；`` unless ``clauses`` is false)."""
    text = text or ""
    out, start = [], 0
    for mark in _END_MARKS.finditer(text):
        token = mark.group(0)
        if token in "；;" and not clauses:
            continue
        if token.startswith("."):
            before = text[start:mark.start()]
            if _LIST_NUMBER.search(before) or _ABBREVIATION.search(before) or not before.strip():
                continue
        end = mark.start() + 1 if token.startswith(".") else mark.start() if token.startswith("\n") else mark.end()
        out.append(text[start:end])
        start = mark.end()
    out.append(text[start:])
    return [p for p in (_BULLET.sub("", part).strip() for part in out) if p]


def clauses(sentence: str) -> list:
    """The clauses of one sentence (split at commas, semicolons, colons and dashes)."""
    return [c for c in _CLAUSE_SPLIT.split(sentence or "") if c and c.strip(" .。")]


def open_items(sentence: str, states: bool = False) -> list:
    """A sentence that lists several pieces of open work, one piece each: split before a clause
    that starts another item (:data:`_NEXT_ITEM`) when both sides leave work open (``states``: a
    deficiency stated as a state counts, :func:`lacking`) and name work of their own; otherwise
    ``[sentence]``."""
    parts = clauses(sentence)
    starts, pos = [], 0
    for part in parts:
        at = sentence.find(part, pos)
        starts.append(at)
        pos = at + len(part)
    out, begin = [], 0
    for i in range(1, len(parts)):
        left = sentence[begin:starts[i]].rstrip(" ,，;；:：—–-")
        if _NEXT_ITEM.match(parts[i]) and (is_open(parts[i]) or states and lacking(parts[i])) and \
                open_sentence(left, states=states) and \
                _MARKER_WORDS.sub("", left).strip() and _MARKER_WORDS.sub("", parts[i]).strip(" 也"):
            out.append(left)
            begin = starts[i]
    return out + [sentence[begin:]]


def strip_connective(text: str) -> str:
    return _CONNECTIVE.sub("", text.strip()).strip()


def is_rationale(clause: str) -> bool:
    return bool(_RATIONALE.match(strip_connective(clause)))


def is_condition(text: str) -> bool:
    return bool(_CONDITION.match(strip_connective(text)))


def is_question(text: str) -> bool:
    return bool(_QUESTION.search(text.strip()))


def is_cjk(text: str) -> bool:
    cjk = len(re.findall(rf"[{_CJK}]", text or ""))
    return cjk * 3 > len((text or "").replace(" ", ""))


def not_yet(clause: str) -> bool:
    """A negated clause that says the work is not done yet (还没支持, isn't migrated, haven't hooked …)."""
    english = _NOT_YET_EN.search(clause)
    if english and english.group(0).lower().startswith("still ") and not _NOT_YET_ZH.search(clause) and \
            _STILL_GOOD.search(clause[english.end():]):
        return False                  # "the old files still import cleanly": a result
    return bool(_NOT_YET_ZH.search(clause) or english) and not _INTENDED.search(clause)


# a wish said through what a thing not there yet would do: "a bundle-size budget in CI would catch it
# growing", "an index on user_id would speed up the lookup" (not "a retry would make it worse")
_WOULD_HELP = re.compile(r"^(?:a|an)\s+[^.;,]{1,50}?\bwould (?:catch|prevent|flag|guard against|avoid|stop|speed up|"
                         r"save us)\b", re.I)
# "later" inside a condition or a relative clause says when something happens, not that work is put
# off: "so nothing is lost if they pay later", "picks up pods that start later"
_LATER_INSIDE = re.compile(r"\b(?:if|when|whenever|once|that|which|who|until|unless)\b[^,;:.]*?\blater\b", re.I)


def deferred(clause: str, obligations: bool = True) -> bool:
    """A clause that defers work (回头…, 上线前要先…, next time, remember to …) or, with
    ``obligations``, says it must still be done (还需要…, should, please check …)."""
    clause = _LATER_INSIDE.sub(" ", clause)
    found = _DEFER_ZH.search(clause) or _DEFER_EN.search(clause) or _WOULD_HELP.search(strip_connective(clause)) or \
        (obligations and (_OBLIGE_ZH.search(clause) or _OBLIGE_EN.search(clause)))
    return bool(found) and not _INTENDED.search(clause)


def is_open(clause: str, obligations: bool = True) -> bool:
    return not_yet(clause) or deferred(clause, obligations)


def negated(clause: str) -> bool:
    return bool(_NEG_ZH.search(clause) or _NEG_EN.search(clause))


# a negation that reports a change done: 不再超卖, no longer fails, doesn't … anymore
_NO_LONGER = re.compile(r"不再|再也不|\bno longer\b|\bnot (?:\w+ )?any ?more\b|n't (?:\w+ )?(?:\w+ )?any ?more\b", re.I)


def completed(clause: str) -> bool:
    """A clause that states something done or now true, not negated and not still open."""
    if is_open(clause) or is_question(clause) or is_condition(clause) or lacking(clause):
        return False
    if _NO_LONGER.search(clause):
        return True
    if _DONE_ZH.search(clause):
        head = _DONE_ZH.search(clause).start()
        return not _NEG_ZH.search(clause[max(0, head - 3):head])
    found = _DONE_EN.search(clause)
    if not found:
        return False
    return not _NEG_EN.search(clause[max(0, found.start() - 12):found.start()])


def reports_done(clause: str) -> bool:
    """A clause that reports work done, not only a state that holds now ("失败重试现在是立即重试"
    describes how it is — the subject of the work that follows)."""
    return completed(clause) and completed(_NOW.sub(" ", clause))


def open_sentence(sentence: str, obligations: bool = True, states: bool = False) -> bool:
    """Does a sentence leave work open (one of its clauses is not yet done, deferred — or, with
    ``obligations``, still required; with ``states``, states a deficiency, :func:`lacking`)?"""
    if is_question(sentence) or is_condition(sentence) or NOTHING_LEFT.search(sentence) or _FINE.search(sentence):
        return False
    states = states and not told(sentence)
    parts = clauses(sentence)
    if _INTENDED.search(sentence):            # "left X alone on purpose, since Y still calls it"
        parts = [c for c in parts if not is_rationale(c)]
    for i, clause in enumerate(parts):
        if not_yet(clause) or deferred(clause, obligations=False) or (states and lacking(clause)):
            return True
        if obligations and deferred(clause) and \
                not any(reports_done(_ADJECTIVAL.sub(lambda m: m.group(1) or "", c)) for c in parts[i + 1:]):
            return True          # "需要加锁，我已经加了": a need met in the same sentence is not open
            # ("…, it accepts unlimited attempts right now" tells the state that makes the need)
    return False


def done_sentence(sentence: str) -> bool:
    """Does a sentence report work done (a completed clause, none left open, no question)?"""
    if is_question(sentence) or open_sentence(sentence):
        return False
    return any(completed(c) for c in clauses(sentence))


def main_text(text: str) -> str:
    """The work a line names: its clauses without reasons, purposes and consequences (免得…,
    so that …), and without the marker words that say it is open or done."""
    parts = [c for c in clauses(text) if not is_rationale(c)] or clauses(text)
    return _MARKER_WORDS.sub(" ", " ".join(parts))


def lacked_objects(clause: str) -> list:
    """What a clause says is absent or not done by something — the objects of :data:`_ABSENT` and
    :data:`_NEGATED_DOING` ("重试" of "上传还没有重试", "progress bar yet" of "the upload has no progress
    bar yet", "retry" of "the upload doesn't retry")."""
    out = []
    for pattern in (_ABSENT, _NEGATED_DOING):
        for found in pattern.finditer(clause):
            out += [g for g in found.groups() if g]
    return out
