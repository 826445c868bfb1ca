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

import codecs
import functools
import re
from urllib.parse import unquote

from .redact_gate import may_hold_secret
from .secret_rules import SHAPE_KINDS, context_spans, gitleaks, keywords, prose_spans, shannon_entropy

PLACEHOLDER_PREFIX = "[REDACTED:"
_I = re.IGNORECASE


# ------------------------------------------------------------------------------------- labelled values

# Words of a name (split on _ - . and camelCase) that make any value a secret …
_STRONG_WORDS = frozenset("""password passwd passphrase passcode pass pwd pw psw secret secrets token
credential credentials creds apikey privatekey secretkey accesskey authtoken accesstoken refreshtoken
sessiontoken clientsecret sas pat psk""".split())
# … pairs of words that do too …
_STRONG_PAIRS = frozenset([("api", "key"), ("private", "key"), ("secret", "key"), ("access", "key"),
                           ("auth", "key"), ("client", "key"), ("signing", "key"), ("encryption", "key"),
                           ("master", "key"), ("account", "key"), ("app", "secret"), ("app", "key"),
                           ("session", "key"), ("service", "key"), ("license", "key"), ("db", "key"),
                           ("auth", "code"), ("access", "code"), ("connection", "string")])
_STRONG_SUFFIXES = ("password", "passwd", "passphrase", "secret", "token", "apikey", "credential", "credentials")
# … words that begin like one of them (passwort, secrete) — but for a few that mean something else
_STRONG_STEMS = ("passw", "secret")
_NOT_SECRETS = frozenset("secretary secretaries secretariat secretion secretions secreted".split())
# … words that make only a high-entropy value one …
_WEAK_WORDS = frozenset("key auth sig signature salt hmac cookie session cred license seed dsn".split())
# … and last words that make the name a setting about a secret, not the secret.
_SETTING_WORDS = frozenset("""length len size count limit limits max min ttl timeout expiry expires expiration
version type types id ids name names file files path paths dir url uri urls endpoint endpoints header headers
env var field fields prompt hint policy policies format mode enabled disabled required hash hashes algorithm
algo alg prefix suffix regex pattern label placeholder column table index idx store manager provider
service class module kind scope scopes schema template reset change changed vault arn ref budget budgets usage
used left remaining total estimate method methods tag tags node estimated chars bytes lines words rate ratio per cost costs spent price count
identifier""".split())
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-$@")
_STEM_WORDS = ("pass", "pwd", "pw", "psw", "pat", "psk", "secret", "sig", "salt", "session", "sas", "seed", "token",
               "key", "auth", "cred", "cookie", "connection", "hmac", "license", "dsn")
_STEMS = "|".join(_STEM_WORDS)
_LABEL_STEMS = re.compile(_STEMS, _I)
_LABEL_STEMS_LOWER = re.compile(_STEMS)
_NAME_TAIL = re.compile(r"[A-Za-z0-9_.\-$@]{0,80}")
# a space may stand before the name's closing quote: the detection view reads an escaped quote
# (``\\"token\\": …`` in a JSON string) as a space and the quote
_OPERATOR = re.compile(r"""[ \t]?["'`]?\]?[ \t]*(=>|:=|\?=|\+=|!==?|===?|=|:(?!:)|：)[ \t]*(?:@[ \t]?(?=["']))?""")   # @"…": Objective-C
_ARGUMENT = re.compile(r"""["'`][ \t]*,[ \t]*(?=["'])""")
_VALUE = re.compile(r"""'((?:[^'\\\n]|\\.){0,300})'|"((?:[^"\\\n]|\\.){0,300})"|`([^`\n]{0,300})`|([^\s"'`,;)}\]<>]{1,300})""")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_WORD = re.compile(r"""[^\s"'`]{0,300}""")
# a name written as code (db_pass, apiToken), not a word of prose (Password)
_CODE_NAME = re.compile(r"_|[a-z][A-Z]")
_TAG = re.compile(r"<[A-Za-z/!]|&(?:lt|#x3[Cc]|#60);")
_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}


