"""What a session was about, decided, left open, finished and said — read from its transcript
digest without an LLM (the deterministic summary, docs/summaries.md § The deterministic reading).

  topic      the first request, trimmed to a concise line with repeated text removed (a bare
             "继续" / "go on" gives way to the first real request)
  decisions  summary/decisions.py: a proposal and the person's answer, or a stated choice, with
             the reason
  todos      summary/todos.py: what the final message and the person leave open
  done       summary/todos.py: the earlier open to-dos this session finished
  outcome    the final message as said — its first sentence and its closing ones, within
             OUTCOME_CHARS, without the sentences the to-dos and decisions already carry
  asked      the person's later requests, concise
  reverted   the sentence (or the command) saying the session's change was put back
  noted      cautions said in the session (注意…, 会导致…, note that …, watch out …) not carried above

Pure functions over strings and the digest; Chinese and English.
"""

from __future__ import annotations

import re

from ..text.keywords import coverage, weights
from . import clauses as cl
from . import decisions as decide
from . import todos as todo_rules
from .todos import same_todo  # noqa: F401 — callers that compare to-dos import it from here too

TOPIC_CHARS = 100              # a topic line in English; Chinese says as much in fewer characters
TOPIC_CJK_CHARS = 60
OUTCOME_CHARS = 300
ASKED_CHARS = 120
MAX_ASKED = 3

cut, one_line = cl.cut, cl.one_line
_GENERIC = re.compile(r"^\s*(?:继续|接着|好的?|好|行|嗯|ok(?:ay)?|yes|go on|continue|next|thanks?|谢谢|hi|hello|你好)"
                      r"[\s。.!！,，~]*$", re.I)
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")
_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.S)
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$", re.M)
_REVERT = re.compile(
    r"(?:回滚|撤销|撤回|还原|回退|退回|改回|换回|切回|用回|恢复(?:到|成)?(?:原|之前|以前|旧))(?!方案|脚本|计划|步骤|流程)|"
    r"\brevert(?:ed)?\b(?! (?:plan|script|strategy|procedure))|\brolled back\b|\brolling back\b|\bbacked out\b|"
    r"\bundid\b|\bundone\b|\bput (?:it|them|everything) back\b|\bswitched back\b|\bwent back to\b|"
    r"\brestored the (?:old|previous|original)\b", re.I)
# a caution said in the session: a pitfall, a warning, what breaks if …
_CAUTION = re.compile(r"注意|小心|切记|务必|千万|坑|陷阱|会导致|否则会|不然会|\bnote that\b|\bcareful\b|\bbeware\b|"
                      r"\bwatch out\b|\bgotcha\b|\bpitfall\b|\bcaveat\b|\bheads[- ]up\b|\bwarning\b|"
                      r"\bwill break\b|\bbreaks (?:when|if)\b|\botherwise (?:it|the|you)\b", re.I)
CAUTION_CHARS = 160
MAX_CAUTIONS = 2
SHORT_FINAL = 150              # a final message this short (a Chinese character counts twice) says
                               # little: the outcome reaches back one text


def dedupe_repeats(text: str) -> str:
    """``text`` with sentences (and runs of a repeated phrase) that occur more than once kept once."""
    seen, out = set(), []
    for sentence in cl.sentences(text):
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
    first = cl.sentences(best)
    # the first sentence when it says enough on its own, else the whole request, cut to size
    if first and len(first[0]) >= 12 and len(best) > limit:
        best = first[0]
    return cut(best, limit)


def later_requests(requests: list, limit: int = 8) -> list:
    """The requests after the first, concise, generic ones ("继续", "ok") left out."""
    out = []
    for request in requests[1:]:
        text = cut(dedupe_repeats(request), todo_rules.TODO_CHARS)
        if text and not _GENERIC.match(text) and text not in out:
            out.append(text)
    return out[:limit]


def _plain(message: str) -> str:
    """A message's prose: no code blocks or tables, headings and emphasis as text."""
    text = _TABLE_ROW.sub("", _CODE_BLOCK.sub(" ", message or ""))
    return "\n".join(line.lstrip("#").strip().replace("**", "") for line in text.split("\n"))


def _shown(sentence: str, lines: list, carried: set) -> bool:
    """Is ``sentence`` already carried by ``lines`` (the entry's to-dos and decisions; ``carried``:
    their words)?"""
    text = one_line(sentence).rstrip("。.;；")
    words = weights(text)
    return any(text in line for line in lines) or bool(words and coverage(words, carried) >= 0.8)


