"""The signal rules: which lines of a session summary state a problem, of which type and subject.

Pure and deterministic, no LLM (docs/evolution.md, Signals). Eight types; each rule is
``(type, subject, regex, evidence)``: a line matching ``regex`` yields the signal ``type:subject``
(the *pattern* recurring detection counts) when the evidence holds:

- ``"statement"`` — the match itself says something went wrong ("测试失败", "Address already in
  use", "timed out", "N+1 查询");
- ``"problem"`` — the match only names a topic or is a lone keyword (docker, 超时, timeout,
  workaround, again); it counts only when the same sentence also says, in other words, that
  something went wrong (报错, 失败, 冲突, error, failed, broken, flaky, …);
- ``"necessity"`` — a manual step ("手动", "by hand") is a capability gap only when the sentence says
  it has to be done that way (每次都得, 只能, 又得, have to, every time, …) or that it went wrong.

A match right after a negation or a prevention (没有, 无, 未, 避免, 防止, no, without, not,
avoid, prevent) does not count ("没有报错", "避免 N+1"), nor a count of zero on either side ("0 条失败",
"errors: 0"). A match that names a setting — followed by a value or a setting verb ("超时设为 2 秒",
"timeout to 10 seconds", "连接超时 300 毫秒", "阈值 1 秒") — is a configuration value stated as a fact:
it needs problem evidence like a keyword. Paths and file names are blanked before matching
("orders/errors.py" is no error). Each line yields at most one signal per pattern: the first
matching rule of that pattern wins.
"""

from __future__ import annotations

import re

SIGNAL_TYPES = ("error", "correction", "capability_gap", "recurring_issue", "environment_issue",
                "dependency_issue", "performance_issue", "security_issue")
EVIDENCE = ("statement", "problem", "necessity")

PROBLEM = re.compile(
    r"报错|出错|错误|失败|问题|异常|不行|无法|不能|冲突|找不到|缺少|缺失|坑|踩|修复|解决|卡住|挂了|挂掉|"
    r"起不来|跑不起来|不工作|没反应|不稳定|偶发|不一致|"
    r"\berror|\bfail|\bissue|\bproblem|\bbroken|\bmissing|\bwrong|not found|\bunable|can'?t|cannot|"
    r"\bconflict|\bfix|\bbr(?:oke|eaks?|oken)\b|\bflaky\b|\bwon'?t (?:start|run|build|work)|"
    r"\b(?:does|did)(?:n'?t| not) (?:work|start|run)|\bnot working\b", re.I)
NECESSITY = re.compile(
    r"每次|每回|都得|都要|只能|不得不|还得|又得|得手动|太麻烦|很麻烦|太烦|容易漏|老是漏|"
    r"\bevery (?:time|release|deploy)|\beach time\b|\b(?:have|has|had) to\b|\bmust\b|\bno way\b|"
    r"\btedious\b|\berror-prone\b", re.I)
_NEGATION = re.compile(r"(?:没有|没|无|未|不再|零|避免|防止|防范|以免|免得|"
                       r"\bno|\bwithout|\bnot|\bzero|\bnever|\bavoid(?:s|ing)?|\bprevent(?:s|ing)?|"
                       r"(?<![\d.])0\s*(?:条|个|次|项|处|例|tests?|cases?)?)\s*$", re.I)
_ZERO_AFTER = re.compile(r"^\s*(?:[:：=]\s*)?[(（]?\s*0(?![\d.])")
# a setting named, not a problem: "超时设为 2 秒", "timeout to 10 seconds", "阈值 1 秒", "= 30"
_SETTING_AFTER = re.compile(
    r"^\s*(?:(?:已|都)?(?:设为|设成|设置为?|设定为?|改成|改为|改到|调到|调成|调整为?|调大|调小|降到|提高到|加到|从)|"
    r"时间|阈值|上限|参数|配置|[=＝]|[:：]?\s*\d|"
    r"(?:to|at|of|=|is|from|limit|setting|value|parameter)\s+[\d(]|(?:setting|value|parameter|config)\b)", re.I)
_SENTENCE = re.compile(r"[。；;！？!?]|\.(?:\s|$)")
_PATHLIKE = re.compile(
    r"(?<![\w.])(?:[\w.@+-]+/)+[\w.@*+-]*|"
    r"(?<![\w/])[\w@+-]+\.(?:py|pyi|js|mjs|cjs|ts|tsx|jsx|json|md|sql|sh|yml|yaml|toml|cfg|ini|txt|html|css|"
    r"go|rs|java|rb|php|lock|xml|vue)\b")

