"""Papers like a given one: "Find papers similar to SLiM", "Papers like NestQuant?", and after an
answer "Are there other papers on this topic?", "Any similar papers?".

Asked so, the relevance model read the request as a topic: the named paper itself was cited
("similar to SLiM" cited SLiM), and after an answer the same paper came back or unrelated ones
did ("Any similar papers?" cited two papers sharing no topic with NestQuant). A paper that states
the whole of another's title ("nested lattice quantization for matrix product and LLMs") is rare,
so reading the title as the question abstains too. Here the papers are the ones whose abstracts
lie nearest the reference paper's: the cosine of their mean chunk vectors (MiniLM), among the
candidates its title gathers, the reference excluded.

`SIMILAR_FLOOR`, measured over 20,000 abstracts (list-all topics' gold papers as references, four
per topic, 112 in all; a neighbour counts as right when it is on the same title-labelled topic,
which undercounts: a near paper off that narrow label is often similar all the same): of the
neighbours at cosine >= .80 all were on topic (19), >= .75 79% (81), >= .70 73% (248), >= .65
69% (519), >= .60 64% (818); the first neighbour 69%, the first five 63%.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

SIMILAR_FLOOR = 0.65
# "similar to X", "papers like X", "other papers on this topic", "the same problem", "more like this",
# "和 X 类似的论文", "同一主题的".
_SIMILAR = re.compile(
    r"\b(?:papers?|works?|studies|articles?|research|anything|something|ones|others)\b[^.?!]{0,20}?\b(?:similar|related)\s+to\b"
    r"|\b(?:similar|related)\s+(?:papers?|works?|studies|articles?|ones)\b"
    r"|\bother\s+(?:papers?|works?|studies|articles|ones)\s+(?:like|on|about|in|that|which|with|addressing|tackling)\b"
    r"|\b(?:papers?|works?|studies|articles?|anything|something)\s+like\s+\S"
    r"|\bmore\s+like\s+(?:this|that|it|these|those)\b|\bsame\s+(?:problem|topic|task|question|area|idea|direction)\b"
    r"|(?:类似|相似|相近)的(?:论文|工作|研究|文章)|[和跟与].{1,40}?(?:类似|相似|相近)|同一(?:主题|方向|问题|领域)的",
    re.I)  # a paper's figure "close to" or "similar to" another's is a detail, not this request
_BRACKETED = re.compile(r"\(([A-Za-z][\w-]*[A-Z][\w-]*)\)")  # a name in brackets: "(TCAV)", "(NeRF)"
# The request names no paper of its own: "Any similar papers?", "Are there other papers like it?".
_BACK = re.compile(r"\b(?:similar|related|other|comparable)\s+(?:papers?|works?|studies|articles?|ones)\s*[?.!]*\s*$"
                   r"|\b(?:like|to)\s+(?:it|this|that|these|those|them|this one|that one)\b"
                   r"|\b(?:this|that|the same)\s+(?:topic|problem|task|area|idea|direction|paper|work|method)\b"
                   r"|^\W*(?:还有|有没有|有)?(?:类似|相似|相近)的|同一(?:主题|方向|问题|领域)"
                   r"|[和跟与](?:它|其|这篇|该论文|该方法)", re.I)


# "Any others?", "Are there more?", "Anything else?", "More papers?", "还有其他的吗？": the previous
# question again, for the papers its answer did not show (`gather.Gatherer.others`). The whole
# request is that; "Tell me more" asks about the same papers, "Any other papers on diffusion?" is a
# question of its own.
_OTHERS = re.compile(r"^(?!\W*(?:tell|show|give)\s+(?:me|us)\s+more\W*$)\W*(?:(?:and|ok(?:ay)?|so|thanks?|great|then)\W+)?"
                     r"(?:(?:are|is)\s+there\s+(?:any\s+)?|any\s+|"
                     r"(?:show|give|list)\s+(?:me\s+)?(?:some\s+|the\s+)?|(?:can|could)\s+you\s+(?:show|give|list|find)\s+"
                     r"(?:me\s+)?(?:some\s+)?|what\s+about\s+(?:the\s+)?)?(?:others?|more|anything\s+else|something\s+else|"
                     r"other\s+(?:papers?|ones?|works?|studies)|more\s+(?:papers?|ones?|works?|studies|results)"
                     r"|what\s+else)(?:\s+(?:papers?|ones?))?\W*$"
                     r"|^\W*还有(?:其他|其它|别的)?的?(?:论文|文章|工作|研究)?(?:吗|呢|没有)\W*$|^\W*(?:其他|其它|别的)的?(?:论文|文章)?(?:呢|吗)\W*$",
                     re.I)


# After an answer, "Is there any other paper on tree-structured representations?", "Which other papers
# use quantization?", "还有其他关于量化的论文吗？": a question of its own that leaves out the papers
# already shown (`gather.Gatherer.others`). Asked afresh it cited the paper just shown again.
_OTHER_ON = re.compile(
    r"\b(?:other|another|more|further|additional)\s+(?:papers?|works?|studies|articles?|ones|approaches|methods)\s+"
    r"(?:on|about|in|that|which|with|addressing|tackling|for|using|to|do|study|use|propose)\b"
    r"|\bwhich\s+other\s+(?:papers?|works?|studies|ones)\b|\b(?:anything|something)\s+else\s+(?:on|about)\b"
    r"|(?:还有|有没有|有)(?:哪些|什么)?(?:其他|其它|别的).{1,30}?的(?:论文|工作|研究|文章)", re.I)


# Asked as a request for papers ("Any ...", "Are there ...", "Which other ...", "Show me more ..."), not a
# comparison with others ("How does LoRA compare with other methods for PEFT?", "better than other methods that
# use distillation?") nor papers on the shown ones ("Any other papers on it?": `refers_back`'s kind).
_REQUEST = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|also|then|great|thanks?)\W+)*(?:are\s+there|is\s+there|any|which|what|"
                      r"show|list|find|give|get|do\s+you\s+have|can\s+you|could\s+you|more|other|another|anything|"
                      r"something|还有|有没有|有)", re.I)
_NOT_A_REQUEST = re.compile(r"\b(?:compare[sd]?|comparison|than|against|versus|vs\.?|better|worse)\b"
                            r"|\b(?:on|about)\s+(?:it|this|that|these|those|them)\W*$", re.I)


def asks_other_on(question: str) -> bool:
    """Whether the question asks for papers on a topic of its own besides those already shown (see above)."""
    return (bool(_OTHER_ON.search(question)) and bool(_REQUEST.search(question)) and not _NOT_A_REQUEST.search(question)
            and not refers_back(question) and not asks_others(question))


def asks_others(question: str) -> bool:
    """Whether the question asks for more papers on the previous question (see above)."""
    return bool(_OTHERS.search(question))


def asks_similar(question: str) -> bool:
    """Does the question ask for papers like another one (see the module docstring)?"""
    return bool(_SIMILAR.search(question))


def refers_back(question: str) -> bool:
    """Is the paper it is like the previous answer's ("Any similar papers?", "other papers like it")?"""
    return bool(_BACK.search(question))


