"""A question in Chinese (or another non-Latin-script language USE-m knows) made answerable
from English abstracts, without a translation model.

`CrossLingual` is what the Assistant calls (`translate`, `rankings`, `quote`);
`translate(question, library, encoder)` gives:
- `english`: what BM25 and MiniLM search with: each phrase of the question glossed (research
  glossary, then CC-CEDICT) plus its *dense gloss*, the library's nearest English phrase by
  USE-m cosine ("混合专家模型" -> "mixture of experts", where CC-CEDICT says "mix/blend/hybrid
  expert");
- `analysis`: the same as an English question for the relevance model: an English head that
  carries the kind ("Which papers" / "What is"), then one group of alternatives per phrase
  ("mixture of experts or moe, inference latency"), so coverage is judged per phrase and not
  per dictionary sense;
- `vector`: the question's USE-m vector (title ranking; factoid quotes);
- `latin`: its Latin-script words (method names, acronyms: "GAPrompt", "EEG"), searched by BM25
  as one more list.
Measured at 20,000 papers on 160 hand-written Chinese known-item questions (research, docs/measurements.md):
R@1 .606 -> .831 and R@10 .844 -> .969 over word glossing alone; English on the same questions .981/1.0.
German, French, Spanish, Italian, Portuguese and Dutch questions (told from English by their
function words, `text.languages`) and Japanese ones (by kana) take the same path, split at their
scaffolding words or kana and glossed by USE-m only (the dictionary and glossary are Chinese).
Leaves out: Latin-script languages USE-m has but `text.languages` does not list (Polish, Turkish).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from paperscope.index.bm25 import Bm25Snapshot
from paperscope.index.catalog import Catalog
from paperscope.index.multilingual import Encoder, LibraryVectors, Vectors, encoder
from paperscope.records import Evidence
from paperscope.relevance.question import SEPARATE
from paperscope.relevance.quotes import asks_number, states_number
from paperscope.settings import RetrieveSettings
from paperscope.text.analyzer import terms
from paperscope.text.languages import JOINS, OR, SCAFFOLD, japanese, japanese_frame, japanese_pieces, latin_language
from paperscope.text.languages import frame as latin_frame
from paperscope.text.zh import chinese, frame, gloss_for_analysis, glosses, has_cjk, research_terms, runs, to_english_query

# Non-Latin scripts that go to the cross-lingual path: Han, Kana, Hangul, Cyrillic, Greek,
# Arabic, Hebrew, Thai, Devanagari (a question in one of them cannot match English words).
_FOREIGN = re.compile(r"[\u0370-\u03ff\u0400-\u04ff\u0590-\u05ff\u0600-\u06ff\u0900-\u097f\u0e00-\u0e7f"
                      r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-+.]*[A-Za-z0-9+]|[A-Za-z]")
# A dense gloss counts when the phrase's cosine reaches this (USE-m; read off the neighbour
# lists of ~25 terms: below it the nearest phrase is usually a different topic).
FLOOR = 0.70
# A phrase for several words at once must be nearer: a small library's nearest multi-word phrase
# is often another topic sharing one word ("复杂分布" -> "ensemble distribution", .78).
SPAN_FLOOR = 0.80
MAX_SPAN = 3
# Below SPAN_FLOOR a phrase for several words still counts when the two witnesses agree: each
# Chinese word has a dictionary sense or a near library phrase of its own inside it ("同心 管
# 机器人" -> "concentric tube robots" at .67: concentric, tube (管's neighbour), robots). The
# cosine alone cannot tell it from "human-machine" (.66); the dictionary alone picks
# "united manage robot". Dictionary-based cross-language retrieval disambiguates senses by such
# co-occurrence (Ballesteros & Croft 1998); here the library's phrases are the co-occurrences.
AGREE_FLOOR = 0.55
AGREE_K = 12
WITNESSES = 5  # a word's own nearest phrases that may explain it (cosine >= FLOOR)
NUMBER_FIRST = 1.0  # a quantity asked for: sentences with a number rank above the others (`quote`)


def is_foreign(text: str) -> bool:
    """Written in a script other than Latin, or in a Latin-script language other than English."""
    return bool(_FOREIGN.search(text)) or latin_language(text) is not None


# In a Latin-script question, a word that is a name or acronym ("MoE", "GAPrompt", "NeRF", "3D",
# "BERT") is searched as written; any other word is the language's own and is glossed.
_NAME = re.compile(r"^(?:.*\d.*|.[^\W\d_]*[A-Z].*|[A-Z]{2,}s?)$")


def _latin_pieces(text: str, lang: str) -> list[str | list[str]]:
    """A Latin-script foreign question's pieces: runs of the language's topical words (lists),
    broken by its scaffolding (`languages.SCAFFOLD`); names and acronyms as strings; "or" for
    its "or". Hyphenated compounds are split ("MoE-Latenz" -> "MoE", "Latenz")."""
    out: list[str | list[str]] = []
    run: list[str] = []

    def close() -> None:
        nonlocal run
        if run:
            out.append(run)
            run = []

    for token in text.split():
        for word in token.split("-"):
            word = word.strip("?？.,;:!¿¡\"'()«»“”")
            if not word:
                continue
            head, apostrophe, rest = word.replace("’", "'").partition("'")
            if apostrophe and rest and head.lower() in SCAFFOLD[lang]:
                word = rest  # "l'apprentissage", "d'experts", "s'appuient"
            low = word.lower()
            if low in OR[lang]:
                close()
                out.append("or")
            elif low in JOINS and run:
                run.append(word)
            elif low in SCAFFOLD[lang]:
                close()
            elif _NAME.match(word):
                close()
                out.append(word)
            else:
                run.append(word)
    close()
    return out


@dataclass(frozen=True)
class Translated:
    english: str
    analysis: str
    latin: str
    vector: Vectors


def _pieces(text: str) -> list[str | list[str]]:
    """Topical pieces: Chinese through jieba, Japanese by its kana, a Latin-script language by its
    function words; other scripts as runs of whitespace words."""
    if japanese(text):
        return japanese_pieces(text)
    if has_cjk(text):
        return runs(text)
    lang = latin_language(text)
    if lang is not None:
        return _latin_pieces(text, lang)
    out: list[str | list[str]] = []
    for word in text.split():
        word = word.strip("?？.,;:!¿¡\"'()")
        if not word:
            continue
        if _LATIN_WORD.fullmatch(word):
            out.append(word)
        elif out and isinstance(out[-1], list):
            out[-1].append(word)
        else:
            out.append([word])
    return out


def _join(words: list[str]) -> str:
    return "".join(words) if any(has_cjk(w) for w in words) else " ".join(words)


def _concept(word: str, hit: tuple[str, float] | None, chinese: bool = True) -> tuple[str, list[str]]:
    """(the word as one concept of the analysis text, every English alternative to search for).
    A multi-word phrase stands alone in the analysis: "mixture of experts or moe" would let "or"
    link all its words into one group that "mixtures" alone satisfies. Dictionary senses of
    several words ("be distributed", "let droop") are searched but not required."""
    curated = research_terms().get(word) if chinese else None
    if curated:  # its first entry is the term
        alts = list(curated)
        return (alts[0] if " " in alts[0] else " or ".join(alts)), alts
    alts = _dictionary(word, chinese)
    if not alts and hit is None and not (chinese and has_cjk(word)):
        # A word of another language the encoder cannot place stays a part of the question, as
        # written (accents folded for the English analyzer; Japanese as is): the answer then says
        # no paper covers it, rather than answering the question without it (外骨格ロボット
        # without 外骨格 listed every robot paper).
        alts = [word if _FOREIGN.search(word) else _fold(word)]
    if hit is not None and hit[0] not in alts:
        alts.append(hit[0])
    if hit is not None and " " in hit[0] and hit[1] >= SPAN_FLOOR:
        return hit[0], alts
    single = [a for a in alts if " " not in a]
    return " or ".join(single or alts[:1]), alts


def _dictionary(word: str, chinese: bool) -> list[str]:
    """CC-CEDICT's senses of a word of a Chinese question; none for other languages: jieba would
    cut "Übersetzung" at its umlaut and gloss the pieces, and Japanese kanji compounds are not
    Chinese words (拡散モデル came out as "loose/scattered")."""
    return glosses(word) if chinese and has_cjk(word) else []


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def _contradicts(words: Sequence[str], phrase: str) -> bool:
    """A library phrase found for several Chinese words is wrong when one of the words is a
    glossary term and the phrase says none of its English forms (混合专家 模型 came out as
    "mixture model": USE-m is near, the glossary knows the term is "mixture of experts")."""
    said = f" {phrase.lower()} "
    for word in words:
        forms = research_terms().get(word)
        if forms and not any(f" {form.lower()} " in said for form in forms):
            return True
    return False


def _stems(text: str) -> frozenset[str]:
    return frozenset(terms(text))


def _agreed(words: Sequence[str], neighbours: dict[str, list[tuple[str, float]]],
            chinese: bool = True) -> tuple[str, float] | None:
    """The nearest library phrase of the span `words` in which every word is explained (see
    AGREE_FLOOR): the stems of one of its senses (a research term's own forms only; else its
    CC-CEDICT glosses and its WITNESSES nearest phrases) are all in the phrase, which may hold
    one word more ("软体 抓手" -> "soft robotic gripper")."""
    senses: list[list[tuple[frozenset[str], bool]]] = []  # per word: (a sense's stems, a dense neighbour?)
    for word in words:
        curated = research_terms().get(word) if chinese else None
        near = [] if curated else [p for p, c in neighbours.get(word, [])[:WITNESSES] if c >= FLOOR]
        senses.append([(st, form in near) for form in (curated or [*_dictionary(word, chinese), *near])
                       if (st := _stems(form))])
    for phrase, cosine in neighbours.get(_join(list(words)), []):
        have = _stems(phrase)
        used: set[str] = set()
        for options in senses:
            # A word's own nearest phrase explains it only when shorter than the candidate: the
            # candidate itself (or a longer one) would vouch for itself.
            fits = [st for st, dense in options if st <= have and not (dense and len(st) >= len(have))]
            if not fits:
                break
            used |= max(fits, key=len)
        else:
            if len(have - used) <= 1:
                return phrase, cosine
    return None


# "共形预测（conformal prediction）": the writer's own English for the words before the brackets.
_WRITERS_TERM = re.compile(r"[（(]\s*([A-Za-z][^（）()\u4e00-\u9fff]*?)\s*[)）]")


def _writers_terms(pieces: list[str | list[str]], question: str) -> list[str | list[str]]:
    """`pieces` without the Chinese words a bracketed English term of several words translates
    ("共形预测（conformal prediction）", "文本转SQL（Text-to-SQL）"): the writer's term is the
    translation, and the dictionary senses of those words ("共形" -> "jointly") only add wrong
    groups the relevance model must then find covered. A bracketed acronym ("视觉惯性里程计（VIO）")
    keeps the Chinese words: they say what the acronym stands for."""
    # Several words: "conformal prediction", or one hyphenated compound ("peg-in-hole", kept whole by `runs`).
    terms = [t for t in (runs(m.group(1)) for m in _WRITERS_TERM.finditer(question))
             if sum(len(w.split("-")) if isinstance(w, str) else 1 for w in t) >= 2]
    if not terms:
        return pieces
    out: list[str | list[str]] = []
    for k, piece in enumerate(pieces):
        if isinstance(piece, list):
            after: list[str | list[str]] = []
            for nxt in pieces[k + 1:]:
                if not isinstance(nxt, str):
                    break
                after.append(nxt)
            if any(len(after) >= len(t) and after[len(after) - len(t):] == t for t in terms):
                continue
        out.append(piece)
    return out


# A bracketed Chinese restatement ("软体抓手（软体夹爪）", "因果发现（因果结构学习）") names the same
# topic again: searched, but not one more part every paper must cover.
# Only a bracket right after a Chinese word, holding Chinese, and not a list of examples
# ("循环网络（例如LSTM）" asks for LSTMs).
_RESTATED = re.compile(r"(?<=[\u4e00-\u9fff])[（(](?!\s*(?:例如|比如|譬如|如|包括|尤其))"
                       r"([^（）()]*[\u4e00-\u9fff][^（）()]*)[)）]")


def translate(question: str, library: LibraryVectors, encoder: Encoder) -> Translated:
    zh = chinese(question)  # the research glossary and CC-CEDICT are for Chinese only
    main = _writers_terms(_pieces(_RESTATED.sub("，", question)), question)
    pieces = main + [p for m in _RESTATED.finditer(question) for p in _pieces(m.group(1)) if p != "or"]
    spans = list(dict.fromkeys(_join(p[i:i + n]) for p in pieces if isinstance(p, list)
                               for n in range(1, MAX_SPAN + 1) for i in range(len(p) - n + 1)))
    vectors = encoder.embed([*spans, question])
    neighbours = dict(zip(spans, library.neighbours(vectors[:-1], AGREE_K, min(FLOOR, AGREE_FLOOR))))
    near = {span: (found[0] if found and found[0][1] >= FLOOR else None) for span, found in neighbours.items()}
    parts: list[str] = []  # group texts and the "or"s between them
    latin: list[str] = []
    searched: list[str] = []
    previous: str | list[str] | None = None
    for k, piece in enumerate(pieces):
        after, previous = previous, piece
        analysed = k < len(main)
        if isinstance(piece, str):
            if piece == "or":
                parts.append(" or ")
                continue
            latin.append(piece)
            if not analysed:
                continue
            if isinstance(after, str) and after != "or" and parts:
                # Latin words written next to each other stay one phrase ("conformal prediction"):
                # as separate parts the analysis lost the phrase match English questions get.
                parts[-1] += " " + piece
            else:
                parts.append(piece)
            continue
        i = 0
        while i < len(piece):
            if piece[i].lower() in JOINS:  # "de" of "mezcla de expertos": only inside a span
                i += 1
                continue
            for n in range(min(MAX_SPAN, len(piece) - i), 0, -1):
                if piece[i + n - 1].lower() in JOINS:
                    continue
                span = _join(piece[i:i + n])
                hit = near.get(span)
                if n > 1 and (hit is None or hit[1] < SPAN_FLOOR or _contradicts(piece[i:i + n], hit[0])):
                    hit = _agreed(piece[i:i + n], neighbours, zh)
                    if hit is None:
                        continue
                if n > 1:  # a phrase of several words (SPAN_FLOOR, or agreed): one concept
                    assert hit is not None
                    group, alts = hit[0], [hit[0]]
                else:
                    group, alts = _concept(span, hit, zh)
                if group:
                    searched.extend(alts)
                    if analysed:
                        parts.append(group)
                i += n
                break
    english = " ".join([*latin, *(w for w in searched if not _FOREIGN.search(w))])
    # A word in a non-Latin script kept unglossed (`_concept`) stays a part only when the question
    # would otherwise be down to one glossed part and names nothing in Latin script: "外骨格ロボット"
    # without 外骨格 asks for every robot paper, but "混合エキスパート（MoE）モデル" is still asked
    # without エキスパート, and "MoEの推論遅延" without 推論遅延 where the library has no phrase for it
    # (a name the writer typed anchors the question, as on the Latin-script path). Japanese topics
    # at 20,000 papers, dropping such words always: exoskeleton and optical flow listed ~990 papers
    # each; keeping them always: "legged" and "MoE" lists lost right papers (docs/measurements.md).
    unglossed = [p for p in parts if p != " or " and _FOREIGN.search(p)]
    if unglossed and (latin or sum(p != " or " for p in parts) - len(unglossed) >= 2):
        parts = [p for p in parts if p not in unglossed]
        parts = [p for k, p in enumerate(parts) if p != " or " or 0 < k < len(parts) - 1 and parts[k - 1] != " or "]
    # Parts apart by `question.SEPARATE`, not ",": a comma list before an "or" reads as
    # alternatives, and these parts are separate concepts unless the writer put 或 between.
    analysis = ""
    for p in parts:
        analysis += p if p == " or " or analysis.endswith(" or ") or not analysis else f" {SEPARATE} " + p
    head = (japanese_frame(question) if japanese(question) else frame(question) if has_cjk(question)
            else latin_frame(question) if latin_language(question) else "")
    return Translated(english, f"{head} {analysis}".strip(), " ".join(latin), np.asarray(vectors[-1]))


class CrossLingual:
    """The cross-lingual path of one library, for the Assistant."""

    def __init__(self, catalog: Catalog, settings: RetrieveSettings) -> None:
        self.catalog, self.settings = catalog, settings
        self._cache: dict[tuple[str, str], Translated] = {}

    def translate(self, question: str, snapshot: Bm25Snapshot) -> Translated | None:
        """A non-English question's search text, analysis text and USE-m vector; None for
        English, or when `PAPERSCOPE_RETRIEVE_MULTILINGUAL` is off (CC-CEDICT glossing only)."""
        if not (self.settings.multilingual and is_foreign(question)):
            return None
        key = (question, snapshot.generation)
        found = self._cache.get(key)
        if found is None:
            found = translate(question, self.catalog.multilingual(snapshot.generation), encoder())
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[key] = found
        return found

    def query(self, question: str, snapshot: Bm25Snapshot, n: int) -> tuple[str, str, list[tuple[list[str], float]]]:
        """(text to search, text to analyse, more rankings to fuse, `n` deep) for any question:
        English passes through (Chinese with the index off is glossed by CC-CEDICT)."""
        foreign = self.translate(question, snapshot)
        if foreign is None:
            return to_english_query(question), gloss_for_analysis(question), []
        return foreign.english, foreign.analysis, self.rankings(foreign, snapshot, n)

    def rankings(self, foreign: Translated, snapshot: Bm25Snapshot, n: int) -> list[tuple[list[str], float]]:
        """More lists to fuse for a non-English question: papers by USE-m title cosine, and BM25
        over its Latin-script words (method names and acronyms need no translation)."""
        library = self.catalog.multilingual(snapshot.generation)
        out = [([pid for pid, _ in library.titles_ranked(foreign.vector, n)], self.settings.multilingual_weight)]
        if foreign.latin:
            out.append(([pid for pid, _ in snapshot.search(foreign.latin, n)], self.settings.multilingual_weight))
        return out

    def quote(self, question: str, snapshot: Bm25Snapshot, evidence: Sequence[Evidence]) -> None:
        """A non-English factoid's quotes: the sentence nearest the question by USE-m cosine. The
        quote rankers read English words the question does not have; on dev2's four Chinese
        factoids the cross-lingual cosine ranked the sentence holding the answer first each time."""
        foreign = self.translate(question, snapshot)
        if foreign is None:
            return
        for ev in evidence:
            if len(ev.sentences) < 2:
                continue
            sims = encoder().embed([s for s, _ in ev.sentences]) @ foreign.vector
            if asks_number(question):  # "它评测的模型有多大？": the sentence with a number first
                sims = sims + np.array([NUMBER_FIRST * states_number(s, question) for s, _ in ev.sentences])
            order = np.argsort(-sims, kind="stable")
            ev.sentences = [(ev.sentences[i][0], round(float(sims[i]), 4)) for i in order]
