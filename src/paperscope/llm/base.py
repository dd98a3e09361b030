"""The LLM client protocol, its registry and its errors.

An LLM is a chat model behind two methods:
- `complete(messages, json_schema=None) -> str`: one reply; with a schema the backend asks for
  constrained JSON output when it can (the caller still parses defensively);
- `stream(messages) -> Iterator[str]`: the reply as text pieces, as they are generated.
Backends register by name with `register_llm(name)(factory(llm_settings) -> LLM)`; the
built-ins in this package register the same way a plugin would.

Errors: `LLMConfigError` (also a ValueError, so the CLI prints it as one line) means "fix your
settings" and names the environment variable to set; `LLMError` means a request failed
(HTTP error, timeout, connection refused). Messages are redacted: they never contain a key.
Leaves out: tool calling, images, token accounting beyond what the servers report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol, runtime_checkable

from paperscope.registry import Registry

Messages = list[dict[str, str]]


class LLMError(RuntimeError):
    """A request to the model failed; the message is safe to show (no secrets)."""


class LLMConfigError(LLMError, ValueError):
    """The backend is misconfigured; the message names the setting to change."""


@runtime_checkable
class LLM(Protocol):
    name: str  # e.g. "openai-compatible:qwen2.5-1.5b", shown in notes and logs

    def complete(self, messages: Messages, json_schema: dict | None = None) -> str: ...

    def stream(self, messages: Messages) -> Iterator[str]: ...


LLMS: Registry[Callable] = Registry("LLM backend", "set PAPERSCOPE_LLM to one of the names; ", error=LLMConfigError)
register_llm = LLMS.register
llm_names = LLMS.names


def make_llm(llm_settings, name: str | None = None) -> LLM:
    """Build the LLM named `name` (default: `llm_settings.backend`) from `LLMSettings`."""
    return LLMS.get(name or llm_settings.backend)(llm_settings)


def secret_value(llm_settings) -> str | None:
    key = getattr(llm_settings, "api_key", None)
    return key.get_secret_value() if key is not None else None


def safe_message(text: str, llm_settings=None, limit: int = 240) -> str:
    """`text` with the configured key (and anything key-shaped) masked, shortened."""
    from paperscope.secrets import redact

    key = secret_value(llm_settings) if llm_settings is not None else None
    text = redact(" ".join(str(text).split()), extra=[key] if key else None)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def local_model_path(llm_settings, needs: str, file_only: bool):
    """The PAPERSCOPE_LOCAL_MODEL path, checked; `needs` says what to set it to."""
    from pathlib import Path

    path = llm_settings.local_model
    if not path:
        raise LLMConfigError(f"{needs}: set PAPERSCOPE_LOCAL_MODEL")
    path = Path(path).expanduser()
    if not (path.is_file() if file_only else path.exists()):
        raise LLMConfigError(f"PAPERSCOPE_LOCAL_MODEL points to {str(path)!r}, which "
                             f"{'is not a file' if file_only else 'does not exist'}")
    return path
