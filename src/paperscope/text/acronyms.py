"""Corpus-learned acronyms: "Large Language Models (LLMs)" links LLM to its expansion, so a
paper that writes only "LLMs" covers "large language models" and the other way round.

Leaves out: acronyms defined without parentheses.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Collection, Iterable
from pathlib import Path

from paperscope.text.analyzer import concept, concepts, fold, terms

_ACRONYM_PAREN = re.compile(r"\(((?=[A-Za-z0-9]*[A-Z])[A-Z0-9][A-Za-z0-9]{1,9})\)")
_WORDS_BEFORE = re.compile(r"(?:[A-Za-z0-9][A-Za-z0-9]*[\s-]+){1,8}$")
_LOOKBACK = 400  # characters searched before "(ACR)" for its expansion (8 words fit easily)
_LINK_WORDS = ("of", "and", "the", "for", "in", "to", "a")
_WORD = re.compile(r"\b[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]\b")
# Written as an acronym: two capitals, or a capital and a digit ("VIO", "NeRF", "AUVs", "3DGS").
# A lower-case word is a word: "mapping" is not MAP (maximum a posteriori), "scans" is not SCAN.
_ACRONYM_LIKE = re.compile(r"[A-Z][^A-Z]*[A-Z0-9]|[0-9][^A-Z]*[A-Z]")


def written_as_acronym(word: str) -> bool:
    return bool(_ACRONYM_LIKE.search(word))


def acronyms_in(text: str) -> frozenset[str]:
    """The words of `text` written as acronyms, lower-cased."""
    # As written and as `fold` reads it: "LLMs" is "llms" here and "llm" among a question's words.
    return frozenset(x for w in _WORD.findall(text) if written_as_acronym(w) for x in (w.lower(), fold(w)))


def _spells(letters: str, words: list[str]) -> bool:
    """Can `letters` be cut into pieces, each a prefix of the next word ("nerf" from "Neural
    Radiance Fields": ne+r+f; "3dgs" from "3D Gaussian Splatting"), linking words skippable?"""
    if not words:
        return not letters
    if not letters:
        return False
    word = words[0].lower()
    if word in _LINK_WORDS and _spells(letters, words[1:]):
        return True
    return any(word.startswith(letters[:k]) and _spells(letters[k:], words[1:]) for k in range(1, len(letters) + 1))


_CAPITALISED = re.compile(r"\b[A-Za-z0-9-]*[A-Z][A-Za-z0-9-]*\b")


def written_acronyms(texts: Iterable[str]) -> set[str]:
    """The concepts (`acronym_concept`) of the words `texts` write as acronyms ("RNNs" -> "rnn")."""
    capitalised = {m for t in texts for m in _CAPITALISED.findall(t)}  # half the time of reading every word
    words = {w for m in capitalised for w in _WORD.findall(m) if written_as_acronym(w)}
    return {c for w in words if (c := acronym_concept(w))}


def acronym_concept(word: str) -> str | None:
    """The concept an acronym is keyed by in the table ("LLMs" -> "llms"), None without a term."""
    t = terms(word)
    return concept(t[0]) if t else None


def acronym_expansion(acr: str, words: list[str]) -> str | None:
    """The shortest run of the last `words` whose initials spell `acr` ("LLMs" ->
    "Large Language Models"; linking words like "of" may be skipped), else whose word prefixes
    do ("NeRF" -> "Neural Radiance Fields", "3DGS" -> "3D Gaussian Splatting"), or None."""
    letters = acr[:-1] if acr.endswith("s") and len(acr) > 2 else acr
    alpha = "".join(ch for ch in letters if ch.isalpha()).lower()
    for n in range(len(alpha), min(len(words), len(alpha) + 3) + 1):
        cand = words[-n:]
        initials = "".join(w[0].lower() for w in cand if w.lower() not in _LINK_WORDS or w[0].lower() in alpha)
        if initials == alpha or "".join(w[0].lower() for w in cand) == alpha:
            return " ".join(cand)
    alnum = "".join(ch for ch in letters if ch.isalnum()).lower()
    for n in range(2, min(len(words), len(alnum)) + 1):
        if _spells(alnum, words[-n:]):
            return " ".join(words[-n:])
    return None


def acronym_definitions(text: str) -> list[tuple[str, str]]:
    """(acronym, expansion) pairs defined in `text` as "Large Language Models (LLMs)": the
    expansion is the shortest run of (at most 8) preceding words whose initials spell the
    acronym. Finds each "(ACR)" first and looks back from it: one regex over the whole text
    that tries 1-8 words at every position cost ~0.5 ms per abstract, most of a BM25 build."""
    out: list[tuple[str, str]] = []
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


# "MoE (Monitoring Ethereum)": an acronym followed by its own spelling-out in brackets.
_ACRONYM_THEN_WORDS = re.compile(r"\b([A-Z][A-Za-z0-9]{1,9})\s*\(([A-Za-z][A-Za-z0-9 -]{2,80})\)")


def own_acronyms(text: str) -> dict[str, set[str]]:
    """The acronyms (as concepts) `text` spells out itself, either way round ("Mixture of Experts
    (MoE)", "MoE (Monitoring Ethereum)"), each with the concepts of its spelling-out."""
    out: dict[str, set[str]] = {}
    found = list(acronym_definitions(text))
    for m in _ACRONYM_THEN_WORDS.finditer(text):
        acr, words = m.group(1), [w for w in re.split(r"[\s-]+", m.group(2)) if w]
        if written_as_acronym(acr) and acronym_expansion(acr, words) == " ".join(words):
            found.append((acr, " ".join(words)))
    for acr, expansion in found:
        if key := acronym_concept(acr):
            out.setdefault(key, set()).update(concepts(expansion))
    return out


def own_markers(text: str) -> set[str]:
    """Marks for a paper's concept sets, one per acronym it spells out itself and one per concept
    of that spelling-out: the acronym then counts as the library's only where the paper's own
    spelling-out holds the library's expansion ("MoE (Monitoring Ethereum)" is not mixture of
    experts; see `Acronyms.covers`). Every set of the paper carries them, so a title that writes
    only "MoE" reads as the abstract defines it."""
    return {m for acr, exp in own_acronyms(text).items() for m in (_own(acr), *(_own_meaning(acr, c) for c in exp))}


def _own(acronym: str) -> str:
    return "\x00" + acronym  # not a concept: no word analyses to a control character


def _own_meaning(acronym: str, c: str) -> str:
    return f"\x01{acronym}|{c}"


def spelled_otherwise(acronym: str, expansion: Collection[str], found: Collection[str]) -> bool:
    """Whether the paper of concept set `found` spells out `acronym` itself, and not as `expansion`:
    its spelling-out shares fewer than half of the expansion's concepts ("Select, Guide, and
    Generate (SGG)" is not scene graph generation; "visual-inertial odometery (VIO)", misspelt,
    is still visual-inertial odometry)."""
    if _own(acronym) not in found:
        return False
    return 2 * sum(_own_meaning(acronym, c) in found for c in expansion) < len(expansion)


@functools.cache
def background() -> tuple[dict[str, list[str]], dict[str, str]]:
    """The acronyms the background corpus defines (`bench.relevance_data --acronyms`): (table, surface)."""
    raw = json.loads((Path(__file__).resolve().parent / "data" / "acronyms.json").read_text(encoding="utf-8"))
    return raw["table"], raw["surface"]


class Acronyms:
    """Corpus-learned acronym <-> expansion links, used for coverage: a paper that writes only
    "LLMs" covers "large language models", and one that writes "mixture of experts" covers "MoE"."""

    def __init__(self, table: dict[str, list[str]] | None = None, surface: dict[str, str] | None = None,
                 background: Collection[str] = ()) -> None:
        self.table = {a: set(e) for a, e in (table or {}).items()}
        self.surface = dict(surface or {})  # acronym concept -> its expansion as most often written
        self.background = frozenset(background)  # acronyms of the table from the background corpus (`with_background`)
        self.reverse: dict[str, list[tuple[str, set[str]]]] = {}
        for acr, exp in self.table.items():
            for c in exp:
                self.reverse.setdefault(c, []).append((acr, exp))

    def with_background(self, used: Collection[str]) -> Acronyms:
        """This library's acronyms and the background corpus's for those its papers write as acronyms
        (`used`: `written_acronyms` of its texts) without spelling them out ("RNN": recurrent neural network,
        in a library whose papers write "RNN layers" and never "recurrent neural network (RNN)"). Not the
        background's others: asked as "KD" where no paper writes it, "knowledge distillation" was only a
        lossier question (two unanswerable library questions answered); nor words ("mapping" is no MAP)."""
        table, surface = background()
        extra = {k: v for k, v in table.items() if k in used and k not in self.table}
        if not extra:
            return self
        return Acronyms({**{k: sorted(v) for k, v in self.table.items()}, **extra},
                        {**{k: surface[k] for k in extra}, **self.surface}, self.background | extra.keys())

    @classmethod
    def learn(cls, texts: Iterable[str], min_count: int = 2) -> Acronyms:
        counts: dict[str, dict[tuple[str, ...], int]] = {}
        written: dict[tuple[str, tuple[str, ...]], dict[str, int]] = {}
        for text in texts:
            for acr, expansion in acronym_definitions(text):
                key = acronym_concept(acr)
                exp = tuple(sorted(concepts(expansion)))
                if key and len(exp) >= 2 and key not in exp:
                    counts.setdefault(key, {}).setdefault(exp, 0)
                    counts[key][exp] += 1
                    forms = written.setdefault((key, exp), {})
                    forms[expansion.lower()] = forms.get(expansion.lower(), 0) + 1
        table: dict[str, list[str]] = {}
        surface: dict[str, str] = {}
        for key, exps in counts.items():
            exp, n = max(exps.items(), key=lambda kv: kv[1])
            if n >= min_count:
                table[key] = list(exp)
                forms = written[(key, exp)]
                surface[key] = max(forms, key=lambda f: (forms[f], f))
        return cls(table, surface)

    def _expansion(self, word: str, present: set[str], known: Collection[str] = (), own_only: bool = False) -> str | None:
        """How this library spells out `word` when the word is written as an acronym it defines
        (or is one of `known`, lower-cased) and the text (its concepts `present`) does not
        already say the expansion; `own_only`: not an acronym of the background corpus's."""
        if not (written_as_acronym(word) or word.lower() in known):
            return None
        key = acronym_concept(word) or ""
        if key not in self.table and len(word) > 2 and word[-1] in "sS":
            key = acronym_concept(word[:-1]) or ""  # a plural written lower-cased ("llms" of "LLMs")
        exp = self.table.get(key)
        if not exp or exp <= present or key not in self.surface or own_only and key in self.background:
            return None
        return self.surface[key]

    def spell_out(self, text: str, known: Collection[str] = ()) -> str:
        """`text` with each acronym this library defines followed by its expansion, unless the
        text already says it: "MoE latency" -> "MoE (mixture of experts) latency". For embedding:
        MiniLM does not know most acronyms (the question's cosine to an on-topic abstract fell
        to .25, below an off-topic "runtime" paper's .31, at 85,864 papers). `known`: words
        (lower-cased) to take as acronyms however written here (a question's topic words come
        lower-cased from the question that wrote them as acronyms, see `acronyms_in`)."""
        present = {concept(t) for t in terms(text)}

        def one(m: re.Match[str]) -> str:
            exp = self._expansion(m.group(0), present, known, own_only=True)
            return m.group(0) if exp is None else f"{m.group(0)} ({exp})"

        return _WORD.sub(one, text)

    def spelled(self, text: str) -> str | None:
        """`text` with each acronym this library defines replaced by its expansion ("Is there work
        on VIO?" -> "Is there work on visual-inertial odometry?"), or None when it has none. A
        hyphenated compound ("PAC-Bayes") stays whole: replacing its acronym would change what
        it names. `find_all` asks both questions: papers that write only the expansion score low
        on the acronym's own question (BM25 and sentence mentions see the acronym alone)."""
        present = {concept(t) for t in terms(text)}
        changed = False

        def one(m: re.Match[str]) -> str:
            nonlocal changed
            exp = None if "-" in m.group(0) else self._expansion(m.group(0), present)
            changed = changed or exp is not None
            return m.group(0) if exp is None else exp

        out = _WORD.sub(one, text)
        return out if changed else None

    def abbreviated(self, text: str) -> str | None:
        """`text` with each expansion this library defines replaced by its acronym ("Which papers
        deal with large language models?" -> "Which papers deal with LLMS?"), or None when it has
        none: the mirror of `spelled`. Papers that write only the acronym ("LLMs", never "large
        language models") score low on the expansion's question (BM25, phrases and sentence
        mentions see the expansion alone)."""
        if not self.table:
            return None
        by_expansion, longest = self._by_expansion
        words = list(_WORD.finditer(text))
        out, at, i = [], 0, 0
        while i < len(words):
            for j in range(min(len(words), i + longest), i + 1, -1):  # longest match first
                first, last = words[i].group(0), words[j - 1].group(0)
                if "-" in first or not terms(first) or not terms(last):
                    continue  # an expansion starts and ends with its own words
                span = text[words[i].start():words[j - 1].end()]
                if not re.fullmatch(r"[A-Za-z0-9\s-]+", span):
                    continue
                key = frozenset(concepts(span))
                acr = by_expansion.get(key) if len(key) >= 2 else None
                if acr is not None:
                    out += [text[at:words[i].start()], acr.upper()]
                    at, i = words[j - 1].end(), j
                    break
            else:
                i += 1
        if not out:
            return None
        return "".join(out) + text[at:]

    @functools.cached_property
    def _by_expansion(self) -> tuple[dict[frozenset[str], str], int]:
        """Acronym by its expansion's concepts, and the most words an expansion may span (its
        concepts plus two linking words, "mixture of experts"): read by `abbreviated` on every
        question, built once per library generation."""
        by_expansion = {frozenset(exp): acr for acr, exp in sorted(self.table.items())}
        return by_expansion, max((len(e) for e in by_expansion), default=0) + 2

    def rule(self, c: str) -> tuple[frozenset[tuple[str, frozenset[str]]], frozenset[str] | None]:
        """How `expand(found)` comes to hold concept `c` when `found` does not: `found` holds one
        of the acronyms whose expansion names `c`, or `c` is an acronym and `found` holds its
        whole expansion. (`covers` applies it: the question's few concepts are checked against a
        paper's set, instead of expanding every set of every candidate.)"""
        exp = self.table.get(c)
        return frozenset((acr, frozenset(e)) for acr, e in self.reverse.get(c, ())), (frozenset(exp) if exp else None)

    @staticmethod
    def covers(c: str, rule: tuple[frozenset[tuple[str, frozenset[str]]], frozenset[str] | None], found: set[str]) -> bool:
        """`c in self.expand(found)`, given `rule = self.rule(c)`."""
        acronyms, expansion = rule
        if expansion is not None and expansion <= found:
            return True
        # An acronym the paper spells out itself counts in the library's meaning only where its
        # spelling-out holds the library's expansion (`own_markers`): a paper on "MoE (Monitoring
        # Ethereum)" covers neither "MoE" (mixture of experts) nor "experts" through it.
        if c in found and (expansion is None or not spelled_otherwise(c, expansion, found)):
            return True
        return any(a in found and not spelled_otherwise(a, e, found) for a, e in acronyms)

    def expand(self, found: set[str]) -> set[str]:
        out = set(found)
        for c in found:
            exp = self.table.get(c)
            if exp and spelled_otherwise(c, exp, found):
                out.discard(c)  # spelled out otherwise by the paper itself (see `covers`)
                continue
            if exp:
                out |= exp
            for acr, exp in self.reverse.get(c, ()):
                if exp <= found:
                    out.add(acr)
        return out
