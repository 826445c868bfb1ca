"""Tier 1 rule engines of the avoidance gate (docs/hooks.md § Lint rules), plus user rules and
the tier 2 LLM check.

Each engine module (``python_rules``, ``shell_rules``, ``java_sql_rules``, ``antd_v3_rules``) has a
``RULES`` table (id, severity, title, why — the README tables are checked against it) and
``lint(text, path, options) -> [Finding]``. Pure functions over text: no config, no I/O except
``shell_rules`` running ``bash -n``. ``gate.lint_file`` routes a file to its engine, adds user
rules, keeps findings on the changed lines and applies severity overrides; the avoidance-gate
hook and the ``scripts/lint-*.py`` commands both call it. Standard library only.
"""
