import json
import os
import signal
import subprocess
import sys
import time

import pytest

from code_memory.fsutil import iter_jsonl
from code_memory.kv.keys import index_relpath
from code_memory.kv.layout import KVLayout, KVOptions
from code_memory.kv.logfile import read_state, read_state_header
from code_memory.kv.maintain import check, compact
from code_memory.kv.read import default_read
from code_memory.kv.view import get, ls
from code_memory.kv.write import set_memory
from conftest import SCRIPTS


def fill(root, n, prefix="/k", **kw):
    for i in range(n):
        set_memory(root, f"{prefix}/{i}", {"summary": f"v{i}"}, "chat", **kw)


def test_compaction_policy_a_keeps_log_and_writes_state(memory_root):
    fill(memory_root, 10)
    set_memory(memory_root, "/k/3", None, "chat")
    set_memory(memory_root, "/k/4", {"summary": "new"}, "chat")
    layout = KVLayout.of(memory_root)
    before = open(layout.log, "rb").read()
    report = compact(memory_root)
    assert report["keys"] == 9 and report["rotated_to"] is None and report["policy"] == "A"
    assert open(layout.log, "rb").read() == before
    header, entries = read_state(layout.state)
    assert header["keys"] == 9 and header["log"]["offset"] == len(before)
    assert "/k/3" not in entries and entries["/k/4"]["content"] == {"summary": "new"}
    lines = open(layout.state, encoding="utf-8").read().splitlines()
    assert len(lines) == 10 and all(json.loads(line) for line in lines)
    assert [json.loads(x)["key"] for x in lines[1:]] == sorted(entries)
    # writes after compaction are seen on top of the state
    set_memory(memory_root, "/k/5", None, "chat")
    assert ls(memory_root)["total"] == 8


def test_compaction_policy_b_archives_the_log(memory_root):
    fill(memory_root, 5)
    layout = KVLayout.of(memory_root)
    report = compact(memory_root, KVOptions(history_policy="B"))
    assert report["rotated_to"].startswith("kv/archive/log_")
    assert not os.path.exists(layout.log)
    assert len(list(iter_jsonl(os.path.join(memory_root, report["rotated_to"])))) == 5
    assert ls(memory_root)["total"] == 5
    set_memory(memory_root, "/k/0", None, "chat")
    set_memory(memory_root, "/k/9", {"summary": "after"}, "chat")
    assert sorted(k["key"] for k in ls(memory_root)["keys"]) == ["/k/1", "/k/2", "/k/3", "/k/4", "/k/9"]
    report2 = compact(memory_root, KVOptions(history_policy="B"))
    assert report2["rotated_to"] != report["rotated_to"]
    assert sorted(read_state(layout.state)[1]) == ["/k/1", "/k/2", "/k/3", "/k/4", "/k/9"]


def test_policy_a_rotates_past_threshold_without_losing_history(memory_root):
    fill(memory_root, 12)
    report = compact(memory_root, KVOptions(rotate_lines=10))
    assert report["rotated_to"] and report["log_lines"] == 12
    archived = list(iter_jsonl(os.path.join(memory_root, report["rotated_to"])))
    assert len(archived) == 12
    assert ls(memory_root)["total"] == 12


def test_ts_monotonic_after_rotation(memory_root):
    import datetime as dt
    ahead = dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=2)      # a clock that stepped back since
    first = set_memory(memory_root, "/a", {"v": 1}, "chat", now=ahead)
    compact(memory_root, KVOptions(history_policy="B"))
    r = set_memory(memory_root, "/a", {"v": 2}, "chat")
    assert r["ts"] > first["ts"]
    set_memory(memory_root, "/a", {"v": 3}, "chat", now=dt.datetime(2099, 1, 1, tzinfo=dt.timezone.utc))
    compact(memory_root, KVOptions(history_policy="B"))
    r = set_memory(memory_root, "/a", {"v": 4}, "chat")           # a clock 70 years ahead is not followed …
    assert r["ts"] < "2099"
    assert get(memory_root, "/a")["content"] == {"v": 4}          # … and the later write still wins


