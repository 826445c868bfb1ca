"""The hooks' hand-written matchers behave exactly like the regular expressions they replace
(they exist so that a hook never pays for importing ``re``, ``hashlib`` or ``contextlib``)."""

import random
import re

from code_memory.hooks.recall import neutralise
from code_memory.markdown import heading_level, is_list_item
from code_memory.memory.experience import is_valid_id, line_digest

ID = re.compile(r"^[a-z][a-z0-9_\-]{0,31}:[^\s]{1,240}\Z")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+\S")
FENCE_LIKE = re.compile(r"<(/?\s*recalled-memory)", re.IGNORECASE)
HEADING = re.compile(r"^ {0,3}#{1,6}([ \t]|\Z)")

ALPHABET = list("ab-_:z09 .)*+#<>/\t\u3000١٢") + ["recalled-memory", "RECALLED-memory", "#", "1.", "- "]


def samples(n=4000, seed=7):
    rng = random.Random(seed)
    for _ in range(n):
        yield "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12)))


def test_matchers_agree_with_their_patterns():
    for s in samples():
        assert is_valid_id(s) == bool(ID.match(s)), s
        assert is_list_item(s) == bool(LIST_ITEM.match(s)), s
        assert bool(heading_level(s)) == bool(HEADING.match(s)), s
        assert neutralise(s) == FENCE_LIKE.sub(r"&lt;\1", s), s
    assert is_valid_id("rule:web:0123456789") and not is_valid_id("Rule:x") and not is_valid_id("x:")
    assert is_list_item("  12) fix it") and not is_list_item("1234. no")


def test_line_digest_is_sha1():
    import hashlib
    assert line_digest("  - never force-push  ") == hashlib.sha1(b"- never force-push").hexdigest()[:10]


def test_linting_python_loads_no_regex_engine():
    """avoidance-gate on a Python file (no user rules) runs without importing re/fnmatch."""
    import os
    import subprocess
    import sys

    from conftest import SCRIPTS

    probe = ("import sys; sys.path.insert(0, sys.argv[1]);"
             "from code_memory.lint.gate import LintSettings, lint_text;"
             "r = lint_text('a.py', 'import os\\n\\ndef f(x=None):\\n    return x\\n', LintSettings());"
             "print(len(r.findings), ','.join(sorted(m for m in ('re', 'fnmatch', 'json') if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-S", "-c", probe, SCRIPTS], capture_output=True, text=True,
                         check=True, env=dict(os.environ)).stdout.split()
    assert out == ["0"], out