def _whole_word(text: str, at: int) -> str:
    """The word at ``at`` without a sentence's end (``.,;``) or a bracket it does not open."""
    word = _WORD.match(text, at).group(0)
    tag = _TAG.search(word)
    if tag:
        word = word[:tag.start()]          # alice.<span class=…>: HTML ends the word
    while word:
        if word[-1] in ".,;:":
            word = word[:-1]
        elif word[-1] in _CLOSERS and word.count(word[-1]) > word.count(_CLOSERS[word[-1]]):
            word = word[:-1]
        else:
            break
    return word
_REFERENCE = re.compile(r"""(?x)
    ^\$\{?[A-Za-z_][\w.]*\}?$ | ^%[A-Za-z_]\w*%$ | ^\{\{[^{}]*\}\}$ | ^<[^>]*>$ | \[REDACTED | \*{3,} | ^x{3,}$ | ^\.{3}$
  | (?-i:^\[[A-Z_]+\]$ | ^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$ | ^_Z[A-Za-z0-9_]+$) | ^%[sd]$
  | ^(?:none|null|nil|true|false|undefined|empty|n/?a|todo|tbd|changeme|redacted|required|optional|secret|password
       |pass|passwd|pw|pwd|token|key|mock[_-].*
       |str|string|bytes|int|integer|bool|boolean|float|number|any|object|dict|list|optional\[.*|self|cls|this|new
       |your[_-].*|my[_-].*|<.*|xxx.*|example.*|dummy.*|fake.*|test|placeholder|\.\.\.|foo|bar|baz|qux|foobar)$
  | ^[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+$
  | ^(?:str|string|bytes|int|integer|bool|boolean|float|number|any|object)\?$ | ^\#[0-9a-f]{3,8}$ | …$ | \.\.\.$
  | ^\{[A-Za-z_][\w.]*\}?$ | ^[\[{(]
  | ^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+$ | ^[\w.]*\( | ^[A-Za-z_][\w.]*\[ | ^(?:getenv|environ)\b | ^\$[\w{(]
  | ^\$\{[^}]*\}$ | ^(?:/|~/|\./|\.\./)[\w./-]*$
""", re.IGNORECASE)


_FILE_EXTENSION = re.compile(r"[a-z][a-z0-9]{0,6}")
# A type annotation's value: a CamelCase name, acronyms and digits allowed (PKCS7PrivateKeyTypes)
_TYPE_NAME = re.compile(r"(?:[A-Z][a-z]+|[A-Z]{2,}[0-9]*(?![a-z])|[0-9]+)+(?:\[.*)?")


def _name_words(name: str) -> list:
    words = []
    for part in re.split(r"[_.\-$@]+", name):
        words.extend(w.lower() for w in _CAMEL.findall(part))
    return words


@functools.lru_cache(maxsize=4096)
def _label_strength(name: str) -> int:
    """2 = a secret's name, 1 = may name a secret (high-entropy values only), 0 = not a secret."""
    head, dot, ext = name.rpartition(".")
    if dot and head and _FILE_EXTENSION.fullmatch(ext) and not _label_strength(ext):
        return 0                           # 118_arm_pass_all.dpatch: a file's name
    if "." in name.strip("."):
        return _label_strength(name.strip(".").rpartition(".")[2])    # Token.Keyword, config.password: the last part
    words = _name_words(name)
    if not words or words[-1] in _SETTING_WORDS or (len(words) > 1 and words[-1] in ("public", "pub")):
        return 0
    if words[0] == "token" and len(words) > 1 and not any(w in _STRONG_WORDS for w in words[1:]):
        words = words[1:]                  # TOKEN_COMMENT_BEGIN, token_number: a lexer's kind of token
        if not any(w in _WEAK_WORDS or w.endswith(_STRONG_SUFFIXES) for w in words):
            return 1
    if any(w in ("public", "pub", "primary", "foreign", "sort", "partition", "cache", "idempotency") for w in words):
        return 0
    if any(w in _STRONG_WORDS for w in words) or any(p in _STRONG_PAIRS for p in zip(words, words[1:])):
        return 2
    if any(w.endswith(_STRONG_SUFFIXES) for w in words):
        return 2                           # PGPASSWORD, githubtoken, apisecret
    if any(w.startswith(_STRONG_STEMS) and w not in _NOT_SECRETS for w in words):
        return 2                           # passwords, secretes, passwort: a secret's word, inflected or misspelt
    return 1 if any(w in _WEAK_WORDS for w in words) else 0


