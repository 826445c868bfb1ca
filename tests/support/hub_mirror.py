"""A loopback stand-in for a Hugging Face hub mirror (what ``HF_ENDPOINT`` / ``embedding.endpoint``
point at, e.g. hf-mirror.com), serving one model repository from local files — so the real
fastembed + huggingface_hub download path is exercised with no network.

It answers the requests huggingface_hub makes for ``snapshot_download``: the repo info
(``/api/models/<repo>[/revision/<rev>]``), the file tree (``/api/models/<repo>/tree/<rev>``) and
the files (``HEAD``/``GET /<repo>/resolve/<rev>/<file>`` with ``X-Repo-Commit`` and ``ETag``).
Every request path is recorded.

    with HubMirror("Qdrant/bge-small-zh-v1.5", {"model_optimized.onnx": path, ...}) as hub:
        ... HF_ENDPOINT=hub.url ...
        assert hub.downloaded("model_optimized.onnx")
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _git_blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class HubMirror:
    def __init__(self, repo: str, files: dict):
        self.repo = repo
        self.files = {name: open(path, "rb").read() for name, path in files.items()}
        self.requests: list = []
        self._server = None

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def downloaded(self, name: str) -> bool:
        return any(m == "GET" and p.endswith(f"/resolve/{COMMIT}/{name}") or
                   (m == "GET" and p.endswith(f"/resolve/main/{name}")) for m, p in self.requests)

    def _tree(self) -> list:
        out = []
        for name, data in sorted(self.files.items()):
            entry = {"type": "file", "oid": _git_blob_id(data), "size": len(data), "path": name}
            if name.endswith(".onnx"):
                entry["lfs"] = {"oid": hashlib.sha256(data).hexdigest(), "size": len(data), "pointerSize": 134}
            out.append(entry)
        return out

    def _info(self) -> dict:
        return {"id": self.repo, "modelId": self.repo, "sha": COMMIT, "private": False, "disabled": False,
                "gated": False, "tags": [], "downloads": 0, "likes": 0, "lastModified": "2024-01-01T00:00:00.000Z",
                "siblings": [{"rfilename": name, "size": len(data)} for name, data in sorted(self.files.items())]}

    def start(self) -> "HubMirror":
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _answer(self, status: int, body: bytes, headers: dict, head: bool = False):
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if not head:
                    self.wfile.write(body)

            def _route(self, head: bool):
                path = unquote(urlsplit(self.path).path)
                hub.requests.append(("HEAD" if head else "GET", path))
                api = f"/api/models/{hub.repo}"
                if path in (api, f"{api}/revision/main", f"{api}/revision/{COMMIT}"):
                    return self._answer(200, json.dumps(hub._info()).encode(), {"Content-Type": "application/json"}, head)
                if path.startswith(f"{api}/tree/"):
                    return self._answer(200, json.dumps(hub._tree()).encode(), {"Content-Type": "application/json"}, head)
                prefix = f"/{hub.repo}/resolve/"
                if path.startswith(prefix):
                    _rev, _, name = path[len(prefix):].partition("/")
                    data = hub.files.get(name)
                    if data is None:
                        return self._answer(404, b"{}", {"X-Error-Code": "EntryNotFound"}, head)
                    etag = hashlib.sha256(data).hexdigest() if name.endswith(".onnx") else _git_blob_id(data)
                    return self._answer(200, data, {"X-Repo-Commit": COMMIT, "ETag": f'"{etag}"',
                                                    "Content-Type": "application/octet-stream"}, head)
                return self._answer(404, b"{}", {"X-Error-Code": "RepoNotFound"}, head)

            def do_GET(self):
                self._route(False)

            def do_HEAD(self):
                self._route(True)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def model_files(model_dir: str, onnx_name: str = "model_optimized.onnx") -> dict:
    """The test model's files as a hub repository's (its model.onnx under ``onnx_name``)."""
    files = {name: os.path.join(model_dir, name) for name in
             ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json")}
    files[onnx_name] = os.path.join(model_dir, "model.onnx")
    return files
