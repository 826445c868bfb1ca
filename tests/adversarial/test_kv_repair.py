"""kv repair never loses data that exists anywhere on disk: random operation sequences (writes,
tombstones, compactions with rotation, both history policies), then every derived file deleted or
damaged in turn, then `kv check --repair` — the store must equal a model of the operations. Plus
kill -9 during compaction and during repair."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time

import pytest

from code_memory.kv.layout import KVLayout, KVOptions
from code_memory.kv.logfile import archive_files
from code_memory.kv.maintain import check, compact
from code_memory.kv.read import default_read
from code_memory.kv.view import get, ls, materialize
from code_memory.kv.write import set_memory
from conftest import SCRIPTS

USER = {"kind": "user", "name": "chat", "retrieved_at": "2026-02-22T10:00:00Z", "locator": "c1"}


def live(root) -> dict:
    """What every door reads: ls + get of each key."""
    return {k["key"]: get(root, k["key"])["content"] for k in ls(root)["keys"]}


def run_ops(root, rng, options, model, n_ops=60):
    for _ in range(n_ops):
        key = f"/p/k{rng.randrange(12)}"
        roll = rng.random()
        if roll < 0.7:
            value = {"summary": f"v{rng.randrange(10 ** 6)}", "n": rng.randrange(100)}
            set_memory(root, key, value, USER, options=options)
            model[key] = value
        elif roll < 0.85:
            set_memory(root, key, None, USER, options=options)
            model.pop(key, None)
        else:
            compact(root, options)


def _damage(layout: KVLayout, how: str) -> None:
    if how == "delete-state":
        os.unlink(layout.state)
    elif how == "truncate-state":
        with open(layout.state, "rb") as fh:
            data = fh.read()
        with open(layout.state, "wb") as fh:
            fh.write(data[: len(data) // 3])
    elif how == "garble-state":
        with open(layout.state, "r+b") as fh:
            fh.seek(max(0, os.path.getsize(layout.state) // 2))
            fh.write(b"\x00garbage\x00" * 8)
    elif how == "delete-digest":
        os.unlink(layout.digest)
    elif how == "garble-digest":
        with open(layout.digest, "wb") as fh:
            fh.write(b"not a digest")
    elif how == "delete-index":
        shutil.rmtree(layout.index)
    elif how == "garble-index":
        for base, _dirs, files in os.walk(layout.index):
            for name in files:
                with open(os.path.join(base, name), "w") as fh:
                    fh.write("{broken")
    elif how == "delete-all-derived":
        for path in (layout.state, layout.digest):
            os.unlink(path)
        shutil.rmtree(layout.index)


DAMAGE = ["delete-state", "truncate-state", "garble-state", "delete-digest", "garble-digest", "delete-index",
          "garble-index", "delete-all-derived"]


@pytest.mark.parametrize("policy", ["A", "B"])
@pytest.mark.parametrize("seed", range(6))
def test_deleting_any_derived_file_and_repairing_gives_the_same_store(memory_root, policy, seed):
    rng = random.Random(seed * 31 + (policy == "B"))
    options = KVOptions(history_policy=policy, rotate_lines=25)        # policy A rotates often too
    model: dict = {}
    run_ops(memory_root, rng, options, model)
    compact(memory_root, options)
    run_ops(memory_root, rng, options, model, n_ops=15)                  # writes after the snapshot
    layout = KVLayout.of(memory_root)
    assert live(memory_root) == model
    snapshot_dir = layout.kv + ".pristine"
    shutil.copytree(layout.kv, snapshot_dir, symlinks=True)
    for how in DAMAGE:
        shutil.rmtree(layout.kv)
        shutil.copytree(snapshot_dir, layout.kv, symlinks=True)
        if how.endswith("digest") and not os.path.exists(layout.digest):
            continue
        _damage(layout, how)
        assert materialize(layout)[0].keys() == model.keys(), how          # reads already see everything
        report = check(memory_root, options, repair=True)
        assert report["repaired"] and report["keys"] == len(model), how
        assert live(memory_root) == model, how
        assert check(memory_root, options)["drift"] == 0, how
        compact(memory_root, options)                                    # and stays so after compaction
        assert live(memory_root) == model, how
    assert policy == "A" or archive_files(layout.archive)


@pytest.mark.parametrize("policy", ["A", "B"])
def test_a_snapshot_ahead_of_deleted_archives_still_wins_and_is_written_back(memory_root, policy):
    options = KVOptions(history_policy=policy, rotate_lines=5)
    for i in range(8):
        set_memory(memory_root, f"/k/{i}", {"v": i}, USER, options=options)
    compact(memory_root, options)
    set_memory(memory_root, "/k/0", {"v": "after"}, USER, options=options)
    compact(memory_root, options)
    layout = KVLayout.of(memory_root)
    for path in archive_files(layout.archive):
        os.unlink(path)                                                 # history lost …
    if os.path.exists(layout.log):
        os.unlink(layout.log)
    assert check(memory_root, options, repair=True)["restored_to_log"] == 8      # … the snapshot is not
    os.unlink(layout.state)                                             # now the log alone rebuilds it
    check(memory_root, options, repair=True)
    assert live(memory_root) == {"/k/0": {"v": "after"}, **{f"/k/{i}": {"v": i} for i in range(1, 8)}}


def test_keys_only_in_index_files_are_salvaged(memory_root):
    for i in range(5):
        set_memory(memory_root, f"/only/{i}", {"v": i}, USER)
    layout = KVLayout.of(memory_root)
    os.unlink(layout.log)                                               # the log is gone, the index is not
    report = check(memory_root, repair=True)
    assert sorted(report["only_in_index"]) == [f"/only/{i}" for i in range(5)]
    shutil.rmtree(layout.index)
    os.unlink(layout.state)
    check(memory_root, repair=True)
    assert live(memory_root) == {f"/only/{i}": {"v": i} for i in range(5)}


_LOOP = r"""
import sys
sys.path.insert(0, {scripts!r})
from code_memory.kv.layout import KVOptions
from code_memory.kv.maintain import check, compact
print("ready", flush=True)
while True:
    {call}
"""


@pytest.mark.slow
@pytest.mark.parametrize("call", ["compact({root!r}, KVOptions(history_policy='B', rotate_lines=50))",
                                  "check({root!r}, KVOptions(history_policy='A', rotate_lines=50), repair=True)"])
def test_kill_9_during_compaction_and_repair_loses_nothing(memory_root, call):
    options = KVOptions(history_policy="A", rotate_lines=50)
    expected = {}
    for i in range(400):
        set_memory(memory_root, f"/k/{i}", {"v": i}, USER, options=options)
        expected[f"/k/{i}"] = {"v": i}
    layout = KVLayout.of(memory_root)
    code = _LOOP.format(scripts=SCRIPTS, call=call.format(root=memory_root))
    for attempt in range(10):
        set_memory(memory_root, f"/extra/{attempt}", {"v": attempt}, USER, options=options)
        expected[f"/extra/{attempt}"] = {"v": attempt}
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
        proc.stdout.readline()
        time.sleep(0.03 + 0.07 * attempt)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert materialize(layout)[0].keys() == expected.keys()
        assert len(default_read(memory_root, 100)["lines"]) > 0
    check(memory_root, options, repair=True)
    assert live(memory_root) == expected
    for path in archive_files(layout.archive) + ([layout.log] if os.path.exists(layout.log) else []):
        with open(path, "rb") as fh:                                    # every line whole
            assert all(json.loads(line) for line in fh.read().splitlines() if line.strip())
