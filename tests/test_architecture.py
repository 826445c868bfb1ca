"""The architecture holds (ARCHITECTURE.md): packages by concern in one-way layers, every module on
the code map, package ``__init__`` files that import nothing.

Imports are read with ``ast`` — module-level and function-level alike, since a lazy import is a
dependency too. A module may import from its own package and from packages of a lower layer;
an import sideways (another package of the same layer) or upwards fails with the offending line.
"""

import ast
import os
import re
import subprocess

from conftest import REPO

PACKAGE = os.path.join(REPO, "scripts", "code_memory")
ARCHITECTURE = os.path.join(REPO, "ARCHITECTURE.md")

# (layer, packages), lowest first. "core" is the flat modules of code_memory itself.
LAYERS = [
    ("core", ["core"]),
    ("text", ["text"]),
    ("files", ["memory", "review"]),
    ("stores", ["kv", "memtool", "workspace"]),
    ("evolution and lint", ["evolution", "lint"]),
    ("search", ["search"]),
    ("summaries", ["summary"]),
    ("edges", ["hooks", "mcp", "ui"]),
    ("install", ["install"]),
    ("command line", ["cli"]),
]
RANK = {pkg: rank for rank, (_name, pkgs) in enumerate(LAYERS) for pkg in pkgs}


