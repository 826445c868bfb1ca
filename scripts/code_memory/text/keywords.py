"""Weighted content words of a short line, Chinese and English: what two lines must share to name
the same work (a to-do and the evidence that it was done, two copies of one to-do).

* Chinese runs are cut into words by jieba's dictionary (text/segment.py, without importing
  jieba) and each word weighs what it tells: its information ``log(total / frequency)`` minus a
  floor, so 一个 / 时候 / 现在 / 知道 weigh (almost) nothing and 默认值 / 监控 / 迁移 a lot; runs of
  characters that are no word on their own give their bigrams (压测, 死链 — jargon the dictionary
  lacks). Function and negation characters never start or end such a bigram. A compound and its
  head still meet: the words inside a long word (进度条 → 进度) are part of what a text holds
  (:func:`expand`), and a compound found only by its head counts half. A two-character word made
  of two common one-character words (里加 cut from 在 CI 里加个…) weighs less than any real word.
  Without the dictionary: character bigrams, each weighing less than a name (a lone character,
  做 / 加, almost nothing).
* English: identifiers and file names (``load_config``, ``docs/cli.md``, ``v2``) weigh most, and
  their parts count too; acronyms (``CSV``, ``GET``) are kept whatever they spell; other words are
  lower-cased, stemmed (Snowball's English stemmer when installed: migration / migrate / migrated →
  ``migrat``, resumable / resuming → ``resum``) and stop words dropped;
  a hyphenated word names its parts as well (forgot-password → ``password``).

Pure functions; results are cached per text (a summary compares the same lines many times).
"""

from __future__ import annotations

import functools
import math
import re

from .segment import HAN_RUN, STOP_CHARS, DictSegmenter, get_segmenter

NAME_WEIGHT = 5.0          # an identifier or a file name
ACRONYM_WEIGHT = 3.0
WORD_WEIGHT = 2.5          # an English content word
PART_WEIGHT = 1.5          # a part of an identifier (load, config of load_config)
JARGON_WEIGHT = 2.5        # a bigram of characters that are no dictionary word on their own
INFO_FLOOR = 7.0           # information (nats) a Chinese word needs before it weighs anything
MAX_WORD_WEIGHT = 5.0
MIN_WEIGHT = 0.6
COMMON_CHAR_INFO = 9.0     # a character this frequent as a word of its own (里, 加, 开) is common
BIGRAM_WEIGHT = 1.0        # without the dictionary, each character bigram
SINGLE_WEIGHT = 0.3        # … and a run of one character
COMMON_PAIR_WEIGHT = 0.9   # a dictionary word of two common one-character words: less than any real word
SUB_WORD_SHARE = 0.5       # a compound found only by a word inside it (进度 for 进度条) counts half

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-/]*[A-Za-z0-9_]|[A-Za-z]{2,}|\d{2,}[A-Za-z%]*")
_NAME = re.compile(r"[._/]|\d|[a-z][A-Z]|^-")
# characters that never start or end a jargon bigram: function words and negations / modals
EDGE_CHARS = STOP_CHARS | frozenset("不没未别无还再又才也要得需会能可先后前已被将该并但却若如一")
STOP_WORDS = frozenset("""
a about above after again against all almost along already also although always am an and another any anything
are aren't around as at back be because been before being below between both but by can can't cannot could
couldn't did didn't do does doesn't doing don't done down during each either else enough etc even ever every
few first for from further get gets getting got had hadn't has hasn't have haven't having he her here hers him
his how however i i'd i'll i'm i've if in into is isn't it it's its itself just last later let let's like
made make makes many may me might more most much must my need needs next no nor not nothing now of off ok okay
on once one only or other others our ours out over own please quite rather really same see seem seems shall
she should shouldn't since so some something still such sure than that that's the their theirs them then there
these they thing things this those though through thus time to too two under until up upon us use used using
very via want was wasn't way we we'll we're we've well were weren't what when where whether which while who
someone somebody anyone anybody everyone
whom whose why will with within without won't would wouldn't yes yet you you'll your yours
step steps todo to-do task tasks work works item items part
aren isn doesn don didn haven hasn wasn weren won shouldn couldn wouldn hadn
""".split())


@functools.lru_cache(maxsize=1)
def _snowball():
    """Snowball's English (Porter2) stemmer when ``snowballstemmer`` is installed (the ``zh`` extra),
    else ``None`` and :func:`stem` strips a few suffixes itself."""
    try:
        import snowballstemmer
    except ImportError:
        return None
    return snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """An English stem: migration, migrate, migrated, migrating → ``migrat``; resumable, resuming
    → ``resum`` (Snowball's English stemmer; without it, a light suffix list)."""
    w = word.lower()
    snowball = _snowball()
    if snowball is not None:
        return snowball.stemWord(w)
    for suffix, repl in (("ies", "y"), ("ations", "at"), ("ation", "at"), ("ions", ""), ("ion", ""), ("ings", ""),
                         ("ing", ""), ("ed", ""), ("es", ""), ("s", ""), ("e", "")):
        if w.endswith(suffix) and len(w) - len(suffix) + len(repl) >= 3 and not w.endswith("ss"):
            return w[: len(w) - len(suffix)] + repl
    return w


@functools.lru_cache(maxsize=1)
def _segmenter():
    try:
        return get_segmenter()
    except Exception:         # noqa: BLE001 — no dictionary cache possible: bigrams
        from .segment import BigramSegmenter
        return BigramSegmenter()


