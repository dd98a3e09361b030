"""Render an answer's citations (or any list of papers) as text, JSON, CSV or BibTeX.

Items are `paperscope.records.Citation`s, or any object or mapping with some of the fields
`title, authors, venue, year, url, quote, paper_id, score, marker` (so a `Hit` or a `Paper`
works too); `authors` is a list of names or one "A; B" string, missing fields are empty.
A marker of 0 (a Citation's default) or none means "not numbered": lists number by position.
`export_answer` renders a whole `Answer`: its text with a reference list (text), its text and
citations (JSON), or its citations (CSV, BibTeX).

- CSV (`to_csv`, `csv_bytes`): RFC 4180 through the csv module (comma, CRLF, quoting only
  where needed), columns `CSV_COLUMNS`, authors joined by "; ". `csv_bytes` is what a file
  or a download should hold: UTF-8 *with* a BOM by default, because Excel decodes a BOM-less
  CSV in the ANSI code page (Müller -> MÃ¼ller, Chinese names unreadable) while LibreOffice,
  Numbers, Google Sheets, pandas and R all accept the BOM; and cells that a spreadsheet would
  run as a formula (leading = + - @, tab, CR: "CSV injection", a risk with uploaded paper
  lists) get a leading apostrophe. `to_csv` (a str, e.g. for stdout) does neither. Read a
  BOM file back in Python with encoding="utf-8-sig".
- BibTeX (`to_bibtex`): @inproceedings (booktitle = venue), or @misc when there is no venue;
  title, author ("A and B and C"), booktitle, year, url, and the quote as `annote` (kept by
  reference managers, not printed by standard styles). Keys are lastname + year + first
  title word, ASCII ("Müller" -> "muller"), e.g. `mildenhall2020nerf`; keys that collide get
  a, b, c ... in paper_id order, so the same papers get the same keys whatever their order.
  LaTeX specials are escaped (\\& \\% \\$ \\# \\_ \\textasciicircum{} \\textasciitilde{}
  \\textbackslash{}, braces as \\{ \\} or \\textbraceleft{} when unbalanced, since BibTeX counts
  every brace); words with inner capitals (NeRF, LiDAR, SLAM) are braced against
  lowercasing; $...$ math that looks like TeX is kept as written. Non-ASCII stays UTF-8
  (biber reads it natively; BibTeX passes the bytes through to LaTeX, which reads UTF-8 by
  default). URLs are written raw (verbatim fields) with braces and spaces %-encoded.
"""

from __future__ import annotations

import csv
import io
import json
import math
import operator
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, SupportsFloat, SupportsIndex, TypedDict
from urllib.parse import quote as _urlquote

from paperscope.records import Answer

CSV_COLUMNS = ("title", "authors", "venue", "year", "url", "quote", "paper_id")
FORMATS = ("text", "json", "csv", "bibtex")
_FIELDS = CSV_COLUMNS + ("score", "marker")


class Row(TypedDict):
    """One item, normalised: every field present, "" / None / [] when missing."""

    title: str
    authors: list[str]
    venue: str
    year: int | None
    url: str
    quote: str
    paper_id: str
    score: float | None
    marker: int | str | None


# ---------------------------------------------------------------------------- records
def _getter(item: object) -> Callable[[str], object]:
    if isinstance(item, Mapping):
        return lambda key: item.get(key)
    return lambda key: getattr(item, key, None)


def _year(value: object) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        m = re.search(r"\d{4}", value)
        return int(m.group(0)) if m else None
    if isinstance(value, float):
        return int(value) if math.isfinite(value) else None
    if isinstance(value, SupportsIndex):  # int, numpy integers
        return operator.index(value)
    return None


def _score(value: object) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        score = float(value) if isinstance(value, (str, SupportsFloat)) else math.nan
    except (ValueError, OverflowError):
        return None
    return score if math.isfinite(score) else None  # NaN / inf would make invalid JSON


def _marker(value: object) -> int | str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, SupportsIndex):
        n = operator.index(value)
        return n if n > 0 else None  # markers are 1-based; 0 is Citation's "not set"
    return None


def _authors(value: object) -> list[str]:
    if isinstance(value, str):
        value = re.split(r";|\n", value)
    if not isinstance(value, Iterable):
        return []
    return [name for name in (str(a).strip() for a in value) if name]


def normalize(item: object) -> Row:
    """One item (a Citation, any object with those attributes, or a mapping) as a `Row`."""
    get = _getter(item)
    return {
        "title": str(get("title") or "").strip(),
        "authors": _authors(get("authors")),
        "venue": str(get("venue") or "").strip(),
        "year": _year(get("year")),
        "url": str(get("url") or "").strip(),
        "quote": str(get("quote") or "").strip(),
        "paper_id": str(get("paper_id") or "").strip(),
        "score": _score(get("score")),
        "marker": _marker(get("marker")),
    }


def _renderer(fmt: str) -> Callable[..., str]:
    renderers: dict[str, Callable[..., str]] = {"text": to_text, "json": to_json, "csv": to_csv, "bibtex": to_bibtex}
    if fmt not in renderers:
        raise ValueError(f"unknown export format {fmt!r}; use one of {', '.join(FORMATS)}")
    return renderers[fmt]


