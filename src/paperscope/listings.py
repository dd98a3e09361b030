"""Papers listed by their metadata or by the words they write, not by the relevance model's
judgement of a topic: by venue, year or author (`in_scope`), with given words in their titles, the
papers that write a named dataset or benchmark (`mentioning`: "Which papers evaluate on KITTI?"),
the papers that say they do without a thing (`doing_without`: "Which methods need no training?"), the
themes the titles share (`overview`: "What are the main themes in this collection?"), the library's
records as a whole and those it does not keep (`facts`: "How many papers are there?", "Which authors have
more than one paper?", "Which papers come from Google?"), the
record of a paper the question names (`record_of`: "Who wrote NestQuant?"), and the papers that
introduce a name asked about alone (`introducing`: "What is TAPE?").

Leaves out: topic questions (`gather`, `relevance`).
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import zip_longest

from paperscope.gather import FilterArg, Gatherer
from paperscope.index.bm25 import Bm25Snapshot
from paperscope.records import Evidence, Paper
from paperscope.relevance import Scored
from paperscope.relevance.lexicon import idf as library_idf
from paperscope.relevance.sentences import paper_sentences
from paperscope.relevance.similar import named
from paperscope.retrieve import Filters
from paperscope.text.absence import absent, states_absence
from paperscope.text.asks import asks_record, excluded
from paperscope.text.facts import (
    MAX_AUTHORS_SHOWN,
    Record,
    affiliation_text,
    asks_fact,
    extreme_authors,
    fact_text,
    not_using_text,
    prolific,
)
from paperscope.text.overview import asks_overview, theme_line, themes
from paperscope.text.scope import KNOWN_VENUES, asks_about_library, asks_for_everything, defined_name, named_mention, title_words
from paperscope.text.zh import has_cjk

# A paper listed by metadata alone quotes its first sentence that says what the paper does.
_OWN_WORK = re.compile(r"\b(?:we|our|this (?:paper|work|study|article|note)|here)\b", re.I)
MENTION_POOL = 2000  # BM25 hits read for the papers that write a named dataset (`Listings.mentioning`)
MAX_RECORDS = 3  # papers a question about papers' records ("Who wrote X and Y?") answers from
_LINKS = "to|for|of|in|on|with|by|that|which|and|from|than|over|as|into|using"  # the name is not what is introduced
INTRODUCING_POOL = 100  # BM25 hits read for the papers that introduce a name (those write it, most often first)
# "Which papers are not about X?" asks for papers and nothing else ("Which papers are?", "List papers.", "哪些论文？")
# about a thing that is no comparison ("the same datasets as NestQuant") nor holds a year the scope reading left.
_BARE_REQUEST = re.compile(r"^\s*(?:(?:which|what|list|show(?:\s+me)?|find|any|are\s+there|how\s+many)\s+)?(?:the\s+|all\s+)?"
                           r"(?:papers|works|articles|methods|approaches|studies)?(?:\s+(?:are|is|do|does|that|which))*\s*[?.!]*\s*$"
                           r"|^\s*(?:哪些|有哪些|列出)?(?:论文|文章|工作|方法)(?:有哪些)?[？?。]*\s*$", re.I)
_COMPARED = re.compile(r"\b(?:same|similar|like|than|as)\b|\b(?:19|20)\d\d\b", re.I)
_ABOUT = re.compile(r"\bnot\s+(?:about|on|related\s+to|concerned\s+with|focused\s+on)\b|不(?:是关于|涉及|关于)", re.I)
ABSENCE_POOL = 300  # BM25 hits read for the papers that say they do without a thing (`Listings.doing_without`)


class Listings:
    """Lists of one library's papers by metadata or by the words they write (the Assistant holds one)."""

    def __init__(self, gather: Gatherer) -> None:
        self.gather = gather
        # The themes of one library generation within given filters: reading every title takes 2.3 s at 20,000 papers.
        self._themes: dict[tuple[str, Filters], tuple[list[tuple[str, list[str]]], dict[str, Paper]]] = {}

    def by_scope(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg) -> Scored | None:
        """`in_scope` for a question that names no topic but filters ("Which papers are?", what
        is left of "Which papers are by Sattar Vakili?" once the author is read as a filter) or
        asks for every paper ("List all papers"), or for the papers with given words in their
        titles ("Which papers have scaling in the title?"); None for any other question."""
        titled = self.gather.catalog.titled(title_words(question))
        if titled:  # none: read as any question, which says what no paper covers
            return self.in_scope(question, snapshot, filters, titled)
        mention = named_mention(question)
        if mention is not None:
            return self.mentioning(*mention, question, snapshot, filters)
        without = self.doing_without(question, snapshot, filters)
        if without is not None:
            return without
        unused = self.not_using(question, snapshot, filters)
        if unused is not None:
            return unused
        if filters is None and not asks_for_everything(question):
            return None
        if self._names_topic(question, snapshot) and not asks_about_library(question):
            return None
        return self.in_scope(question, snapshot, filters)

    def mentioning(self, name: str, topic: str, question: str, snapshot: Bm25Snapshot, filters: FilterArg) -> Scored | None:
        """The papers whose title or abstract writes `name` (a dataset or benchmark: "KITTI",
        `text.scope.named_mention`) in BM25's order, each quoting its first sentence that
        writes it; with a `topic` ("Which depth estimation papers ..."), those of them on it (the
        relevance decision). None when no paper writes it: the question is then read as any."""
        # Not inside another word ("spiders"); markdown's "_e3nn_" is the name.
        written = re.compile(r"(?<![A-Za-z0-9-])" + r"[\s-]?".join(re.escape(w) for w in re.split(r"[\s-]+", name))
                             + r"(?![A-Za-z0-9])", re.I)
        found = self._searched(name, snapshot, filters, MENTION_POOL)
        papers = {p.paper_id: p for p in found}

        def as_asked(written_as: str) -> bool:
            """Written as a name: any case for "kitti", "WikiText2" (wikitext2), "nuScenes"; not all lower
            case for "KITTI"; a capital first and not all capitals for a capitalised word ("Spider": not
            "jumping spider" nor the SPIDER optimizer)."""
            if name == name.lower() or re.search(r"\d|\w[A-Z]", name) and name != name.upper():
                return True
            if name == name.upper():
                return written_as != written_as.lower()
            return written_as[:1].isupper() and written_as != written_as.upper()

        def writes(text: str) -> bool:
            return any(as_asked(m.group(0)) for m in written.finditer(text))

        quotes = {pid: next((s for s in paper_sentences(p) if writes(s)), None) for pid, p in papers.items()
                  if writes(p.display_title) or writes(p.abstract)}
        ids = [p.paper_id for p in found if p.paper_id in quotes]
        if not ids:
            return None
        if topic:  # "Which depth estimation papers evaluate on KITTI?": of those, the ones on depth estimation
            about = f"哪些论文研究{topic}？" if has_cjk(topic) else f"Which papers are about {topic}?"
            on = self.gather.scored(about, snapshot, filters, restrict=set(ids))
            cited = {ev.paper.paper_id for ev in self.gather.relevance.decide(on, snapshot, None, every=True).cited}
            ids = [pid for pid in ids if pid in cited]
            if not ids:
                return None
        return self._preset(question, snapshot, [Evidence(i, papers[pid], 1.0, [(quotes[pid] or own_work(papers[pid]), 1.0)])
                                                 for i, pid in enumerate(ids, 1)])

    def doing_without(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg) -> Scored | None:
        """The papers that say they do without what the question asks them not to need ("Which
        methods need no training?", `text.absence.absent`), each quoting its sentence that says so
        (what it does, when only its title says so), in BM25's order for the thing; with a topic besides ("Which quantization
        methods do not require retraining?"), those of them on it (the relevance decision). None
        when the question asks no such thing; no papers when none says so (the answer abstains)."""
        asked = absent(question)
        if asked is None:
            return None
        found: dict[str, Paper] = {}
        for thing in asked.english:
            for p in self._searched(f"{thing} {thing}-free without {thing}", snapshot, filters, ABSENCE_POOL):
                found.setdefault(p.paper_id, p)
        # Said of its own work ("we propose a novel training-free method"), in its title ("... without Training":
        # it quotes what it does), or else in another sentence of its abstract: that counts too, and is quoted
        # ("Programmatic weak supervision creates models without hand-labeled training data": the field it works in).
        quotes: dict[str, str] = {}
        for pid, p in found.items():
            saying = [s for s in paper_sentences(p) if states_absence(s, asked.english)]
            own = [s for s in saying if _OWN_WORK.search(s)]
            titled = states_absence(p.display_title, asked.english)
            if own or titled or saying:
                quotes[pid] = own[0] if own else own_work(p) if titled else saying[0]
        ids = [pid for pid in found if pid in quotes]
        if ids and self._names_topic(asked.question, snapshot):  # a topic besides: those on it
            on = self.gather.scored(asked.question, snapshot, filters, restrict=set(ids))
            cited = {ev.paper.paper_id for ev in self.gather.relevance.decide(on, snapshot, None, every=True).cited}
            ids = [pid for pid in ids if pid in cited]
        return self._preset(question, snapshot, [Evidence(i, found[pid], 1.0, [(quotes[pid], 1.0)])
                                                 for i, pid in enumerate(ids, 1)])

    def not_using(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg) -> Scored | None:
        """For a question that asks for the papers not about a thing and names nothing else ("Which
        papers are not about LLMs?", "Which papers don't use deep learning?", "哪些论文没有使用深度学习？";
        `text.asks.excluded` with no topic left): every paper the filters admit whose title, keywords and
        abstract do not use it (`Relevance.without`: its words, acronyms both ways, less what they negate),
        newest first, said with how many were left out. None for any other question."""
        cut = excluded(question)
        if cut is None or re.search(r"\b(?:but|and)\s+not\b", question, re.I) or _COMPARED.search(cut.thing) \
                or not _BARE_REQUEST.match(cut.question):  # "X but not Y" names X; "What if we do not use LoRA?"
            return None
        if self._names_topic(cut.question, snapshot) or not self._names_topic(cut.english, snapshot):
            return None  # a topic besides ("LLM papers that do not use RL") is the relevance decision's; no thing: none
        everything = self.in_scope(question, snapshot, filters)
        kept, dropped = self.gather.relevance.without(everything, cut.english, snapshot)
        about = bool(_ABOUT.search(question))  # "not about X": a paper that never writes X is not about it
        kept.lead = [not_using_text(len(everything.evidence), dropped, cut.thing, has_cjk(question), about)]
        if not dropped and not about:  # "Which papers don't use X?" and no paper writes X: the abstracts cannot tell
            kept.evidence = []
        return kept

    def overview(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg) -> tuple[str, list[Evidence]] | None:
        """For a question asking what the library holds ("What are the main themes?",
        `text.overview.asks_overview`): the themes its titles share, with their counts (the
        answer's lead), and papers on them (the first of each theme not already listed), quoting
        what each does; None for any other question or a library whose titles share no theme."""
        if not asks_overview(question):
            return None
        f, admitted = self._admitted(snapshot, filters)
        if (snapshot.generation, f) not in self._themes:
            papers = self.gather.catalog.papers(sorted(admitted))
            titles = {pid: p.display_title for pid, p in papers.items()}
            found = themes(titles, lambda stems: library_idf(stems, snapshot.stem_df, len(snapshot)))
            self._themes = {(snapshot.generation, f): (found, papers)}  # the latest only: memory stays bounded
        found, papers = self._themes[(snapshot.generation, f)]
        if not found:
            return None
        shown: list[str] = []
        for _, members in found:  # the first paper of each theme not shown for another (a theme may have none left)
            first = next((pid for pid in members if pid not in shown), None)
            shown += [first] if first is not None else []
        return theme_line(found, len(papers), has_cjk(question)), [Evidence(i, papers[pid], 1.0, [(own_work(papers[pid]), 1.0)])
                                                                    for i, pid in enumerate(shown, 1)]

    def facts(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg) -> tuple[str, list[Evidence], bool] | None:
        """For a question about the library's records as a whole (`text.facts.asks_fact`): what they say (the
        answer's lead), the papers it names (the most prolific authors' papers, the paper with the most authors,
        those that write an affiliation asked about), and whether it answers: False for a record the library
        does not keep (affiliations, citation counts) and no paper to name. None for any other question."""
        fact = asks_fact(question)
        if fact is None:
            return None
        zh = has_cjk(question)
        if fact.kind == "affiliations":
            if fact.name.lower() in self.gather.catalog.venue_names() | KNOWN_VENUES:
                return None  # a venue the scope reading did not take ("Which papers are from NeurIPS?")
            # An English name in a Chinese question ("哪些论文来自Gemini？") is looked for too; 谷歌 is in no abstract.
            named = self.mentioning(fact.name, "", question, snapshot, filters) if fact.name and not has_cjk(fact.name) else None
            found = named.evidence if named is not None else []
            return affiliation_text(fact.name, len(found), zh), found, bool(found)
        if fact.kind == "citations":
            return fact_text(fact, [], {}, zh), [], False
        f, admitted = self._admitted(snapshot, filters)
        records = [Record(*r) for r in self.gather.catalog.records(sorted(admitted))]
        named_ids: list[str] = []
        if fact.kind == "prolific":  # the top authors' papers, one of each in turn: the first lines show many of them
            for some in zip_longest(*(papers for _, papers in prolific(records)[:MAX_AUTHORS_SHOWN])):
                named_ids += [pid for pid in some if pid is not None and pid not in named_ids]
        elif fact.kind in ("most_authors", "fewest_authors", "single_author"):
            named_ids = extreme_authors(records, fact.kind != "most_authors")[1]
        papers = self.gather.catalog.papers(named_ids)
        evidence = [Evidence(i, papers[pid], 1.0, [(own_work(papers[pid]), 1.0)])
                    for i, pid in enumerate((p for p in named_ids if p in papers), 1)]
        titles = {pid: p.display_title for pid, p in papers.items()}
        shown = Counter(r.venue for r in records).most_common(1)[0][0] if f.venue and records else f.venue or ""
        return fact_text(fact, records, titles, zh, _within(f, shown, zh)), evidence, True

    def record_of(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg) -> list[Evidence] | None:
        """The papers a question about a paper's record names ("Who wrote NestQuant?", "Where was
        LocMoE published?", `text.asks.asks_record`), each quoting the sentence that says what it
        does; None when the question asks no such thing or names no paper of the library."""
        if not asks_record(question):
            return None
        hits = self.gather.search(question, snapshot, filters)[3]  # the named paper is among them
        ids = named(question, {h.paper_id: h.paper.display_title for h in hits if h.paper is not None})
        papers = self.gather.catalog.papers(ids).values()
        return [Evidence(i, p, 1.0, [(own_work(p), 1.0)]) for i, p in enumerate(papers, 1)][:MAX_RECORDS] or None

    def introducing(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg) -> list[Evidence] | None:
        """The papers that introduce the name a question asks about alone ("What is TAPE?",
        `text.scope.defined_name`), each quoting the sentence that does; None when no paper of the
        library introduces it (the question is then read as any): its title opens with the name, or
        its abstract defines it in brackets ("(**TAPE**)", "(PTQ)") or proposes it by name."""
        name = defined_name(question)
        if name is None:
            return None
        n = r"\**" + re.escape(name) + r"\**"
        defines = re.compile(rf"\(\s*{n}s?\s*\)|^{n}\s*:")  # "... Encoding (**TAPE**)", "NestQuant: ..."
        # "we propose a new language representation model called BERT", not "we propose SkipBERT to accelerate BERT".
        proposes = re.compile(rf"\b(?i:propos|introduc|present|develop|call|dub|nam|term)\w*\s+"
                              rf"(?:(?!(?i:{_LINKS})\b)[\w-]+[\s,]+){{0,6}}?{n}(?![\w-])")
        ranked: list[tuple[bool, Paper, str]] = []
        for p in self._searched(name, snapshot, filters, INTRODUCING_POOL):  # BM25's order; a definition before a proposal
            rule = next((r for r in (defines, proposes) if r.search(p.display_title) or r.search(p.abstract)), None)
            if rule is not None:
                quote = next((s for s in paper_sentences(p) if rule.search(s) or proposes.search(s)), None) or own_work(p)
                ranked.append((rule is proposes, p, quote))
        ranked.sort(key=lambda r: r[0])
        return [Evidence(i, p, 1.0, [(quote, 1.0)]) for i, (_, p, quote) in enumerate(ranked[:MAX_RECORDS], 1)] or None

    def _searched(self, name: str, snapshot: Bm25Snapshot, filters: FilterArg, pool: int) -> list[Paper]:
        """BM25's best `pool` papers for `name` that the filters admit, in its order."""
        f = Filters.of(filters) or Filters()
        admitted = self.gather.catalog.allowed(f.venue, f.year, f.author, f.years) if not f.empty() else None
        found = [pid for pid, _ in snapshot.search(name, pool, allowed=admitted)]
        papers = self.gather.catalog.papers(found)
        return [papers[pid] for pid in found if pid in papers]

    def in_scope(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg, among: set[str] | None = None) -> Scored:
        """Every paper the filters admit (of `among` when given), newest first, each quoting its
        first sentence that says what the paper does ("We propose ...", "This paper ..."; else its
        first sentence): for a question that asks for papers by venue, year or author and names no
        topic, or by words in their titles."""
        admitted = self._admitted(snapshot, filters)[1]
        ids = sorted(admitted if among is None else admitted & among)
        papers = sorted(self.gather.catalog.papers(ids).values(), key=lambda p: (-(p.year or 0), p.display_title.lower()))
        return self._preset(question, snapshot, [Evidence(i, p, 1.0, [(own_work(p), 1.0)]) for i, p in enumerate(papers, 1)])

    def _admitted(self, snapshot: Bm25Snapshot, filters: FilterArg) -> tuple[Filters, set[str]]:
        """The filters (empty ones when none) and the ids of this question's library's papers they admit."""
        f = Filters.of(filters) or Filters()
        return f, self.gather.catalog.allowed(f.venue, f.year, f.author, f.years) & snapshot.positions.keys()

    def _names_topic(self, text: str, snapshot: Bm25Snapshot) -> bool:
        """Whether `text` (any language) names a topic: its analysis keeps a topical group of words."""
        return bool(self.gather.relevance.analyze(self.gather.crosslingual.query(text, snapshot, 1)[1], snapshot).groups)

    def _preset(self, question: str, snapshot: Bm25Snapshot, evidence: list[Evidence]) -> Scored:
        """`evidence` listed as it is, with its quotes chosen (`Scored.preset`), under the analysed question."""
        q = self.gather.relevance.analyze(question, snapshot)
        return Scored(q, self.gather.relevance.vectors(q, self.gather.embedder.embed([question])[0]), evidence, preset=True)


