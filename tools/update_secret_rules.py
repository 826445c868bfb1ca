#!/usr/bin/env python3
"""Refresh the secret-detection rule data and the held-out fixtures from the upstream projects.

Run at commit time (Python 3.11+: it reads TOML with tomllib); the product only reads the JSON it
writes, so it stays stdlib-only on Python 3.10+.

  python tools/update_secret_rules.py --gitleaks /path/to/gitleaks.git --ref v8.30.1 \
      [--detect-secrets /path/to/detect-secrets-src --ds-python /tmp/ds-venv/bin/python]

Writes
  scripts/code_memory/data/gitleaks_rules.json   gitleaks' default rule set (config/gitleaks.toml at
                                                 --ref) with every regex translated from Go RE2 to
                                                 Python ``re`` syntax (see :func:`re2_to_python`),
                                                 plus gitleaks' LICENSE beside it (MIT)
  tests/fixtures/secrets/gitleaks_samples.json   the true/false positive samples of every rule's
                                                 own test (cmd/generate/config/rules/*.go at --ref):
                                                 literal strings as written, generated ones
                                                 (``secrets.NewSecret(regex)``) drawn from their
                                                 regex with a fixed seed
  scripts/code_memory/data/secret_triggers.txt   what the redactor's stdlib gate looks for
                                                 (code_memory.redact.triggers(): the rules'
                                                 keywords and label words); also written alone
                                                 with --triggers-only after a rule changes
  tests/fixtures/secrets/detect_secrets_samples.json
                                                 detect-secrets' own plugin test payloads (its tests/
                                                 at 1.5.0, Apache-2.0) with the secret values its
                                                 detectors report for them (run in --ds-python, a
                                                 venv with ``pip install detect-secrets==1.5.0``)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys

import tomllib

try:
    import re._parser as sre_parse  # Python 3.11+
    from re import _constants as sre_c
except ImportError:  # pragma: no cover
    import sre_constants as sre_c
    import sre_parse

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES_OUT = os.path.join(REPO, "scripts", "code_memory", "data", "gitleaks_rules.json")
SAMPLES_OUT = os.path.join(REPO, "tests", "fixtures", "secrets", "gitleaks_samples.json")
DS_OUT = os.path.join(REPO, "tests", "fixtures", "secrets", "detect_secrets_samples.json")

# ----------------------------------------------------------------------------------- RE2 -> Python

_POSIX = {"alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "digit": "0-9", "xdigit": "0-9a-fA-F", "upper": "A-Z",
          "lower": "a-z", "space": r"\t\n\v\f\r ", "word": r"\w", "punct": r"!-/:-@\[-`{-~", "blank": r" \t"}


def _scan(pattern: str):
    """Yield ``(index, char, in_class)`` for every unescaped character of ``pattern``; escapes are
    yielded as one two-character item."""
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            yield i, pattern[i:i + 2], in_class
            i += 2
            continue
        if in_class:
            if c == "[" and pattern.startswith("[:", i):
                end = pattern.index(":]", i) + 2
                yield i, pattern[i:end], True
                i = end
                continue
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            yield i, c, False
            i += 1
            if i < len(pattern) and pattern[i] == "^":
                yield i, "^", True
                i += 1
            if i < len(pattern) and pattern[i] == "]":
                yield i, "]", True           # a literal ] first in a class
                i += 1
            continue
        yield i, c, in_class
        i += 1


def _scope_inline_flags(pattern: str) -> str:
    """RE2 lets ``(?i)`` appear mid-pattern, applying to the rest of the enclosing group; Python only
    allows global flags at the start. Rewrite ``a(?i)b|c`` (inside one group) as ``a(?i:b)|(?i:c)``."""
    m = None
    for idx, tok, in_class in _scan(pattern):
        if not in_class and tok == "(" and idx > 0:
            m = re.compile(r"\(\?([a-zA-Z]+)\)").match(pattern, idx)
            if m:
                break
    if not m:
        return pattern
    flags = m.group(1)
    # find the end of the enclosing group, and the top-level | inside it after the flag
    depth, bars, end = 0, [], len(pattern)
    for idx, tok, in_class in _scan(pattern[m.end():]):
        if in_class:
            continue
        if tok == "(":
            depth += 1
        elif tok == ")":
            if depth == 0:
                end = m.end() + idx
                break
            depth -= 1
        elif tok == "|" and depth == 0:
            bars.append(m.end() + idx)
    pieces, start = [], m.end()
    for bar in bars + [end]:
        pieces.append(f"(?{flags}:{pattern[start:bar]})")
        start = bar + 1
    rewritten = pattern[:m.start()] + "|".join(pieces) + pattern[end:]
    return _scope_inline_flags(rewritten)


def re2_to_python(pattern: str) -> str:
    """Translate one Go RE2 pattern to Python ``re`` syntax with the same meaning (compile it with
    ``re.ASCII``: RE2's ``\\w \\d \\s \\b`` are ASCII-only)."""
    for bad in (r"\p", r"\P", r"\Q", r"\C"):
        if bad in pattern:
            raise ValueError(f"unsupported RE2 construct {bad} in {pattern!r}")
    out = []
    for _idx, tok, in_class in _scan(pattern):
        if in_class and tok.startswith("[:"):
            name = tok[2:-2]
            if name.startswith("^") or name not in _POSIX:
                raise ValueError(f"unsupported POSIX class {tok}")
            out.append(_POSIX[name])
        elif tok == r"\z":
            out.append(r"\Z")
        else:
            out.append(tok)
    converted = _scope_inline_flags("".join(out))
    if re.search(r"(?<!\\)\{,", converted):
        raise ValueError(f"RE2 reads {{,n}} literally; Python does not: {pattern!r}")
    re.compile(converted, re.ASCII)
    return converted


def _git_show(repo: str, ref: str, path: str) -> str:
    return subprocess.run(["git", "-C", repo, "show", f"{ref}:{path}"], capture_output=True, text=True,
                          check=True).stdout


def convert_rules(repo: str, ref: str) -> dict:
    commit = subprocess.run(["git", "-C", repo, "rev-parse", f"{ref}^{{commit}}"], capture_output=True, text=True,
                            check=True).stdout.strip()
    config = tomllib.loads(_git_show(repo, ref, "config/gitleaks.toml"))
    rules = []
    for rule in config["rules"]:
        if "regex" not in rule:
            continue                         # path-only rules (a .p12 file): nothing to find in text
        allowlists = []
        for al in rule.get("allowlists", []):
            if al.get("paths") and al.get("condition", "OR").upper() == "AND":
                continue                     # needs a file path we never have
            entry = {"regexTarget": al.get("regexTarget", "secret"),
                     "regexes": [re2_to_python(r) for r in al.get("regexes", [])],
                     "stopwords": [s.lower() for s in al.get("stopwords", [])]}
            if entry["regexes"] or entry["stopwords"]:
                allowlists.append(entry)
        rules.append({"id": rule["id"], "regex": re2_to_python(rule["regex"]),
                      "secretGroup": rule.get("secretGroup", 0), "entropy": rule.get("entropy", 0.0),
                      "keywords": sorted({k.lower() for k in rule.get("keywords", [])}), "allowlists": allowlists})
    glob_al = config.get("allowlist", {})
    return {"source": "gitleaks", "version": ref, "commit": commit, "license": "MIT (gitleaks.LICENSE beside this file)",
            "about": "config/gitleaks.toml converted by tools/update_secret_rules.py: regexes in Python re syntax "
                     "(compile with re.ASCII), keywords lower-cased, path-only rules and allowlists dropped",
            "allowlist": {"regexes": [re2_to_python(r) for r in glob_al.get("regexes", [])],
                          "stopwords": [s.lower() for s in glob_al.get("stopwords", [])]},
            "rules": rules}


# --------------------------------------------------------------------- strings drawn from a regex

def _draw(node_list, rng, out):
    for op, av in node_list:
        if op is sre_c.LITERAL:
            out.append(chr(av))
        elif op is sre_c.ANY:
            out.append(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789"))
        elif op is sre_c.IN:
            out.append(rng.choice(_class_chars(av)))
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT):
            lo, hi, sub = av
            hi = lo + 8 if hi == sre_c.MAXREPEAT else hi
            for _ in range(rng.randint(lo, hi)):
                _draw(sub, rng, out)
        elif op is sre_c.SUBPATTERN:
            _draw(av[-1], rng, out)
        elif op is sre_c.BRANCH:
            _draw(rng.choice(av[1]), rng, out)
        elif op is sre_c.AT:
            continue
        else:
            raise ValueError(f"cannot draw {op}")


def _class_chars(items) -> str:
    pool = [chr(c) for c in range(32, 127)]
    chosen, negate = set(), False
    for op, av in items:
        if op is sre_c.NEGATE:
            negate = True
        elif op is sre_c.LITERAL:
            chosen.add(chr(av))
        elif op is sre_c.RANGE:
            chosen.update(chr(c) for c in range(av[0], av[1] + 1))
        elif op is sre_c.CATEGORY:
            probe = {sre_c.CATEGORY_DIGIT: r"\d", sre_c.CATEGORY_WORD: r"\w", sre_c.CATEGORY_SPACE: r"\s",
                     sre_c.CATEGORY_NOT_DIGIT: r"\D", sre_c.CATEGORY_NOT_WORD: r"\W",
                     sre_c.CATEGORY_NOT_SPACE: r"\S"}[av]
            chosen.update(c for c in pool if re.fullmatch(probe, c, re.ASCII))
    chars = [c for c in pool if c not in chosen] if negate else sorted(chosen)
    return "".join(c for c in chars if c not in "\n\r") or "x"


def draw(pattern: str, seed: str) -> str:
    rng = random.Random(hashlib.sha256(seed.encode()).hexdigest())
    out: list = []
    _draw(sre_parse.parse(re2_to_python(pattern), re.ASCII), rng, out)
    return "".join(out)


# --------------------------------------------------------------- the rules' Go test fixtures

_PATTERN_HELPERS = {"Numeric": "[0-9]{%s}", "Hex": "[a-f0-9]{%s}", "AlphaNumeric": "[a-z0-9]{%s}",
                    "AlphaNumericExtendedShort": "[a-z0-9_-]{%s}", "AlphaNumericExtended": r"[a-z0-9=_\-]{%s}",
                    "AlphaNumericExtendedLong": r"[a-z0-9\/=_\+\-]{%s}"}
_TOKEN = re.compile(r'''\s+|//[^\n]*|/\*[\s\S]*?\*/|`[^`]*`|"(?:[^"\\\n]|\\.)*"|\.\.\.|:=|[A-Za-z_][\w.]*|\d+|[(){}\[\],+=;]|.''')


class _Unknown(Exception):
    pass


class _GoFixtureParser:
    """Evaluates the small subset of Go that gitleaks' rule tests build their samples with."""

    def __init__(self, tokens, rule_id):
        self.t, self.i, self.rule_id, self.n = tokens, 0, rule_id, 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else ""

    def take(self, want=None):
        tok = self.peek()
        if want is not None and tok != want:
            raise _Unknown(f"expected {want!r}, got {tok!r}")
        self.i += 1
        return tok

    def expr(self):
        value = self.term()
        while self.peek() == "+":
            self.take()
            right = self.term()
            if not isinstance(value, str) or not isinstance(right, str):
                raise _Unknown("+ on a list")
            value += right
        return value

    def term(self):
        tok = self.take()
        if tok.startswith("`"):
            return tok[1:-1]
        if tok.startswith('"'):
            return json.loads(tok.replace("\\x", "\\u00"))
        if tok == "[":
            self.take("]")
            self.take("string")
            self.take("{")
            items = self.items("}")
            return [{"text": s} if isinstance(s, str) else s for s in _flat(items)]
        if self.peek() != "(":
            raise _Unknown(f"unknown name {tok}")
        self.take("(")
        args = self.items(")")
        if self.peek() == "...":
            self.take()
        name = tok.rsplit(".", 1)[-1]
        if None in args and name != "append":
            raise _Unknown(f"an argument of {tok} not understood")
        if name in _PATTERN_HELPERS:
            return _PATTERN_HELPERS[name] % args[0]
        if name == "Hex8_4_4_4_12":
            return "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
        if name == "NewSecret":
            self.n += 1
            try:
                return draw(args[0], f"{self.rule_id}:{self.n}")
            except (ValueError, re.error) as exc:
                raise _Unknown(str(exc)) from None
        if name == "GenerateSampleSecrets":
            return [{"ident": args[0], "secret": args[1]}]
        if name == "GenerateSampleSecret":
            return {"ident": args[0], "secret": args[1]}
        if name == "append":
            return _flat(args[0]) + [{"text": a} if isinstance(a, str) else a for a in _flat(args[1:])]
        if name == "Repeat" and tok.startswith("strings."):
            return args[0] * int(args[1])
        raise _Unknown(f"unknown call {tok}")

    def items(self, close):
        out = []
        while self.peek() != close:
            start = self.i
            try:
                out.append(self.expr())
            except _Unknown:
                self.i = start
                self.skip_item(close)
                out.append(None)
            if self.peek() == ",":
                self.take()
        self.take(close)
        return out

    def skip_item(self, close):
        depth = 0
        while self.i < len(self.t):
            tok = self.peek()
            if depth == 0 and tok in (",", close):
                return
            depth += tok in "([{" and len(tok) == 1
            depth -= tok in ")]}" and len(tok) == 1
            self.i += 1


def _flat(value):
    if value is None:
        return []
    if isinstance(value, list):
        out = []
        for v in value:
            out.extend(_flat(v) if isinstance(v, list) else ([] if v is None else [v]))
        return out
    return [value]


def extract_samples(repo: str, ref: str, rules: dict) -> dict:
    names = subprocess.run(["git", "-C", repo, "ls-tree", "--name-only", f"{ref}:cmd/generate/config/rules"],
                           capture_output=True, text=True, check=True).stdout.split()
    samples, skipped = [], 0
    for name in sorted(n for n in names if n.endswith(".go") and not n.endswith("_test.go")):
        source = _git_show(repo, ref, f"cmd/generate/config/rules/{name}")
        for body in re.split(r"\nfunc ", source)[1:]:
            rid = re.search(r'RuleID:\s*"([^"]+)"', body)
            if not rid or rid.group(1) not in rules:
                continue
            rule_id = rid.group(1)
            tokens = [t for t in _TOKEN.findall(body) if t.strip() and not t.startswith(("//", "/*"))]
            parser = _GoFixtureParser(tokens, rule_id)
            for k, tok in enumerate(tokens):
                if tok in ("tps", "fps") and k + 1 < len(tokens) and tokens[k + 1] in (":=", "="):
                    parser.i = k + 2
                    try:
                        value = parser.expr()
                    except _Unknown:
                        skipped += 1
                        continue
                    for item in _flat(value):
                        if isinstance(item, str):
                            item = {"text": item}
                        samples.append(dict(item, rule=rule_id, kind=tok[:2]))
    for s in samples:
        if s["kind"] == "tp" and "secret" not in s:
            s["secret"] = gitleaks_secret(rules[s["rule"]], s["text"])
    return {"samples": samples, "unparsed_statements": skipped}


def gitleaks_secret(rule: dict, text: str):
    """The secret gitleaks reports for ``text`` under ``rule`` (its secretGroup semantics)."""
    m = re.compile(rule["regex"], re.ASCII).search(text)
    if m is None:
        return None
    if rule["secretGroup"]:
        return m.group(rule["secretGroup"])
    return next((g for g in m.groups() if g), m.group(0))


# ---------------------------------------------------------------------------- detect-secrets

_DS_PROBE = r'''
import importlib.util, inspect, json, os, sys
sys.path.insert(0, SRC)
from detect_secrets.plugins.base import BasePlugin
out = []
for fname in sorted(os.listdir(os.path.join(SRC, "tests", "plugins"))):
    if not fname.endswith("_test.py"):
        continue
    spec = importlib.util.spec_from_file_location(fname[:-3], os.path.join(SRC, "tests", "plugins", fname))
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception as exc:
        print("skip", fname, exc, file=sys.stderr); continue
    plugins = [c() for _, c in inspect.getmembers(mod, inspect.isclass)
               if issubclass(c, BasePlugin) and not inspect.isabstract(c)
               and c.__module__.startswith("detect_secrets.plugins")]
    rows = []
    for name, value in vars(mod).items():
        if name.endswith("_TEST_CASES") and isinstance(value, list):
            rows += [(r[0], r[1]) for r in value if isinstance(r, tuple) and len(r) == 2]
    for _, cls in inspect.getmembers(mod, inspect.isclass):
        for _, fn in inspect.getmembers(cls, inspect.isfunction):
            for mark in getattr(fn, "pytestmark", []):
                if mark.name != "parametrize" or len(mark.args) < 2:
                    continue
                argnames = [a.strip() for a in (mark.args[0].split(",") if isinstance(mark.args[0], str) else mark.args[0])]
                for vals in mark.args[1]:
                    vals = getattr(vals, "values", vals)
                    if not isinstance(vals, (tuple, list)) or len(vals) != len(argnames):
                        continue
                    row = dict(zip(argnames, vals))
                    payload = row.get("payload", row.get("line"))
                    flag = row.get("should_flag", row.get("expected_secret"))
                    if isinstance(payload, str):
                        rows.append((payload, flag))
    for payload, flag in rows:
        if not flag:
            out.append({"plugin": fname[:-8], "text": payload, "kind": "fp"})
            continue
        found = set()
        for plugin in plugins:
            try:
                found.update(s.secret_value for s in plugin.analyze_line(filename="mock_filename", line=payload)
                             if s.secret_value)
            except Exception as exc:  # a plugin that needs its test's settings
                print("plugin", type(plugin).__name__, exc, file=sys.stderr)
        found = sorted(found)
        if isinstance(flag, str):
            found = [flag]
        if found:
            out.append({"plugin": fname[:-8], "text": payload, "kind": "tp", "secrets": found})
json.dump(out, sys.stdout)
'''


def extract_detect_secrets(src: str, python: str) -> dict:
    probe = "SRC = " + json.dumps(src) + "\n" + _DS_PROBE
    res = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True, cwd=src)
    samples = json.loads(res.stdout)
    seen, unique = set(), []
    for s in samples:
        key = (s["text"], s["kind"])
        if key not in seen:
            seen.add(key)
            unique.append(s)
    version = subprocess.run([python, "-c", "from detect_secrets.__version__ import VERSION; print(VERSION)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    return {"source": "detect-secrets", "version": version,
            "license": "Apache-2.0 (detect-secrets.LICENSE beside this file)",
            "about": "payloads of detect-secrets' tests/plugins/*_test.py; for true positives, the secret values "
                     "the plugin under test reports for them (or the expected secret its test names)",
            "samples": unique}


def _write(path: str, data: dict) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=0, sort_keys=False)
        fh.write("\n")
    os.replace(tmp, path)


