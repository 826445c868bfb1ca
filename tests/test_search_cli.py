import json
import os

import pytest

from conftest import run_script


@pytest.fixture
def root(initialized_root):
    r = initialized_root.root
    os.makedirs(os.path.join(r, "areas/projects/demo"), exist_ok=True)
    with open(os.path.join(r, "areas/projects/demo/rules.md"), "w") as fh:
        fh.write("# demo rules\n\n## Database\n- 不要在 DAO 里拼接 SQL，使用参数化查询\n- Always bind parameters\n")
    with open(os.path.join(r, "MEMORY.md"), "a") as fh:
        fh.write("\n- prefer small pull requests\n")
    return r


def search(*args, **kw):
    kw.setdefault("terminal", "y")    # --project demo from elsewhere: the user confirms on the terminal
    res = run_script("memory-search.py", *args, **kw)
    return res.returncode, (json.loads(res.stdout) if res.stdout.strip().startswith("{") else res.stdout), res.stderr


def test_search_json_contract(root):
    code, out, _ = search("拼接 SQL", "--project", "demo", "--mode", "bm25")
    assert code == 0 and out["ok"] and out["mode_used"] == "bm25"
    hit = out["results"][0]
    assert set(hit) >= {"path", "start_line", "end_line", "heading", "snippet", "score", "ranks"}
    assert hit["path"].endswith("areas/projects/demo/rules.md") and hit["start_line"] == 3
    assert set(hit["ranks"]) == {"bm25", "vector"} and len(hit["snippet"]) <= 700
    assert out["index"]["rebuilt"] == "index was missing"


def test_text_format_and_errors(root):
    res = run_script("memory-search.py", "bind parameters", "--project", "demo", "--mode", "bm25", "--format", "text",
                     terminal="y")
    assert res.returncode == 0 and "rules.md:3-" in res.stdout
    code, out, _ = search("")
    assert code == 2 and out["error"] == "INVALID_ARGUMENT" and "hint" in out
    code, out, _ = search("x", "--mode", "nope")
    assert code == 2 and out["ok"] is False
    code, out, _ = search("x", "--scope", "all")
    assert code == 2 and "--force" in out["hint"]
    code, out, _ = search("bind", "--scope", "all", "--force", "--mode", "bm25")
    assert code == 0 and out["scope"] == "all"


def test_batch(root, tmp_path):
    batch = tmp_path / "q.jsonl"
    batch.write_text('{"id": 1, "query": "bind parameters"}\nnot json\n{"id": 2, "query": ""}\n{"id": 3, "query": "参数化"}\n')
    res = run_script("memory-search.py", "--batch", str(batch), "--project", "demo", "--mode", "bm25",
                     terminal="y")
    assert res.returncode == 0
    lines = [json.loads(raw) for raw in res.stdout.splitlines()]
    assert [line["id"] for line in lines] == [1, None, 2, 3]
    assert lines[0]["results"] and lines[3]["results"]
    assert lines[1]["error"] == "INVALID_ARGUMENT" and lines[2]["error"] == "INVALID_ARGUMENT"


def test_get_lines_and_traversal(root, tmp_path):
    code, out, _ = search("get", "--path", "areas/projects/demo/rules.md", "--from", "3", "--lines", "2",
                          terminal=None)
    assert code == 6 and out["error"] == "MEMORY_PATH_TRAVERSAL"         # another project's rules: not by default
    code, out, _ = search("get", "--path", "areas/projects/demo/rules.md", "--from", "3", "--lines", "2",
                          "--project", "demo")                           # named, and confirmed on the terminal
    assert code == 0 and out["text"].startswith("## Database") and out["lines"] == 2
    code, out, _ = search("get", "--path", os.path.join(root, "MEMORY.md"), "--lines", "500")
    assert code == 0 and out["clamped_to"] == 200
    secret = tmp_path / "secret.md"
    secret.write_text("secret")
    os.symlink(secret, os.path.join(root, "link.md"))
    for bad in ("../../../etc/passwd", str(secret), "link.md", "areas/../../x"):
        code, out, _ = search("get", "--path", bad)
        assert code == 6 and out["error"] == "MEMORY_PATH_TRAVERSAL", bad
    code, out, _ = search("get", "--path", "nope.md")
    assert code == 3 and out["error"] == "MEMORY_FILE_NOT_FOUND"
    code, out, _ = search("get", "--path", "MEMORY.md", "--from", "0")
    assert code == 2


def test_status_and_index(root):
    code, out, _ = search("status")
    assert code == 0 and out["index"]["exists"] is False and out["actions"]["recommended"]
    code, out, _ = search("index", "--no-vectors")
    assert code == 0 and out["counts"]["chunks"] > 0
    code, out, _ = search("status")
    assert out["index"]["usable"] and out["probes"]["ftsOk"] and out["dirty"]["count"] == 0
    with open(os.path.join(root, "daily.md"), "w") as fh:
        fh.write("new\n")
    code, out, _ = search("status")
    assert out["dirty"]["count"] == 1 and "new" not in json.dumps(out["dirty"]).replace("daily.md", "")


def _plain(*args):
    """memory-search.py as a plain checkout runs it: ``-I -S``, no site-packages, no extras."""
    import subprocess
    import sys

    from conftest import SCRIPTS, _terminal_kwargs

    kwargs = _terminal_kwargs("y")
    close = kwargs["pass_fds"] + kwargs.pop("_close")
    try:
        res = subprocess.run([sys.executable, "-I", "-S", os.path.join(SCRIPTS, "memory-search.py"), *args],
                             capture_output=True, text=True, env=dict(os.environ), **kwargs)
    finally:
        for fd in close:
            os.close(fd)
    assert res.stdout.startswith("{"), res.stderr
    return res.returncode, json.loads(res.stdout)


def test_plain_checkout_without_site_packages(root):
    """A git checkout runs with nothing but Python: no jieba (bigrams), no fastembed (BM25)."""
    code, out = _plain("index")
    assert code == 0 and out["segmenter"] == "bigram"
    assert "fastembed is not installed" in out["degraded"]["vector"]
    code, out = _plain("参数化查询", "--project", "demo", "--mode", "hybrid")
    assert code == 0 and out["mode_used"] == "bm25" and "fastembed" in out["degraded"]["vector"]
    assert out["results"][0]["path"].endswith("demo/rules.md")
    code, out = _plain("参数化查询", "--project", "demo")
    assert code == 0 and out["mode_used"] == "bm25" and "fastembed" in out["degraded"]["vector"]  # auto too


def test_index_upgrades_to_jieba_when_it_becomes_available(root):
    """An index built without jieba (bigrams) is upgraded by ``index`` once jieba is installed —
    searches never rebuild it — and a plain checkout then keeps using the cached dictionary."""
    pytest.importorskip("jieba", reason="needs the optional extra jieba (pip install code-memory[zh])")
    code, out = _plain("index")
    assert code == 0 and out["segmenter"] == "bigram"
    code, out, _ = search("index", "--no-vectors")
    assert out["segmenter"].startswith("jieba-dict:") and "segmenter changed" in out["rebuilt"]
    code, out = _plain("index")
    assert code == 0 and out["segmenter"].startswith("jieba-dict:")       # no downgrade
    code, out = _plain("参数化查询", "--project", "demo", "--mode", "bm25")
    assert out["results"][0]["path"].endswith("demo/rules.md")              # the cached dictionary serves queries