def modules():
    """``{dotted name relative to code_memory: path}`` of every module of the package."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(PACKAGE):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, PACKAGE)[:-3].replace(os.sep, ".")
                out[rel] = path
    return out


def package_of(module: str) -> str:
    """``search.engine`` → ``search``; ``paths`` (a flat module) → ``core``."""
    first, _, rest = module.partition(".")
    if not rest and first != "__init__" and not os.path.isdir(os.path.join(PACKAGE, first)):
        return "core"
    return first if first != "__init__" else "core"


def imports_of(module: str, path: str):
    """``(line, imported module relative to code_memory)`` for every import of our package."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    here = module.split(".")
    is_init = module.endswith("__init__")
    base_parts = here[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base_parts[: len(base_parts) - (node.level - 1)] if node.level > 1 else base_parts
                if is_init and node.level == 1:
                    parts = base_parts
                target = ".".join(parts + ([node.module] if node.module else []))
            elif node.module and (node.module == "code_memory" or node.module.startswith("code_memory.")):
                target = node.module[len("code_memory."):] if node.module != "code_memory" else ""
            else:
                continue
            names = [a.name for a in node.names]
            if target == "" or os.path.isdir(os.path.join(PACKAGE, *target.split("."))):
                for name in names:  # from . import x / from ..search import engine
                    yield node.lineno, f"{target}.{name}".strip(".")
            else:
                yield node.lineno, target
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("code_memory."):
                    yield node.lineno, alias.name[len("code_memory."):]


def test_every_package_has_a_layer():
    found = {package_of(m) for m in modules()}
    assert found - set(RANK) == set(), "packages without a layer: add them to LAYERS and ARCHITECTURE.md"
    assert set(RANK) - found == set(), "layers name packages that do not exist"


def test_layers_point_one_way():
    problems = []
    for module, path in modules().items():
        mine = package_of(module)
        for line, target in imports_of(module, path):
            theirs = package_of(target)
            if theirs == mine:
                continue
            if RANK[theirs] >= RANK[mine]:
                how = "sideways" if RANK[theirs] == RANK[mine] else "upwards"
                problems.append(f"scripts/code_memory/{module.replace('.', '/')}.py:{line} imports "
                                f"{target} ({mine} → {theirs}, {how})")
    assert problems == [], "imports against the layer order (ARCHITECTURE.md):\n" + "\n".join(problems)


def test_no_import_cycles_between_modules():
    graph = {}
    mods = modules()
    for module, path in mods.items():
        graph[module] = {t for _line, t in imports_of(module, path) if t in mods or f"{t}.__init__" in mods}
    seen, stack, cycles = set(), [], []

    def visit(node):
        if node in stack:
            cycles.append(stack[stack.index(node):] + [node])
            return
        if node in seen:
            return
        seen.add(node)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            visit(nxt)
        stack.pop()

    for module in sorted(graph):
        visit(module)
    assert cycles == [], "import cycles: " + "; ".join(" → ".join(c) for c in cycles)


def test_package_init_files_import_nothing():
    for module, path in modules().items():
        if module.endswith("__init__") or module == "__init__":
            tree = ast.parse(open(path, encoding="utf-8").read())
            imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
            assert not imports, f"{path} imports something: hooks would pay for it"


def _code_map_entries() -> set:
    text = open(ARCHITECTURE, encoding="utf-8").read()
    return set(re.findall(r"^\| `([a-z0-9_]+(?:/[a-z0-9_]+)?\.py)` \|", text, re.M))


def test_every_module_is_on_the_code_map():
    listed = _code_map_entries()
    missing = []
    for module in modules():
        if module.endswith("__init__"):
            continue
        rel = module.replace(".", "/") + ".py"
        if rel not in listed:
            missing.append(rel)
    assert missing == [], "modules missing from ARCHITECTURE.md's code map: " + ", ".join(missing)
    stale = [rel for rel in listed if not os.path.exists(os.path.join(PACKAGE, rel))]
    assert stale == [], "ARCHITECTURE.md lists modules that do not exist: " + ", ".join(sorted(stale))


def test_the_code_map_shows_the_declared_layers():
    text = open(ARCHITECTURE, encoding="utf-8").read()
    rows = re.findall(r"^\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|", text, re.M)
    declared = [(name, sorted(pkgs)) for name, pkgs in LAYERS]
    shown = [(name, sorted(p.strip("` ") for p in pkgs.split(","))) for _rank, name, pkgs in rows]
    assert shown == declared, "ARCHITECTURE.md's layer table differs from LAYERS in this test"


# a citation of a document that does not ship with the repository: the design specs, the design
# principles and the notes on the Claude Code binary the developers keep beside it
UNSHIPPED_CITATION = re.compile(r"\b(?:[Ss]pecs? ?0\d\d|specs/|DESIGN(?:\.md)? ?§|reference/claude-code|"
                                r"reference (?:Part|§)|[Tt]he spec(?:'s| says)|设计文档 ?0\d\d)")


def tracked_text_files() -> list:
    """Every file git tracks (a CI checkout is a clone) that reads as UTF-8 text."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    out = []
    for name in filter(None, names.decode("utf-8").split("\0")):
        path = os.path.join(REPO, name)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        with open(path, "rb") as fh:
            data = fh.read()
        try:
            out.append((name, data.decode("utf-8")))
        except UnicodeDecodeError:
            continue   # binary: screenshots, fixtures
    return out


def test_no_file_cites_documents_that_do_not_ship():
    """Code, docs, comments, tests and templates say what they mean instead of citing the design
    documents, which do not ship with the repository (docs/ and ARCHITECTURE.md do)."""
    offenders = [f"{name}:{n}: {line.strip()[:100]}" for name, text in tracked_text_files()
                 if name != "tests/test_architecture.py"
                 for n, line in enumerate(text.splitlines(), 1) if UNSHIPPED_CITATION.search(line)]
    assert offenders == [], "\n".join(offenders)


def test_configuration_is_loaded_at_the_edges_only():
    """``load_config`` is called by the edges (hooks, MCP, command line); everything below them takes
    a loaded Config or plain values."""
    edges = {"hooks", "mcp", "install", "cli"}
    offenders = []
    for module, path in modules().items():
        if package_of(module) in edges or module == "config":
            continue
        tree = ast.parse(open(path, encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "load_config":
                offenders.append(f"{path}:{node.lineno}")
    assert offenders == [], "configuration loaded below the edges: " + ", ".join(offenders)


def _literal_default_reads(tree):
    """``(line, name, literal)`` of every ``x.get("name", LITERAL)`` and ``x.get("name") or LITERAL``."""
    for node in ast.walk(tree):
        call, literal = None, None
        if isinstance(node, ast.Call) and len(node.args) == 2:
            call, literal = node, node.args[1]
        elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2 \
                and isinstance(node.values[0], ast.Call) and len(node.values[0].args) == 1:
            call, literal = node.values[0], node.values[1]
        if call is None or not (isinstance(call.func, ast.Attribute) and call.func.attr == "get"):
            continue
        name = call.args[0]
        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
            continue
        try:
            value = ast.literal_eval(literal)
        except ValueError:
            continue
        yield node.lineno, name.value, value


def test_no_config_default_is_repeated_as_a_literal():
    """A setting read from a section that may be partial goes through ``config.setting`` (or
    ``section_values``), so its default lives in config_schema.py only: ``section.get("top_k", 6)``
    or ``section.get("top_k") or 6`` repeating the schema's default fails here."""
    from code_memory.config_schema import KEYS
    defaults = {}
    for key in KEYS.values():
        defaults.setdefault(key.name.rpartition(".")[2], []).append(key.default)
    repeated = []
    for module, path in modules().items():
        if module in ("config", "config_schema", "config_reference"):
            continue
        for line, name, value in _literal_default_reads(ast.parse(open(path, encoding="utf-8").read(), path)):
            if any(value == d and type(value) is type(d) and d not in (None, "", 0, [], {})
                   for d in defaults.get(name, ())):
                repeated.append(f"{module}.py:{line}: {name} = {value!r}")
    assert repeated == [], "config defaults repeated as literals (read them with config.setting): " + \
        ", ".join(repeated)


OWNER = "memory.tree"   # the one owner of rules.md and MEMORY.md's sections
WRITERS = {"update_file", "atomic_write_text", "atomic_write_json", "create_new_text", "append_text", "open"}


def test_one_module_owns_rules_md_and_memory_md():
    """Only memory/tree.py spells ``"rules.md"`` and writes a project's rules.md or the root's
    MEMORY.md; every other module goes through its functions (append_rules, append_pitfalls,
    replace_line, remove_line, restore_line, …). A module that names the file or hands its path to
    a writer fails here."""
    spelled, writes = [], []
    for module, path in modules().items():
        if module == OWNER:
            continue
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value == "rules.md":
                spelled.append(f"{module}.py:{node.lineno}")
            if isinstance(node, ast.Call) and node.args:
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                target = ast.unparse(node.args[0])
                if name in WRITERS and ("paths.memory_md" in target or "rules_path" in target
                                        or "RULES_FILE" in target):
                    writes.append(f"{module}.py:{node.lineno}: {ast.unparse(node)[:80]}")
    assert spelled == [], f'"rules.md" is spelled outside {OWNER} (use tree.RULES_FILE / rules_path): {spelled}'
    assert writes == [], f"rules.md or MEMORY.md written outside {OWNER}: {writes}"


# Modules that still test a line for a "#" prefix themselves, and why that is not a section walk.
HEADING_TESTS_ALLOWED = {
    "search.chunking": "a daily note's entries (### blocks and edit lines) for the index",
    "redact": "a '#' comment after a value in code, not a Markdown heading",
    "redact_gate": "comment lines of the triggers data file",
}


def _is_heading_prefix(node) -> bool:
    values = node.elts if isinstance(node, ast.Tuple) else [node]
    return any(isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value.startswith("#") for v in values)


def test_markdown_sections_are_walked_by_markdown_py():
    """Headings and sections are found by ``markdown.py`` (fences skipped, levels compared, closing
    ``#``s dropped), not by ``line.startswith("## ")`` or ``re.split`` at headings elsewhere."""
    found = []
    for module, path in modules().items():
        if module == "markdown" or module in HEADING_TESTS_ALLOWED:
            continue
        source = open(path, encoding="utf-8").read()
        for node in ast.walk(ast.parse(source, path)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
                if node.func.attr == "startswith" and _is_heading_prefix(node.args[0]):
                    found.append(f"{module}.py:{node.lineno}: {ast.unparse(node)[:60]}")
                if node.func.attr == "split" and isinstance(node.args[0], ast.Constant) \
                        and "(?=#" in str(node.args[0].value):
                    found.append(f"{module}.py:{node.lineno}: {ast.unparse(node)[:60]}")
    assert found == [], "heading tests outside markdown.py (use heading_level, headings, section_lines, " \
        "split_sections): " + ", ".join(found)
