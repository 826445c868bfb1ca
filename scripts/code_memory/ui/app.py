"""The memory browser's web application (Starlette): pages and the ``/api/`` endpoints behind them.

Each page is a view (:mod:`.views`, plain data) rendered by a Jinja template; ``/api/<page>``
returns the same data as JSON. Writes (edit, archive, restore, approve, reject) are POSTs to
``/api/…`` with the CSRF token; a form post is answered with a redirect back to the page and a
message, a JSON post with JSON. Errors are a stable code and a message (JSON, or an error page),
never a traceback. docs/browser.md § Memory browser lists every endpoint.
"""

from __future__ import annotations

import asyncio
import json
import os
from functools import partial
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..errors import CodeMemoryError, invalid
from . import render, views
from .security import Guard, same

MAX_BODY = 64 * 1024
# HTTP status by the error's exit status (errors.py): bad input 400, not found 404, refused 403, …
STATUS_BY_EXIT = {2: 400, 3: 404, 6: 403, 10: 409, 8: 503}
STATUS = {"CSRF_REFUSED": 403, "REVIEW_TARGET_GONE": 409}
STATIC = {"app.css": "text/css; charset=utf-8"}
NAV = (("search", "Search · 搜索"), ("timeline", "Timeline · 时间线"), ("areas", "Projects · 项目"),
       ("effectiveness", "Effectiveness · 效果"), ("map", "Knowledge map · 知识图谱"), ("review", "Review · 审核"),
       ("todos", "To-dos · 待办"))


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("code_memory.ui", "templates"), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters.update(markdown=render.markdown, highlight=render.highlight)
    env.globals.update(bar_chart=render.bar_chart, histogram=render.histogram, graph=render.graph,
                       query_marks=render.query_marks, nav=NAV)
    return env