def _random_looking(value: str, min_len: int = 16, min_entropy: float = 3.5) -> bool:
    if len(value) < min_len or shannon_entropy(value) < min_entropy:
        return False
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    return has_digit and has_alpha


_PLAIN_PUNCTUATION = frozenset("/._-:,;!?'\"()")


def _machine_made(value: str) -> bool:
    """A value nobody writes as prose: random-looking, or a word mixing letters with digits and
    symbols (``Tr0ub4dor&3``, ``m{{h}o)p${e]n…``) beyond a path's or a sentence's punctuation."""
    if any(c.isspace() for c in value):
        return False
    if _random_looking(value, min_len=12, min_entropy=3.0):
        return True
    if len(value) < 8 or not any(c.isalpha() for c in value):
        return False
    symbols = {c for c in value if not c.isalnum() and c not in _PLAIN_PUNCTUATION}
    return len(symbols) >= 2 or (len(symbols) == 1 and any(c.isdigit() for c in value))


def _names_itself(value: str, name: str) -> bool:
    """A value that is its own name or a label made of the name's words (``"X-Xet-Access-Token"``
    under ``…_XET_ACCESS_TOKEN``, ``"hf_oauth__refresh_token"`` under ``refresh_token``)."""
    lowered, own = value.lower(), name.lower()
    if lowered == own or (len(own) >= 5 and lowered.endswith(own) and lowered[-len(own) - 1] in "_-.:/"):
        return True
    words = _name_words(value)
    return len(words) > 1 and not any(c.isspace() for c in value) and set(words) <= set(_name_words(name))


