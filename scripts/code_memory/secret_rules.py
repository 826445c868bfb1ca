"""The rule sets :mod:`code_memory.redact` finds secrets with (docs/security.md § Redaction).

* **gitleaks' default rules**, loaded as data: ``data/gitleaks_rules.json`` is gitleaks'
  ``config/gitleaks.toml`` (MIT, its LICENSE beside the file; the version is in the file), with
  every regex translated from Go RE2 to Python syntax at commit time by
  ``tools/update_secret_rules.py``. Each rule is applied as gitleaks applies it: only when one of
  its keywords occurs, its secret group (or the first non-empty group), an entropy floor, its own
  allowlists and stopwords and the global ones. The file loads on first use (≈ 2 ms) and each
  regex compiles the first time one of its keywords is seen.
* **Our own context rules** (:data:`CONTEXT_RULES`) for what gitleaks leaves to generic
  assignments: passwords given to commands (``sshpass -p``, ``mysql -p…``, ``sudo -S`` fed by
  ``echo``, ``chpasswd``, ``htpasswd -b``, ``keytool -storepass``, ``sqlplus user/pw@``), SQL
  (``IDENTIFIED BY``, ``PASSWORD '…'``), ``.netrc`` and ``.pgpass`` lines, line-start config
  directives (``requirepass``), Dockerfile ``ENV NAME value``, custom auth headers and cookies,
  URLs with a password or a secret query parameter, and Chinese or English labels followed by a
  value (``密码：``, ``初始密码为：``, ``Token：``, ``password is …``).

Every rule yields ``(start, end, kind)`` spans of the secret only; :mod:`code_memory.redact`
merges them with its labelled-value and entropy passes.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections import Counter

DATA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "gitleaks_rules.json")


def shannon_entropy(text: str) -> float:
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


# ------------------------------------------------------------------------------------- gitleaks

class _Rule:
    __slots__ = ("id", "src", "group", "entropy", "keywords", "_allowlists", "_raw_allowlists", "_rx")

    def __init__(self, raw: dict):
        self.id, self.src, self.group = raw["id"], raw["regex"], raw.get("secretGroup", 0)
        self.entropy, self.keywords = raw.get("entropy", 0.0), tuple(raw.get("keywords", ()))
        self._raw_allowlists, self._allowlists, self._rx = raw.get("allowlists", ()), None, None

    @property
    def rx(self):
        if self._rx is None:
            self._rx = re.compile(self.src, re.ASCII)
        return self._rx

    @property
    def allowlists(self) -> list:
        """``[(target, regexes, stopwords)]``, compiled the first time the rule matches."""
        if self._allowlists is None:
            self._allowlists = [(a["regexTarget"], [re.compile(r, re.ASCII) for r in a["regexes"]],
                                 tuple(a["stopwords"])) for a in self._raw_allowlists]
        return self._allowlists

    def secret_span(self, m):
        if self.group:
            return m.span(self.group) if m.group(self.group) else None
        for i in range(1, (m.re.groups or 0) + 1):
            if m.group(i):
                return m.span(i)
        return m.span(0)


class _Gitleaks:
    def __init__(self, path: str):
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        self.version = data.get("version", "")
        self.rules = [_Rule(r) for r in data["rules"]]
        self._global_sources, self._global_regexes = data["allowlist"]["regexes"], None
        self.global_stopwords = tuple(data["allowlist"]["stopwords"])
        self.by_keyword: dict = {}
        for rule in self.rules:
            for k in rule.keywords:
                self.by_keyword.setdefault(k, []).append(rule)
        self.keywords = tuple(sorted(self.by_keyword))

    @property
    def global_regexes(self) -> list:
        if self._global_regexes is None:
            self._global_regexes = [re.compile(r, re.ASCII) for r in self._global_sources]
        return self._global_regexes

    def allowed(self, rule: _Rule, secret: str, match: str, line: str) -> bool:
        lowered = secret.lower()
        if any(w in lowered for w in self.global_stopwords) or any(r.search(secret) for r in self.global_regexes):
            return True
        for target, regexes, stopwords in rule.allowlists:
            subject = {"match": match, "line": line}.get(target, secret)
            if any(r.search(subject) for r in regexes) or any(w in lowered for w in stopwords):
                return True
        return False

    def spans(self, text: str, lowered: str) -> list:
        rules, seen = [], set()
        for k in self.keywords:
            if k in lowered:
                for rule in self.by_keyword[k]:
                    if rule.id not in seen:
                        seen.add(rule.id)
                        rules.append(rule)
        out = []
        for rule in rules:
            for start, line in _lines_with(text, lowered, rule.keywords):
                for m in rule.rx.finditer(line):
                    span = rule.secret_span(m)
                    if span is None:
                        continue
                    secret = line[span[0]:span[1]]
                    if rule.entropy and shannon_entropy(secret) <= rule.entropy:
                        continue
                    if self.allowed(rule, secret, m.group(0), line):
                        continue
                    out.append((start + span[0], start + span[1], rule.id))
        return out


def _lines_with(text: str, lowered: str, keywords: tuple):
    """``(offset, line)`` for each line of ``text`` holding one of ``keywords`` — gitleaks'
    rules are matched line by line (their bounded quantifiers then cost O(line), not O(text))."""
    if "\n" not in text:
        yield 0, text
        return
    starts = set()
    for k in keywords:
        at = lowered.find(k)
        while at != -1:
            starts.add(lowered.rfind("\n", 0, at) + 1)
            at = lowered.find(k, at + 1)
    for s in sorted(starts):
        e = text.find("\n", s)
        e = len(text) if e == -1 else e
        yield s, text[s:e]


_GITLEAKS = None


def gitleaks() -> _Gitleaks:
    global _GITLEAKS
    if _GITLEAKS is None:
        _GITLEAKS = _Gitleaks(DATA_FILE)
    return _GITLEAKS


# ------------------------------------------------------------------------------- our own rules

_Q = r"""(?:'[^'\n]{1,200}'|"[^"\n]{1,200}"|[^\s'"]{1,200})"""          # a quoted or bare value
_QUOTED = r"""(?:'[^'\n]{1,200}'|"[^"\n]{1,200}")"""
_ZH_LABEL = r"(?:初始|默认|临时|新|旧|登录|登陆|管理员|超级|root|数据库|连接|访问|支付|解压|邮箱)?(?:密码|密钥|秘钥|口令|私钥|令牌|凭据|凭证|授权码|安全码|验证码)"
_EN_LABEL = (r"(?:api[ _-]?key|app[ _-]?(?:key|secret)|secret[ _-]?(?:key|id)?|access[ _-]?(?:key|token)(?:[ _-]?secret)?"
             r"|token|password|passwd|passphrase|passcode|pwd|pat|client[ _-]?secret)")


