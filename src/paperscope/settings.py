"""One `Settings` object, read from the environment and `.env`, nested by concern.

Each section is its own `BaseSettings` with its own env prefix so the documented flat names
(`PAPERSCOPE_DATA_DIR`, `PAPERSCOPE_LLM`, `PAPERSCOPE_LLM_BASE_URL`, ...) work as written.
Secrets are `SecretStr`: they never print in a repr, a log line or `--json` output.
`Settings.vector_signature()` hashes everything that shapes stored vectors; the Chroma
collection name carries it, so a new embedder or chunking never reuses stale vectors.
A `PAPERSCOPE_*` name in the environment or `.env` that no setting reads is an error
(`UnknownSettingError`, naming it and listing the valid names): a typo never goes unnoticed.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import AliasChoices, BaseModel, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

# Bumped when the stored chunk/metadata layout changes (part of the collection name).
SCHEMA_VERSION = 1
PREFIX = "PAPERSCOPE_"
ENV_FILE = ".env"
# Names read outside the sections below, and where.
OTHER_NAMES = {
    "PAPERSCOPE_CACHE_DIR": "cache of the built int8 embedder graph (index/minilm.py)",
    "PAPERSCOPE_DEBUG": "show tracebacks instead of one-line errors (cli.py)",
    "PAPERSCOPE_BENCH_CORPUS": "corpus of `paperscope bench` (bench/corpus.py)",
    "PAPERSCOPE_UI_AUTH": "basic auth user:password of `paperscope ui`",
    "PAPERSCOPE_UI_PASSWORD": "a UI password: redacted from every output (secrets.py)",
    "PAPERSCOPE_UI_HOST": "`paperscope ui --host`",
    "PAPERSCOPE_UI_PORT": "`paperscope ui --port`",
    "PAPERSCOPE_UI_CONCURRENCY": "`paperscope ui --concurrency`",
    "PAPERSCOPE_REQUIRE_ALL": "tests: fail instead of skipping when an optional part is missing",
}


class UnknownSettingError(ValueError):
    """A PAPERSCOPE_* variable that no setting reads (usually a typo)."""


def _cfg(prefix: str) -> SettingsConfigDict:
    return SettingsConfigDict(
        env_prefix=prefix, env_file=ENV_FILE, env_file_encoding="utf-8", extra="ignore",
        populate_by_name=True,
    )


class _Section(BaseSettings):
    """A settings section; creating one checks that every PAPERSCOPE_* name is known."""

    def __init__(self, **values: Any) -> None:
        check_environment()
        super().__init__(**values)


class StoreSettings(_Section):
    model_config = _cfg("PAPERSCOPE_")

    data_dir: Path = Field(
        default_factory=lambda: Path(platformdirs.user_data_dir("paperscope")),
        description="Where the embedded Chroma database and local indexes live "
        "(PAPERSCOPE_DATA_DIR).",
    )
    chroma_host: str | None = Field(
        default=None,
        description="Chroma server host (PAPERSCOPE_CHROMA_HOST). Unset: embedded, persistent "
        "Chroma inside data_dir.",
    )
    chroma_port: int = Field(default=8000, description="Chroma server port (PAPERSCOPE_CHROMA_PORT).")
    collection_prefix: str = Field(
        default="papers",
        description="Collection name prefix; the settings hash is appended "
        "(PAPERSCOPE_COLLECTION_PREFIX).",
    )


class EmbedSettings(_Section):
    model_config = _cfg("PAPERSCOPE_EMBED_")

    model: str = Field(
        default="minilm-int8",
        description="Embedder registry name: 'minilm-int8' (shipped int8 ONNX all-MiniLM-L6-v2, "
        "no torch), 'minilm' (sentence-transformers fp32/fp16, CUDA when present).",
    )
    # 128: all-MiniLM-L6-v2 was trained on 128-token inputs. On the known-item benchmark
    # (10,000 abstracts, 328 tldr queries) dense R@1 was 0.845 at 128 vs 0.832 at 256 (fp32
    # sentence-transformers at 256: 0.835), hybrid 0.942 vs 0.939, and ingest 1.5x faster.
    max_tokens: int = Field(default=128, ge=16, le=512, description="Word pieces the embedder reads per text, "
                            "special tokens included (a chunk is embedded as '<title>. <chunk>', cut at this length).")
    batch_size: int = Field(default=64, ge=1, description="Texts per forward pass (length-sorted).")
    threads: int = Field(default=0, ge=0, description="CPU threads for ONNX Runtime; 0 = all cores.")
    device: str = Field(default="auto", description="'auto', 'cpu' or 'cuda' (sentence-transformers embedder).")


class ChunkSettings(_Section):
    model_config = _cfg("PAPERSCOPE_CHUNK_")

    # 'tokens' stays the default for ingest speed: on 2,000 abstracts 'window' lifted dense
    # known-item R@1 from 0.878 to 0.915 (hybrid 0.960 -> 0.963) but made 2.4x as many chunks
    # and ingest ~2x slower (docs/measurements.md: "Chunk windows"), which would take the full 85,864-abstract
    # ingest past 10 minutes on 2 cores.
    by: Literal["tokens", "window"] = Field(
        default="tokens",
        description="How abstracts are cut into chunks (whole sentences either way, so quotes stay verbatim): "
        "'tokens' = up to PAPERSCOPE_CHUNK_TOKENS tiktoken tokens, embedded truncated to "
        "PAPERSCOPE_EMBED_MAX_TOKENS word pieces (the tail of a long chunk is not embedded); 'window' = as many "
        "sentences as fit the embedder's window together with the title (a chunk is exactly what gets embedded).",
    )
    tokens: int = Field(
        default=256, ge=32,
        description="Chunk size in tiktoken tokens when PAPERSCOPE_CHUNK_BY=tokens.",
    )


class RetrieveSettings(_Section):
    model_config = _cfg("PAPERSCOPE_RETRIEVE_")

    k: int = Field(default=10, ge=1, description="Papers returned by search.")
    candidates: int = Field(default=100, ge=10, description="Papers taken from each retriever before fusion.")
    rrf_k: int = Field(default=60, ge=1, description="Reciprocal-rank-fusion constant.")
    bm25_weight: float = Field(default=1.0, ge=0, description="Weight of the BM25 ranking in fusion.")
    # 0.5: on the known-item benchmark (2,000 abstracts, tldr queries) it lifted hybrid R@1 from
    # 0.936 to 0.960 (MRR 0.959 -> 0.974); the dev-set metrics did not move.
    dense_weight: float = Field(default=0.5, ge=0, description="Weight of the dense ranking in fusion.")
    multilingual: bool = Field(
        default=True, description="Build the cross-lingual index (USE-m vectors of titles and of the library's "
        "English phrases) at ingest, so questions in Chinese and 15 other languages find English papers. "
        "Adds ~1 min at 85,864 papers (docs/measurements.md).")
    # 0.5 for each extra list of a non-English question (USE-m title cosine; BM25 over its Latin-letter
    # words): measured on 160 Chinese known-item questions at 20,000 papers against weight 1.
    multilingual_weight: float = Field(default=0.5, ge=0, description="Weight of each cross-lingual ranking in fusion.")


class AnswerSettings(_Section):
    model_config = _cfg("PAPERSCOPE_ANSWER_")

    max_citations: int = Field(default=15, ge=1, description="Most papers cited in one answer (`find_all` has no cap).")
    context_papers: int = Field(
        default=30, ge=1,
        description="Candidate papers the relevance model weighs for an answer (plus each retriever's top 10).",
    )
    cite_threshold: float | None = Field(
        default=None, ge=0, le=1,
        description="Probability (relevance model) from which a paper is cited. Unset: the threshold "
        "measured on held-out questions, stored with the model.",
    )
    list_threshold: float | None = Field(
        default=None, ge=0, le=1,
        description="Probability from which 'list all papers' (find_all) lists a paper, once one reaches the "
        "cite threshold. Unset: the model's value, measured on held-out list questions.",
    )
    related_threshold: float | None = Field(
        default=None, ge=0, le=1,
        description="Probability from which a paper below the cite threshold is shown apart as related. "
        "Unset: the model's measured value.",
    )


class LLMSettings(_Section):
    model_config = _cfg("PAPERSCOPE_LLM_")

    backend: str = Field(
        default="extractive",
        validation_alias=AliasChoices("PAPERSCOPE_LLM", "backend"),
        description="Answer backend: extractive (offline default), openai, openai-compatible, local.",
    )
    model: str | None = Field(default=None, description="Model name for the openai / openai-compatible backends.")
    base_url: str | None = Field(default=None, description="OpenAI-compatible server URL, e.g. http://127.0.0.1:8080/v1.")
    api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("PAPERSCOPE_LLM_API_KEY", "OPENAI_API_KEY", "api_key"),
        description="API key (PAPERSCOPE_LLM_API_KEY, else OPENAI_API_KEY). Never logged or shown.",
    )
    local_model: Path | None = Field(
        default=None,
        validation_alias=AliasChoices("PAPERSCOPE_LOCAL_MODEL", "local_model"),
        description="Model for the in-process backends (PAPERSCOPE_LOCAL_MODEL): a .gguf file for "
        "'local' (llama.cpp); a model directory or .gguf for 'transformers'.",
    )
    structured: bool = Field(default=True, description="Ask for JSON-schema constrained answers (better "
                             "citations from small models); false = plain text with [n] markers.")
    threads: int = Field(default=0, ge=0, description="CPU threads for the local backend; 0 = its default.")
    n_gpu_layers: int = Field(default=-1, description="Layers offloaded to GPU by llama.cpp (-1 = all, when built with CUDA).")
    n_ctx: int = Field(default=4096, ge=512, description="Context window for the local backend.")
    timeout: float = Field(default=60.0, gt=0, description="Seconds before an LLM request is abandoned.")
    temperature: float = Field(default=0.0, ge=0, description="Sampling temperature (0 = greedy).")
    max_tokens: int = Field(default=400, ge=16, description="Most tokens generated for one answer.")


class Settings(BaseModel):
    """All of paperscope's configuration. `Settings()` reads the environment and `.env`."""

    store: StoreSettings = Field(default_factory=StoreSettings)
    embed: EmbedSettings = Field(default_factory=EmbedSettings)
    chunk: ChunkSettings = Field(default_factory=ChunkSettings)
    retrieve: RetrieveSettings = Field(default_factory=RetrieveSettings)
    answer: AnswerSettings = Field(default_factory=AnswerSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)

    def vector_signature(self) -> str:
        """Short hash of every setting that shapes the stored vectors and chunks."""
        shape: dict[str, str | int] = {
            "schema": SCHEMA_VERSION,
            "embed": self.embed.model,
            "max_tokens": self.embed.max_tokens,
            "chunk_tokens": self.chunk.tokens,
        }
        if self.chunk.by != "tokens":  # (collections chunked by tokens keep their pre-0.2 names)
            shape["chunk_by"] = self.chunk.by
        return hashlib.sha256(json.dumps(shape, sort_keys=True).encode()).hexdigest()[:10]

    def collection_name(self) -> str:
        return f"{self.store.collection_prefix}_{self.vector_signature()}"

    def with_data_dir(self, data_dir: str | Path | None) -> Settings:
        if data_dir is None:
            return self
        store = self.store.model_copy(update={"data_dir": Path(data_dir)})
        return self.model_copy(update={"store": store})