class App:
    def __init__(self, state: views.State, csrf: str):
        self.state = state
        self.csrf = csrf
        self.env = _environment()

    # --- plumbing ------------------------------------------------------------------------------

    async def run(self, work):
        """Blocking work (files, SQLite) off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(None, work)

    def page(self, request: Request, template: str, data: dict, title: str, active: str) -> HTMLResponse:
        html = self.env.get_template(template).render(
            data=data, title=title, active=active, csrf=self.csrf, read_only=self.state.read_only,
            msg=request.query_params.get("msg", "")[:300], error=request.query_params.get("error", "")[:300],
            request_path=request.url.path)
        return HTMLResponse(html)

    def error(self, request: Request, exc: CodeMemoryError) -> Response:
        status = STATUS.get(exc.code) or STATUS_BY_EXIT.get(exc.exit_code, 500)
        body = exc.to_dict()
        if request.url.path.startswith("/api/"):
            return JSONResponse(body, status_code=status)
        html = self.env.get_template("error.html").render(data=body, title=exc.code, active="", csrf=self.csrf,
                                                          read_only=self.state.read_only, msg="", error="",
                                                          request_path=request.url.path)
        return HTMLResponse(html, status_code=status)

    def handler(self, view, template: str | None = None, title: str = "", active: str = ""):
        """A GET endpoint: ``view(request) -> data`` as a page (``template``) or JSON."""
        async def endpoint(request: Request):
            try:
                data = await self.run(partial(view, request))
            except CodeMemoryError as exc:
                return self.error(request, exc)
            except Exception as exc:   # never a traceback to the client, never memory text in a log
                return self.error(request, CodeMemoryError("INTERNAL_ERROR", f"internal error ({type(exc).__name__})"))
            if template is None:
                return JSONResponse({"ok": True, **data})
            return self.page(request, template, data, title, active)
        return endpoint

    def action(self, work):
        """A POST endpoint: ``work(request, fields) -> result``; CSRF-checked; JSON or redirect."""
        async def endpoint(request: Request):
            is_form = not request.headers.get("content-type", "").startswith("application/json")
            fields: dict = {}
            try:
                fields = await self._fields(request, is_form)
                if not same(str(fields.get("csrf") or request.headers.get("x-csrf-token") or ""), self.csrf):
                    raise CodeMemoryError("CSRF_REFUSED", "the form's CSRF token is missing or wrong",
                                          hint="reload the page and try again")
                result = await self.run(partial(work, request, fields))
            except CodeMemoryError as exc:
                if is_form and fields.get("next"):
                    return self._back(fields["next"], error=f"{exc.code}: {exc.message}")
                return self.error(request, exc)
            except Exception as exc:
                return self.error(request, CodeMemoryError("INTERNAL_ERROR", f"internal error ({type(exc).__name__})"))
            if is_form:
                return self._back(fields.get("next") or "/", msg=result.pop("message", "done"))
            result.pop("message", None)
            return JSONResponse({"ok": True, **result})
        return endpoint

    async def _fields(self, request: Request, is_form: bool) -> dict:
        declared = request.headers.get("content-length")
        if declared and (not declared.isdigit() or int(declared) > MAX_BODY):
            raise invalid(f"the request body is larger than {MAX_BODY} bytes")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise invalid(f"the request body is larger than {MAX_BODY} bytes")
        if is_form:
            from urllib.parse import parse_qsl
            return dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        try:
            value = json.loads(body or b"{}")
        except ValueError:
            raise invalid("the body is not JSON") from None
        if not isinstance(value, dict):
            raise invalid("the body must be a JSON object")
        return value

    @staticmethod
    def _back(target: str, **message) -> RedirectResponse:
        target = str(target)
        if not target.startswith("/") or target.startswith("//") or "\\" in target:
            target = "/"
        sep = "&" if "?" in target else "?"
        return RedirectResponse(target + sep + urlencode(message), status_code=303)

    # --- views ---------------------------------------------------------------------------------

    def v_search(self, request):
        q = request.query_params
        data = views.search(self.state, q.get("q", ""), q.get("source", ""), q.get("project", ""), q.get("mode", ""))
        data["filters"] = {k: q.get(k, "") for k in ("source", "project", "mode")}
        return data

    def v_file(self, request):
        q = request.query_params
        try:
            start, count = int(q.get("from", "1")), int(q.get("lines", views.PAGE_LINES))
            end = int(q["to"]) if q.get("to") else None
        except ValueError:
            raise invalid("from, to and lines are whole numbers") from None
        return views.read_lines(self.state, q.get("path", ""), start, count, end)

    def v_item(self, request):
        return views.get_item(self.state, request.query_params.get("id", ""))

    def v_timeline(self, request):
        q = request.query_params
        try:
            page = int(q.get("page", "1"))
        except ValueError:
            raise invalid("page is a number") from None
        return views.timeline(self.state, q.get("project", ""), q.get("day", ""), page)

    def v_session(self, request):
        return views.session(self.state, request.path_params["sid"])

    def v_daily(self, request):
        return views.daily(self.state, request.path_params["date"])

    def v_areas(self, request):
        return views.areas(self.state)

    def v_area(self, request):
        p = request.path_params
        return views.area(self.state, p["kind"], p["name"], request.query_params.get("verification", ""))

    def v_effectiveness(self, request):
        return views.effectiveness(self.state)

    def v_map(self, request):
        return views.knowledge_map(self.state, request.query_params.get("topic", ""))

    def v_memtool(self, request):
        return {"item": views.memtool_item(self.state, request.path_params["mid"])}

    def v_review(self, request):
        q = request.query_params
        return views.review_list(self.state, q.get("status", "pending"), q.get("kind", ""))

    def v_review_item(self, request):
        return views.review_item(self.state, request.path_params["pid"])

    # --- writes --------------------------------------------------------------------------------

    def w_edit(self, request, fields):
        from ..evolution import curate

        views.check_root(self.state)
        p = request.path_params
        views.check_name(p["name"], "area")
        result = curate.edit(self.state.paths, str(fields.get("id", "")), fields.get("text"),
                             expected=fields.get("expected"), project=p["name"] if p["kind"] == "projects" else None)
        return {**result, "message": f"saved · 已保存 ({result['path']})"}

    def w_archive(self, request, fields):
        from ..evolution import curate
        from ..evolution.feedback import Settings

        views.check_root(self.state)
        result = curate.archive(self.state.paths, Settings.from_config(self.state.cfg.get("feedback")),
                                str(fields.get("id", "")))
        return {**result, "message": f"archived · 已归档 ({result['experience_id']}); restore it from the page"}

    def w_restore(self, request, fields):
        from ..evolution import curate

        views.check_root(self.state)
        result = curate.restore(self.state.paths, str(fields.get("id", "")))
        return {**result, "message": f"restored · 已恢复 ({result['experience_id']})"}

    @staticmethod
    def _revision(fields):
        value = fields.get("revision")
        if value in (None, ""):
            return None
        try:
            return int(value)
        except (TypeError, ValueError):
            raise invalid("revision is a number") from None

    def w_approve(self, request, fields):
        from ..review import queue
        from ..summary import review

        views.check_root(self.state)
        pid = request.path_params["pid"]
        text = fields.get("text")
        if text is not None:
            if not isinstance(text, str):
                raise invalid("text is a string")
            text = text.replace("\r\n", "\n").rstrip("\n")
            if text == queue.get_proposal(self.state.cfg.root, pid)["text"].rstrip("\n"):
                text = None
        result = review.approve(self.state.cfg, pid, edited_text=text, expected_revision=self._revision(fields),
                                actor="ui")
        return {**result, "message": f"approved · 已批准 → {result.get('written_to')}"}

    def w_reject(self, request, fields):
        from ..summary import review

        views.check_root(self.state)
        result = review.reject(self.state.cfg, request.path_params["pid"], reason=fields.get("reason") or None,
                               expected_revision=self._revision(fields), actor="ui")
        return {**result, "message": "rejected · 已拒绝"}

    # --- to-dos (ui/todos.py) -------------------------------------------------------------------

    def v_todos(self, request):
        from . import todos
        q = request.query_params
        return todos.todos_page(self.state, q.get("project", ""), q.get("status", "open"))

    def w_todo_done(self, request, fields):
        from . import todos
        return todos.decide(self.state, fields, "done")

    def w_todo_reopen(self, request, fields):
        from . import todos
        return todos.decide(self.state, fields, "reopen")

    # --- static --------------------------------------------------------------------------------

    async def static(self, request: Request):
        name = request.path_params["name"]
        if name not in STATIC:
            return JSONResponse({"ok": False, "error": "NOT_FOUND", "message": "no such file"}, status_code=404)
        from importlib.resources import files
        body = files("code_memory.ui").joinpath("static", name).read_bytes()
        return Response(body, media_type=STATIC[name])

    async def health(self, request: Request):
        return JSONResponse({"ok": True, "read_only": self.state.read_only, "root": self.state.cfg.root,
                             "root_exists": os.path.isdir(self.state.cfg.root)})

    def routes(self) -> list:
        get = self.handler
        pages = [
            ("/search", self.v_search, "search.html", "Search · 搜索", "search"),
            ("/file", self.v_file, "file.html", "File · 文件", "search"),
            ("/item", self.v_item, "item.html", "Item · 条目", "search"),
            ("/timeline", self.v_timeline, "timeline.html", "Timeline · 时间线", "timeline"),
            ("/session/{sid}", self.v_session, "session.html", "Session · 会话", "timeline"),
            ("/daily/{date}", self.v_daily, "daily.html", "Daily note · 日志", "timeline"),
            ("/areas", self.v_areas, "areas.html", "Projects · 项目", "areas"),
            ("/area/{kind}/{name}", self.v_area, "area.html", "Project · 项目", "areas"),
            ("/effectiveness", self.v_effectiveness, "effectiveness.html", "Effectiveness · 效果", "effectiveness"),
            ("/map", self.v_map, "map.html", "Knowledge map · 知识图谱", "map"),
            ("/memtool/{mid}", self.v_memtool, "memtool.html", "memtool item", "map"),
            ("/review", self.v_review, "review.html", "Review · 审核", "review"),
            ("/review/{pid}", self.v_review_item, "proposal.html", "Proposal · 提议", "review"),
            ("/todos", self.v_todos, "todos.html", "To-dos · 待办", "todos"),
        ]
        out = [Route("/", lambda request: RedirectResponse("/search", status_code=303)),
               Route("/static/{name}", self.static), Route("/api/health", self.health),
               Route("/favicon.ico", lambda request: Response(status_code=204))]
        for path, view, template, title, active in pages:
            out.append(Route(path, get(view, template, title, active)))
            out.append(Route("/api" + path, get(view)))
        act = self.action
        out += [Route("/api/area/{kind}/{name}/edit", act(self.w_edit), methods=["POST"]),
                Route("/api/area/{kind}/{name}/archive", act(self.w_archive), methods=["POST"]),
                Route("/api/restore", act(self.w_restore), methods=["POST"]),
                Route("/api/review/{pid}/approve", act(self.w_approve), methods=["POST"]),
                Route("/api/review/{pid}/reject", act(self.w_reject), methods=["POST"]),
                Route("/api/todo/done", act(self.w_todo_done), methods=["POST"]),
                Route("/api/todo/reopen", act(self.w_todo_reopen), methods=["POST"])]
        return out


async def _not_found(request, exc):
    return JSONResponse({"ok": False, "error": "NOT_FOUND", "message": "no such page"}, status_code=404)


async def _bad_method(request, exc):
    return JSONResponse({"ok": False, "error": "METHOD_NOT_ALLOWED", "message": "not allowed here"}, status_code=405)


def create_app(state: views.State, *, token: str, csrf: str, port: int, log=None):
    """The ASGI application: the routes behind the Guard (host, token, read-only, headers)."""
    app = App(state, csrf)
    starlette = Starlette(routes=app.routes(), exception_handlers={404: _not_found, 405: _bad_method})
    return Guard(starlette, token=token, port=port, read_only=state.read_only, log=log)
