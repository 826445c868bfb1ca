"""The memory browser's Markdown (markdown-it-py) and snippet highlighting against hostile memory
text: raw HTML, event handlers, script-scheme links in every spelling, images, fence info strings —
checked by parsing the HTML that comes out, not by looking for one spelling."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

pytest.importorskip("markdown_it")
pytest.importorskip("markupsafe")

from code_memory.ui.render import highlight, markdown, safe_link  # noqa: E402

FORBIDDEN_TAGS = {"script", "img", "iframe", "object", "embed", "style", "svg", "math", "form", "input", "base",
                  "link", "meta", "video", "audio", "source"}


class Tags(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def text_of(self, tag):
        return [attrs for name, attrs in self.tags if name == tag]


def assert_inert(rendered: str) -> Tags:
    tags = Tags(rendered)
    for tag, attrs in tags.tags:
        assert tag not in FORBIDDEN_TAGS, (tag, rendered)
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name, rendered)
            assert name not in ("src", "style", "srcdoc", "formaction"), (tag, name, rendered)
            if name == "href":
                assert safe_link(value), (value, rendered)
                assert not value.strip().lower().startswith(("javascript", "data", "vbscript", "file")), value
    return tags


HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">raw link</a>',
    "<iframe src=https://evil.example></iframe>",
    '<div onmouseover="alert(1)">hover</div>',
    "[plain](javascript:alert(1))",
    "[upper](JAVASCRIPT:alert(1))",
    "[entity](jav&#x61;script:alert(1))",
    "[decimal](&#106;avascript:alert(1))",
    "[named](javascript&colon;alert(1))",
    "[spaced]( javascript:alert(1) )",
    "[angle](<javascript:alert(1)>)",
    "<javascript:alert(1)>",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[vb](vbscript:msgbox(1))",
    "[file](file:///etc/passwd)",
    "[ref link][r]\n\n[r]: javascript:alert(1)",
    "![svg](data:image/svg+xml,<svg onload=alert(1)>)",
    "![png](data:image/png;base64,iVBORw0KGgo=)",
    '![tracker](https://tracker.example/pixel.png "t")',
    '[title](https://example.com "x\\" onmouseover=\\"alert(1)")',
    "```\"><script>alert(1)</script>\n<b onclick=alert(1)>x</b>\n```",
    "`<img src=x onerror=alert(1)>` inline",
    "    <script>indented code</script>",
    "> <script>in a quote</script>\n> - [x](javascript:alert(1))",
    "| a | b |\n|---|---|\n| <script>alert(1)</script> | [x](javascript:alert(1)) |",
    "**<b>bold</b>** ~~<i>gone</i>~~",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_markdown_renders_inert(text):
    assert_inert(str(markdown(text)))


def test_all_hostile_lines_in_one_note_and_what_stays_visible():
    rendered = str(markdown("\n\n".join(HOSTILE)))
    tags = assert_inert(rendered)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in rendered        # shown as text
    assert "[plain](javascript:alert(1))" in rendered                   # a refused link stays its text
    links = [a["href"] for a in tags.text_of("a")]
    assert "https://example.com" in links and "https://tracker.example/pixel.png" in links
    assert "[image: tracker]" in rendered                                # an image is a link, never loaded
    assert all(a.get("rel") == "nofollow noopener noreferrer" for a in tags.text_of("a"))
    assert '<code>&lt;img src=x onerror=alert(1)&gt;</code>' in rendered


def test_notes_render_as_markdown_tables_code_and_chinese():
    note = ("# 会话摘要\n\n1. **主题**: 把连接池大小改成从配置读取\n2. **关键知识点**:\n   - 用 `config/db.yaml`\n"
            "   - **决定**：用 YAML 而不是环境变量\n3. **涉及文件**: app.py\n\n"
            "| 文件 | 改动 |\n|---|---|\n| app.py | 读取 *配置* |\n\n"
            "```python\nif a < b and c > d:\n    pass\n```\n\n第一行\n第二行\n\n###### six")
    rendered = str(markdown(note))
    assert_inert(rendered)
    assert "<h2>会话摘要</h2>" in rendered and "<h6>six</h6>" in rendered        # one level below the page's h1
    assert "<strong>主题</strong>" in rendered and "<strong>决定</strong>" in rendered
    assert "<ol>" in rendered and rendered.index("<ul>") < rendered.index("<li><strong>涉及文件")  # nested, not restarted
    assert "<th>文件</th>" in rendered and "<td>读取 <em>配置</em></td>" in rendered
    assert '<code class="language-python">if a &lt; b and c &gt; d:' in rendered
    assert "第一行<br />\n第二行" in rendered                                 # lines of a note stay lines


def test_a_huge_note_is_cut_not_choked_on():
    from code_memory.ui.render import MAX_MARKDOWN_CHARS

    rendered = str(markdown("长文本 words " * (MAX_MARKDOWN_CHARS // 5)))
    assert "cut here" in rendered and len(rendered) < MAX_MARKDOWN_CHARS + 200


def test_snippet_highlighting_escapes_text_and_terms():
    out = str(highlight('<b onclick="x">连接池</b> & pool', ["连接池", "<b", "pool"]))
    assert "<b" not in out.replace("<mark>", "") and "&lt;" in out
    assert "<mark>连接池</mark>" in out and "<mark>pool</mark>" in out and "&amp;" in out
    assert_inert(out)