class ContextRule:
    """A secret found by what surrounds it: ``regex`` runs only when one of ``keywords`` occurs in
    the lower-cased text; group ``group`` is the secret (quotes around it are kept)."""

    __slots__ = ("kind", "keywords", "src", "group", "flags", "words_ok", "lines", "_rx")

    def __init__(self, kind, keywords, src, group=1, flags=re.IGNORECASE, words_ok=False, lines=True):
        self.kind, self.keywords, self.src, self.group, self.flags, self._rx = kind, keywords, src, group, flags, None
        self.words_ok = words_ok             # a bare value of letters only counts (else it reads as prose)
        self.lines = lines                   # matched line by line (only lines holding a keyword); False:
                                             # the whole text (a .netrc entry, a label and its value may
                                             # span lines)

    @property
    def rx(self):
        if self._rx is None:
            self._rx = re.compile(self.src, self.flags)
        return self._rx


_B = r"(?<![A-Za-z0-9_])"
CONTEXT_RULES = [
    # --- URLs: a password in the authority, a secret query parameter
    ContextRule("url-password", ("://",), r"\b[a-zA-Z][a-zA-Z0-9+.\-]{1,20}://[^\s:/@'\"`<>]*:([^\s@/'\"`<>]{1,200})@",
                words_ok=True),
    ContextRule("url-secret-param", ("=",),
                r"[?&;](?:access[_-]?token|refresh[_-]?token|id[_-]?token|auth[_-]?token|token|api[_-]?key|apikey|key"
                r"|sig|signature|x-amz-signature|x-amz-security-token|x-amz-credential|x-goog-signature"
                r"|x-goog-credential|password|passwd|pwd|secret|client[_-]?secret|auth|session[_-]?id|sessionid)="
                r"([^&\s#\"'<>`]{6,})"),
    ContextRule("chat-webhook", ("/hook/",), r"open\.(?:feishu\.cn|larksuite\.com)/open-apis/bot/v2/hook/([A-Za-z0-9\-]+)"),
    ContextRule("chat-webhook", ("qyapi.weixin.qq.com",), r"qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?key=([A-Za-z0-9\-]+)"),
    # --- vendor tokens gitleaks' rules leave out or only accept next to the vendor's name
    ContextRule("aws-access-key-id", ("akia", "asia", "abia", "acca", "a3t", "aida", "aroa", "agpa", "anpa", "aipa"),
                _B + r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Za-z0-9_])", 0, 0),
    ContextRule("anthropic-key", ("sk-ant-",), _B + r"sk-ant-[A-Za-z0-9_\-]{20,}", 0, 0),
    ContextRule("openai-key", ("sk-",), _B + r"sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}", 0, 0),
    ContextRule("google-oauth-token", ("ya29.", "1//0"), _B + r"(?:ya29\.[0-9A-Za-z_\-]{20,}|1//0[0-9A-Za-z_\-]{30,})", 0, 0),
    ContextRule("chat-webhook", ("/api/webhooks/", "webhook.office.com"),
                r"(?:discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]+|\.webhook\.office\.com/webhookb2/\S+)", 0, 0),
    ContextRule("github-token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
                _B + r"(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])", 0, 0),
    ContextRule("mailchimp-key", ("-us",), _B + r"[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9_\-])", 0, 0),
    ContextRule("telegram-bot-token", (":aa",), r"(?:(?<=bot)|(?<![A-Za-z0-9_]))\d{8,10}:AA[A-Za-z0-9_\-]{33}(?![A-Za-z0-9_\-])", 0, 0),
    ContextRule("gitlab-token", ("glpat-", "gldt-", "glft-", "glrt-", "glsoat-", "glptt-", "glcbt-", "glimt-", "glagent-",
                                 "gloas-", "glffct-"),
                _B + r"gl(?:pat|dt|ft|rt|soat|ptt|cbt|imt|agent|oas|ffct)-[0-9A-Za-z_.\-]{20,}", 0, 0),
    ContextRule("vendor-token", ("sl.", "sk.eyj", "nrak-", "nrii-", "age-secret-key-1", "lsv2_"),
                _B + r"(?:sl\.[A-Za-z0-9_\-=]{120,}|sk\.eyJ[A-Za-z0-9_\-]{30,}\.[A-Za-z0-9_\-]{20,}|NR(?:AK|II)-[A-Za-z0-9\-]{27,}"
                r"|AGE-SECRET-KEY-1[0-9A-Z]{58}|lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10})", 0, 0),
    # --- headers: Authorization schemes, custom auth headers, cookies
    ContextRule("auth-header", ("authorization", "bearer"),
                r"\b(?:authorization[\"']?\s*[:=]\s*[\"']?(?:bearer|basic|token|digest|apikey|sso-key|negotiate)"
                r"|bearer)\s+([A-Za-z0-9._~+/=\-:]{8,})"),
    ContextRule("auth-header", ("-token", "-key", "-secret", "-auth", "-password", "-signature", "apikey"),
                r"\b((?:x-)?(?:[a-z0-9]+-)+(?:token|api-?key|key|secret|auth|password|signature|session|apikey)|apikey)"
                r"[\"']?[ \t]*[:：][ \t]*[\"']?((?=[^\s\"',;]*\d)[^\s\"',;]{6,300}|[^\s\"',;]{16,300})", 2),
    ContextRule("cookie", ("cookie",), r"\bcookie[ \t]*:[ \t]*(?:[^;\n=]{1,60}=[^;\n]{0,300};[ \t]*)*?[^;\n=]*?"
                r"(?:sess|sid|token|auth|csrf|jwt|remember)[^;\n=]{0,30}=([^;\s]{8,300})"),
    # --- command lines
    ContextRule("cli-password", ("mysql", "mariadb"),
                r"\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mysqlimport|mysqlcheck|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p"
                r"('[^'\n]{1,200}'|\"[^\"\n]{1,200}\"|[^\s'\"]{1,200})"),
    ContextRule("cli-password", ("sshpass",), r"\bsshpass\s+(?:-\w+\s+)*?-p\s*(" + _Q + ")"),
    ContextRule("cli-password", ("login",),
                r"\b(?:docker|podman|buildah|skopeo|nerdctl|oras|helm\s+registry|crane\s+auth|az)\s+login\b[^\n|;&]*?\s"
                r"(?:-p|--password)(?:=|\s+)(" + _Q + ")"),
    ContextRule("cli-password", ("redis-cli",), r"\bredis-cli\b[^\n|;&]*?\s-a\s+(" + _Q + ")"),
    ContextRule("cli-password", ("mongo",),
                r"\bmongo(?:sh|dump|restore|import|export)?\b[^\n|;&]*?\s(?:-p|--password)(?:=|\s+)(" + _Q + ")"),
    ContextRule("cli-password", ("sqlcmd", "ldap"), r"\b(?:sqlcmd\b[^\n|;&]*?\s-P|ldap\w+\b[^\n|;&]*?\s-w)\s*(" + _Q + ")"),
    ContextRule("cli-password", ("pass:",), r"-pass(?:in|out|word)?\s+pass:(\S+)"),
    ContextRule("cli-password", ("pass",),
                r"(?<![\w-])-(?:src|dest|new)?(?:store|key)?pass(?:word)?[ \t]+(" + _Q + ")", 1, 0),
    ContextRule("cli-password", ("--",),
                r"--(?:[a-z0-9]+-)*(?:password|passwd|pass|token|api-?key|secret|secret-key|access-key|private-key)"
                r"(?:=|\s+)"
                r"('[^'\n]{1,200}'|\"[^\"\n]{1,200}\"|[^\s'\"(\[<{-][^\s'\"]{0,199})"),
    ContextRule("cli-password", ("-u", "--user"), r"(?:^|\s)(?:-u|--user)(?:=|\s+)['\"]?[^\s:'\"]+:([^\s'\"@]{3,})"),
    ContextRule("cli-password", ("sudo", "chpasswd", "passwd", "stdin", "htpasswd"),
                r"\b(?:echo|printf)\s+(?:-[en]+\s+)?(?:'%s\\n'\s+)?(" + _Q + r")\s*\|\s*(?:sudo\s+(?:-\S+\s+)*)?"
                r"(?:sudo\b[^|\n]*?\s-\w*S|chpasswd|passwd\s+--stdin|\S+\s+login\b[^|\n]*--password-stdin|htpasswd\b)"),
    ContextRule("cli-password", ("htpasswd",), r"\bhtpasswd\s+-\w*b\w*\s+(?:-\S+\s+)*(?:\S+\s+){2}(" + _Q + ")"),
    ContextRule("cli-password", ("htpasswd",), r"\bhtpasswd\s+-\w*n\w*b\w*\s+(?:-\S+\s+)*\S+\s+(" + _Q + ")"),
    ContextRule("cli-password", ("sqlplus", "rman", "expdp", "impdp", "exp ", "imp "),
                r"(?:\b(?:sqlplus|rman|expdp|impdp)|(?:^|(?<=[;&|`$])|(?<=[;&|`$] ))[ \t]*(?:exp|imp))\b(?:\s+-\S+)*\s+(?:target=)?[\w$#.\\]+/([^@\s/'\"]{1,100})(?=@|\s|$)"),
    ContextRule("cli-password", ("smbclient", "%"), r"\b(?:smbclient|rpcclient|smbmap|net\s+use)\b[^\n]*?-U\s+['\"]?[^\s%'\"]+%([^\s'\"]+)"),
    ContextRule("cli-password", ("/user:",), r"/user:\S+\s+(?!/)([^\s]{3,200})"),
    ContextRule("secret-assignment", ("password=",), r"(?<![\w.-])password=(" + _Q + ")"),
    # --- SQL
    ContextRule("sql-password", ("identified",), r"\b(?:create|alter|grant|user|role|login)\b[^\n;]*?\bidentified\s+(?:with\s+\S+\s+)?by\s+(?:password\s+)?(" + _Q + ")"),
    ContextRule("sql-password", ("password",), r"\b(?:user|role|login)\b[^\n;]*?(?<!['\"])\bpassword\s*=?\s*(" + _QUOTED + ")"),
    # --- config files: .netrc, .pgpass, directives at the start of a line, Dockerfile ENV/ARG
    ContextRule("netrc-password", ("password",),
                r"\b(?:login|user(?:name)?|machine\s+\S+|default)\s+(?!(?:and|or|the|an?|with|to|of|for|is|are|name)\s)\S+"
                r"\s+password\s+(\S+)", words_ok=True, lines=False),
    ContextRule("config-password", ("password", "passwd", "requirepass", "masterauth", "psk", "secret"),
                r"^[ \t]*(?:password|passwd|requirepass|masterauth|psk|secret|auth-pass|passphrase)[ \t]+"
                r"((?=[^\s]*[0-9!@#$%^&*_+=~.\-])[^\s'\"]{4,200}|" + _QUOTED + r")[ \t]*$", 1, re.IGNORECASE | re.MULTILINE),
    ContextRule("pgpass-password", (":",), r"(?:^|(?<=[\s\"'`]))(?!\d{4}-\d\d-\d\d|(?:[0-9A-Fa-f]{2}:){4})[^\s:#\"'`]+:(?:\d{2,5}|\*):[^\s:]+:[^\s:]+:([^\s\"'`]+)(?=[\s\"'`]|$)",
                1, re.MULTILINE),
    # --- labels in prose: Chinese labels (any colon, 是/为, or a space before a value with a digit
    #     or symbol), English labels with a full-width colon or 是/为, English "password is …"
    ContextRule("secret-label-zh", ("密", "钥", "口令", "令牌", "凭", "授权码", "安全码", "验证码"),
                r"" + _ZH_LABEL + r"(?:\s*[(（][^)）\n]{0,20}[)）])?"
                r"(?:\s*(?:[:：=]|是|为)+\s*[\"'“‘`]?|\s+[\"'“‘`]?(?=[!-~]*[0-9!@#$%^&*_+=~]))"
                r"([!-~]{3,200}?)(?=[\"'”’`，。；！？、）】」』\s]|$|[\u3000-\u9fff])", 1, 0, lines=False),
    ContextRule("secret-label-zh", ("：", "是", "为"),
                _B + _EN_LABEL + r"\s*(?:：|是|为)+\s*[\"'“‘`]?([!-~]{4,200}?)(?=[\"'”’`，。；！？、）】」』\s]|$|[\u3000-\u9fff])",
                lines=False),
    ContextRule("secret-label", ("password", "passcode", "passphrase", "pin "),
                r"\b(?:password|passcode|passphrase|pin)\s+(?:is|was|of)\s+[\"']?(?=[^\s\"']*[0-9!@#$%^&*_+=~-])"
                r"([^\s\"']{4,200})", lines=False),
]

