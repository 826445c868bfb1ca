"""The weekly job: stats, topics, knowledge-tree check, cleanup (and what it never touches), the
report, dry runs, failing steps, the shell entry point, and the crontab registration."""

import datetime as dt
import json
import os
import subprocess
import sys
import time

import pytest

from code_memory.config import load_config
from code_memory.errors import CodeMemoryError
from code_memory.evolution import consolidate as cons
from code_memory.evolution import signals as sg
from code_memory.install import cron
from code_memory.memory.daily import append_daily_edit
from code_memory.memory.facts import add_fact
from code_memory.memory.tree import ensure_area
from conftest import REPO, run_script
from evolution_support import DAY, MODULE, PORT, ROUTINE, history, write_summary

NOW = time.time()
S = cons.Settings()


def edit(paths, days_ago, project, name, minute=0):
    when = dt.datetime.fromtimestamp(NOW - days_ago * DAY).replace(hour=10, minute=minute)
    append_daily_edit(paths, when, project, name)


def test_edit_stats_and_topics(initialized_root):
    paths = initialized_root
    for minute, name in enumerate(["a.py", "b.py", "a.py", "a.py"]):
        edit(paths, 1, "web", name, minute)
    edit(paths, 2, "api", "main.go")
    edit(paths, 20, "web", "old.py")                       # outside the week
    stats = cons.edit_stats(paths, cons._day(NOW - 7 * DAY), cons._day(NOW))
    assert stats["top_files"][0] == {"project": "web", "file": "a.py", "edits": 3}
    assert stats["projects"] == {"web": 4, "api": 1}
    assert stats["days_active"] == 2 and "old.py" not in json.dumps(stats)
    write_summary(paths, "s-new", NOW - DAY, [ROUTINE], project="web", topic="实现登录")
    write_summary(paths, "s-old", NOW - 10 * DAY, [ROUTINE], topic="旧的")
    assert [(t["session_id"], t["topic"]) for t in cons.session_topics(paths, NOW - 7 * DAY)] == [("s-new", "实现登录")]


def test_knowledge_tree_check(initialized_root):
    paths = initialized_root
    good = ensure_area(paths, "projects", "web")
    with open(os.path.join(good, "summary.md"), "a") as fh:
        fh.write("\nA React app.\n")
    a = add_fact(os.path.join(good, "facts.json"), "port 8080")
    add_fact(os.path.join(good, "facts.json"), "port 9090", supersedes=a["id"])
    ensure_area(paths, "tools", "docker")                  # untouched template summary: a note, not a problem
    broken = paths.project_dir("api")
    os.makedirs(broken)
    with open(os.path.join(broken, "facts.json"), "w") as fh:
        json.dump({"facts": [{"id": "f1", "fact": "x"}, {"id": "f1", "fact": "y"},
                             {"id": "f2", "fact": "z", "status": "superseded", "supersededBy": "nope"}]}, fh)
    with open(os.path.join(broken, "rules.md"), "w") as fh:
        fh.write("<<<<<<< HEAD\n- a\n=======\n- b\n>>>>>>> x\n")
    res = cons.check_tree(paths, active_projects={"web", "api", "mobile"})
    by_name = {a["name"]: a for a in res["areas"]}
    assert by_name["web"]["ok"] and by_name["web"]["notes"] == ["1 active facts"]
    assert by_name["docker"]["ok"] and "summary.md is still the template" in by_name["docker"]["notes"]
    assert by_name["api"]["issues"] == ["summary.md missing", "facts.json: duplicate fact ids: f1",
                                        "facts.json: f2: supersededBy points to a missing fact",
                                        "rules.md has merge-conflict markers"]
    assert res["active_projects_without_area"] == ["mobile"]
    assert res["problems"] == 4 and not res["ok"]
    with open(paths.memory_md, "w") as fh:
        fh.write("# my own memory\n")
    assert "no '## 避坑经验 (Pitfalls)' section" in cons.check_tree(paths)["memory_md"][0]
    os.unlink(paths.memory_md)
    assert "MEMORY.md missing" in cons.check_tree(paths)["memory_md"][0]


def _snapshot(root):
    """Every file's bytes, except the derived caches in .index/ (rebuildable, not memory)."""
    out = {}
    for base, _dirs, files in os.walk(root):
        if os.path.relpath(base, root).split(os.sep)[0] == ".index":
            continue
        for name in files:
            path = os.path.join(base, name)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, root)] = fh.read()
    return out


def seed_old_and_new(paths):
    ensure_area(paths, "projects", "web")
    write_summary(paths, "old", NOW - 31 * DAY, [PORT])
    write_summary(paths, "new", NOW - 29 * DAY, [PORT])
    os.utime(os.path.join(paths.sessions, "old.md"))      # recent mtime: the summary's own time decides
    for name in ("2020-01-01.md", cons._day(NOW - 92 * DAY) + ".md", cons._day(NOW - 89 * DAY) + ".md"):
        with open(os.path.join(paths.daily, name), "w") as fh:
            fh.write("# note\n")
    extras = [os.path.join(paths.sessions, ".pending", "notes.txt"), os.path.join(paths.sessions, "notes.txt"),
              os.path.join(paths.daily, "README.md"), os.path.join(paths.project_dir("web"), "old.md")]
    for path in extras:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write("keep\n")
    old = NOW - 400 * DAY
    for path in extras + [paths.memory_md]:
        os.utime(path, (old, old))
    return extras


