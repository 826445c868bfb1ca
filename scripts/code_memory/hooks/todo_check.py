"""todo-check (Stop): at the end of a turn that seems to be about an open to-do of the project, ask
the model — which knows — whether its work finished it (docs/hooks.md § todo-check).

The summarizer decides afterwards, from words, whether a later session finished an earlier to-do,
and misses most finishes said in other words. The model that did the work knows. So when the turn
(its final message, its user prompt, the files it edited and the commands it ran — read from the
bounded tail of the transcript) shares words with open to-dos of the session's project (the
recent-work index, code_memory.memory.recent) — or edits a file the to-do's own session changed —
this hook answers ``decision: "block"`` with a short
question naming up to :data:`MAX_ASKED` of them by id. Claude then continues once: it closes a
finished one (``memory_todo`` action done, or ``code-memory todo done <id>``) or just stops.

The summarizer's own closes get the same trigger (:func:`unconfirmed_closes`, round 8): a to-do a
later session closed from words, not confirmed (``confirmed_at``) nor reopened, younger than
``hooks.autoclose_notice_days``, is named with its evidence (``closed_why``) in a second, separate
part of the question (:func:`reconfirm_question`) — in the places the open to-dos leave of
:data:`MAX_ASKED` — and the model reopens it if its work shows it unfinished, or confirms it
(``todo done`` on a summarizer close writes ``confirm``: never asked again).

The roll call (round 9, ``hooks.todo_check_roll_call``): a finish in other words — a synonym, the
other language, one line of a report about other work — shares no word with its to-do, so the word
trigger never names it. At the end of a turn shaped like a finish (:func:`finished_work`: it edited
files or a command passed, its last command did not fail, its final message does not end on a
question) the question also lists the project's open to-dos (but those its word part names), newest
first, up to ``hooks.todo_check_roll_call_max``, each cut to :data:`ROLL_CALL_TODO_CHARS`
(:func:`roll_call`, :func:`roll_call_question`), and the model, which knows what it did, says which
its work finished. With the word trigger's to-dos it is one question (theirs first). It is called at
the session's first finish-shaped turn, and again — at most :data:`ROLL_CALLS_PER_SESSION` times in
all (:func:`roll_call_due`, the ledger's :data:`ROLL_CALL_KEY` and :data:`ROLL_CALL_FILE` keys) — only
at a turn that edited a file none of the earlier calls' turns edited: new work, which may have
finished a to-do that was not finished when the roll was last called (a long session's later turn).
A word question that names every open to-do counts as the call.

The trigger is loose on purpose: a false ask costs one short extra turn, a missed ask leaves a
finished to-do on the next brief. It is silent when Claude is already continuing because of a Stop
hook (``stop_hook_active``), when ``hooks.todo_check`` is off, when the project has no open to-do (nor unconfirmed close)
the turn shares words with, for the session's own to-dos, and for any to-do it asked about before
in this session (the session's ledger, hooks/ledger.py: ``todo-asked:<id>``). Other projects'
to-dos (a workspace's siblings included) are never named: the session can close only its own.

By meaning too (:func:`by_meaning`, :func:`with_meaning`): the root's warm search server (op
``related``, search/related.py) scores each candidate by the embedding model; a close one joins a
question the words ask anyway (the *join* threshold) or, much closer, is asked alone (the *ask*
threshold) — thresholds measured for the model (search/related.py ``CALIBRATED``) unless
``hooks.todo_check_meaning_join``/``_ask`` are set. Without a server or model answering in time, or
without thresholds for the model (the default model today): words only.

Standard library only: lowercased Latin words with light stemming, Han character bigrams, file
names — no segmenter on this path; the model runs in the warm processes. Work is bounded: the final message is cut to
:data:`MAX_MESSAGE_CHARS`, the transcript read to its last :data:`TAIL_BYTES`.
"""

from __future__ import annotations

import os
import time

from .event import EDIT_TOOLS

