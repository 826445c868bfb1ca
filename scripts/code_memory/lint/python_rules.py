"""Python rules (``*.py``), checked on the syntax tree (``ast``) of the edited file.

Version rules (PY003, PY004) apply when the project supports Pythons older than the feature:
``options["python_target"]`` = (major, minor), from config ``lint.python_target`` or the project's
``requires-python``; without a target they are skipped.
"""

from __future__ import annotations

import _ast as ast  # the node classes without ast.py, whose imports cost the hook ~8 ms

from .base import Collector, rule


def iter_child_nodes(node):
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            yield value
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, ast.AST):
                    yield item


def walk(node):
    todo = [node]
    while todo:
        node = todo.pop()
        todo.extend(iter_child_nodes(node))
        yield node

RULES = [
    rule("PY000", "block", "syntax error", "the file does not parse; fix it before anything else", always=True),
    rule("PY001", "block", "bare `except:`",
         "it also catches KeyboardInterrupt and SystemExit; catch Exception or the specific error"),
    rule("PY002", "block", "mutable default argument",
         "the default is created once and shared by every call; default to None and create it inside"),
    rule("PY003", "block", "`match` statement on a Python < 3.10 target",
         "structural pattern matching needs 3.10; use if/elif for the project's oldest Python"),
    rule("PY004", "block", "`X | Y` type union evaluated at runtime on a Python < 3.10 target",
         "it raises TypeError before 3.10; add `from __future__ import annotations` or use Optional/Union"),
    rule("PY005", "block", "`is` comparison with a literal",
         "identity of str/int literals is an implementation detail (SyntaxWarning); use =="),
    rule("PY006", "block", "assert on a tuple", "a non-empty tuple is always true, so the assert never fails; "
         "write `assert cond, msg`"),
    rule("PY007", "block", "debugger call left in the code",
         "breakpoint()/pdb.set_trace() stops the program waiting for input; remove it"),
    rule("PY008", "warn", "eval()/exec()", "runs arbitrary code; parse the input (ast.literal_eval, json) instead"),
    rule("PY009", "warn", "subprocess with shell=True",
         "the command goes through the shell (injection, quoting); pass an argument list"),
    rule("PY010", "warn", "exception swallowed with `pass`",
         "the error disappears without a trace; log it, narrow the exception or re-raise"),
    rule("PY011", "warn", "comparison to None with ==/!=", "use `is None` / `is not None`"),
    rule("PY012", "warn", "open() in text mode without encoding=",
         "the default encoding depends on the platform/locale (GBK on Chinese Windows); pass encoding=\"utf-8\""),
    rule("PY013", "warn", "datetime.utcnow()/utcfromtimestamp()",
         "naive UTC datetimes, deprecated since 3.12; use datetime.now(timezone.utc)"),
    rule("PY014", "warn", "return/break/continue in `finally`",
         "it silently discards the exception being raised"),
]

_MUTABLE_CALLS = {"list", "dict", "set", "defaultdict", "OrderedDict", "deque", "bytearray"}
_DEBUGGER_MODULES = {"pdb", "ipdb", "pudb"}


def _call_name(node) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        base = func.value
        prefix = base.id if isinstance(base, ast.Name) else (base.attr if isinstance(base, ast.Attribute) else "")
        return f"{prefix}.{func.attr}" if prefix else func.attr
    return ""


def _is_mutable(node) -> bool:
    if isinstance(node, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    return isinstance(node, ast.Call) and _call_name(node).split(".")[-1] in _MUTABLE_CALLS


def _has_union(node) -> bool:
    return any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr) for n in walk(node))


def _future_annotations(tree) -> bool:
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__" and \
                any(a.name == "annotations" for a in node.names):
            return True
    return False


def _literal(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes, int, float, complex)) \
        and not isinstance(node.value, bool)


def _only_pass(body) -> bool:
    return all(isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                           and s.value.value is Ellipsis) for s in body)


def _open_without_encoding(node) -> bool:
    if _call_name(node) not in ("open", "io.open"):
        return False
    keywords = {k.arg for k in node.keywords}
    if "encoding" in keywords or None in keywords:  # **kwargs may carry it
        return False
    mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
    if mode is None:
        return True
    return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and "b" not in mode.value