def render(items: Iterable[object], fmt: str, **options: Any) -> str:
    """`items` in one of FORMATS ("text", "json", "csv", "bibtex"); `options` go to that renderer."""
    return _renderer(fmt)(items, **options)


def export_answer(answer: Answer, fmt: str) -> str:
    """An answer in one of FORMATS. text: the question (if any), the answer text, then its
    citations as a "References" list under their [n] markers; json: an object with question,
    answer, abstained and citations (rows as `to_json`; the full record is `answer.model_dump()`);
    csv, bibtex: the citations only. For a CSV download use `csv_bytes(answer.citations)`."""
    _renderer(fmt)  # the same error for an unknown format
    if fmt == "text":
        parts = [f"Question: {answer.question.strip()}"] if answer.question.strip() else []
        parts.append(answer.text.strip())
        if answer.citations:
            parts.append(to_text(answer.citations, heading="References").rstrip("\n"))
        return "\n\n".join(p for p in parts if p) + "\n"
    if fmt == "json":
        data = {"question": answer.question, "answer": answer.text, "abstained": answer.abstained,
                "citations": _json_rows(answer.citations)}
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return render(answer.citations, fmt)


# ---------------------------------------------------------------------------- text / JSON
def _authors_short(authors: Sequence[str], most: int = 6) -> str:
    return ", ".join(authors[:most]) + (" et al." if len(authors) > most else "")


def to_text(items: Iterable[object], heading: str | None = None) -> str:
    """A numbered list: `[marker] title`, then authors - venue year, url and "quote" lines."""
    rows = [normalize(i) for i in items]
    lines = [heading if heading is not None else f"{len(rows)} paper{'s' if len(rows) != 1 else ''}", ""]
    for n, r in enumerate(rows, 1):
        marker = r["marker"] if r["marker"] is not None else n
        lines.append(f"[{marker}] {r['title'] or r['paper_id']}")
        meta = " ".join(str(x) for x in (r["venue"], r["year"]) if x not in ("", None))
        who = _authors_short(r["authors"])
        if who or meta:
            lines.append("    " + " - ".join(x for x in (who, meta) if x))
        if r["url"]:
            lines.append(f"    {r['url']}")
        if r["quote"]:
            lines.append(f"    \"{r['quote']}\"")
    return "\n".join(lines).rstrip() + "\n"


def _json_rows(items: Iterable[object]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for i in items:
        r: dict[str, object] = dict(normalize(i))
        rows.append({k: r[k] for k in _FIELDS if k in CSV_COLUMNS or r[k] is not None})
    return rows


def to_json(items: Iterable[object]) -> str:
    """A JSON list of objects with the CSV columns (+ score and marker when set), UTF-8 text."""
    return json.dumps(_json_rows(items), ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------------------- CSV
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv_rows(items: Iterable[object], neutralize_formulas: bool) -> list[list[str]]:
    out: list[list[str]] = []
    for i in items:
        r = normalize(i)
        row = [r["title"], "; ".join(r["authors"]), r["venue"], "" if r["year"] is None else str(r["year"]),
               r["url"], r["quote"], r["paper_id"]]
        if neutralize_formulas:
            row = [("'" + c) if c.startswith(_FORMULA_START) else c for c in row]
        out.append(row)
    return out


def to_csv(items: Iterable[object], bom: bool = False, neutralize_formulas: bool = False) -> str:
    """RFC 4180 CSV text (header row, CRLF line ends)."""
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerows(_csv_rows(items, neutralize_formulas))
    return ("\ufeff" if bom else "") + buf.getvalue()


def csv_bytes(items: Iterable[object], bom: bool = True, neutralize_formulas: bool = True) -> bytes:
    """CSV for a file or download: UTF-8 with BOM, formula-looking cells neutralised."""
    return to_csv(items, bom=bom, neutralize_formulas=neutralize_formulas).encode("utf-8")


# ---------------------------------------------------------------------------- BibTeX
_TITLE_STOP = frozenset("a an the on of in for to and with towards toward via from is are do does how what why when "
                        "can at by as into".split())
_NAME_SUFFIX = frozenset("jr jr. sr sr. ii iii iv".split())
_FOLD = {"ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "œ": "oe", "Œ": "OE", "đ": "d", "Đ": "D",
         "ł": "l", "Ł": "L", "þ": "th", "Þ": "TH", "ð": "d", "ı": "i"}
_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "^": r"\textasciicircum{}", "~": r"\textasciitilde{}"}
# $...$ with TeX inside (a backslash, ^ or _): kept as the authors wrote it.
_MATH = re.compile(r"\$(?=[^$]*[\\^_])[^$\n]+\$")


def ascii_fold(text: str) -> str:
    """Lowercase ASCII letters and digits of `text` ("Müller" -> "muller", "张伟" -> "")."""
    text = "".join(_FOLD.get(ch, ch) for ch in text)
    text = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^a-z0-9]", "", "".join(ch for ch in text if not unicodedata.combining(ch)).lower())


