import json
import os

import pytest

from code_memory import config as cfgmod
from code_memory.config import DEFAULTS, load_config
from code_memory.errors import CodeMemoryError
from conftest import REPO


def _keys(obj, prefix=""):
    out = {}
    for k, v in obj.items():
        if k.startswith("_"):
            continue
        dotted = prefix + k
        if isinstance(v, dict) and v and isinstance(cfgmod._default_for(dotted), dict) and cfgmod._default_for(dotted):
            out.update(_keys(v, dotted + "."))
        else:
            out[dotted] = v
    return out


def _docs(obj, prefix=""):
    out = set()
    for k in obj.get("_doc", {}):
        out.add(prefix + k)
    for k, v in obj.items():
        if isinstance(v, dict) and not k.startswith("_") and "_doc" in v:
            out |= _docs(v, prefix + k + ".")
    return out


def test_example_config_matches_defaults_and_documents_every_key():
    with open(os.path.join(REPO, "config.example.json"), encoding="utf-8") as fh:
        example = json.load(fh)
    assert _keys(example) == _keys(DEFAULTS)
    undocumented = set(_keys(DEFAULTS)) - _docs(example)
    assert not undocumented, f"keys without a _doc line in config.example.json: {sorted(undocumented)}"


def test_example_and_reference_are_generated_from_the_schema(tmp_path, capsys):
    from code_memory import config_reference as ref
    from code_memory.config_schema import KEYS
    regenerate = ("run `python -m code_memory.config_reference` "
                  "(in a checkout: PYTHONPATH=scripts python3 -m code_memory.config_reference)")
    with open(ref.PAGE, encoding="utf-8") as fh:
        page = fh.read()
    assert ref.BEGIN in page and ref.END in page
    assert ref.render_page(page) == page, f"docs/configuration.md is stale: {regenerate}"
    with open(ref.EXAMPLE, encoding="utf-8") as fh:
        assert ref.render_example() == fh.read(), f"config.example.json is stale: {regenerate}"
    # the hand-written prose above the table survives; every key has a row with its type and default
    prose = page.split(ref.BEGIN)[0]
    assert page.startswith("# Configuration") and "CODE_MEMORY_<SECTION>__<KEY>" in prose
    assert all(f"`{name}` sets `{key}`" in prose for name, key in cfgmod.ENV_ALIASES.items())
    assert all(f"| `{name}` | {key.type_name} |" in page for name, key in KEYS.items())
    assert set(KEYS) == set(_keys(DEFAULTS)) and all(key.doc.strip() for key in KEYS.values())
    # --check names the regenerate command and fails on a stale copy, without writing it
    stale = tmp_path / "configuration.md"
    stale.write_text(page.replace("| `search.top_k` |", "| `search.topk` |"), encoding="utf-8")
    assert ref.main(["--check", "--page", str(stale)]) == 1
    assert "configuration.md is stale: run `python -m code_memory.config_reference`" in capsys.readouterr().err
    assert "`search.topk`" in stale.read_text(encoding="utf-8")


def test_configuration_reference_names_every_key():
    from docs_text import read_doc
    reference = read_doc("configuration.md")
    missing = [k for k in _keys(DEFAULTS) if f"`{k}`" not in reference]
    assert not missing, f"docs/configuration.md lacks: {missing}"


def test_values_outside_the_schema_are_ignored_with_a_warning(tmp_path):
    root = tmp_path / "mem"
    root.mkdir()
    (root / "config.json").write_text(json.dumps({
        "search": {"default_mode": "fuzzy", "top_k": 0, "fusion_alpha": 1.5, "rrf_k": 30},
        "hooks": {"rules_gate": "INLINE", "session_start_blocks": ["recent", "weather"]},
        "review": {"mode": {"rules": "later"}},
    }))
    cfg = load_config(env={"CODE_MEMORY_ROOT": str(root), "CODE_MEMORY_EMBEDDING__DIM": "384"})
    assert cfg.get_path("search.default_mode") == "auto" and cfg.get_path("search.top_k") == 6
    assert cfg.get_path("search.fusion_alpha") == 0.5 and cfg.get_path("review.mode.rules") == "auto"
    assert cfg.get_path("search.rrf_k") == 30 and cfg.get_path("hooks.rules_gate") == "INLINE"
    assert cfg.get_path("hooks.session_start_blocks") == ["recent", "weather"]   # kept: unknown blocks are skipped
    assert cfg.get_path("embedding.dim") == 384                                   # typed by the schema, not the null default
    text = "\n".join(cfg.warnings)
    for expected in ("search.default_mode should be one of auto, bm25, vector, hybrid, got 'fuzzy'",
                     "search.top_k should be at least 1, got 0", "search.fusion_alpha should be at most 1, got 1.5",
                     "review.mode.rules should be one of auto, queue", "unknown weather"):
        assert expected in text, text
    (root / "config.json").write_text(json.dumps({"embedding": {"model_path": 7}}))
    with pytest.raises(CodeMemoryError) as exc:   # a null default still has a type
        load_config(env={"CODE_MEMORY_ROOT": str(root)})
    assert exc.value.code == "CONFIG_INVALID" and "embedding.model_path should be str" in exc.value.message