_KEPT_NAMES = re.compile(r"(?:^|/)(?:package-lock\.json|[\w-]+\.lock|pnpm-lock\.yaml|\.env)$")

# Exception class names that belong to a more specific type than "error".
_EXCEPTION_TYPES = {
    "modulenotfounderror": ("dependency_issue", "missing-module"),
    "importerror": ("dependency_issue", "missing-module"),
    "permissionerror": ("environment_issue", "permission"),
    "filenotfounderror": ("environment_issue", "path"),
    "connectionrefusederror": ("environment_issue", "network"),
    "timeouterror": ("performance_issue", "timeout"),
    "memoryerror": ("performance_issue", "memory"),
    "unicodedecodeerror": ("environment_issue", "encoding"),
    "unicodeencodeerror": ("environment_issue", "encoding"),
}

S, P, N = "statement", "problem", "necessity"

RULES_SRC = [
    # error
    ("error", "test-failure", r"测试(?:用例)?(?:失败|不通过|没通过|挂了|报错)|用例(?:失败|没通过|过不了)|"
                              r"\btests? (?:still |are |were )?(?:fail|failed|failing|broke)|"
                              r"\bfailing tests?\b|\bbr(?:oke|eaks?) (?:the )?tests?\b|断言失败|\bassertion ?error", S),
    ("error", "build-failure", r"(?:编译|构建|打包)(?:失败|报错|错误|出错)|\bbuild (?:fail|failed|failure|broke|error)|"
                               r"\bcompil(?:e|ation|er) (?:error|failed|failure)|\bsyntax ?error|语法错误", S),
    ("error", "crash", r"崩溃了?|闪退|\bcrash(?:ed|es)\b|\bsegfault|segmentation fault|\bpanicked\b|core dump", S),
    ("error", "crash", r"\bcrash\b|\bpanic\b", P),
    ("error", "traceback", r"\bTraceback \(most recent call", S),
    ("error", "traceback", r"\bTraceback\b|\bstack ?trace|堆栈", P),
    ("error", "*exception", r"\b([A-Z][A-Za-z]*(?:Error|Exception))\b(?=\s*[:：(])", S),
    ("error", "*exception", r"(?:抛出了?|报了?|遇到了?|出现了?|碰到了?|\bgot\b|\bhit\b|\bthrew\b|\bfail(?:s|ed|ing)? with\b)"
                            r"\s*(?:an?\s+|the\s+)?\b([A-Z][A-Za-z]*(?:Error|Exception))\b", S),
    ("error", "*exception", r"\b([A-Z][A-Za-z]*(?:Error|Exception))\b", P),
    ("error", "general", r"报错|出错|失败(?!时|则|的话|后重试|重试)|\bfail(?:ed|s|ing)\b|\berrored\b|"
                         r"\b(?:got|hit|threw|throws|raised?) an? (?:error|exception)\b", S),
    ("error", "general", r"错误(?!处理|码|信息|提示|日志|页)|异常(?!处理|捕获)|\bfailure\b|\berrors?\b(?! handl)|"
                         r"\bexceptions?\b(?! handl)", P),
    # correction (of Claude's work, not every bug fix)
    ("correction", "user-correction", r"用户(?:指出|纠正|更正|要求改|反馈说|提醒)|被(?:用户)?纠正|纠正了?|"
                                      r"\buser (?:corrected|pointed out|reminded)|\bcorrected (?:by|me)", S),
    ("correction", "revert", r"回滚了|已回滚|撤销了|撤回了|还原了|回退了|改回了?|"
                             r"\breverted\b|\brolled ?back\b|\bbacked out\b|\bundid\b", S),
    ("correction", "revert", r"回滚|撤销|撤回|还原|回退|\brevert\b|\broll ?back\b|\bundo\b", P),
    ("correction", "wrong-approach", r"不应该|本应|搞错|弄错|误解|理解错|错误地|用错|改错|写错|"
                                     r"\bshould(?:n'?t| not)? have\b|\bwrong (?:approach|assumption|file|way|place|tool)\b|"
                                     r"\bmisunderst|\bmistaken(?:ly)?\b|\bby mistake\b|\bmistakes?\b", S),
    # capability_gap
    ("capability_gap", "unsupported", r"不支持|暂不支持|\bnot supported\b|\bunsupported\b|\bdoes(?:n'?t| not) support\b", S),
    ("capability_gap", "manual-step", r"手动|手工|人工(?:操作|处理|检查)|\bmanually\b|\bby hand\b", N),
    ("capability_gap", "missing-tool", r"缺少(?:工具|命令|脚本|功能|能力)|没有(?:现成的?)?(?:工具|命令|脚本|办法)|无法自动|"
                                       r"\bno (?:tool|command|script|way) (?:to|for)\b|\bmissing (?:tool|feature|command|capability)\b|"
                                       r"\black(?:s|ing)? (?:a |an )?(?:tool|feature|way|capability)\b", S),
    ("capability_gap", "workaround", r"变通|绕过|临时方案|权宜|\bworkaround\b|\bwork around\b|\bhack(?:y|ed)?\b", P),
    # recurring_issue (said in the summary itself; cross-session recurrence is the analyzer's job)
    ("recurring_issue", "again", r"又(?:一次)?(?:出现|报|遇到|失败|犯|挂|出了)|再次(?:出现|报错|失败|遇到)|反复(?:出现|报错|失败)|"
                                 r"重复出现|老问题|同样的问题|"
                                 r"\brecurr(?:ing|ed|ence|ent)\b|\bkeeps? (?:happening|failing|coming back|breaking|timing out)\b|"
                                 r"\bsame (?:issue|problem|error|bug)\b|\bstill (?:failing|broken|happening)\b", S),
    ("recurring_issue", "again", r"又一次|又是|再次|反复|第[二三四五六七八九]次|\bagain\b|\bonce more\b|\bsame thing\b", P),
    # environment_issue
    ("environment_issue", "port", r"端口\s*\d*\s*(?:已经|已)?(?:被.{0,12}?)?(?:占用|占了|冲突)|端口(?:已经)?被占|"
                                  r"address already in use|\bEADDRINUSE\b|\bErrno 98\b|"
                                  r"\bport (?:\d+ )?(?:is )?(?:already )?(?:in use|busy|taken|allocated)", S),
    ("environment_issue", "permission", r"权限(?:不足|被拒|问题|错误|不够)|permission denied|\bEACCES\b|\bEPERM\b|"
                                        r"read-only file ?system|只读文件系统|\boperation not permitted\b", S),
    ("environment_issue", "path", r"路径(?:错误|不对|问题|不存在)|找不到(?:文件|路径|目录|命令)|no such file|\bENOENT\b|"
                                  r"command not found|命令未找到|\bwrong (?:path|directory|cwd)\b", S),
    ("environment_issue", "env-var", r"环境变量|\benv(?:ironment)? var(?:iable)?s?\b|\.env\b|\$PATH\b", P),
    ("environment_issue", "python-env", r"\bvenv\b|virtualenv|\bconda\b|\bpyenv\b|python ?版本|python (?:version|interpreter)|\bpip\b", P),
    ("environment_issue", "node-env", r"\bnvm\b|node ?版本|\bnode(?:\.js)? (?:version|v?\d+)|\bnpx\b", P),
    ("environment_issue", "shell", r"\bbash ?[345](?:\.\d+)?\b|\bzsh\b|shell ?版本|\bshell (?:version|compat)|declare -A|\bmacOS\b|\bWSL\b", P),
    ("environment_issue", "docker", r"\bdocker\b|容器|\bcontainers?\b|\bk8s\b|kubernetes|\bpodman\b", P),
    ("environment_issue", "encoding", r"乱码|\bmojibake\b|\bgarbled\b", S),
    ("environment_issue", "encoding", r"编码|\bencoding\b|\blocale\b|\bcharset\b|\butf-?8\b", P),
    ("environment_issue", "network", r"网络|代理|\bproxy\b|\bDNS\b|\bECONNREFUSED\b|connection refused|\bSSL\b|\bTLS\b|"
                                     r"certificate|证书|\bfirewall\b|防火墙", P),
    # dependency_issue
    ("dependency_issue", "missing-module", r"No module named|Cannot find module|找不到模块|缺少依赖|依赖缺失|"
                                           r"\bmissing (?:dependenc|package|module)|\bunresolved import", S),
    ("dependency_issue", "version-conflict", r"版本冲突|版本不兼容|版本(?:太低|太高|不对|不匹配)|\bversion (?:conflict|mismatch)\b|"
                                             r"\bpeer dep\w* conflict|\bERESOLVE\b", S),
    ("dependency_issue", "version-conflict", r"不兼容|\bincompatible\b|\bpeer dep|\bbreaking change", P),
    ("dependency_issue", "lockfile", r"lock ?file|package-lock|yarn\.lock|poetry\.lock|pnpm-lock|Cargo\.lock|依赖锁", P),
    ("dependency_issue", "install-failure", r"安装(?:失败|报错|出错|不上)|\binstall(?:ation)? (?:failed|fails|error)\b|"
                                            r"\b(?:pip|npm|yarn|pnpm|poetry|cargo|maven|gradle|brew|apt(?:-get)?) install\b.*"
                                            r"(?:fail|失败|error|报错)", S),
    ("dependency_issue", "upgrade", r"升级|降级|\bupgrad(?:e|ed|ing)\b|\bdowngrad(?:e|ed|ing)\b|\bpin(?:ned)? (?:the )?version|锁定版本", P),
    ("dependency_issue", "general", r"依赖|\bdependenc(?:y|ies)\b|第三方(?:库|包)|\bpackages?\b", P),
    # performance_issue
    ("performance_issue", "timeout", r"超时了|(?:一直|经常|频繁|总是|老是|偶尔|又)超时|超时(?:报错|失败|错误|异常)|"
                                     r"超时(?=\s*(?:$|[，,。；;！!？?)）]|导致|报|后))|"
                                     r"\btimed out\b|\btim(?:es|ing) out\b|deadline exceeded|\btimeouts? (?:error|exception)", S),
    ("performance_issue", "timeout", r"超时|\btime ?outs?\b", P),
    ("performance_issue", "memory", r"内存(?:泄漏|泄露|溢出|不足|暴涨)|\bOOM\b|out of memory|memory leak|\bheap overflow", S),
    ("performance_issue", "memory", r"内存(?:占用)?|\bheap (?:size|usage)|\bmemory (?:usage|footprint)", P),
    ("performance_issue", "query", r"N\+1|慢查询|\bslow quer(?:y|ies)\b|full table scan|全表扫描|缺少索引|\bmissing index", S),
    ("performance_issue", "slow", r"太慢|很慢|变慢|慢了|卡顿|卡死|\b(?:too|really|very|so|is|are|was|were|got|getting) slow\b|"
                                  r"\bslowed down\b|\bsluggish\b|\bhangs\b|\bhung\b", S),
    ("performance_issue", "slow", r"性能|耗时|延迟|\bslow(?:er|ly|ness)?\b|\blatency\b|\bperformance\b|\bthroughput\b", P),
    ("performance_issue", "cpu", r"\bCPU\b|高负载|\bhigh load\b|\bbusy loop\b", P),
    # security_issue
    ("security_issue", "secret-leak", r"泄露|泄漏|明文(?:密码|密钥|存储)|硬编码(?:的)?(?:密码|密钥|token|凭证)|"
                                      r"硬编码(?:了|的)?\s*(?:api ?key|secret)|\bhard-?coded (?:password|secret|api ?key|key|token|credential)s?\b|"
                                      r"\b(?:secret|token|key|credential)s? (?:leak|leaked|exposed)\b", S),
    ("security_issue", "secret-leak", r"密钥|私钥|凭证|\bsecrets?\b|\bcredentials?\b|\bapi[_ ]?keys?\b", P),
    ("security_issue", "injection", r"SQL ?注入|命令注入|\b(?:SQL|command|shell) injection\b|\bXSS\b|跨站|\bCSRF\b|\bSSRF\b|"
                                    r"路径穿越|path traversal", S),
    ("security_issue", "injection", r"注入|\beval\(|shell=True", P),
    ("security_issue", "auth", r"越权|权限绕过|认证绕过|鉴权(?:问题|缺失|漏洞)|\bprivilege escalation\b|\bunauthori[sz]ed access\b|"
                               r"\bauth(?:entication|orization)? bypass\b|\bbroken auth", S),
    ("security_issue", "vulnerability", r"漏洞|安全(?:问题|隐患|风险|漏洞)|\bvulnerab|\bCVE-\d{4}-\d+|\bsecurity (?:issue|risk|hole|fix|bug)\b", S),
    ("security_issue", "vulnerability", r"npm audit|pip-audit", P),
]


