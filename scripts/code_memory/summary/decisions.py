"""Decisions without an LLM, with their reason (docs/summaries.md § Decisions).

Two ways a session decides:

* **A proposal and the person's answer.** The assistant lays out options (一是…二是…, (a)…(b)…,
  1. … 2. …, "X, or Y", 可以用 X，也可以用 Y) or recommends one (我倾向于…, 建议…, I'd pick …,
  I recommend …), often ending in a question; the person answers. An answer that agrees (可以 /
  好 / 同意 / 就按你说的 / sounds good / agreed / fine …), picks by position (第一个, 方案二, the
  first one, (b)) or names one ("就用唯一索引", "SQLite it is", "plain SQL with psycopg is fine")
  decides: the chosen option is the one it names, else the position it gives, else the one the
  assistant recommended. The reason is the recommendation's own reason clause (因为…, — …,
  "the upside is …"), or the proposal's sentence about the chosen option, and the person's words
  are kept as said.
* **A statement.** A sentence that states a choice (决定 / 选择 / 选了 / 采用 / decided / chose /
  went with / opted / settled on …), or a change made *instead of* something else together with
  its reason (改用 X 而不是 Y，因为… / switched to X instead of Y because …) — the deciding clause
  and the reason after it. Proposals (I'd pick, 建议), options lists, questions and conditions are
  not decisions, and neither is a change described without a choice or a reason.
"""

from __future__ import annotations

import re

from ..text.keywords import coverage, weights
from . import clauses as cl

DECISION_CHARS = 240
MAX_DECISIONS = 3
REPLY_CHARS = 120

_STRONG = re.compile(r"决定|选择了?|选了|选用|采用|最终用|定为|统一用|\bdecided\b|\bchose\b|\bchosen\b|\bopted\b|"
                     r"\bwent with\b|\bgoing with\b|\bsettled on\b|\bpicked\b|\bwe(?:'ll| will) (?:use|go with|keep)\b",
                     re.I)
_WEAK = re.compile(r"改用|改为|改成|换成|换用|\bswitched to\b|\bmoved to\b|\breplaced\b|\bmigrated to\b", re.I)
_CONTRAST = re.compile(r"而不是|而非|不用.{1,20}而|\binstead of\b|\brather than\b|\bover\b|\bin favou?r of\b", re.I)
_PROPOSING = re.compile(r"建议|倾向|推荐|可以考虑|不如|要不要|我觉得|我会选|\bi'?d\b|\bi would\b|\bwe could\b|\byou could\b|"
                        r"\bi suggest\b|\bi recommend\b|\bmy recommendation\b|\bshall (?:i|we)\b|\bhow about\b", re.I)
_RECOMMEND = re.compile(r"倾向|建议|推荐|我觉得.{0,20}(?:更好|比较好|合适)|最好|更好|更合适|好处是|优点是|我会选|打算|准备用|"
                        r"想用|计划用|\bi'?d (?:pick|go with|choose|use|suggest|recommend|lean)|\bi would\b|\bi suggest\b|"
                        r"\bi recommend\b|\bmy recommendation\b|\bi propose\b|\bmy plan\b|\bi plan to\b|"
                        r"\bi'm going to\b|\bprefer\b|\bbetter\b|\bthe (?:upside|advantage|benefit)\b", re.I)
_REASON_NEXT = re.compile(r"^(?:主要是|因为|原因是|理由是|这样|好处是|because|the reason|since|that way|this way|so that)", re.I)
_OPTIONS_SENTENCE = re.compile(r"两个办法|几个办法|两种|几种|方案|办法|选项|做法|可以用.+也可以|或者|\boptions?\b|\bways?\b|"
                               r"\balternatives?\b|\beither\b|\bcould\b", re.I)
_ENUM = re.compile(r"(?:^|(?<=[\s:：，,；;]))(?:\(([a-dA-D1-4])\)|([1-4])[.)、]\s|([一二三四])是|方案([一二三四1-4A-D])[：:]?|"
                   r"第([一二三四])种|option ([a-dA-D1-4])[:.]?)\s*", re.I)
_ALTERNATIVE = re.compile(r"\s*(?:,?\s+or\s+|，?\s*或者\s*|，\s*也可以(?:用)?\s*|，\s*还是\s*)", re.I)
_AGREE = re.compile(
    r"^\s*(?:可以|好的?|行|嗯|同意|没问题|就这么(?:办|做|定)|按你说的|就按你说的|就按|对的?|是的|ok(?:ay)?\b|yes\b|yeah\b|yep\b|"
    r"sure\b|agreed?\b|sounds good|fine\b|great\b|perfect\b|go (?:with|ahead|for)\b|let'?s\b|do it\b|works for me|lgtm\b|"
    r"\+1|👍)", re.I)
