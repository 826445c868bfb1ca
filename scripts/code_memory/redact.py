"""Secret redaction: applied to every text before it is written to memory, a log or an LLM request.

Each rule names the shape it catches; a match becomes ``[REDACTED:<kind>]``. ``<private>…</private>``
spans are dropped entirely (README § Design notes, Privacy). Rules are ordered so that structured shapes (private key
blocks, URLs with passwords, JWTs, vendor tokens) win before the generic ``KEY=value`` rules.
"""

from __future__ import annotations

import re

_SECRET_KEY = (r"[A-Za-z0-9_.\-]*(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API[_\-]?KEY|ACCESS[_\-]?KEY"
               r"|PRIVATE[_\-]?KEY|CLIENT[_\-]?SECRET|CREDENTIALS?|AUTH[_\-]?KEY|PWD)[A-Za-z0-9_.\-]*")

# (kind, pattern, group to replace or 0 for the whole match)
_RULES_SRC = [
    ("private-span", r"<private>.*?(?:</private>|\Z)", 0),
    ("private-key", r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\Z)", 0),
    ("url-password", r"\b([a-zA-Z][a-zA-Z0-9+.\-]{1,20}://[^\s:/@'\"]+:)([^\s@/'\"]+)(@)", 2),
    ("jwt", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", 0),
    ("anthropic-key", r"\bsk-ant-[A-Za-z0-9_\-]{20,}", 0),
    ("openai-key", r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}", 0),
    ("stripe-key", r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}", 0),
    ("aws-access-key-id", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b", 0),
    ("aws-secret-key", r"(?i)(aws_?secret_?(?:access_?)?key\s*[=:]\s*[\"']?)([A-Za-z0-9/+=]{40})", 2),
    ("github-token", r"\bgh[pousr]_[A-Za-z0-9]{36,255}\b", 0),
    ("github-pat", r"\bgithub_pat_[A-Za-z0-9_]{40,255}", 0),
    ("gitlab-token", r"\bglpat-[A-Za-z0-9_\-]{20,}", 0),
    ("slack-token", r"\bxox[abposr]-[A-Za-z0-9\-]{10,}", 0),
    ("slack-webhook", r"https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]+", 0),
    ("google-api-key", r"\bAIza[0-9A-Za-z_\-]{35}", 0),
    ("npm-token", r"\bnpm_[A-Za-z0-9]{36}\b", 0),
    ("pypi-token", r"\bpypi-AgE[A-Za-z0-9_\-]{50,}", 0),
    ("huggingface-token", r"\bhf_[A-Za-z0-9]{30,}\b", 0),
    ("sendgrid-key", r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}", 0),
    ("digitalocean-token", r"\bdo[por]_v1_[a-f0-9]{64}\b", 0),
    ("telegram-bot-token", r"\b\d{8,10}:AA[A-Za-z0-9_\-]{33}\b", 0),
    ("alibaba-access-key-id", r"\bLTAI[A-Za-z0-9]{12,24}\b", 0),
    ("tencent-secret-id", r"\bAKID[A-Za-z0-9]{13,40}\b", 0),
    ("vault-token", r"\bhv[sbr]\.[A-Za-z0-9_\-]{24,}", 0),
    ("twilio-api-key", r"\bSK[0-9a-f]{32}\b", 0),
    ("mailgun-key", r"\bkey-[0-9a-zA-Z]{32}\b", 0),
    ("shopify-token", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b", 0),
    ("square-token", r"\bsq0(?:atp|csp)-[0-9A-Za-z_\-]{22,43}", 0),
    ("databricks-token", r"\bdapi[a-f0-9]{32}(?:-\d)?\b", 0),
    ("age-secret-key", r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b", 0),
    ("discord-webhook", r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]+", 0),
    ("chat-webhook", r"(https://(?:open\.feishu\.cn|open\.larksuite\.com)/open-apis/bot/v2/hook/)([A-Za-z0-9\-]+)", 2),
    ("chat-webhook", r"(qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?key=)([A-Za-z0-9\-]+)", 2),
    ("azure-account-key", r"(?i)(AccountKey=)([A-Za-z0-9+/=]{20,})", 2),
    ("bearer-token", r"(?i)(\bauthorization\s*[:=]\s*[\"']?(?:bearer|basic|token)\s+)([A-Za-z0-9._~+/=\-]{8,})", 2),
    ("bearer-token", r"(?i)(\bbearer\s+)([A-Za-z0-9._~+/\-]{20,}=*)", 2),
    # KEY=value anywhere, "key": "value" (JSON) anywhere, key: value at a line start (YAML), where
    # the key names a secret (.env files, configs, shells). Prose like "secret: tokens" is left alone.
    ("secret-assignment",
     r"(?i)((?:^|[\s,;({?&])(?:export\s+)?[\"']?" + _SECRET_KEY + r"[\"']?\s*=\s*[\"']?)(?![\d.]+\b)([^\s\"',;}{]{4,})", 2),
    ("secret-assignment",
     r"(?i)(\"" + _SECRET_KEY + r"\"\s*:\s*\")(?![\d.]+\")([^\"]{4,})", 2),
    ("secret-assignment",
     r"(?im)(^[ \t-]*[\"']?" + _SECRET_KEY + r"[\"']?[ \t]*:[ \t]*[\"']?)(?![\d.]+\b)([^\s\"',;}{]{4,})(?=[\s\"',;}{]|$)(?<!:)", 2),
    ("cli-password", r"(?i)(\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|sshpass)\b[^\n]*?\s-p)([^\s'\"]{3,})", 2),
    ("basic-auth", r"((?:^|\s)(?:-u|--user)\s+['\"]?[^\s:'\"]+:)([^\s'\"@]{3,})", 2),
    # "key: value" in the middle of a line only when the value looks machine-made (letters and
    # digits, 12+ characters), so prose such as "the secret: patience" is left alone
    ("secret-assignment",
     r"(?i)(\b" + _SECRET_KEY + r"[\"']?[ \t]*:[ \t]*[\"']?)(?=[^\s\"']*\d)(?=[^\s\"']*[A-Za-z])([^\s\"',;}{]{12,})", 2),
    ("password-flag", r"(?i)(--?(?:password|passwd|token|api-key|secret)[= ][\"']?)([^\s\"']{4,})", 2),
]

_compiled = None


def _rules():
    global _compiled
    if _compiled is None:
        flags = re.DOTALL
        _compiled = [(kind, re.compile(src, flags), group) for kind, src, group in _RULES_SRC]
    return _compiled


def _placeholder(kind: str) -> str:
    return "" if kind == "private-span" else f"[REDACTED:{kind}]"


# No rule can match fewer characters than this ("PWD=abcd", "<private>"), so shorter strings —
# tags, types, ids — skip the regexes.
_MIN_MATCH_CHARS = 8


def redact(text: str) -> str:
    """Return ``text`` with every recognised secret replaced by ``[REDACTED:<kind>]``."""
    if not text or len(text) < _MIN_MATCH_CHARS:
        return text
    for kind, pattern, group in _rules():
        if group == 0:
            text = pattern.sub(_placeholder(kind), text)
        else:
            text = pattern.sub(
                lambda m, k=kind, g=group: m.group(0)[: m.start(g) - m.start(0)] + _placeholder(k)
                + m.group(0)[m.end(g) - m.start(0):],
                text,
            )
    return text


def find_secrets(text: str) -> list:
    """The kinds of secret found in ``text`` (for tests and audit metadata, never the values)."""
    kinds = []
    for kind, pattern, _group in _rules():
        if pattern.search(text or ""):
            kinds.append(kind)
    return kinds


def redact_obj(obj):
    """Redact every string inside a JSON-like structure."""
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, list):
        return [redact_obj(v) for v in obj]
    if isinstance(obj, dict):
        return {k: redact_obj(v) for k, v in obj.items()}
    return obj
