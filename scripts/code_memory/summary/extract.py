"""What a session was about, decided and left open — read from its transcript digest without an
LLM (the deterministic summary) and used to tell which earlier to-dos it finished.

  topic       the first request, trimmed to a concise line with repeated text removed (a bare
              "继续" / "go on" gives way to the first real request)
  todos       what the final assistant message names as next steps: the lines or clauses after
              下一步 / 接下来 / 还差 / 待办 / TODO / Next steps / Remaining …, list items under them,
              unchecked ``- [ ]`` boxes
  decisions   sentences of the assistant's texts that state a choice (决定 / 选择 / 改用 / 而不是 /
              decided / chose / instead of …)
  done        an earlier open to-do counts as finished when the words of the to-do (identifiers,
              file names, Chinese bigrams) are mostly found in what this session reports as done —
              sentences of its assistant texts with a completion word and no to-do word — and
              this session does not list it as open again

Pure functions over strings; Chinese and English.
"""

from __future__ import annotations

import re

from ..text.similarity import is_near_duplicate

TOPIC_CHARS = 100              # a topic line in English; Chinese says as much in fewer characters
TOPIC_CJK_CHARS = 60
TODO_CHARS = 160
DECISION_CHARS = 200
MAX_TODOS = 6
MAX_DECISIONS = 3
DONE_SHARE = 0.6               # share of a to-do's words that must be found in the done text

_SENTENCE_END = re.compile(r"(?<=[。！？!?；;])|(?<=\D\.)\s+|\n+")      # "1. item" is no sentence end
_FULL_STOP = re.compile(r"(?<=[。！？!?])|(?<=\D\.)\s+|\n+")
_NOTHING_LEFT = re.compile(r"nothing (?:left|remaining|else)|no (?:remaining|open|further) |没有(?:待办|遗留|剩下)|无待办|都完成", re.I)
_GENERIC = re.compile(r"^\s*(?:继续|接着|好的?|好|行|嗯|ok(?:ay)?|yes|go on|continue|next|thanks?|谢谢|hi|hello|你好)"
                      r"[\s。.!！,，~]*$", re.I)
_TODO_MARK = re.compile(
    r"下一步|接下来|后续|待办|还差|还需要|还要|尚未|还没|未完成|遗留|TODO|to-?do|next steps?|"
    r"remaining|still (?:need|to do|missing|open)|left to do|follow[- ]?ups?|not yet|pending", re.I)
_TODO_LEAD = re.compile(
    r"^(?:[-*]\s*)?(?:\*\*)?(?:下一步|接下来|后续(?:工作)?|待办(?:事项)?|还差|还需要|遗留(?:问题)?|TODO|to-?dos?|"
    r"next steps?|remaining(?: work)?|still to do|left to do|follow[- ]?ups?)(?:\*\*)?\s*(?:是|有|要)?\s*[:：]?\s*",
    re.I)
_DECISION_MARK = re.compile(
    r"决定|选择了?|选用|采用|改用|改为|改成|统一用|而不是|而非|不用.{1,20}而|"
    r"\bdecided\b|\bchose\b|\bchosen\b|\bgoing with\b|\bopted\b|\binstead of\b|\bswitched to\b|\bwe(?:'ll| will) use\b",
    re.I)
_DONE_MARK = re.compile(
    r"完成|已经|已|做好|写好|加好|补好|补上|补了|加了|改好|修好|修复了|实现了|搞定|通过|"
    r"\bdone\b|\bfinished\b|\bcompleted?\b|\badded\b|\bimplemented\b|\bfixed\b|\bwrote\b|\bwritten\b|"
    r"\bupdated\b|\bcreated\b|\bpass(?:es|ed)?\b|\bresolved\b|\b(?:masked|covered|handled|supported|merged|"
    r"removed|deleted|moved|documented|migrated|replaced|refactored|tested|verified|renamed|wired|shipped|"
    r"deployed|backfilled|installed|configured|cleaned)\b|\b(?:is|are) now\b|\bnow (?:too|works?|passes)\b", re.I)
_TAIL_LEAD = re.compile(r"^(?:(?:work|items?|tasks?|steps?)\s+)?(?:问题|工作|事项|要做的|需要做的|要做|的工作)?\s*"
                        r"(?:is|are|will be|是|有|就是)?\s*[:：]?\s*", re.I)
_CHECKBOX = re.compile(r"^\s*[-*]\s*\[ \]\s*(.+)$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)、])\s+(.+)$")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-/]{2,}")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_STOP = {"the", "and", "for", "with", "that", "this", "then", "from", "into", "also", "add", "use",
         "make", "still", "need", "next", "step", "steps", "todo", "done", "to-do", "will", "should"}