def test_cleanup_deletes_only_old_sessions_and_daily_notes(initialized_root, tmp_path):
    paths = initialized_root
    extras = seed_old_and_new(paths)
    outside = tmp_path / "outside.md"
    outside.write_text("x")
    os.symlink(outside, os.path.join(paths.sessions, "link.md"))
    plan = cons.cleanup_plan(paths, NOW, S)
    assert sorted((p["kind"], os.path.basename(p["path"])) for p in plan) == sorted([
        ("session", "old.md"), ("daily", "2020-01-01.md"), ("daily", cons._day(NOW - 92 * DAY) + ".md")])
    assert cons.apply_cleanup(paths, plan) == 3
    assert sorted(os.listdir(paths.sessions)) == [".pending", "link.md", "new.md", "notes.txt"]
    assert all(os.path.exists(p) for p in extras) and os.path.exists(paths.memory_md) and outside.exists()
    longer = cons.Settings(sessions_retention_days=60, daily_retention_days=365 * 20)
    assert cons.cleanup_plan(paths, NOW, longer) == []


def test_signals_survive_the_cleanup(initialized_root):
    paths = initialized_root
    history(paths, NOW, [[PORT], [PORT], [PORT]], start_days_ago=40)
    assert sg.analyze(paths, sg.Settings(), now=NOW)["recurring"][0]["count"] == 3
    cons.apply_cleanup(paths, cons.cleanup_plan(paths, NOW, S))
    assert os.listdir(paths.sessions) == []
    res = sg.analyze(paths, sg.Settings(), now=NOW)
    assert res["recurring"][0]["pattern"] == "environment_issue:port" and res["recurring"][0]["count"] == 3


def test_full_run_and_dry_run(initialized_root, isolated_home):
    paths = initialized_root
    seed_old_and_new(paths)
    history(paths, NOW, [[PORT], [MODULE], [PORT, MODULE], [PORT], [MODULE], [ROUTINE]],
            outcomes=["success"] * 6, start_days_ago=3)
    edit(paths, 1, "web", "app.py")
    cfg = load_config(env={"CODE_MEMORY_ROOT": paths.root, "CODE_MEMORY_LLM__BACKEND": "none"})
    before = _snapshot(paths.root)
    dry = cons.consolidate(cfg, S, dry_run=True, now=NOW)
    assert _snapshot(paths.root) == before, "a dry run wrote or deleted something"
    assert not (isolated_home / ".claude" / "skills").exists()
    assert dry["report"].startswith("# Weekly consolidation") and "would delete 1 session summaries" in dry["report"]
    assert dry["steps"]["capabilities"]["generated"] and dry["failed_steps"] == []

    res = cons.consolidate(cfg, S, now=NOW)
    steps = res["steps"]
    assert res["failed_steps"] == []
    assert {name: s["status"] for name, s in steps.items()} == {
        "stats": "ok", "topics": "ok", "tree": "ok", "pending": steps["pending"]["status"],
        "facts": steps["facts"]["status"], "signals": "ok", "capabilities": "ok", "distill": "ok",
        "cleanup": "ok",
        "reindex": steps["reindex"]["status"]}
    assert steps["cleanup"]["deleted"] == 3
    # review.mode.skills defaults to queue: the Skills wait for approval
    assert steps["capabilities"]["generated"] == []
    assert [g["name"] for g in steps["capabilities"]["queued"]] == ["auto-env-port", "auto-dep-missing-module"]
    assert os.path.exists(steps["signals"]["report"])
    report = open(res["report_path"], encoding="utf-8").read()
    assert "## Most-edited files" in report and "app.py [web]" in report
    assert "queued `auto-env-port`" in report and "code-memory review show p-" in report
    assert res["report_path"].endswith(f"evolution/reports/weekly-{cons._day(NOW)}.md")
    assert os.path.exists(paths.memory_md) and os.path.isdir(paths.project_dir("web"))


def test_a_failing_step_does_not_stop_the_others(initialized_root):
    paths = initialized_root
    history(paths, NOW, [[PORT]] * 2, start_days_ago=2)
    (open(paths.config_json, "w")).write(json.dumps({"signals": {"extra_rules": [{"type": "nope"}]}}))
    proc = run_script(os.path.join(REPO, "scripts", "weekly-consolidate.sh"), "--skip", "reindex",
                      env={"CODE_MEMORY_PYTHON": sys.executable})
    out = json.loads(proc.stdout)
    assert proc.returncode == 9 and out["error"] == "CONSOLIDATE_INCOMPLETE"
    assert out["failed_steps"] == ["signals", "capabilities"]
    assert out["steps"]["signals"]["error"] == "CONFIG_INVALID"
    assert out["steps"]["cleanup"]["status"] == "ok" and out["steps"]["reindex"]["status"] == "skipped"
    assert os.path.exists(out["report_path"])