MAX_ASKED = 3
MAX_MESSAGE_CHARS = 12000       # of the final message: its head and its tail
TAIL_BYTES = 256 * 1024         # of the transcript, read from its end for this turn's prompt and tools
MAX_PROMPT_CHARS = 4000
MAX_TODO_CHARS = 160            # of a to-do's text in the question
MAX_EVIDENCE_CHARS = 160        # of a summarizer close's evidence (closed_why) in the question
LEDGER_PREFIX = "todo-asked:"
ROLL_CALL_KEY = "todo-roll-call"  # the session's ledger: the roll call was called (then ``…:2``, ``…:3``)
ROLL_CALL_FILE = "todo-roll-file:"  # … and the names of the files the turns it was called at edited
ROLL_CALLS_PER_SESSION = 3      # called again only at a turn that edited files none of the earlier calls' turns did
ROLL_CALL_TODO_CHARS = 100      # of a to-do's text in the roll call
MEANING_TEXT_CHARS = 8000       # of the turn's text sent to the warm server (op ``related``)
MEANING_TODO_CHARS = 400
MEANING_MAX_TODOS = 50          # candidates sent (the op refuses more); the word trigger still sees them all
MIN_SHARED = 1.0                # the weight of words a to-do must share with the turn
MIN_COVERAGE = 0.2              # … and this share of the to-do's own weight (of at most COVERAGE_OF)
# the constants were chosen on the handover tuning sets (bench/bench_todo_check.py --dump; BENCHMARKS.md)
WORD_WEIGHT, FILE_WEIGHT, HAN_WEIGHT = 1.0, 2.0, 0.5     # a Latin word, a file name, a Han bigram
SAME_FILE_WEIGHT = 1.0          # the turn edited a file the to-do's own session changed
COVERAGE_OF = 4.0               # coverage is counted on at most this much of a long to-do's weight

# ASCII punctuation but ``_ . -`` (inside names) splits words; no ``re`` on this path (its import costs ~5 ms)
_SEPARATORS = str.maketrans({c: " " for c in "!\"#$%&'()*+,/:;<=>?@[\\]^`{|}~"})
# words that say nothing about what a to-do is about: function words, to-do markers, states
STOP_WORDS = frozenset("""
a an the and or but if then else of to in on at by for with from into onto over under as is are was were be
been being am do does did done doing have has had having it its this that these those there here we you
they he she i me my our your their them us not no yet still also too very just only so than now next later
will would should could can cannot may might must shall need needs needed want wants let lets make made
todo to-do tbd fixme item items thing things something anything nothing all any some each every more most
less least one two first last new old same other another again already soon up down out off about after
before when while which what who how why where s t re ve ll d m get got go going gone see seen look
work working worked try tried left open close closed finish finished finishing complete completed
pending remain remaining step steps part parts way ok okay yes please thanks time
""".split())
# the everyday verbs and nouns of any coding turn ("updated", "tests pass", "测试通过"): they count
# only next to a shared word of the to-do's own — sharing only these, the turn was not about it
GENERIC_WORDS = """update add fix change remove delete move set use run write edit implement create build call
check clean improve refactor rename test pass support handle remember code file function method line""".split()
GENERIC_HAN = frozenset("更新 修改 改成 改为 添加 加上 加个 删除 测试 通过 完成 处理 支持 记得 下次 回头 一下 问题 代码 文件 "
                        "功能 现在 目前 可以 需要 然后 应该 搞定 实现".split())
STOP_HAN = frozenset("的了是在也还没有都就要把给和与或吗呢吧啊这那一个们我你他她它再又很更会能得着过被让从对到上下里中后前时"
                     "以已经需未还先")


def _stem(word: str) -> str:
    """Light stemming: one inflection off, the first 6 letters, a final e off (handler, handled and
    handle are one word; validation and validated too)."""
    for suffix in ("ing", "ed", "s"):
        if len(word) - len(suffix) >= 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    word = word[:6]
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


GENERIC_STEMS = frozenset(_stem(w) for w in GENERIC_WORDS)


