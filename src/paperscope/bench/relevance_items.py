"""The questions the relevance model is fitted on, with their labels (see `relevance_train`).

Families: scifact, title (with one-word topics), deep, tldr, small, dev, qgenA-P, off, and leave-gold-out copies (*-lgo); the
module docstring of `paperscope.bench.relevance_train` describes each. Deterministic for a seed.
"""

from __future__ import annotations

import functools
import gzip
import json
import random
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from paperscope.relevance.question import QUESTION_GENRE, contentness
from paperscope.text.analyzer import STOPWORDS, _stemmer
from paperscope.text.sentences import sentences
from paperscope.text.zh import has_cjk

DATA = Path(__file__).resolve().parent / "questions"
# The hand-labelled 38-abstract libraries (questions/libraries.json, questions/lib<X>_questions.jsonl).
HUMAN_LIBRARIES = "ABCDEFGHIJKLMNOP"
SCAFFOLDS = [
    "Which papers use {t}?", "Which papers study {t}?", "Is there any work on {t}?", "Are there papers about {t}?",
    "What research exists on {t}?", "Any papers on {t}?", "Which papers look at {t}?", "Which papers deal with {t}?",
    "Has anyone worked on {t}?", "I'm looking for work on {t}.", "Find papers that investigate {t}.",
    "What has been done on {t}?", "Which papers concern {t}?", "Papers that tackle {t}?", "Show me research about {t}.",
    "Did anyone propose a method for {t}?", "{t}", "Which works focus on {t}?", "List all papers on {t}.",
    "Is anyone working on {t}?", "Which papers explore {t}?", "Anything on {t}?", "Which papers address {t}?",
    "What papers discuss {t}?", "Are there studies of {t}?", "Which papers build on {t}?",
    "Any work that involves {t}?", "Which publications examine {t}?", "Which papers are about {t}?",
    "Which papers propose new approaches to {t}?", "Can you find work related to {t}?",
    "Which papers apply {t}?", "What work exists on {t}?", "Which papers revisit {t}?",
]
_TITLE_STOP = set("""a an the of for and in on with to via by from towards toward using based under over at into
through without as is are be its their our learning model models method methods approach network networks deep neural
new novel efficient effective improving improved robust fast simple data task tasks framework""".split())
Item = dict[str, Any]


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


# -- items ----------------------------------------------------------------------------------
def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def normalised(p: dict[str, Any]) -> dict[str, str]:
    """A paper's title+keywords, abstract and first two sentences, lowercased words padded with
    spaces (computed once per paper: topic labels test thousands of phrases against them)."""
    cached: dict[str, str] | None = p.get("_norm")
    if cached is None:
        cached = p["_norm"] = {
            "head": f" {_norm(str(p.get('title') or '') + ' ' + ' '.join(p.get('keywords') or []))} ",
            "abstract": f" {_norm(p['abstract'])} ",
            "opening": f" {_norm(' '.join(sentences(p['abstract'])[:2]))} ",
        }
    return cached


def mentions(padded: str, topic: str) -> bool:
    return f" {topic} " in padded or f" {topic}s " in padded or (topic.endswith("s") and f" {topic[:-1]} " in padded)


def central(p: dict[str, Any], topic: str) -> bool:
    t = normalised(p)
    return t["abstract"].count(f" {topic} ") + t["abstract"].count(f" {topic}s ") >= 2 or mentions(t["opening"], topic)


def topic_labels(papers: list[dict[str, Any]], topic: str) -> tuple[list[str], list[str]]:
    gold, unsure = [], []
    for p in papers:
        t = normalised(p)
        if mentions(t["head"], topic) or (mentions(t["abstract"], topic) and central(p, topic)):
            gold.append(p["id"])
        elif mentions(t["abstract"], topic):
            unsure.append(p["id"])
    return gold, unsure


@functools.cache
def benchmark_topic_patterns() -> tuple[re.Pattern[str], ...]:
    """The list-all benchmark's topic patterns (questions/listall_topics.jsonl): title topics
    they match are not trained on, so the benchmark stays held out. Read once: every question of
    every family is checked against them."""
    return tuple(re.compile(pat, re.I) for topic in load_jsonl(DATA / "listall_topics.jsonl")
                 for pat in topic["patterns"])


