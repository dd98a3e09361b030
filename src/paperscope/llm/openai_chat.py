"""The `openai` and `openai-compatible` LLM backends, over the plain openai SDK.

- `openai`: the hosted API. Needs a key (PAPERSCOPE_LLM_API_KEY or OPENAI_API_KEY); model
  defaults to gpt-4o-mini; JSON answers use Structured Outputs (`json_schema`, strict).
- `openai-compatible`: any server speaking the OpenAI chat API (vLLM, llama.cpp server,
  llama-cpp-python, Ollama, SGLang, TGI). PAPERSCOPE_LLM_BASE_URL is required: there is no
  default, so a misconfiguration can never send questions to a cloud service. The key is
  optional; the model, if unset, is the first one the server lists at GET /v1/models.
  Servers differ in how they take a schema, so JSON mode is negotiated once per client:
  OpenAI `json_schema`, then `{"type": "json_object", "schema": ...}` (llama.cpp style), then
  none (plain text; the caller parses [n] markers). A 400/422 (or a 500 blaming
  response_format, as llama-cpp-python's server sends) moves to the next form.

Why the plain SDK rather than llama-index's OpenAILike: we need exactly chat + stream +
response_format, with our own error mapping and no global Settings; the SDK does that in a
few lines and keeps `import paperscope.llm` cheap (the SDK is imported on first use).
Retries are off: `PAPERSCOPE_LLM_TIMEOUT` bounds the wait, and the caller falls back to the
extractive answer on failure, which beats a silent tripled wait in an interactive tool.
Leaves out: the Responses API, tool calls, Azure-specific auth.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from paperscope.llm.base import LLMConfigError, LLMError, Messages, safe_message, secret_value
from paperscope.settings import LLMSettings

if TYPE_CHECKING:
    import openai

HOSTED_URL = "https://api.openai.com/v1"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
# Keywords hosted strict mode may reject; llama.cpp grammars use them to stop runaway lists.
_NON_PORTABLE = ("maxItems", "minItems")


def portable_schema(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: portable_schema(v) for k, v in schema.items() if k not in _NON_PORTABLE}
    if isinstance(schema, list):
        return [portable_schema(v) for v in schema]
    return schema


class OpenAIChat:
    """Chat completions against one OpenAI-protocol endpoint."""

    def __init__(self, llm_settings: LLMSettings, *, backend: str, base_url: str, api_key: str, model: str | None,
                 schema_modes: tuple[str, ...]) -> None:
        self.settings = llm_settings
        self.backend, self.base_url, self.model = backend, base_url.rstrip("/"), model
        self._api_key = api_key
        self._modes: list[str] = list(schema_modes)  # shrinks as the server refuses forms
        self._client: openai.OpenAI | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return f"{self.backend}:{self.model or '?'}"

    # -- plumbing -----------------------------------------------------------------------
    def client(self) -> openai.OpenAI:
        with self._lock:
            if self._client is None:
                import openai

                self._client = openai.OpenAI(base_url=self.base_url, api_key=self._api_key,
                                             timeout=self.settings.timeout, max_retries=0)
            return self._client

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Map SDK/HTTP failures to LLMError with a message that names no secret."""
        import openai

        try:
            yield
        except LLMError:
            raise
        except openai.APITimeoutError:
            raise LLMError(f"{self.backend}: no reply from {self.base_url} within "
                           f"{self.settings.timeout:g} s (PAPERSCOPE_LLM_TIMEOUT)") from None
        except openai.APIConnectionError:
            raise LLMError(f"{self.backend}: cannot connect to {self.base_url}; is the server running? "
                           "(PAPERSCOPE_LLM_BASE_URL)") from None
        except openai.AuthenticationError:
            raise LLMError(f"{self.backend}: the server rejected the API key (HTTP 401); check "
                           "PAPERSCOPE_LLM_API_KEY") from None
        except openai.APIStatusError as exc:
            raise LLMError(f"{self.backend}: HTTP {exc.status_code} from {self.base_url}: "
                           f"{safe_message(_body_message(exc), self.settings, 160)}") from None
        except openai.OpenAIError as exc:
            raise LLMError(f"{self.backend}: {type(exc).__name__}: {safe_message(exc, self.settings)}") from None

    def resolve_model(self) -> str:
        """The configured model, else the first the server lists (GET /v1/models)."""
        if self.model:
            return self.model
        with self._errors():
            models = [m.id for m in self.client().models.list()]
        if not models:
            raise LLMError(f"{self.backend}: {self.base_url}/models lists no model; set PAPERSCOPE_LLM_MODEL")
        self.model = models[0]
        return self.model

    def _response_format(self, mode: str, schema: dict[str, Any]) -> dict[str, Any]:
        if mode == "json_schema":
            strict = self.backend == "openai"
            return {"type": "json_schema", "json_schema": {
                "name": "cited_answer", "strict": strict,
                "schema": portable_schema(schema) if strict else schema}}
        return {"type": "json_object", "schema": schema}

    # -- the LLM protocol ---------------------------------------------------------------
    def complete(self, messages: Messages, json_schema: dict[str, Any] | None = None) -> str:
        import openai

        model = self.resolve_model()
        base = dict(model=model, messages=messages, temperature=self.settings.temperature,
                    max_tokens=self.settings.max_tokens)
        modes = [m for m in self._modes if json_schema is not None] + [None]
        for mode in modes:
            kwargs = dict(base)
            if mode is not None and json_schema is not None:
                kwargs["response_format"] = self._response_format(mode, json_schema)
            with self._errors():
                try:
                    reply = self.client().chat.completions.create(**kwargs)
                except openai.APIStatusError as exc:
                    if mode is None or not _refuses_format(exc):
                        raise
                    continue  # this server does not take that response_format: try the next
            if json_schema is not None:
                # Remember the first form the server accepted; refused ones are not retried.
                self._modes = self._modes[self._modes.index(mode):] if mode is not None else []
            return (reply.choices[0].message.content or "") if reply.choices else ""
        return ""  # unreachable: the last mode (None) either returns or raises

    def stream(self, messages: Messages) -> Iterator[str]:
        model = self.resolve_model()
        with self._errors():
            chunks = self.client().chat.completions.create(
                model=model, messages=messages, temperature=self.settings.temperature,
                max_tokens=self.settings.max_tokens, stream=True)
            for chunk in chunks:
                if chunk.choices and chunk.choices[0].delta and chunk.choices[0].delta.content:
                    yield chunk.choices[0].delta.content


