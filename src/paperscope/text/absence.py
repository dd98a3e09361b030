"""Questions that ask for papers doing without something, and the sentences that say a paper does.

"Which methods need no training?", "Which quantization methods do not require retraining?", "Any
approaches that work without labels?", "无需训练的方法有哪些？": the thing not needed is what the
asker wants the papers to say they do without ("a training-free method", "without retraining",
"eliminates the need for labels"). Read as topic words, the negation was lost: "Which papers
require no fine-tuning?" cited six papers that fine-tune, and "Which methods need no training?"
abstained while a title of the seeds says "... without Training". `absent` reads the question;
`states_absence` finds the sentence (or title) in which a paper says it does without that thing.
Leaves out: "X-free" asked as such (a term papers write, found as any topic), "without Y" after a
topic ("fairness without demographics": papers say it themselves, read as a topic), and
exclusions ("... that do not use Y": `text.asks.excluded` leaves papers that use Y out).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from paperscope.text.analyzer import terms

_EXTRA = r"(?:(?:any|additional|extra|further|explicit|the)\s+)*"
_ASKED = re.compile(
    r"\s*\b(?:that\s+|which\s+)?(?:(?:need|needs|require|requires)\s+no(?!\s+(?:more|less|fewer|longer)\b)|"
    r"(?:do|does|did)(?:\s+not|n['\u2019]t)\s+(?:need|require)|(?:(?:work|works|operate|operates)\s+)?without\s+"
    r"(?:the\s+|any\s+)?need\s+(?:for|of)|(?:work|works|operate|operates)\s+without)\s+"
    rf"{_EXTRA}(?P<x>[^?.!,;]+?)\s*(?=$|[?.!,;]|\s+(?:and|but)\s)", re.I)
# Where the thing ends and the rest of the topic goes on: "retraining | of the backbone", "GPS | in urban canyons".
_TAIL = re.compile(r"\s+(?:of|at|in|on|for|during|from|to|with|when|while|under|across)\s", re.I)
# A question about one paper ("Does LoRA need no additional parameters?") or how ("How ... without labels?") asks no list.
_NOT_A_LIST = re.compile(r"^\W*(?:does|do|did|is|was|can|could|how|why|when|where)\b", re.I)
# 无需 / 不需要 / 无须 / 不用 X 的 ...: "无需训练的方法", "不需要微调的论文有哪些".
_ZH_ASKED = re.compile(r"(?:无需|无须|不需要|不用)(?P<x>[^，。？?！!、的]{1,12}?)(?=的|[，。？?！!]|$)")
# What a paper says it does without: "without (any) X", "no (need for) X", "X-free", "free of X",
# "eliminates / obviates (the need for) X", "avoids the need for X" (not "avoiding spurious loop
# closures"), "does not require X", "requires no X".
_STATED = re.compile(
    r"\b(?:without(?:\s+the\s+need\s+(?:for|of|to))?|no(?:\s+need\s+(?:for|of|to))?|free\s+of|"
    r"(?:eliminat|obviat)\w*(?:\s+the\s+need\s+(?:for|of|to))?|(?:avoid|bypass|remov)\w*\s+the\s+need\s+(?:for|of|to)|"
    r"(?:does|do|did)\s+not\s+(?:require|need)|(?:requir|need)\w*\s+no)\s+"
    rf"{_EXTRA}(?P<x>[\w-]+(?:\s+[\w-]+){{0,2}})|\b(?P<y>[\w-]+)-free\b", re.I)


class Absence(NamedTuple):
    question: str  # the question without the clause: what else it asks of the papers (maybe no topic)
    thing: str  # what the papers should do without, as asked
    english: tuple[str, ...]  # the thing in English (a Chinese one: its glosses), what papers are read for


def absent(question: str) -> Absence | None:
    """What `question` asks the papers to do without, or None (see the module docstring)."""
    z = _ZH_ASKED.search(question)
    if z is not None:
        from paperscope.text.zh import word_table  # Chinese only: glossing loads the dictionaries

        thing = z.group("x").strip()
        after = question[z.end():]
        rest = (question[:z.start()] + (after[1:] if after.startswith("的") else after)).strip()
        # One word the dictionaries know whole (训练, 微调): a compound glossed by its parts (热图 "warm up ... picture",
        # 人工标注知识) would look for papers doing without the wrong things. Not "re-": a prefix glossed alone.
        english = tuple(g for g in word_table().get(thing, [])[:4] if len(g) >= 4)
        return Absence(rest, thing, english) if english else None
    m = _ASKED.search(question)
    if m is None or _NOT_A_LIST.match(question):
        return None
    thing, tail = m.group("x").strip(), ""
    cut = _TAIL.search(thing)
    if cut is not None:  # "GPS | in urban canyons": the setting goes back to the topic; "of the backbone" is the thing's
        thing, tail = thing[:cut.start()], "" if cut.group(0).strip().lower() == "of" else thing[cut.start():]
    alternatives = tuple(a.strip() for a in re.split(r"\s+or\s+|\s*/\s*", thing) if a.strip())  # "training or fine-tuning"
    if not alternatives or any(len(a.split()) > 4 for a in alternatives):
        return None
    after = re.sub(r"^\s*(?:and|but)\s+", " that ", question[m.end():])  # "... need no labels and run fast?"
    rest = (question[:m.start()] + tail + after).strip()
    return Absence(rest if rest.endswith(("?", ".", "!")) else rest + "?", thing, alternatives)


# Other papers' methods of that kind, named for comparison: "compares favorably to training-free
# denoising methods" (Noise2Void trains), "Compared to existing training-free methods, ...".
_COMPARED = re.compile(r"\b(?:existing|prior|previous|other|conventional|traditional|to|than|against|over)\s+"
                       r"(?:[\w-]+\s+){0,2}$", re.I)
_KIND = re.compile(r"^\s+(?:[\w-]+\s+)?(?:methods|approaches|models|baselines|techniques|solutions|alternatives|"
                   r"counterparts|works)\b", re.I)


def states_absence(sentence: str, things: tuple[str, ...]) -> bool:
    """Whether `sentence` says that something is done without one of `things`: each of its stems
    within one such phrase ("a novel training-free method", "without retraining"), not other
    methods of that kind it compares with."""
    wanted = [set(terms(t)) for t in things]
    spans = [set(terms(m.group("x") or m.group("y"))) for m in _STATED.finditer(sentence)
             if not (m.group("y") and _COMPARED.search(sentence[:m.start()]) and _KIND.match(sentence[m.end():]))]
    return any(w and w <= span for w in wanted for span in spans)
