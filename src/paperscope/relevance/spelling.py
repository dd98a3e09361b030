"""A misspelt question word read as the library's word it was meant to be.

"mixtrue of experts latency" abstained: "mixtrue" is in no abstract, so neither retriever nor
the relevance model could match the topic. A word is taken as misspelt only when it is unknown
twice over: its stem is in neither the library (BM25's analyzer terms) nor the background corpus
of 85,864 abstracts shipped with the relevance model (so a real term the library lacks,
"jailbreak" over the 38 seeds, stays as asked and the answer can say no paper covers it), and
it is no English word (`_real_word`: "spitting", "murine" are in no machine-learning abstract). Its
reading is a real word (`_dictionary`) one typing slip away (`_edits`) whose stem the most
library papers use, among those at least `MIN_PAPERS` (and `MIN_SHARE` of the library) use;
where the library has none, the word abstracts commonly write (`COMMON` or more of them: the
answer then says which word no paper covers, not the slip). A lower-case word that is no English
word and has no such reading is read with wider slips (`_wider`: a vowel for another, a letter
doubled or not, one dropped or added in a six-letter word: "adress", "latancy", "sevral"), to a
common word only. Such a word whose stem a few abstracts use, written so by fewer than three,
is still a slip when the word it was meant as is `SLIP_RATIO` times as common ("adress"). A
misspelling that keeps the stem ("reinforcment") needs no reading: the analyzer's stems match.

Scope: lower-case or capitalised ASCII words of `MIN_LENGTH` letters or more (a three- or
four-letter one only as a function word: "Wich", "waht", `_function_word`); a capitalised word
is read as lower-case at the start of a sentence, elsewhere with typing slips only; names written
with inner capitals or digits ("GAPrompt", "Llama3") and words in hyphenated compounds are left
as written. Leaves out: split or joined words ("mixture ofexperts"), and real words used in the
wrong place ("mixture of expects"), two or more edits (searching them took ~1 s a word).
A word in the other one of British and American spelling is read as the library's usual one
(`_other_spelling`), though both are known words.
"""

from __future__ import annotations

import functools
import json
import re
import string
from collections.abc import Mapping

from paperscope.index.minilm import minilm_tokenizer_path
from paperscope.relevance.lexicon import background_df, word_df
from paperscope.text.analyzer import STOPWORDS, _stemmer

MIN_LENGTH = 5
MIN_PAPERS = 2
MIN_SHARE = 0.0005  # ... and this share of the library: its own misspellings ("casteration") are rarer
INDEL_FROM = 7  # a letter dropped or added only in words this long: "actin" is no slip for "action"
COMMON = 50  # abstracts using a word for it to be read where the library has no reading
SLIP_RATIO = 100  # a known stem is a slip when the meant word is this many times as common
_VOWELS = "aeiou"
_WORD = re.compile(r"(?<![\w-])[A-Za-z]+(?![\w-])")
_LETTERS = string.ascii_lowercase
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
# Each key's neighbours on a QWERTY keyboard (same row and the rows above and below).
_NEAR_KEYS = {c: {r2[j] for r2 in _ROWS[max(0, i - 1):i + 2] for j in range(k - 1, k + 2) if 0 <= j < len(r2)} - {c}
              for i, r in enumerate(_ROWS) for k, c in enumerate(r)}


def _edits(word: str) -> set[str]:
    """The slips of a typist one edit from `word`: two neighbouring letters swapped, a letter
    replaced by a neighbouring key, or one dropped or added inside the word (not the first or
    last letter: "ovaries" is no slip for "varies", nor "statin" for "stating"). Wider edits
    found real words of other fields ("murine" -> "marine", "histone" -> "histore") over a
    machine-learning library."""
    n = len(word)
    out = {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(n - 1)}
    out |= {word[:i] + c + word[i + 1:] for i in range(1, n) for c in _NEAR_KEYS.get(word[i], ())}
    if n >= INDEL_FROM:
        out |= {word[:i] + word[i + 1:] for i in range(1, n - 1)}
        out |= {word[:i] + c + word[i:] for i in range(1, n) for c in _LETTERS}
    return out