def _is_han(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


def _pieces(text: str) -> tuple:
    """(Latin tokens, runs of Han characters) of lowercased ``text``."""
    latin, han = [], []
    for chunk in text.translate(_SEPARATORS).split():
        if chunk.isascii():
            latin.append(chunk)
            continue
        run, word = [], []
        for ch in chunk:
            if _is_han(ch):
                if word:
                    latin.append("".join(word))
                    word = []
                run.append(ch)
                continue
            if run:
                han.append("".join(run))
                run = []
            if ch.isascii() and (ch.isalnum() or ch in "_.-"):
                word.append(ch)
            elif word:
                latin.append("".join(word))
                word = []
        if word:
            latin.append("".join(word))
        if run:
            han.append("".join(run))
    return latin, han


def _file_name(token: str) -> bool:
    stem, dot, ext = token.rpartition(".")
    return bool(dot and stem and 1 <= len(ext) <= 6 and ext[0].isalpha() and ext.isalnum())


def words(text: str) -> dict:
    """``{word: weight}`` of ``text``: stemmed Latin words (a file name also as itself), Han
    bigrams — function words and to-do markers left out."""
    out: dict = {}
    latin, han = _pieces(text.lower())
    for token in latin:
        token = token.strip("._-")
        if _file_name(token):
            out[token] = FILE_WEIGHT                       # a file name: product_cache.py
            token = token.rpartition(".")[0]
        for part in token.replace(".", " ").replace("-", " ").replace("_", " ").split():
            if len(part) >= 3 and part not in STOP_WORDS and not part.isdigit():
                out.setdefault(_stem(part), WORD_WEIGHT)
    for run in han:
        for i in range(len(run) - 1):
            gram = run[i:i + 2]
            if gram[0] not in STOP_HAN and gram[1] not in STOP_HAN:
                out.setdefault(gram, HAN_WEIGHT)
    return out


def related(todo: dict, turn: dict, same_file: bool = False) -> float:
    """How much of ``todo``'s words the turn shares (0 when it shares too little to ask);
    ``same_file``: the turn edited a file the to-do's session changed."""
    total = sum(todo.values())
    shared = sum(weight for word, weight in todo.items() if word in turn)
    bonus = SAME_FILE_WEIGHT if same_file else 0.0
    if not bonus and not any(word in turn for word in todo if word not in GENERIC_STEMS and word not in GENERIC_HAN):
        return 0.0                        # only everyday words in common ("updated", "测试通过")
    if not total or shared + bonus < MIN_SHARED or (shared / min(total, COVERAGE_OF) < MIN_COVERAGE and not bonus):
        return 0.0
    return shared / total + (shared + bonus) / 10.0


def _bounded(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit // 2] + "\n" + text[-(limit // 2):]


def _content_text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"
                         and isinstance(b.get("text"), str))
    return ""


def turn_tail(path: str, work: dict | None = None) -> tuple:
    """(the turn's user prompt, [edited file paths and Bash commands]) from the last
    :data:`TAIL_BYTES` of the transcript at ``path``: the lines after the last typed prompt.
    ("", []) when it cannot be read. ``work``, when given, is filled with what the turn did:
    ``edits`` (edit tool calls), ``passed``/``failed`` (Bash calls whose result is or is not an
    error) and ``last_failed`` (the turn's last Bash call failed)."""
    if work is not None:
        work.update(edits=0, passed=0, failed=0, last_failed=False)
    if not path:
        return "", []
    from ..jsonlite import loads

    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - TAIL_BYTES))
            data = fh.read(TAIL_BYTES)
    except OSError:
        return "", []
    lines = data.decode("utf-8", "replace").split("\n")
    if size > TAIL_BYTES:
        lines = lines[1:]                                  # the first line is cut
    actions: list = []
    errors: dict = {}                     # tool_use id -> its result was an error (results come first, reversed)
    for line in reversed(lines):
        if '"type":"user"' not in line.replace(" ", "") and '"tool_use"' not in line:
            continue
        try:
            obj = loads(line)
        except ValueError:
            continue
        if not isinstance(obj, dict) or obj.get("isSidechain") or obj.get("isMeta"):
            continue
        message = obj.get("message") if isinstance(obj.get("message"), dict) else {}
        content = message.get("content")
        if obj.get("type") == "assistant" and isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_use" and isinstance(block.get("input"), dict):
                    args = block["input"]
                    if block.get("name") in EDIT_TOOLS:
                        actions.append(str(args.get("file_path") or args.get("notebook_path") or ""))
                        if work is not None:
                            work["edits"] += 1
                    elif block.get("name") == "Bash":
                        actions.append(str(args.get("command") or "")[:300])
                        if work is not None and block.get("id") in errors:
                            failed = errors[block.get("id")]
                            if not work["passed"] and not work["failed"]:
                                work["last_failed"] = failed    # the first one seen walking back is the last
                            work["failed" if failed else "passed"] += 1
            continue
        if work is not None and isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    errors[block.get("tool_use_id")] = bool(block.get("is_error"))
        if obj.get("type") == "user":
            prompt = _content_text(content).strip()
            if prompt and not prompt.startswith(("<command-", "<local-command", "<task-notification")):
                return prompt[:MAX_PROMPT_CHARS], actions
    return "", actions