def _last_name(name: str) -> str:
    if re.search(r"\sand\s", name, re.I):  # "Smith and Wesson Lab": an organisation, named by its first word
        return name.split()[0]
    if "," in name:  # "Last, First"
        return name.split(",")[0]
    parts = [p for p in name.split() if p.lower() not in _NAME_SUFFIX]
    return parts[-1] if parts else ""


def base_key(item: object) -> str:
    """The citation key before de-duplication: lastname + year + first significant title word."""
    r = normalize(item)
    last = ascii_fold(_last_name(r["authors"][0])) if r["authors"] else ""
    words = [ascii_fold(w) for w in re.split(r"[\s\-–—:/]+", _MATH.sub(" ", r["title"]))]
    word = next((w for w in words if w and w not in _TITLE_STOP), "")
    year = str(r["year"]) if r["year"] is not None else ""
    if last:
        return f"{last}{year}{word}"
    return f"{word or 'paper'}{year}"


def _suffix(n: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa, ..."""
    s = ""
    n += 1
    while n:
        n, rem = divmod(n - 1, 26)
        s = chr(97 + rem) + s
    return s


def citation_keys(items: Sequence[object]) -> list[str]:
    """One unique key per item; colliding keys get a, b, ... in paper_id order."""
    rows = [normalize(i) for i in items]
    bases = [base_key(r) for r in rows]
    groups: dict[str, list[int]] = {}
    for idx, b in enumerate(bases):
        groups.setdefault(b, []).append(idx)
    keys = list(bases)
    taken = {b for b, idxs in groups.items() if len(idxs) == 1}
    for b, idxs in sorted(groups.items()):
        if len(idxs) == 1:
            continue
        n = 0
        for idx in sorted(idxs, key=lambda i: (rows[i]["paper_id"], rows[i]["title"], i)):
            while f"{b}{_suffix(n)}" in taken:
                n += 1
            keys[idx] = f"{b}{_suffix(n)}"
            taken.add(keys[idx])
            n += 1
    return keys


def _braces_balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return False
    return depth == 0


def latex_escape(text: str, protect_case: bool = False, keep_math: bool = True) -> str:
    """`text` as a BibTeX field value (without the outer braces)."""
    pieces: list[tuple[str, bool]] = []  # (text, is_math)
    pos = 0
    for m in (_MATH.finditer(text) if keep_math else ()):
        if _braces_balanced(m.group(0)):
            pieces += [(text[pos:m.start()], False), (m.group(0), True)]
            pos = m.end()
    pieces.append((text[pos:], False))
    plain = "".join(p for p, is_math in pieces if not is_math)
    open_b, close_b = (r"\{", r"\}") if _braces_balanced(plain) else (r"\textbraceleft{}", r"\textbraceright{}")

    def esc(s: str) -> str:
        return "".join(_SPECIAL.get(ch) or (open_b if ch == "{" else close_b if ch == "}" else ch) for ch in s)

    out: list[str] = []
    for piece, is_math in pieces:
        if is_math:
            out.append("{" + piece + "}" if protect_case else piece)
            continue
        if not protect_case:
            out.append(esc(piece))
            continue
        for token in re.split(r"(\s+)", piece):
            core = token.strip("\"'.,;:!?()[]")
            if core and any(ch.isupper() for ch in core[1:]):
                i = token.index(core)
                token = f"{esc(token[:i])}{{{esc(core)}}}{esc(token[i + len(core):])}"
            else:
                token = esc(token)
            out.append(token)
    return "".join(out)


def _bib_name(name: str) -> str:
    escaped = latex_escape(name, keep_math=False)
    # A name containing " and " would be split into two people by BibTeX: keep it whole. A comma
    # is fine: "Doe, John" is BibTeX's own "Last, First" form.
    if re.search(r"\sand\s", name, re.I) or name.count(",") > 2:
        return "{" + escaped + "}"
    return escaped


def _bib_url(url: str) -> str:
    return _urlquote(url, safe=":/?#[]@!$&'()*+,;=%~-._")


def to_bibtex(items: Iterable[object], quote_field: str | None = "annote") -> str:
    """BibTeX entries, one per item, keys from `citation_keys`; `quote_field=None` leaves
    the quote out."""
    rows = [normalize(i) for i in items]
    keys = citation_keys(rows)
    entries: list[str] = []
    for key, r in zip(keys, rows):
        kind = "inproceedings" if r["venue"] else "misc"
        fields: list[tuple[str, str]] = []
        if r["title"]:
            fields.append(("title", latex_escape(r["title"], protect_case=True)))
        if r["authors"]:
            fields.append(("author", " and ".join(_bib_name(a) for a in r["authors"])))
        if r["venue"]:
            fields.append(("booktitle", latex_escape(r["venue"])))
        if r["year"] is not None:
            fields.append(("year", str(r["year"])))
        if r["url"]:
            fields.append(("url", _bib_url(r["url"])))
        if quote_field and r["quote"]:
            fields.append((quote_field, latex_escape(r["quote"])))
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        entries.append(f"@{kind}{{{key},\n{body}\n}}\n")
    return "\n".join(entries)
