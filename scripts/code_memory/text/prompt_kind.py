"""What kind of prompt this is, read from its structure: a question about something memory may
hold, or work on what is in front of the model. Pure functions, standard library only.

Prompt-time recall (search/recall.py) asks the relevance gate for more when a prompt points at the
work at hand ("fix this test", "给这个函数加单元测试", "跑一下测试"): such a prompt shares words with
every coding note, and what it needs is on the screen, not in memory. A question that names its
subject without pointing at anything ("why did we pick RRF?", "当初为什么选 RRF？", "What did
Caroline research?") is asking for something the model has to know, which is where memory helps.

The cues are grammatical, not topical, in both languages:

* **question** — English: ends with ``?`` or opens with a wh-word or an inverted auxiliary ("did",
  "is", "can" …). Chinese: ends with ``？``/``?`` or a question particle (吗, 呢), or holds an
  interrogative word (为什么, 怎么, 什么, 哪个, 多少, 是否, 有没有 …).
* **pointing at the work** — a demonstrative for what is at hand (English "this", "these",
  "here"; Chinese 这个, 这段, 这里, 此 …), or a Chinese request form: ``V一下`` ("跑一下", "看一下")
  or a sentence opened by 请, 帮, 把, 给 or 让.

``ask`` = a question that points at nothing; everything else is ``work``.

:func:`named_words` reads what a prompt names: a word capitalised inside a sentence ("what did
Caroline research?", "the Redis cache"), an identifier (``parse_config``, ``MEMORY.md``,
``workspaceId``, ``BM25``, ``--verbose``), and in a Chinese prompt any Latin word ("jobs store 放在哪",
"为什么选 RRF"). A prompt that names something is about that thing: a memory that holds none of it
answers another question.
"""

from __future__ import annotations

import re

ASK, WORK = "ask", "work"

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_EN_OPEN = re.compile(
    r"^(?:what|when|where|who|whom|whose|which|why|how|did|do|does|is|are|was|were|has|have|had|can|could|"
    r"would|will|should|shall|may|might|must)\b")
_EN_POINT = re.compile(r"\b(?:this|these|here)\b")
_ZH_ASK = re.compile(r"为什么|为啥|为何|怎么|怎样|如何|什么|哪个|哪些|哪里|哪儿|哪一|哪位|谁|多少|是否|有没有|能不能|"
                     r"是不是|会不会|要不要|算不算|几[个位次天年月条种行]")
_ZH_POINT = re.compile(r"这[个段些里儿块边种次份]|此(?:处|段|函数|文件)|该(?:函数|文件|方法|模块|类)|当前")
_ZH_REQUEST = re.compile(r"^(?:请|帮|把|给|让)|[\u4e00-\u9fff]一下")
_TRAILING = "。.!！~～ \t\n"
_LATIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*[A-Za-z0-9]|[A-Za-z0-9]")
_PIECE = re.compile(r"[a-z0-9]+")
_SENTENCE_END = (".", "!", "?", "。", "！", "？", ":", "：", "\n")


def is_question(prompt: str) -> bool:
    s = (prompt or "").strip().rstrip(_TRAILING)
    if s.endswith(("?", "？")):
        return True
    if _HAN.search(s):
        return s.endswith(("吗", "呢")) or _ZH_ASK.search(s) is not None
    return _EN_OPEN.match(s.lower()) is not None


def points_at_work(prompt: str) -> bool:
    s = (prompt or "").strip()
    if _EN_POINT.search(s.lower()):
        return True
    return bool(_HAN.search(s)) and (_ZH_POINT.search(s) is not None or _ZH_REQUEST.search(s) is not None)


def prompt_kind(prompt: str) -> str:
    """``ask`` (a question that points at nothing in front of the model) or ``work``."""
    return ASK if is_question(prompt) and not points_at_work(prompt) else WORK


def _identifier(word: str) -> bool:
    inner = word.strip(".")
    return ("_" in word or "." in inner or (any(c.isdigit() for c in word) and any(c.isalpha() for c in word))
            or any(a.islower() and b.isupper() for a, b in zip(word, word[1:])) or (word.isupper() and len(word) >= 2))


def named_words(prompt: str) -> set:
    """The lowercased words of what ``prompt`` names (see the module docstring): each name or
    identifier split as the index splits words (``MEMORY.md`` → memory, md)."""
    text = prompt or ""
    han = _HAN.search(text) is not None
    out = set()
    for m in _LATIN.finditer(text):
        word = m.group(0)
        before = text[:m.start()].rstrip()
        capitalised = word[0].isupper() and bool(before) and not before.endswith(_SENTENCE_END)
        if capitalised or _identifier(word) or (han and len(word) >= 2 and not word.isdigit()):
            out.update(piece for piece in _PIECE.findall(word.lower()) if len(piece) > 1 or piece.isdigit())
    return out
