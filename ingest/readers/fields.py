"""Record fields -> `Paper`: authors, years, keywords and the size limits of one record.
"""

from __future__ import annotations

import json
from typing import Any

from paperscope.ingest.readers.common import MAX_ABSTRACT_CHARS, MAX_FIELD_CHARS, MAX_TITLE_CHARS, YEAR_RANGE, Issue, IssueSink
from paperscope.records import Paper

FIELDS = ("id", "title", "authors", "abstract", "venue", "year", "url", "keywords", "tldr", "status")


def authors_field(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(a).strip() for a in value if str(a).strip()]
    text = str(value)
    if ";" in text:
        parts = text.split(";")
    elif "," in text:
        parts = text.split(",")
    else:
        parts = text.split(" and ")
    return [p.strip() for p in parts if p.strip()]


def year_field(value: object, issues: IssueSink, path: str, line: int | None) -> int | None:
    if value in (None, ""):
        return None
    try:
        year = int(str(value).strip()[:4])
    except ValueError:
        issues.append(Issue(path, line, f"year {str(value)[:40]!r} is not a number; stored without a year"))
        return None
    if not YEAR_RANGE[0] <= year <= YEAR_RANGE[1]:
        issues.append(Issue(path, line, f"year {year} is implausible; stored without a year"))
        return None
    return year


def text_field(value: object) -> str:
    return str(value if value is not None else "").strip()


def _oversize(rec: dict[str, Any], abstract: str) -> str | None:
    """Why the record is too large to be a paper, if it is."""
    if len(abstract) > MAX_ABSTRACT_CHARS:
        return (f"abstract is {len(abstract):,} characters (limit {MAX_ABSTRACT_CHARS:,}); record skipped. "
                f"A paper-list .txt needs a blank line between abstracts; check the file's format")
    title = text_field(rec.get("title"))
    if len(title) > MAX_TITLE_CHARS:
        return f"title is {len(title):,} characters (limit {MAX_TITLE_CHARS:,}); record skipped, check the file's columns"
    for key in ("tldr", "venue", "url", "status", "id", "authors", "keywords"):
        value = rec.get(key)
        size = len(value) if isinstance(value, str) else len(json.dumps(value, default=str)) if value else 0
        if size > MAX_FIELD_CHARS:
            return f"field {key!r} is {size:,} characters (limit {MAX_FIELD_CHARS:,}); record skipped"
    return None


def record_to_paper(rec: dict[str, Any], source: str, position: int, path: str, line: int | None,
                    issues: IssueSink) -> Paper | None:
    """A JSON/CSV record as a Paper; None when it has no abstract (counted by the caller)
    or is over the size limits (reported in `issues`)."""
    abstract = text_field(rec.get("abstract"))
    if not abstract:
        return None
    too_big = _oversize(rec, abstract)
    if too_big:
        issues.append(Issue(path, line, too_big))
        return None
    keywords = rec.get("keywords") or []
    if isinstance(keywords, str):
        keywords = [k.strip() for k in keywords.split(";" if ";" in keywords else ",") if k.strip()]
    elif not isinstance(keywords, list):
        keywords = [keywords]
    rid = rec.get("id")
    return Paper(
        paper_id=text_field(rid) if text_field(rid) else f"{source}:{position}",
        abstract=abstract,
        title=text_field(rec.get("title")),
        authors=authors_field(rec.get("authors")),
        venue=text_field(rec.get("venue")),
        year=year_field(rec.get("year"), issues, path, line),
        url=text_field(rec.get("url")),
        keywords=[str(k) for k in keywords],
        tldr=text_field(rec.get("tldr")),
        status=text_field(rec.get("status")),
        source=source,
        position=position,
    )
