"""Our commands on PATH (install/links.py, ``code-memory links``, install.sh): links into a bin
directory, never over a file that is not ours, re-pointed by the last install, removed only by
their own installation; the PATH hint; the bin/ wrappers and the console scripts list the same
names."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys

import pytest

from code_memory.errors import CodeMemoryError
from code_memory.install import links
from conftest import REPO, SCRIPTS

WRAPPERS = os.path.join(REPO, "bin")


def here() -> links.Installation:
    return links.Installation(WRAPPERS)


def other_checkout(tmp_path) -> links.Installation:
    """A second checkout's bin/ (wrappers only: enough to own links)."""
    other = tmp_path / "other-checkout" / "bin"
    other.mkdir(parents=True)
    for name, script in links.COMMANDS:
        (other / name).write_text(links.wrapper_text(name, script))
        (other / name).chmod(0o755)
    return links.Installation(str(other))


def by_name(result) -> dict:
    return {row["name"]: row for row in result["links"]}


def test_bin_wrappers_and_console_scripts_name_every_command():
    for name, script in links.COMMANDS:
        path = os.path.join(WRAPPERS, name)
        with open(path, encoding="utf-8") as fh:
            assert fh.read() == links.wrapper_text(name, script), f"bin/{name} is stale: regenerate it"
        assert os.access(path, os.X_OK) and os.path.isfile(os.path.join(SCRIPTS, script))
    assert sorted(os.listdir(WRAPPERS)) == sorted(links.NAMES)
    with open(os.path.join(REPO, "pyproject.toml"), encoding="utf-8") as fh:   # (no tomllib on 3.10)
        section = fh.read().split("[project.scripts]\n", 1)[1].split("\n[", 1)[0]
    scripts = [line.split("=", 1)[0].strip().strip('"') for line in section.splitlines()
               if "=" in line and not line.startswith("#")]
    assert sorted(scripts) == sorted(links.NAMES)


def test_install_creates_links_that_run_and_is_idempotent(tmp_path, memory_root):
    bin_dir = str(tmp_path / "missing" / "bin")          # created on the way
    result = links.install(bin_dir, here(), path_env="/usr/bin:/bin")
    assert result["counts"] == {"create": len(links.NAMES)} and not result["on_path"]
    assert f'export PATH="{bin_dir}:$PATH"' in result["path_hint"]
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": os.environ["HOME"], "CODE_MEMORY_PYTHON": sys.executable,
           "CODE_MEMORY_ROOT": memory_root}
    out = subprocess.run(["memory-search.py", "status"], capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert out.returncode == 0 and json.loads(out.stdout)["ok"] is True, out.stdout + out.stderr
    again = links.install(bin_dir, here(), path_env=f"/usr/bin:{bin_dir}")
    assert again["counts"] == {"keep": len(links.NAMES)} and again["on_path"] and "path_hint" not in again


def test_a_file_that_is_not_ours_is_never_overwritten(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "memtool").write_text("#!/bin/sh\necho my own memtool\n")
    (bin_dir / "code-memory").symlink_to("/usr/bin/true")
    result = by_name(links.install(str(bin_dir), here(), path_env=""))
    assert result["memtool"]["action"] == "conflict" and "not code-memory" in result["memtool"]["note"]
    assert result["code-memory"]["action"] == "conflict" and "/usr/bin/true" in result["code-memory"]["note"]
    assert (bin_dir / "memtool").read_text() == "#!/bin/sh\necho my own memtool\n"
    assert os.readlink(bin_dir / "code-memory") == "/usr/bin/true"
    assert result["memory-search"]["action"] == "create"
    removed = by_name(links.remove(str(bin_dir), here(), path_env=""))
    assert removed["memtool"]["action"] == "leave" and (bin_dir / "memtool").exists()
    assert removed["code-memory"]["action"] == "leave" and os.path.islink(bin_dir / "code-memory")
    assert removed["memory-search"]["action"] == "remove" and not os.path.lexists(bin_dir / "memory-search")


def test_two_checkouts_last_install_wins_and_uninstall_takes_only_its_own(tmp_path):
    bin_dir = str(tmp_path / "bin")
    other = other_checkout(tmp_path)
    links.install(bin_dir, other, path_env="")
    mine = by_name(links.install(bin_dir, here(), path_env=""))
    assert mine["memtool"]["action"] == "update" and other.wrapper_dir in mine["memtool"]["note"]
    assert os.readlink(os.path.join(bin_dir, "memtool")) == os.path.join(WRAPPERS, "memtool")
    # the other checkout's uninstall leaves our links alone ...
    left = links.remove(bin_dir, other, path_env="")
    assert left["counts"] == {"leave": len(links.NAMES)}
    assert all(os.path.islink(os.path.join(bin_dir, n)) for n in links.NAMES)
    # ... a deleted checkout's dangling links are re-pointed, ours are removed by us
    shutil.rmtree(tmp_path / "other-checkout")
    links.install(bin_dir, other, path_env="")   # (points at the deleted checkout again)
    assert by_name(links.install(bin_dir, here(), path_env=""))["code-memory"]["action"] == "update"
    assert links.remove(bin_dir, here(), path_env="")["counts"] == {"remove": len(links.NAMES)}
    assert os.listdir(bin_dir) == []


def unwritable_dir(tmp_path) -> str:
    """A directory we may not write: read-only for a user; for root (who passes permission checks)
    a directory of a file system that refuses new entries."""
    if os.getuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
        return str(locked)
    if os.path.isdir("/sys"):
        return "/sys"
    pytest.skip("no unwritable directory for root here")


def test_an_unusable_bin_dir_is_a_clear_error(tmp_path):
    taken = tmp_path / "file"
    taken.write_text("x")
    with pytest.raises(CodeMemoryError) as info:
        links.install(str(taken), here(), path_env="")
    assert info.value.code == "LINK_FAILED" and "not a directory" in info.value.message
    locked = unwritable_dir(tmp_path)
    with pytest.raises(CodeMemoryError) as info:
        links.install(str(locked), here(), path_env="")
    assert info.value.code == "LINK_FAILED" and "not writable" in info.value.message
    assert info.value.hint.startswith("set CODE_MEMORY_BIN")
    with pytest.raises(CodeMemoryError) as info:
        links.install("/proc/no-such/bin", here(), path_env="")               # cannot be created
    assert "cannot be created" in info.value.message


def test_the_venv_console_scripts_are_preferred_when_the_python_has_them(tmp_path):
    venv_bin = tmp_path / "venv" / "bin"
    venv_bin.mkdir(parents=True)
    for name in links.NAMES:
        (venv_bin / name).write_text("#!/x/python\nfrom code_memory.cli.main import main\n")
    inst = links.Installation.detect(WRAPPERS, str(venv_bin / "python"))
    assert inst.console_dir == str(venv_bin)
    rows = by_name(links.install(str(tmp_path / "bin"), inst, path_env=""))
    assert rows["memory-search.py"]["target"] == str(venv_bin / "memory-search.py")
    assert links.Installation.detect(WRAPPERS, "/usr/bin/python3").console_dir is None


# -- the command line and install.sh ------------------------------------------------------------

def run_cli(*args, env=None):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, "code-memory.py"), "links", *args],
                          capture_output=True, text=True, env={**os.environ, **(env or {})})


