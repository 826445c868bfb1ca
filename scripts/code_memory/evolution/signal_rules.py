"""The signal rules: which lines of a session summary are signals, of which type and subject.

Pure and deterministic, no LLM (docs/evolution.md, Signals). Eight types; each rule is
``(type, subject, regex, needs_problem)``: a line matching ``regex`` yields the signal
``type:subject`` (the *pattern* recurring detection counts). Rules marked ``needs_problem`` name a
topic (docker, venv, a lock file …) and only count when the same line also says something went
wrong (报错, 失败, 问题, error, failed, broken, …), so routine work is not reported as an issue.
A match right after a negation (没有, 无, 未, no, without, not) does not count ("没有报错"), nor a
count of zero on either side ("0 条失败", "0 errors", "errors: 0", "failed=0").
Each line yields at most one signal per type: the first matching rule of that type wins.
"""

from __future__ import annotations

import re

SIGNAL_TYPES = ("error", "correction", "capability_gap", "recurring_issue", "environment_issue",
                "dependency_issue", "performance_issue", "security_issue")

PROBLEM = re.compile(
    r"报错|出错|错误|失败|问题|异常|不行|无法|不能|冲突|找不到|缺少|缺失|坑|踩|修复|解决|卡住|挂了|"
    r"\berror|\bfail|\bissue|\bproblem|\bbroken|\bmissing|\bwrong|not found|\bunable|can'?t|cannot|"
    r"\bconflict|\bfix|\bbr(?:oke|eaks?|oken)\b", re.I)
_NEGATION = re.compile(r"(?:没有|没|无|未|不再|零|\bno|\bwithout|\bnot|\bzero|\bnever|"
                       r"(?<![\d.])0\s*(?:条|个|次|项|处|例|tests?|cases?)?)\s*$", re.I)
_ZERO_AFTER = re.compile(r"^\s*(?:[:：=]\s*)?[(（]?\s*0(?![\d.])")

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