def _refuses_format(exc: openai.APIStatusError) -> bool:
    """A 400/422, or a 500 that blames response_format (llama-cpp-python's server answers a
    schema it cannot validate with HTTP 500)."""
    if exc.status_code in (400, 422):
        return True
    return exc.status_code == 500 and bool(re.search(r"response_format|json_schema|grammar", _body_message(exc)))


def _body_message(exc: openai.APIStatusError) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict):
            return str(err.get("message") or err.get("detail") or "")[:400]
        return str(err)[:400]
    return str(body or "")[:400]


def _key_for_compatible(llm_settings: LLMSettings) -> str:
    """The key to send to a self-hosted server, or a placeholder.

    A key that came only from OPENAI_API_KEY is an OpenAI credential: it is not sent to some
    other server just because it is set globally. PAPERSCOPE_LLM_API_KEY is sent as given.
    """
    key = secret_value(llm_settings)
    if not key:
        return "not-needed"
    if os.environ.get("OPENAI_API_KEY") == key and not os.environ.get("PAPERSCOPE_LLM_API_KEY"):
        return "not-needed"
    return key


def make_openai(llm_settings: LLMSettings) -> OpenAIChat:
    key = secret_value(llm_settings)
    if not key:
        raise LLMConfigError("the openai backend needs an API key: set PAPERSCOPE_LLM_API_KEY "
                             "(or OPENAI_API_KEY), or choose PAPERSCOPE_LLM=extractive / local / "
                             "openai-compatible")
    return OpenAIChat(llm_settings, backend="openai", base_url=llm_settings.base_url or HOSTED_URL,
                      api_key=key, model=llm_settings.model or DEFAULT_OPENAI_MODEL,
                      schema_modes=("json_schema",))


def make_openai_compatible(llm_settings: LLMSettings) -> OpenAIChat:
    url = (llm_settings.base_url or "").strip()
    if not url:
        raise LLMConfigError("the openai-compatible backend needs the server URL: set "
                             "PAPERSCOPE_LLM_BASE_URL, e.g. http://127.0.0.1:8080/v1")
    if not url.startswith(("http://", "https://")):
        raise LLMConfigError(f"PAPERSCOPE_LLM_BASE_URL must start with http:// or https:// (got {url[:60]!r})")
    return OpenAIChat(llm_settings, backend="openai-compatible", base_url=url,
                      api_key=_key_for_compatible(llm_settings), model=llm_settings.model or None,
                      schema_modes=("json_schema", "json_object"))