def test_jobs_of_other_services_are_handed_in(initialized_root):
    """pending / facts / reindex are the jobs the edge hands in: each is run in its place, a failing
    one is reported without stopping the rest, a missing one is skipped; the CLI's jobs are real."""
    from code_memory.cli.consolidate import weekly_jobs

    paths = initialized_root
    cfg = load_config(env={"CODE_MEMORY_ROOT": paths.root, "CODE_MEMORY_LLM__BACKEND": "none"})
    calls = []

    def broken():
        calls.append("facts")
        raise CodeMemoryError("MEMORY_READ_FAILED", "cannot read")

    res = cons.consolidate(cfg, S, now=NOW, jobs={"pending": lambda: calls.append("pending") or {"pending": 0},
                                                  "facts": broken})
    assert calls == ["pending", "facts"]
    assert res["steps"]["pending"] == {"status": "ok", "pending": 0}
    assert res["steps"]["facts"]["error"] == "MEMORY_READ_FAILED" and res["failed_steps"] == ["facts"]
    assert res["steps"]["reindex"] == {"status": "skipped", "reason": "the reindex job is not available"}

    res = cons.consolidate(cfg, S, now=NOW, jobs=weekly_jobs(cfg))
    assert res["failed_steps"] == []
    assert res["steps"]["pending"]["pending"] == 0 and res["steps"]["reindex"]["counts"]["chunks"] > 0
    assert os.path.exists(paths.index_db)


# crontab --------------------------------------------------------------------------------------

FAKE_CRONTAB = """#!/bin/bash
F="$FAKE_CRONTAB_FILE"
case "$1" in
  -l) if [ -f "$F" ]; then cat "$F"; else echo "no crontab for $USER" >&2; exit 1; fi ;;
  -) cat > "$F" ;;
  *) cp "$1" "$F" ;;
esac
"""


@pytest.fixture
def fake_crontab(tmp_path, monkeypatch):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "crontab").write_text(FAKE_CRONTAB)
    (bindir / "crontab").chmod(0o755)
    store = tmp_path / "crontab.txt"
    monkeypatch.setenv("PATH", f"{bindir}:{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_CRONTAB_FILE", str(store))
    return store


def test_cron_install_replace_remove(fake_crontab, initialized_root):
    fake_crontab.write_text("MAILTO=me@example.com\n0 1 * * * /usr/bin/backup\n")
    proc = run_script("code-memory.py", "cron", "install")
    out = json.loads(proc.stdout)
    assert proc.returncode == 0 and out["replaced"] == 0
    lines = fake_crontab.read_text().splitlines()
    assert lines[:2] == ["MAILTO=me@example.com", "0 1 * * * /usr/bin/backup"]
    assert lines[2].startswith("17 3 * * 0 CODE_MEMORY_PYTHON=") and lines[2].endswith(cron.TAG)
    assert "weekly-consolidate.sh --root " + initialized_root.root in lines[2]
    out = json.loads(run_script("code-memory.py", "cron", "install", "--schedule", "0 4 * * 1").stdout)
    assert out["replaced"] == 1
    lines = fake_crontab.read_text().splitlines()
    assert len(lines) == 3 and lines[2].startswith("0 4 * * 1 ")
    assert json.loads(run_script("code-memory.py", "cron", "status").stdout)["installed"] is True
    assert json.loads(run_script("code-memory.py", "cron", "remove").stdout)["removed"] == 1
    assert fake_crontab.read_text().splitlines() == ["MAILTO=me@example.com", "0 1 * * * /usr/bin/backup"]
    bad = run_script("code-memory.py", "cron", "install", "--schedule", "every sunday")
    assert bad.returncode == 2 and json.loads(bad.stdout)["error"] == "INVALID_ARGUMENT"


def test_cron_line_runs_the_job(fake_crontab, initialized_root):
    """The registered command line itself works when a shell runs it (as cron does)."""
    run_script("code-memory.py", "cron", "install")
    line = fake_crontab.read_text().splitlines()[-1]
    command = line.split(" ", 5)[5].split(" #")[0].replace(" >> ", " --skip reindex >> ", 1)
    subprocess.run(["/bin/sh", "-c", command], check=True, timeout=120, env={"HOME": os.environ["HOME"],
                                                                               "PATH": "/usr/bin:/bin"})
    log = os.path.join(initialized_root.logs, "weekly.log")
    assert json.loads(open(log).read().splitlines()[-1])["ok"] is True


def test_cron_without_crontab(tmp_path, monkeypatch, initialized_root):
    monkeypatch.setenv("PATH", str(tmp_path))
    proc = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "code-memory.py"), "cron", "status"],
                          capture_output=True, text=True)
    assert proc.returncode == 5 and json.loads(proc.stdout)["error"] == "CRON_UNAVAILABLE"
    with pytest.raises(CodeMemoryError):
        cron.job_line("* * *", "/x", "/r", "/p")


def test_install_sh_cron_dry_run():
    proc = subprocess.run(["bash", os.path.join(REPO, "install.sh"), "--dry-run", "--cron"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "cron install" in proc.stdout