def _earlier_entries(entries: list, project: str, session_id: str):
    """``(entry, names of the files its session changed)`` of the project's entries but this session's."""
    for entry in entries:
        if entry.get("id") != session_id and (entry.get("project") or project) == project:
            yield entry, sorted({os.path.basename(str(f).strip().strip("`")) for f in entry.get("files") or [] if f})


def _named(tid: str, text: str, limit: int = MAX_TODO_CHARS) -> str:
    """A to-do as a question names it: ``<id> “text”`` (whitespace folded, cut to ``limit``)."""
    return f"{tid} “{' '.join(text.split())[:limit]}”"


def candidates(entries: list, project: str, session_id: str, now: float, expire_days: float) -> list:
    """``[(id, text, names of the files its session changed)]`` of the project's open to-dos, not
    of this session (asked before in it or not: :func:`handle` tells them apart by the ledger)."""
    from ..memory.todos import todo_id
    from .recent_work import _todo_states

    out, seen = [], set()
    for entry, files in _earlier_entries(entries, project, session_id):
        for todo, state in _todo_states(entry, now, expire_days):
            tid = todo_id(entry["id"], todo["text"])
            if tid in seen or state != "open":
                continue
            seen.add(tid)
            out.append((tid, todo["text"].strip(), files))
    return out


def choose(todos: list, turn_text: str, edited=()) -> list:
    """The at most :data:`MAX_ASKED` to-dos ``[(id, text)]`` the turn (its text, the names of the
    files it edited) seems to be about, best first."""
    turn = words(turn_text)
    edited = set(edited)
    scored = [(related(words(text), turn, bool(edited.intersection(files))), tid, text)
              for tid, text, files in todos]
    scored = sorted((s for s in scored if s[0] > 0), key=lambda s: -s[0])
    return [(tid, text) for _s, tid, text in scored[:MAX_ASKED]]


def by_meaning(ctx, todos: list, turn_text: str) -> tuple:
    """``({id: score}, ask, join)``: how close each to-do is to the turn (its prompt and final message)
    by meaning, from the warm search server (op ``related``, search/related.py: the configured
    embedding model through its warm daemon), asked within ``search.server_hook_timeout_seconds``,
    and the two thresholds — ``hooks.todo_check_meaning_ask``/``_join`` where set, else the ones
    measured for the model (search/related.py ``CALIBRATED``). ``({}, 1, 1)`` when no server answers in
    time, it has no vectors now, ``search.server`` is off, or nobody has thresholds for the model —
    the word trigger alone then decides."""
    none = ({}, 1.0, 1.0)
    try:
        if not ctx.cfg.get_path("search.server"):
            return none
        from ..search.client import call

        ask, join = ctx.setting("todo_check_meaning_ask"), ctx.setting("todo_check_meaning_join")
        request = {"text": turn_text[:MEANING_TEXT_CHARS],
                   "todos": [{"id": tid, "text": text[:MEANING_TODO_CHARS]}
                             for tid, text, _f in todos[:MEANING_MAX_TODOS]],
                   "calibrated_only": ask is None or join is None}
        answer = call(ctx.cfg.root, "related", request, float(ctx.cfg.get_path("search.server_hook_timeout_seconds")))
        scores = answer.get("scores") if isinstance(answer, dict) and answer.get("ok") else None
        measured = answer.get("thresholds") if isinstance(answer, dict) else None
        measured = measured if isinstance(measured, dict) else {}
        ask = float(ask if ask is not None else measured.get("ask", 1.0))
        join = float(join if join is not None else measured.get("join", 1.0))
        if not isinstance(scores, dict):
            return none
        return ({tid: float(s) for tid, s in scores.items()
                 if isinstance(tid, str) and isinstance(s, (int, float)) and not isinstance(s, bool)}, ask, join)
    except Exception:  # noqa: BLE001 — the meaning is extra: its failure never costs the word trigger's question
        return none