def _function_word(word: str, library_df: Mapping[str, int]) -> str | None:
    """A short word (three or four letters) read as the function word one slip away: "wich",
    "waht", "teh", "abot" ("Wich papers study X?" abstained on "Wich"). Only function words
    (the analyzer's stopwords, "which", "about", "papers"): a short unknown word is as likely an
    acronym or name as a slip of a content word. Ambiguous slips ("hwo": "how" or "who") read as
    either, both framing."""
    stem = _stemmer().stemWord(word)
    if library_df.get(stem, 0) >= MIN_PAPERS or background_df().get(stem, 0) >= COMMON or _real_word(word):
        return None  # a word of the library's or a common one ("gan", "vit"), or English
    n = len(word)
    near = _edits(word) | _wider(word) | {word[:i] + word[i + 1:] for i in range(1, n)}
    near |= {word[:i] + c + word[i:] for i in range(1, n + 1) for c in _LETTERS}
    found = sorted(near & STOPWORDS)
    return found[0] if found else None


def _wider(word: str) -> set[str]:
    """Slips of spelling rather than typing: a vowel for another ("latancy"), a letter doubled
    or a double one single ("adress", "occured"), a letter dropped or added in a six-letter word
    ("sevral"). Read to common words only (`reading`): over 4,000 words that
    one abstract of the background corpus uses, these slips alone found 203 readings, mostly
    names and rare real words ("humid" -> "hamid", "cellar" -> "collar"); of the 34 left once
    the word is no English word and the reading a common one, 24 were slips ("consistant",
    "homanoid", "unkown") and the others rare words ("takens" -> "takes", "decoy" -> "decay")."""
    n = len(word)
    out = {word[:i] + v + word[i + 1:] for i in range(1, n) if word[i] in _VOWELS for v in _VOWELS}
    out |= {word[:i] + word[i] + word[i:] for i in range(1, n)}
    out |= {word[:i] + word[i + 1:] for i in range(1, n) if word[i] == word[i - 1]}
    if INDEL_FROM - 1 <= n < INDEL_FROM:  # "sevral"; not "actin" -> "action"
        out |= {word[:i] + word[i + 1:] for i in range(1, n - 1)}
        out |= {word[:i] + c + word[i:] for i in range(1, n) for c in _LETTERS}
    out.discard(word)
    return out


def reading(word: str, library_df: Mapping[str, int], papers: int) -> str | None:
    """The word `word` was meant to be (see the module doc), or None: known, or no reading."""
    stem = _stemmer().stemWord
    lower = word.lower()
    if len(lower) < MIN_LENGTH:
        return _function_word(lower, library_df) if word.islower() and len(lower) >= 3 else None
    other = _other_spelling(lower, library_df)
    if other is not None:
        return other.capitalize() if word[:1].isupper() else other
    known = background_df()
    own = stem(lower)
    if own in library_df or own in known:
        if not word.islower() or lower in word_df() or _real_word(lower):
            return None
        # A slip some abstracts make too ("adress": its stem in 7 abstracts, "address" in 7,805):
        # read when the meant word is far more common than the slip's stem.
        top = max(((word_df().get(w, 0), w) for w in _edits(lower) | _wider(lower) if stem(w) != own),
                  default=(0, ""))
        rare = SLIP_RATIO * (library_df.get(own, 0) + known.get(own, 0))
        return top[1] if top[0] >= max(COMMON, rare) else None
    if _real_word(lower):  # "spitting", "murine": real words, though the background lacks them
        return None
    best = _best(_edits(lower), library_df, papers)
    if best is None and word.islower():  # a capitalised word may be a name: typing slips only
        best = _best(_edits(lower) | _wider(lower), library_df, papers)
    if best is None:
        return None
    return best.capitalize() if word[:1].isupper() else best


