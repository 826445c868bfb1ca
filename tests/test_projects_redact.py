import subprocess

from code_memory.projects import detect_project, group_names
from code_memory.redact import find_secrets, redact


def test_project_from_config_map_longest_prefix(tmp_path):
    (tmp_path / "w" / "sub").mkdir(parents=True)
    m = {str(tmp_path / "w"): "outer", str(tmp_path / "w" / "sub"): "inner"}
    assert detect_project(str(tmp_path / "w" / "sub" / "x.py"), projects_map=m).name == "inner"
    assert detect_project(str(tmp_path / "w" / "y.py"), projects_map=m).name == "outer"


def test_project_from_git_and_worktree(tmp_path):
    repo = tmp_path / "myrepo"
    (repo / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=a@b", "-c", "user.name=a",
                    "commit", "-q", "--allow-empty", "-m", "init"], check=True)
    p = detect_project(str(repo / "src" / "new_file.py"))
    assert (p.name, p.source) == ("myrepo", "git")
    wt = tmp_path / "elsewhere-wt"
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "-q", str(wt)], check=True)
    assert detect_project(str(wt / "a.py")).name == "myrepo"


def test_project_from_directory(tmp_path):
    d = tmp_path / "plain dir"
    d.mkdir()
    p = detect_project(None, cwd=str(d))
    assert p.source == "directory" and p.name == "plain-dir"
    assert group_names("a", {"shared-java": ["a", "b"], "x": ["c"]}) == ["shared-java"]


SECRETS = {
    "aws-access-key-id": "key AKIAIOSFODNN7EXAMPLE here",
    "github-token": "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "openai-key": "sk-" + "abcdefghijklmnopqrstuvwxyz0123",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "private-key": "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
    "url-password": "postgres://admin:hunter22@db.local/app",
    "secret-assignment": "DB_PASSWORD=s3cr3tvalue",
}


def test_redact_common_shapes():
    for kind, text in SECRETS.items():
        out = redact(text)
        assert "[REDACTED:" in out, (kind, out)
        assert kind in find_secrets(text), (kind, find_secrets(text))
    assert redact("postgres://admin:hunter22@db.local/app") == "postgres://admin:[REDACTED:url-password]@db.local/app"
    assert redact("keep <private>my diary</private> out") == "keep  out"
    assert redact("plain text, nothing secret: tokens are counted") == "plain text, nothing secret: tokens are counted"


def test_shortest_secret_shapes_are_still_redacted_past_the_length_fast_path():
    from code_memory.redact import redact
    assert redact("PWD=abcd") == "PWD=[REDACTED:secret-assignment]"
    assert redact("<private>") == ""
    assert redact("health") == "health"