def compile_rules(extra=None) -> list:
    """The rule table compiled: built-ins plus ``extra`` (config ``signals.extra_rules``: a list of
    ``{"type", "subject", "pattern", "needs_problem"?}``; checked first; ``needs_problem`` true
    makes the rule a keyword that needs problem evidence). Raises ValueError for a bad extra rule."""
    rules = []
    for item in extra or []:
        if not isinstance(item, dict) or item.get("type") not in SIGNAL_TYPES:
            raise ValueError(f"signals.extra_rules: bad rule {item!r} (type must be one of {', '.join(SIGNAL_TYPES)})")
        subject = str(item.get("subject") or "custom")
        if not re.fullmatch(r"[a-z0-9][a-z0-9\-]{0,39}", subject):
            raise ValueError(f"signals.extra_rules: subject {subject!r} must be lowercase letters, digits, '-'")
        try:
            regex = re.compile(str(item.get("pattern") or ""), re.I)
        except re.error as exc:
            raise ValueError(f"signals.extra_rules: bad pattern for {subject}: {exc}") from None
        if not item.get("pattern"):
            raise ValueError(f"signals.extra_rules: rule {subject} has no pattern")
        rules.append((item["type"], subject, regex, P if item.get("needs_problem") else S))
    for sig_type, subject, pattern, evidence in RULES_SRC:
        flags = 0 if subject == "*exception" else re.I
        rules.append((sig_type, subject, re.compile(pattern, flags), evidence))
    return rules


