"""What a question asks about: its topical words, grouped and weighted, and its kind.

- Scaffolding is not topic. Words of the question genre ("which papers", "is there any work",
  "anyone") carry no topic, and research-activity verbs ("tackle", "deal with", "look at",
  "investigate") weigh little: `contentness` reads how often the corpus uses a word right after
  "we"/"this paper" (`lexicon.scaffold_ratio`), so verbs never seen in a question list still count
  as scaffolding when abstracts use them that way.
- Alternatives count once: "symmetry or equivariance", "sparsity, for example pruned weights or
  sparse kernels" are one group each, covered when any member is; a bracket restating a phrase
  ("event cameras (dynamic vision sensors)") makes a group of two phrases, each covering it whole.
  A run of three or more words before an "or" shares its leading words: "automatically generate
  UI or poster layouts" asks for generating, and for UI or poster. A comma list before the "or"
  is one set of alternatives ("legged, quadruped, biped or humanoid robots"); "either"/"whether"
  open one and are not topic.
- Negated parts ("rather than neural nets", "instead of X") are not asked for, to the end of
  their clause ("go beyond plain text and work with images" asks for images).
- Examples ("such as", "for example") are alternatives of the word they illustrate, and end
  where the question goes on ("networks such as LSTMs or GRUs to very low bit widths").
- A phrase of the field's common ground right after a preposition places the topic ("quantization
  of neural networks", "robots in the real world") and weighs a quarter of its share.
- Each group weighs its content share times its IDF (library + background corpus), normalised
  to sum 1, so "MoE" outweighs "model".
- A request or the asker's situation frames the question; framing and the kind (`factoid`,
  `list`, `other`) are `framing`'s ("Recommend papers on X", "For my thesis on X", "Who has ...").
Leaves out: parsing beyond these patterns (no syntax tree), and Chinese (glossed before this).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from paperscope.relevance.framing import framing
from paperscope.relevance.lexicon import scaffold_ratio
from paperscope.relevance.readers import goal_words, papers_verbs
from paperscope.text.analyzer import STOPWORDS, _stemmer, fold

# Closed-class words of the question genre: they say "find me papers", never what about.
QUESTION_GENRE = frozenset("""
which what who whom whose where when why how is are was were do does did has have had any anything anyone
anybody someone somebody something everything all every there exist exists existing paper papers work works
research researcher researchers study studies article articles publication publications literature list listing
show tell give me my i im we us our you your looking look interested want need know please kind kinds type types
many much
wonder wondering curious thanks thank cheers hi hello hey got gotten
area areas topic topics effort efforts else also still already currently recent recently new novel ones one some
way ways can could would should might may main mainly primarily particular particularly specifically especially
around regarding related relating relevant concerning about on in of for to with without into onto from by at as
than rather
""".split())
_GENRE_STEMS = frozenset(_stemmer().stemWords(sorted(QUESTION_GENRE)))
# Function words the stopword list lacks, and adverbs of frequency ("commonly used": how often, not
# what): no topic ("Which works touch upon interpretability?" abstained, no paper covering "upon
# interpretability"), though a quote may hold them ("Which method is it built upon?" is answered by
# "... builds upon the hybrid proximal extragradient framework"), so they stay content for quotes.
_FUNCTION = frozenset("upon toward towards amongst whilst whereby thereby therein hence thus etc unto instead either else "
                      "anymore likewise similarly additionally furthermore moreover commonly typically usually generally "
                      "widely often frequently mostly sometimes rarely always normally".split())

# "|" separates parts as a comma does, but never makes a list (`SEPARATE`).
# A run of CJK or kana is one word: the cross-lingual path keeps a Japanese word it cannot
# gloss as a part of the question, which no English abstract covers.
_TOKEN = re.compile(r"[A-Za-z0-9]+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+|[,;:?.!()|]")
# For text built from separate concepts (the cross-lingual path's analysis of a glossed question):
# read as a comma, except that the parts around an "or" never make one list of alternatives.
SEPARATE = "|"
_COMMAS = frozenset({",", SEPARATE})
_ALT = {"or", "nor"}
# Nouns that place a topic between others ("at the intersection of vision and language", "the
# interplay between X and Y"): followed by "of" or "between" they say where, not what.
_BETWEEN = frozenset({"intersection", "interplay", "crossroads", "nexus", "confluence", "junction"})
# Before an "or", a run of this many content words or more is read as shared words plus one
# alternative: "automatically generate UI or poster layouts" asks for UI or poster (and for
# generating them), not for any one of "automatically", "generate", "UI", "poster". Shorter runs
# stay whole alternatives ("decision trees or boosting", "dialogue systems or chatbots"). Over the
# 16 hand-labelled libraries (1,136 questions) 5 more questions were answered right (mostly wrong
# citations turned into correct abstentions: "sign language recognition or translation", "face
# anti-spoofing or presentation attack detection"), 7 wrong and 8 right citations fewer (phrase
# alternatives such as "latent-variable models or autoencoders" lose their right half); dev2
# precision 0.948 -> 0.961, abstention 0.888 -> 0.900. Reading only the last word at every run
# length lost 14 right citations ("dialogue systems or chatbots" then requires "dialogue").
_OR_SHARED_FROM = 3
# Words that open a list of alternatives ("either model-free or model-based", "whether adversarial
# training, adversarial examples or ..."): not topic, and the list starts after them.
_LIST_START = frozenset({"either", "whether"})
# Where the examples end and the question goes on (a new clause, a purpose); prepositions do not
# end them ("policy evaluation or regret guarantees in MDPs" is one example).
_EXAMPLE_END = frozenset({"to", "that", "which", "who", "whose", "where", "when", "whether", "while", "also", "so",
                          "because", "if", "then"})
_EXAMPLE = ("for example", "for instance", "such as", "e g", "like", "including", "especially", "in particular")
_NEGATION = ("rather than", "instead of", "other than", "not", "without", "except", "apart from", "beyond", "unlike")
# A negation reaches to the end of its clause: "go beyond plain text and work with images" asks
# for images. A contrastive word always ends it; "and" ends it when what follows is not a topic
# word ("and work with", "and in"): "without labels and annotations" still negates both.
_NEGATION_END = frozenset({"but", "yet", "while", "whereas", "although", "though"})
# Where a phrase that is the field's common ground ("neural networks", "the real world";
# `lexicon.common_phrases`) follows one of these, it places the topic rather than naming it:
# "quantization of neural networks" asks for quantization (the papers say "LLMs"), "symmetry or
# equivariance in neural networks" for equivariance. Its words weigh `_PLACE_CONTENT` of their share.
_PLACE_PREPOSITIONS = frozenset("of in for on with across within into to by".split())
_PLACE_DETERMINERS = frozenset("the a an".split())
_PLACE_MODIFIERS = frozenset("deep artificial modern large trained".split())  # "of deep neural networks"
_PLACE_CONTENT = 0.25
# The scaffold ratio is a stem's: authors write "we speculate", "we construct", and the
# question's "speculative decoding", "constructive proofs" share those stems. An adjective made
# from such a verb is no verb of the question genre, so it stays a topic, unless its verb is almost
# only scaffolding ("investigative": ratio .47). (Nouns the same way, "exploration", "evaluation",
# "demonstrations", cost 3 right answers over the 16 libraries: "off-policy evaluation" papers
# then outweighed the rest of the question.)
_ADJECTIVE = re.compile(r"(?:tive|sive)$")
_ADJECTIVE_MAX_RATIO = 0.4
# A research-activity verb scores ~.1-.5 (scaffold ratio); topical words score below .03.
_SCAFFOLD_LOW, _SCAFFOLD_SPAN = 0.03, 0.09


def contentness(word: str, stem: str, scaffolding: bool = True) -> float:
    """1 = a topical word, 0 = question scaffolding (see the module docstring); with
    `scaffolding=False` research verbs count fully (only the question genre is left out)."""
    if word in QUESTION_GENRE or word in STOPWORDS or stem in _GENRE_STEMS:
        return 0.0
    if not scaffolding:
        return 1.0
    if word in _FUNCTION:
        return 0.0
    ratio = scaffold_ratio().get(stem, 0.0)
    if _ADJECTIVE.search(word) and ratio < _ADJECTIVE_MAX_RATIO:
        return 1.0
    return min(1.0, max(0.0, 1.0 - (ratio - _SCAFFOLD_LOW) / _SCAFFOLD_SPAN))


def _placing(toks: list[str], common: Callable[[str, str], bool] | None) -> set[int]:
    """Indices of the words that place the topic: a common-ground phrase right after a
    preposition (an article and one field-wide adjective may come between), ending its run."""
    if common is None:
        return set()
    stemmer = _stemmer()
    out: set[int] = set()
    for i, t in enumerate(toks):
        if t not in _PLACE_PREPOSITIONS:
            continue
        j = i + 1
        while j < len(toks) and toks[j] in _PLACE_DETERMINERS:
            j += 1
        start = j + 1 if j < len(toks) and toks[j] in _PLACE_MODIFIERS else j
        end = start + 2
        if end > len(toks) or not all(w.isalnum() and w not in STOPWORDS for w in toks[start:end]):
            continue
        if end < len(toks) and toks[end].isalnum() and toks[end] not in STOPWORDS and toks[end] not in QUESTION_GENRE:
            continue  # the phrase goes on ("in neural network pruning"): it names the topic
        if common(stemmer.stemWord(toks[start]), stemmer.stemWord(toks[start + 1])):
            out.update(range(j, end))
    return out


@dataclass(frozen=True)
class Question:
    text: str
    groups: tuple[tuple[frozenset[str], float], ...]  # (alternative stems, weight); weights sum to 1
    phrases: tuple[tuple[str, str], ...]  # adjacent topical stems ("mixture of experts" -> mixtur~expert)
    kind: str  # 'factoid' | 'list' | 'other'
    surface: dict[str, str] = field(default_factory=dict)  # stem -> the word as asked
    order: tuple[str, ...] = ()  # topical words in question order (the topic without scaffolding)
    # Per group, its alternative phrases (each covered only with all its stems) when a bracket
    # restates a phrase; () = any one stem covers the group.
    alternatives: tuple[tuple[frozenset[str], ...], ...] = ()

    def restated(self, i: int) -> tuple[frozenset[str], ...]:
        """Group `i`'s phrases when a bracket restated one, else ()."""
        return self.alternatives[i] if i < len(self.alternatives) else ()

    def options(self, i: int) -> tuple[frozenset[str], ...]:
        """Group `i`'s alternatives: its phrases, or each stem alone."""
        return self.restated(i) or tuple(frozenset([s]) for s in sorted(self.groups[i][0]))

    @property
    def topic(self) -> str:
        return " ".join(self.order)

    def group_texts(self) -> list[str]:
        """Each group as words ("symmetry or equivariance"; a restated phrase's alternatives as
        phrases in question order: "event cameras or dynamic vision sensors"), in group order."""
        first = {w: i for i, w in reversed(list(enumerate(self.order)))}
        out = []
        for i, (g, _) in enumerate(self.groups):
            alts = self.restated(i)
            if alts:
                phrases = [sorted((self.surface[s] for s in alt), key=lambda w: first.get(w, 0)) for alt in alts]
                phrases.sort(key=lambda ws: first.get(ws[0], 0))
                out.append(" or ".join(" ".join(ws) for ws in phrases))
            else:
                out.append(" or ".join(self.surface[s] for s in sorted(g)))
        return out

    def describe(self, group: frozenset[str]) -> str:
        """The group in the question's own words ("symmetry/equivariance"; not a comparative's goal words)."""
        words = [self.surface[s] for s in sorted(group)]
        return "/".join([w for w in words if w in self.order] or words)


