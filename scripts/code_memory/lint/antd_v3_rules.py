"""antd v3 rules (``*.js`` / ``*.jsx`` of projects configured as antd v3 front ends): APIs that only
exist in antd 4/5 and fail at runtime — or silently do nothing — on v3.

Comments are blanked first; JSX tags are matched across lines, findings carry the tag's line.
"""

from __future__ import annotations

import re

from .base import Collector, line_of, rule
from .blanking import blank_comments

RULES = [
    rule("AD001", "block", "Form.useForm() (antd 4+)",
         "v3 forms are wrapped with Form.create() and read this.props.form; there is no useForm"),
    rule("AD002", "block", "<Form.Item name=…> (antd 4+)",
         "v3 binds fields with getFieldDecorator('name', {rules})(<Input/>); name= is ignored"),
    rule("AD003", "block", "@ant-design/icons (antd 4+)", "v3 uses <Icon type=\"…\" /> from 'antd'"),
    rule("AD004", "block", "<Form onFinish=…> (antd 4+)",
         "v3 has no onFinish: handle onSubmit and call form.validateFields()"),
    rule("AD005", "block", "Form.List / Form.Provider / Form.ErrorList (antd 4+)",
         "not in v3; manage dynamic fields with getFieldDecorator keys"),
    rule("AD006", "block", "<Form initialValues=…> (antd 4+)",
         "v3 sets initial values per field: getFieldDecorator('f', {initialValue})"),
    rule("AD007", "block", "component that antd 3 does not have",
         "Space, Image, Segmented, QRCode, Watermark, Tour, FloatButton, Flex, App, ColorPicker came with 4.x/5.x"),
    rule("AD008", "block", "open= on an overlay (antd 4.23+/5)", "v3 Modal/Drawer/Dropdown/Tooltip/Popover take visible="),
    rule("AD009", "block", "hook API (antd 4+)",
         "message.useMessage / Modal.useModal / notification.useNotification / App.useApp / theme.useToken "
         "do not exist in v3; call message/Modal/notification statically"),
    rule("AD010", "block", "<Form.Item rules=…> (antd 4+)",
         "v3 takes rules in getFieldDecorator options, not on Form.Item"),
    rule("AD011", "warn", "dayjs with antd 3 date components",
         "antd 3 DatePicker/TimePicker/Calendar take moment objects, not dayjs"),
]

_ANTD_IMPORT = re.compile(r"import\s*\{([^}]*)\}\s*from\s*['\"]antd['\"]")
_V4_COMPONENTS = {"Space", "Image", "Segmented", "QRCode", "Watermark", "Tour", "FloatButton", "Flex", "App",
                  "ColorPicker"}
_SIMPLE = [
    ("AD001", re.compile(r"\bForm\.useForm\b|\buseForm\s*\(")),
    ("AD003", re.compile(r"from\s*['\"]@ant-design/icons['\"]|require\(\s*['\"]@ant-design/icons['\"]")),
    ("AD005", re.compile(r"\bForm\.(List|Provider|ErrorList)\b")),
    ("AD009", re.compile(r"\b(message\.useMessage|Modal\.useModal|notification\.useNotification|App\.useApp|"
                         r"theme\.useToken|ConfigProvider\.useConfig)\b")),
]
_FORM_ITEM = re.compile(r"<(Form\.Item|FormItem)\b((?:[^>{]|\{(?:[^{}]|\{[^{}]*\})*\})*)>")
_FORM = re.compile(r"<Form\b(?![.\w])((?:[^>{]|\{(?:[^{}]|\{[^{}]*\})*\})*)>")
_OVERLAY = re.compile(r"<(Modal|Drawer|Dropdown|Tooltip|Popover|Popconfirm)\b((?:[^>{]|\{(?:[^{}]|\{[^{}]*\})*\})*)>")
_DAYJS = re.compile(r"from\s*['\"]dayjs['\"]|require\(\s*['\"]dayjs['\"]")
_DATE_COMPONENTS = re.compile(r"\b(DatePicker|TimePicker|Calendar|RangePicker)\b")


def _prop(attrs: str, name: str) -> bool:
    return re.search(rf"(?:^|\s){name}\s*=", attrs) is not None


def lint(text: str, path: str, options: dict | None = None) -> list:
    out = Collector(path, RULES)
    code = blank_comments(text)
    for rule_id, pattern in _SIMPLE:
        for m in pattern.finditer(code):
            out.add(rule_id, line_of(code, m.start()), m.group(0)[:40])
    for m in _ANTD_IMPORT.finditer(code):
        names = {part.strip().split(" as ")[0].strip() for part in m.group(1).split(",")}
        newer = sorted(names & _V4_COMPONENTS)
        if newer:
            out.add("AD007", line_of(code, m.start()), ", ".join(newer))
    for m in _FORM_ITEM.finditer(code):
        if _prop(m.group(2), "name"):
            out.add("AD002", line_of(code, m.start()))
        if _prop(m.group(2), "rules"):
            out.add("AD010", line_of(code, m.start()))
    for m in _FORM.finditer(code):
        if _prop(m.group(1), "onFinish") or _prop(m.group(1), "onFinishFailed"):
            out.add("AD004", line_of(code, m.start()))
        if _prop(m.group(1), "initialValues"):
            out.add("AD006", line_of(code, m.start()))
    for m in _OVERLAY.finditer(code):
        if _prop(m.group(2), "open"):
            out.add("AD008", line_of(code, m.start()), f"<{m.group(1)} open=…>")
    dayjs = _DAYJS.search(code)
    if dayjs and _DATE_COMPONENTS.search(code):
        out.add("AD011", line_of(code, dayjs.start()))
    return sorted(out.findings, key=lambda f: (f.line, f.rule))