def _finally_escapes(stmts) -> list:
    """return/break/continue directly in a finally block (not inside a nested function or loop
    that would own the break/continue)."""
    found = []
    stack = list(stmts)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            found.append(node)
        elif isinstance(node, (ast.Break, ast.Continue)):
            found.append(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            stack.extend(n for n in walk(node) if isinstance(n, ast.Return))
            continue
        else:
            stack.extend(iter_child_nodes(node))
    return found


def lint(text: str, path: str, options: dict | None = None) -> list:
    options = options or {}
    out = Collector(path, RULES)
    try:
        tree = compile(text, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        out.add("PY000", exc.lineno or 1, str(exc.msg))
        return out.findings
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting
        out.add("PY000", 1, type(exc).__name__)
        return out.findings
    target = options.get("python_target")
    old_target = bool(target) and tuple(target) < (3, 10)
    future = _future_annotations(tree)

    for node in walk(tree):
        if isinstance(node, ast.ExceptHandler):
            if node.type is None:
                out.add("PY001", node.lineno)
            elif _only_pass(node.body) and isinstance(node.type, ast.Name) and \
                    node.type.id in ("Exception", "BaseException"):
                out.add("PY010", node.lineno, f"except {node.type.id}: pass")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            for default in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
                if _is_mutable(default):
                    out.add("PY002", default.lineno)
            if old_target and not future and not isinstance(node, ast.Lambda):
                annotated = [a.annotation for a in args.args + args.kwonlyargs + args.posonlyargs if a.annotation]
                annotated += [a.annotation for a in (args.vararg, args.kwarg) if a is not None and a.annotation]
                if node.returns is not None:
                    annotated.append(node.returns)
                for ann in annotated:
                    if _has_union(ann):
                        out.add("PY004", ann.lineno, "in a signature")
        elif isinstance(node, ast.Compare):
            operands = [node.left] + list(node.comparators)
            for op, left, right in zip(node.ops, operands, operands[1:]):
                if isinstance(op, (ast.Is, ast.IsNot)) and (_literal(left) or _literal(right)):
                    out.add("PY005", node.lineno)
                if isinstance(op, (ast.Eq, ast.NotEq)) and any(
                        isinstance(x, ast.Constant) and x.value is None for x in (left, right)):
                    out.add("PY011", node.lineno)
        elif isinstance(node, ast.Assert):
            if isinstance(node.test, ast.Tuple) and node.test.elts:
                out.add("PY006", node.lineno)
        elif isinstance(node, ast.Call):
            name = _call_name(node)
            if name == "breakpoint" or (name.endswith(".set_trace") and name.split(".")[0] in _DEBUGGER_MODULES):
                out.add("PY007", node.lineno, name + "()")
            elif name in ("eval", "exec"):
                out.add("PY008", node.lineno, name + "()")
            elif name.endswith(("utcnow", "utcfromtimestamp")) and "datetime" in name:
                out.add("PY013", node.lineno, name + "()")
            if any(k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value is True
                   for k in node.keywords):
                out.add("PY009", node.lineno, name + "(…, shell=True)")
            if _open_without_encoding(node):
                out.add("PY012", node.lineno)
            if old_target and name in ("isinstance", "issubclass") and len(node.args) == 2 and \
                    _has_union(node.args[1]):
                out.add("PY004", node.lineno, f"in {name}()")
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            for escape in _finally_escapes(node.finalbody):
                out.add("PY014", escape.lineno, type(escape).__name__.lower())
        elif old_target and type(node).__name__ == "Match":
            out.add("PY003", node.lineno)
    if old_target and not future:
        for ann in _evaluated_variable_annotations(tree):
            if _has_union(ann):
                out.add("PY004", ann.lineno, "in a module/class variable annotation")
    return sorted(out.findings, key=lambda f: (f.line, f.rule))


def _evaluated_variable_annotations(tree) -> list:
    """Annotations of variables at module and class level — evaluated at runtime (those inside
    functions are not)."""
    found, stack = [], [tree]
    while stack:
        node = stack.pop()
        for child in getattr(node, "body", []):
            if isinstance(child, ast.AnnAssign):
                found.append(child.annotation)
            elif isinstance(child, ast.ClassDef):
                stack.append(child)
            elif isinstance(child, (ast.If, ast.Try)):
                stack.append(child)
    return found