def test_expired_dropped_only_when_configured(memory_root):
    set_memory(memory_root, "/a", {"summary": "x", "expired_at": "2000-01-01T00:00:00Z"}, "chat")
    set_memory(memory_root, "/b", {"summary": "y"}, "chat")
    assert compact(memory_root)["keys"] == 2
    report = compact(memory_root, KVOptions(drop_expired_on_compact=True))
    assert report["dropped_expired"] == 1 and report["keys"] == 1
    assert not os.path.exists(os.path.join(memory_root, "kv", "index", index_relpath("/a")))


def test_dry_run_changes_nothing(memory_root):
    fill(memory_root, 3)
    layout = KVLayout.of(memory_root)
    report = compact(memory_root, KVOptions(history_policy="B"), dry_run=True)
    assert report["dry_run"] and report["keys"] == 3
    assert not os.path.exists(layout.state) and os.path.exists(layout.log)


def test_check_reports_and_repairs_drift(memory_root, tmp_path):
    fill(memory_root, 6)
    layout = KVLayout.of(memory_root)
    idx = lambda k: layout.index_file(index_relpath(k))  # noqa: E731
    os.unlink(idx("/k/0"))                                           # missing
    with open(idx("/k/1"), "w") as fh:                               # stale
        json.dump({"key": "/k/1", "ts": "x", "content": {"summary": "hand edited"}}, fh)
    orphan = layout.index_file(index_relpath("/gone/x"))
    os.makedirs(os.path.dirname(orphan))
    with open(orphan, "w") as fh:
        fh.write("{}")
    with open(os.path.join(os.path.dirname(idx("/k/2")), ".x@1.json.abc.tmp"), "w") as fh:
        fh.write("partial")                                          # leftover of a crashed write
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, os.path.join(layout.index, "evil"))          # unsafe
    with open(os.path.join(layout.index, "README.txt"), "w") as fh:  # foreign: reported, kept
        fh.write("user note")
    report = check(memory_root)
    counts = {k: v["count"] for k, v in report["index"].items()}
    assert counts == {"missing": 1, "stale": 1, "orphans": 1, "unsafe": 1, "leftovers": 1, "foreign": 1}
    assert report["drift"] == 5 and report["repaired"] is False and report["state_missing"] is True
    report = check(memory_root, repair=True)
    assert report["repaired"] is True
    after = check(memory_root)
    assert after["drift"] == 0 and after["state_missing"] is False and after["state_behind_lines"] == 0
    assert after["index"]["foreign"]["count"] == 1
    assert json.load(open(idx("/k/1")))["content"] == {"summary": "v1"}
    assert os.path.exists(idx("/k/0")) and not os.path.lexists(os.path.join(layout.index, "evil"))
    assert not os.path.exists(os.path.join(layout.index, "gone"))
    assert list(outside.iterdir()) == []


def test_index_recovered_after_deletion(memory_root):
    fill(memory_root, 20)
    import shutil
    shutil.rmtree(KVLayout.of(memory_root).index)
    assert check(memory_root)["index"]["missing"]["count"] == 20
    compact(memory_root)
    assert check(memory_root)["drift"] == 0
    assert get(memory_root, "/k/7")["content"] == {"summary": "v7"}


def test_state_corruption_is_recovered_from_the_log(memory_root):
    fill(memory_root, 5)
    compact(memory_root)
    layout = KVLayout.of(memory_root)
    with open(layout.state, "w") as fh:
        fh.write("garbage\n")
    assert ls(memory_root)["total"] == 5          # header unreadable -> replay the whole log
    check(memory_root, repair=True)
    assert read_state_header(layout.state)["keys"] == 5


