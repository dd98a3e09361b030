"""Redaction of secrets from any text that may reach a log, an error, the UI or --json.

Known secret values (from settings and the environment) are replaced verbatim, and
key-shaped strings (sk-..., Bearer tokens) are masked as a second line of defence.
"""

from __future__ import annotations

import os
import re

_KEYLIKE = re.compile(r"(sk-[A-Za-z0-9_\-]{8,}|Bearer\s+[A-Za-z0-9._\-]{8,})")
_SECRET_ENV = ("PAPERSCOPE_LLM_API_KEY", "OPENAI_API_KEY", "PAPERSCOPE_UI_PASSWORD", "PAPERSCOPE_UI_AUTH")


def known_secrets() -> list[str]:
    values = [os.environ.get(name, "") for name in _SECRET_ENV]
    return [v for v in values if len(v) >= 6]


def redact(text: str, extra: list[str] | None = None) -> str:
    for secret in known_secrets() + [s for s in (extra or []) if s and len(s) >= 6]:
        text = text.replace(secret, "***")
    return _KEYLIKE.sub("***", text)


def safe_message(exc: Exception) -> str:
    """An exception message with anything that looks like a secret masked."""
    return redact(str(exc))[:300]
