"""The same questions asked another way (the `phrasings` section of `paperscope bench`).

The hand-labelled libraries' questions worded "Which papers <verb> X?" (`TOPICAL`) are asked again
in other styles a researcher uses for the same request (`STYLES`: "Recommend papers on X", "Who
has worked on X?", "Is X covered by any paper here?", a bare "X" as typed in a search box, ...),
and each style's answers are scored against the question's gold papers: gold papers cited, right
abstentions and papers cited, beside the question as originally worded. A style well below the
original is a wording the question analysis does not read (each of "Who has worked on X?", "Where
can I find work on X?" cited about a third fewer gold papers before it was read as a list).

Two styles keep the question and misspell it as people type: "typing slip" swaps two letters in
the middle of the topic's longest word ("bencmhark"), "misspelt verb" asks "Which papers adress
X?" (each cited a third or less of the gold papers before slips were read with the corpus's words),
"misspelt question word" "Wich papers study X?".

The factoid questions with a key fact are asked again inside a request, an aside or a greeting
(`FACTOID_STYLES`: "Quick question: ...", "Hey, ...", "Do you happen to know ...?", "Remind me ...?",
"..., roughly?"), counting key facts quoted: each of those cost 13-60 of 205 before asides, lead-ins and
hedges were read as framing.

Scope: the style carries the same request; X is the question's own words after the verb, so a
verb that narrows the request ("propose", "apply") is lost in the other styles and a few gold
papers may legitimately drop out. English only; single-turn; extractive answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from paperscope.bench.evaluate import load_items, run_eval
from paperscope.bench.libraries import open_libraries
from paperscope.bench.relevance_items import DATA as QUESTIONS

TOPICAL = re.compile(r"^(?:Which|What) (?:papers|works|research) (?:study|address|tackle|focus on|look at|work on|deal with|"
                     r"investigate|explore|propose|use|apply|are about|examine|consider|develop|analyze|improve) (.+)\?$")
STYLES: dict[str, str | Callable[[str, str], str]] = {
    "recommend": "Recommend papers on {}",
    "looking for": "I'm looking for papers on {}.",
    "anything about": "Anything about {}?",
    "search box": "{}",
    "papers on": "papers on {}",
    "what's known": "What's known about {}?",
    "can you find": "Can you find work on {}?",
    "what should I read": "I'm interested in {}. What should I read?",
    "list the papers": "List the papers about {}.",
    "has anyone": "Has anyone worked on {}?",
    "do we have": "Do we have papers about {}?",
    "who has worked": "Who has worked on {}?",
    "where can I find": "Where can I find work on {}?",
    "how do researchers": "How do researchers approach {}?",
    "if any": "Which papers, if any, study {}?",
    "covered by": "Is {} covered by any paper here?",
    "tell me": "Tell me about research on {}.",
    "main approaches": "What are the main approaches to {}?",
    "state of the art": "What's the state of the art in {}?",
    "my project": "I'm working on a project involving {}; are there papers I should know about?",
    "my thesis": "For my thesis on {}, which papers are relevant?",
    "a colleague asked": "A colleague asked me whether anyone has published on {}. Any idea?",
    "references for related work": "I need references on {} for a related-work section.",
    "prior work": "I'm reviewing a paper on {}; what prior work exists here?",
    "do you know": "Do you know of any work on {}?",
    "I wonder": "I wonder if there are papers on {}.",
    "please, thanks": "Papers on {} please, thanks!",
    "got anything": "Have you got anything on {}?",
    "start with": "Which paper should I start with to learn about {}?",
    "summarize": "Summarize the work on {}.",
    "give an overview": "Give me an overview of the papers on {}.",
    "compare": "Compare the approaches to {}.",
    "latest work": "Latest work on {}",
    "top papers": "Top papers on {}",
    "seminal work": "Seminal work on {}?",
    "most cited": "Most cited papers on {}",
    "everything you have": "Everything you have on {}.",
    "labelled": "Question: which papers study {}?",
    "greeting and thanks": "Hi! Could you help me find papers about {}? Thanks a lot.",
    "what about": "What about {}?",
    "how many": "How many papers are about {}?",
    "literature": "What literature exists on {}?",
    "in the collection": "Does the collection include anything on {}?",
    "out there": "what's out there on {}",
    "which authors": "Which authors work on {}?",
    "anybody doing": "Is anybody doing {}?",
    "instead": "Any papers on {} instead?",
    "best paper": "What's the best paper on {}?",
    "get started": "How do I get started with {}?",
    "good starting point": "What's a good starting point for {}?",
    "which ones": "Which ones are about {}?",
    "need a paper": "I need a paper on {}.",
    "interjection": "ok so which papers study {}",
    "keywords label": "Keywords: {}",
    "which methods": "Which methods address {}?",
    "how can we": "How can we tackle {}?",
    "commonly used": "What techniques are commonly used for {}?",
    "typing slip": lambda question, topic: question.replace(topic, slipped(topic)),
    "misspelt verb": "Which papers adress {}?",
    "misspelt question word": "Wich papers study {}?",
}


def slipped(topic: str) -> str:
    """`topic` with two letters in the middle of its longest lower-case word (six letters or
    more) swapped, as a fast typist does ("benchmark" -> "bencmhark"); as it is without one."""
    words = [w for w in re.findall(r"(?<![\w-])[a-z]{6,}(?![\w-])", topic)]
    if not words:
        return topic
    word = max(words, key=len)
    i = len(word) // 2 - (word[len(word) // 2] == word[len(word) // 2 + 1])
    slip = word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return re.sub(rf"(?<![\w-]){word}(?![\w-])", slip, topic, count=1)


def _as_worded(q: str) -> str:
    return q


def _lower_first(q: str) -> str:
    return q[:1].lower() + q[1:]


def _around(template: str) -> Callable[[str], str]:
    """The question inside `template`: "{}" is the question with its first letter lowered, "{?}"
    the same without its question mark."""
    return lambda q: template.replace("{?}", _lower_first(q).rstrip("?")).replace("{}", _lower_first(q))


# The libraries' factoid questions with a key fact ("How many ...?", "What ...?"), asked inside a
# request, an aside or a greeting: the key fact quoted, beside the question as worded.
FACTOID_STYLES: dict[str, Callable[[str], str]] = {
    "can you tell me": _around("Can you tell me {?}?"),
    "quick question": _around("Quick question: {}"),
    "happen to know": _around("Do you happen to know {?}?"),
    "hey": _around("Hey, {}"),
    "sorry, one more": _around("Sorry, one more thing: {}"),
    "I was wondering": _around("I was wondering {?}."),
    "lower case": lambda q: q.lower().rstrip("?"),
    "remind me": _around("Remind me {?}?"),
    "any idea": _around("Any idea {?}?"),
    "could you check": _around("Could you check {?}?"),
    "I'd love to know": _around("I'd love to know {?}."),
    "do you remember": _around("Do you remember {?}?"),
    "couldn't figure out": _around("One thing I couldn't figure out: {}"),
    "for my notes": _around("For my notes, {}"),
    "quick q": _around("quick q - {}"),
    "roughly": lambda q: f"{q.rstrip('?')}, roughly?",
}
_FACTOID = re.compile(r"^(?:How|What|Which|Who|By how much|In|On)\b")


def topic_of(question: str) -> str | None:
    """X of a question worded "Which papers <verb> X?", else None."""
    m = TOPICAL.match(question)
    return m.group(1) if m else None


def run_phrasings(corpus: Path, work: Path, names: Sequence[str] | None = None, styles: Sequence[str] | None = None,
                  log: Callable[[str], None] = lambda s: None, factoids: bool = True) -> dict[str, Any]:
    """Per style (and "as worded"): questions, gold papers cited of all gold, right abstentions,
    papers cited, pooled over the libraries (all, or `names`); per factoid style
    (`FACTOID_STYLES`, unless `factoids` is False): questions and key facts quoted."""
    chosen = list(styles) if styles else list(STYLES)
    unknown = [s for s in chosen if s not in STYLES]
    if unknown:
        raise ValueError(f"unknown phrasing style {', '.join(unknown)}; choose from {', '.join(STYLES)}")
    totals = {s: {"questions": 0, "gold": 0, "gold_cited": 0, "abstain_ok": 0, "cited": 0} for s in ["as worded", *chosen]}
    keys: dict[str, dict[str, int]] = {}
    for name, assistant in open_libraries(corpus, work, names):
        items = [it for it in load_items(QUESTIONS / f"{name}_questions.jsonl") if "question" in it]
        picked = [(it, x) for it in items if (x := topic_of(it["question"])) is not None]
        log(f"phrasings: {name}, {len(picked)} questions x {len(chosen) + 1} wordings")
        for it, topic in picked:
            gold = set(it["gold"])
            for style in totals:
                ans = assistant.ask(_worded(style, it["question"], topic))
                cited = {c.paper_id for c in ans.citations}
                t = totals[style]
                t["questions"] += 1
                t["gold"] += len(gold)
                t["gold_cited"] += len(cited & gold)
                t["abstain_ok"] += int(ans.abstained == (not gold))
                t["cited"] += len(cited)
        facts = [it for it in items if it.get("key") and _FACTOID.match(it["question"])]
        for style in ["as worded", *(FACTOID_STYLES if factoids else ())]:
            form = FACTOID_STYLES.get(style, _as_worded)
            rows = run_eval(assistant, [dict(it, question=form(it["question"])) for it in facts])["items"]
            f = keys.setdefault(style, {"questions": 0, "key_facts": 0})
            f["questions"] += len(rows)
            f["key_facts"] += sum(bool(r["key_ok"]) for r in rows)
    return {"styles": totals, "factoid_styles": keys}


def _worded(style: str, question: str, topic: str) -> str:
    if style == "as worded":
        return question
    form = STYLES[style]
    return form.format(topic) if isinstance(form, str) else form(question, topic)


def markdown_rows(res: dict[str, Any]) -> list[str]:
    rows = []
    for style, t in res["styles"].items():
        rows.append(f"| phrasing \u201c{style}\u201d ({t['questions']} questions): gold cited / right abstentions / "
                    f"cited | {t['gold_cited']}/{t['gold']} / {t['abstain_ok']} / {t['cited']} |")
    for style, f in res.get("factoid_styles", {}).items():
        rows.append(f"| factoid \u201c{style}\u201d: key facts quoted | {f['key_facts']}/{f['questions']} |")
    return rows