RULES_SRC = [
    # error
    ("error", "test-failure", r"测试(?:失败|不通过|没通过|挂了|报错)|\btests? (?:still |are |were )?(?:fail|failed|failing|broke)|"
                              r"\bfailing tests?\b|\bbr(?:oke|eaks?) (?:the )?tests?\b|断言失败|\bassertion ?error", False),
    ("error", "build-failure", r"(?:编译|构建|打包)(?:失败|报错|错误|出错)|\bbuild (?:fail|failed|failure|broke|error)|"
                               r"\bcompil(?:e|ation|er) (?:error|failed|failure)|\bsyntax ?error|语法错误", False),
    ("error", "crash", r"崩溃|闪退|\bcrash(?:ed|es)?\b|\bsegfault|segmentation fault|\bpanic(?:ked)?\b|core dump", False),
    ("error", "traceback", r"\bTraceback\b|\bstack ?trace|堆栈", False),
    ("error", "*exception", r"\b([A-Z][A-Za-z]*(?:Error|Exception))\b", False),
    ("error", "general", r"报错|出错|错误(?!处理|码|信息|提示|日志|页)|异常(?!处理|捕获)|失败|"
                         r"\bfail(?:ed|ure|s|ing)?\b|\berrors?\b(?! handl)|\bexceptions?\b(?! handl)", False),
    # correction (of Claude's work, not every bug fix)
    ("correction", "user-correction", r"用户(?:指出|纠正|更正|要求改|反馈说|提醒)|被(?:用户)?纠正|纠正了?|"
                                      r"\buser (?:corrected|pointed out|reminded)|\bcorrected (?:by|me)", False),
    ("correction", "revert", r"回滚|撤销|撤回|还原|回退|改回|\breverted?\b|\brolled? ?back\b|\bundo(?:ne)?\b", False),
    ("correction", "wrong-approach", r"不应该|本应|搞错|弄错|误解|理解错|错误地|用错|改错|写错|"
                                     r"\bshould(?:n'?t| not)? have\b|\bwrong (?:approach|assumption|file|way|place|tool)\b|"
                                     r"\bmisunderst|\bmistaken(?:ly)?\b|\bby mistake\b|\bmistakes?\b", False),
    # capability_gap
    ("capability_gap", "unsupported", r"不支持|暂不支持|\bnot supported\b|\bunsupported\b|\bdoes(?:n'?t| not) support\b", False),
    ("capability_gap", "manual-step", r"手动|手工|人工(?:操作|处理|检查)|\bmanually\b|\bby hand\b", False),
    ("capability_gap", "missing-tool", r"缺少(?:工具|命令|脚本|功能|能力)|没有(?:现成的?)?(?:工具|命令|脚本|办法)|无法自动|"
                                       r"\bno (?:tool|command|script|way) (?:to|for)\b|\bmissing (?:tool|feature|command|capability)\b|"
                                       r"\black(?:s|ing)? (?:a |an )?(?:tool|feature|way|capability)\b", False),
    ("capability_gap", "workaround", r"变通|绕过|临时方案|权宜|\bworkaround\b|\bwork around\b|\bhack(?:y|ed)?\b", False),
    # recurring_issue (said in the summary itself; cross-session recurrence is the analyzer's job)
    ("recurring_issue", "again", r"又(?:一次|出现|报|遇到|失败|是|犯)|再次(?:出现|报错|失败|遇到)|反复|重复出现|老问题|"
                                 r"第[二三四五六七八九]次|\bagain\b|\brecurr(?:ing|ed|ence|ent)\b|"
                                 r"\bkeeps? (?:happening|failing|coming back|breaking)\b|\bsame (?:issue|problem|error|bug)\b|"
                                 r"\bstill (?:failing|broken|happening)\b|\bonce more\b", False),
    # environment_issue
    ("environment_issue", "port", r"端口\s*\d*\s*(?:被|已)?(?:占用|冲突)|address already in use|\bEADDRINUSE\b|\bport \d+ (?:is )?(?:in use|busy|taken)", False),
    ("environment_issue", "permission", r"权限(?:不足|被拒|问题|错误|不够)|permission denied|\bEACCES\b|\bEPERM\b|"
                                        r"read-only file ?system|只读文件系统|\boperation not permitted\b", False),
    ("environment_issue", "path", r"路径(?:错误|不对|问题|不存在)|找不到(?:文件|路径|目录|命令)|no such file|\bENOENT\b|"
                                  r"command not found|命令未找到|\bwrong (?:path|directory|cwd)\b", False),
    ("environment_issue", "env-var", r"环境变量|\benv(?:ironment)? var(?:iable)?s?\b|\.env\b|\$PATH\b", True),
    ("environment_issue", "python-env", r"\bvenv\b|virtualenv|\bconda\b|\bpyenv\b|python ?版本|python (?:version|interpreter)|\bpip\b", True),
    ("environment_issue", "node-env", r"\bnvm\b|node ?版本|\bnode(?:\.js)? (?:version|v?\d+)|\bnpx\b", True),
    ("environment_issue", "shell", r"\bbash ?[345](?:\.\d+)?\b|\bzsh\b|shell ?版本|\bshell (?:version|compat)|declare -A|\bmacOS\b|\bWSL\b", True),
    ("environment_issue", "docker", r"\bdocker\b|容器|\bcontainers?\b|\bk8s\b|kubernetes|\bpodman\b", True),
    ("environment_issue", "encoding", r"乱码|\bmojibake\b|\bgarbled\b", False),
    ("environment_issue", "encoding", r"编码|\bencoding\b|\blocale\b|\bcharset\b|\butf-?8\b", True),
    ("environment_issue", "network", r"网络|代理|\bproxy\b|\bDNS\b|\bECONNREFUSED\b|connection refused|\bSSL\b|\bTLS\b|"
                                     r"certificate|证书|\bfirewall\b|防火墙", True),
    # dependency_issue
    ("dependency_issue", "missing-module", r"No module named|Cannot find module|找不到模块|缺少依赖|依赖缺失|"
                                           r"\bmissing (?:dependenc|package|module)|\bunresolved import", False),
    ("dependency_issue", "version-conflict", r"版本冲突|版本不兼容|不兼容|版本(?:太低|太高|不对|不匹配)|\bversion (?:conflict|mismatch)\b|"
                                             r"\bincompatible\b|\bpeer dep|\bERESOLVE\b|\bbreaking change", False),
    ("dependency_issue", "lockfile", r"lock ?file|package-lock|yarn\.lock|poetry\.lock|pnpm-lock|Cargo\.lock|依赖锁", True),
    ("dependency_issue", "install-failure", r"安装(?:失败|报错|出错|不上)|\binstall(?:ation)? (?:failed|fails|error)\b|"
                                            r"\b(?:pip|npm|yarn|pnpm|poetry|cargo|maven|gradle|brew|apt(?:-get)?) install\b.*"
                                            r"(?:fail|失败|error|报错)", False),
    ("dependency_issue", "upgrade", r"升级|降级|\bupgrad(?:e|ed|ing)\b|\bdowngrad(?:e|ed|ing)\b|\bpin(?:ned)? (?:the )?version|锁定版本", True),
    ("dependency_issue", "general", r"依赖|\bdependenc(?:y|ies)\b|第三方(?:库|包)|\bpackages?\b", True),
    # performance_issue
    ("performance_issue", "timeout", r"超时|\btime ?out\b|\btimed out\b|deadline exceeded", False),
    ("performance_issue", "memory", r"内存(?:泄漏|泄露|溢出|占用|不足|暴涨)|\bOOM\b|out of memory|memory leak|\bheap (?:size|overflow)", False),
    ("performance_issue", "query", r"N\+1|慢查询|\bslow quer(?:y|ies)\b|full table scan|全表扫描|缺少索引|\bmissing index", False),
    ("performance_issue", "slow", r"太慢|很慢|变慢|慢了|卡顿|卡死|\bslow(?:er|ly|ness)?\b|\bsluggish\b|\bhangs?\b|\bhung\b", False),
    ("performance_issue", "slow", r"性能|耗时|延迟|\blatency\b|\bperformance\b|\bthroughput\b", True),
    ("performance_issue", "cpu", r"\bCPU\b|高负载|\bhigh load\b|\bbusy loop\b", True),
    # security_issue
    ("security_issue", "secret-leak", r"泄露|泄漏|明文(?:密码|密钥|存储)|硬编码(?:的)?(?:密码|密钥|token|凭证)|"
                                      r"硬编码(?:了|的)?\s*(?:api ?key|secret)|\bhard-?coded (?:password|secret|api ?key|key|token|credential)s?\b|\b(?:secret|token|key|credential)s? (?:leak|leaked|exposed)\b", False),
    ("security_issue", "secret-leak", r"密钥|私钥|凭证|\bsecrets?\b|\bcredentials?\b|\bapi[_ ]?keys?\b", True),
    ("security_issue", "injection", r"注入|\bSQL injection\b|\bcommand injection\b|\bXSS\b|跨站|\bCSRF\b|\bSSRF\b|\beval\(|shell=True|"
                                    r"路径穿越|path traversal", False),
    ("security_issue", "auth", r"越权|权限绕过|认证绕过|鉴权(?:问题|缺失|漏洞)|\bprivilege escalation\b|\bunauthori[sz]ed access\b|"
                               r"\bauth(?:entication|orization)? bypass\b|\bbroken auth", False),
    ("security_issue", "vulnerability", r"漏洞|安全(?:问题|隐患|风险|漏洞)|\bvulnerab|\bCVE-\d{4}-\d+|\bsecurity (?:issue|risk|hole|fix|bug)\b|"
                                        r"npm audit|pip-audit", False),
]