def with_meaning(chosen: list, todos: list, scores: dict, ask: float, join: float) -> list:
    """``chosen`` (the word trigger's, first) and the to-dos close to the turn by ``scores``
    (closest first), at most :data:`MAX_ASKED`: those reaching ``join`` when the word trigger asks
    anyway (naming one more to-do in a question that is asked costs no turn), else those reaching
    ``ask`` (a question of their own: a much closer match)."""
    named = {tid for tid, _t in chosen}
    threshold = join if chosen else ask
    close = sorted(((scores[tid], tid, text) for tid, text, _f in todos
                    if tid not in named and scores.get(tid, -1.0) >= threshold), key=lambda s: -s[0])
    return (chosen + [(tid, text) for _s, tid, text in close])[:MAX_ASKED]


def asks_back(message: str) -> bool:
    """Does the final message end on a question to the person (an offer, a choice): the turn waits for
    them rather than reporting work done?"""
    return message.rstrip().endswith(("?", "？"))


def finished_work(work: dict, message: str) -> bool:
    """A turn shaped like a finish (the roll call's gate): it edited files or a command passed, its last
    command did not fail, and its final message does not end on a question (:func:`asks_back`).
    Completion wording is not required: the completion words this hook has (and a verb's 了/好了 in
    Chinese) reached 11 of the 38 finishing sessions of closing-heldout6 where the work alone reached
    32 — most reports state the new state ("现在从配置读", "now comes from …") without one."""
    return bool(work.get("edits") or work.get("passed")) and not work.get("last_failed") and not asks_back(message)


def roll_call(todos: list, named, limit: int) -> list:
    """``[(id, text)]``: the project's open to-dos ``todos`` (newest session first; asked at an earlier
    turn or not — the roll is about the turn's new work) but those ``named`` by this turn's word
    question, at most ``limit``."""
    return [(tid, text) for tid, text, _f in todos if tid not in named][:max(0, limit)]


def roll_calls_made(asked: set) -> int:
    """How many roll calls the session's ledger keys ``asked`` record."""
    if ROLL_CALL_KEY not in asked:
        return 0
    return 1 + sum(1 for n in range(2, ROLL_CALLS_PER_SESSION + 1) if f"{ROLL_CALL_KEY}:{n}" in asked)


def roll_call_due(asked: set, edited: list) -> str:
    """The ledger key of the roll call this finish-shaped turn may call ("" when none is due): the
    session's first, or — at most :data:`ROLL_CALLS_PER_SESSION` in all — another one at a turn that
    edited a file none of the turns it was called at edited (new work since: a to-do it finished was
    not done yet when the roll was last called)."""
    calls = roll_calls_made(asked)
    if not calls:
        return ROLL_CALL_KEY
    if calls >= ROLL_CALLS_PER_SESSION or not any(ROLL_CALL_FILE + name not in asked for name in edited):
        return ""
    return f"{ROLL_CALL_KEY}:{calls + 1}"


