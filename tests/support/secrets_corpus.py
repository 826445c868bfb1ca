"""Fake secrets in the shapes developers paste into sessions, and the surroundings they appear in.

``SHAPES`` entries are ``(name, text as it would appear, the secret part that must never be written
or sent, line_anchored)``; a line-anchored shape (YAML, TOML, properties, .env) only means a secret
at the start of a line. ``SURROUNDINGS`` are the places a shape turns up in: plain, Markdown
backticks and fences, after Chinese punctuation, in a Chinese sentence, in a log line, in a list,
in parentheses. :func:`cases` crosses them. ``SECRETS`` (name, text, value) is the plain set the
older tests use.

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


def _upper(n: int, seed: int = 0) -> str:
    pool = _A.upper() + _D
    return "".join(pool[(i * 7 + seed) % len(pool)] for i in range(n))


def _uuid(seed: int) -> str:
    h = _hex(32, seed)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def j(*parts: str) -> str:
    """Join pieces of a prefix (so the file holds no literal token prefix)."""
    return "".join(parts)


_PEM_BODY = "MIIEowIBAAKCAQEA7" + _alnum(60, 3) + "\n" + _alnum(64, 4) + "\n" + _alnum(40, 5)
_JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIn0." + _alnum(43, 14)


def _pem(kind: str, body: str) -> str:
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{body}\n-----END {kind}PRIVATE KEY-----"


def _shapes() -> list:
    s = []

    def add(name, text, value, line=False):
        s.append((name, text, value, line))

    n = 100
    # --- cloud providers
    add("aws-access-key-id", "export AWS_ACCESS_KEY_ID=" + j("AK", "IA") + "Q3EXAMPLE7ZZ4KQ9", "Q3EXAMPLE7ZZ4KQ9")
    add("aws-session-key-id", "key id " + j("AS", "IA") + _upper(16, 1), _upper(16, 1))
    add("aws-secret-key", "aws_secret_access_key = " + _alnum(40, 11), _alnum(40, 11))
    add("aws-bedrock-key", "bedrock key " + j("AB", "SK") + _alnum(120, 2), _alnum(120, 2))
    add("azure-account-key", "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=" + _alnum(86, 24) + "==",
        _alnum(86, 24))
    add("azure-sas", "https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&ss=b&sig=" + _alnum(43, 25) + "%3D",
        _alnum(43, 25))
    add("azure-ad-client-secret", "client secret is ab" + "c8Q~" + _alnum(34, 26), _alnum(34, 26))
    add("gcp-api-key", "maps key " + j("AI", "za") + _alnum(35, 13), _alnum(35, 13))
    add("google-oauth-client-secret", "client_secret " + j("GOC", "SPX-") + _alnum(28, 27), _alnum(28, 27))
    add("google-oauth-access-token", "access token " + j("ya", "29.") + _alnum(60, 28), _alnum(60, 28))
    add("google-oauth-refresh-token", "refresh " + j("1/", "/0") + _alnum(40, 29), _alnum(40, 29))
    add("alibaba-access-key", "阿里云 AccessKey ID " + j("LT", "AI") + _alnum(20, 26), _alnum(20, 26))
    add("tencent-secret-id", "腾讯云 SecretId " + j("AK", "ID") + _alnum(32, 27), _alnum(32, 27))
    add("volcengine-access-key", "火山引擎 " + j("AK", "LT") + _alnum(40, 30), _alnum(40, 30))
    add("digitalocean-pat", j("do", "p_v1_") + _hex(64, 29), _hex(64, 29))
    add("digitalocean-oauth", j("do", "o_v1_") + _hex(64, 30), _hex(64, 30))
    add("databricks-token", "token " + j("da", "pi") + _hex(32, 31), _hex(32, 31))
    add("vault-service-token", "VAULT token " + j("hv", "s.") + _alnum(90, 28), _alnum(90, 28))
    add("vault-batch-token", j("hv", "b.") + _alnum(140, 32), _alnum(140, 32))
    add("terraform-cloud-token", _alnum(14, 33) + j(".atl", "asv1.") + _alnum(64, 34), _alnum(64, 34))
    # --- source hosting and CI
    add("github-token", "git clone https://github.com/me/x # token " + j("gh", "p_") + _alnum(36, 1), _alnum(36, 1))
    add("github-oauth", j("gh", "o_") + _alnum(36, 35), _alnum(36, 35))
    add("github-app-token", "installation " + j("gh", "s_") + _alnum(36, 36), _alnum(36, 36))
    add("github-refresh-token", j("gh", "r_") + _alnum(36, 37), _alnum(36, 37))
    add("github-pat", "GH=" + j("github", "_pat_") + _alnum(22, 2) + "_" + _alnum(59, 3),
        _alnum(22, 2) + "_" + _alnum(59, 3))
    add("gitlab-pat", "use " + j("gl", "pat-") + _alnum(20, 4) + " for CI", _alnum(20, 4))
    add("gitlab-runner-token", "runner " + j("gl", "rt-") + _alnum(24, 38), _alnum(24, 38))
    add("gitlab-deploy-token", j("gl", "dt-") + _alnum(20, 39), _alnum(20, 39))
    add("gitlab-trigger-token", j("gl", "ptt-") + _hex(40, 40), _hex(40, 40))
    add("gitlab-oauth-secret", j("gl", "oas-") + _alnum(64, 41), _alnum(64, 41))
    add("gitlab-registration-token", j("GR13", "48941") + _alnum(20, 42), _alnum(20, 42))
    add("atlassian-token", "jira " + j("ATA", "TT3") + _alnum(180, 43), _alnum(180, 43))
    add("clojars-token", j("CLOJ", "ARS_") + _alnum(60, 44), _alnum(60, 44))
    add("artifactory-key", j("AK", "Cp") + _alnum(69, 45), _alnum(69, 45))
    add("npm-token", "//registry.npmjs.org/:_authToken=" + j("np", "m_") + _alnum(36, 19), _alnum(36, 19))
    add("npm-legacy-token", "//registry.npmjs.org/:_authToken=" + _uuid(46), _uuid(46))
    add("pypi-token", "TWINE_PASSWORD=" + j("pyp", "i-AgEIcHlwaS5vcmc") + _alnum(60, 20), _alnum(60, 20))
    add("rubygems-token", j("ruby", "gems_") + _hex(48, 47), _hex(48, 47))
    add("pulumi-token", j("pu", "l-") + _hex(40, 48), _hex(40, 48))
    add("openshift-token", "oc login --token=" + j("sha", "256~") + _alnum(43, 49), _alnum(43, 49))
    # --- chat, mail, payments, SaaS
    add("slack-bot-token", "bot token " + j("xo", "xb-") + _D + "-" + _alnum(24, 8), _alnum(24, 8))
    add("slack-user-token", j("xo", "xp-") + "1234567890-1234567890-1234567890-" + _alnum(32, 50), _alnum(32, 50))
    add("slack-app-token", "app-level " + j("xa", "pp-") + "1-A0" + _upper(8, 51) + "-1234567890-" + _hex(64, 51),
        _hex(64, 51))
    add("slack-config-token", j("xo", "xe-") + "1-" + _alnum(146, 52), _alnum(146, 52))
    add("slack-webhook", "curl https://hooks.slack.com/services/T0" + _alnum(8, 9) + "/B0" + _alnum(8, 10)
        + "/" + _alnum(24, 12), _alnum(24, 12))
    add("discord-webhook", "https://discord.com/api/webhooks/123456789012345678/" + _alnum(68, 53), _alnum(68, 53))
    add("discord-bot-token", "bot " + "M" + _alnum(25, 54) + "." + _alnum(6, 55) + "." + _alnum(38, 56),
        _alnum(38, 56))
    add("telegram-bot-token", "bot 1234567890:" + j("A", "A") + _alnum(33, 57), _alnum(33, 57))
    add("teams-webhook", "https://acme.webhook.office.com/webhookb2/" + _uuid(58) + "@" + _uuid(59)
        + "/IncomingWebhook/" + _hex(32, 60) + "/" + _uuid(61), _hex(32, 60))
    add("feishu-webhook", "https://open.feishu.cn/open-apis/bot/v2/hook/" + _uuid(62), _uuid(62))
    add("wecom-webhook", "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=" + _uuid(63), _uuid(63))
    add("dingtalk-token", "https://oapi.dingtalk.com/robot/send?access_token=" + _hex(64, 25), _hex(64, 25))
    add("sendgrid-key", j("S", "G.") + _alnum(22, 22) + "." + _alnum(43, 23), _alnum(43, 23))
    add("mailgun-key", "mailgun " + j("ke", "y-") + _alnum(32, 64), _alnum(32, 64))
    add("sendinblue-key", j("xkey", "sib-") + _hex(64, 65) + "-" + _alnum(16, 65), _hex(64, 65))
    add("twilio-api-key", "twilio " + j("S", "K") + _hex(32, 66), _hex(32, 66))
    add("stripe-secret-key", "stripe: " + j("s", "k_live_") + _alnum(24, 7), _alnum(24, 7))
    add("stripe-restricted-key", j("r", "k_live_") + _alnum(24, 67), _alnum(24, 67))
    add("stripe-webhook-secret", "STRIPE_WEBHOOK_SECRET=" + j("wh", "sec_") + _alnum(32, 68), _alnum(32, 68))
    add("square-token", j("sq", "0atp-") + _alnum(22, 69), _alnum(22, 69))
    add("shopify-token", j("sh", "pat_") + _hex(32, 70), _hex(32, 70))
    add("shopify-shared-secret", j("sh", "pss_") + _hex(32, 71), _hex(32, 71))
    add("twilio-sendgrid-in-json", '{"sendgrid": "' + j("S", "G.") + _alnum(22, 72) + "." + _alnum(43, 73) + '"}',
        _alnum(43, 73))
    add("facebook-token", j("EA", "AC") + _alnum(120, 74), _alnum(120, 74))
    add("dropbox-token", j("s", "l.") + _alnum(135, 75), _alnum(135, 75))
    add("mapbox-secret-token", j("s", "k.eyJ") + _alnum(60, 76) + "." + _alnum(22, 77), _alnum(60, 76))
    add("linear-key", j("lin", "_api_") + _alnum(40, 78), _alnum(40, 78))
    add("notion-token", j("nt", "n_") + "12345678901" + _alnum(35, 79), _alnum(35, 79))
    add("newrelic-key", j("NR", "AK-") + _upper(27, 80), _upper(27, 80))
    add("postman-key", j("PM", "AK-") + _hex(24, 81) + "-" + _hex(34, 82), _hex(34, 82))
    add("sentry-token", j("sntr", "yu_") + _hex(64, 83), _hex(64, 83))
    add("doppler-token", j("dp", ".pt.") + _alnum(43, 84), _alnum(43, 84))
    add("grafana-cloud-token", j("gl", "c_") + _alnum(60, 85), _alnum(60, 85))
    add("grafana-sa-token", j("gl", "sa_") + _alnum(32, 86) + "_" + _hex(8, 86), _alnum(32, 86))
    add("1password-token", j("ops", "_eyJ") + _alnum(250, 87), _alnum(250, 87))
    add("age-secret-key", j("AGE-SE", "CRET-KEY-1") + _upper(58, 88), _upper(58, 88))
    add("planetscale-password", j("pscale", "_pw_") + _alnum(43, 89), _alnum(43, 89))
    add("prefect-token", j("pn", "u_") + _alnum(36, 90), _alnum(36, 90))
    # --- LLM vendors
    add("openai-key", "OPENAI key is s" + "k-proj-" + _alnum(48, 5), _alnum(48, 5))
    add("openai-legacy-key", "key " + j("s", "k-") + _alnum(48, 91), _alnum(48, 91))
    add("anthropic-key", "my key s" + "k-ant-api03-" + _alnum(40, 6), _alnum(40, 6))
    add("huggingface-token", "hf token h" + "f_" + _alnum(34, 21), _alnum(34, 21))
    add("groq-key", j("gs", "k_") + _alnum(52, 92), _alnum(52, 92))
    add("langsmith-key", j("lsv", "2_pt_") + _hex(32, 93) + "_" + _hex(10, 93), _hex(32, 93))
    add("perplexity-key", j("ppl", "x-") + _alnum(48, 94), _alnum(48, 94))
    add("replicate-token", j("r", "8_") + _alnum(37, 95), _alnum(37, 95))
    add("xai-key", j("xa", "i-") + _alnum(80, 96), _alnum(80, 96))
    # --- tokens in general
    add("jwt", "Authorization header had " + _JWT, _alnum(43, 14))
    add("bearer-token", "curl -H 'Authorization: Bearer " + _alnum(32, 15) + "' https://api.local", _alnum(32, 15))
    add("basic-auth-header", "Authorization: Basic " + _alnum(28, 97) + "=", _alnum(28, 97))
    add("api-key-header", "curl -H 'X-Api-Key: " + _alnum(32, 98) + "' https://api.local", _alnum(32, 98))
    # --- private keys and blocks
    add("private-key", _pem("RSA ", _PEM_BODY), _alnum(64, 4))
    add("openssh-key", _pem("OPENSSH ", "b3BlbnNzaC1rZXktdjEAAAAA" + _alnum(50, 16)), _alnum(50, 16))
    add("ec-private-key", _pem("EC ", "MHcCAQEEI" + _alnum(60, 99)), _alnum(60, 99))
    add("pkcs8-private-key", _pem("", "MIIEvQIBADANBgkqhkiG9w0B" + _alnum(60, n + 1)), _alnum(60, n + 1))
    add("pgp-private-key", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF" + _alnum(60, n + 2)
        + "\n-----END PGP PRIVATE KEY BLOCK-----", _alnum(60, n + 2))
    add("private-span", "remember <private>my bank PIN is 4417-9921</private> please", "4417-9921")
    add("private-span-upper", "note <PRIVATE>salary 88k, do not store</PRIVATE> end", "salary 88k")
    add("private-span-reason", 'x <private reason="medical">diagnosis: sinusitis</private> y', "sinusitis")
    add("private-span-unclosed", "trailing <private>everything after this is private", "everything after")
    # --- URLs
    add("url-password", "DATABASE_URL=postgres://admin:Hunter2Sup3r@db.internal:5432/app", "Hunter2Sup3r")
    add("redis-url-password", "redis://:R3disPassw0rd@cache:6379/0", "R3disPassw0rd")
    add("mongodb-url-password", "mongodb+srv://app:M0ng0Secret!@cluster0.example.net/db", "M0ng0Secret!")
    add("amqp-url-password", "amqp://guest:Rabb1tPw9@mq:5672/", "Rabb1tPw9")
    add("git-url-token", "git clone https://oauth2:Xq7TokEnValue99@gitlab.example.com/g/p.git", "Xq7TokEnValue99")
    add("query-api-key", "GET https://api.example.com/v1/x?api_key=" + _alnum(24, n + 3) + "&q=1", _alnum(24, n + 3))
    add("query-signature", "https://s3.amazonaws.com/b/o?X-Amz-Signature=" + _hex(64, n + 4), _hex(64, n + 4))
    add("query-token", "wss://push.example.com/socket?token=" + _alnum(30, n + 5), _alnum(30, n + 5))
    # --- .env and configuration
    add("env-password", "DB_PASSWORD=CorrectHorseBattery9", "CorrectHorseBattery9")
    add("env-db-pass", "DB_PASS=Tr0ub4dor3x", "Tr0ub4dor3x")
    add("env-postgres-pw", "POSTGRES_PW=pgS3cretVal", "pgS3cretVal")
    add("env-mysql-root-pwd", "MYSQL_ROOT_PWD=r00tPwd2024", "r00tPwd2024")
    add("env-smtp-pass", "SMTP_PASS=mailpass77", "mailpass77")
    add("env-numeric-password", "REDIS_PASSWORD=83920174", "83920174")
    add("env-quoted", 'export API_SECRET="q9Zx7Lm2Np4Rt6"', "q9Zx7Lm2Np4Rt6")
    add("env-quoted-spaces", 'APP_PASSWORD="correct horse battery staple"', "correct horse battery staple")
    add("env-single-quoted-spaces", "SERVICE_TOKEN='blue whale 42 swims'", "blue whale 42 swims")
    add("env-random-token", "export SERVICE_TOKEN=" + _alnum(40, n + 6), _alnum(40, n + 6))
    add("env-signing-key", "JWT_SIGNING_KEY=" + _alnum(48, n + 7), _alnum(48, n + 7))
    add("env-weak-name-entropy", "SESSION_COOKIE=" + _alnum(40, n + 8), _alnum(40, n + 8))
    add("windows-set", "set DB_PASSWORD=W1ndowsPw!", "W1ndowsPw!")
    add("powershell-env", '$env:API_KEY = "' + _alnum(32, n + 9) + '"', _alnum(32, n + 9))
    add("dockerfile-env", "ENV DATABASE_PASSWORD=d0ckerPw88", "d0ckerPw88")
    add("docker-run-env", "docker run -e MYSQL_PASSWORD=runPw9911 mysql:8", "runPw9911")
    add("kubectl-literal", "kubectl create secret generic db --from-literal=password=kubePw4455", "kubePw4455")
    add("json-secret", '{"client_secret": "cs_' + _alnum(20, 17) + '"}', _alnum(20, 17))
    add("json-password-spaces", '{"user": "ops", "password": "tall brown fence 7"}', "tall brown fence 7")
    add("yaml-token", "auth_token: " + _alnum(26, 18), _alnum(26, 18), True)
    add("yaml-password-quoted", '  password: "two words here"', "two words here", True)
    add("toml-password", 'password = "t0mlSecretValue"', "t0mlSecretValue", True)
    add("properties-password", "spring.datasource.password=Spr1ngPw!", "Spr1ngPw!", True)
    add("python-environ", "os.environ['OPENAI_API_KEY'] = '" + _alnum(32, n + 10) + "'", _alnum(32, n + 10))
    add("python-environ-dq", 'os.environ["DB_PASSWORD"]="pyEnvPw123"', "pyEnvPw123")
    add("python-setdefault", 'os.environ.setdefault("API_TOKEN", "setdef' + _alnum(16, n + 11) + '")',
        _alnum(16, n + 11))
    add("python-assignment", 'SECRET_KEY = "dj4ngo-' + _alnum(40, n + 12) + '"', _alnum(40, n + 12))
    add("node-process-env", "process.env.STRIPE_SECRET = '" + _alnum(30, n + 13) + "';", _alnum(30, n + 13))
    add("php-array", "'password' => 'phpArrPw77',", "phpArrPw77")
    add("go-short-assign", 'apiToken := "goTok' + _alnum(20, n + 14) + '"', _alnum(20, n + 14))
    add("xml-element", "<password>xmlSecret88</password>", "xmlSecret88")
    add("nuget-config", '<add key="ClearTextPassword" value="nugetPw9900" />', "nugetPw9900")
    add("ini-password", "[db]\npassword = iniPassw0rd", "iniPassw0rd", True)
    # --- command lines
    add("password-flag", "psql --password=Pa55w0rdXYZ -h db", "Pa55w0rdXYZ")
    add("mysql-password", "mysql -u root -pR00tPassw0rd mydb", "R00tPassw0rd")
    add("mysql-quoted", "mysql -u root -p'my s3cret pw' mydb", "my s3cret pw")
    add("mysql-double-quoted", 'mysqldump -uroot -p"dump pass 9" app > a.sql', "dump pass 9")
    add("sshpass", "sshpass -p 'Ssh!Pass42' ssh deploy@host", "Ssh!Pass42")
    add("sshpass-bare", "sshpass -pBarePw123 scp a b:", "BarePw123")
    add("docker-login", "docker login -u bot -p dckrP4ssw0rd registry.example.com", "dckrP4ssw0rd")
    add("docker-login-long", "docker login --username bot --password 'dckr long pw' ghcr.io", "dckr long pw")
    add("podman-login", "podman login -p Podm4nPw quay.io", "Podm4nPw")
    add("redis-cli", "redis-cli -h cache -a R3disCliPw ping", "R3disCliPw")
    add("mongosh", "mongosh --username app --password M0ngoshPw host/db", "M0ngoshPw")
    add("sqlcmd", "sqlcmd -S db -U sa -P 'Sq1Server!' -Q 'select 1'", "Sq1Server!")
    add("openssl-passin", "openssl rsa -in k.pem -passin pass:OpenS5lPw", "OpenS5lPw")
    add("basic-auth-flag", "curl -u deploy:S3cretDeployPw https://ci.local", "S3cretDeployPw")
    add("wget-password", "wget --user=bob --password=WgetPw991 https://x/y", "WgetPw991")
    add("pgpassword", "PGPASSWORD=PgEnvPw77 psql -h db", "PgEnvPw77")
    add("cli-token-flag", "gh auth login --with-token --token " + _alnum(36, n + 15), _alnum(36, n + 15))
    # --- Chinese labels
    add("zh-password-colon", "数据库密码：Db@2024pass", "Db@2024pass")
    add("zh-password-ascii-colon", "密码:qwe123ASD", "qwe123ASD")
    add("zh-key", "密钥: " + _alnum(32, n + 16), _alnum(32, n + 16))
    add("zh-passphrase-is", "服务器口令是 Zhang#2024!", "Zhang#2024!")
    add("zh-password-wei", "测试环境的密码为TestPw2024", "TestPw2024")
    add("zh-private-key", "私钥：" + _alnum(44, n + 17), _alnum(44, n + 17))
    add("zh-token", "令牌=" + _alnum(30, n + 18), _alnum(30, n + 18))
    add("zh-auth-code", "QQ邮箱授权码：abcdqwerzxcv1234", "abcdqwerzxcv1234")
    add("zh-password-paren", "root 密码（生产）：Pr0d!Root", "Pr0d!Root")
    add("en-password-is", "btw my password is hunter2!x", "hunter2!x")
    # --- unlabelled high-entropy values
    add("high-entropy-base62", "use " + _alnum(40, n + 19) + " for the staging box", _alnum(40, n + 19))
    add("high-entropy-base64", "value " + _alnum(48, n + 20) + "+/" + _alnum(14, n + 21) + "==",
        _alnum(48, n + 20))
    return s


SHAPES = _shapes()

# (name, format, keeps a line-anchored shape at the start of its line)
SURROUNDINGS = [
    ("plain", "{}", True),
    ("backticks", "`{}`", False),
    ("fence", "Run this:\n```bash\n{}\n```\ndone", True),
    ("zh-punctuation", "配置如下：{}。请保存", False),
    ("zh-sentence", "我把它记下来了 {} 以后要用", False),
    ("log-line", "2026-05-01 12:00:01 ERROR request failed: {}", False),
    ("list-item", "Notes:\n{}\n- next item", True),
    ("parentheses", "(see {})", False),
    ("quote", "> {}", False),
]


def cases():
    """Every shape in every surrounding it can appear in: ``[(case id, text, secret value)]``."""
    out = []
    for name, text, value, line_anchored in SHAPES:
        for where, fmt, keeps_line in SURROUNDINGS:
            if line_anchored and not keeps_line:
                continue
            out.append((f"{name}@{where}", fmt.format(text), value))
    return out


SECRETS = [(name, text, value) for name, text, value, _line in SHAPES]
SECRET_VALUES = [value for _name, _text, value in SECRETS]