def _value_is_secret(value: str, strength: int, quoted: bool, spaced_code: bool) -> bool:
    stripped = value.strip()
    if len(stripped) < 3 or _REFERENCE.search(stripped):
        return False
    if strength == 1:
        return (_random_looking(stripped) and not any(c.isspace() for c in stripped)
                and not re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+){2,}", stripped))
    if quoted:
        return True
    if spaced_code and re.fullmatch(r"[A-Za-z_]+", stripped):
        return False                       # `password = user_password`: a variable, not a value
    if re.fullmatch(r"[a-z]+(?:_[a-z]+)+|[A-Z]+(?:_[A-Z]+)+|[a-z]+(?:[A-Z][a-z]+)+", stripped):
        return False                       # `api_key=api_key`, `token=accessToken`: a name, not a value
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
        given = None if op or arg else _QUOTED_AFTER_NAME.match(text, end)
        if op is None and arg is None and given is None:
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
        if given is not None:
            if _given_value_is_secret(text, start, name, given):
                spans.append(given.span("value"))
                covered = given.end("value")
            continue
        strength = _label_strength(name)
        if name.lower() == "pass" and op is not None and op.group(1) in (":", "："):
            continue                       # PASS: addr2line, --- PASS: TestX — a test's status, not a label
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
        if not quoted:
            raw = raw.rstrip(".")              # the end of a sentence, not of the value
        if not quoted and raw.endswith(":"):
            continue                       # "label: name: value" — the next name is the label
        line_start = text.rfind("\n", max(0, start - 120), start) + 1
        at_line_start = (line_start > 0 or start < 120) and text[line_start:start].strip(" \t-\"'") == ""
        code_name = _CODE_NAME.search(name) is not None
        bare_word = value.group(4) is not None and strength == 2 and "(" not in raw
        if bare_word:
            word = _whole_word(text, value.start())
            if len(word) > len(raw):
                raw = word                 # db_pass: m{{h}o)p${e]…, secrete = A,.:-¨@*: the whole word
        if operator == ":" and not quoted and not at_line_start and not code_name:
            # "Password: value" inside a sentence: only a machine-made value counts
            if not _machine_made(raw):
                continue
        spaced_code = (op is not None and operator != ":" and not quoted
                       and text[op.start(1) - 1:op.start(1)] in (" ", "\t"))
        after = text[value.start() + len(raw):value.start() + len(raw) + 40]
        if not quoted and re.fullmatch(r"[A-Za-z_]+", raw):
            if after[:1] in (",", ")") or raw.lower() == name.lower() or raw.lower() in _name_words(name):
                continue                   # f(token=token, …): a variable passed on
            if after.strip() and not after.lstrip().startswith(("#", "//")):
                continue                   # "Two-pass: read the whole history": prose, not a value
            if operator == ":" and _TYPE_NAME.fullmatch(raw):
                continue                   # "password: SecretStr": a type annotation
        if not quoted and operator == ":" and _TYPE_NAME.fullmatch(raw) and after.lstrip()[:1] in (",", ")", "=", ""):
            continue                       # "private_key: PKCS7PrivateKeyTypes,": a parameter's type
        if operator in ("==", "===", "!=", "!==") and re.fullmatch(r"[A-Za-z_]+", raw):
            continue                       # token == "with": a comparison with a keyword
        if op is None and (any(c.isspace() for c in raw) or re.fullmatch(r"[A-Za-z_]+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+", raw)):
            continue                       # ("password", "host", "port"): a list of names
        if quoted and _names_itself(raw, name):
            continue                       # LAST_TOKEN = "LAST_TOKEN", ACCESS_TOKEN_HEADER = "X-Access-Token"
        if not _value_is_secret(raw, strength, quoted, spaced_code):
            continue
        vstart = value.start() + (0 if value.group(4) is not None else 1)
        vend = vstart + len(raw)
        spans.append((vstart, vend))
        covered = vend
    for rx in (_VALUE_FIRST, _ENV_LINE, _NAME_VALUE_PAIR, _SPACED_NAME):
        for m in rx.finditer(text):
            name, value = m.group("name"), m.group("value")
            if _label_strength(name) != 2 or _REFERENCE.search(value.strip()):
                continue
            if rx is _SPACED_NAME and not _random_looking(value, min_len=8, min_entropy=2.5):
                continue
            spans.append(m.span("value"))
    # <password>value</password> and <add key="Password" value="…"/>
    for m in _XML_ELEMENT.finditer(text):
        if _label_strength(m.group(1)) == 2 and not _REFERENCE.search(m.group(2).strip()):
            spans.append(m.span(2))
    for m in _XML_ATTRIBUTE.finditer(text):
        if _label_strength(m.group(1)) == 2 and not _REFERENCE.search(m.group(2).strip()):
            spans.append(m.span(2))
    return spans


_VALUE_FIRST = re.compile(r"""(["'])(?P<value>[^"'\n]{3,300})\1[ \t]*(?:===?|!==?)[ \t]*(?P<name>[A-Za-z_][\w.]{0,80})""")
_ENV_LINE = re.compile(r"^[ \t]*(?:ENV|ARG)[ \t]+(?P<name>[A-Za-z_][\w.-]{0,80})[ \t]+(?![ \t=])(?P<value>[^\n]*?\S)[ \t]*$",
                       re.MULTILINE)
_NAME_VALUE_PAIR = re.compile(r"""\bname["']?[ \t]*:[ \t]*["']?(?P<name>[A-Za-z_][\w.-]{0,80})["']?[ \t]*(?:,|\n)[ \t-]*"""
                              r"""["']?value["']?[ \t]*:[ \t]*["']?(?P<value>[^\s"',}]{3,300})""")
