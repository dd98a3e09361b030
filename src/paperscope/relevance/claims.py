"""The paper side of contribution kinds (`contribution`): whether an abstract's own sentences
contribute a dataset or benchmark, release code, or make the paper a position paper or a survey,
and the sentence that says so (the quote). The theory kind's model is `contribution`'s.

- dataset: a sentence where a contribution verb ("we introduce", "release", "collect") takes a
  resource noun ("dataset", "benchmark", "corpus") as its object, not as the place something is
  evaluated ("... outperforms baselines on three benchmarks");
- code: a sentence saying code, models or data are (or will be) released or available;
- position and survey: the title ("Position: ...", "...: A Survey") or the paper's own words
  ("This position paper argues", "In this survey, we").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# Paper side. A resource noun stands alone ("corpus-aware features", "Cross-Dataset" are not one).
_RESOURCE = (r"(?<![-\w])(?:datasets?|data\s?sets?|benchmarks?|corpus|corpora|databases?|testbeds?|test suites?|"
             r"treebanks?|leaderboards?)(?![-\w])")
# "established"/"annotated" are adjectives far more often than contributions ("established benchmarks").
_CONTRIBUTE = (r"(?:introduc\w*|present\w*|propos\w*|releas\w*|construct\w*|collect\w*|creat\w*|build\w*|built|"
               r"curat\w*|contribut\w*|develop\w*|design\w*|provid\w*|publish\w*|compil\w*|assembl\w*)")
# The verb takes the resource as its object: at most eight words between, none of them a
# preposition that makes the resource the setting of an evaluation ("results on benchmarks").
_DATASET_SENTENCE = re.compile(
    rf"\b{_CONTRIBUTE}\b(?P<between>(?:\s+[\w\-,'’:()]+){{0,8}}?)\s+(?:new\s+|novel\s+)?{_RESOURCE}", re.I)
_EVALUATED_ON = re.compile(r"\b(on|across|over|using|with|from|in|against|than|of|to|for|under|at|by)\b", re.I)
# "a new ... benchmark" with at most two modifiers between, not a clause ("a novel method that
# evaluates dataset contamination").
_NEW_RESOURCE = re.compile(rf"\b(?:a|an|the first|our)\s+(?:[\w-]+\s+){{0,3}}?(?:new|novel|large-scale|first)\s+"
                           rf"(?:(?!(?:that|which|to|for|of|and|on|by)\b)[\w-]+\s+){{0,2}}?{_RESOURCE}", re.I)
# The paper's own contribution ("we introduce", "this paper presents", "X is a new benchmark"),
# not a need ("... requires collecting an entirely new training dataset").
_OWN_WORDS = r"\b(we|our|this paper|this work|here)\b"
_CLAIM = re.compile(rf"{_OWN_WORDS}|^\s*[\w-]+\s+(is|are)\s", re.I)
_CODE_SENTENCE = re.compile(
    r"(?:\b(?:code|codes|implementation|software|source|models?|weights|checkpoints|data|datasets?|benchmarks?|"
    r"toolkit|library|package)\b[^.]{0,80}?\b(?:is|are|will be|has been|have been|be|been|made)\s+"
    r"(?:\w+\s+){0,2}?(?:available|released|open[- ]?sourced|public)\b"
    r"|\b(?:we|will)\s+(?:\w+\s+){0,2}?(?:release|open[- ]?source|share|publish)\b[^.]{0,60}?"
    r"\b(?:code|implementation|models?|weights|data|datasets?|benchmarks?|toolkit|library)\b"
    r"|github\.com|gitlab\.com|\bhttps?://|\bcode\b[^.]{0,20}\bat\b|\bopen[- ]?source[ds]?\b)", re.I)

# The paper's own claim ("we prove", "our bound") rather than prior work's ("existing work provides").
OWN = re.compile(_OWN_WORDS, re.I)


@dataclass(frozen=True)
class Judgement:
    probability: float  # that the paper makes the contribution
    sentence: int | None  # index of the sentence that shows it


def judge_dataset(title: str, sentences: Sequence[str]) -> Judgement:
    claims = [(i, s) for i, s in enumerate(sentences) if _CLAIM.search(s)]
    for i, s in claims:
        for m in _DATASET_SENTENCE.finditer(s):
            if not _EVALUATED_ON.search(m.group("between")):
                return Judgement(0.95, i)
    for i, s in claims:
        if _NEW_RESOURCE.search(s):
            return Judgement(0.85, i)
    # A resource in the title alone is weaker ("Dataset Geography: Mapping Language Data to ..."
    # studies datasets): shown as related, not cited.
    if re.search(_RESOURCE, title, re.I):
        mention = next((i for i, s in enumerate(sentences) if re.search(_RESOURCE, s, re.I)), None)
        return Judgement(0.4, mention)
    return Judgement(0.0, None)


def judge_code(sentences: Sequence[str]) -> Judgement:
    for i, s in enumerate(sentences):
        if _CODE_SENTENCE.search(s):
            return Judgement(0.95, i)
    return Judgement(0.0, None)


# Genres, paper side. The title says it ("Position: ...", "...: A Survey", "A Review of ..."), or
# the paper's own words do ("This position paper argues", "In this survey, we", "we present a
# comprehensive review of"). A questionnaire survey ("A survey of robotics experts") passes as one:
# rare, and a reader sees it in the quote.
_POSITION_TITLE = re.compile(r"^\s*(?:a\s+)?(?:position|perspective|opinion)(?:\s+paper)?\s*[:：\-–—]", re.I)
_POSITION_SENTENCE = re.compile(
    r"\b(?:this|our|the present|in this) (?:position|perspective|opinion) (?:paper|piece|article|statement)\b"
    r"|\bin this position\b|\bwe take the (?:position|stance|view)\b|\b(?:this|our) paper (?:argues|takes the position)\b",
    re.I)
SURVEY_NOUN = r"(?:survey|review|overview|tutorial|primer)"
_SURVEY_TITLE = re.compile(
    rf"(?:^|:\s*|\s[\-–—]\s*)(?:an?\s+)?(?:[\w-]+\s+){{0,2}}?{SURVEY_NOUN}(?:\s+(?:of|on|and|for)\b|\s*$|\s*[:(])"
    rf"|\b(?:an?|the)\s+(?:[\w-]+\s+){{0,2}}?{SURVEY_NOUN}\s+(?:of|on)\b", re.I)
_SURVEY_SENTENCE = re.compile(
    rf"\b(?:this|our|the present) (?:{SURVEY_NOUN}|(?:paper|article|work) (?:surveys|reviews))\b|\bin this {SURVEY_NOUN}\b"
    rf"|\bwe (?:present|provide|give|offer|conduct|write) (?:a|an) (?:[\w-]+ ){{0,3}}?{SURVEY_NOUN} (?:of|on)\b"
    r"|\bsystematic (?:literature )?review\b|\bwe survey\b", re.I)
_GENRE_RULES = {"position": (_POSITION_TITLE, _POSITION_SENTENCE, re.compile(r"\b(?:position|argue\w*|stance)\b", re.I)),
                "survey": (_SURVEY_TITLE, _SURVEY_SENTENCE, re.compile(rf"\b{SURVEY_NOUN}\w*\b|\breview\w*\b", re.I))}


def judge_genre(kind: str, title: str, sentences: Sequence[str]) -> Judgement:
    titled, own, word = _GENRE_RULES[kind]
    said = next((i for i, s in enumerate(sentences) if own.search(s)), None)
    if titled.search(title):
        # The quote: the sentence that says so, else the first using the genre's word, else the first.
        quote = said if said is not None else next((i for i, s in enumerate(sentences) if word.search(s)), 0)
        return Judgement(0.95, quote if sentences else None)
    if said is not None:
        return Judgement(0.9, said)
    return Judgement(0.0, None)
