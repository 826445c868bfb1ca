"""What memory already put into an agent's context this session, so recall never repeats it.

The ledger is one file, ``ledger``, in the agent's flag directory (flags.py): one line per entry,
``k <item key>`` (a recalled chunk ``sessions/x.md#12``, a session shown by the brief
``session:<id>``, ``kv:/key``, ``memtool:<id>``) or ``l <line digest>`` (text/lines.py
``text_digests``: a line of injected text and each of its sentences, normalised, so the brief's
``- decided: X`` and the note's ``4. **决策记录**: X`` are one line). Every injection appends what it put in — SessionStart,
the rules injector, prompt-time and file-time recall — in one ``O_APPEND`` write. Only digests
and keys are kept, never memory text. PreCompact and SessionEnd remove the flag directory, and
with it the ledger: after compaction memory may be recalled again.

Beside it, for the shell fast path (hooks/lib.sh ``cm_file_fresh``): ``k<basename>`` marks a file
name memory knows something about (written when a project is first touched), ``f<encoded path>``
a file whose file-time recall is done. A Read or Edit of a file in a settled directory costs no
Python unless its name is known and its recall not done yet.
"""

from __future__ import annotations

import os

from .flags import MAX_NAME_BYTES, encode_dir

LEDGER = "ledger"
KNOWN_PREFIX, DONE_PREFIX = "k", "f"
MAX_LEDGER_BYTES = 2_000_000     # past this the ledger stops growing (recall may then repeat)


class Ledger:
    """The ledger of one agent's flags (:class:`code_memory.hooks.flags.SessionFlags`)."""

    def __init__(self, flags):
        self.flags = flags
        self._keys = None
        self._lines = None

    @property
    def path(self) -> str:
        return os.path.join(self.flags.dir, LEDGER) if self.flags.dir else ""

    def _load(self) -> None:
        keys, lines = set(), set()
        try:
            with open(self.path, "rb") as fh:
                data = fh.read(MAX_LEDGER_BYTES).decode("utf-8", "replace")
        except OSError:
            data = ""
        for entry in data.split("\n"):
            if entry.startswith("k "):
                keys.add(entry[2:])
            elif entry.startswith("l "):
                lines.add(entry[2:])
        self._keys, self._lines = keys, lines

    def keys(self) -> set:
        if self._keys is None:
            self._load()
        return self._keys

    def lines(self) -> set:
        if self._lines is None:
            self._load()
        return self._lines

    def add(self, keys=(), lines=()) -> bool:
        """Append the new ``keys`` and line digests; False when the flags cannot be kept."""
        new = [f"k {k}" for k in keys if k and "\n" not in k and k not in self.keys()]
        new += [f"l {d}" for d in lines if d and d not in self.lines()]
        if not new or not self.flags.usable():
            return not new
        data = ("\n".join(new) + "\n").encode("utf-8", "replace")
        try:
            if os.path.exists(self.path) and os.path.getsize(self.path) > MAX_LEDGER_BYTES:
                return False
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                os.write(fd, data)
            finally:
                os.close(fd)
        except OSError:
            return False
        self._keys.update(k for k in keys if k)
        self._lines.update(d for d in lines if d)
        return True

    def add_text(self, text: str, keys=(), lines=()) -> bool:
        """Record an injection: the item ``keys``, and the digests of every line and sentence of
        the injected ``text`` (text/lines.py) plus any other line digests it stands for."""
        from ..text.lines import text_digests

        return self.add(keys, list(dict.fromkeys(text_digests(text) + list(lines))))

    # -- the shell fast path's file markers ---------------------------------------------------
    def _name(self, prefix: str, value: str) -> str:
        name = prefix + encode_dir(value)
        if len(name.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES:
            from ..text.lines import digest  # a long path: Python alone checks its (hashed) marker
            return prefix + "h-" + digest(value)
        return name

    def file_done(self, path: str) -> bool:
        return self.flags.has_flag(self._name(DONE_PREFIX, path))

    def mark_file_done(self, path: str) -> bool:
        return self.flags.set_flag(self._name(DONE_PREFIX, path))

    def mark_known(self, basenames) -> int:
        """Mark the file names memory knows something about; returns how many were marked."""
        return sum(1 for name in basenames if name and "/" not in name and self.flags.set_flag(self._name(KNOWN_PREFIX, name)))
