"""The redactor: every secret shape of the corpus in every surrounding, labelled and unlabelled
values, JSON fields, idempotency, and ordinary text left alone."""

from __future__ import annotations

import pytest

from code_memory.redact import find_secrets, redact, redact_obj
from support.secrets_corpus import SHAPES, SURROUNDINGS, cases


def test_the_corpus_is_large_enough():
    assert len(SHAPES) >= 100 and len(SURROUNDINGS) >= 5 and len(cases()) >= 500


@pytest.mark.parametrize("name,text,value,line_anchored", SHAPES, ids=[s[0] for s in SHAPES])
def test_every_shape_is_redacted_in_every_surrounding(name, text, value, line_anchored):
    for where, fmt, keeps_line in SURROUNDINGS:
        if line_anchored and not keeps_line:
            continue
        out = redact(fmt.format(text))
        assert value not in out, (where, out)
        assert redact(out) == out, ("not idempotent", where)


def test_the_issue_families():
    assert redact("DB_PASS=hunter2xyz") == "DB_PASS=[REDACTED:secret-assignment]"
    assert redact('PASSWORD="correct horse battery staple"') == 'PASSWORD="[REDACTED:secret-assignment]"'
    assert redact("密码：Hunter2abc") == "密码：[REDACTED:secret-label-zh]"
    assert redact("口令是 hunter2!") == "口令是 [REDACTED:secret-label-zh]"
    assert redact("mysql -uroot -p'my secret pw' db") == "mysql -uroot -p'[REDACTED:cli-password]' db"
    assert redact("<PRIVATE>x</PRIVATE>keep") == "keep"
    assert redact('<private reason="medical">x</private>keep') == "keep"
    out = redact("os.environ['API_KEY'] = 'abcdef123456'")
    assert out.startswith("os.environ['API_KEY'] = '[REDACTED:") and "abcdef123456" not in out


