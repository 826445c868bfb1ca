"""Chinese segmentation for the lexical index and its queries, without paying for ``import jieba``.

SQLite's ``unicode61`` tokenizer treats a run of Chinese characters as one token, so the index holds
a search column where every Han run is replaced by its words. The words come from jieba's own
dictionary (``jieba/dict.txt``) and jieba's own algorithm — the DAG of dictionary words, the
max-probability route, and search mode's extra 2-/3-grams of long words (``cut_for_search``) — with
two deliberate differences:

* no HMM for unknown words. Instead, a run of two or more unknown single characters (names, new
  terms) contributes its character bigrams, so ``李小福`` is still findable by ``李小福``;
* the dictionary is read from a SQLite cache built once from ``dict.txt``, so a query looks up only
  its own substrings (about 1 ms) instead of loading jieba (about 1 s per process).

Index and query are segmented by the same code, so they always agree. Without jieba installed the
:class:`BigramSegmenter` (overlapping character bigrams, both sides) is used; the index records which
segmenter built it and is rebuilt when that changes.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import re
import sqlite3
import threading

HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")

# Single characters that never start or end a bigram of an unknown-word run (function words).
STOP_CHARS = frozenset("的了是在和与或及等也都就而把被让给对从向于之其这那有个着过吗呢吧啊呀么你我他她它们")

CACHE_SCHEMA_VERSION = "1"


def has_cjk(text: str) -> bool:
    return bool(text) and HAN_RUN.search(text) is not None


def bigrams(run: str) -> list:
    return [run[i:i + 2] for i in range(len(run) - 1)]


def _oov_bigrams(chars: list) -> list:
    """Bigrams of a run of unknown single characters, split at function-word characters."""
    out, current = [], []
    for ch in chars + [None]:
        if ch is None or ch in STOP_CHARS:
            if len(current) >= 2:
                out.extend(bigrams("".join(current)))
            current = []
        else:
            current.append(ch)
    return out


class Lexicon:
    """word → frequency, as jieba's dictionary defines it."""

    ident: str = ""
    total: int = 1
    max_len: int = 1

    def lookup(self, words) -> dict:  # pragma: no cover - interface
        raise NotImplementedError

    def edges(self, run: str) -> list:
        """For each start position, the (end, freq) of every dictionary word of length ≥ 2 there."""
        n = len(run)
        subs = [run[k:k + L] for k in range(n) for L in range(2, min(self.max_len, n - k) + 1)]
        found = self.lookup(subs) if subs else {}
        out = [[] for _ in range(n)]
        for k in range(n):
            for L in range(2, min(self.max_len, n - k) + 1):
                f = found.get(run[k:k + L])
                if f:
                    out[k].append((k + L, f))
        return out


class MemoryLexicon(Lexicon):
    """The whole dictionary in memory: for segmenting many chunks while indexing."""

    def __init__(self, freq: dict, total: int, max_len: int, ident: str):
        self.freq, self.total, self.max_len, self.ident = freq, total, max_len, ident
        # every proper prefix of a word, so a scan stops as soon as no word can continue (as jieba)
        self.prefixes = {w[:i] for w in freq for i in range(1, len(w))}

    def lookup(self, words) -> dict:
        get = self.freq.get
        return {w: f for w in words if (f := get(w))}

    def edges(self, run: str) -> list:
        get, prefixes, n = self.freq.get, self.prefixes, len(run)
        out = []
        for k in range(n):
            ends = []
            if run[k] in prefixes:
                for i in range(k + 2, n + 1):
                    frag = run[k:i]
                    f = get(frag)
                    if f:
                        ends.append((i, f))
                    if frag not in prefixes:
                        break
            out.append(ends)
        return out


