"""The held-out secret corpus: cases we did not write, for measuring redaction honestly
(BENCHMARKS.md § Redaction; tests/adversarial/test_redaction_doors.py).

Sources (tests/fixtures/secrets/, each with its license; refreshed by tools/update_secret_rules.py):

* ``gitleaks_samples.json`` — the true and false positive samples of every rule's own test in
  gitleaks (the rule set redaction adopts): literal samples as written, generated ones drawn
  from the regex the test gives. A sample gitleaks' generator names (``ident``) is placed the way
  a person writes it (``IDENT_API_KEY=…``, JSON, YAML, ``export``, a header, prose, Markdown,
  URL-encoded); a literal sample is placed as it is in the same surroundings.
* ``detect_secrets_samples.json`` — detect-secrets' own plugin test payloads with the secret
  values detect-secrets reports for them (a second library's fixtures, not adopted: fully held
  out).
* ``documented_syntax.json`` — the families the issue found leaking, in the syntax the tools
  document; written from the documentation before the rules for them, never tuned to
  afterwards (ours, so less independent than the two above).

A case is ``(case id, text, secrets)``; it leaks when :func:`leaked` finds any secret (or, for a
long one, any 24-character piece of it) in the output.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import re
from urllib.parse import quote

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "secrets")


@functools.lru_cache(maxsize=None)
def _load(name: str) -> dict:
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as fh:
        return json.load(fh)


def _long_b64(n: int, seed: str, urlsafe: bool = False) -> str:
    out, block = b"", seed.encode()
    while len(out) < n:
        block = hashlib.sha512(block).digest()
        out += block
    enc = base64.urlsafe_b64encode(out) if urlsafe else base64.b64encode(out)
    return enc.decode()[:n]


def _name(ident: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", ident).strip("_") or "SERVICE"


# Surroundings of a sample named by an identifier (the secret is ``{s}``, the identifier ``{i}``).
NAMED_SURROUNDINGS = [
    ("env", "{I}_API_KEY={s}"),
    ("json", '{{"{i}_api_key": "{s}", "region": "eu-west-1"}}'),
    ("yaml", "{i}:\n  enabled: true\n{i}_token: \"{s}\""),
    ("shell", "export {I}_TOKEN='{s}' && ./deploy.sh"),
    ("header", 'curl -H "X-{I}-Token: {s}" https://api.example.com/v1/items'),
    ("prose-en", "Here is the {i} key you asked for: {s} (rotate it after the demo)."),
    ("prose-zh", "这是 {i} 的密钥：{s}，用完记得轮换。"),
    ("markdown", "Set it up like this:\n\n```bash\n{I}_SECRET={s}\n```\n"),
]
# Surroundings of a literal sample (a whole line or token, placed as it is).
PLAIN_SURROUNDINGS = [
    ("plain", "{t}"),
    ("prose-en", "I pasted this into the config earlier: {t} and it worked."),
    ("prose-zh", "我之前把这个配置贴进去了：{t} 然后就好了"),
    ("markdown", "```\n{t}\n```"),
    ("log", "2026-05-01 12:00:01 ERROR request failed: {t}"),
    ("json-string", '{{"note": {j}}}'),
]


def _url_encoded(text: str) -> str:
    return "https://example.com/callback?state=ok&payload=" + quote(text, safe="")


@functools.lru_cache(maxsize=None)
def gitleaks_cases() -> tuple:
    out = []
    for n, s in enumerate(_load("gitleaks_samples.json")["samples"]):
        if s["kind"] != "tp" or not s.get("secret"):
            continue
        secret = s["secret"]
        if "ident" in s:
            i = _name(s["ident"]).lower()
            texts = [(w, fmt.format(i=i, I=i.upper(), s=secret)) for w, fmt in NAMED_SURROUNDINGS]
            texts.append(("url-encoded", _url_encoded(f"{i.upper()}_API_KEY={secret}")))
        else:
            t = s["text"]
            texts = [(w, fmt.format(t=t, j=json.dumps(t))) for w, fmt in PLAIN_SURROUNDINGS]
            texts.append(("url-encoded", _url_encoded(t)))
        for where, text in texts:
            out.append((f"gitleaks:{s['rule']}#{n}@{where}", text, (secret,)))
    return tuple(out)


def _whole_token(secret: str, text: str) -> str:
    """A few of detect-secrets' tests name only a token's prefix as its secret (``ghp`` for
    ``ghp_wWPw…``): the whole token is the secret."""
    at = text.find(secret)
    if len(secret) >= 8 or at < 0:
        return secret
    m = re.compile(r"[A-Za-z0-9_\-]+").match(text, at)
    return m.group(0) if m and len(m.group(0)) > len(secret) else secret


@functools.lru_cache(maxsize=None)
def detect_secrets_cases() -> tuple:
    out = []
    for n, s in enumerate(_load("detect_secrets_samples.json")["samples"]):
        if s["kind"] != "tp":
            continue
        t = s["text"]
        s = dict(s, secrets=[_whole_token(secret, t) for secret in s["secrets"]])
        for where, fmt in PLAIN_SURROUNDINGS:
            if where == "json-string" and "\n" in t:
                continue
            out.append((f"detect-secrets:{s['plugin']}#{n}@{where}", fmt.format(t=t, j=json.dumps(t)),
                        tuple(s["secrets"])))
        out.append((f"detect-secrets:{s['plugin']}#{n}@url-encoded", _url_encoded(t), tuple(s["secrets"])))
    return tuple(out)


def detect_secrets_half(case_id: str) -> str:
    """``"tuning"`` or ``"held-out"``: detect-secrets' samples split in two by a hash of the sample
    (plugin and text), so every surrounding of a sample falls in the same half. Redaction rules may
    be fixed looking at the tuning half's leaks only; the held-out half measures them."""
    n = int(case_id.split("#", 1)[1].split("@", 1)[0])
    sample = _load("detect_secrets_samples.json")["samples"][n]
    digest = hashlib.md5((sample["plugin"] + "\0" + sample["text"]).encode()).hexdigest()
    return "tuning" if int(digest, 16) % 2 == 0 else "held-out"


