"""Shell rules (``*.sh``, ``*.bash``, scripts with a sh/bash shebang).

A small scanner blanks single-quoted text, drops comments and skips here-documents, and notes
where a ``$`` stands outside any quotes; the rules run on that. Bash-4 rules (SH001, SH003,
SH012) apply when ``options["bash_target"]`` is older than 4 — the default target is 3.2, the
``/bin/bash`` of macOS. SH000 asks ``bash -n`` itself (skipped when bash is not installed).
"""

from __future__ import annotations

import os
import re

from .base import Collector, rule

RULES = [
    rule("SH000", "block", "syntax error (bash -n)", "the script does not parse; fix it first", always=True),
    rule("SH001", "block", "associative array (`declare -A`) on a bash 3 target",
         "bash 3.2 (macOS /bin/bash) has no associative arrays; use two indexed arrays or a case table"),
    rule("SH002", "block", "`rm` with an unquoted variable",
         "an empty or spaced value deletes the wrong files (`rm -rf $DIR/` → `rm -rf /`); quote it: \"$DIR\", "
         "and guard with ${DIR:?}"),
    rule("SH003", "block", "bash 4+ feature on a bash 3 target",
         "it fails on bash 3.2 (macOS /bin/bash); use a portable form or require a newer bash explicitly"),
    rule("SH004", "warn", "`cd` without a failure check",
         "if cd fails the rest runs in the wrong directory; write `cd dir || exit` or use `set -e`"),
    rule("SH005", "warn", "backtick command substitution", "hard to nest and quote; use $(...)"),
    rule("SH006", "warn", "unquoted variable inside `[ ]`",
         "an empty value or one with spaces breaks the test; quote it or use [[ ]]"),
    rule("SH007", "warn", "`eval` of a variable", "evaluates whatever the value contains; avoid eval or quote tightly"),
    rule("SH008", "block", "download piped straight into a shell",
         "runs unverified remote code; download, check, then run"),
    rule("SH009", "block", "bash-only syntax in a /bin/sh script",
         "/bin/sh is dash or POSIX sh on many systems; use POSIX syntax or a bash shebang"),
    rule("SH010", "warn", "`for` over `ls` output", "breaks on spaces and newlines in names; loop over a glob"),
    rule("SH011", "warn", "`read` without -r", "backslashes in the input are eaten; use read -r"),
    rule("SH012", "warn", "`sed -i` on a bash 3 (macOS) target",
         "GNU and BSD sed differ on -i; use `sed -i.bak … && rm file.bak` or write to a temp file"),
]

_SEPARATORS = re.compile(r"\|\||&&|;;|[;&|]")
_HEREDOC = re.compile(r"<<(-?)\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")
_ASSOC = re.compile(r"(?:^|\s)(declare|local|typeset|readonly)\s+(-[a-zA-Z]*A[a-zA-Z]*)\b")
_BASH4 = [
    (re.compile(r"\$\{[#!]?\w+(?:\[[^\]]*\])?(,,|\^\^|,|\^)"), "case conversion ${var,,} / ${var^^} (bash 4.0)"),
    (re.compile(r"(?:^|\s)(mapfile|readarray)\b"), "mapfile/readarray (bash 4.0)"),
    (re.compile(r"&>>"), "&>> (bash 4.0)"),
    (re.compile(r"\|&"), "|& (bash 4.0)"),
    (re.compile(r"(?:^|\s)coproc\b"), "coproc (bash 4.0)"),
    (re.compile(r"(?:^|\s)(?:declare|local|typeset)\s+-[a-zA-Z]*n[a-zA-Z]*\b"), "nameref declare -n (bash 4.3)"),
    (re.compile(r"\$\{\w+@[QEPAa]\}"), "${var@Q} transformations (bash 4.4)"),
    (re.compile(r"shopt\s+-s\s+(?:globstar|lastpipe|autocd|dirspell|checkjobs)"), "shopt option (bash 4+)"),
    (re.compile(r";;&|;&\s*$"), "case fall-through ;& / ;;& (bash 4.0)"),
]
_SH_SHEBANG = re.compile(r"^#!\s*(/usr/bin/env\s+)?(/bin/|/usr/bin/)?(sh|dash)\b")
_BASHISMS = [
    (re.compile(r"\[\["), "[[ ]]"),
    (re.compile(r"(?:^|\s)function\s+\w+"), "function keyword"),
    (re.compile(r"(?:^|\s)\w+=\("), "array"),
    (re.compile(r"<<<"), "here-string <<<"),
    (re.compile(r"(?:^|\s)source\s"), "source (use .)"),
    (re.compile(r"\$'"), "$'…' quoting"),
    (re.compile(r"(?:^|\s)\[\s[^]]*\s==\s"), "== inside [ ]"),
]
_CURL_PIPE = re.compile(r"\b(?:curl|wget)\b[^|]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b")
_FOR_LS = re.compile(r"\bfor\s+\w+\s+in\s+(?:\$\(|`)\s*ls\b")
_SED_I = re.compile(r"(?:^|\s)sed\s+(?:-[a-zA-Z]+\s+)*-[a-zA-Z]*i")
_PREFIX_WORDS = {"sudo", "command", "builtin", "exec", "nohup", "time", "then", "do", "else", "!",
                 "if", "elif", "while", "until"}
_SET_E = re.compile(r"(?:^|\s)set\s+(?:-[a-zA-Z]*e|-o\s+errexit)")


