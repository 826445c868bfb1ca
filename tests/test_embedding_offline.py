"""Embedding models without the hub (search/embed.py, ``code-memory model``): a hub mirror through
``embedding.endpoint`` or ``$HF_ENDPOINT`` (the real fastembed + huggingface_hub download against a
loopback mirror), a local model directory, the ``degraded`` reason in every answer while vectors
are off, and one remembered background retry instead of a wait in the search path."""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest

from conftest import run_script
from support.hub_mirror import HubMirror, model_files

pytest.importorskip("fastembed", reason="vectors need the optional extra fastembed")

REPO_ID = "Qdrant/bge-small-zh-v1.5"      # what fastembed fetches for the default model


@pytest.fixture
def root(initialized_root):
    os.makedirs(initialized_root.project_dir("demo"), exist_ok=True)
    with open(os.path.join(initialized_root.project_dir("demo"), "summary.md"), "w", encoding="utf-8") as fh:
        fh.write("# demo\n\n## Retries\nExponential backoff with jitter for flaky network calls.\n")
    return initialized_root


def configure(paths, **embedding):
    with open(paths.config_json, "w", encoding="utf-8") as fh:
        json.dump({"embedding": embedding}, fh)


def cli(*args, env=None, script="code-memory.py"):
    proc = run_script(script, *args, env=env, terminal="y")     # --scope all: the user says y
    return proc.returncode, json.loads(proc.stdout.splitlines()[0]), proc.stderr


def online(tmp_path, **extra) -> dict:
    """An environment that may download (the suite runs with HF_HUB_OFFLINE=1) into a private cache."""
    return {"HF_HUB_OFFLINE": "", "FASTEMBED_CACHE_PATH": str(tmp_path / "fastembed-cache"), **extra}


def search(*args, env=None):
    return cli("backoff for network calls", "--scope", "all", "--force", *args, env=env, script="memory-search.py")


@pytest.mark.parametrize("via", ["embedding.endpoint", "HF_ENDPOINT"])
def test_the_default_model_comes_through_a_hub_mirror(root, tmp_path, test_model_dir, via):
    with HubMirror(REPO_ID, model_files(test_model_dir)) as hub:
        if via == "HF_ENDPOINT":
            configure(root, daemon=False)
            env = online(tmp_path, HF_ENDPOINT=hub.url)
        else:
            configure(root, daemon=False, endpoint=hub.url)
            env = online(tmp_path)
        code, out, _ = cli("model", "status", env=env)
        assert out["state"] == "not downloaded" and out["cached"] is False and out["endpoint"] == hub.url
        code, out, _ = cli("model", "fetch", env=env)
        assert code == 0 and out["ready"] is True and out["model"] == "BAAI/bge-small-zh-v1.5", out
        assert hub.downloaded("model_optimized.onnx") and hub.downloaded("tokenizer.json")
    assert os.listdir(tmp_path / "fastembed-cache")                  # kept in the persistent cache
    code, out, _ = search(env=online(tmp_path, HF_HUB_OFFLINE="1"))  # searches never download
    assert code == 0 and out["mode_used"] == "hybrid" and "degraded" not in out
    assert out["results"][0]["path"].endswith("demo/summary.md") and out["results"][0]["ranks"]["vector"]


def test_an_unreachable_mirror_says_what_to_do(root, tmp_path):
    configure(root, daemon=False, endpoint="http://127.0.0.1:9")      # nothing listens on the discard port
    code, out, _ = cli("model", "fetch", env=online(tmp_path))
    assert code == 5 and out["error"] == "MODEL_UNAVAILABLE"
    assert "127.0.0.1 cannot be reached" in out["message"] and "embedding.model_path" in out["message"]
    code, out, _ = cli("model", "status", env=online(tmp_path))
    assert out["state"] == "unavailable" and "127.0.0.1" in out["reason"]


