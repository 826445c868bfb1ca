"""SQL rules for the data layer: ``*Dao.java``, ``*Mapper.java`` and MyBatis mapper XML.

Java: comments are blanked, string literals that look like SQL are checked one by one, and
literals joined with ``+`` are read as one statement (for the missing-WHERE rule). XML: the text of
each ``<select|insert|update|delete|sql>`` element, with tags blanked (``<where>`` / ``<set>`` read
as the keywords), offsets kept so every finding has its real line.
"""

from __future__ import annotations

import re

from .base import Collector, line_of, rule
from .blanking import blank, blank_comments

RULES = [
    rule("JS001", "block", "SQL built by string concatenation",
         "a variable spliced into SQL is an injection hole and defeats statement caching; use ? / #{} parameters"),
    rule("JS002", "warn", "SELECT *", "returns columns you did not ask for and breaks when the table changes; list the columns"),
    rule("JS003", "block", "${} in MyBatis SQL",
         "${} pastes the value into the SQL text (injection); use #{} — for identifiers, choose from a whitelist"),
    rule("JS004", "block", "UPDATE/DELETE without WHERE", "it changes every row of the table; add the WHERE condition"),
    rule("JS005", "block", "#{} inside quotes",
         "'#{x}' is not a bind parameter inside a string literal; write #{x} without quotes (LIKE: CONCAT('%', #{x}, '%'))"),
    rule("JS006", "block", "String.format() building SQL",
         "formatting values into SQL is injection-prone; use parameters"),
    rule("JS007", "warn", "java.sql.Statement instead of PreparedStatement",
         "a plain Statement invites concatenated SQL; prepareStatement with ? parameters"),
    rule("JS008", "warn", "LIKE with a leading wildcard", "'%x' cannot use an index and scans the table; prefer a prefix match or full-text search"),
    rule("JS009", "warn", "INSERT without a column list", "it breaks silently when columns are added or reordered; name the columns"),
    rule("JS010", "warn", "WHERE 1=1", "a placeholder for dynamic conditions; MyBatis <where> removes the stray AND/OR for you"),
    rule("JS011", "warn", "a single #{} inside IN (...)", "binds one value, not a list; use <foreach collection=… open=\"(\" separator=\",\" close=\")\">"),
]

_SQL_WORDS = re.compile(r"\b(select|insert\s+into|update|delete\s+from|where|from|order\s+by|group\s+by|values|set)\b",
                        re.IGNORECASE)
_STRING = re.compile(r'"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"')
_NON_LITERAL_AFTER = re.compile(r'\s*\+\s*(?!["\s])[A-Za-z_(]')
_NON_LITERAL_BEFORE = re.compile(r'[A-Za-z_0-9)\]]\s*\+\s*$')
_SQL_BUILDER = re.compile(r"\b\w*(?:sql|query|hql)\w*\s*\.\s*append\(", re.IGNORECASE)
_APPEND_VALUE = re.compile(r"\.\s*append\(\s*(?![\"'\s])[^)\s]")
_FORMAT = re.compile(r'String\.format\(\s*"((?:[^"\\]|\\.)*)"')
_STATEMENT = re.compile(r"\.createStatement\(")
_STATEMENT_TAGS = re.compile(r"<(select|insert|update|delete|sql)\b[^>]*>([\s\S]*?)</\1\s*>", re.IGNORECASE)
_TAG = re.compile(r"<!\[CDATA\[|\]\]>|<[^>]*>")

_CHECKS = [
    ("JS002", re.compile(r"\bselect\s+(?:distinct\s+)?\*", re.IGNORECASE)),
    ("JS003", re.compile(r"\$\{[^}]*\}")),
    ("JS005", re.compile(r"'[^'\n]*#\{[^}]*\}[^'\n]*'")),
    ("JS008", re.compile(r"\blike\s+(?:'%|concat\(\s*'%')", re.IGNORECASE)),
    ("JS009", re.compile(r"\binsert\s+into\s+[\w.`\"]+\s+values\b", re.IGNORECASE)),
    ("JS010", re.compile(r"\bwhere\s+1\s*=\s*1\b", re.IGNORECASE)),
    ("JS011", re.compile(r"\bin\s*\(\s*#\{[^}]*\}\s*\)", re.IGNORECASE)),
]
_WRITE = re.compile(r"^\s*(update|delete)\b", re.IGNORECASE)
_HAS_WHERE = re.compile(r"\bwhere\b", re.IGNORECASE)


def _check_sql(out: Collector, text: str, sql: str, offset: int) -> None:
    for rule_id, pattern in _CHECKS:
        for m in pattern.finditer(sql):
            out.add(rule_id, line_of(text, offset + m.start()), m.group(0)[:60].strip())


def _check_write_without_where(out: Collector, text: str, sql: str, offset: int) -> None:
    m = _WRITE.match(sql)
    if m and not _HAS_WHERE.search(sql):
        out.add("JS004", line_of(text, offset + m.start(1)), m.group(1).upper())


def _lint_java(out: Collector, text: str) -> None:
    code = blank_comments(text)
    literals = [m for m in _STRING.finditer(code)]
    statement, start = [], None
    for index, m in enumerate(literals):
        content = m.group(0).strip('"')
        is_sql = bool(_SQL_WORDS.search(content))
        if is_sql:
            _check_sql(out, text, content, m.start() + (3 if m.group(0).startswith('"""') else 1))
            line_start = code.rfind("\n", 0, m.start()) + 1
            if _NON_LITERAL_AFTER.match(code, m.end()) or _NON_LITERAL_BEFORE.search(code[line_start:m.start()]):
                out.add("JS001", line_of(text, m.start()))
        # literals joined by + form one statement
        if statement and re.fullmatch(r"\s*\+\s*", code[literals[index - 1].end():m.start()]):
            statement.append(content)
        else:
            if statement:
                _check_write_without_where(out, text, " ".join(statement), start)
            statement, start = [content], m.start() + 1
    if statement:
        _check_write_without_where(out, text, " ".join(statement), start)
    for number, line in enumerate(code.split("\n"), 1):
        if _SQL_BUILDER.search(line) and _APPEND_VALUE.search(line):
            out.add("JS001", number, "StringBuilder.append of a value")
        if _STATEMENT.search(line):
            out.add("JS007", number)
    for m in _FORMAT.finditer(code):
        if _SQL_WORDS.search(m.group(1)) and "%" in m.group(1):
            out.add("JS006", line_of(text, m.start()))


def _lint_xml(out: Collector, text: str) -> None:
    for m in _STATEMENT_TAGS.finditer(text):
        body_offset = m.start(2)

        def keyword(tag):
            raw = tag.group(0)
            name = raw.strip("</>").split()[0].lower() if raw.startswith("<") and not raw.startswith("</") else ""
            word = {"where": "WHERE", "set": "SET", "trim": ""}.get(name, "")
            return word.ljust(len(raw)) if word and len(word) <= len(raw) else blank(raw)

        sql = _TAG.sub(keyword, m.group(2))
        _check_sql(out, text, sql, body_offset)
        if m.group(1).lower() in ("update", "delete"):
            stripped = sql.lstrip()
            _check_write_without_where(out, text, stripped, body_offset + len(sql) - len(stripped))


def lint(text: str, path: str, options: dict | None = None) -> list:
    out = Collector(path, RULES)
    if path.lower().endswith(".xml"):
        _lint_xml(out, text)
    else:
        _lint_java(out, text)
    return sorted(out.findings, key=lambda f: (f.line, f.rule))