_SPACED_NAME = re.compile(r"(?<![\w-])(?P<name>[a-z]+(?:_[a-z]+)+)[ \t]+(?P<value>[A-Za-z0-9+/=_.~!@#$%^&*-]{8,300})(?![\w-])",
                          re.IGNORECASE)
# A string given to a secret's name without an operator: ``secret "…"`` (Ruby, Tcl, nginx-like
# configs), ``std::string secret("…")``, ``secret.assign("…")``, ``.password("…")`` (a builder),
# ``setPassword("…")`` — matched where a name ends
_QUOTED_AFTER_NAME = re.compile(r"""(?:[ \t]+|(?P<call>\([ \t]*))@?(?P<q>["'])(?P<value>[^"'\n]{3,300})(?P=q)""")
_NOT_DECLARATIONS = frozenset("return await yield throw raise print echo puts assert if elif while not and or in is case".split())
_VERBS = frozenset("""get read load fetch find lookup has is check verify validate hash encode decode encrypt decrypt
generate gen create new make delete remove del rotate parse mask redact reset change update clear revoke refresh request
issue store save write put compare match prompt ask input use require ensure to from""".split())


_DECLARED_TYPE = re.compile(r"([\w:>*&]+)[ \t]+$")


def _given_value_is_secret(text: str, start: int, name: str, given) -> bool:
    """Whether the string ``given`` (a :data:`_QUOTED_AFTER_NAME` match) after the name at
    ``start`` is that secret's value."""
    value = given.group("value")
    if _REFERENCE.search(value.strip()):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    in_sentence = text[line_start:start].strip() != ""
    if given.group("call") is None:        # secrete "…": a config line, or code
        if start and text[start - 1] in "\"'`":
            return False                   # id="ERR_MISSING_PASSPHRASE" …: the name is a quoted string
        if name.lower() == "pass" or (in_sentence and not _CODE_NAME.search(name) and not _machine_made(value)):
            return False                   # pass "-O2" to cc, the token "…": a sentence's word
        return _label_strength(name) == 2
    head, dot, function = name.rpartition(".")
    if dot and function in ("assign", "set"):
        return _label_strength(head) == 2  # secret.assign("…")
    words = _name_words(function)
    if not words or words[0] in _VERBS:
        return False                       # get_secret("name"), hash_password("…"): reads or makes one
    if words[0] in ("set", "with") and len(words) > 1:
        return _label_strength(function[len(words[0]):]) == 2  # setPassword("…"), withToken("…")
    before = text[max(line_start, start - 40):start]
    declared = _DECLARED_TYPE.search(before)
    if declared and declared.group(1).split(":")[-1] in _NOT_DECLARATIONS:
        declared = None                    # return secret("…"): a call, not a declaration
    if dot or text.startswith(".", start) or before.endswith(".") or declared:
        return _label_strength(function) == 2  # .password("…") (a builder), std::string secret("…")
    return False


_XML_ELEMENT = re.compile(r"<([A-Za-z_][\w.\-]{0,60})>([^<\n]{3,200})</\1>")
_XML_ATTRIBUTE = re.compile(r"""(?i)\bkey=["']([^"'\n]{1,60})["']\s+value=["']([^"'\n]{3,200})["']""")


# ------------------------------------------------------------------------------------- high entropy

# a run of token characters, up to three dot-separated parts (a JWT-like token), also right after
# ``=`` (``payload=<token>``); a file extension after it (``<token>.txt``) does not make it a
# dotted name
_CANDIDATE = re.compile(r"(?<![A-Za-z0-9+/_\-.])[A-Za-z0-9+/_\-]{6,}(?:\.[A-Za-z0-9+/_\-]{6,}){0,2}={0,2}"
                        r"(?![A-Za-z0-9+/_=\-]|\.(?![A-Za-z]{1,5}(?![A-Za-z0-9_\-]))[A-Za-z0-9])")