def _han_weights(run: str, out: dict) -> None:
    seg = _segmenter()
    total = getattr(seg, "total", 1) or 1
    singles: list = []

    def flush():
        for a, b in zip(singles, singles[1:]):
            if a not in EDGE_CHARS and b not in EDGE_CHARS:
                out[a + b] = max(out.get(a + b, 0.0), JARGON_WEIGHT)
        singles.clear()

    if not isinstance(seg, DictSegmenter):           # bigrams: names and identifiers weigh more
        for gram, _none in seg.words(run):
            if not EDGE_CHARS.intersection(gram):      # a lone character (做, 加) says little
                out[gram] = max(out.get(gram, 0.0), BIGRAM_WEIGHT if len(gram) > 1 else SINGLE_WEIGHT)
        return
    for word, freq in seg.words(run):
        if len(word) == 1:
            singles.append(word)
            continue
        flush()
        weight = min(MAX_WORD_WEIGHT, math.log(total / freq) - INFO_FLOOR) if freq else JARGON_WEIGHT
        if len(word) == 2 and freq and all(_common_char(seg, c, total) for c in word):
            weight = min(weight, COMMON_PAIR_WEIGHT)   # 里加 (Riga) in 在 CI 里加: two common words, a cut's accident
        if weight >= MIN_WEIGHT and not (EDGE_CHARS.issuperset(word)):
            out[word] = max(out.get(word, 0.0), weight)
    flush()


@functools.lru_cache(maxsize=8192)
def _char_info(seg, char: str, total: int) -> float:
    freq = seg.lexicon.lookup([char]).get(char)
    return math.log(total / freq) if freq else 99.0


def _common_char(seg, char: str, total: int) -> bool:
    return _char_info(seg, char, total) < COMMON_CHAR_INFO


@functools.lru_cache(maxsize=4096)
def _weights(text: str) -> tuple:
    out: dict = {}
    for token in _TOKEN.findall(text):
        bare = token.strip(".-/")
        if len(bare) < 2:
            continue
        if _NAME.search(bare) and len(bare) >= 3:
            key = bare.lower()
            out[key] = max(out.get(key, 0.0), NAME_WEIGHT)
            for part in re.split(r"[/.\-]+", bare):
                pieces = part.split("_")
                for i in range(len(pieces)):          # test_load_config names load_config too
                    for j in range(i + 2, len(pieces) + 1):
                        joined = "_".join(pieces[i:j]).lower()
                        if joined != key and len(joined) >= 3:
                            out.setdefault(joined, PART_WEIGHT)
                for piece in pieces:
                    if len(piece) >= 3 and piece.lower() not in STOP_WORDS and not piece.isdigit():
                        out.setdefault(stem(piece), PART_WEIGHT)
        elif _is_acronym(bare):
            out[bare.lower()] = max(out.get(bare.lower(), 0.0), ACRONYM_WEIGHT)
        elif bare.isdigit() or bare[:1].isdigit():
            out[bare.lower()] = max(out.get(bare.lower(), 0.0), PART_WEIGHT)
        elif len(bare) >= 3 and bare.lower() not in STOP_WORDS:
            key = stem(bare)
            out[key] = max(out.get(key, 0.0), WORD_WEIGHT)
            for piece in bare.split("-") if "-" in bare else ():     # forgot-password names password
                if len(piece) >= 3 and piece.lower() not in STOP_WORDS:
                    out.setdefault(stem(piece), PART_WEIGHT)
    for run in HAN_RUN.findall(text):
        _han_weights(run, out)
    return tuple(out.items())


def weights(text: str) -> dict:
    """``{token: weight}`` of the content words of ``text`` (see the module docstring)."""
    return dict(_weights(text or ""))


@functools.lru_cache(maxsize=4096)
def sub_words(token: str) -> tuple:
    """The dictionary words inside a Chinese word of three or more characters (进度条 → 进度)."""
    if len(token) < 3 or not HAN_RUN.fullmatch(token):
        return ()
    return tuple(word for word, _freq in _segmenter().words_within(token))


def expand(tokens) -> set:
    """``tokens`` and the words inside them: what a text holds for :func:`coverage` (a compound
    in it covers its head word)."""
    out = set(tokens)
    for token in list(out):
        out.update(sub_words(token))
    return out


def names(tokens) -> set:
    """The identifiers and file names among ``tokens`` (what must match for two lines to be about
    the same code: "补 load_config 的测试" is not "补 parse_args 的测试")."""
    return {t for t in tokens if t.isascii() and _NAME.search(t) and not t.isdigit() and len(t) >= 3
            and not t[:1].isdigit()}


def _is_acronym(bare: str) -> bool:
    return len(bare) >= 2 and bare.isalpha() and bare.isupper()


def acronyms(text: str) -> set:
    """The acronyms ``text`` names (CSV, PDF, HPA), lower-cased as :func:`weights` keys them: the
    subject of a short line ("update the CSV export") that a line about other work lacks."""
    return {bare.lower() for bare in (token.strip(".-/") for token in _TOKEN.findall(text or ""))
            if _is_acronym(bare)}


def coverage(small: dict, large) -> float:
    """The weighted share of ``small``'s words found in ``large`` (a dict or set of tokens; pass it
    through :func:`expand`); a compound of ``small`` whose head word only is found counts
    SUB_WORD_SHARE of its weight."""
    total = sum(small.values())
    if total <= 0:
        return 0.0
    found = 0.0
    for token, weight in small.items():
        if token in large:
            found += weight
        elif any(part in large for part in sub_words(token)):
            found += weight * SUB_WORD_SHARE
    return found / total


def covers(small: dict, large, share: float) -> bool:
    """Does ``large`` hold at least ``share`` of ``small`` (by weight) — and, when ``small`` names
    identifiers or files, at least one of them? Lines of fewer than two words never match."""
    if len(small) < 2 and not names(small):
        return False
    wanted = names(small)
    if wanted and not wanted & set(large):
        return False
    return coverage(small, large) >= share
