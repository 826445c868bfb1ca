"""Hook registration in settings.json (install_settings.py), install.sh, and the plugin files."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from code_memory.errors import CodeMemoryError
from code_memory.hooks.registry import HOOKS, MARKER, hooks_json
from code_memory.install import settings as inst
from conftest import REPO

HOOKS_DIR = os.path.join(REPO, "hooks")
USER_SETTINGS = {
    "model": "opus",
    "env": {"FOO": "1"},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/guard.sh"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}],
    },
    "permissions": {"allow": ["Read(*)"], "deny": ["Bash(rm -rf /)"]},
}


def write_json(path, obj):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, indent=2)


def ours(settings):
    return [h["command"] for groups in settings.get("hooks", {}).values() for g in groups
            for h in g.get("hooks", []) if h["command"].endswith(MARKER)]


def test_install_adds_ours_keeps_everything_else_and_is_idempotent(tmp_path):
    path = str(tmp_path / "settings.json")
    write_json(path, USER_SETTINGS)
    change = inst.plan(path, HOOKS_DIR)
    assert change["changed"] and len(change["added"]) == len(HOOKS)
    result = inst.apply(change)
    assert result["written"] and os.path.exists(result["backup"])
    with open(result["backup"], encoding="utf-8") as fh:
        assert json.load(fh) == USER_SETTINGS
    with open(path, encoding="utf-8") as fh:
        new = json.load(fh)
    assert len(ours(new)) == len(HOOKS)
    assert new["model"] == "opus" and new["permissions"] == USER_SETTINGS["permissions"] and new["env"] == {"FOO": "1"}
    assert new["hooks"]["PreToolUse"][0] == USER_SETTINGS["hooks"]["PreToolUse"][0]  # the user's first
    assert new["hooks"]["Stop"][0] == USER_SETTINGS["hooks"]["Stop"][0]  # the user's first, ours after it
    read = [g for g in new["hooks"]["PreToolUse"] if g.get("matcher") == "Read"]
    assert read and read[0]["hooks"][0]["command"] == f"{HOOKS_DIR}/rules-injector.sh {MARKER}"
    assert "SubagentStart" in new["hooks"] and "matcher" not in new["hooks"]["SubagentStart"][0]
    mtime = os.stat(path).st_mtime_ns
    again = inst.plan(path, HOOKS_DIR)
    assert not again["changed"]
    assert inst.apply(again) == {"written": False, "backup": None}
    assert os.stat(path).st_mtime_ns == mtime
    assert len([f for f in os.listdir(tmp_path) if "backup" in f]) == 1


def test_uninstall_removes_only_ours(tmp_path):
    path = str(tmp_path / "settings.json")
    write_json(path, USER_SETTINGS)
    inst.apply(inst.plan(path, HOOKS_DIR))
    with open(path, encoding="utf-8") as fh:
        installed = json.load(fh)
    # the user adds a handler of their own into one of our groups meanwhile
    installed["hooks"]["SessionEnd"][0]["hooks"].append({"type": "command", "command": "my-end.sh"})
    write_json(path, installed)
    inst.apply(inst.plan(path, HOOKS_DIR, uninstall=True))
    with open(path, encoding="utf-8") as fh:
        after = json.load(fh)
    assert ours(after) == []
    assert after["hooks"]["PreToolUse"] == USER_SETTINGS["hooks"]["PreToolUse"]
    assert after["hooks"]["Stop"] == USER_SETTINGS["hooks"]["Stop"]
    assert after["hooks"]["SessionEnd"] == [{"hooks": [{"type": "command", "command": "my-end.sh"}]}]
    assert "SessionStart" not in after["hooks"]
    assert {k: v for k, v in after.items() if k != "hooks"} == {k: v for k, v in USER_SETTINGS.items() if k != "hooks"}


def test_moved_checkout_is_repointed(tmp_path):
    path = str(tmp_path / "settings.json")
    inst.apply(inst.plan(path, "/old/place/hooks"))
    inst.apply(inst.plan(path, HOOKS_DIR))
    with open(path, encoding="utf-8") as fh:
        commands = ours(json.load(fh))
    assert len(commands) == len(HOOKS) and all(HOOKS_DIR in c for c in commands)


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '"x"', '{"hooks": []}', '{"hooks": {"Stop": {}}}',
                                  '{"hooks": {"Stop": [1]}}', '{"hooks": {"Stop": [{"hooks": "x"}]}}',
                                  "\xff\xfe"])
def test_malformed_settings_are_refused_and_untouched(tmp_path, text):
    (tmp_path / "cfg").mkdir()
    path = tmp_path / "cfg" / "settings.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    before = path.read_bytes()
    with pytest.raises(CodeMemoryError) as info:
        inst.plan(str(path), HOOKS_DIR)
    assert info.value.code == "SETTINGS_INVALID" and "left unchanged" in info.value.message
    assert path.read_bytes() == before and os.listdir(path.parent) == ["settings.json"]


def test_symlinked_settings_keep_their_link_and_mode(tmp_path):
    real = tmp_path / "dotfiles" / "claude-settings.json"
    real.parent.mkdir()
    write_json(real, {"model": "x"})
    os.chmod(real, 0o600)
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    inst.apply(inst.plan(str(link), HOOKS_DIR))
    assert link.is_symlink()
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o600
    assert len(ours(json.loads(real.read_text()))) == len(HOOKS)


def test_odd_checkout_paths_are_quoted(tmp_path):
    odd = tmp_path / "my code's $HOME `x`" / "hooks"
    odd.mkdir(parents=True)
    shim = odd / "rules-injector.sh"
    shim.write_text('#!/bin/sh\nprintf "%s|%s" "$0" "$CODE_MEMORY_PYTHON"\n')
    shim.chmod(0o755)
    entries = inst.our_entries(str(odd), python="/opt/venv w/bin/python")
    command = entries["PreToolUse"][0]["hooks"][0]["command"]
    assert command.endswith(MARKER)
    out = subprocess.run(["sh", "-c", command], capture_output=True, text=True).stdout  # as Claude Code runs it
    assert out == f"{shim}|/opt/venv w/bin/python"


def test_plugin_hooks_json_matches_the_registry():
    with open(os.path.join(HOOKS_DIR, "hooks.json"), encoding="utf-8") as fh:
        assert json.load(fh) == hooks_json()
    with open(os.path.join(REPO, ".claude-plugin", "plugin.json"), encoding="utf-8") as fh:
        plugin = json.load(fh)
    assert plugin["name"] == "code-memory"
    for groups in hooks_json()["hooks"].values():
        for group in groups:
            command = group["hooks"][0]["command"]
            assert command.startswith('"${CLAUDE_PLUGIN_ROOT}/hooks/') and MARKER not in command


# -- install.sh --------------------------------------------------------------------------------

FAKE_CRONTAB = """#!/bin/sh
f="$(dirname "$0")/crontab.txt"
if [ "$1" = "-l" ]; then cat "$f" 2>/dev/null || exit 1; else cat > "$f"; fi
"""


@pytest.fixture
def install(tmp_path, isolated_home):
    bin_dir = tmp_path / "bin"  # a crontab of our own on PATH: the real one is never touched
    bin_dir.mkdir()
    crontab = bin_dir / "crontab"
    crontab.write_text(FAKE_CRONTAB)
    crontab.chmod(0o755)

    def run(*args):
        env = dict(os.environ, PYTHON=sys.executable, PATH=f"{bin_dir}:{os.environ['PATH']}")
        return subprocess.run([os.path.join(REPO, "install.sh"), *args], capture_output=True, text=True,
                              env=env, timeout=120)
    run.crontab_file = bin_dir / "crontab.txt"
    run.settings = isolated_home / ".claude" / "settings.json"
    return run


def test_install_sh_hooks_only_cron_and_uninstall(install, memory_root):
    (install.settings.parent).mkdir(parents=True, exist_ok=True)
    write_json(install.settings, USER_SETTINGS)
    install.crontab_file.write_text("0 1 * * * backup.sh\n")
    dry = install("--hooks-only", "--cron", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "would change" in dry.stdout and "[dry-run]" in dry.stdout
    assert json.loads(install.settings.read_text()) == USER_SETTINGS and not os.path.exists(memory_root)
    assert install.crontab_file.read_text() == "0 1 * * * backup.sh\n"

    for _ in range(2):  # idempotent
        done = install("--hooks-only", "--cron")
        assert done.returncode == 0, done.stdout + done.stderr
    settings = json.loads(install.settings.read_text())
    assert len(ours(settings)) == len(HOOKS) and settings["permissions"] == USER_SETTINGS["permissions"]
    assert os.path.isfile(os.path.join(memory_root, "MEMORY.md"))
    cron = install.crontab_file.read_text().splitlines()
    assert cron[0] == "0 1 * * * backup.sh"
    assert len(cron) == 2 and "scripts/weekly-consolidate.sh" in cron[1] and cron[1].endswith("# code-memory:weekly-consolidate")
    backups = [f for f in os.listdir(install.settings.parent) if "code-memory-backup" in f]
    assert len(backups) == 1

    gone = install("--uninstall")
    assert gone.returncode == 0, gone.stderr
    assert json.loads(install.settings.read_text()) == USER_SETTINGS
    assert install.crontab_file.read_text().splitlines() == ["0 1 * * * backup.sh"]
    assert os.path.isfile(os.path.join(memory_root, "MEMORY.md"))  # memory is kept


def test_install_sh_refuses_a_malformed_settings_file(install):
    install.settings.parent.mkdir(parents=True, exist_ok=True)
    install.settings.write_text('{"model": "opus",,}')
    result = install("--hooks-only")
    assert result.returncode != 0
    assert "SETTINGS_INVALID" in result.stdout + result.stderr and "unchanged" in result.stdout + result.stderr
    assert install.settings.read_text() == '{"model": "opus",,}'
    assert not [f for f in os.listdir(install.settings.parent) if "backup" in f]


def test_install_sh_help_and_unknown_option(install):
    assert "--uninstall" in install("--help").stdout
    assert install("--bogus").returncode == 2
