"""The `[n]` citation marker: one regex for the whole code base (verification, prompts, the UI).

`[3]` cites source 3, `[1, 4]` cites two; up to three digits each. Models also write other
spellings (`[Source 2]`, `【2】`): `normalize_markers` rewrites those to `[n]`.
"""

from __future__ import annotations

import re

_NUMBERS = r"\d{1,3}(?:\s*,\s*\d{1,3})*"
MARKER = re.compile(rf"\[({_NUMBERS})\]")
# A sentence end followed by markers ("claim. [1][2]"): group 1 the stop, group 3 the markers.
TRAILING_MARKERS = re.compile(rf"([.!?])()[ \t]*((?:\[{_NUMBERS}\][ \t]*)+)")
# Anything in brackets a reader could take for a marker, ranges included ("[3-5]"): source text
# shown to a model has these rewritten to parentheses, so "[7]" in an abstract poses as no label.
BRACKETED_NUMBERS = re.compile(r"\[(\s*\d{1,3}(?:\s*[,\-–]\s*\d{1,3})*\s*)\]")
# Marker spellings models use besides [n]: [Source 2], [source 2], 【2】.
_ALT_MARKER = re.compile(r"\[\s*(?:source|paper|ref)\s*(\d{1,3})\s*\]|【\s*(\d{1,3})\s*】", re.IGNORECASE)


def marker_numbers(match: re.Match[str]) -> list[int]:
    """The source numbers of one MARKER match ("[1, 4]" -> [1, 4])."""
    return [int(n) for n in match.group(1).split(",")]


def normalize_markers(text: str) -> str:
    return _ALT_MARKER.sub(lambda m: f"[{m.group(1) or m.group(2)}]", text)


def count_markers(text: str) -> int:
    return sum(len(marker_numbers(m)) for m in MARKER.finditer(text))


def strip_markers(text: str) -> str:
    return MARKER.sub("", text)
