"""Does a question point back at the previous answer ("What are its two key innovations?")?

A follow-up is answered from the previous answer's papers first (the Assistant restricts the
candidates to them and falls back to the whole library when none fits).
"""

from __future__ import annotations

import re

from paperscope.text.analyzer import STOPWORDS, raw_terms

_PRONOUNS = {"it", "its", "they", "them", "their", "theirs"}  # name a paper of the previous answer
_DEMONSTRATIVES = {"this", "that", "these", "those", "such"}  # also relative pronouns: only in short questions
_REFERRING = ("the paper", "the papers", "that paper", "this paper", "those papers", "these papers", "the method",
              "that method", "this method", "the model", "the models", "the authors", "the approach", "this work",
              "that work", "the same", "above", "previous", "mentioned",
              # Parts of the paper just named: "Is the code available?", "Can you give me the link?"
              "the code", "the link", "the url", "the pdf", "the main contribution", "the contributions",
              "the main limitation", "the limitations", "the baselines", "the main idea", "the key idea")
# A request to go on about the answer: "Tell me more.", "More details?", "Can you elaborate?"
_MORE = re.compile(r"\b(?:tell|show|give)\s+(?:me|us)\s+more\b(?!\s+(?:about|on)\s+(?!(?:it|this|that|them|these|those)\b))"
                   r"|^\W*(?:(?:and|ok(?:ay)?|so|please)\W+)?(?:more\s+(?:details?|info(?:rmation)?|on\s+(?:it|that|this))"
                   r"|go\s+on|details?\s+please)\b|\belaborate\b", re.I)  # not "Tell me more about diffusion models"

# The same in Chinese (jieba-free: these are whole words or unambiguous prefixes): 它/其 (it, its; not
# 其他 "other", 其中 "among"), 该论文/这篇 (this paper), 上述 (the above), 作者 (the authors), 代码 (the
# code), 局限 (limitation), 再详细说说/展开讲讲 (tell me more).
_ZH_REFERRING = re.compile(r"它|其(?![他它中余实次])|他们|她们|该(?:论文|文章|方法|模型|工作|研究|框架|算法)"
                           r"|[这那](?:篇|项|些论文|个方法|个模型)|上述|上面(?:的|提到)|前面(?:的|提到)|刚才|作者|代码|链接|网址|局限|不足之处|详细|展开|多说|再说|还有呢")


def is_follow_up(question: str) -> bool:
    """Does the question point back at the previous answer ("What are its two key innovations?",
    "According to that paper, how much ...", "Is the code available?", "Tell me more."); a bare
    "that" only in a short question ("that" is also a relative pronoun: "work that replaces attention")."""
    words = raw_terms(question)
    content = [w for w in words if w not in STOPWORDS]
    lowered = f" {' '.join(words)} "  # words only: "Who are the authors?" ends in "authors?", not "authors "
    if any(w in _PRONOUNS for w in words) or any(f" {p} " in lowered for p in _REFERRING) or _MORE.search(question):
        return True
    if _ZH_REFERRING.search(question):
        return True
    return any(w in _DEMONSTRATIVES for w in words) and len(content) <= 4