_CHOOSE = re.compile(r"就用|用.{1,30}吧|就选|选(?:择)?(?:方案|第)|用方案|别(?:再)?用|不要用|不用|"
                     r"\bgo with\b|\blet'?s (?:use|go with|do|skip|keep|stick|try)\b|\bit is\b|\bwe'?ll use\b|"
                     r"\bstick with\b|\bskip the\b|\bis fine\b", re.I)
_ORDINAL = [(re.compile(p, re.I), i) for i, p in enumerate((
    r"第一|方案[一1A]|\bfirst\b|\bformer\b|\boption (?:a|1)\b|\(a\)|^\s*(?:a|1)[.)]?\s*$|选一|一是",
    r"第二|方案[二2B]|\bsecond\b|\blatter\b|\boption (?:b|2)\b|\(b\)|^\s*(?:b|2)[.)]?\s*$|选二|二是",
    r"第三|方案[三3C]|\bthird\b|\boption (?:c|3)\b|\(c\)|^\s*(?:c|3)[.)]?\s*$|选三"))]
_ORDER = {"一": 0, "二": 1, "三": 2, "四": 3, "a": 0, "b": 1, "c": 2, "d": 3, "1": 0, "2": 1, "3": 2, "4": 3}


# ---------------------------------------------------------------------------------------------
# statements


def deciding_clause(sentence: str) -> str:
    """The clause of a long sentence that states the decision, with the reason that follows it."""
    if len(sentence) <= 80:
        return sentence
    parts = cl.clauses(sentence)
    for marks in (_STRONG, _WEAK, _CONTRAST):
        for i, clause in enumerate(parts):
            if marks.search(clause):
                reason = [c for c in parts[i + 1:i + 3] if cl.is_rationale(c)]
                joiner = "，" if cl.is_cjk(clause) else ", "
                return joiner.join([clause] + reason[:1]).rstrip("。.")
    return sentence


def is_statement(sentence: str) -> bool:
    """Does the sentence state a decision taken (see the module docstring)?"""
    if cl.is_question(sentence) or cl.is_condition(sentence) or len(_ENUM.findall(sentence)) >= 2:
        return False
    strong = _STRONG.search(sentence)
    if strong:
        before = sentence[max(0, strong.start() - 12):strong.start()]
        return not _PROPOSING.search(before) and not re.search(r"没有?|未|不|\bnot\b|n't\b", before)
    if _PROPOSING.search(sentence):
        return False
    reason = any(cl.is_rationale(c) for c in cl.clauses(sentence)[1:]) or \
        bool(re.search(r"因为|由于|\bbecause\b|\bsince\b|\bso that\b", sentence, re.I))
    if _WEAK.search(sentence):
        return bool(_CONTRAST.search(sentence) or reason)
    return bool(_CONTRAST.search(sentence)) and reason


def statements(texts: list) -> list:
    """The decisions the texts state, each with the reason in its own sentence or the next one."""
    out = []
    for text in texts:
        sentences = cl.sentences(text)
        for i, sentence in enumerate(sentences):
            if not is_statement(sentence):
                continue
            line = deciding_clause(sentence).rstrip("。.;；")
            following = sentences[i + 1] if i + 1 < len(sentences) else ""
            if following and _REASON_NEXT.match(cl.strip_connective(following)) and not is_statement(following):
                line += ("，" if cl.is_cjk(line) else " — ") + following.rstrip("。.;；")
            line = cl.cut(line, DECISION_CHARS)
            if line not in out:
                out.append(line)
    return out


# ---------------------------------------------------------------------------------------------
# a proposal and the answer


def options(proposal: str) -> list:
    """The options a proposal lays out, in order (see the module docstring)."""
    marks = list(_ENUM.finditer(proposal))
    if len(marks) >= 2:
        out = []
        for i, mark in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(proposal)
            text = proposal[mark.end():end]
            text = re.split(r"(?<=[。！？!?])|(?<=[^\d\s]\.)\s", text, maxsplit=1)[0]
            out.append(re.sub(r"(?:[,，；;]\s*(?:or|或者|还是)?|\s+or)\s*$", "", text.strip()).strip(" ，,。."))
        return [o for o in out if o]
    for sentence in cl.sentences(proposal, clauses=False):
        if not _OPTIONS_SENTENCE.search(sentence):
            continue
        body = re.split(r"[:：]\s*", sentence, maxsplit=1)[-1]
        parts = [p.strip(" ，,。.") for p in _ALTERNATIVE.split(body) if p and p.strip(" ，,。.")]
        if len(parts) >= 2:
            parts[0] = re.sub(r"^(?:可以用|可以|either)\s*", "", parts[0], flags=re.I)
            return parts
    return []