def title_topics(papers: list[dict[str, Any]], lo: int, hi: int, limit: int, seed: int,
                 skip: Iterable[re.Pattern[str]] = ()) -> list[str]:
    """Frequent title phrases (2-3 words, in `lo`..`hi` titles), shuffled; none that a `skip`
    pattern matches."""
    df: Counter[str] = Counter()
    for p in papers:
        toks = _norm(p.get("title", "")).split()
        grams = set()
        for n in (2, 3):
            for i in range(len(toks) - n + 1):
                g = toks[i:i + n]
                if g[0] in _TITLE_STOP or g[-1] in _TITLE_STOP or any(t.isdigit() for t in g):
                    continue
                grams.add(" ".join(g))
        df.update(grams)
    cands = sorted((g for g, c in df.items() if lo <= c <= hi), key=lambda g: (-len(g.split()), g))
    kept: list[str] = []
    for phrase in cands:
        if not any(phrase in k and df[k] >= 0.8 * df[phrase] for k in kept):
            kept.append(phrase)
    skip = list(skip)
    kept = [phrase for phrase in kept if not any(pat.search(phrase) for pat in skip)]
    random.Random(seed).shuffle(kept)
    return kept[:limit]


@functools.cache
def benchmark_topic_words() -> frozenset[str]:
    """Every word of the list-all benchmark's topic names and phrasings ("crowd", "counting",
    "grippers"): one-word training topics never use them (a question on "crowd" would label the
    benchmark's crowd-counting papers)."""
    words: set[str] = set()
    for topic in load_jsonl(DATA / "listall_topics.jsonl"):
        for text in [topic["id"].replace("_", " "), *topic["phrasings"]]:
            words.update(re.findall(r"[a-z]+", text.lower()))
    return frozenset(words)


def word_topics(papers: list[dict[str, Any]], lo: int, hi: int, limit: int, seed: int,
                skip: Iterable[re.Pattern[str]] = (), skip_words: Iterable[str] = ()) -> list[str]:
    """Single title words that name a topic ("coreference", "hexapod", "submodular"), in `lo`..`hi`
    titles, shuffled: 5+ letters, not an adverb, a title-genre word, a stopword or a research verb,
    and used in abstracts at most 6x as often as in titles (a topic is named in its titles; "whole"
    or "little" is everywhere); none that a `skip` pattern matches or that is in `skip_words`. The title phrases of
    `title_topics` are 2-3 words, and the model read one-word questions badly: papers titled
    "... Coreference Resolution" scored 0.17-0.22 for "List everything about coreference." and
    0.76-0.86 for "... coreference resolution." (20,000 papers)."""
    in_title: Counter[str] = Counter()
    in_abstract: Counter[str] = Counter()
    for p in papers:
        in_title.update(set(_norm(p.get("title", "")).split()))
        in_abstract.update(set(normalised(p)["abstract"].split()))
    stem = _stemmer().stemWord
    skip = list(skip)
    words = sorted(w for w, c in in_title.items()
                   if lo <= c <= hi and w.isalpha() and len(w) >= 5 and not w.endswith("ly")
                   and w not in _TITLE_STOP and w not in STOPWORDS and w not in QUESTION_GENRE
                   and contentness(w, stem(w)) >= 1.0 and in_abstract[w] <= 6 * c
                   and not any(pat.search(w) for pat in skip))
    random.Random(seed).shuffle(words)
    banned = set(skip_words)
    return [w for w in words if w not in banned][:limit]


def item(iid: str, family: str, lib: str, question: str, gold: Iterable[str] = (), unsure: Iterable[str] = (),
         **extra: Any) -> Item:
    return {"id": iid, "family": family, "lib": lib, "question": question, "gold": sorted(gold),
            "unsure": sorted(unsure), "exclude": [], **extra}


def leave_gold_out(items: list[Item], share: float, seed: int) -> list[Item]:
    rng = random.Random(seed)
    return [{**it, "id": it["id"] + "-lgo", "exclude": it["gold"] + it["unsure"], "gold": [], "unsure": []}
            for it in items if it["gold"] and rng.random() < share]