def roll_call_question(roll: list, after_open: bool) -> str:
    """The roll call's part of the question: the project's open to-dos by id, the model says which its
    session's work finished — whatever words the to-do was written in."""
    named = "; ".join(_named(tid, text, ROLL_CALL_TODO_CHARS) for tid, text in roll)
    if after_open:
        return (f"Also, memory's other open to-dos for this project: {named}. If this session's work finished "
                "any of them, close it the same way (and one you finish later in this session, then).")
    return ("[code-memory] Before you stop: memory's open to-dos for this project (from earlier sessions) are: "
            f"{named}. If this session's work finished any of them, close it: memory_todo (action done, its id), "
            "or `code-memory todo done <id>` (and one you finish later in this session, then). " + PARTIAL_CLAUSE
            + "If none, just stop without comment. (Memory's roll call; it comes again only after new work.)")


# the question's clause for a to-do the turn finished only in part (memory/todos.py ``remaining``)
PARTIAL_CLAUSE = ("Finished only part? Close it with remaining set to what is left (memory_todo remaining, or "
                  "`--remaining \"…\"`). ")


def question(chosen: list) -> str:
    named = "; ".join(_named(tid, text) for tid, text in chosen)
    one = len(chosen) == 1
    return ("[code-memory] Before you stop: memory's to-do list (from earlier sessions) has "
            + ("an open to-do" if one else "open to-dos") + f" this turn may have finished: {named}. "
            "If your work finished " + ("it" if one else "one") + ", close it: memory_todo (action done, its id), "
            "or `code-memory todo done <id>`. " + PARTIAL_CLAUSE + "If it is not finished, just stop without comment. "
            "(Memory's question, asked once per to-do per session.)")


def unconfirmed_closes(entries: list, project: str, session_id: str, asked: set, now: float,
                       notice_days: float) -> list:
    """``[(id, text, names of the files its session changed, evidence)]`` of the project's to-dos the
    summarizer closed (``done_by``: a later session, not the person or the model) that nobody confirmed
    (``confirmed_at``) or reopened, closed at most ``notice_days`` ago (the finishing session's end;
    ``hooks.autoclose_notice_days``, 0 = none), not of this session and not closed by it, not asked
    before in it. A confirmed or reopened close never comes back; one nobody answers is asked once per
    session that touches it until its notice window ends, as long as the brief lists it."""
    from ..memory.recent import summarizer_closed
    from ..memory.todos import todo_id
    from .recent_work import with_text

    if notice_days <= 0:
        return []
    ended = {e.get("id"): e.get("ts") for e in entries}
    out, seen = [], set()
    for entry, files in _earlier_entries(entries, project, session_id):
        for todo in with_text(entry):
            by, closed = todo.get("done_by"), ended.get(todo.get("done_by"))
            if not summarizer_closed(todo) or todo.get("confirmed_at") or by == session_id \
                    or not isinstance(closed, (int, float)) or now - closed > notice_days * 86400:
                continue      # the person's or the model's close, confirmed, or its finishing session unknown/old
            tid = todo_id(entry["id"], todo["text"])
            if tid in seen or LEDGER_PREFIX + tid in asked:
                continue
            seen.add(tid)
            why = todo.get("closed_why")
            out.append((tid, todo["text"].strip(), files, why.strip() if isinstance(why, str) else ""))
    return out


def reconfirm_question(closes: list, after_open: bool) -> str:
    """The question's part about the summarizer's closes ``[(id, text, evidence)]``: reopen one this
    turn's work shows unfinished, confirm one it shows finished (then it is never asked again)."""
    named = "; ".join(_named(tid, text) + (f" ← “{' '.join(why.split())[:MAX_EVIDENCE_CHARS]}”" if why else "")
                      for tid, text, why in closes)
    one = len(closes) == 1
    return (("Second, a separate question: " if after_open else "[code-memory] Before you stop: ")
            + "memory closed " + ("this to-do" if one else "these to-dos") + " on its own, from an earlier "
            f"session's words (← what it went by), and this turn touches {'it' if one else 'them'}: {named}. "
            "If this turn's work shows " + ("it is" if one else "one is") + " NOT finished, reopen it: "
            "memory_todo (action reopen, its id), or `code-memory todo reopen <id>`. If " + ("it is" if one else "one is")
            + " finished, confirm it: memory_todo (action done, its id), or `code-memory todo done <id>` — memory "
            "then stops asking."
            + ("" if after_open else " (Memory's question, asked once per to-do per session.)"))


