"""jsonlite (the hooks' json without `import json`) parses and encodes exactly as json does."""

from __future__ import annotations

import json
import math
import random

import pytest

from code_memory import jsonlite

GOOD = ['{"a": [1, 2.5, -3e2, true, false, null, "x\\u00fc\\n", {"b": {}}]}', "  [ ] \n", '"s"', "3", "-0.0",
        '{"x": "数据", "y": "\\ud83d\\ude00"}', '{"a": {"b": {"c": [[[]]]}}}', "1e400"]
BAD = ["", " ", "{", '{"a": 1}x', "[1,]", "{a: 1}", '"\x01"', "01", "{broken json", "[1 2]", "nul", '{"a" 1}']


@pytest.mark.parametrize("text", GOOD)
def test_loads_matches_json(text):
    assert jsonlite.loads(text) == json.loads(text)
    assert jsonlite.loads(text.encode("utf-8")) == json.loads(text)


def test_constants():
    assert math.isnan(jsonlite.loads("NaN")) and jsonlite.loads("[Infinity, -Infinity]") == [math.inf, -math.inf]


@pytest.mark.parametrize("text", BAD)
def test_loads_rejects_what_json_rejects(text):
    with pytest.raises(ValueError) as info:
        jsonlite.loads(text)
    with pytest.raises(ValueError) as expected:
        json.loads(text)
    assert str(info.value) == str(expected.value)


def test_dumps_matches_json():
    random.seed(7)
    atoms = [None, True, False, 0, -1, 2.5, "", "ü\n\"\\", "数据", "\x00\x1f", 10 ** 20]
    def build(depth):
        if depth == 0 or random.random() < 0.3:
            return random.choice(atoms)
        if random.random() < 0.5:
            return [build(depth - 1) for _ in range(random.randint(0, 4))]
        return {str(random.choice(atoms)): build(depth - 1) for _ in range(random.randint(0, 4))}
    for _ in range(300):
        value = build(4)
        assert jsonlite.dumps(value) == json.dumps(value, ensure_ascii=False)
        assert jsonlite.dumps(value, ensure_ascii=True) == json.dumps(value)
        assert jsonlite.dumps(value, compact=True) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    with pytest.raises(TypeError):
        jsonlite.dumps({"a": object()})
    assert jsonlite.dumps({"a": {1, 2}}, default=sorted) == '{"a": [1, 2]}'