def test_a_local_model_directory_needs_no_network(root, tmp_path, test_model_dir):
    """A copy of the hub repository (model_optimized.onnx + tokenizer files) under the default model
    name; and a custom model whose dim comes from its config.json."""
    copy = tmp_path / "bge-copy"
    copy.mkdir()
    for name, source in model_files(test_model_dir).items():
        shutil.copyfile(source, copy / name)
    configure(root, daemon=False, model_path=str(copy))
    code, out, _ = search()
    assert code == 0 and out["mode_used"] == "hybrid" and "degraded" not in out
    configure(root, daemon=False, model="my/minilm", model_path=test_model_dir, pooling="mean")
    code, out, _ = search()
    assert code == 0 and out["mode_used"] == "hybrid" and "degraded" not in out
    configure(root, daemon=False, model_path=str(tmp_path / "nothing-here"))
    code, out, _ = search()
    assert out["mode_used"] == "bm25" and "is not a directory" in out["degraded"]["vector"]


def failure_file(paths):
    found = [f for f in os.listdir(paths.index_dir) if f.startswith("embedding-unavailable-")]
    if not found:
        return None
    with open(os.path.join(paths.index_dir, found[0]), encoding="utf-8") as fh:
        return json.load(fh)


def wait_for(predicate, seconds=90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


def last_attempt(record: dict) -> float:
    """When a retry last started or ended: the record holds ``retry_at`` while the background retry
    runs, and only ``at`` once it has failed again (which a loaded machine may reach before we look)."""
    return max(float(record.get("at") or 0), float(record.get("retry_at") or 0))


def test_degraded_in_every_answer_and_one_remembered_background_retry(root, tmp_path):
    """The default model is not downloaded and cannot be (HF_HUB_OFFLINE): every auto search says
    why vectors are off, none starts or waits for the embedding daemon, and one background retry
    runs — not one per search; when it is due again, one more starts."""
    from code_memory.config import load_config
    from code_memory.search.daemon import socket_path
    from code_memory.search.embed import spec_from_config

    configure(root)                                               # defaults: daemon on
    env = {"FASTEMBED_CACHE_PATH": str(tmp_path / "empty-cache")}
    began = time.time()
    answers = [search(env=env)[1] for _ in range(3)]
    assert all(a["mode_used"] == "bm25" and "bge-small-zh" in a["degraded"]["vector"] for a in answers)
    assert "trying again in the background now" in answers[0]["degraded"]["vector"]
    assert all("at most once an hour" in a["degraded"]["vector"] for a in answers[1:])
    assert "code-memory model fetch" in answers[1]["degraded"]["vector"]
    spec = spec_from_config(load_config(root_override=root.root)["embedding"])
    assert not os.path.exists(socket_path(spec))                  # no daemon was started (or waited for)
    assert last_attempt(failure_file(root)) >= began      # the retry is noted (or, on a slow machine, already over)
    # the background retry ran (and failed: offline); its reason and time are remembered
    assert wait_for(lambda: "HF_HUB_OFFLINE" in failure_file(root)["reason"])
    assert failure_file(root)["at"] >= began and "retry_at" not in failure_file(root)
    again = search(env=env)[1]["degraded"]["vector"]
    assert "HF_HUB_OFFLINE" in again and "at most once an hour" in again and "retry_at" not in failure_file(root)
    # an hour later the next search starts exactly one new retry, still without waiting for it
    path = os.path.join(root.index_dir, [f for f in os.listdir(root.index_dir) if f.startswith("embedding-")][0])
    stale = {**failure_file(root), "at": time.time() - 7200, "retry_at": time.time() - 7200}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(stale, fh)
    out = search(env=env)[1]
    assert "trying again in the background now" in out["degraded"]["vector"]
    assert last_attempt(failure_file(root)) > stale["retry_at"]
    assert "at most once an hour" in search(env=env)[1]["degraded"]["vector"]


def test_the_background_retry_brings_vectors_back_by_itself(root, tmp_path, test_model_dir):
    """Not downloaded yet, a mirror configured: the first search answers BM25 at once and starts the
    download in the background; a later search has vectors, with nothing run by hand."""
    with HubMirror(REPO_ID, model_files(test_model_dir)) as hub:
        configure(root, daemon=False, endpoint=hub.url)
        env = online(tmp_path)
        code, out, _ = search(env=env)
        assert out["mode_used"] == "bm25" and "not downloaded yet" in out["degraded"]["vector"]
        assert wait_for(lambda: failure_file(root) is None), failure_file(root)   # the retry succeeded
        assert hub.downloaded("model_optimized.onnx")
    code, out, _ = search(env=env)
    assert code == 0 and out["mode_used"] == "hybrid" and "degraded" not in out
