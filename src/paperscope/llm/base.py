"""The LLM client protocol, its registry and its errors.

An LLM is a chat model behind two methods:
- `complete(messages, json_schema=None) -> str`: one reply; with a schema the backend asks for
  constrained JSON output when it can (the caller still parses defensively);
- `stream(messages) -> Iterator[str]`: the reply as text pieces, as they are generated.
Backends register by name with `register_llm(name)(factory(llm_settings) -> LLM)` or an entry
point in the group `paperscope.llms`; the built-ins in this package register the same way a
plugin would. Nothing here knows about answers: `paperscope.answer` wraps a client.

Errors: `LLMConfigError` (also a ValueError, so the CLI prints it as one line) means "fix your
settings" and names the environment variable to set; `LLMError` means a request failed
(HTTP error, timeout, connection refused). Messages are redacted: they never contain a key.
Leaves out: tool calling, images, token accounting beyond what the servers report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from paperscope.registry import Registry
from paperscope.secrets import redact
from paperscope.settings import LLMSettings

Messages = list[dict[str, str]]


class LLMError(RuntimeError):
    """A request to the model failed; the message is safe to show (no secrets)."""


class LLMConfigError(LLMError, ValueError):
    """The backend is misconfigured; the message names the setting to change."""


@runtime_checkable
class LLM(Protocol):
    @property
    def name(self) -> str:
        """E.g. "openai-compatible:qwen2.5-1.5b", shown in notes and logs."""
        ...

    def complete(self, messages: Messages, json_schema: dict[str, Any] | None = None) -> str: ...

    def stream(self, messages: Messages) -> Iterator[str]: ...


LLMFactory = Callable[[LLMSettings], LLM]
LLMS: Registry[LLMFactory] = Registry("LLM backend", "paperscope.llms", "set PAPERSCOPE_LLM to one of the names; ",
                                      error=LLMConfigError)
register_llm = LLMS.register
llm_names = LLMS.names


def make_llm(llm_settings: LLMSettings, name: str | None = None) -> LLM:
    """Build the LLM named `name` (default: `llm_settings.backend`) from `LLMSettings`."""
    return LLMS.get(name or llm_settings.backend)(llm_settings)


def secret_value(llm_settings: LLMSettings) -> str | None:
    key = llm_settings.api_key
    return key.get_secret_value() if key is not None else None


def safe_message(text: object, llm_settings: LLMSettings | None = None, limit: int = 240) -> str:
    """`text` with the configured key (and anything key-shaped) masked, shortened."""
    key = secret_value(llm_settings) if llm_settings is not None else None
    text = redact(" ".join(str(text).split()), extra=[key] if key else None)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def local_model_path(llm_settings: LLMSettings, needs: str, file_only: bool) -> Path:
    """The PAPERSCOPE_LOCAL_MODEL path, checked; `needs` says what to set it to."""
    path = llm_settings.local_model
    if not path:
        raise LLMConfigError(f"{needs}: set PAPERSCOPE_LOCAL_MODEL")
    path = Path(path).expanduser()
    if not (path.is_file() if file_only else path.exists()):
        raise LLMConfigError(f"PAPERSCOPE_LOCAL_MODEL points to {str(path)!r}, which "
                             f"{'is not a file' if file_only else 'does not exist'}")
    return path