def named(question: str, titles: Mapping[str, str]) -> list[str]:
    """The papers (of `titles`, id -> title) the question names: by the title's name before a
    colon ("SLiM", "Oracle-MoE"; three characters or more) or its initials ("YOLO" for "You Only
    Look Once: ..."), in brackets ("(TCAV)") or whole."""
    text = question.lower()
    out = []
    for pid, title in titles.items():
        names = [title.split(":")[0].strip().lower()] if ":" in title else []
        words = re.findall(r"[A-Za-z]+", names[0]) if names else []
        if 3 <= len(words) <= 6 and all(w[0].isupper() for w in re.findall(r"[A-Za-z]+", title.split(":")[0])):
            names.append("".join(w[0] for w in words))  # a name of capitalised words: its initials
        names += [b.lower() for b in _BRACKETED.findall(title)]  # "... Activation Vectors (TCAV)"
        whole = title.strip().lower().rstrip(".")
        # ASCII boundaries: a name sits between Chinese characters too ("和SLiM类似").
        if any(len(n) >= 3 and re.search(rf"(?<![A-Za-z0-9-]){re.escape(n)}(?![A-Za-z0-9-])", text) for n in names) or (
                len(whole) >= 12 and whole in text):
            out.append(pid)
    return out


def _mean(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    m = vectors.mean(axis=0)
    out: npt.NDArray[np.float32] = m / (np.linalg.norm(m) + 1e-9)
    return out


def closeness(references: Sequence[npt.NDArray[np.float32]],
              candidates: Mapping[str, npt.NDArray[np.float32]]) -> dict[str, float]:
    """Each candidate's cosine to the nearest reference, on mean chunk vectors (rows: chunks)."""
    refs = np.stack([_mean(r) for r in references if len(r)]) if references else np.zeros((0, 1), np.float32)
    if not len(refs):
        return {}
    return {pid: float(np.max(refs @ _mean(v))) for pid, v in candidates.items() if len(v)}
