"""Secret redaction: applied to every text before it is written to memory, indexed, logged or sent
to an LLM (docs/design.md § Design notes, Privacy).

A match becomes ``[REDACTED:<kind>]``; ``<private>…</private>`` spans (any case, with attributes such
as ``<private reason="…">``) are dropped entirely. Four passes, in this order:

1. **Shapes** (:data:`_RULES`): private key blocks, vendor tokens with a recognisable prefix
   (the families of gitleaks' and detect-secrets' rule sets: cloud keys, VCS and CI tokens, chat,
   payment, LLM vendors, Chinese clouds …), URLs with passwords or secret query parameters,
   Authorization headers, passwords on command lines (``mysql -p'…'``, ``sshpass -p``,
   ``docker login -p``, ``--password …``), Chinese labels (``密码：``, ``密钥:``, ``口令是``).
   Each rule carries keywords; it only runs when the lower-cased text contains one of them (the
   gitleaks idea), so ordinary text costs a few substring tests per rule.
2. **Labelled values**: ``NAME = value``, ``NAME: value``, ``"NAME": "value"``, ``NAME => value``,
   ``os.environ['NAME'] = '…'``, ``("NAME", "value")``, ``<NAME>value</NAME>`` — found from the
   name's keyword, not by a regex over every assignment. The name is split into words (``_ - .``
   and camelCase); ``password``, ``pass``, ``pw``, ``pwd``, ``secret``, ``token``, ``credential``,
   ``api key``, ``private key`` … make any value a secret, ``key``, ``auth``, ``salt``,
   ``signature``, ``session`` … only a high-entropy one; names ending in ``length``, ``name``,
   ``url``, ``file``, ``type``, ``id``, ``count`` … are settings, not secrets. Quoted values are
   redacted whole (spaces included); references (``$VAR``, ``${…}``, ``{{…}}``, ``<…>``, calls,
   ``a.b`` attributes, ``None``, type names) and placeholders are left alone.
3. **High entropy, unlabelled**: a 32+ character run of base64/base62 characters with upper case,
   lower case and digits and a Shannon entropy ≥ 4.2 bits per character (hex, UUIDs, paths and
   SRI hashes excluded — commit ids are not secrets).

The redaction is idempotent and linear in the text (no rule can backtrack over more than a
bounded window).
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter

_B = r"(?<![A-Za-z0-9_])"          # an ASCII word boundary that also holds after Chinese text
_E = r"(?![A-Za-z0-9_])"
_QUOTED_OR_BARE = r"""('[^'\n]{1,200}'|"[^"\n]{1,200}"|[^\s'"]{1,200})"""
PLACEHOLDER_PREFIX = "[REDACTED:"


class _Rule:
    __slots__ = ("kind", "keywords", "src", "group", "flags", "check", "_rx")

    def __init__(self, kind, keywords, src, group=0, flags=0, check=None):
        self.kind, self.keywords, self.src, self.group = kind, keywords, src, group
        self.flags, self.check, self._rx = flags, check, None

    @property
    def rx(self):
        if self._rx is None:
            self._rx = re.compile(self.src, self.flags)
        return self._rx

    def wanted(self, found: set) -> bool:
        return not self.keywords or not found.isdisjoint(self.keywords)


def _token(kind, keywords, body, group=0, flags=0):
    """A vendor token: ``body`` between ASCII word boundaries."""
    return _Rule(kind, keywords, _B + body + _E, group, flags)