def _chosen(reply: str, choices: list, recommended: str) -> int | None:
    for pattern, index in _ORDINAL:
        if index < len(choices) and pattern.search(reply):
            return index
    said = weights(reply)
    scores = [coverage(weights(o), said) for o in choices]
    if scores and max(scores) > 0:
        return scores.index(max(scores))
    if recommended and choices:              # agreement to what the assistant recommended
        for pattern, index in _ORDINAL:
            if index < len(choices) and pattern.search(recommended):
                return index
        scores = [coverage(weights(o), weights(recommended)) for o in choices]
        if max(scores) > 0:
            return scores.index(max(scores))
    return None


def _reason(proposal: str, choice: str, recommended: str) -> str:
    """Why: the recommendation's reason clause, else the proposal's sentence about the choice."""
    if recommended:
        parts = cl.clauses(recommended)
        for i, clause in enumerate(parts):
            if cl.is_rationale(clause):
                return "，".join(parts[i:]) if cl.is_cjk(recommended) else ", ".join(parts[i:])
        if len(parts) > 1 and coverage(weights(parts[0]), weights(choice)) > 0:
            return ", ".join(parts[1:]) if not cl.is_cjk(recommended) else "，".join(parts[1:])
        if re.search(r"好处是|优点是|upside|advantage|benefit", recommended, re.I):
            return recommended
    wanted = weights(choice)
    for sentence in cl.sentences(proposal):
        if len(_ENUM.findall(sentence)) >= 2 or cl.is_question(sentence) or sentence.strip() in choice:
            continue
        for clause in cl.clauses(sentence):
            if coverage(weights(clause), wanted) > 0 and len(weights(clause)) >= 2:
                return clause
    return ""


def is_proposal(text: str) -> bool:
    """Options laid out, or one recommended — a bare question ("Want me to add tests?") asks for
    a task, not a decision."""
    return bool(options(text) or _RECOMMEND.search(text))


def from_exchange(proposal: str, reply: str) -> str | None:
    """The decision an answer to a proposal makes, as one line, or None."""
    reply = cl.one_line(reply)
    if not reply or not proposal or not is_proposal(proposal):
        return None
    agrees, chooses = _AGREE.match(reply), _CHOOSE.search(reply)
    if not (agrees or chooses or any(p.search(reply) for p, _i in _ORDINAL)):
        return None
    if cl.is_question(reply) and not chooses:
        return None
    choices = options(proposal)
    recommended = next((s for s in cl.sentences(proposal, clauses=False)
                        if _RECOMMEND.search(s) and not cl.is_question(s)), "")
    index = _chosen(reply, choices, recommended)
    if index is not None:
        choice = choices[index]
    elif recommended:
        choice = recommended
    elif chooses and weights(reply):
        choice = ""
    else:
        sentences = [s for s in cl.sentences(proposal, clauses=False) if not cl.is_question(s)]
        choice = sentences[-1] if sentences else ""
    if not choice and not weights(reply):
        return None
    reason = _reason(proposal, choice, recommended) if choice else ""
    zh = cl.is_cjk(reply + choice)
    said = ("用户：“{}”" if zh else "the user: “{}”").format(cl.cut(reply, REPLY_CHARS))
    line = cl.one_line(choice).rstrip("。.")
    if reason and reason.rstrip("。.") not in line:
        line += " — " + cl.one_line(reason).rstrip("。.")
    line = f"{line} ({said})" if line else said
    return cl.cut(line, DECISION_CHARS)


def decisions_from(texts: list, exchanges=()) -> list:
    """A session's decisions: those its proposals and answers make, then the ones its assistant
    texts state — at most MAX_DECISIONS, the most recent last."""
    out: list = []
    for proposal, reply in exchanges:
        line = from_exchange(proposal, reply)
        if line and line not in out:
            out.append(line)
    for line in statements(texts):
        if line not in out and not any(_same(line, other) for other in out):
            out.append(line)
    return out[-MAX_DECISIONS:] if len(out) > MAX_DECISIONS else out


def _same(a: str, b: str) -> bool:
    wa, wb = weights(a), weights(b)
    return bool(wa) and coverage(wa, wb) >= 0.7