def _negated(line: str, start: int, end: int) -> bool:
    return bool(_NEGATION.search(line[max(0, start - 8):start]) or _ZERO_AFTER.match(line[end:end + 6]))


def _first_match(regex, line: str, blank: tuple = ()):
    """The first match of ``regex`` that is not negated (and does not overlap ``blank``, a span)."""
    for match in regex.finditer(line):
        if blank and match.start() < blank[1] and match.end() > blank[0]:
            continue
        if not _negated(line, match.start(), match.end()):
            return match
    return None


def _sentence(line: str, start: int, end: int) -> tuple:
    """``(offset, text)`` of the sentence of ``line`` holding ``[start, end)``."""
    begin = 0
    for cut in _SENTENCE.finditer(line):
        if cut.end() <= start:
            begin = cut.end()
        elif cut.start() >= end:
            return begin, line[begin:cut.start()]
    return begin, line[begin:]


def _evidence_holds(sig_type: str, evidence: str, line: str, match) -> bool:
    if evidence == S and not (sig_type == "performance_issue" and _SETTING_AFTER.match(line[match.end():match.end() + 16])):
        return True
    offset, sentence = _sentence(line, match.start(), match.end())
    own = (match.start() - offset, match.end() - offset)
    if _first_match(PROBLEM, sentence, own):
        return True
    return evidence == N and bool(_first_match(NECESSITY, sentence, own))