def analyze(question: str, idf: Callable[[set[str]], dict[str, float]], scaffolding: bool = True,
            common: Callable[[str, str], bool] | None = None) -> Question:
    """The topical groups of an English question (see the module docstring). `scaffolding=False`
    keeps research verbs as content (what a quote must contain, not what the paper is about).
    `common(stem, stem)`: whether two adjacent words are the field's common ground (`_placing`)."""
    matches = list(_TOKEN.finditer(question))
    toks = [fold(m.group(0)) for m in matches]
    placing = _placing(toks, common) if scaffolding else set()
    readers = papers_verbs(toks) if scaffolding else set()
    requesting, kind = framing(question, toks, [m.start() for m in matches])
    # Words inside a hyphenated compound ("text-to-SQL", "peg-in-hole") keep the compound's
    # topical words one phrase even across a stopword, as "of" does in "mixture of experts".
    hyphened = {i for i, m in enumerate(matches)
                if question[m.end():m.end() + 1] == "-" or question[max(m.start() - 1, 0):m.start()] == "-"}
    stemmer = _stemmer()
    content: list[tuple[str, str, float]] = []  # (word, stem, contentness), in order
    links: list[tuple[int, int]] = []  # content indices joined as alternatives
    pending_alt, negated = False, False
    example_head: int | None = None
    run: list[int] = []  # the content words just before, not separated by any other word
    alternatives: list[int] = []  # the run before an "or": "decision trees or boosting"
    run_id, run_of = 0, []  # which run each content word is in
    brackets: list[tuple[list[int], int]] = []  # (the phrase before a bracket, the bracket's first word)
    bracket = False
    listed: list[list[int]] = []  # the runs of a comma-separated list so far ("legged, quadruped, ...")
    chained = False  # after an "or", to the next break: "A or B, or C" chains, it lists nothing
    i = 0
    while i < len(toks):
        t = toks[i]
        two = " ".join(toks[i:i + 2])
        if not t.isalnum():
            if t not in _COMMAS:
                negated, example_head = False, None
            listed = listed + [run] if t == "," and run and not chained else ([] if t != "," else listed)
            chained = chained and t in _COMMAS
            # A bracket right after a phrase restates it ("event cameras (dynamic vision sensors)",
            # "neural radiance fields (NeRF)"): its words are an alternative of that phrase.
            bracket = t == "(" and bool(run)
            pending_alt, alternatives = (True, run) if bracket else (pending_alt and t in _COMMAS, alternatives)
            run = []
            i += 1
            continue
        if i in requesting:
            run, listed, chained = [], [], False
            i += 1
            continue
        if negated and (t in _NEGATION_END or (t == "and" and i + 1 < len(toks) and (
                not toks[i + 1].isalnum() or contentness(toks[i + 1], stemmer.stemWord(toks[i + 1]), scaffolding) < 0.5))):
            negated = False
        if two in _NEGATION or t in _NEGATION:
            negated = True
            i += 2 if two in _NEGATION else 1
            continue
        if two in _EXAMPLE or t in _EXAMPLE:
            # The examples are alternatives of the head word before them ("networks such as LSTMs
            # or GRUs"), not of the words before it, so an "or" among them starts a new run.
            example_head, run, listed = (len(content) - 1 if content else None), [], []
            i += 2 if two in _EXAMPLE else 1
            continue
        if t in _ALT or (t == "and" and toks[i + 1:i + 2] == ["or"]):
            # A list before the "or" ("legged, quadruped, biped or humanoid robots") is one set of
            # alternatives, each item as a run before an "or" reads, less the scaffolding verbs
            # that lead it into the list ("take images, video or audio"); without a list, the run.
            items = [*listed, run] if run else listed
            # Only the first item can hold leading words the list shares ("generate UI, poster or
            # slide layouts"); the later ones are whole alternatives ("NeRF, neural radiance fields").
            shared = [k for n, item in enumerate(items)
                      for k in (item[-1:] if len(item) >= _OR_SHARED_FROM and n == 0 else item)
                      if not listed or content[k][2] >= 0.5]
            pending_alt, alternatives, run, listed, chained = True, shared or alternatives, [], [], True
            i += 1
            continue
        if t in _LIST_START:
            listed, run, chained = [], [], False
            i += 1
            continue
        s = stemmer.stemWord(t)
        between = t in _BETWEEN and toks[i + 1:i + 2] in (["of"], ["between"])
        reader = i in readers
        c = 0.0 if negated or between or reader or (len(t) < 2 and not t.isdigit()) else contentness(t, s, scaffolding)
        if i in placing:
            c *= _PLACE_CONTENT
        if c > 0:
            content.append((t, s, c))
            k = len(content) - 1
            if not run:
                run_id += 1
            run_of.append(run_id)
            if pending_alt and k > 0:
                links += [(a, k) for a in alternatives or [k - 1]]
                if bracket:
                    brackets.append((list(alternatives), k))
            if example_head is not None and k != example_head:
                links.append((example_head, k))
            pending_alt = bracket = False
            run.append(k)
        elif t not in ("of", "-"):
            run, listed, chained = [], [], False
            if example_head is not None and len(content) - 1 > example_head and t in _EXAMPLE_END and i not in hyphened:
                # The examples end where the question goes on ("such as LSTMs or GRUs to very low
                # bit widths"): what follows is asked for, not one more example.
                example_head = None
        i += 1
    parent = list(range(len(content)))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    # A bracket right after a phrase restates it, whole: "event cameras (dynamic vision sensors)"
    # is covered by either phrase, "neural radiance fields (NeRF)" by the phrase or the acronym,
    # and the bracket's words are not one more part every paper must have. (Phrases around "or"
    # stay flat: read as wholes, with or without a shared modifier or head, they cost 8-24 right
    # citations over the 16 hand-labelled libraries: "teams of multiple robots or agents sharing
    # an environment" has no phrase boundary a word list can see.)
    phrase_alts: dict[int, list[list[int]]] = {}  # first word in the bracket -> alternatives
    for left, k in brackets:
        right = [j for j in range(k, len(content)) if run_of[j] == run_of[k]]
        if len(left) + len(right) >= 3:
            links.extend((k, j) for j in right[1:])
            phrase_alts.setdefault(k, []).extend([left, right])
    for k in range(len(content)):  # a comparative's goal in the papers' words ("cheaper": cost, efficient)
        for alt in goal_words(content[k][0]):  # alternatives that cover its group, not weigh it
            content.append((alt, stemmer.stemWord(alt), content[k][2] * 1e-6))
            parent.append(len(parent))
            links.append((k, len(content) - 1))
    for a, b in links:
        parent[root(a)] = root(b)
    idfs = idf({s for _, s, _ in content})
    by_root: dict[int, dict[str, float]] = {}
    surface: dict[str, str] = {}
    for k, (w, s, c) in enumerate(content):
        members = by_root.setdefault(root(k), {})
        members[s] = max(members.get(s, 0.0), c * idfs.get(s, 1.0))
        surface.setdefault(s, w)
    raw: list[tuple[frozenset[str], float]] = []
    for members in by_root.values():
        key = frozenset(members)
        if key not in {g for g, _ in raw}:
            raw.append((key, max(members.values())))
    total = sum(w for _, w in raw) or 1.0
    groups = tuple((g, w / total) for g, w in raw)
    # A group's alternatives: its phrases when a bracket restated one and every word of the group
    # is in one of them (else, as before, any one stem covers it).
    by_group: dict[frozenset[str], set[frozenset[str]]] = {}
    for k, alts in phrase_alts.items():
        by_group.setdefault(frozenset(by_root[root(k)]), set()).update(
            frozenset(content[j][1] for j in alt) for alt in alts)
    options = tuple(
        tuple(sorted(by_group[g], key=sorted)) if g in by_group and set().union(*by_group[g]) == g else ()
        for g, _ in groups)
    topical = {s for _, s, _ in content}
    phrases: list[tuple[str, str]] = []
    prev: str | None = None
    order: list[str] = []
    for i, t in enumerate(toks):
        if not t.isalnum():
            prev = None
            continue
        s = stemmer.stemWord(t)
        if s in topical:
            order.append(t)
            if prev is not None and prev != s:
                phrases.append((prev, s))
            prev = s
        elif t != "of" and i not in hyphened:  # "mixture of experts" stays one chain
            prev = None
    return Question(question, groups, tuple(phrases), kind, surface, tuple(order), options)