def write_triggers() -> int:
    """``data/secret_triggers.txt`` from the rules as they are now (a fresh interpreter: the rule
    data may just have been rewritten)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from code_memory import redact, redact_gate; "
            "open(redact_gate.TRIGGERS_FILE, 'w', encoding='utf-8').write(redact_gate.HEADER + "
            "''.join(t + '\\n' for t in redact.triggers())); print(len(redact.triggers()))")
    out = subprocess.run([sys.executable, "-c", code, os.path.join(REPO, "scripts")], check=True,
                         capture_output=True, text=True).stdout.strip()
    print(f"{out} gate triggers", file=sys.stderr)
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--triggers-only", action="store_true", help="only rewrite data/secret_triggers.txt")
    p.add_argument("--gitleaks", help="a git clone of github.com/gitleaks/gitleaks (required unless --triggers-only)")
    p.add_argument("--ref", default="v8.30.1")
    p.add_argument("--detect-secrets", help="an unpacked detect-secrets source tree (tests/plugins)")
    p.add_argument("--ds-python", help="a python with detect-secrets installed")
    args = p.parse_args(argv)
    if args.triggers_only:
        return write_triggers()
    if not args.gitleaks:
        p.error("--gitleaks is required")
    data = convert_rules(args.gitleaks, args.ref)
    _write(RULES_OUT, data)
    license_text = _git_show(args.gitleaks, args.ref, "LICENSE")
    for where in (os.path.dirname(RULES_OUT), os.path.dirname(SAMPLES_OUT)):
        with open(os.path.join(where, "gitleaks.LICENSE"), "w", encoding="utf-8") as fh:
            fh.write(license_text)
    samples = extract_samples(args.gitleaks, args.ref, {r["id"]: r for r in data["rules"]})
    _write(SAMPLES_OUT, {"source": "gitleaks", "version": args.ref, "commit": data["commit"],
                         "license": "MIT (gitleaks.LICENSE beside this file)",
                         "about": "tps/fps of cmd/generate/config/rules/*.go; generated secrets drawn from their "
                                  "regex with a fixed seed; 'ident' is the identifier gitleaks' own sample "
                                  "generator names the secret with; 'secret' of a literal sample is what the rule "
                                  "itself reports",
                         **samples})
    print(f"{len(data['rules'])} rules; {len(samples['samples'])} samples, {samples['unparsed_statements']} "
          "statements not understood", file=sys.stderr)
    if args.detect_secrets and args.ds_python:
        ds = extract_detect_secrets(os.path.abspath(args.detect_secrets), args.ds_python)
        _write(DS_OUT, ds)
        with open(os.path.join(args.detect_secrets, "LICENSE"), encoding="utf-8") as src, \
                open(os.path.join(os.path.dirname(DS_OUT), "detect-secrets.LICENSE"), "w", encoding="utf-8") as dst:
            dst.write(src.read())
        print(f"detect-secrets {ds['version']}: {len(ds['samples'])} samples", file=sys.stderr)
    return write_triggers()


if __name__ == "__main__":
    sys.exit(main())
