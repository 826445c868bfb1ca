"""Vector and hybrid search with a real ONNX model (assembled from PyPI packages, no download)."""

import json
import os

import pytest

from code_memory.config import load_config
from conftest import run_script

pytest.importorskip("fastembed")

DOCS = {
    "areas/projects/web/summary.md": "# web\n\n## Login\nUsers sign in with a JSON Web Token that the API gateway verifies.\n",
    "areas/tools/docker/summary.md": "# docker\n\n## Images\nKeep container images small by using multi-stage builds.\n",
    "areas/patterns/retry/summary.md": "# retry\n\n## Backoff\nRetry failed network calls with exponential backoff and jitter.\n",
}


@pytest.fixture
def vroot(initialized_root, test_model_config):
    for rel, text in DOCS.items():
        path = os.path.join(initialized_root.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(text)
    cfg = {"embedding": {k.split(".", 1)[1]: v for k, v in test_model_config.items()}}
    cfg["embedding"]["daemon"] = False
    with open(initialized_root.config_json, "w") as fh:
        json.dump(cfg, fh)
    return initialized_root


def search(*args):
    res = run_script("memory-search.py", *args, terminal="y")   # --scope all: the user says y
    assert res.stdout.startswith("{"), res.stderr
    return res.returncode, json.loads(res.stdout)


def test_index_embeds_only_changed_chunks(vroot):
    code, out = search("status")
    assert out["embedding"]["state"] == "not verified"
    code, out = search("index")
    assert code == 0 and out["vectors"]["embedded"] == out["counts"]["chunks"] > 0
    code, out = search("index")
    assert out["vectors"]["embedded"] == 0
    code, out = search("status")
    assert out["embedding"]["state"] == "ready" and out["embedding"]["chunks_without_vector"] == 0
    with open(os.path.join(vroot.root, "areas/tools/docker/summary.md"), "a") as fh:
        fh.write("\n## Networks\nUse user-defined bridge networks.\n")
    code, out = search("index")
    assert out["vectors"]["embedded"] == 1       # only the new chunk; the unchanged one keeps its vector


def test_vector_mode_finds_meaning_not_words(vroot):
    search("index")
    code, out = search("how do people authenticate?", "--mode", "vector", "--scope", "all", "--force")
    assert code == 0 and out["mode_used"] == "vector"
    assert out["results"][0]["path"].endswith("web/summary.md")
    assert out["results"][0]["ranks"]["vector"] == 1 and out["results"][0]["ranks"]["bm25"] is None
    code, out = search("how do people authenticate?", "--mode", "bm25", "--scope", "all", "--force")
    assert not any(r["path"].endswith("web/summary.md") for r in out["results"])


def test_hybrid_fuses_both_lists(vroot):
    search("index")
    code, out = search("exponential backoff for network calls", "--mode", "hybrid", "--scope", "all", "--force")
    assert code == 0 and out["mode_used"] == "hybrid"
    top = out["results"][0]
    assert top["path"].endswith("retry/summary.md") and top["ranks"] == {"bm25": 1, "vector": 1}


def test_unloadable_model_degrades_to_bm25(vroot, tmp_path):
    cfg = json.load(open(vroot.config_json))
    (tmp_path / "empty-model-dir").mkdir()
    cfg["embedding"]["model_path"] = str(tmp_path / "empty-model-dir")
    json.dump(cfg, open(vroot.config_json, "w"))
    code, out = search("backoff", "--mode", "hybrid", "--scope", "all", "--force")
    assert code == 0 and out["mode_used"] == "bm25"
    assert "model.onnx" in out["degraded"]["vector"]
    assert out["results"][0]["path"].endswith("retry/summary.md")
    code, out = search("status")
    assert out["embedding"]["state"] == "unavailable" and "model.onnx" in out["embedding"]["reason"]


def test_missing_default_model_degrades_with_one_reason_and_no_fastembed_noise(vroot, tmp_path):
    """The default (hub) model, not in the cache and no download allowed: fastembed's own ERROR lines
    must not reach the terminal; the answer carries our single reason instead."""
    cfg = json.load(open(vroot.config_json))
    cfg["embedding"] = {"model": "BAAI/bge-small-zh-v1.5", "daemon": False}
    json.dump(cfg, open(vroot.config_json, "w"))
    res = run_script("memory-search.py", "backoff", "--mode", "hybrid", "--scope", "all", "--force", terminal="y",
                     env={"FASTEMBED_CACHE_PATH": str(tmp_path / "empty-cache")})
    out = json.loads(res.stdout)
    assert res.returncode == 0 and out["mode_used"] == "bm25" and "bge-small-zh" in out["degraded"]["vector"]
    assert "ERROR" not in res.stderr and "fastembed" not in res.stderr, res.stderr


def test_daemon_serves_the_same_answers(vroot):
    from code_memory.search.daemon import stop
    from code_memory.search.embed import spec_from_config

    cfg = json.load(open(vroot.config_json))
    search("index")
    code, inproc = search("container image size", "--mode", "hybrid", "--scope", "all", "--force")
    cfg["embedding"]["daemon"] = True
    cfg["embedding"]["daemon_idle_seconds"] = 60
    cfg["embedding"]["daemon_start_wait_seconds"] = 60
    json.dump(cfg, open(vroot.config_json, "w"))
    spec = spec_from_config(load_config(root_override=vroot.root)["embedding"])
    try:
        code, via_daemon = search("container image size", "--mode", "hybrid", "--scope", "all", "--force")
        assert code == 0 and "degraded" not in via_daemon
        assert [r["path"] for r in via_daemon["results"]] == [r["path"] for r in inproc["results"]]
        assert [r["ranks"] for r in via_daemon["results"]] == [r["ranks"] for r in inproc["results"]]
        # new content is embedded by the daemon in the background and found by meaning
        with open(os.path.join(vroot.root, "areas/tools/k8s.md"), "w") as fh:
            fh.write("# k8s\n\n## Pods\nA pod groups containers that share storage and network.\n")
        import time
        for _ in range(100):
            code, out = search("kubernetes pod", "--mode", "vector", "--scope", "all", "--force")
            if "degraded" not in out:
                break
            time.sleep(0.1)
        assert any(r["path"].endswith("k8s.md") and r["ranks"]["vector"] for r in out["results"])
    finally:
        assert stop(spec)


def test_batched_embedding_keeps_input_order(test_model_dir):
    """Texts are embedded sorted by length; the rows must come back in the caller's order."""
    import numpy as np
    import testmodel

    from code_memory.search.embed import load_model, spec_from_config

    embedder = load_model(spec_from_config(testmodel.model_config(test_model_dir)))
    texts = ["a much longer sentence about container networking and storage volumes", "short",
             "medium length text about retries", "x", "another fairly long sentence on JSON web tokens"]
    batched = embedder.embed(texts, batch_size=2)
    singles = np.vstack([embedder.embed([t])[0] for t in texts])
    assert np.allclose(batched, singles, atol=1e-4)