class SqliteLexicon(Lexicon):
    """Dictionary lookups against the SQLite cache: for queries (touches only the query's substrings)."""

    def __init__(self, db_path: str):
        # read-only and shared by the threads of one process (the MCP SDK runs each tool call in
        # a worker thread): one lookup at a time
        self.conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        meta = dict(self.conn.execute("SELECT key, value FROM meta"))
        self.total = int(meta["total"])
        self.max_len = int(meta["max_len"])
        self.ident = meta["ident"]

    def lookup(self, words) -> dict:
        words = list(set(words))
        found = {}
        with self._lock:
            for i in range(0, len(words), 900):
                part = words[i:i + 900]
                marks = ",".join("?" * len(part))
                found.update(self.conn.execute(f"SELECT word, freq FROM words WHERE word IN ({marks})", part))
        return found

    def to_memory(self) -> MemoryLexicon:
        with self._lock:
            freq = dict(self.conn.execute("SELECT word, freq FROM words"))
        return MemoryLexicon(freq, self.total, self.max_len, self.ident)


def _cut_run(run: str, lex: Lexicon) -> tuple:
    """jieba's accurate-mode cut of a pure Han run, without HMM: the max-probability route through
    the DAG of dictionary words. Returns (words, {multi-character word: freq} seen in the run)."""
    n = len(run)
    edges = lex.edges(run)
    single = lex.lookup(set(run))
    logtotal = math.log(lex.total)
    log = math.log
    route = [(0.0, 0)] * (n + 1)
    for idx in range(n - 1, -1, -1):
        # as jieba's DAG: the single character is an option only if it is a word itself or no
        # longer word starts here; ties go to the longer word
        best = None
        for end, f in edges[idx]:
            cand = (log(f) - logtotal + route[end][0], end - 1)
            if best is None or cand > best:
                best = cand
        f1 = single.get(run[idx])
        if f1 or best is None:
            cand = (log(f1 or 1) - logtotal + route[idx + 1][0], idx)
            if best is None or cand > best:
                best = cand
        route[idx] = best
    words, x = [], 0
    while x < n:
        y = route[x][1] + 1
        words.append(run[x:y])
        x = y
    freq = {run[k:end]: f for k in range(n) for end, f in edges[k]}
    return words, freq


def _search_tokens_run(run: str, lex: Lexicon) -> list:
    """jieba search-mode words of one Han run: words of length ≥ 2 and their dictionary 2-/3-grams
    (as ``cut_for_search``), plus bigrams of unknown-character runs (instead of jieba's HMM)."""
    words, freq = _cut_run(run, lex)
    out, pending_singles = [], []
    for w in words:
        if len(w) == 1:
            pending_singles.append(w)
            continue
        if pending_singles:
            out.extend(_oov_bigrams(pending_singles))
            pending_singles = []
        if len(w) > 2:
            out.extend(w[i:i + 2] for i in range(len(w) - 1) if freq.get(w[i:i + 2]))
        if len(w) > 3:
            out.extend(w[i:i + 3] for i in range(len(w) - 2) if freq.get(w[i:i + 3]))
        out.append(w)
    if pending_singles:
        out.extend(_oov_bigrams(pending_singles))
    return out


def _covered(run: str, stopwords) -> list:
    """For each character of ``run``: is it inside an occurrence of a stopword?"""
    mask = [False] * len(run)
    for w in stopwords:
        start = run.find(w)
        while start >= 0:
            for i in range(start, start + len(w)):
                mask[i] = True
            start = run.find(w, start + 1)
    return mask


def _query_bigrams(run: str, stopwords) -> list:
    """Bigrams of a query run, except those overlapping a stopword (什么时候, 吃什么 → no 么时, 吃什)."""
    mask = _covered(run, stopwords) if stopwords else [False] * len(run)
    return [run[i:i + 2] for i in range(len(run) - 1)
            if not (mask[i] or mask[i + 1])]