def _within(f: Filters, venue: str, zh: bool) -> str:
    """The filters as said after "papers" ("at ICML from 2025 by Vakili"; Chinese: "ICML 2025 年 Vakili 的");
    `venue`: the filter's venue as the records write it."""
    lo, hi = f.years or (0, 0)
    if zh:
        years = (f"{f.year} 年" if f.year is not None else "" if not f.years else f"{lo} 年以后" if hi >= 9999
                 else f"{hi} 年以前" if lo <= 0 else f"{lo}\u2013{hi} 年")
        said = "，".join(x for x in (venue if f.venue else "", years, f.author or "") if x)
        return f"（{said}）" if said else ""
    years = (f"from {f.year}" if f.year is not None else "" if not f.years else f"from {lo} on" if hi >= 9999
             else f"up to {hi}" if lo <= 0 else f"from {lo}\u2013{hi}")
    return " ".join(x for x in (f"at {venue}" if f.venue else "", years, f"by {f.author}" if f.author else "") if x)


def about_the_library(question: str) -> bool:
    """Whether `question` asks about the library as a whole, its themes or its records ("What are the main
    themes?", "Which authors have more than one paper?"): list mode (`find_all`) answers it as `ask` does."""
    return asks_overview(question) or asks_fact(question) is not None


def own_work(paper: Paper) -> str:
    """The paper's first sentence that says what it does ("We propose ...", "This paper ..."), else its first."""
    sentences = paper_sentences(paper)
    return next((s for s in sentences if _OWN_WORK.search(s)), sentences[0] if sentences else paper.abstract)


def unsaid(question: str) -> list[str]:
    """The part of `question` no paper of an empty listing says: "without labels" when it asks papers
    to do without them (`Listings.doing_without`), else nothing."""
    asked = absent(question)
    if asked is None:
        return []
    return [f"无需{asked.thing}" if has_cjk(asked.thing) else f"without {asked.thing}"]