def test_cli_text_says_what_it_did_and_when_the_dir_is_off_path(tmp_path):
    bin_dir = str(tmp_path / "b")
    dry = run_cli("install", "--bin", bin_dir, "--dry-run", "--format", "text", env={"PATH": "/usr/bin:/bin"})
    assert dry.returncode == 0 and f"would change {len(links.NAMES)} command link(s)" in dry.stdout
    assert "not on your PATH" in dry.stdout and not os.path.exists(bin_dir)
    done = run_cli("install", "--format", "text", env={"CODE_MEMORY_BIN": bin_dir, "PATH": f"{bin_dir}:/usr/bin:/bin"})
    assert done.returncode == 0 and "not on your PATH" not in done.stdout
    again = run_cli("install", "--bin", bin_dir, "--format", "text")
    assert "nothing to do" in again.stdout and len(again.stdout.strip().splitlines()) <= 2
    bad = run_cli("install", "--bin", str(tmp_path / "b" / "code-memory"))   # a link, not a directory
    assert bad.returncode == 7 and json.loads(bad.stdout)["error"] == "LINK_FAILED"


def test_install_sh_links_and_uninstall_removes_only_ours(tmp_path, isolated_home, memory_root):
    bin_dir = isolated_home / ".local" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "memtool").write_text("#!/bin/sh\necho mine\n")
    env = dict(os.environ, PYTHON=sys.executable, PATH="/usr/bin:/bin")
    run = lambda *a: subprocess.run([os.path.join(REPO, "install.sh"), *a], capture_output=True, text=True,
                                    env=env, timeout=120)
    done = run("--hooks-only")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{bin_dir} is not on your PATH" in done.stdout and "NOT linked: memtool (a file that is not code-memory's)" in done.stdout
    assert os.path.islink(bin_dir / "memory-search") and (bin_dir / "memtool").read_text() == "#!/bin/sh\necho mine\n"
    dry = run("--hooks-only", "--dry-run")
    assert "nothing to do" in dry.stdout and "up to date — nothing to change" in dry.stdout
    assert run("--uninstall").returncode == 0
    assert os.listdir(bin_dir) == ["memtool"]
    custom = tmp_path / "custom-bin"
    assert run("--hooks-only", "--bin", str(custom)).returncode == 0
    assert os.path.islink(custom / "code-memory")
    # an unwritable bin directory: said clearly, and the rest of the install goes on
    done = run("--hooks-only", "--bin", unwritable_dir(tmp_path))
    assert done.returncode == 0 and "LINK_FAILED" in done.stderr and "not writable" in done.stderr
    assert "were not linked" in done.stdout and "[code-memory] hooks" in done.stdout


def test_links_of_retired_names_are_removed_and_others_files_kept(tmp_path):
    """Names an earlier version linked (each now a `code-memory` command) go away on install: ours,
    dangling or not; a file of such a name that is not ours stays."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    old_venv = tmp_path / "old-venv" / "bin"
    old_venv.mkdir(parents=True)
    (old_venv / "set-memory").write_text("#!/x/python\nfrom code_memory.cli.kv import set_memory_main\n")
    (bin_dir / "set-memory").symlink_to(old_venv / "set-memory")
    (bin_dir / "session-summary.py").symlink_to(tmp_path / "gone" / "bin" / "session-summary.py")   # dangling
    (bin_dir / "signal-analyzer").write_text("#!/bin/sh\necho mine\n")
    result = links.install(str(bin_dir), here(), path_env="")
    assert result["counts"]["retire"] == 2 and result["counts"]["create"] == len(links.NAMES)
    assert not os.path.lexists(bin_dir / "set-memory") and not os.path.lexists(bin_dir / "session-summary.py")
    assert (bin_dir / "signal-analyzer").read_text() == "#!/bin/sh\necho mine\n"
    assert not set(links.NAMES) & {name for name, _script in links.RETIRED}