def blank_paths(line: str) -> str:
    """``line`` with paths and file names replaced by spaces of the same length (offsets kept);
    lock files and manifests stay (they are what a dependency problem is about)."""
    return _PATHLIKE.sub(lambda m: m.group(0) if _KEPT_NAMES.search(m.group(0)) else " " * len(m.group(0)), line)


def classify_line(line: str, rules: list) -> list:
    """``[(type, subject, matched_text)]`` for one line, at most one per pattern."""
    return [(t, s, m) for t, s, m, _e in classify(line, rules)]


def classify(line: str, rules: list) -> list:
    """``[(type, subject, matched_text, evidence)]`` for one line, at most one per pattern (the
    first rule that matches it: statements come before keywords); ``evidence`` is "statement" when
    the match said it alone, else what else was needed. A line may name several problems ("测试失败和
    构建失败"); how they count for a session is signals.signals_in's business."""
    found: dict = {}
    line = blank_paths(line)
    for sig_type, subject, regex, evidence in rules:
        if subject != "*exception" and (sig_type, subject) in found:
            continue
        match = next((m for m in regex.finditer(line) if not _negated(line, m.start(), m.end())
                      and _evidence_holds(sig_type, evidence, line, m)), None)
        if not match:
            continue
        if subject == "*exception":
            name = match.group(1).lower()
            sig_type, subject = _EXCEPTION_TYPES.get(name, (sig_type, name))
        found.setdefault((sig_type, subject), (match.group(0), evidence))
    return [(t, s, m, e) for (t, s), (m, e) in found.items()]