def build_items(conf: list[dict[str, Any]], shared: Path, seed: int = 0) -> tuple[list[Item], dict[str, list[dict[str, Any]]]]:
    rng = random.Random(seed)
    items: list[Item] = []
    small_libs: dict[str, list[dict[str, Any]]] = {}
    claims = load_jsonl(shared / "eval" / "scifact_train.jsonl.gz")
    sf = [item(c["id"], "scifact", "scifact", c["claim"], c["gold"], rationales=c.get("rationales") or {}) for c in claims]
    items += sf + leave_gold_out(sf, 1.0, seed)
    tq, deep = [], []
    held = benchmark_topic_patterns()
    for ti, t in enumerate(title_topics(conf, 5, 150, 300, seed, skip=held)):
        gold, unsure = topic_labels(conf, t)
        for k in range(2):
            tq.append(item(f"title-{ti}-{k}", "title", "conf", rng.choice(SCAFFOLDS).format(t=t), gold, unsure))
        # The first phrasing again over find_all's deep candidate pool: papers ranked far down
        # that are on the topic (list questions of 10-150 papers), which `ask`'s pool never holds.
        deep.append({**tq[-2], "id": f"deep-{ti}", "family": "deep", "deep": True})
    items += tq + deep + leave_gold_out(tq, 0.5, seed)
    forms = ["Is there a paper that {x}?", "Which paper {x}?", "Any work that {x}?", "Find the paper that {x}."]
    td = []
    for p in conf:
        tldr = str(p.get("tldr") or "").strip().rstrip(".")
        if tldr:
            x = re.sub(r"^(We|This paper|In this paper,? we|This work|Our work|The paper)\s+", "", tldr)
            q = tldr + "." if rng.random() < 0.2 else rng.choice(forms).format(x=x[:1].lower() + x[1:])
            td.append(item(f"tldr-{p['id']}", "tldr", "conf", q, [p["id"]]))
    items += td + leave_gold_out(td, 1.0, seed)
    ml = [p for p in conf if p.get("venue") in ("ICML", "NeurIPS", "ICLR", "AISTATS", "COLT", "UAI", "COLM")]
    topics = title_topics(conf, 3, 400, 5000, seed)
    sm = []
    for li in range(40):
        papers = rng.sample(ml, 38)
        name = f"small{li}"
        small_libs[name] = papers
        have = [t for t in topics if any(mentions(normalised(p)["head"], t) for p in papers)]
        rng.shuffle(have)
        for j, t in enumerate(have[:8]):
            gold, unsure = topic_labels(papers, t)
            sm.append(item(f"{name}-{j}", "small", name, rng.choice(SCAFFOLDS).format(t=t), gold, unsure))
        far = [t for t in rng.sample(topics, 60)
               if not any(mentions(normalised(p)["head"], t) or mentions(normalised(p)["abstract"], t) for p in papers)]
        for j, t in enumerate(far[:5]):
            sm.append(item(f"{name}-far{j}", "small", name, rng.choice(SCAFFOLDS).format(t=t)))
    # Filtered after the fact so the random draws (and every other item) stay as they were.
    sm = [it for it in sm if not asks_benchmark_topic([it["question"]])]
    items += sm + leave_gold_out([it for it in sm if it["gold"]], 1.0, seed)
    dev = human_items(shared / "eval" / "dev.jsonl", "dev", "seeds")
    items += dev + leave_gold_out(dev, 1.0, seed)
    for lib in HUMAN_LIBRARIES:
        items += human_items(DATA / f"lib{lib}_questions.jsonl", f"qgen{lib}", f"lib{lib}")
    # Chinese known-item questions (hand-written, questions/crosslingual_known_item.jsonl) over the
    # same 20,000 papers: the model sees the cross-lingual path's features, answerable and not.
    zh = [item(f"zh-{it['id']}", "zh", "conf", it["zh"], it["gold"]) for it in load_jsonl(DATA / "crosslingual_known_item.jsonl")]
    items += zh + leave_gold_out(zh, 1.0, seed)
    for pool, lib, tag in ((sf, "conf", "-off"), (tq, "scifact", "-off"), (tq, "seeds", "-offs")):
        items += [{**it, "id": it["id"] + tag, "family": "off", "lib": lib, "gold": [], "unsure": []}
                  for it in rng.sample(pool, 150)]
    # One-word topics, as title questions and over the deep pool (after every other family, with
    # their own random draws, so the questions above stay as they were).
    wrng = random.Random(seed + 1)
    wq, wdeep = [], []
    for wi, t in enumerate(word_topics(conf, 5, 150, 150, seed, skip=held, skip_words=benchmark_topic_words())):
        gold, unsure = topic_labels(conf, t)
        wq.append(item(f"word-{wi}-{t}", "title", "conf", wrng.choice(SCAFFOLDS).format(t=t), gold, unsure))
        wdeep.append({**wq[-1], "id": f"worddeep-{wi}-{t}", "family": "deep", "deep": True})
    items += wq + wdeep + leave_gold_out(wq, 0.5, seed)
    return items, small_libs


def asks_benchmark_topic(texts: Iterable[str]) -> bool:
    """Whether a question names a list-all benchmark topic ("What research exists on
    retrieval-augmented generation over legal documents?"): such questions are not trained on,
    so the benchmark stays held out (15 of the 320 hand-written lines over libraries A-D did, 11 of
    them relevance questions; 9 title-phrase questions of the small libraries)."""
    return any(p.search(t) for t in texts for p in benchmark_topic_patterns())


def human_items(path: Path, family: str, lib: str) -> list[Item]:
    out = []
    for n, it in enumerate(load_jsonl(path)):
        if "turns" in it or has_cjk(it["question"]):
            continue  # follow-ups and Chinese questions train the quote ranker / the Chinese path
        if asks_benchmark_topic([it["question"]]):
            continue
        out.append(item(f"{family}-{n}", family, lib, it["question"], it["gold"], it.get("acceptable") or [],
                        key=it.get("key")))
    return out