_I = re.IGNORECASE
_RULES = [
    # --- spans and blocks ------------------------------------------------------------------
    _Rule("private-key", ("putty-user-key-file",), r"PuTTY-User-Key-File-\d[\s\S]*?(?:Private-MAC: [0-9a-f]+|\Z)"),
    # --- URLs ------------------------------------------------------------------------------
    _Rule("url-password", ("://",), r"\b([a-zA-Z][a-zA-Z0-9+.\-]{1,20}://[^\s:/@'\"`<>]*:)([^\s@/'\"`<>]{1,200})(@)", 2),
    _Rule("url-secret-param", ("=",),
          r"(?i)([?&;](?:access[_-]?token|refresh[_-]?token|id[_-]?token|auth[_-]?token|token|api[_-]?key|apikey"
          r"|key|sig|signature|x-amz-signature|x-amz-security-token|x-amz-credential|x-goog-signature"
          r"|x-goog-credential|password|passwd|pwd|secret|client[_-]?secret|auth|session[_-]?id|sessionid)=)"
          r"([^&\s#\"'<>`]{6,})", 2),
    _Rule("slack-webhook", ("hooks.slack.com",),
          r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{8,}"),
    _Rule("discord-webhook", ("/api/webhooks/",),
          r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]+"),
    _Rule("teams-webhook", ("webhook.office.com",), r"(https://[A-Za-z0-9.\-]+\.webhook\.office\.com/webhookb2/)(\S+)", 2),
    _Rule("chat-webhook", ("/hook/",),
          r"(https://(?:open\.feishu\.cn|open\.larksuite\.com)/open-apis/bot/v2/hook/)([A-Za-z0-9\-]+)", 2),
    _Rule("chat-webhook", ("qyapi.weixin.qq.com",), r"(qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?key=)([A-Za-z0-9\-]+)", 2),
    # --- tokens with a recognisable shape -------------------------------------------------
    _Rule("jwt", ("eyj",), _B + r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    _token("anthropic-key", ("sk-ant-",), r"sk-ant-[A-Za-z0-9_\-]{20,}"),
    _token("openai-key", ("sk-",), r"sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}"),
    _token("stripe-key", ("sk_", "rk_"), r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}"),
    _token("stripe-webhook-secret", ("whsec_",), r"whsec_[A-Za-z0-9+/=]{20,}"),
    _token("aws-access-key-id", ("a3t", "akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa", "anva", "aipa"),
           r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}"),
    _token("aws-bedrock-key", ("absk", "bedrock-api-key-"), r"(?:ABSK[A-Za-z0-9+/]{100,}={0,2}|bedrock-api-key-[A-Za-z0-9+/=]{40,})"),
    _Rule("aws-secret-key", ("aws",),
          r"(?i)(aws_?secret_?(?:access_?)?key[\"']?\s*[=:]\s*[\"']?)([A-Za-z0-9/+=]{40})", 2),
    _token("github-token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), r"gh[pousr]_[A-Za-z0-9]{30,255}"),
    _token("github-pat", ("github_pat_",), r"github_pat_[A-Za-z0-9_]{22,255}"),
    _token("gitlab-token", ("glpat-", "gldt-", "glft-", "glrt-", "glsoat-", "glptt-", "glcbt-", "glimt-", "glagent-",
                            "gloas-", "glffct-"),
           r"gl(?:pat|dt|ft|rt|soat|ptt|cbt|imt|agent|oas|ffct)-[0-9A-Za-z_.\-]{20,}"),
    _token("gitlab-token", ("gr1348941",), r"GR1348941[0-9A-Za-z_\-]{20,}"),
    _Rule("gitlab-token", ("_gitlab_session=",), r"(_gitlab_session=)([0-9a-z]{32})", 2),
    _token("slack-token", ("xox",), r"xox(?:[abposrec]|e\.xox[bp])-[A-Za-z0-9\-]{10,}"),
    _token("slack-app-token", ("xapp-",), r"xapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]+"),
    _token("google-api-key", ("aiza",), r"AIza[0-9A-Za-z_\-]{35}"),
    _token("google-oauth-secret", ("gocspx-",), r"GOCSPX-[A-Za-z0-9_\-]{20,}"),
    _token("google-oauth-token", ("ya29.",), r"ya29\.[0-9A-Za-z_\-]{20,}"),
    _token("google-oauth-token", ("1//0",), r"1//0[0-9A-Za-z_\-]{30,}"),
    _token("npm-token", ("npm_",), r"npm_[A-Za-z0-9]{36}"),
    _Rule("npm-token", ("_auth",),
          r"(?i)(_auth(?:token)?\s*=\s*[\"']?)([A-Za-z0-9+/=_\-]{8,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})",
          2),
    _token("pypi-token", ("pypi-",), r"pypi-AgE[A-Za-z0-9_\-]{50,}"),
    _token("huggingface-token", ("hf_", "api_org_"), r"(?:hf|api_org)_[A-Za-z0-9]{30,}"),
    _token("sendgrid-key", ("sg.",), r"SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"),
    _token("digitalocean-token", ("_v1_",), r"do[opr]_v1_[a-f0-9]{64}"),
    _token("telegram-bot-token", (":aa",), r"\d{8,10}:AA[A-Za-z0-9_\-]{33}"),
    _token("discord-bot-token", (".",), r"[MN][A-Za-z\d]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}"),
    _token("alibaba-access-key-id", ("ltai",), r"LTAI[A-Za-z0-9]{12,24}"),
    _token("tencent-secret-id", ("akid",), r"AKID[A-Za-z0-9]{13,40}"),
    _token("volcengine-access-key", ("aklt",), r"AKLT[A-Za-z0-9_\-]{20,}"),
    _token("vault-token", ("hvs.", "hvb.", "hvr."), r"hv[sbr]\.[A-Za-z0-9_\-]{24,}"),
    _token("twilio-api-key", ("sk",), r"SK[0-9a-fA-F]{32}"),
    _token("mailgun-key", ("key-",), r"key-[0-9a-zA-Z]{32}"),
    _token("shopify-token", ("shpat_", "shpca_", "shppa_", "shpss_"), r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    _token("square-token", ("sq0",), r"sq0(?:atp|csp)-[0-9A-Za-z_\-]{22,}"),
    _token("databricks-token", ("dapi",), r"dapi[a-f0-9]{32}(?:-\d)?"),
    _token("age-secret-key", ("age-secret-key-1",), r"AGE-SECRET-KEY-1[0-9A-Z]{58}"),
    _token("azure-ad-client-secret", ("q~",), r"[a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.\-]{31,34}"),
    _Rule("azure-account-key", ("accountkey=", "sharedaccesskey="),
          r"(?i)((?:AccountKey|SharedAccessKey)=)([A-Za-z0-9+/=]{20,})", 2),
    _token("atlassian-token", ("atatt", "atbb"), r"AT(?:ATT|BB)[A-Za-z0-9_\-=]{24,}"),
    _token("1password-token", ("ops_eyj",), r"ops_eyJ[A-Za-z0-9+/]{100,}={0,3}"),
    _token("1password-secret-key", ("a3-",), r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}"),
    _token("grafana-token", ("eyjrijoi", "glc_", "glsa_"),
           r"(?:eyJrIjoi[A-Za-z0-9]{50,}={0,3}|glc_[A-Za-z0-9+/]{32,}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})"),
    _token("facebook-token", ("eaa",), r"EAA[MC][A-Za-z0-9]{80,}"),
    _token("dropbox-token", ("sl.",), r"sl\.[A-Za-z0-9_\-=]{120,}"),
    _token("mapbox-secret-token", ("sk.eyj",), r"sk\.eyJ[A-Za-z0-9_\-]{30,}\.[A-Za-z0-9_\-]{20,}"),
    # vendor prefixes followed by a long random part (gitleaks: doppler, duffel, dynatrace, easypost,
    # flutterwave, frame.io, heroku, infracost, linear, new relic, notion, planetscale, postman,
    # prefect, pulumi, readme, rubygems, scalingo, sendinblue, sentry, shippo, groq, langsmith,
    # perplexity, replicate, supabase, openshift, clojars, artifactory, harness, terraform cloud)
    _token("vendor-token", ("dp.pt.", "duffel_", "dt0c01.", "ezak", "eztk", "flwseck", "fio-u-", "hrku-", "ico-",
                            "lin_api_", "nrak-", "nrii-", "ntn_", "pscale_", "pmak-", "pnu_", "pul-", "rdme_",
                            "rubygems_", "tk-us-", "xkeysib-", "sntry", "shippo_", "gsk_", "lsv2_", "pplx-", "r8_",
                            "sbp_", "sha256~", "clojars_", "akcp", "pat.", "sat.", "atlasv1", "xai-"),
           r"(?:dp\.pt\.[A-Za-z0-9]{40,}|duffel_(?:test|live)_[A-Za-z0-9_\-=]{40,}|dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}"
           r"|EZ[AT]K[A-Za-z0-9]{50,}|FLWSECK(?:_TEST)?-[A-Za-z0-9]{12,}(?:-X)?|fio-u-[A-Za-z0-9_\-=]{60,}"
           r"|HRKU-AA[0-9A-Za-z_\-]{50,}|ico-[A-Za-z0-9]{32}|lin_api_[A-Za-z0-9]{40}|NR(?:AK|II)-[A-Za-z0-9\-]{27,}"
           r"|ntn_[0-9]{11}[A-Za-z0-9]{35}|pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.\-]{32,}|PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}"
           r"|pnu_[A-Za-z0-9]{36}|pul-[a-f0-9]{40}|rdme_[a-z0-9]{70}|rubygems_[a-f0-9]{48}|tk-us-[A-Za-z0-9_\-]{48}"
           r"|xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}|sntry[us]_[A-Za-z0-9+/=_]{40,}|shippo_(?:live|test)_[a-fA-F0-9]{40}"
           r"|gsk_[A-Za-z0-9]{40,}|lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}|pplx-[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{37}"
           r"|sbp_[a-f0-9]{40}|sha256~[A-Za-z0-9_\-]{43}|CLOJARS_[A-Za-z0-9]{60}|AKCp[A-Za-z0-9]{60,}"
           r"|(?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,}"
           r"|xai-[A-Za-z0-9]{60,})"),
    # --- headers and command lines ----------------------------------------------------------
    _Rule("bearer-token", ("authorization",),
          r"(?i)(\bauthorization[\"']?\s*[:=]\s*[\"']?(?:bearer|basic|token|digest|apikey|sso-key)\s+)([A-Za-z0-9._~+/=\-:]{8,})",
          2),
    _Rule("bearer-token", ("bearer",), r"(?i)(\bbearer\s+)([A-Za-z0-9._~+/\-]{20,}=*)", 2),
    _Rule("cli-password", ("mysql", "mariadb"),
          r"(\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mysqlimport|mysqlcheck|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p)"
          r"('[^'\n]{1,200}'|\"[^\"\n]{1,200}\"|[^\s'\"]{1,200})", 2),
    _Rule("cli-password", ("sshpass",), r"(\bsshpass\s+(?:-\w+\s+)*?-p\s*)" + _QUOTED_OR_BARE, 2),
    _Rule("cli-password", ("login",),
          r"(\b(?:docker|podman|buildah|skopeo|nerdctl|oras|helm\s+registry|crane\s+auth)\s+login\b[^\n|;&]*?\s"
          r"(?:-p|--password)(?:=|\s+))" + _QUOTED_OR_BARE, 2),
    _Rule("cli-password", ("redis-cli",), r"(\bredis-cli\b[^\n|;&]*?\s-a\s+)" + _QUOTED_OR_BARE, 2),
    _Rule("cli-password", ("mongo",),
          r"(\bmongo(?:sh|dump|restore|import|export)?\b[^\n|;&]*?\s(?:-p|--password)(?:=|\s+))" + _QUOTED_OR_BARE, 2),
    _Rule("cli-password", ("sqlcmd",), r"(\bsqlcmd\b[^\n|;&]*?\s-P\s*)" + _QUOTED_OR_BARE, 2),
    _Rule("cli-password", ("pass:",), r"(-pass(?:in|out)?\s+pass:)(\S+)", 2),
    _Rule("password-flag", ("--",),
          r"(?i)(--(?:password|passwd|pass|http-password|ftp-password|proxy-password|token|auth-token|access-token"
          r"|api-key|apikey|secret|client-secret|secret-key|access-key|secret-access-key|private-token)(?:=|\s+))"
          r"('[^'\n]{1,200}'|\"[^\"\n]{1,200}\"|[^\s'\"-][^\s'\"]{0,199})", 2),
    _Rule("basic-auth", ("-u", "--user"), r"((?:^|\s)(?:-u|--user)(?:=|\s+)['\"]?[^\s:'\"]+:)([^\s'\"@]{3,})", 2),
    # --- Chinese labels: 密码：… 密钥: … 口令是 … (value: printable ASCII, so prose is left alone)
    _Rule("secret-label-zh", ("密码", "密钥", "秘钥", "口令", "私钥", "令牌", "凭据", "凭证", "授权码", "安全码"),
          r"((?:密码|密钥|秘钥|口令|私钥|令牌|凭据|凭证|授权码|安全码)(?:\s*[(（][^)）\n]{0,20}[)）])?"
          r"\s*(?:[:：=]|是|为|：)\s*[\"'“‘`]?)([!-~]{3,200}?)(?=[\"'”’`，。；！？、）】」』\s]|$|[\u3000-\u9fff])", 2),
    _Rule("secret-label", ("password", "passcode", "passphrase", "pin "),
          r"(?i)(\b(?:password|passcode|passphrase|pin)\s+(?:is|was)\s+[\"']?)"
          r"(?=[^\s\"']*[0-9!@#$%^&*_+=~-])([^\s\"']{4,200})", 2),
]


# ------------------------------------------------------------------------------------- labelled values

# Words of a name (split on _ - . and camelCase) that make any value a secret …
_STRONG_WORDS = frozenset("""password passwd passphrase passcode pass pwd pw psw secret secrets token
credential credentials creds apikey privatekey secretkey accesskey authtoken accesstoken refreshtoken
sessiontoken clientsecret sas pat""".split())
# … pairs of words that do too …
_STRONG_PAIRS = frozenset([("api", "key"), ("private", "key"), ("secret", "key"), ("access", "key"),
                           ("auth", "key"), ("client", "key"), ("signing", "key"), ("encryption", "key"),
                           ("master", "key"), ("account", "key"), ("app", "secret"), ("app", "key"),
                           ("session", "key"), ("service", "key"), ("license", "key"), ("db", "key"),
                           ("auth", "code"), ("access", "code"), ("connection", "string")])
_STRONG_SUFFIXES = ("password", "passwd", "passphrase", "secret", "token", "apikey", "credential", "credentials")
# … words that make only a high-entropy value one …
_WEAK_WORDS = frozenset("key auth sig signature salt hmac cookie session cred license seed dsn".split())
# … and last words that make the name a setting about a secret, not the secret.
_SETTING_WORDS = frozenset("""length len size count limit limits max min ttl timeout expiry expires expiration
version type types id ids name names file files path paths dir url uri urls endpoint endpoints header headers
env var field fields prompt hint policy policies format mode enabled disabled required hash hashes algorithm
algo alg prefix suffix regex pattern label placeholder column table index idx store manager provider
service class module kind scope scopes schema template reset change changed vault arn ref budget budgets usage
used left remaining total estimate estimated chars bytes lines words rate ratio per cost costs spent price count""".split())
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-$@")
_STEMS = r"p(?:ass|wd|w|sw|at)|s(?:ecret|ig|alt|ession|as|eed)|token|key|auth|c(?:red|ookie|onnection)|hmac|license|dsn"
_LABEL_STEMS = re.compile(_STEMS, _I)
_LABEL_STEMS_LOWER = re.compile(_STEMS)
_NAME_TAIL = re.compile(r"[A-Za-z0-9_.\-$@]{0,80}")
_OPERATOR = re.compile(r"""["'`]?\]?[ \t]*(=>|:=|\?=|\+=|=|:(?!:))[ \t]*""")
_ARGUMENT = re.compile(r"""["'`][ \t]*,[ \t]*(?=["'])""")
_VALUE = re.compile(r"""'((?:[^'\\\n]|\\.){0,300})'|"((?:[^"\\\n]|\\.){0,300})"|`([^`\n]{0,300})`|([^\s"'`,;)}\]<>]{1,300})""")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_REFERENCE = re.compile(r"""(?x)
    \$\{?[A-Za-z_][\w.]*\}?$ | %[A-Za-z_]\w*%$ | \{\{.*\}\}$ | <[^>]*>$ | \[REDACTED | \*{3,} | ^x{3,}$ | ^\.{3}$
  | ^(?:none|null|nil|true|false|undefined|empty|n/?a|todo|tbd|changeme|redacted|required|optional|secret|password
       |str|string|bytes|int|integer|bool|boolean|float|number|any|object|dict|list|optional\[.*|self|cls|this|new
       |your[_-].*|my[_-].*|<.*|xxx.*|example.*|dummy.*|fake.*|test|placeholder|\.\.\.)$
  | ^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+$ | \( | ^[A-Za-z_][\w.]*\[ | ^(?:getenv|environ)\b | ^\$ | \$\{
""", re.IGNORECASE)


def _name_words(name: str) -> list:
    words = []
    for part in re.split(r"[_.\-$@]+", name):
        words.extend(w.lower() for w in _CAMEL.findall(part))
    return words


@functools.lru_cache(maxsize=4096)
def _label_strength(name: str) -> int:
    """2 = a secret's name, 1 = may name a secret (high-entropy values only), 0 = not a secret."""
    words = _name_words(name)
    if not words or words[-1] in _SETTING_WORDS or (len(words) > 1 and words[-1] in ("public", "pub")):
        return 0
    if any(w in ("public", "pub", "primary", "foreign", "sort", "partition", "cache", "idempotency") for w in words):
        return 0
    if any(w in _STRONG_WORDS for w in words) or any(p in _STRONG_PAIRS for p in zip(words, words[1:])):
        return 2
    if "".join(words) in _STRONG_WORDS or any(w.endswith(_STRONG_SUFFIXES) for w in words):
        return 2                           # PGPASSWORD, githubtoken, apisecret
    return 1 if any(w in _WEAK_WORDS for w in words) else 0


def shannon_entropy(text: str) -> float:
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


def _random_looking(value: str, min_len: int = 16, min_entropy: float = 3.5) -> bool:
    if len(value) < min_len or shannon_entropy(value) < min_entropy:
        return False
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    return has_digit and has_alpha


def _value_is_secret(value: str, strength: int, quoted: bool, spaced_code: bool) -> bool:
    stripped = value.strip()
    if len(stripped) < 3 or _REFERENCE.search(stripped):
        return False
    if strength == 1:
        return _random_looking(stripped)
    if quoted:
        return True
    if spaced_code and re.fullmatch(r"[A-Za-z_]+", stripped):
        return False                       # `password = user_password`: a variable, not a value
    return True


def _labelled_spans(text: str) -> list:
    """``[(start, end)]`` of values that follow a secret's name."""
    spans, seen_names = [], set()
    covered = 0
    lowered = text.lower()
    stems = _LABEL_STEMS_LOWER.finditer(lowered) if len(lowered) == len(text) else _LABEL_STEMS.finditer(text)
    for m in stems:
        if m.start() < covered:
            continue                       # inside a value already taken
        end = _NAME_TAIL.match(text, m.end()).end()
        op = _OPERATOR.match(text, end)
        arg = None if op else _ARGUMENT.match(text, end)
        if op is None and arg is None:
            continue
        start, floor = m.start(), max(0, m.start() - 80)
        while start > floor and text[start - 1] in _NAME_CHARS:
            start -= 1
        if start in seen_names:
            continue
        seen_names.add(start)
        name = text[start:end].strip(".-$@")
        if not name or len(name) > 80:
            continue
        strength = _label_strength(name)
        if not strength:
            continue
        if op is None:
            if start == 0 or text[start - 1] not in "\"'`":
                continue
            at, operator = arg.end(), ","
        else:
            at, operator = op.end(), op.group(1)
        value = _VALUE.match(text, at)
        if value is None:
            continue
        quoted = value.group(4) is None and value.group(3) is None     # `backticks` quote code, not values
        raw = next(g for g in value.groups() if g is not None)
        if not quoted and raw.endswith(":"):
            continue                       # "label: name: value" — the next name is the label
        line_start = text.rfind("\n", max(0, start - 120), start) + 1
        at_line_start = (line_start > 0 or start < 120) and text[line_start:start].strip(" \t-\"'") == ""
        if operator == ":" and not quoted and not at_line_start:
            # "name: value" inside a sentence: only a machine-made value counts
            if not _random_looking(raw, min_len=12, min_entropy=3.0):
                continue
        spaced_code = (op is not None and operator != ":" and not quoted
                       and text[op.start(1) - 1:op.start(1)] in (" ", "\t"))
        if not _value_is_secret(raw, strength, quoted, spaced_code):
            continue
        vstart = value.start() + (0 if value.group(4) is not None else 1)
        spans.append((vstart, vstart + len(raw)))
        covered = vstart + len(raw)
    # <password>value</password> and <add key="Password" value="…"/>
    for m in _XML_ELEMENT.finditer(text):
        if _label_strength(m.group(1)) == 2 and not _REFERENCE.search(m.group(2).strip()):
            spans.append(m.span(2))
    for m in _XML_ATTRIBUTE.finditer(text):
        if _label_strength(m.group(1)) == 2 and not _REFERENCE.search(m.group(2).strip()):
            spans.append(m.span(2))
    return spans


_XML_ELEMENT = re.compile(r"<([A-Za-z_][\w.\-]{0,60})>([^<\n]{3,200})</\1>")
_XML_ATTRIBUTE = re.compile(r"""(?i)\bkey=["']([^"'\n]{1,60})["']\s+value=["']([^"'\n]{3,200})["']""")


# ------------------------------------------------------------------------------------- high entropy

_CANDIDATE = re.compile(r"(?<![A-Za-z0-9+/_=\-])([A-Za-z0-9+/_\-]{32,400}={0,2})(?![A-Za-z0-9+/_=\-])")
HIGH_ENTROPY_BITS = 4.2
_DIGIT = re.compile(r"[0-9]")
_DIGEST_PREFIXES = ("sha1-", "sha256-", "sha384-", "sha512-")      # subresource integrity hashes
_SEQUENTIAL = ("abcdefgh", "bcdefghi", "ghijklmn", "qrstuvwx", "01234567", "12345678", "qwertyui", "asdfghjk")


def _high_entropy_spans(text: str) -> list:
    spans = []
    for m in _CANDIDATE.finditer(text):
        token = m.group(1)
        if token == token.lower() or token == token.upper() or _DIGIT.search(token) is None:
            continue
        if token.count("/") > 2 or token.count("-") > 4 or token.count("_") > 4:
            continue                       # a path, an identifier or a slug, not a key
        before = text[max(0, m.start() - 7):m.start()].lower()
        if before.endswith(_DIGEST_PREFIXES + ("base64,",)) or token.lower().startswith(_DIGEST_PREFIXES):
            continue
        lowered = token.lower()
        if any(seq in lowered for seq in _SEQUENTIAL):
            continue                       # an alphabet or a keyboard row, not a key
        if shannon_entropy(token) < HIGH_ENTROPY_BITS:
            continue
        spans.append(m.span(1))
    return spans


# ------------------------------------------------------------------------------------- API

def _placeholder(kind: str) -> str:
    return "" if kind == "private-span" else f"{PLACEHOLDER_PREFIX}{kind}]"


def _replace_spans(text: str, spans: list, kind: str) -> str:
    if not spans:
        return text
    out, last = [], 0
    for start, end in sorted(spans):
        if start < last:
            continue
        out.append(text[last:start])
        out.append(_placeholder(kind))
        last = end
    out.append(text[last:])
    return "".join(out)


# No rule can match fewer characters than this ("PWD=abcd", "<private>"), so shorter strings —
# tags, types, ids — skip the regexes.
_MIN_MATCH_CHARS = 7


_ALL_KEYWORDS: tuple = ()


def _keywords_in(text: str) -> set:
    """The rules' keywords found in the lower-cased ``text`` (one substring test per keyword)."""
    global _ALL_KEYWORDS
    if not _ALL_KEYWORDS:
        _ALL_KEYWORDS = tuple(sorted({k for rule in _RULES for k in rule.keywords}))
    lowered = text.lower()
    return {k for k in _ALL_KEYWORDS if k in lowered}


def _shape_pass(text: str, collect=None) -> str:
    found = _keywords_in(text)
    for rule in _RULES:
        if not rule.wanted(found):
            continue
        placeholder = _placeholder(rule.kind)
        if collect is not None and rule.rx.search(text):
            collect.append(rule.kind)
        if rule.group == 0:
            new = rule.rx.sub(placeholder, text)
        else:
            new = rule.rx.sub(lambda m, g=rule.group, p=placeholder: m.group(0)[: m.start(g) - m.start(0)] + p
                              + m.group(0)[m.end(g) - m.start(0):], text)
        text = new
    return text


_PRIVATE_OPEN = re.compile(r"<private(?:\s[^>\n]{0,200})?>", _I)
_PRIVATE_CLOSE = re.compile(r"</private\s*>", _I)
_KEY_BEGIN = re.compile(r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = re.compile(r"-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----")


def _block_pass(text: str, collect=None) -> str:
    """``<private>…</private>`` spans (dropped; an unclosed one runs to the end) and private key
    blocks (an unterminated one runs to the end) — found by opening and closing marks, so a
    megabyte without the closing mark costs one scan, not a backtracking regex."""
    for kind, opener, closer, needle in (("private-span", _PRIVATE_OPEN, _PRIVATE_CLOSE, "<private"),
                                          ("private-key", _KEY_BEGIN, _KEY_END, "private key")):
        if needle not in text.lower():
            continue
        out, pos, found = [], 0, False
        while True:
            m = opener.search(text, pos)
            if m is None:
                break
            found = True
            close = closer.search(text, m.end())
            out.append(text[pos:m.start()])
            out.append(_placeholder(kind))
            pos = close.end() if close else len(text)
        if found:
            if collect is not None:
                collect.append(kind)
            out.append(text[pos:])
            text = "".join(out)
    return text


def _redact(text: str, collect=None) -> str:
    if not text or len(text) < _MIN_MATCH_CHARS:
        return text
    text = _block_pass(text, collect)
    text = _shape_pass(text, collect)
    spans = _labelled_spans(text)
    if spans:
        if collect is not None:
            collect.append("secret-assignment")
        text = _replace_spans(text, spans, "secret-assignment")
    spans = _high_entropy_spans(text)
    if spans:
        if collect is not None:
            collect.append("high-entropy")
        text = _replace_spans(text, spans, "high-entropy")
    return text


def redact(text: str) -> str:
    """Return ``text`` with every recognised secret replaced by ``[REDACTED:<kind>]``."""
    return _redact(text)


def find_secrets(text: str) -> list:
    """The kinds of secret found in ``text`` (for tests and audit metadata, never the values)."""
    kinds: list = []
    _redact(text or "", kinds)
    return list(dict.fromkeys(kinds))


def redact_field(name: str, value):
    """A value stored under ``name`` (a JSON field, a column): the whole value when the name is a
    secret's name, else :func:`redact` of it."""
    if isinstance(value, str):
        strength = _label_strength(name) if name and _LABEL_STEMS.search(name) else 0
        if strength and _value_is_secret(value, strength, quoted=True, spaced_code=False):
            return _placeholder("secret-field")
        return redact(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and name and _LABEL_STEMS.search(name):
        if _label_strength(name) == 2 and len(str(value)) >= 4:
            return _placeholder("secret-field")
    return redact_obj(value)


def redact_obj(obj):
    """Redact every string inside a JSON-like structure; a value under a secret's name (``{"password":
    …}``) is redacted whole. Keys are redacted too. Callers bound the nesting depth."""
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, list):
        return [redact_obj(v) for v in obj]
    if isinstance(obj, dict):
        return {redact(k) if isinstance(k, str) else k: redact_field(k if isinstance(k, str) else "", v)
                for k, v in obj.items()}
    return obj