# characters of function words: a bigram holding one spans a word boundary and says little
_FUNCTION_CHARS = frozenset("的了是在和与或及等也都就而把被让给对从向于之其这那有个着过吗呢吧啊呀么里")
_CJK_STOP = {"下一", "一步", "接下", "下来", "还需", "需要", "还要", "还差", "还没", "没写", "没做", "没有", "尚未",
             "待办", "已经", "完成", "然后", "并且", "以及"}


def one_line(text: str) -> str:
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
    """The sentences of ``text`` (also split at ``；`` unless ``clauses`` is false)."""
    splitter = _SENTENCE_END if clauses else _FULL_STOP
    return [s.strip() for s in splitter.split(text or "") if s and s.strip()]


def dedupe_repeats(text: str) -> str:
    """``text`` with sentences (and runs of a repeated phrase) that occur more than once kept once."""
    seen, out = set(), []
    for sentence in sentences(text):
        key = one_line(sentence).lower().strip(" .。")
        if key and not any(key in kept for kept in seen):
            seen.add(key)
            out.append(sentence)
    joined = " ".join(out)
    # one phrase pasted many times without sentence ends: "fix it fix it fix it"
    words = joined.split()
    for size in range(1, min(12, len(words) // 3) + 1):
        if words and all(words[i] == words[i % size] for i in range(len(words))):
            return " ".join(words[:size])
    return joined


def topic_of(requests: list) -> str:
    """A concise topic line from the person's requests (see the module docstring)."""
    cleaned = [dedupe_repeats(r) for r in requests if r and r.strip()]
    best = next((r for r in cleaned if not _GENERIC.match(r) and len(r.strip()) >= 4), "")
    best = best or (cleaned[0] if cleaned else "")
    if not best:
        return ""
    wide = len(_CJK_RUN.findall(best)) and sum(len(r) for r in _CJK_RUN.findall(best)) * 3 > len(best)
    limit = TOPIC_CJK_CHARS if wide else TOPIC_CHARS
    first = sentences(best)
    # the first sentence when it says enough on its own, else the whole request, cut to size
    if first and len(first[0]) >= 12 and len(best) > limit:
        best = first[0]
    return cut(best, limit)


def later_requests(requests: list, limit: int = 8) -> list:
    """The requests after the first, concise, generic ones ("继续", "ok") left out."""
    out = []
    for request in requests[1:]:
        text = cut(dedupe_repeats(request), TODO_CHARS)
        if text and not _GENERIC.match(text) and text not in out:
            out.append(text)
    return out[:limit]


def _split_items(text: str) -> list:
    parts = re.split(r"[；;]|(?:^|\s)\(?\d+[.)、]\s+|\s*[①②③④⑤⑥]\s*", text)
    return [p.strip(" ，,。.、") for p in parts if p and p.strip(" ，,。.、")]


def todos_from(message: str) -> list:
    """The next steps the final assistant message names (see the module docstring)."""
    todos: list = []
    lines = (message or "").split("\n")
    collecting = False
    for line in lines:
        box = _CHECKBOX.match(line)
        if box:
            todos.append(box.group(1))
            continue
        item = _LIST_ITEM.match(line)
        if collecting and item and not _TODO_LEAD.match(line.strip()):
            todos.append(item.group(1))
            continue
        collecting = False
        stripped = line.strip()
        lead = _TODO_LEAD.match(stripped)
        if lead:
            rest = stripped[lead.end():].strip()
            if rest:
                todos += _split_items(rest)
            collecting = True
            continue
        for sentence in sentences(stripped, clauses=False):
            mark = _TODO_MARK.search(sentence)
            if not mark or _NOTHING_LEFT.search(sentence) or \
                    _DONE_MARK.search(sentence[:mark.start()]) and "还" not in sentence:
                continue
            tail = _TAIL_LEAD.sub("", sentence[mark.end():].strip(" :：，,。."))
            todos += _split_items(tail) if len(tail) >= 4 else [sentence]
    out = []
    for todo in todos:
        text = cut(todo.strip(" :：-*").rstrip("。.!！;；"), TODO_CHARS)
        if len(text) >= 3 and text not in out:
            out.append(text)
    return out[:MAX_TODOS]


_STRONG_DECISION = re.compile(r"决定|选择|而不是|而非|\bdecided\b|\bchose\b|\binstead of\b|\bopted\b", re.I)
_CLAUSE = re.compile(r"[，,（）()；;：:]\s*")
_REASON = re.compile(r"^(?:因为|由于|以便|为了|这样|because|since|so that|as )", re.I)


def deciding_clause(sentence: str) -> str:
    """The clause of a long sentence that states the decision, with the reason that follows it
    ("…，因为 …" / "…, because …")."""
    if len(sentence) <= 80:
        return sentence
    clauses = [c.strip() for c in _CLAUSE.split(sentence) if c.strip()]
    for marks in (_STRONG_DECISION, _DECISION_MARK):
        for i, clause in enumerate(clauses):
            if marks.search(clause):
                if i + 1 < len(clauses) and _REASON.match(clauses[i + 1]):
                    joiner = ", " if clause[-1:].isascii() else "，"
                    clause += joiner + clauses[i + 1]
                return clause.rstrip("。.")
    return sentence


def decisions_from(texts: list) -> list:
    """The decisions the assistant's texts state (the deciding clause and its reason), newest
    last, at most 3."""
    out: list = []
    for text in texts:
        for sentence in sentences(text):
            if _DECISION_MARK.search(sentence) and not _TODO_LEAD.match(sentence):
                line = cut(deciding_clause(sentence), DECISION_CHARS)
                if line not in out:
                    out.append(line)
    return out[-MAX_DECISIONS:]


def keywords(text: str) -> set:
    """Identifiers and words (lower case, ≥ 3 characters) and Chinese bigrams of ``text``."""
    words = {w.lower().strip(".-/") for w in _WORD.findall(text or "")}
    words = {w for w in words if len(w) >= 3 and w not in _STOP}
    for word in list(words):
        words.update(p for p in re.split(r"[/.]", word) if len(p) >= 3 and p not in _STOP)
    for run in _CJK_RUN.findall(text or ""):
        words.update(gram for gram in (run[i:i + 2] for i in range(len(run) - 1))
                     if gram not in _CJK_STOP and not _FUNCTION_CHARS.intersection(gram))
    return words


def _identifiers(words: set) -> set:
    return {w for w in words if w.isascii()}


def _covers(words: set, other: set) -> bool:
    """Are most of ``words`` in ``other`` (identifiers and words count double, Chinese bigrams
    once) — and, when ``words`` name identifiers or file names, at least one of those too
    ("补 load_config 的测试" is not "补 parse_args 的测试")?"""
    if len(words) < 2:
        return False
    names = _identifiers(words)
    if names and not names & other:
        return False
    weight = lambda found: sum(2 if w.isascii() else 1 for w in found)  # noqa: E731 — names weigh double
    return weight(words & other) / weight(words) >= DONE_SHARE


def same_todo(a: str, b: str) -> bool:
    """Do two to-do lines name the same work (near-duplicate text, or the words of the shorter
    one mostly in the other)?"""
    if is_near_duplicate(a, b):
        return True
    wa, wb = keywords(a), keywords(b)
    small, large = (wa, wb) if len(wa) <= len(wb) else (wb, wa)
    return _covers(small, large)


def done_text(texts: list, files: list) -> set:
    """The keywords of what a session reports as done: sentences with a completion word and no
    to-do word, plus the names of the files it changed."""
    found: set = set()
    for text in texts:
        for sentence in sentences(text):
            if _DONE_MARK.search(sentence) and not _TODO_MARK.search(sentence):
                found |= keywords(sentence)
    for path in files:
        found |= keywords(path.rsplit("/", 1)[-1])
    return found


def finished(open_todos: list, texts: list, files: list, still_open: list, is_same=same_todo) -> list:
    """The earlier ``open_todos`` (``[(session id, text)]``) this session finished."""
    evidence = done_text(texts, files)
    out = []
    for ref, todo in open_todos:
        if any(is_same(todo, other) for other in still_open):
            continue
        if _covers(keywords(todo), evidence):
            out.append((ref, todo))
    return out


# ---------------------------------------------------------------------------------------------
# verification: a claim is verified only by a command of this session that passed


def verification_of(claimed: str | None, digest) -> dict:
    """``{"state", "evidence"}`` for a rule or pitfall whose extractor cited ``claimed`` as proof:
    ``verified`` when it names a command the session ran and that did not fail (a test run, a
    build, a commit) — the transcript decides, not the LLM's word — else ``hypothesis``. The
    command must appear whole in the claim, and its last run counts (a later failure undoes it)."""
    claimed = one_line(claimed or "")
    if len(claimed) >= 4:
        for cmd in reversed(getattr(digest, "commands", None) or []):
            text = one_line(cmd.get("command") or "")
            if len(text) < 6 or text not in claimed:
                continue
            if cmd.get("failed"):
                break
            label = "commit" if "git commit" in text else "passed"
            return {"state": "verified", "evidence": [f"{label}: {cut(text, 160)}"]}
    return {"state": "hypothesis", "evidence": []}