def outcome_of(final_message: str, shown=()) -> str:
    """The final message as said, within OUTCOME_CHARS: its first sentence, then as many of its
    closing sentences as fit — leaving out what ``shown`` (to-dos, decisions) already carries."""
    sentences = [one_line(s) for s in cl.sentences(_plain(final_message), clauses=False)]
    carried = {word for line in shown for word in weights(line)}
    kept = [s for s in sentences if s and not _shown(s, list(shown), carried)]
    if not kept:
        return ""
    joiner = "" if cl.is_cjk(final_message) else " "
    head = cut(kept[0], OUTCOME_CHARS // 2) if len(kept) > 1 else cut(kept[0], OUTCOME_CHARS)
    tail: list = []
    room = OUTCOME_CHARS - len(head)
    for sentence in reversed(kept[1:]):
        if len(sentence) + 1 > room:
            break
        tail.insert(0, sentence)
        room -= len(sentence) + 1
    skipped = len(kept) - 1 - len(tail)
    return joiner.join([head] + (["…"] if skipped and tail else []) + tail)


def cautions_of(texts: list, shown=()) -> list:
    """Cautions said in the session (注意…, 会导致…, note that …, watch out …) that the entry does
    not already carry, the latest last, at most MAX_CAUTIONS."""
    out: list = []
    carried = {word for line in shown for word in weights(line)}
    for text in texts:
        for sentence in cl.sentences(_plain(text), clauses=False):
            sentence = one_line(sentence)
            if _CAUTION.search(sentence) and not cl.is_question(sentence) and \
                    not _shown(sentence, list(shown), carried) and sentence not in out:
                out.append(sentence)
    return [cut(s, CAUTION_CHARS) for s in out[-MAX_CAUTIONS:]]


def files_by_mention(digest) -> list:
    """The files the session changed, those its final message or the person's requests name first
    (what the session was about), then the others in the order they were first changed."""
    said = " ".join([digest.final_message or ""] + list(digest.user_requests or []))
    files = list(digest.files_touched)
    named = [f for f in files if f.rsplit("/", 1)[-1] and f.rsplit("/", 1)[-1] in said]
    return named + [f for f in files if f not in named]


def revert_of(digest) -> str:
    """The words that say this session's change was put back (a sentence of the final message,
    or the command), else ``""``."""
    for sentence in cl.sentences(digest.final_message or ""):
        found = _REVERT.search(sentence)
        if found and not cl.is_question(sentence) and not cl.is_condition(sentence) and \
                not cl.negated(sentence[max(0, found.start() - 8):found.start()]) and not cl.is_open(sentence):
            return cut(sentence, 200)
    if getattr(digest, "reverted_files", None) and not digest.files_touched:
        return cut("; ".join(digest.reverts) or "changes put back", 200)
    return ""


def read(digest, open_todos=(), previous: str | None = None, is_same=todo_rules.same_todo,
         previous_final: str = "", places=()) -> dict:
    """The deterministic summary fields of one session (see the module docstring);
    ``open_todos``: ``[(session id, text)]`` of earlier sessions; ``previous``: the id of the
    session before this one in its project (what a bare "continue" resumes) and
    ``previous_final`` its final message (a proposal this session's first request may answer);
    ``places``: ``[(session id, text)]``, what the project's earlier sessions were about (their
    topics and files: the area its to-dos are in, summary/subject.py)."""
    evidence = todo_rules.Evidence.from_digest(digest, previous, previous_final, places)
    worked = bool(digest.files_touched or getattr(digest, "reverted_files", None))
    todos = todo_rules.capture(digest.final_message, digest.user_requests, evidence.done_words, worked=worked,
                               open_todos=open_todos, is_same=is_same)
    if not worked:        # "还没有，接口文档先没动": a session that did nothing restates it in the words it had
        todos = todo_rules.restated(todos, digest.user_requests, open_todos, is_same, digest.final_message)
    todos = todo_rules.carried_over(todos, open_todos, places)      # said again in other words: one line
    todos = todo_rules.half_done(todos, digest.final_message, digest.user_requests, open_todos, places,
                                 todo_rules.last_command_failed(digest))
    texts = list(digest.assistant_notes) or [digest.final_message]
    exchanges = list(getattr(digest, "exchanges", None) or ())
    if previous_final and digest.user_requests:          # "就用方案二" answering the last session's proposal
        exchanges.insert(0, (previous_final, digest.user_requests[0]))
    decisions = decide.decisions_from(texts, exchanges)
    done = todo_rules.finished(list(open_todos), evidence, todos + evidence.held_open, is_same, places)
    reverted = revert_of(digest)
    shown = todos + decisions + ([reverted] if reverted else [])
    asked = [cut(r, ASKED_CHARS) for r in later_requests(digest.user_requests)
             if not any(one_line(r) in line for line in decisions)][:MAX_ASKED]   # an answer a decision quotes
    final = digest.final_message or ""
    width = len(one_line(final)) + len(_CJK_CHAR.findall(final))          # a Chinese character says more
    if width < SHORT_FINAL and len(texts) > 1 and texts[-1].strip() == final.strip():
        final = texts[-2] + "\n" + final          # "Done." alone: what the text before it said counts too
    outcome = outcome_of(final, shown)
    noted = cautions_of(texts, shown + [outcome])
    return {"topic": topic_of(digest.user_requests), "todos": todos, "decisions": decisions, "done": done,
            "outcome": outcome, "asked": asked, "reverted": reverted, "noted": noted}


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