def test_compaction_due_is_reported_and_the_cli_compacts(memory_root, capsys):
    os.makedirs(memory_root, exist_ok=True)
    with open(os.path.join(memory_root, "config.json"), "w") as fh:
        json.dump({"kv": {"compact_after_lines": 50}}, fh)
    opts = KVOptions(compact_after_lines=50)
    big = {"summary": "x" * 5000}
    layout = KVLayout.of(memory_root)
    i = 0
    log_size = lambda: os.path.getsize(layout.log) if os.path.exists(layout.log) else 0  # noqa: E731
    while log_size() < (1 << 20) - 6000:
        assert set_memory(memory_root, f"/big/{i}", big, "chat", options=opts)["compaction_due"] is False
        i += 1
    assert not os.path.exists(layout.state)
    from code_memory.cli.main import main
    assert main(["kv", "set", "/big/last", json.dumps(big), "chat"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["compaction_due"] is True and out["compaction"]["keys"] == i + 1
    assert read_state_header(layout.state)["keys"] == i + 1


_WRITER = r"""
import sys
sys.path.insert(0, {scripts!r})
from code_memory.kv.write import set_memory
worker = int(sys.argv[1])
for i in range({n}):
    set_memory({root!r}, f"/w{{worker}}/k{{i}}", {{"worker": worker, "i": i, "pad": "x" * (i % 50)}}, "agent")
"""


@pytest.mark.slow
def test_sixteen_concurrent_writers_lose_nothing(memory_root):
    n = 500
    code = _WRITER.format(scripts=SCRIPTS, n=n, root=memory_root)
    procs = [subprocess.Popen([sys.executable, "-c", code, str(w)]) for w in range(16)]
    assert [p.wait(timeout=600) for p in procs] == [0] * 16
    layout = KVLayout.of(memory_root)
    raw = open(layout.log, "rb").read()
    lines = raw.split(b"\n")
    assert lines[-1] == b"" and len(lines) - 1 == 16 * n
    assert all(json.loads(line)["key"] for line in lines[:-1])       # no torn or interleaved line
    ts = [json.loads(line)["ts"] for line in lines[:-1]]
    assert ts == sorted(ts) and len(set(ts)) == len(ts)
    report = compact(memory_root)
    assert report["keys"] == 16 * n and report["bad_log_lines"] == 0
    header, entries = read_state(layout.state)
    for w in range(16):
        for i in range(n):
            assert entries[f"/w{w}/k{i}"]["content"]["i"] == i
    assert check(memory_root)["drift"] == 0


_COMPACTOR = r"""
import sys
sys.path.insert(0, {scripts!r})
from code_memory.kv.layout import KVOptions
from code_memory.kv.maintain import compact
print("ready", flush=True)
while True:
    compact({root!r}, KVOptions(history_policy={policy!r}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["A", "B"])
def test_kill_9_during_compaction_never_tears_state(memory_root, policy):
    fill(memory_root, 3000)
    layout = KVLayout.of(memory_root)
    compact(memory_root)
    expected = {f"/k/{i}" for i in range(3000)}
    code = _COMPACTOR.format(scripts=SCRIPTS, root=memory_root, policy=policy)
    for attempt in range(8):
        set_memory(memory_root, f"/extra/{attempt}", {"summary": str(attempt)}, "chat")
        expected.add(f"/extra/{attempt}")
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
        proc.stdout.readline()
        time.sleep(0.05 + 0.09 * attempt)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        with open(layout.state, "rb") as fh:
            state_lines = fh.read().split(b"\n")
        assert state_lines[-1] == b""                                  # whole file, ends cleanly
        header = json.loads(state_lines[0])["_kv_state"]
        assert header["keys"] == len(state_lines) - 2
        assert all(json.loads(line)["valid"] for line in state_lines[1:-1])
        assert {k["key"] for k in ls(memory_root)["keys"]} == expected
        assert len(default_read(memory_root, 100)["lines"]) > 0
    leftovers = [n for n in os.listdir(layout.kv) if n.endswith(".tmp")]
    compact(memory_root)
    assert [n for n in os.listdir(layout.kv) if n.endswith(".tmp") and n in leftovers] == []
    check(memory_root, repair=True)
    assert check(memory_root)["drift"] == 0
    assert {k for k in read_state(layout.state)[1]} == expected
