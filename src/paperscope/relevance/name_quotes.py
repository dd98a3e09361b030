"""Quote rules for answers that are names: the sentence naming a paper's datasets (`datasets_first`)
or the methods and models it names (`names_first`) ahead of the rankers' choice, and `ahead`, the
step every first-rule of `quotes` takes.

Leaves out: the rankers and the other rules (`quotes`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from paperscope.relevance.question import Question


def ahead(scores: npt.NDArray[np.float64], flags: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """`scores` with the flagged sentences (1.0) ahead of every other, each group in the ranker's order."""
    return scores + flags * (float(scores.max() - scores.min()) + 1.0)


def _known(q: Question, title: str) -> set[str]:
    """The question's and the title's words, lower case, a plural's "s" off ("LLM" in a title's "LLMs"):
    no answer names them."""
    return {w.lower().rstrip("s") for w in re.findall(r"[\w-]+", f"{q.text} {title}")}


# "What datasets are commonly used for crowd counting?", "Which benchmarks do the NAS papers evaluate
# on?": each paper's sentence naming its datasets ("ShanghaiTech, UCF_CC_50, and UCF-QNRF"); the
# rankers quoted "... on two of the most challenging crowd counting datasets".
_ASKS_DATASETS = re.compile(r"\b(?:what|which)\s+(?:\w+\s+)?(?:datasets|benchmarks|corpora|test\s+sets|data\s+sets)\b", re.I)
_DATASET_WORD = re.compile(r"\b(?:datasets?|benchmarks?|corpus|corpora|data\s+sets?)\b", re.I)
_DATASET_NAME = re.compile(r"\b(?:[A-Z][a-z]+[A-Z][\w-]*|[A-Z][A-Z0-9]{2,}(?:[-_][\w-]+)?|[A-Za-z]+[-_]?\d[\w-]*)\b")


def datasets_first(q: Question, sentences: Sequence[str], rows: Sequence[int], title: str,
                   scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For a question asking which datasets or benchmarks papers use (not about one paper, a
    factoid), the sentences that name datasets (a name the question and the title lack, next to
    "dataset" / "benchmark") ahead of the others, in the rankers' order. Other questions: unchanged."""
    if not len(scores) or q.kind == "factoid" or not _ASKS_DATASETS.search(q.text):
        return scores
    known = _known(q, title)
    names = np.array([float(bool(_DATASET_WORD.search(sentences[i])) and any(
        m.group(0).lower().rstrip("s") not in known for m in _DATASET_NAME.finditer(sentences[i]))) for i in rows])
    if not names.any():
        return scores
    return ahead(scores, names)


# "Which existing RL algorithms did they plug it into?", "Which baselines does it compare against?":
# the answer is names. The rankers quoted "... can be integrated with existing offline-to-online RL
# algorithms", the sentence before "By implementing CFDG to popular methods IQL, PEX and APL".
_ASKS_NAMES = re.compile(r"\b(?:what|which)\s+(?:[\w-]+\s+){0,2}(?:algorithms|methods|models|baselines|architectures|"
                         r"approaches|tasks|environments|languages|games|simulators|optimizers|solvers)\b", re.I)
_CAPITALISED = re.compile(r"\b[A-Z][\w-]*")
NAMES_TOP = 3  # among the rankers' best this many


def _names(sentence: str) -> set[str]:
    """The names a sentence writes, lower case: a name-like token (`_DATASET_NAME`) or any
    capitalised word but the first ("Adam and Momentum optimizers")."""
    found = {m.group(0) for m in _DATASET_NAME.finditer(sentence)}
    found |= {m.group(0) for m in _CAPITALISED.finditer(sentence) if m.start() > 0}
    return {w.lower().rstrip("s") for w in found}


def names_first(q: Question, sentences: Sequence[str], rows: Sequence[int], title: str,
                scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For a factoid asking which methods, models, baselines, ... (`_ASKS_NAMES`), the best of the
    rankers' top `NAMES_TOP` sentences that names two or more (names the question and the title
    lack) first, when the best one names fewer ("Adam and Momentum optimizers" is an answer).
    Other questions: unchanged."""
    if not len(scores) or q.kind != "factoid" or not _ASKS_NAMES.search(q.text):
        return scores
    known = _known(q, title)
    names = np.array([float(len(_names(sentences[i]) - known) >= 2) for i in rows])
    top = np.argsort(-scores, kind="stable")[:NAMES_TOP]
    if names[top[0]] or not names[top].any():
        return scores
    flags = np.zeros_like(names)
    flags[next(i for i in top if names[i])] = 1.0
    return ahead(scores, flags)