HIGH_ENTROPY_BITS = 4.2
# A name people write, not a key: an identifier made of words (BetaCodeExecutionTool20250825Param,
# addCompiledTagPattern), or a path or slug whose every part is a word, an acronym, digits or hex
# (640_m68k_fix-TLS_GD-relocation, privkeys/1DF48228FEFF3EC2…). Every quantifier is bounded by what
# follows it, so a long token costs one pass.
_ACRONYM = r"[A-Z]{2,6}(?=[A-Z][a-z]|[0-9]|$)"
_IDENTIFIER = re.compile(r"(?:[a-z]{2,}|[A-Z][a-z]{2,}|" + _ACRONYM + r")(?:[A-Z][a-z]{2,}|[0-9]{2,}(?![0-9])|"
                         + _ACRONYM + r")*")
_NAME_PART = re.compile(r"[a-z][a-z0-9]*|[0-9A-F]+|[0-9a-f]+|[A-Z][A-Z0-9]{1,7}|[0-9]+")
_PART_SEPARATORS = re.compile(r"[/\-_.+]")


def _is_name(token: str) -> bool:
    parts = [p for p in _PART_SEPARATORS.split(token.rstrip("=")) if p]
    if len(parts) == 1:
        return bool(_IDENTIFIER.fullmatch(parts[0]))
    return all(_NAME_PART.fullmatch(p) or _IDENTIFIER.fullmatch(p) for p in parts)


_DIGIT = re.compile(r"[0-9]")
_DIGEST_PREFIXES = ("sha1-", "sha256-", "sha384-", "sha512-")      # subresource integrity hashes
_SEQUENTIAL = ("abcdefgh", "bcdefghi", "ghijklmn", "qrstuvwx", "01234567", "12345678", "qwertyui", "asdfghjk")


