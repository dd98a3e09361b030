"""Words of a question that papers do not write as it does: the verbs of the papers asked for that
say nothing of their topic, a reader's verbs for what a paper contains ("Which papers mention
GPT-4?") and the synonyms of "use" ("Which papers rely on Bayesian methods?", "papers that make use
of optimal transport"); and comparatives that state a goal, which papers name by its measure
("making LLM inference cheaper or faster": cost, speedup, efficient; `goal_words`).

Also how a reader places papers under a topic ("Which papers fall under X?", "Papers in the field of
X", "What has been published on X?", "papers from the NLP community").

Scope: English questions, read as lowercase tokens (`question.analyze`); verbs only where the verb is
the papers' own (right after "papers", "which", "that", ...), so "set cover", "talking heads" and
"users who rely on screen readers" keep their words; the frame phrases (`FRAME_PHRASES`) anywhere,
and "community" only as the last word after "from / in / within the".
"""

from __future__ import annotations

# Verbs a reader uses for what a paper contains ("Which papers mention GPT-4?", "papers that talk
# about quantization", "Which papers cover MoE?"), which authors never write after "we", so the
# scaffold ratio reads them as topic: "mention" weighed .51 of "Which papers mention diffusion
# models?". Scaffolding only as the verb of the papers asked for (after "papers", "which",
# "that", "do", ...; one adverb may sit between): "set cover", "talking heads" stay topics.
READER_VERBS = frozenset("""mention mentions mentioned mentioning talk talks talking cover covers covering
    touch touches touching involve involves involving feature features featuring handle handles handling
    target targets targeting center centers centre centres revolve revolves reference references referencing
    cite cites citing""".split())
# "use" is scaffolding, so its synonyms are too, as the verb of the papers asked for (not after
# "who": "users who rely on screen readers"), also as phrases ("Which papers make use of X?",
# "papers that are based on X"). Before, "Which papers rely on Bayesian methods?" weighed "rely" .46
# and abstained, where "... use Bayesian methods?" cites both Bayesian papers.
USE_VERBS = frozenset("""rely relies relying apply applies applying exploit exploits exploiting utilize utilizes
    utilizing utilise utilises utilising harness harnesses harnessing incorporate incorporates incorporating
    depend depends depending resort resorts resorting make makes""".split())
USE_PHRASES = tuple(tuple(p.split()) for p in (
    "make use of", "makes use of", "making use of", "take advantage of", "takes advantage of", "taking advantage of",
    "are based on", "is based on", "are built on", "is built on", "are grounded in", "is grounded in",
    "draw on", "draws on", "drawing on", "draw upon", "draws upon", "drawing upon",
    "about making", "on making", "for making"))  # "papers about making LLM inference cheaper"
# How a reader places papers under a topic ("Which papers fall under conformal prediction?", "... are
# devoted to X", "Papers under the umbrella of X", "What has been published on X?"): read as topic,
# "fall" weighed .39 and the question abstained or listed half the papers it lists asked "Which papers
# use X?". The verb phrases only as the verb of the papers asked for (after "papers", "which", ...).
MEMBER_PHRASES = tuple(tuple(p.split()) for p in (
    *(f"{v} {prep}" for v in ("fall", "falls", "fit", "fits", "come", "comes", "sit", "sits")
      for prep in ("under", "into", "within", "in")),
    "come from", "comes from", "belong to", "belongs to", "belong in", "belongs in", "pertain to", "pertains to",
    "bring up", "brings up",
    *(f"{be} {v} {prep}" for be in ("are", "is") for v, prep in (
        ("connected", "to"), ("associated", "with"), ("linked", "to"), ("devoted", "to"), ("dedicated", "to"),
        ("centered", "on"), ("centred", "on"), ("centered", "around"), ("filed", "under"), ("categorized", "as"),
        ("categorized", "under"), ("classified", "as"), ("classified", "under"), ("part", "of")))))
# Anywhere in the question: frames that place the topic, and the passive "what has been done on X".
FRAME_PHRASES = tuple(tuple(p.split()) for p in (
    "under the umbrella of", "under the heading of", "in the context of", "within the scope of", "in the field of",
    "in the domain of", "in the realm of", "been published", "been written", "been done", "been carried out"))
# "from the X community" (also "in / within the"), as the question's last word: the topic's field, not a part of
# it ("community detection", "the Stack Overflow community", "the detection of communities" stay topics). Not
# "in the X space": task, state, action, latent, search space are topics.
_FIELD_OPENERS = frozenset({"from", "in", "within"})
SUBJECTS = frozenset("""papers paper work works ones one which that who studies study articles article
    research publications anything anyone something any do does did they it these those""".split())
USE_SUBJECTS = SUBJECTS - {"who"}


def _after_subject(toks: list[str], i: int, subjects: frozenset[str] = SUBJECTS) -> bool:
    """Token `i` is the verb of the papers asked for: right after one of `subjects`, or after one
    and an adverb ("papers that explicitly mention")."""
    before = toks[i - 2:i - 1] if i >= 2 and toks[i - 1].endswith("ly") else toks[i - 1:i]
    return bool(before) and before[0] in subjects


def _phrases(toks: list[str], phrases: tuple[tuple[str, ...], ...], subjects: frozenset[str] | None) -> set[int]:
    """The indices of each word of `phrases` where `toks` has them (right after one of `subjects`, unless None)."""
    return {i + k for i in range(len(toks)) for ph in phrases if tuple(toks[i:i + len(ph)]) == ph
            and (subjects is None or _after_subject(toks, i, subjects)) for k in range(len(ph))}


def papers_verbs(toks: list[str]) -> set[int]:
    """The indices of `toks` that are such verbs, frames or field ends (each word of a phrase such as "make use of")."""
    out = _phrases(toks, USE_PHRASES, USE_SUBJECTS) | _phrases(toks, MEMBER_PHRASES, SUBJECTS)
    out |= _phrases(toks, FRAME_PHRASES, None)
    out |= {i for i, t in enumerate(toks) if (t in READER_VERBS and _after_subject(toks, i))
            or (t in USE_VERBS and _after_subject(toks, i, USE_SUBJECTS))}
    words = [i for i, t in enumerate(toks) if t.isalnum()]
    last = words[-1] if words else -1
    if last > 0 and toks[last] == "community" and any(
            toks[j] in _FIELD_OPENERS and toks[j + 1] == "the" and all(t.isalnum() for t in toks[j + 2:last])
            for j in range(max(0, last - 6), last - 2)):
        out.add(last)
    return out


# A comparative states a goal; papers name the goal by what they measure or claim: "Are there papers
# about making LLM inference cheaper or faster?" weighed "cheaper/faster" .46 and cited one of the five
# papers on efficient inference (none writes "cheaper"), "Which papers make training cheaper?" abstained.
_SPEED = ("speed", "speedup", "accelerate", "efficient", "latency")
_SMALL = ("compress", "compact", "lightweight")
# Only words specific to the goal: "small", "size", "large" or "long" are in most abstracts, and a
# group any paper covers decides nothing ("Which papers make models smaller?" then cited none).
_GOALS = {"faster": _SPEED, "quicker": _SPEED, "cheaper": ("cheap", "cost", "efficient"), "smaller": _SMALL,
          "lighter": _SMALL, "leaner": _SMALL, "larger": ("scale", "scaling"), "bigger": ("scale", "scaling"),
          "safer": ("safe", "safety"), "fairer": ("fair", "fairness")}


def goal_words(word: str) -> tuple[str, ...]:
    """The words papers write for the goal a comparative states ("cheaper": cheap, cost, efficient), or ()."""
    return _GOALS.get(word, ())