class Segmenter:
    """Turns text into the tokens the lexical index stores for its Han runs."""

    name = "none"

    def run_tokens(self, run: str, stopwords=None) -> list:  # pragma: no cover - interface
        """Index tokens of a Han run; with ``stopwords`` (query side) stopwords and the bigrams
        inside them are left out."""
        raise NotImplementedError

    def run_words(self, run: str, stopwords=()) -> list:
        """The words of a query's Han run, without the bigrams that span two words (a relevance
        measure weighs what the prompt says; 给这个函数加单元测试 says 函数 and 单元测试, not 数加)."""
        return self.run_tokens(run, stopwords)

    def tokens(self, text: str) -> list:
        out = []
        for m in HAN_RUN.finditer(text or ""):
            out.extend(self.run_tokens(m.group(0)))
        return out

    def search_text(self, text: str) -> str:
        """``text`` with each Han run replaced by its space-separated tokens (the FTS column)."""
        if not text or not has_cjk(text):
            return text or ""
        return HAN_RUN.sub(lambda m: " " + " ".join(self.run_tokens(m.group(0))) + " ", text)

    def words(self, run: str) -> list:
        """The words of a Han run with their dictionary frequency, ``[(word, freq | None)]``
        (``total`` is the sum of all frequencies); without a dictionary, its bigrams (None)."""
        return [(b, None) for b in bigrams(run)] or [(run, None)]

    total = 1

    def words_within(self, word: str) -> list:
        """The dictionary words of two or three characters inside a longer word, with their
        frequency (none without a dictionary)."""
        return []


class BigramSegmenter(Segmenter):
    """The fallback without jieba: overlapping character bigrams on both sides."""

    name = "bigram"

    def run_tokens(self, run: str, stopwords=None) -> list:
        return _query_bigrams(run, stopwords) if stopwords is not None else bigrams(run)


class DictSegmenter(Segmenter):
    """jieba's dictionary and search-mode algorithm (see the module docstring)."""

    def __init__(self, lexicon: Lexicon):
        self.lexicon = lexicon
        self.name = lexicon.ident + "+bigrams"

    @property
    def total(self) -> int:
        return self.lexicon.total

    def words(self, run: str) -> list:
        """jieba's accurate-mode cut (no HMM) with each multi-character word's frequency; single
        characters carry None."""
        words, freq = _cut_run(run, self.lexicon)
        return [(w, freq.get(w) if len(w) > 1 else None) for w in words]

    def words_within(self, word: str) -> list:
        parts = {word[i:i + n] for n in (2, 3) for i in range(len(word) - n + 1)} - {word}
        return sorted(self.lexicon.lookup(parts).items())

    def run_tokens(self, run: str, stopwords=None) -> list:
        words = _search_tokens_run(run, self.lexicon)
        if stopwords is None:
            return words + bigrams(run)
        return [w for w in words if w not in stopwords] + _query_bigrams(run, stopwords)

    def run_words(self, run: str, stopwords=()) -> list:
        return [w for w in _search_tokens_run(run, self.lexicon) if w not in stopwords]


# ---------------------------------------------------------------------------------------------
# the dictionary cache

def default_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "code-memory")


def package_dir(name: str) -> str | None:
    """The folder of an installed package, found without importing it, or None."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec and spec.submodule_search_locations:          # a package, also one without __init__.py
        return list(spec.submodule_search_locations)[0]
    return os.path.dirname(spec.origin) if spec and spec.origin else None


def jieba_dict_path() -> str | None:
    """Where jieba's dict.txt is, found without importing jieba."""
    folder = package_dir("jieba")
    path = os.path.join(folder, "dict.txt") if folder else None
    return path if path and os.path.isfile(path) else None


def _file_digest(path: str) -> str:
    st = os.stat(path)
    # size + mtime identify an installed dict.txt cheaply; the content hash is in the cache meta.
    return hashlib.sha256(f"{path}:{st.st_size}:{int(st.st_mtime)}".encode()).hexdigest()[:12]