# British and American spellings of one word ("quantisation"/"quantization", "behaviour"/
# "behavior", "centre"/"center", "defence"/"defense", "catalogue"/"catalog";
# "modelling"/"modeling" share a stem already). Both spellings are real words the background corpus
# knows, so a question written in the other one ("Find me work on quantisation of LLM weights")
# abstained: its weightiest word was in no abstract. Each rule is read both ways. Not "analyse"/
# "analyze": the noun "analyses" shares the stem of "analyse".
_SPELLINGS = (
    (re.compile(r"(?<=[a-z]{3})is(e|es|ed|ing|er|ers|ation|ations|able)$"), r"iz\1"),
    (re.compile(r"(?<=[a-z]{3})iz(e|es|ed|ing|er|ers|ation|ations|able)$"), r"is\1"),
    (re.compile(r"(?<=[a-z]{2})our(s|ed|ing|al|ally|able|ite|ites|hood|hoods|less)?$"), r"or\1"),
    (re.compile(r"(?<=[a-z]{3})or(s|ed|ing|al|ally|able|ite|ites|hood|hoods|less)?$"), r"our\1"),
    (re.compile(r"(?<=[a-z]{2}[^aeiou])re(s|d)?$"), r"er\1"),
    (re.compile(r"(?<=[a-z]{2}[^aeiou])er(s|ed)?$"), r"re\1"),
    (re.compile(r"(?<=[a-z]{3})ogue(s)?$"), r"og\1"),
    (re.compile(r"(?<=[a-z]{3})og(s)?$"), r"ogue\1"),
    (re.compile(r"(?<=[a-z]{3})ence(s)?$"), r"ense\1"),
    (re.compile(r"(?<=[a-z]{3})ense(s)?$"), r"ence\1"),
)
SPELLING_RATIO = 4  # the other spelling is read when this many times as many library papers use it


def _other_spelling(word: str, library_df: Mapping[str, int]) -> str | None:
    """`word` in the other spelling (British/American, `_SPELLINGS`) when the library mostly uses
    that one: more than `SPELLING_RATIO` times as many papers. One paper is enough where no paper
    writes the word as asked: a spelling rule makes no typo's false readings ("actin" -> "action").
    Where the library uses neither, the background corpus decides (the retrievers and the model
    then read the word as most abstracts write it: "verbalised" weighed as a word no paper uses)."""
    stem = _stemmer().stemWord
    others = [o for o in (p.sub(r, word) for p, r in _SPELLINGS) if o != word and stem(o) != stem(word)]
    for df in (library_df, background_df()):
        own = df.get(stem(word), 0)
        best = max(((df.get(stem(o), 0), o) for o in others), default=(0, ""))
        if best[0] >= SPELLING_RATIO * own + 1:
            return best[1]
        if own or best[0]:
            return None
    return None


@functools.cache
def _english() -> frozenset[str]:
    """Whole English words of the shipped MiniLM's WordPiece vocabulary (~20,000): a reading
    must be one, not just share a stem with one ("folate" -> "floate" stems as "float")."""
    vocab = json.loads(minilm_tokenizer_path().read_text(encoding="utf-8"))["model"]["vocab"]
    return frozenset(w for w in vocab if w.isalpha() and w.isascii() and w.islower())


@functools.cache
def _english_words() -> frozenset[str]:
    """pyspellchecker's English word list (~160,000 words with their frequency in subtitles; its
    common misspellings, "adress", "seperate", "occured", are not in it)."""
    from spellchecker import SpellChecker

    return frozenset(SpellChecker(language="en").word_frequency.dictionary)


def _real_word(word: str) -> bool:
    return word in _english() or word in _english_words()


@functools.cache
def _dictionary() -> frozenset[str]:
    """The words a slip may have been meant as: `_english` and the words >= 3 abstracts use
    ("benchmark", "segmentation", "multilingual" are no whole words of the WordPiece vocabulary)."""
    return _english() | word_df().keys()


def _best(candidates: set[str], library_df: Mapping[str, int], papers: int) -> str | None:
    words = sorted(candidates & _dictionary())
    scored = [(library_df.get(s, 0), w) for w, s in zip(words, _stemmer().stemWords(words))]
    top = max(scored, default=(0, ""))
    if top[0] >= max(MIN_PAPERS, MIN_SHARE * papers):
        return top[1]
    common = max(((word_df().get(w, 0), w) for w in words), default=(0, ""))
    return common[1] if common[0] >= COMMON else None


def corrected(question: str, library_df: Mapping[str, int], papers: int) -> tuple[str, list[tuple[str, str]]]:
    """`question` with each misspelt word replaced by its reading, and the (as asked, read as) pairs."""
    fixes: list[tuple[str, str]] = []

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        if not (word.islower() or word.istitle()):
            return word
        before = question[:m.start()].rstrip()
        if word.istitle() and (not before or before[-1] in ".?!:"):
            # Capitalised as a sentence's first word, not as a name: read as written lower-case.
            low = reading(word.lower(), library_df, papers)
            meant = low.capitalize() if low is not None else None
        else:
            meant = reading(word, library_df, papers)
        if meant is None or meant.lower() == word.lower():
            return word
        fixes.append((word, meant))
        return meant

    return _WORD.sub(fix, question), fixes