@functools.lru_cache(maxsize=None)
def documented_cases() -> tuple:
    out = []
    for n, (family, text, secret) in enumerate(_load("documented_syntax.json")["cases"]):
        if secret.startswith("LONGB64"):
            long = _long_b64({"LONGB64": 1624, "LONGB64URL": 342}[secret] + 17 * n, f"{family}{n}",
                             urlsafe=secret.endswith("URL"))
            text, secret = text.replace(secret, long), long
        for where, fmt in PLAIN_SURROUNDINGS:
            if where == "json-string" or ("\n" in text and where != "markdown" and where != "plain"):
                continue
            out.append((f"documented:{family}#{n}@{where}", fmt.format(t=text), (secret,)))
        if "\n" not in text:
            out.append((f"documented:{family}#{n}@url-encoded", _url_encoded(text), (secret,)))
    return tuple(out)


def all_cases() -> tuple:
    return gitleaks_cases() + detect_secrets_cases() + documented_cases()


def gitleaks_false_positive_samples() -> list:
    """gitleaks' own false-positive samples (texts its rules must not flag)."""
    return [s["text"] for s in _load("gitleaks_samples.json")["samples"] if s["kind"] == "fp"]


def _pieces(secret: str) -> list:
    if len(secret) < 48:
        return [secret]
    return [secret[i:i + 24] for i in range(0, len(secret) - 23, 24)]


def leaked(secrets, output: str) -> bool:
    """Whether any secret — or, for a long one, any 24-character piece of it — survives in
    ``output``, as written or URL-encoded."""
    for secret in secrets:
        for piece in _pieces(secret):
            if piece in output or (quote(piece, safe="") != piece and quote(piece, safe="") in output):
                return True
    return False
