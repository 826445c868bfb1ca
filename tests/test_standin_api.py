"""The loopback Messages API stand-in (tests/support/standin_api.py), checked with the real
anthropic SDK: plain JSON and streamed answers, tool calls, count_tokens, roles and faults."""

from __future__ import annotations

import pytest

from support.standin_api import StandinAPI, main, request_role, subagent, tool

anthropic = pytest.importorskip("anthropic")


@pytest.fixture
def api():
    with StandinAPI(default_text="fallback") as server:
        yield server


def client(api, **kw):
    return anthropic.Anthropic(api_key="k", base_url=api.base_url, max_retries=0, **kw)


def ask(api, text="hi", **kw):
    return client(api).messages.create(model="m", max_tokens=50,
                                       messages=[{"role": "user", "content": text}], **kw)


def test_plain_answer_then_default_and_recording(api):
    api.push({"text": "first"})
    assert ask(api, "one").content[0].text == "first"
    assert ask(api, "two").content[0].text == "fallback"
    first, second = api.message_requests()
    assert first["body"]["messages"][0]["content"] == "one"
    assert first["role"] == "plain" and first["method"] == "POST"
    assert api.requests_containing("two") == [second]


def test_streamed_text_and_tool_use(api):
    api.push({"blocks": [{"text": "let me look"}, {"tool_use": {"name": "Read", "input": {"file_path": "/x y"}}}]})
    with client(api).messages.stream(model="m", max_tokens=50,
                                     messages=[{"role": "user", "content": "go"}]) as stream:
        message = stream.get_final_message()
    assert message.stop_reason == "tool_use"
    assert message.content[0].text == "let me look"
    assert message.content[1].name == "Read" and message.content[1].input == {"file_path": "/x y"}


def test_count_tokens(api):
    result = client(api).messages.count_tokens(model="m", messages=[{"role": "user", "content": "x" * 400}])
    assert result.input_tokens >= 100


def test_roles_route_steps():
    tools = lambda *names: [{"name": n, "input_schema": {}} for n in names]
    assert request_role({"tools": tools("Agent", "Read")}) == "main"
    assert request_role({"tools": tools("Read", "Grep")}) == "subagent"
    assert request_role({}) == "plain"
    with StandinAPI() as api:
        api.push(main({"text": "for main"}), subagent({"text": "for sub"}), {"text": "for anyone"})
        c = client(api)
        answer = c.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "q"}],
                                   tools=tools("Read"))
        assert answer.content[0].text == "for sub"
        assert ask(api).content[0].text == "for anyone"
        assert [s["role"] for s in api.pending_steps()] == ["main"]


@pytest.mark.parametrize("status,error", [(500, "InternalServerError"), (429, "RateLimitError"),
                                          (400, "BadRequestError")])
def test_http_faults(api, status, error):
    api.push({"status": status, "headers": {"retry-after": "0"}})
    with pytest.raises(getattr(anthropic, error)):
        ask(api)
    assert len(api.message_requests()) == 1


def test_delay_makes_the_client_time_out(api):
    api.push({"delay": 2.0, "text": "late"})
    with pytest.raises(anthropic.APITimeoutError):
        client(api, timeout=0.5).messages.create(model="m", max_tokens=5,
                                                 messages=[{"role": "user", "content": "q"}])


def test_invalid_content(api):
    api.push({"raw": "<html>gateway</html>"})
    with pytest.raises(Exception):  # noqa: B017 — the SDK fails one way or another on a broken answer
        ask(api).content[0].text  # noqa: B018
    api.push({"invalid": "sse", "text": "never finished"})
    with pytest.raises(Exception):  # noqa: B017 — likewise for a stream that never finishes
        with client(api).messages.stream(model="m", max_tokens=5,
                                         messages=[{"role": "user", "content": "q"}]) as stream:
            stream.get_final_message()


def test_tool_helper_shape():
    assert tool("Edit", file_path="/a", old_string="x", new_string="y") == {
        "tool_use": {"name": "Edit", "input": {"file_path": "/a", "old_string": "x", "new_string": "y"}}}