ORDINARY = [
    "plain text, nothing secret: tokens are counted",
    "the secret: patience",
    "token = self.next_token()",
    "password = user_password",
    "max_tokens = 4096",
    "def f(token: str, key: bytes) -> None:",
    "password_length = 12",
    'raise ValueError("password must be at least 8 characters")',
    "git rev 3f5669d54579033ec6a1b1c9913510e7e42963cb",
    "uuid 123e4567-e89b-12d3-a456-426614174000",
    "see scripts/code_memory/kv/maintain.py and tests/adversarial/test_kv_repair.py",
    "the key: value pairs are sorted by key",
    "api_version = 2024-01-01",
    'primary_key = "id"',
    "token_url: https://auth.example.com/oauth/token",
    "密码修改后请重新登录",
    "设置密码为空时不允许登录",
    "请输入密码。",
    "The password is required.",
    "public_key = load_pem_public_key(data)",
    "cache_key = f'{user}:{page}'",
    "if secret is None: return",
    "sort_key=lambda r: r[0]",
    "AbstractSingletonProxyFactoryBean",
    "sha512-" + "Ab3dE9fG1hJ2kL4mN5pQ7rS8tU0vW6xY3zB1cD2eF4gH5iJ7kL8mN9oP0qR1sT2uV3wX4yZ5aB6cD7eF8gH9i==",
    "key_id: prod-2024",
    "session_timeout = 3600",
    "我的钥匙丢了，密码锁也打不开",
    '* Pass "-Zbzip2 -z9" to dpkg-deb',
    "    gnutls_x509_crq_set_challenge_password: don't accept null password",
    '<p><a id="ERR_MISSING_PASSPHRASE"></a></p>',
    "    def load_cert_chain(self, certfile, keyfile=None, password=None):",
    'creds = get_secret("prod/db")',
    'log.info(aliceSecret === bobSecret);</code><code class="x">',
    "the secretary = 'Jane'",
    "<code>{ psk: &#x3C;Buffer|TypedArray|DataView>, identity: &#x3C;string> }</code>",
    '        Token.Name.Builtin.Clef: "bold #08547A",',
    '        TOKEN_COMMENT_BEGIN: "begin of comment",',
    'HEADER_X_SERVICE_ACCESS_TOKEN = "X-Service-Access-Token"',
    '        "refresh_token": "svc_oauth__refresh_token",',
    "    'sas':         'sas::SasStyle',",
    '        "id_token": "FOOBAR",',
    "           1f:32:49:f2:7f:ed:80:62:2e:49:b7:ce:84:b9:c1:c5:1a:f6:",
    "PASS: addr2line",
    "--- PASS: TestCache2Expiry (0.00s)",
    '<a href=\\"api.html#pbkdf2password-salt-callback\\"><code>crypto.pbkdf2()</code></a> or <a href=\\"x\\">',
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_left_alone(text):
    assert redact(text) == text
    assert find_secrets(text) == []


def test_values_given_without_an_operator_and_whole_words():
    # a string given to a secret's name by a declaration, a method, a builder or a setter
    for text in ('std::string password("Zq!7 vault pw");', 'token.assign("Zq!7 vault pw", 12);',
                 'Client.builder().user("ops").password("Zq!7 vault pw").build()', 'cfg.setApiToken("Zq!7 vault pw");',
                 'requirepass "Zq!7 vault pw"', '{"note": "db_password = @\\"Zq!7 vault pw\\";"}'):
        assert "vault pw" not in redact(text), text
    # a bare value is the whole word, whatever punctuation it holds; inflected names count
    assert redact("passwords = a,b;c!d") == "passwords = [REDACTED:secret-assignment]"
    assert redact("the db_pass: Zq{{7}x)y$#w}, then") == "the db_pass: [REDACTED:secret-assignment], then"
    assert "Tr0ub4dor&3" not in redact("I set the passwd: Tr0ub4dor&3 yesterday")
    assert redact("connect(user=u, password=pw)") == "connect(user=u, password=pw)"
    # a dotted name is judged by its last part; a leading "token" names a lexer's kind of token
    assert redact('spring.datasource.password="Zq!7 vault pw"') == 'spring.datasource.password="[REDACTED:secret-assignment]"'
    assert redact('TOKEN_SECRET = "Zq!7 vault pw"') == 'TOKEN_SECRET = "[REDACTED:secret-assignment]"'
    assert redact('ROOT_PASSWORD = "root"') == 'ROOT_PASSWORD = "[REDACTED:secret-assignment]"'
    assert redact("db.example.com:5432:app:ops:Zq7vaultpw") == "db.example.com:5432:app:ops:[REDACTED:pgpass-password]"


def test_unlabelled_high_entropy_values_but_not_hex_or_identifiers():
    assert redact("use aZ9kLm3QpR7sT2vW8xY1bC4dE6fG0hJ5nM now") == "use [REDACTED:high-entropy] now"
    assert redact("sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08").startswith("sha 9f86")
    assert redact("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789").startswith("ABCDEFGH")


def test_labelled_values_need_entropy_only_under_weak_names():
    assert redact("SIGNATURE=aZ9kLm3QpR7sT2vW8xY1") == "SIGNATURE=[REDACTED:secret-assignment]"
    assert redact("SIGNATURE=approved") == "SIGNATURE=approved"
    assert redact("REDIS_PASSWORD=83920174") == "REDIS_PASSWORD=[REDACTED:secret-assignment]"


def test_json_fields_named_like_secrets_are_redacted_whole():
    out = redact_obj({"user": "ops", "password": "hunter2", "nested": [{"api_key": 12345678}],
                      "token_count": 7, "note": "DB_PASS=abc12345", "secret_name": "prod-db"})
    assert out == {"user": "ops", "password": "[REDACTED:secret-field]",
                   "nested": [{"api_key": "[REDACTED:secret-field]"}], "token_count": 7,
                   "note": "DB_PASS=[REDACTED:secret-assignment]", "secret_name": "prod-db"}
    assert redact_obj({"password": None, "token": ""}) == {"password": None, "token": ""}


def test_unclosed_blocks_run_to_the_end_and_cost_one_scan():
    assert redact("ok <private>rest of the text") == "ok "
    body = "-----BEGIN RSA PRIVATE KEY-----\n" + "A" * 200_000
    assert redact("x " + body) == "x [REDACTED:private-key]"


def test_the_gate_lists_every_rules_trigger_and_never_skips_a_secret():
    """redact_gate answers "no secret possible" without loading the rules (the hooks' hot path);
    its trigger file must be the rules' own triggers, and on every text of the tuning and
    held-out corpora (and the repository's code) it never skips one the rules would change."""
    import glob
    import os

    from code_memory import redact as redactor
    from code_memory.redact_gate import HEADER, TRIGGERS_FILE, may_hold_secret
    from support.secrets_heldout import all_cases

    with open(TRIGGERS_FILE, encoding="utf-8") as fh:
        assert fh.read() == HEADER + "".join(t + "\n" for t in redactor.triggers()), \
            "stale: run python tools/update_secret_rules.py --triggers-only"
    texts = [t for _c, t, _s in all_cases()] + [t for _c, t, _v in cases()]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for path in glob.glob(os.path.join(root, "scripts", "code_memory", "**", "*.py"), recursive=True):
        with open(path, encoding="utf-8") as fh:
            texts += fh.read().splitlines()
    skipped = [t for t in texts if not may_hold_secret(t)]
    assert len(skipped) > 1000
    assert [t for t in skipped if redactor._redact_plain(redactor._url_decoded_pass(t)) != t] == []
    assert not may_hold_secret("src/payments/gateway_retry.py") and may_hold_secret("cfg/" + "aB3" * 11)