def build_dict_cache(dict_txt: str, target: str) -> str:
    """Build the SQLite word cache from a jieba-format dictionary (``word freq [tag]`` lines)."""
    with open(dict_txt, "rb") as fh:
        raw = fh.read()
    content_sha = hashlib.sha256(raw).hexdigest()[:12]
    rows, total, max_len = {}, 0, 1
    for line in raw.decode("utf-8", errors="replace").splitlines():
        parts = line.strip().split(" ")
        if len(parts) < 2:
            continue
        try:
            f = int(parts[1])
        except ValueError:
            continue
        rows[parts[0]] = f
        total += f
        if f and HAN_RUN.fullmatch(parts[0]):
            max_len = max(max_len, len(parts[0]))
    def fill(conn):
        conn.execute("CREATE TABLE words (word TEXT PRIMARY KEY, freq INTEGER NOT NULL) WITHOUT ROWID")
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        conn.executemany("INSERT INTO words VALUES (?, ?)", ((w, f) for w, f in rows.items() if f > 0))
        conn.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("total", str(total)), ("max_len", str(max_len)),
            ("ident", f"jieba-dict:{content_sha}"), ("schema", CACHE_SCHEMA_VERSION)])

    return write_sqlite(target, fill)


def write_sqlite(target: str, fill) -> str:
    """A derived SQLite file at ``target``: ``fill(connection)`` writes it into a temp file beside
    it, which then replaces ``target`` (readers never see half a file)."""
    import tempfile  # only here: a cache is built once, every search process imports this module

    os.makedirs(os.path.dirname(target), exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".cache.", suffix=".tmp", dir=os.path.dirname(target))
    os.close(fd)
    try:
        conn = sqlite3.connect(tmp)
        conn.execute("PRAGMA journal_mode=OFF")
        fill(conn)
        conn.commit()
        conn.close()
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return target


def dict_cache_path(cache_dir: str | None = None, dict_txt: str | None = None) -> str | None:
    """The SQLite cache for the installed jieba dictionary (built on first use), or None."""
    dict_txt = dict_txt or jieba_dict_path()
    if not dict_txt:
        return None
    cache_dir = cache_dir or default_cache_dir()
    target = os.path.join(cache_dir, f"zhdict-v{CACHE_SCHEMA_VERSION}-{_file_digest(dict_txt)}.sqlite")
    if not os.path.exists(target):
        build_dict_cache(dict_txt, target)
    return target


def find_dict_cache(ident: str, cache_dir: str | None = None) -> str | None:
    """An existing cache file whose dictionary has identity ``ident`` (jieba may be gone since)."""
    cache_dir = cache_dir or default_cache_dir()
    try:
        names = sorted(os.listdir(cache_dir))
    except OSError:
        return None
    for name in names:
        if name.startswith("zhdict-") and name.endswith(".sqlite"):
            path = os.path.join(cache_dir, name)
            try:
                lex = SqliteLexicon(path)
            except sqlite3.Error:
                continue
            if lex.ident == ident:
                return path
    return None


def get_segmenter(prefer: str = "auto", bulk: bool = False, cache_dir: str | None = None) -> Segmenter:
    """The best available segmenter.

    ``prefer``: "auto" (jieba dictionary when installed, else bigrams), "bigram", or a segmenter name
    recorded in an index (``jieba-dict:<sha>``), which must be matched exactly for queries.
    ``bulk`` loads the whole dictionary into memory (indexing); otherwise lookups go to SQLite.
    """
    if prefer == "bigram":
        return BigramSegmenter()
    path = None
    if prefer.startswith("jieba-dict:"):
        ident = prefer.split("+", 1)[0]
        path = find_dict_cache(ident, cache_dir)
        if path is None:
            current = dict_cache_path(cache_dir)
            if current and SqliteLexicon(current).ident == ident:
                path = current
        if path is None:
            raise LookupError(f"dictionary {ident} is not available")
    else:
        try:
            path = dict_cache_path(cache_dir)
        except OSError:
            path = None
    if path is None:
        return BigramSegmenter()
    lex = SqliteLexicon(path)
    return DictSegmenter(lex.to_memory() if bulk else lex)
