"""Every command that code-memory's injected or generated text names runs as written from a shell
whose PATH holds only the installed command links (plus the system): the routing table and the
other blocks SessionStart injects, the subagent brief, the seeded rules files, every generated
Skill (each playbook and each type's fallback), the status actions, and every hint, note, report
line and error message in the code (backticked spans and ``run: …``).

"Runs" means: the name resolves on that PATH (no exit 127), and the command line as written —
placeholders like ``<question>``, ``P`` or ``PATTERN`` filled in — gets past argument parsing.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from code_memory.install import links
from conftest import REPO, SCRIPTS
from support.hook_runner import payload, run_hook

PACKAGE = os.path.join(SCRIPTS, "code_memory")
SYSTEM_PATH = "/usr/bin:/bin"
OURS = re.compile(r"^(?:[a-z][a-z0-9-]*\.(?:py|sh)|code-memory[a-z-]*|memtool|memory-[a-z-]+|signal-analyzer|"
                  r"capability-generator|session-summary|auto-extract-facts|set-memory|lint-[a-z0-9-]+)$")
PLACEHOLDERS = {"P": "MEMORY.md", "L": "1", "PATTERN": "error:general", "ID": "fact-1", "KEY": "/user/x",
                "FILE": "MEMORY.md", "DIR": ".", "TEXT": "x", "N": "1"}


def command_spans(text: str) -> list:
    """Command lines in a text: backticked spans and what follows ``run: ``, whose first word is
    one of our commands (or looks like one: a bare ``*.py``/``*.sh`` name)."""
    spans = re.findall(r"`([^`\n]+)`", text) + re.findall(r"\brun: ([^;`\n]+)", text)
    out = []
    for span in spans:
        span = span.strip().rstrip(".")
        try:
            words = shlex.split(span)
        except ValueError:
            continue
        if words and OURS.match(words[0]):
            out.append(span)
    return out


def code_strings() -> list:
    """Every string constant in the package that is not a docstring (hints, notes, messages)."""
    found = []
    for folder, _dirs, files in os.walk(PACKAGE):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as fh:
                tree = ast.parse(fh.read())
            docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                          if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                          and node.body and isinstance(node.body[0], ast.Expr)
                          and isinstance(node.body[0].value, ast.Constant)}
            for node in ast.walk(tree):
                if isinstance(node, ast.JoinedStr):
                    text = "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
                    found.append((os.path.relpath(path, SCRIPTS), text))
                elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                    found.append((os.path.relpath(path, SCRIPTS), node.value))
    return found


def generated_skills() -> list:
    from code_memory.evolution.capabilities import render_skill, template_draft
    from code_memory.evolution.playbooks import PLAYBOOKS, TYPE_FALLBACK

    patterns = list(PLAYBOOKS) + [f"{t}:somesubject" for t in TYPE_FALLBACK]
    out = []
    for pattern in patterns:
        candidate = {"pattern": pattern, "type": pattern.split(":")[0], "count": 3, "examples": ["ValueError x"],
                     "projects": ["alpha"], "sessions": ["s1"]}
        out.append((f"Skill {pattern}", render_skill(template_draft(candidate, 8), candidate, 8, "2026-01-01")))
    return out


def shipped_texts() -> list:
    templates = os.path.join(PACKAGE, "templates")
    out = []
    for folder, _dirs, files in os.walk(templates):
        for name in files:
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                out.append((os.path.relpath(os.path.join(folder, name), REPO), fh.read()))
    return out


def shape(span: str) -> tuple:
    """A command line with its free-text arguments blurred: one run per shape is enough (the Skills
    differ only in their search words)."""
    return tuple(w if re.fullmatch(r"-[-\w]*|[a-z][a-z0-9_.-]*", w) else "ARG" for w in shlex.split(span))


def fill(span: str) -> list:
    """The argv of a command span with its placeholders filled in (the first alternative of a|b)."""
    argv = []
    for word in shlex.split(span):
        if re.fullmatch(r"<[^>]*>", word) or word in ("…", "..."):
            word = "x"
        elif "<" in word:
            word = re.sub(r"<[^>]*>", "x", word)
        elif word in PLACEHOLDERS:
            word = PLACEHOLDERS[word]
        elif "|" in word and not word.startswith("-"):
            word = word.split("|")[0]
        argv.append(word)
    return argv


@pytest.fixture
def session_texts(initialized_root, project):
    """What the hooks inject in a session of project alpha with rules, pitfalls and a kv key."""
    from code_memory.kv.write import set_memory

    rules = os.path.join(initialized_root.project_dir("alpha"), "rules.md")
    os.makedirs(os.path.dirname(rules), exist_ok=True)
    with open(rules, "w", encoding="utf-8") as fh:
        fh.write("# alpha\n\n## 规范\n\n- 金额一律用 Decimal\n")
    with open(initialized_root.memory_md, "a", encoding="utf-8") as fh:
        fh.write("\n## 避坑经验 (Pitfalls)\n\n- 不要用 float 存金额\n")
    set_memory(initialized_root.root, "/user/preference/style", {"summary": "short answers"}, "user")
    start = run_hook("session-start", payload("session-start", project)).context
    sub = run_hook("subagent-rules", payload("subagent-start", project, agent_type="general-purpose")).context
    assert "memory-loader" in start and "memory-search" in sub
    return [("SessionStart context", start), ("SubagentStart context", sub)]


def test_every_command_in_injected_and_generated_text_runs_from_the_links(session_texts, tmp_path, memory_root,
                                                                           project):
    texts = session_texts + shipped_texts() + generated_skills() + code_strings()  # (the signal report's
    # command line is a string constant of evolution/signals.py)
    commands: dict = {}
    shapes = set()
    for where, text in texts:
        for span in command_spans(text):
            if shape(span) not in shapes:
                shapes.add(shape(span))
                commands[span] = where
    status = subprocess.run([sys.executable, os.path.join(SCRIPTS, "memory-search.py"), "status"],
                            capture_output=True, text=True, env={**os.environ, "CODE_MEMORY_ROOT": memory_root})
    recommended = json.loads(status.stdout)["actions"]["recommended"]
    commands.setdefault(recommended, "memory-search.py status: actions.recommended")
    names = {shlex.split(span)[0] for span in commands}
    assert {"memory-search.py", "memory-feedback.py", "signal-analyzer.py", "capability-generator.py",
            "code-memory"} <= names, names    # the extraction really finds the routing table's commands

    for variant, inst in (("venv console scripts", links.Installation.detect(os.path.join(REPO, "bin"), sys.executable)),
                          ("bin/ wrappers", links.Installation(os.path.join(REPO, "bin")))):
        bin_dir = tmp_path / variant.replace(" ", "-")
        links.install(str(bin_dir), inst, path_env="")
        path = f"{bin_dir}:{SYSTEM_PATH}"
        env = {"PATH": path, "HOME": os.environ["HOME"], "CODE_MEMORY_ROOT": memory_root,
               "CODE_MEMORY_PYTHON": sys.executable, "TMPDIR": str(tmp_path), "LANG": "C.UTF-8",
               "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", ""), "HF_HUB_OFFLINE": "1"}
        failures = []
        for span, where in sorted(commands.items()):
            argv = fill(span)
            if not shutil.which(argv[0], path=path):
                failures.append(f"{where}: `{span}` — {argv[0]} is not on PATH")
                continue
            proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=project, timeout=120,
                                  stdin=subprocess.DEVNULL)
            try:
                answer = json.loads(proc.stdout.strip().splitlines()[0]) if proc.stdout.strip() else {}
            except ValueError:
                answer = {}
            parser_error = proc.returncode == 2 and "--help" in str(answer.get("hint", ""))
            if proc.returncode in (126, 127) or parser_error:
                failures.append(f"{where}: `{span}` → exit {proc.returncode} {proc.stdout[:200]} {proc.stderr[:200]}")
        assert not failures, f"[{variant}]\n" + "\n".join(failures)