class Line:
    __slots__ = ("number", "code", "bare_dollars")

    def __init__(self, number, code, bare_dollars):
        self.number = number
        self.code = code                  # single-quoted text blanked, comment dropped
        self.bare_dollars = bare_dollars  # columns of $ outside any quotes


def scan(text: str) -> list:
    """The script's code lines (here-document bodies left out)."""
    lines = []
    in_sq = in_dq = False
    heredocs: list = []
    source = text.split("\n")
    i = 0
    while i < len(source):
        raw = source[i]
        number = i + 1
        i += 1
        code, dollars = [], []
        j = 0
        while j < len(raw):
            ch = raw[j]
            if in_sq:
                code.append("'" if ch == "'" else " ")
                in_sq = ch != "'"
            elif ch == "\\" and j + 1 < len(raw):
                code.append(ch + raw[j + 1])
                j += 1
            elif ch == "'" and not in_dq:
                in_sq = True
                code.append(ch)
            elif ch == '"':
                in_dq = not in_dq
                code.append(ch)
            elif ch == "#" and not in_dq and (j == 0 or raw[j - 1] in " \t;&|("):
                break
            else:
                if ch == "$" and not in_dq:
                    dollars.append(len("".join(code)))
                code.append(ch)
            j += 1
        joined = "".join(code)
        if not in_sq and not in_dq:  # code and raw share offsets; the delimiter may be quoted
            for at in (k for k in range(len(joined) - 1) if joined.startswith("<<", k)
                       and not joined.startswith("<<<", k) and joined[k - 1:k] != "<"):
                m = _HEREDOC.match(raw, at)
                if m:
                    heredocs.append((m.group(3), m.group(1) == "-"))
        lines.append(Line(number, joined, dollars))
        while heredocs and i < len(source):  # skip the bodies, in order
            word, strip_tabs = heredocs[0]
            body = source[i].lstrip("\t") if strip_tabs else source[i]
            i += 1
            if body == word:
                heredocs.pop(0)
    return lines


def _segments(code: str):
    """(start, end) spans of the simple commands on a line."""
    start = 0
    for m in _SEPARATORS.finditer(code):
        yield start, m.start()
        start = m.end()
    yield start, len(code)


def _command_word(segment: str) -> tuple:
    """(command, offset of what follows it), skipping sudo/command/env and VAR=value prefixes."""
    pos = 0
    for m in re.finditer(r"\S+", segment):
        word = m.group(0).lstrip("({")
        if word in _PREFIX_WORDS or \
                re.match(r"^\w+=", word):
            pos = m.end()
            continue
        return word, m.end()
    return "", pos


def _bash_n(path: str) -> tuple | None:
    """(line, message) of the first syntax error ``bash -n`` reports, or None."""
    if not os.path.isfile(path):
        return None
    read_end, write_end = os.pipe()
    try:
        pid = os.posix_spawnp("bash", ["bash", "-n", path], dict(os.environ, LC_ALL="C"), file_actions=[
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_DUP2, write_end, 2)])
    except (OSError, AttributeError):
        os.close(read_end)
        os.close(write_end)
        return None
    os.close(write_end)
    chunks = []
    with os.fdopen(read_end, "rb") as fh:
        chunks.append(fh.read(65536))
    _, status = os.waitpid(pid, 0)
    if status == 0:
        return None
    message = b"".join(chunks).decode("utf-8", "replace")
    m = re.search(r"line (\d+): (.*)", message)
    return (int(m.group(1)), m.group(2).strip()) if m else (1, message.strip()[:200])


def lint(text: str, path: str, options: dict | None = None) -> list:
    options = options or {}
    target = options.get("bash_target")
    old_bash = bool(target) and tuple(target) < (4, 0)
    out = Collector(path, RULES)
    if options.get("syntax_check", True):
        error = _bash_n(path)
        if error:
            out.add("SH000", *error)
    first = text.split("\n", 1)[0]
    posix_sh = bool(_SH_SHEBANG.match(first))
    lines = scan(text)
    errexit = any(_SET_E.search(line.code) for line in lines)
    for line in lines:
        code, n = line.code, line.number
        if not code.strip():
            continue
        if old_bash:
            m = _ASSOC.search(code)
            if m:
                out.add("SH001", n, f"{m.group(1)} {m.group(2)}")
            for pattern, what in _BASH4:
                if pattern.search(code):
                    out.add("SH003", n, what)
            if _SED_I.search(code):
                out.add("SH012", n)
        if "`" in code:
            out.add("SH005", n)
        if _CURL_PIPE.search(code):
            out.add("SH008", n)
        if _FOR_LS.search(code):
            out.add("SH010", n)
        if posix_sh:
            for pattern, what in _BASHISMS:
                if pattern.search(code):
                    out.add("SH009", n, what)
        for start, end in _segments(code):
            segment = code[start:end]
            word, after = _command_word(segment)
            bare = [c for c in line.bare_dollars if start + after <= c < end]
            if word == "rm" and bare:
                out.add("SH002", n)
            elif word == "eval" and "$" in segment[after:]:
                out.add("SH007", n)
            elif word == "read" and not any(t.startswith("-") and "r" in t for t in segment[after:].split()):
                out.add("SH011", n)
            elif word == "cd" and not errexit and "||" not in code[end:] and "&&" not in code[end:] \
                    and not code.lstrip().startswith("("):
                out.add("SH004", n)
            elif word in ("[", "test") and bare:
                out.add("SH006", n)
    return sorted(out.findings, key=lambda f: (f.line, f.rule))