def with_closes(chosen: list, closes: list, turn_text: str, edited, scores=None, ask: float = 1.0,
                join: float = 1.0) -> list:
    """The summarizer's closes ``[(id, text, evidence)]`` the turn is about — by the open to-dos' own
    trigger (:func:`choose`, then :func:`with_meaning` with the same ``scores``; a close joins by
    meaning at ``join`` when a question is asked anyway) — in the places the open to-dos ``chosen``
    leave of :data:`MAX_ASKED`."""
    room = MAX_ASKED - len(chosen)
    if room <= 0 or not closes:
        return []
    why = {tid: evidence for tid, _text, _files, evidence in closes}
    triples = [c[:3] for c in closes]
    picked = with_meaning(choose(triples, turn_text, edited), triples, scores or {}, join if chosen else ask, join)
    return [(tid, text, why[tid]) for tid, text in picked[:room]]


def handle(event, ctx):
    if event.stop_hook_active or event.agent_id or not ctx.setting("todo_check"):
        return None
    project = ctx.project_for(None, event.cwd)
    if project is None or not ctx.root_ready():
        return None
    from .ledger import Ledger
    from .recent_work import _entries

    entries, _workspace = _entries(ctx, project)
    if not entries:
        return None
    ledger = Ledger(ctx.session_flags)
    asked, now = ledger.keys(), time.time()
    every = candidates(entries, project.name, event.session_id, now, float(ctx.setting("todo_expire_days")))
    todos = [todo for todo in every if LEDGER_PREFIX + todo[0] not in asked]      # not asked in this session
    closes = unconfirmed_closes(entries, project.name, event.session_id, asked, now,
                                float(ctx.setting("autoclose_notice_days")))
    rolls = bool(every) and bool(ctx.setting("todo_check_roll_call")) and roll_calls_made(asked) < ROLL_CALLS_PER_SESSION
    if not todos and not closes and not rolls:
        return None                       # nothing left to ask this session: the transcript is not read
    work: dict = {}
    prompt, actions = turn_tail(event.transcript_path, work)
    edited = [os.path.basename(a) for a in actions if a.startswith("/")]
    turn_text = "\n".join([_bounded(event.last_message, MAX_MESSAGE_CHARS), prompt, *edited,
                           *(a for a in actions if not a.startswith("/"))])
    chosen = choose(todos, turn_text, edited) if todos else []
    said = prompt + "\n" + _bounded(event.last_message, MEANING_TEXT_CHARS)      # what was asked and done, in words
    scores, ask, join = by_meaning(ctx, todos + [c[:3] for c in closes], said)       # one call for both
    chosen = with_meaning(chosen, todos, scores, ask, join)
    rechecked = with_closes(chosen, closes, turn_text, edited, scores, ask, join)
    due = roll_call_due(asked, edited) if rolls and finished_work(work, event.last_message) else ""
    # the roll names every open to-do but this question's, asked at an earlier turn or not: the work is new
    roll = roll_call(every, {tid for tid, _t in chosen}, int(ctx.setting("todo_check_roll_call_max"))) if due else []
    keys = [LEDGER_PREFIX + tid for tid, _t in chosen] + [LEDGER_PREFIX + c[0] for c in rechecked]
    if due and (roll or chosen):          # a word question naming every open to-do counts as the roll call
        keys += [due, *(ROLL_CALL_FILE + name for name in edited)]
    if not keys or not ledger.add(keys=keys):
        return None                       # nothing related, or no ledger to keep "once" with: silent
    ctx.log.info("todo-check", asked=len(chosen), roll_call=len(roll), open=len(todos), rechecked=len(rechecked),
                 closes=len(closes))
    parts = ([question(chosen)] if chosen else []) + ([roll_call_question(roll, bool(chosen))] if roll else []) \
        + ([reconfirm_question(rechecked, bool(chosen or roll))] if rechecked else [])
    return {"decision": "block", "reason": " ".join(parts)}
