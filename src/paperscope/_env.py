"""Process-wide switches that keep paperscope offline. Imported first by the package.

Why each one:
- tiktoken downloads its BPE files on first use; llama-index-core ships cl100k/o200k in its
  package, so we point TIKTOKEN_CACHE_DIR there (unless the user chose a directory).
- Hugging Face libraries retry the hub for ~70 s when offline; we only ever load from paths.
- chromadb and gradio phone home for telemetry/analytics; never on an air-gapped box.
Nothing here reads or logs secrets.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path


def _llama_index_tiktoken_cache() -> str | None:
    spec = importlib.util.find_spec("llama_index.core")
    if spec is None or not spec.submodule_search_locations:
        return None
    cache = Path(list(spec.submodule_search_locations)[0]) / "_static" / "tiktoken_cache"
    return str(cache) if cache.is_dir() else None


def apply() -> None:
    if "TIKTOKEN_CACHE_DIR" not in os.environ:
        cache = _llama_index_tiktoken_cache()
        if cache:
            os.environ["TIKTOKEN_CACHE_DIR"] = cache
    for key, value in {
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "ANONYMIZED_TELEMETRY": "False",
        "GRADIO_ANALYTICS_ENABLED": "False",
        "TOKENIZERS_PARALLELISM": "false",
    }.items():
        os.environ.setdefault(key, value)


apply()
