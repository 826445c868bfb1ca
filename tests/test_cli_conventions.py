"""The command-line conventions every entry point keeps (docs/cli.md): ``--version``; JSON answers on
stdout, errors included; in text mode errors on stderr; every option with a help text; and
docs/cli.md generated from the parsers, failing here when it is stale."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import pytest

from code_memory import __version__
from code_memory.cli import reference
from code_memory.errors import EXIT_CODES, MEANINGS
from code_memory.memtool import errors as memtool_errors
from conftest import REPO, SCRIPTS

# every entry script: the console scripts' and the checkout-only ones (same main functions)
ENTRY_SCRIPTS = ("code-memory.py", "memory-search.py", "memory-feedback.py", "signal-analyzer.py",
                 "capability-generator.py", "session-summary.py", "auto-extract-facts.py", "set-memory.py",
                 "memtool.py", "code-memory-mcp.py", "lint-python-rules.py")


def all_parsers():
    from code_memory.cli.main import build_parser
    from code_memory.cli.memtool import build_parser as memtool_parser
    from code_memory.mcp.server import build_parser as mcp_parser

    def walk(parser):
        yield parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in dict.fromkeys(action.choices.values()):
                    yield from walk(sub)

    for top in (build_parser(), memtool_parser(), mcp_parser()):
        yield from walk(top)


def test_docs_cli_md_is_generated_from_the_parsers():
    with open(reference.PAGE, encoding="utf-8") as fh:
        current = fh.read()
    assert reference.BEGIN in current and reference.END in current
    assert reference.render_page(current) == current, (
        "docs/cli.md is stale: regenerate it with `python -m code_memory.cli.reference` "
        "(in a checkout: PYTHONPATH=scripts python3 -m code_memory.cli.reference)")


def test_every_argument_and_command_has_a_help_text_and_every_code_a_meaning():
    missing = []
    for parser in all_parsers():
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                missing += [f"{parser.prog} {a.dest}" for a in action._choices_actions if not a.help]
            elif not action.help:
                missing.append(f"{parser.prog} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []
    assert set(MEANINGS) == set(EXIT_CODES) and set(memtool_errors.MEANINGS) == set(memtool_errors.EXIT_CODES)


def test_every_entry_point_answers_version(tmp_path):
    for script in ENTRY_SCRIPTS:
        proc = subprocess.run([sys.executable, os.path.join(SCRIPTS, script), "--version"], capture_output=True,
                              text=True, cwd=str(tmp_path), timeout=60)
        name = script[:-3] if script in ("set-memory.py", "code-memory.py", "memtool.py", "code-memory-mcp.py") \
            else script
        assert proc.returncode == 0 and proc.stderr == "", (script, proc.stdout, proc.stderr)
        assert proc.stdout.startswith(f"{name} {__version__} from {SCRIPTS}"), proc.stdout
        assert sys.executable in proc.stdout and proc.stdout.count("\n") == 1
    with open(os.path.join(REPO, ".claude-plugin", "plugin.json"), encoding="utf-8") as fh:
        assert json.load(fh)["version"] == __version__


@pytest.mark.parametrize("argv, status", [(["bogus"], 2), (["review", "show", "nope"], 3)])
def test_errors_go_to_stderr_in_text_mode_and_stay_on_stdout_in_json_mode(memory_root, argv, status):
    cli = [sys.executable, os.path.join(SCRIPTS, "code-memory.py"), *argv]
    as_json = subprocess.run(cli, capture_output=True, text=True, timeout=60)
    answer = json.loads(as_json.stdout)
    assert as_json.returncode == status and answer["ok"] is False and as_json.stderr == ""
    as_text = subprocess.run(cli + ["--format", "text"], capture_output=True, text=True, timeout=60)
    assert as_text.returncode == status and as_text.stdout == ""
    assert as_text.stderr.startswith(f"error {answer['error']}: ") and "hint: " in as_text.stderr
    memtool = subprocess.run([sys.executable, os.path.join(SCRIPTS, "memtool.py"), "get", "--id", "nope",
                              "--format=text", "--db", os.path.join(memory_root, "m.db")],
                             capture_output=True, text=True, timeout=60)
    assert memtool.returncode == 4 and memtool.stdout == "" and memtool.stderr.startswith("error DB_ERROR: ")