# A question comparing papers it names ("Compare LocMoE and Oracle-MoE", "Oracle-MoE vs.
# SlimMoE", "How does GAPrompt differ from IDPT?"). Names are written like names: capitals
# inside a word with small letters, or digits ("LocMoE", "Oracle-MoE", "GPT-4"); not a plural
# acronym ("LLMs") or a lower-case compound ("zero-shot"). `relevance.decision.compared` then
# keeps only names that are a candidate's whole title name ("LocMoE: ...").
_COMPARES = re.compile(r"\b(?:compar\w*|vs\.?|versus|differ\w*|contrast\w*|between|both)\b|比较|对比|区别|差异", re.I)
_NAME = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*(?![\w-])")
_PLURAL_ACRONYM = re.compile(r"^[A-Z]{2,}s$")


def compared_names(question: str) -> list[str]:
    """The names a comparison question compares (two or more, lower-cased, in question order), or []."""
    if not _COMPARES.search(question):
        return []
    names = list(dict.fromkeys(
        w.lower() for w in _NAME.findall(question)
        if len(w) >= 3 and not _PLURAL_ACRONYM.match(w)
        and ((any(c.isupper() for c in w[1:]) and any(c.islower() for c in w)) or any(c.isdigit() for c in w))))
    return names if len(names) >= 2 else []


def written(name: str, question: str) -> str:
    """`name` (lower-cased by `compared_names`) as the question writes it."""
    m = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", question, re.I)
    return m.group(0) if m else name
