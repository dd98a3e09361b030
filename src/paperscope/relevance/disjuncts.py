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
Leaves out: Chinese questions (glossed alternatives are translations, not the asker's choice).
"""

from __future__ import annotations

import re

from paperscope.relevance.question import Question
from paperscope.text.analyzer import _stemmer, fold

MAX_ALTERNATIVES = 4  # wordings asked at most (each is a full scoring)
_WORD = r"[A-Za-z][A-Za-z0-9]*"
_CHAIN = re.compile(rf"\b{_WORD}(?:\s*,\s*{_WORD})*\s*,?\s+or\s+{_WORD}\b")
_SPLIT = re.compile(r"\s*,\s*(?:or\s+)?|\s+or\s+")
_NEGATED = re.compile(r"\b(?:not|no|without|nor|neither|except|excluding|rather than|instead of|n't)\b", re.I)


def disjuncts(q: Question) -> list[tuple[str, str]]:
    """(`q.text` with one alternative of its first single-word "or" group, that alternative's
    stem) for each alternative, or [] (see the module docstring)."""
    if q.kind == "factoid" or _NEGATED.search(q.text):
        return []
    stemmer = _stemmer()
    for m in _CHAIN.finditer(q.text):
        if q.text[max(0, m.start() - 1):m.start()] == "-" or q.text[m.end():m.end() + 1] == "-":
            continue  # part of a hyphenated compound: the analyzer reads its words apart
        words = [w for w in _SPLIT.split(m.group(0)) if w]
        stems = [stemmer.stemWord(fold(w)) for w in words]
        if not 2 <= len(words) <= MAX_ALTERNATIVES or len(set(stems)) != len(words):
            continue
        for i, (group, _) in enumerate(q.groups):
            if group == set(stems) and not q.restated(i):
                return [(q.text[:m.start()] + w + q.text[m.end():], s) for w, s in zip(words, stems)]
    return []