# Kinds found by a token's own shape: kept even where the text around them reads like a placeholder.
SHAPE_KINDS = frozenset({"aws-access-key-id", "anthropic-key", "openai-key", "google-oauth-token", "chat-webhook",
                         "mailchimp-key", "telegram-bot-token", "gitlab-token", "github-token", "vendor-token"})

_WORD = re.compile(r"[A-Za-z][a-z]*(?:[-'][A-Za-z]+)*[.,;:]?")
_ALL_CONTEXT_KEYWORDS = tuple(sorted({k for r in CONTEXT_RULES for k in r.keywords}))

# --- a secret named in a sentence: "the Mailgun key is …", "new PAT for the CI: …", "password
#     Opsp4ss! then …". After the label, the first of the next few words that looks made by a
#     machine (a key's label) or holds a digit or symbol (a password's label) is the secret.
_PROSE_LABEL = re.compile(r"(?<![\w./-])(?:(password|passphrase|passcode|passwd)"
                          r"|(pat|token|(?:api|access|secret|license|deploy|app|private)[ _-]?key|key|secret|credential))"
                          r"(?![\w-])", re.IGNORECASE)
_PROSE_WORD = re.compile(r"""[ \t]*[:=：]?[ \t]*["'`“‘]?([^\s"'`”’，。；（）【】、：=]{1,200})""")   # bounded: linear
_FILE_LIKE = re.compile(r"^-|=|^[\w.-]+\.(?:[a-z]{1,5})$|^[\w.+-]+@[\w-]+\.[\w.]+$|://|^[/~$<{.]|^(?:0x)?[0-9a-fA-F]+$"
                        r"|^[A-Za-z]+(?:[-_][A-Za-z]+)*$|[\[\](){}<>|\\,]|^[a-z][a-z0-9]*(?:_[a-z0-9]+){2,}$"
                        r"|^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_CONNECTOR = re.compile(r"[ \t]*(?:[:=：]|(?:is|was|are)\b)", re.IGNORECASE)


def _looks_made(word: str, password: bool) -> bool:
    if _FILE_LIKE.search(word) or "[REDACTED" in word:
        return False
    letters = sum(c.isalpha() for c in word)
    digits = sum(c.isdigit() for c in word)
    if password:
        return len(word) >= 6 and letters > 0 and (digits > 0 or any(not c.isalnum() for c in word))
    return len(word) >= 12 and letters > 0 and digits > 1 and shannon_entropy(word) >= 3.2


PROSE_KEYWORDS = ("pass", "pwd", "pin", "pat", "token", "key", "secret", "credential")


def prose_spans(text: str, lowered: str) -> list:
    if not any(k in lowered for k in PROSE_KEYWORDS):
        return []
    out = []
    for m in _PROSE_LABEL.finditer(text):
        password = m.group(1) is not None
        pos, connected = m.end(), False
        for n in range(6):
            connected = connected or bool(_CONNECTOR.match(text, pos))
            w = _PROSE_WORD.match(text, pos)
            if w is None:
                break
            word = w.group(1).rstrip(".,;:!?)]}")
            again = _PROSE_LABEL.fullmatch(word)
            if again and (again.group(1) is not None) == password:
                break                      # "password password": the next label scans for itself
            if not password:
                word = word.rstrip("!")
            if (n == 0 or connected) and _looks_made(word, password):
                out.append((w.start(1), w.start(1) + len(word), "secret-in-prose"))
                break
            if w.group(1)[-1:] in ".!?" and not _looks_made(w.group(1), password):
                break                      # the sentence ended
            connected = connected or w.group(1)[-1:] in (":", "：", "=")
            pos = w.end()
    return out


def keywords() -> list:
    """Every keyword a rule here needs (an empty one when a rule runs on any text)."""
    found = [k for rule in gitleaks().rules for k in (rule.keywords or ("",))]
    found += [k for rule in CONTEXT_RULES for k in (rule.keywords or ("",))]
    return found + list(PROSE_KEYWORDS)


def context_spans(text: str, lowered: str) -> list:
    found = {k for k in _ALL_CONTEXT_KEYWORDS if k in lowered}
    out = []
    for rule in CONTEXT_RULES:
        if found.isdisjoint(rule.keywords):
            continue
        chunks = _lines_with(text, lowered, rule.keywords) if rule.lines else ((0, text),)
        for offset, chunk in chunks:
            for m in rule.rx.finditer(chunk):
                s, e = m.span(rule.group)
                if s < 0 or e <= s:
                    continue
                s, e = s + offset, e + offset
                value = text[s:e]
                if value[:1] in "'\"" and value[-1:] == value[:1] and len(value) >= 2:
                    s, e = s + 1, e - 1
                else:
                    value = value.rstrip(",;:)]}.")      # password=None):, (…, password=x.y.z,
                    e = s + len(value)
                    if len(value) < 3 or value[:1] == "`" or (not rule.words_ok and _WORD.fullmatch(value)):
                        continue           # "--with-secret is used", "Bearer credential the …", `-p`,
                out.append((s, e, rule.kind))
    return out