def test_setting_reads_a_partial_section_with_the_schema_default():
    from code_memory.config import setting
    assert setting({}, "lint.enabled") is True and setting(None, "embedding.batch_size") == 16
    assert setting({"batch_size": "8"}, "embedding.batch_size") == 8
    assert setting({"daemon_idle_seconds": 60}, "embedding.daemon_idle_seconds") == 60.0
    blocks = setting({}, "hooks.session_start_blocks")
    blocks.append("x")                                       # a copy: the default stays intact
    assert "x" not in DEFAULTS["hooks"]["session_start_blocks"]


def test_example_config_loads_as_a_user_config(memory_root):
    os.makedirs(memory_root)
    with open(os.path.join(REPO, "config.example.json"), encoding="utf-8") as fh:
        text = fh.read()
    with open(os.path.join(memory_root, "config.json"), "w", encoding="utf-8") as fh:
        fh.write(text.replace('"top_k": 6', '"top_k": 9'))
    cfg = load_config(env={"CODE_MEMORY_ROOT": memory_root})
    assert cfg.get_path("search.top_k") == 9
    assert cfg.warnings == []


def test_layers_in_order(tmp_path):
    root = tmp_path / "mem"
    root.mkdir()
    (root / "config.json").write_text(json.dumps({"search": {"top_k": 7, "rrf_k": 10}}))
    proj = tmp_path / "proj"
    (proj / ".claude").mkdir(parents=True)
    (proj / ".claude" / "code-memory.json").write_text(json.dumps(
        {"search": {"top_k": 8}, "memory_root": "/etc", "embedding": {"model_path": "/evil"}}))
    env = {"CODE_MEMORY_ROOT": str(root), "CODE_MEMORY_SEARCH__RRF_K": "30"}
    cfg = load_config(project_dir=str(proj), env=env)
    assert cfg.get_path("search.top_k") == 8          # project beats user
    assert cfg.get_path("search.rrf_k") == 30         # env beats user
    assert cfg.root == str(root)                      # project may not redirect paths
    assert cfg.get_path("embedding.model_path") is None
    assert any("memory_root" in w for w in cfg.warnings)
    cfg = load_config(project_dir=str(proj), env=env, overrides={"search.top_k": 3})
    assert cfg.get_path("search.top_k") == 3          # flags beat everything


def test_malformed_user_config_is_a_clear_error(tmp_path):
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(CodeMemoryError) as exc:
        load_config(env={"CODE_MEMORY_ROOT": str(tmp_path)})
    assert exc.value.code == "CONFIG_INVALID"
    assert "config.json" in exc.value.message


def test_wrong_type_and_bad_env_are_rejected(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"search": {"top_k": "many"}}))
    with pytest.raises(CodeMemoryError) as exc:
        load_config(env={"CODE_MEMORY_ROOT": str(tmp_path)})
    assert exc.value.code == "CONFIG_INVALID"
    with pytest.raises(CodeMemoryError):
        load_config(env={"CODE_MEMORY_ROOT": str(tmp_path / "x"), "CODE_MEMORY_SEARCH__TOP_K": "abc"})
    for bad in ({"search": 5}, {"review": {"mode": "queue"}}):   # an object replaced by a value
        (tmp_path / "config.json").write_text(json.dumps(bad))
        with pytest.raises(CodeMemoryError) as exc:
            load_config(env={"CODE_MEMORY_ROOT": str(tmp_path)})
        assert exc.value.code == "CONFIG_INVALID" and "should be dict" in exc.value.message


def test_broken_project_config_only_warns(tmp_path):
    proj = tmp_path / "p"
    (proj / ".claude").mkdir(parents=True)
    (proj / ".claude" / "code-memory.json").write_text("[1,2")
    cfg = load_config(project_dir=str(proj), env={"CODE_MEMORY_ROOT": str(tmp_path / "m")})
    assert cfg.warnings


def test_command_table_matches_what_modules_register():
    import argparse
    import importlib

    from code_memory.cli.main import COMMAND_MODULES, COMMANDS

    registered = {}
    for module in COMMAND_MODULES:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(module).register(sub)
        for name in sub.choices:
            registered[name] = module
    assert registered == COMMANDS


def _readme():
    from docs_text import all_docs
    return all_docs()


def test_docs_name_every_command_script_and_error_code():
    """Docs that cannot drift (docs/development.md): every code-memory command and subcommand, every entry
    script and every error code is in the documentation."""
    import argparse
    import importlib

    from code_memory.cli.main import COMMAND_MODULES
    from code_memory.errors import EXIT_CODES

    readme = _readme()
    lines = readme.split("\n")
    missing = []
    for module in COMMAND_MODULES:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(module).register(sub)
        for name, cmd_parser in sub.choices.items():
            if f"code-memory {name}" not in readme:
                missing.append(f"code-memory {name}")
            nested = [a for a in cmd_parser._actions if isinstance(a, argparse._SubParsersAction)]
            for action in nested:
                for child in action.choices:
                    if not any(name in line and child in line for line in lines):
                        missing.append(f"code-memory {name} {child}")
    for entry in sorted(os.listdir(os.path.join(REPO, "scripts"))):
        if entry.endswith((".py", ".sh")) and f"{entry}" not in readme:
            missing.append(entry)
    for code in EXIT_CODES:
        if f"`{code}`" not in readme:
            missing.append(code)
    assert not missing, f"the docs lack: {missing}"