def _high_entropy_spans(text: str) -> list:
    spans = []
    for m in _CANDIDATE.finditer(text):
        token = m.group(0)
        if len(token) < 32:
            continue
        if "." in token:
            first = token.split(".", 1)[0]
            if ("/" in token or "+" in token or sum(c.isdigit() for c in first) < 2
                    or first == first.lower() or first == first.upper()):
                continue                   # a dotted name (a.b.C1), a path, a file name
        if token == token.lower() or token == token.upper() or _DIGIT.search(token) is None:
            continue
        if len(token) <= 400 and (token.count("/") > 2 or token.count("-") > 4 or token.count("_") > 4):
            continue                       # a path, an identifier or a slug, not a key
        if _is_name(token):
            continue                       # words, acronyms, digits and hex: a name, a slug, a fingerprint
        word_start = max(text.rfind(" ", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
        before_token = text[word_start:m.start()]
        if ("://" in before_token and not before_token.endswith(("=", "?", "&"))) or token.startswith("_Z"):
            continue                       # a URL's path (not a query value), a C++ symbol
        before = text[max(0, m.start() - 7):m.start()].lower()
        if before.endswith(_DIGEST_PREFIXES + ("base64,",)) or token.lower().startswith(_DIGEST_PREFIXES):
            continue
        head = token[:4096]
        lowered = head.lower()
        if len(token) <= 400 and any(seq in lowered for seq in _SEQUENTIAL):
            continue                       # an alphabet or a keyboard row, not a key
        if shannon_entropy(head) < HIGH_ENTROPY_BITS:
            continue
        spans.append((m.start(), m.end(), "high-entropy"))
    return spans


# ------------------------------------------------------------------------------------- API

def _placeholder(kind: str) -> str:
    return "" if kind == "private-span" else f"{PLACEHOLDER_PREFIX}{kind}]"


# Characters of an encoded secret (base64, base64url, hex, most vendor tokens). A secret a rule
# found inside a longer run of them is redacted to the run's ends: a regex with an upper bound
# (``{20,300}``) must not leave the tail of a 4 KB kubeconfig key or session token behind.
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-")
_WHOLE_TOKEN_MIN = 16


def _whole_token(text: str, start: int, end: int) -> tuple:
    if end - start < _WHOLE_TOKEN_MIN:
        return start, end
    while start > 0 and text[start - 1] in _TOKEN_CHARS:
        start -= 1
    n = len(text)
    while end < n and text[end] in _TOKEN_CHARS:
        end += 1
    pad = 0
    while end < n and text[end] == "=" and pad < 2:
        end, pad = end + 1, pad + 1
    return start, end


# The kind shown when finds overlap: a vendor's own name first (ours keep the names they always had,
# github-token before gitleaks' github-pat), then any named rule, then the generic passes.
_GENERIC = {"secret-assignment": 1, "secret-in-prose": 1, "high-entropy": 2, **{k: -1 for k in SHAPE_KINDS}}


def _span_order(span: tuple) -> tuple:
    return span[0], -span[1], _GENERIC.get(span[2], 0)


def _replace_spans(text: str, spans: list) -> str:
    if not spans:
        return text
    out, last = [], 0
    for start, end, kind in sorted(spans, key=_span_order):
        if end <= last:
            continue
        if start < last:                   # overlapping finds: the earlier one's placeholder covers both
            last = end
            continue
        out.append(text[last:start])
        out.append(_placeholder(kind))
        last = end
    out.append(text[last:])
    return "".join(out)


# No rule can match fewer characters than this ("PWD=abcd", "<private>"), so shorter strings —
# tags, types, ids — skip the regexes.
_MIN_MATCH_CHARS = 7

_PRIVATE_OPEN = re.compile(r"<private(?:\s[^>\n]{0,200})?>", _I)
_PRIVATE_CLOSE = re.compile(r"</private\s*>", _I)
_KEY_BEGIN = re.compile(r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----")
_KEY_END = re.compile(r"-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----")
_PUTTY_BEGIN = re.compile(r"PuTTY-User-Key-File-\d")
_PUTTY_END = re.compile(r"Private-MAC: [0-9a-f]+")


def _block_pass(text: str, collect=None) -> str:
    """``<private>…</private>`` spans (dropped; an unclosed one runs to the end) and private key
    blocks (an unterminated one runs to the end) — found by opening and closing marks, so a
    megabyte without the closing mark costs one scan, not a backtracking regex."""
    for kind, opener, closer, needle in (("private-span", _PRIVATE_OPEN, _PRIVATE_CLOSE, "<private"),
                                          ("private-key", _KEY_BEGIN, _KEY_END, "private key"),
                                          ("private-key", _PUTTY_BEGIN, _PUTTY_END, "putty-user-key-file")):
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


_PLACEHOLDER = re.compile(r"\[REDACTED:[a-z0-9-]+\]")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_NON_SPACE = re.compile(r"\S*")


def _percent_runs(text: str) -> list:
    """``[(start, end)]`` of the words (runs of non-space) holding a ``%XX`` escape — found from
    the escapes, so text without them costs one search."""
    runs, pos = [], 0
    for m in _PERCENT.finditer(text):
        if m.start() < pos:
            continue
        start = m.start()
        while start > pos and not text[start - 1].isspace():
            start -= 1
        pos = _NON_SPACE.match(text, m.start()).end()
        runs.append((start, pos))
    return runs


def _url_decoded_pass(text: str, collect=None) -> str:
    """Runs of URL-encoded text (``password%3Dhunter2``, ``%22token%22%3A%20%22…``) are decoded
    (twice at most) and redacted as decoded text; a run that holds no secret is left as it was."""
    if "%" not in text:
        return text
    out, last = [], 0
    for start, end in _percent_runs(text):
        decoded = text[start:end]
        for _ in range(2):
            step = unquote(decoded, errors="replace")
            if step == decoded:
                break
            decoded = step
        found: list = []
        redacted = _redact_plain(decoded, found)
        if found:
            if collect is not None:
                collect.extend(found)
            out += [text[last:start], redacted]
            last = end
    return "".join(out) + text[last:] if out else text


_ESCAPE = re.compile(r"\\([\"'/\\nrt])")
_ESCAPED = {"n": "\n", "r": "\r", "t": "\t"}
# gitleaks' rules are ASCII: every other character reads as one space to them (an encode error
# handler, so a Chinese paragraph costs one pass in C)
codecs.register_error("code_memory.space", lambda e: (" " * (e.end - e.start), e.end))
_BRACKETS = str.maketrans("()[]{}<>|,", "          ")


def _detection_view(text: str) -> str:
    """``text`` as the rules see it, character for character the same length: a backslash escape
    of a JSON or shell string (``\\"``, ``\\n``) reads as a space and the character it stands for,
    so ``"{\\"token\\": \\"…\\"}"`` is matched like ``{"token": "…"}``."""
    if "\\" not in text:
        return text
    return _ESCAPE.sub(lambda m: " " + _ESCAPED.get(m.group(1), m.group(1)), text)


def _redact_plain(text: str, collect=None) -> str:
    text = _block_pass(text, collect)
    view = _detection_view(text)
    lowered = view.lower()
    if len(lowered) != len(view):          # a few characters change length when lower-cased
        lowered = view
    # gitleaks' rules are ASCII rules (RE2): Chinese text around a token reads as spaces to them
    ascii_view = (view if view.isascii() else view.encode("ascii", "code_memory.space").decode("ascii")).translate(_BRACKETS)
    spans = gitleaks().spans(ascii_view, lowered if view.isascii() else ascii_view.lower())
    spans += [(s, e, k) for s, e, k in context_spans(view, lowered) + prose_spans(view, lowered)
              if k in SHAPE_KINDS or not _REFERENCE.search(view[s:e])]
    spans += [(s, e, "secret-assignment") for s, e in _labelled_spans(view)]
    spans += _high_entropy_spans(view)
    if not spans:
        return text
    spans = [(*_whole_token(view, s, e), kind) for s, e, kind in spans]
    if PLACEHOLDER_PREFIX in text:          # already redacted: a placeholder is never a secret's part
        done = [m.span() for m in _PLACEHOLDER.finditer(text)]
        spans = [(s, e, k) for s, e, k in spans if not any(s < de and ds < e for ds, de in done)]
        if not spans:
            return text
    if collect is not None:
        collect.extend(kind for _s, _e, kind in sorted(spans, key=_span_order))
    return _replace_spans(text, spans)


_GATED_CHARS = 4096                 # longer texts nearly always hold a trigger: go straight to the rules


def _redact(text: str, collect=None) -> str:
    if not text or len(text) < _MIN_MATCH_CHARS or (len(text) <= _GATED_CHARS and not may_hold_secret(text)):
        return text
    return _redact_plain(_url_decoded_pass(text, collect), collect)


def triggers() -> list:
    """What :mod:`code_memory.redact_gate` must look for so that it never skips a text one of the
    rules here would match (``data/secret_triggers.txt`` is this list; a test keeps them equal):
    the rules' keywords, the label words, the block marks, ``%`` and the backslash. A pair of
    label words is ``a<TAB>b``. Triggers that hold a shorter trigger are left out."""
    label_words = set(_STEM_WORDS) | _STRONG_WORDS | _WEAK_WORDS | set(_STRONG_SUFFIXES)
    plain = set(keywords()) | label_words | {"<private", "private key", "putty-user-key-file", "%", "\\"}
    plain = {t for t in plain if not any(o != t and o in t for o in plain)}
    pairs = {f"{a}\t{b}" for a, b in _STRONG_PAIRS if not any(t in a or t in b for t in plain)}
    return sorted(plain) + sorted(pairs)


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
