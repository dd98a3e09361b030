"""A question that joins single-word alternatives with "or" asked once per alternative.

"Which papers deal with symmetry or equivariance in neural networks?" is answered by a paper on
equivariance alone; read whole, the question's vector and its BM25 score carry "symmetry" too,
and the one paper on equivariance in the seeds scored 0.41 (0.60 asked as "... equivariance in
neural networks"). `Gatherer.scored` asks each one-alternative wording as well and keeps every
paper at its best probability, as it does for a question's acronym wording; a wording's
probability counts only for the papers that use its alternative (`Relevance.holding`): asked
"... weather forecasting with deep learning?", a pansharpening paper without either word
scored above the cite threshold.

Only where the words around the "or" are exactly one group of the analysed question
(`Question.groups`: "legged, quadruped, biped or humanoid robots", "during training or
inference"): "dialogue systems or chatbots" or "decision trees or boosting" join phrases,
which one word per wording would split. Not a factoid question ("Does it use A or B?" asks which
one: the kind `framing` reads), not a negated one ("without A or B" excludes both), not a restated phrase.
Phrases joined by "or" (`_phrases`): each alternative is its words on either side of the "or"
that the corpus's titles write together (`lexicon.title_phrases`: "dialogue systems" or
"conversational AI", "iterative solvers or training algorithms"), taken only where they are
plainly whole: bounded by the question's non-topic words, or every one a phrase of two words or
more. A one-word alternative before a longer one shares the longer one's last word when the titles
write them together ("contrastive or self-supervised representation learning": "contrastive
learning"). A paper counts for a phrase wording when it uses all its words.
Leaves out: Chinese questions (glossed alternatives are translations, not the asker's choice).
"""

from __future__ import annotations

import re

from paperscope.relevance.features import base_concept
from paperscope.relevance.lexicon import title_phrases
from paperscope.relevance.question import Question, contentness
from paperscope.text.analyzer import _stemmer, fold

MAX_ALTERNATIVES = 4  # wordings asked at most (each is a full scoring)
_WORD = r"[A-Za-z][A-Za-z0-9]*"
_CHAIN = re.compile(rf"\b{_WORD}(?:\s*,\s*{_WORD})*\s*,?\s+or\s+{_WORD}\b")
_SPLIT = re.compile(r"\s*,\s*(?:or\s+)?|\s+or\s+")
_UNIT = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*|[^\sA-Za-z0-9]")  # a word (hyphens join) or a mark
MAX_PHRASE = 3  # words of one phrase alternative
_NEGATED = re.compile(r"\b(?:not|no|without|nor|neither|except|excluding|rather than|instead of|n't)\b", re.I)


def disjuncts(q: Question) -> list[tuple[str, tuple[str, ...]]]:
    """(`q.text` with one alternative of its first "or", that alternative's stems) for each
    alternative, or [] (see the module docstring)."""
    if q.kind == "factoid" or _NEGATED.search(q.text):
        return []
    for m in _CHAIN.finditer(q.text):
        if q.text[max(0, m.start() - 1):m.start()] == "-" or q.text[m.end():m.end() + 1] == "-":
            continue  # part of a hyphenated compound: the analyzer reads its words apart
        words = [w for w in _SPLIT.split(m.group(0)) if w]
        stems = [_stem(w) for w in words]
        if not 2 <= len(words) <= MAX_ALTERNATIVES or len(set(stems)) != len(words):
            continue
        for i, (group, _) in enumerate(q.groups):
            if group == set(stems) and not q.restated(i):
                return [(q.text[:m.start()] + w + q.text[m.end():], (s,)) for w, s in zip(words, stems)]
    return _phrases(q.text)


def _stem(word: str) -> str:
    """The analyzer's stem (`fold` first, which reads "GNNs" as "gnn" by its case)."""
    return str(_stemmer().stemWord(fold(word)))


def _topical(unit: str) -> bool:
    return unit[0].isalnum() and any(contentness(w.lower(), _stem(w)) >= 0.5 for w in unit.split("-") if w)


def _linked(a: str, b: str) -> bool:
    """The titles write `a` then `b` together (their last and first words)."""
    return f"{base_concept(_stem(a.split('-')[-1]))} {base_concept(_stem(b.split('-')[0]))}" in title_phrases()


def _phrases(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The phrase alternatives of `text`'s first "or" whose alternatives are plainly whole."""
    units = [(m.group(0), m.start(), m.end()) for m in _UNIT.finditer(text)]
    words = [u[0] for u in units]
    topical = [_topical(w) for w in words]
    for k, w in enumerate(words):
        if w.lower() != "or" or k == 0 or k + 1 >= len(words) or not topical[k + 1]:
            continue
        e = k + 2
        while e < len(words) and e - k - 1 < MAX_PHRASE and topical[e] and _linked(words[e - 1], words[e]):
            e += 1
        spans = [(k + 1, e)]
        end = k - 1 if words[k - 1] != "," else k - 2  # "A, B, or C"
        while end >= 0 and topical[end] and len(spans) < MAX_ALTERNATIVES:
            s = end
            while s > 0 and end - s + 1 < MAX_PHRASE and topical[s - 1] and _linked(words[s - 1], words[s]):
                s -= 1
            spans.insert(0, (s, end + 1))
            if s < 2 or words[s - 1] != "," or not topical[s - 2]:
                break
            end = s - 2
        size = [sum(len(words[i].split("-")) for i in range(a, b)) for a, b in spans]
        first, last = spans[0][0], spans[-1][1]
        whole = (first == 0 or not topical[first - 1]) and (last >= len(words) or not topical[last])
        if len(spans) < 2 or max(size) < 2 or not (whole or min(size) >= 2):
            return []
        head = words[last - 1] if last - spans[-1][0] > 1 else ""  # the last alternative's last word
        out: list[tuple[str, tuple[str, ...]]] = []
        for (a, b), n in zip(spans, size):
            phrase = text[units[a][1]:units[b - 1][2]]
            if n == 1 and head and _linked(words[a], head):
                phrase += " " + head
            stems = tuple(st for i in range(a, b) for x in words[i].split("-") if x
                          for st in [_stem(x)] if contentness(x.lower(), st, scaffolding=False) > 0)
            out.append((text[:units[first][1]] + phrase + text[units[last - 1][2]:], stems))
        if not all(s for _, s in out) or len({frozenset(s) for _, s in out}) < len(out):
            return []
        return out
    return []