SECTIONS: tuple[type[BaseSettings], ...] = (StoreSettings, EmbedSettings, ChunkSettings, RetrieveSettings,
                                            AnswerSettings, LLMSettings)


def env_names() -> list[str]:
    """Every PAPERSCOPE_* name paperscope reads (sections and OTHER_NAMES)."""
    names = set(OTHER_NAMES)
    for section in SECTIONS:
        prefix = str(section.model_config.get("env_prefix", ""))
        for field_name, info in section.model_fields.items():
            alias = info.validation_alias
            if isinstance(alias, AliasChoices):
                names.update(str(c).upper() for c in alias.choices if str(c).upper().startswith(PREFIX))
            else:
                names.add(f"{prefix}{field_name}".upper())
    return sorted(names)


def check_environment(environ: Mapping[str, str] | None = None, env_file: str | Path = ENV_FILE) -> None:
    """Raise UnknownSettingError for a PAPERSCOPE_* name (environment or .env) no setting reads."""
    found = {k.upper(): "the environment" for k in (os.environ if environ is None else environ)
             if k.upper().startswith(PREFIX)}
    if Path(env_file).is_file():
        from dotenv import dotenv_values

        for key in dotenv_values(env_file):
            if key.upper().startswith(PREFIX):
                found.setdefault(key.upper(), str(env_file))
    valid = env_names()
    unknown = sorted(k for k in found if k not in valid)
    if not unknown:
        return
    name = unknown[0]
    close = difflib.get_close_matches(name, valid, n=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    more = f" (and {', '.join(unknown[1:])})" if len(unknown) > 1 else ""
    raise UnknownSettingError(f"unknown setting {name} in {found[name]}{more}{hint} Valid names: {', '.join(valid)} "
                              "(see .env.example)")
