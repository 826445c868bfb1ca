"""Fake secrets in the shapes developers paste into sessions. Each entry is
``(name, text as it would appear, the secret part that must never be written or sent)``.

All values are made up; the vendor prefixes are assembled at run time so the source file itself
does not look like a leaked credential to a secret scanner.
"""

_A = "abcdefghijklmnopqrstuvwxyz"
_D = "0123456789"


def _alnum(n: int, seed: int = 0) -> str:
    pool = (_A + _A.upper() + _D) * 4
    return "".join(pool[(i * 7 + seed) % len(pool)] for i in range(n))


def _hex(n: int, seed: int = 0) -> str:
    pool = "0123456789abcdef"
    return "".join(pool[(i * 5 + seed) % 16] for i in range(n))


_PEM_BODY = "MIIEowIBAAKCAQEA7" + _alnum(60, 3) + "\n" + _alnum(64, 4) + "\n" + _alnum(40, 5)

SECRETS = [
    ("aws-access-key-id", "export AWS_ACCESS_KEY_ID=AKIA" + "Q3EXAMPLE7ZZ4KQ9", "AKIAQ3EXAMPLE7ZZ4KQ9"),
    ("aws-secret-key", "aws_secret_access_key = " + _alnum(40, 11), _alnum(40, 11)),
    ("github-token", "git clone https://github.com/me/x # token " + "gh" + "p_" + _alnum(36, 1),
     "gh" + "p_" + _alnum(36, 1)),
    ("github-pat", "GH=" + "github" + "_pat_" + _alnum(22, 2) + "_" + _alnum(59, 3),
     _alnum(22, 2) + "_" + _alnum(59, 3)),
    ("gitlab-token", "use gl" + "pat-" + _alnum(20, 4) + " for CI", _alnum(20, 4)),
    ("openai-key", "OPENAI key is s" + "k-proj-" + _alnum(48, 5), _alnum(48, 5)),
    ("anthropic-key", "my key s" + "k-ant-api03-" + _alnum(40, 6), _alnum(40, 6)),
    ("stripe-key", "stripe: s" + "k_live_" + _alnum(24, 7), _alnum(24, 7)),
    ("slack-token", "bot token xo" + "xb-" + _D + "-" + _alnum(24, 8), _alnum(24, 8)),
    ("slack-webhook", "curl https://hooks.slack.com/services/T0" + _alnum(8, 9) + "/B0" + _alnum(8, 10)
     + "/" + _alnum(24, 12), _alnum(24, 12)),
    ("google-api-key", "maps key AI" + "za" + _alnum(35, 13), "za" + _alnum(35, 13)),
    ("jwt", "Authorization header had eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIn0." + _alnum(43, 14),
     _alnum(43, 14)),
    ("bearer-token", "curl -H 'Authorization: Bearer " + _alnum(32, 15) + "' https://api.local",
     _alnum(32, 15)),
    ("private-key", "-----BEGIN RSA PRIVATE KEY-----\n" + _PEM_BODY + "\n-----END RSA PRIVATE KEY-----",
     _alnum(64, 4)),
    ("openssh-key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA" + _alnum(50, 16)
     + "\n-----END OPENSSH PRIVATE KEY-----", _alnum(50, 16)),
    ("url-password", "DATABASE_URL=postgres://admin:Hunter2Sup3r@db.internal:5432/app", "Hunter2Sup3r"),
    ("env-password", "DB_PASSWORD=CorrectHorseBattery9", "CorrectHorseBattery9"),
    ("env-quoted", 'export API_SECRET="q9Zx7Lm2Np4Rt6"', "q9Zx7Lm2Np4Rt6"),
    ("json-secret", '{"client_secret": "cs_' + _alnum(20, 17) + '"}', _alnum(20, 17)),
    ("yaml-token", "auth_token: " + _alnum(26, 18), _alnum(26, 18)),
    ("password-flag", "psql --password=Pa55w0rdXYZ -h db", "Pa55w0rdXYZ"),
    ("mysql-password", "mysql -u root -pR00tPassw0rd mydb", "R00tPassw0rd"),
    ("npm-token", "//registry.npmjs.org/:_authToken=np" + "m_" + _alnum(36, 19), _alnum(36, 19)),
    ("pypi-token", "TWINE_PASSWORD=pyp" + "i-AgEIcHlwaS5vcmc" + _alnum(60, 20), _alnum(60, 20)),
    ("huggingface-token", "hf token h" + "f_" + _alnum(34, 21), _alnum(34, 21)),
    ("sendgrid-key", "S" + "G." + _alnum(22, 22) + "." + _alnum(43, 23), _alnum(43, 23)),
    ("azure-account-key", "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=" + _alnum(86, 24) + "==",
     _alnum(86, 24)),
    ("query-token", "https://oapi.dingtalk.com/robot/send?access_token=" + _hex(64, 25), _hex(64, 25)),
    ("alibaba-access-key", "阿里云 AccessKey ID LT" + "AI" + _alnum(20, 26), "AI" + _alnum(20, 26)),
    ("tencent-secret-id", "腾讯云 SecretId AK" + "ID" + _alnum(32, 27), _alnum(32, 27)),
    ("vault-token", "VAULT token hv" + "s." + _alnum(90, 28), _alnum(90, 28)),
    ("digitalocean-token", "do" + "p_v1_" + _hex(64, 29), _hex(64, 29)),
    ("basic-auth-flag", "curl -u deploy:S3cretDeployPw https://ci.local", "S3cretDeployPw"),
    ("private-span", "remember <private>my bank PIN is 4417-9921</private> please", "4417-9921"),
]

SECRET_VALUES = [value for _name, _text, value in SECRETS]