def compile_rules(extra=None) -> list:
    """The rule table compiled: built-ins plus ``extra`` (config ``signals.extra_rules``: a list of
    ``{"type", "subject", "pattern", "needs_problem"?}``; checked first). Raises ValueError for a
    bad extra rule."""
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
        rules.append((item["type"], subject, regex, bool(item.get("needs_problem"))))
    for sig_type, subject, pattern, needs_problem in RULES_SRC:
        flags = 0 if subject == "*exception" else re.I
        rules.append((sig_type, subject, re.compile(pattern, flags), needs_problem))
    return rules


def _negated(line: str, start: int, end: int) -> bool:
    return bool(_NEGATION.search(line[max(0, start - 8):start]) or _ZERO_AFTER.match(line[end:end + 6]))


def _first_match(regex, line: str):
    for match in regex.finditer(line):
        if not _negated(line, match.start(), match.end()):
            return match
    return None


def classify_line(line: str, rules: list) -> list:
    """``[(type, subject, matched_text)]`` for one line, at most one per type."""
    found: dict = {}
    has_problem = None
    for sig_type, subject, regex, needs_problem in rules:
        if sig_type in found:
            continue
        match = _first_match(regex, line)
        if not match:
            continue
        if needs_problem:
            if has_problem is None:
                has_problem = bool(_first_match(PROBLEM, line))
            if not has_problem:
                continue
        if subject == "*exception":
            name = match.group(1).lower()
            if name in _EXCEPTION_TYPES:
                mapped_type, mapped_subject = _EXCEPTION_TYPES[name]
                if mapped_type not in found:
                    found[mapped_type] = (mapped_subject, match.group(0))
                continue
            subject = name
        found[sig_type] = (subject, match.group(0))
    return [(t, s, m) for t, (s, m) in found.items()]
