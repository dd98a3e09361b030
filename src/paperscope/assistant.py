"""`Assistant`: the one object behind the Python API, the CLI and the UI.

    a = Assistant.open()                 # embedded Chroma in PAPERSCOPE_DATA_DIR
    a.ingest(["seeds/"])
    a.search("MoE latency")              # -> list[Hit]
    ans = a.ask("Which papers address MoE latency?")   # -> Answer(text, citations, abstained)
    for event in a.stream("..."): ...    # TextPiece(text) as drafted, then the final Answer

One answer path: `plan` (follow-up rewrite -> hybrid retrieval -> relevance scoring -> cite or
abstain, with a typed `AbstainReason`) -> the answerer drafts -> code verifies every citation
-> the extractive answer replaces a draft left with none. `stream()` runs it and yields
events; `ask()` returns its last one. Ingest, search and the scored candidates come from
`Library` (paperscope.library), which `Assistant` extends. Every seam (embedder, store, answerer,
relevance) is injectable, which is how the tests swap in deterministic fakes without patching.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperscope.answer import plan as remark  # the texts said after an answer
from paperscope.answer.backends import make_answerer
from paperscope.answer.base import Answerer, History, draft_pieces
from paperscope.answer.datasets import asks_datasets, dataset_names
from paperscope.answer.extractive import ExtractiveAnswerer, list_heading, paper_line
from paperscope.answer.figures import figure_plan, quoting_figures, reporting_plan
from paperscope.answer.followup import (
    all_of_them,
    by_place,
    is_follow_up,
    narrows,
    picks_by_topic,
    reported_measure,
    scoring_text,
    unpointed,
)
from paperscope.answer.plan import AbstainReason, Plan, abstention, nearest_paper, related_text, similar_abstain
from paperscope.answer.shape import shaped
from paperscope.answer.verify import Verified, removal_notes, verify
from paperscope.gather import FilterArg
from paperscope.index.bm25 import Bm25Snapshot
from paperscope.index.catalog import Catalog
from paperscope.index.embed import Embedder, make_embedder
from paperscope.index.store import ChromaStore
from paperscope.library import Library
from paperscope.library import QuestionError as QuestionError  # re-exported: surfaces catch it from here
from paperscope.listings import about_the_library, own_work, unsaid
from paperscope.records import Answer
from paperscope.records import TextPiece as TextPiece  # re-exported: surfaces import it from here
from paperscope.relevance import Relevance, Scored
from paperscope.relevance.decision import newest_first
from paperscope.relevance.question import compared_names, written
from paperscope.relevance.quotes import rule_quoted
from paperscope.relevance.spelling import corrected
from paperscope.retrieve import Filters
from paperscope.secrets import safe_message
from paperscope.settings import Settings
from paperscope.text.analyzer import terms
from paperscope.text.asks import asks, asks_record, counts_papers, sorted_by_year
from paperscope.text.scope import KNOWN_VENUES, asks_for_everything, asks_relation, named_mention, named_topic, read_scope
from paperscope.text.superlatives import most_of
from paperscope.text.tallies import tallied
from paperscope.text.zh import chinese, to_english_query

QUOTE_BATCH = 25  # find_all quotes (and streams) its list this many papers at a time
# A listed paper's quote shows it is on the topic: it is chosen among the sentences that say most
# of the question's words (embedding every sentence of a long list was most of its time).
LIST_QUOTE_SHORTLIST = 3


Event = TextPiece | Answer


class Assistant(Library):
    """Answers from a `Library`: `ask`, `stream`, `find_all` (see the module docstring)."""

    def __init__(self, settings: Settings, store: ChromaStore, catalog: Catalog, embedder: Embedder,
                 answerer: Answerer | None = None, relevance: Relevance | None = None) -> None:
        super().__init__(settings, store, catalog, embedder, relevance)
        self.answerer = answerer or make_answerer(settings)
        self.extractive = self.answerer if isinstance(self.answerer, ExtractiveAnswerer) else ExtractiveAnswerer()

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def open(cls, data_dir: str | Path | None = None, settings: Settings | None = None,
             embedder: Embedder | None = None, answerer: Answerer | None = None) -> Assistant:
        settings = (settings or Settings()).with_data_dir(data_dir)
        embedder = embedder or make_embedder(settings.embed)
        if embedder.name != settings.embed.model:
            # An injected embedder names its own collection (vectors never mix).
            settings = settings.model_copy(update={"embed": settings.embed.model_copy(update={"model": embedder.name})})
        store = ChromaStore(settings)
        catalog = Catalog(settings.store.data_dir / "index", settings.collection_name())
        return cls(settings, store, catalog, embedder, answerer)

    def stats(self) -> dict[str, Any]:
        self.refresh()
        s = self.settings.store
        return {"papers": self.catalog.paper_count(), "chunks": self.store.count(), "data_dir": str(s.data_dir),
                "chroma": f"http://{s.chroma_host}:{s.chroma_port}" if s.chroma_host else "embedded",
                "collection": self.store.name, "embedder": self.embedder.name, "answer_backend": self.answerer.name,
                "venues": dict(self.catalog.venues()[:20])}

    def _prepare(self, question: str, filters: FilterArg,
                 follows: bool = False) -> tuple[Plan, Bm25Snapshot, Filters | None]:
        """The question checked and this question's library pinned; the venue, year or author the
        question names read as filters (`text.scope`; given filters win), `plan.standalone` the
        question without them and with typing slips read as meant (`relevance.spelling`); the
        plan abstains already when the library is empty, the question has no words or the
        filters match nothing."""
        question, notes = self._check_question(question)
        self.refresh()
        snapshot = self.catalog.snapshot()  # this question's library, whatever is ingested meanwhile
        plan = Plan(question, question, notes=notes)
        f = Filters.of(filters) or Filters()
        scope = read_scope(question, self.catalog.venue_names() | KNOWN_VENUES, self.catalog.has_author)
        plan.standalone = scope.question
        if not scope.empty:
            f = Filters(f.venue or scope.venue, scope.year if f.year is None else f.year, f.author or scope.author,
                        scope.years if f.year is None and f.years is None else f.years)
            notes.append("read as filters: " + ", ".join(f"\u201c{s}\u201d" for s in scope.said))
        plan.standalone, slips = corrected(plan.standalone, snapshot.stem_df, len(snapshot))
        if slips:
            notes.append("read " + ", ".join(f"\u201c{a}\u201d as \u201c{b}\u201d" for a, b in slips))
        if len(snapshot) == 0:
            plan.abstain, plan.detail = AbstainReason.EMPTY_LIBRARY, self.empty_reason()
        elif not terms(to_english_query(question)) and not asks_for_everything(question) and not follows:
            plan.abstain = AbstainReason.NO_SEARCHABLE_WORDS
        elif not f.empty() and not self.catalog.allowed(f.venue, f.year, f.author, f.years) & snapshot.positions.keys():
            known = ", ".join(v or "(none)" for v, _ in self.catalog.venues()[:10])
            wanted = ", ".join(f"{k}={v!r}" for k, v in vars(f).items() if v not in (None, ""))
            plan.abstain, plan.detail = AbstainReason.NO_MATCH_FOR_FILTERS, f"{wanted} (venues in the corpus: {known})"
        return plan, snapshot, None if f.empty() else f

    def plan(self, question: str, history: History | None = None, filters: FilterArg = None,
             max_citations: int | None = None) -> Plan:
        """What `question` gets: the papers to cite, or why it abstains. Raises QuestionError."""
        prior = [a for _, a in (history or []) if a.citations]
        # "Tell me more." has no searchable word; after an answer it asks about that answer's papers.
        base, snapshot, filters = self._prepare(question, filters, bool(prior) and is_follow_up(question))
        if base.abstain is not None:
            return base
        question, notes = base.standalone, base.notes
        limit = max_citations or self.settings.answer.max_citations
        overview = None if prior and is_follow_up(question) else self.listings.overview(question, snapshot, filters)
        if overview is not None:  # "What are the main themes?": the titles' themes, papers on them
            return Plan(base.question, base.question, overview[1], overview[1][:limit], notes=notes, lead=[overview[0]])
        facts = None if prior and is_follow_up(question) else self.listings.facts(question, snapshot, filters)
        if facts is not None:  # "How many papers are there?", "Which papers come from Google?": the records say
            said, papers, answered = facts
            if not answered:
                return Plan(base.question, base.question, abstain=AbstainReason.NOT_RECORDED, detail=said, notes=notes)
            return Plan(base.question, base.question, papers, papers[:limit], notes=notes, lead=[said])
        scope = None if prior and is_follow_up(question) else self.listings.by_scope(question, snapshot, filters)
        if scope is not None:  # papers by venue, year or author, or all of them
            listed = scope.evidence
            if not listed and (missing := unsaid(question)):  # "Which papers need no labels?", none says so: the nearest
                return Plan(base.question, base.question, self.scored(question, snapshot, filters).evidence[:3],
                            abstain=AbstainReason.NO_SUPPORTING_PAPER, uncovered=missing, notes=notes)
            if len(listed) > limit:
                notes.append(f"{limit} of the {len(listed)} papers shown; `ask --all` (or find_all) lists every one")
            relation, mention = asks_relation(question), named_mention(question)  # "Which papers cite NeRF?"
            lead = [remark.names_text(mention[0], relation, chinese(question))] if mention and relation else scope.lead
            return Plan(base.question, base.question, listed, listed[:limit], notes=notes, lead=lead)
        record = self.listings.record_of(question, snapshot, filters)  # "Who wrote NestQuant?": its own record
        if record is None and not (prior and is_follow_up(question)):  # "What is TAPE?": the paper introducing it
            record = self.listings.introducing(question, snapshot, filters)
        if record is not None:
            return Plan(base.question, base.question, record, record, notes=notes)
        like = self.gather.similar(question, snapshot, filters, prior[-1] if prior else None, limit)
        if like is not None:  # "Find papers similar to SLiM", "Any similar papers?" (`relevance.similar`)
            return Plan(base.question, like.standalone, like.scored.evidence, like.cited, like.related,
                        abstain=similar_abstain(bool(like.cited), like.others), notes=[*notes, like.note])
        if prior and is_follow_up(question):
            last = prior[-1]
            earlier = last.standalone_question or last.question
            standalone = f"{question} (follow-up to: {earlier})"
            try:  # an LLM can resolve "it"/"the models" into a full question
                standalone = self.answerer.rewrite(question, history or []) or standalone
            except Exception as exc:
                notes.append(f"follow-up rewrite failed ({type(exc).__name__}: {safe_message(exc)}); used the heuristic")
            # Which previous paper is meant: judged with the earlier question; the quote: with the follow-up's words.
            named = [c.paper_id for c in by_place(prior, question)]  # "Who wrote the second one?"
            restrict = set(named) or {c.paper_id for c in last.citations}
            reported = reported_measure(question)
            if reported is not None:  # "Which of them report MAE?": those whose abstracts give a figure for it
                return reporting_plan(base.question, standalone, self.scored(earlier, snapshot, filters, restrict=restrict)
                                      .evidence, reported, notes)
            most = most_of(question)
            if most is not None:  # "Which one reports the largest speedup?": by each one's figure
                return figure_plan(base.question, standalone, self.scored(earlier, snapshot, filters, restrict=restrict)
                                   .evidence, most, notes)
            scored = self.scored(scoring_text(question, earlier), snapshot, filters, restrict=restrict)
            every = all_of_them(question) if not named else None
            if every is not None:  # "What datasets do they use?", "Who wrote them?": each of them
                return self._each_of_them(base.question, standalone, question, every, scored, last, snapshot, notes)
            decision = self.relevance.decide(scored, snapshot, limit, follow_up=True, named=named)
            if not decision.abstain or narrows(question):  # "Which of those ...?" stays among those papers
                foreign = self.crosslingual.translate(question, snapshot)
                focus = foreign.english if foreign is not None else to_english_query(unpointed(question))
                self.relevance.quote(scored, decision.cited, snapshot, focus, self.embedder.embed([focus])[0])
                self.crosslingual.quote(question, snapshot, decision.cited)
                plan = Plan(base.question, standalone, scored.evidence, decision.cited, notes=notes,
                            abstain=AbstainReason.NONE_OF_THOSE if decision.abstain else None)
                if decision.abstain and picks_by_topic(question):  # none of them: the library's papers on it
                    plan.outside, plan.outside_n = self.gather.elsewhere(question, snapshot, filters, limit, restrict)
                return plan
        # "Give me three papers on X", "the latest papers on X", "Who works on X?", "X that do not use Y".
        wants = asks(question)
        question, limit, cut = wants.question, wants.number or limit, wants.exclusion
        rest = self.relevance.analyze(to_english_query(cut.question), snapshot) if cut else None  # a claim's "but not" is its own
        cut = cut if rest is not None and rest.groups and rest.kind == "list" else None
        topic = cut.question if cut else question
        name = named_topic(base.question, topic) if wants.most else None  # "the lowest MAE on ShanghaiTech"
        scored = (name and self.listings.mentioning(name, "", base.question, snapshot, filters)) or (
            self.gather.scored_all(topic, snapshot, filters) if wants.deep else self.scored(topic, snapshot, filters))
        scored, dropped = self.relevance.without(scored, cut.english, snapshot) if cut else (scored, 0)
        decision = self.relevance.decide(scored, snapshot, None if wants.every else limit, every=wants.every)
        remarks, lead = [remark.more_text(chinese(question))] if decision.more else [], list[str]()
        about = wants.focus  # "What datasets do the MoE papers use?": the MoE papers, quoting their datasets
        if wants.every:
            decision, lead, remarks = shaped(decision, self.relevance.thresholds()[0], limit, wants.order, wants.who,
                                       chinese(question), wants.most, wants.tally)
        if wants.origin and not decision.abstain:  # "Who proposed X?": these address X, none is named X
            lead.insert(0, remark.origin_text(wants.origin, chinese(question)))
        if about and asks_datasets(about) and not decision.abstain:  # "What datasets are used for X?": counted first
            names = dataset_names(decision.cited, [self.relevance.texts.get(ev.paper).sentences for ev in decision.cited],
                                  about)
            lead += [remark.datasets_text(names, len(decision.cited), chinese(question))] if names else []
        if wants.judged and not decision.abstain:  # "the most cited paper on X": no citation counts here
            lead.insert(0, remark.judged_text(wants.judged, chinese(question)))
        held = " ".join(f"{ev.paper.display_title} {ev.paper.abstract}" for ev in decision.cited).lower()
        unheld = [written(n, base.question) for n in compared_names(base.question) if held and n not in held]
        if unheld:  # "Compare LocMoE and Oracle-MoE" where the library holds no LocMoE: say so, not cite one silently
            lead.insert(0, remark.unheld_text(unheld, chinese(question)))
        if cut and not decision.abstain:  # say how the exclusion was read
            remarks.append(remark.left_out_text(dropped, cut.thing, chinese(question)))
        self.relevance.quote(scored, decision.cited + decision.related, snapshot, about,
                             self.embedder.embed([about])[0] if about else None)
        cited = quoting_figures(decision.cited, wants.most) if wants.most else decision.cited  # "the largest speedup"
        if scored.question.kind == "factoid" and not rule_quoted(scored.question.text):  # "X 是什么" keeps X's intro
            self.crosslingual.quote(question, snapshot, cited)
        plan = Plan(base.question, base.question, scored.evidence, cited, decision.related, decision.uncovered,
                    decision.partial, abstain=AbstainReason.NO_SUPPORTING_PAPER if decision.abstain else None, notes=notes,
                    remarks=remarks, lead=lead)
        if decision.abstain and filters is not None:  # none within the filters: say whether others address it
            plan.outside, plan.outside_n, plan.detail = self.gather.outside(topic, snapshot, filters, limit)
        return plan

    def _each_of_them(self, question: str, standalone: str, asked: str, kind: str, scored: Scored, last: Answer,
                      snapshot: Bm25Snapshot, notes: list[str]) -> Plan:
        """A follow-up about every paper of `last` (`followup.all_of_them`): each of them, in `last`'s order,
        quoting what `asked` asks (who wrote them, where or when: the sentence that says what it does),
        counted by venue or year when `kind` says so."""
        by_id = {ev.paper.paper_id: ev for ev in scored.evidence}
        cited = [by_id[c.paper_id] for c in last.citations if c.paper_id in by_id]
        for marker, ev in enumerate(cited, 1):
            ev.marker = marker
        if kind == "each" and not asks_record(asked):
            foreign = self.crosslingual.translate(asked, snapshot)
            focus = foreign.english if foreign is not None else to_english_query(asked)
            self.relevance.quote(scored, cited, snapshot, focus, self.embedder.embed([focus])[0])
            self.crosslingual.quote(asked, snapshot, cited)
        else:
            for ev in cited:
                ev.sentences = [(own_work(ev.paper), 1.0)]
        lead = [] if kind == "each" else [remark.tally_text(cited, kind, chinese(question), previous=True)]
        return Plan(question, standalone, scored.evidence, cited, notes=notes, lead=lead)

    def stream(self, question: str, history: History | None = None, filters: FilterArg = None,
               max_citations: int | None = None, *, live: bool = True, counts: bool = True) -> Iterator[Event]:
        """Yields `TextPiece`s as the answer is drafted, then the final verified `Answer`.
        `live=False` drafts in one call (structured output for LLMs) and yields only the Answer;
        `counts=False`: "How many ...?" is planned here too (`stream_all` hands the library's records on so)."""
        if counts and counts_papers(question) and not (any(a.citations for _, a in history or []) and is_follow_up(question)):
            # "How many papers are about X?" is answered by counting every one (`find_all`).
            yield from self.stream_all(question, filters, show=max_citations or self.settings.answer.max_citations)
            return
        t0 = time.perf_counter()
        plan = self.plan(question, history, filters, max_citations)
        timings = {"retrieve_s": time.perf_counter() - t0}
        if plan.abstain is not None:
            timings["total_s"] = time.perf_counter() - t0
            yield abstention(plan, timings)
            return
        if not plan.cited and plan.lead:  # a fact of the records that names no paper ("How many papers are there?")
            timings["total_s"] = time.perf_counter() - t0
            yield Answer(text="\n\n".join(plan.lead), citations=[], backend="library records", question=plan.question,
                         standalone_question=plan.standalone, notes=plan.notes, timings=timings)
            return
        t1 = time.perf_counter()
        answerer, notes = self.answerer, list(plan.notes)
        shown = answerer.sources(plan.cited, plan.evidence)  # only papers the drafter saw can be cited
        checked: Verified | None = None
        try:
            if live:
                draft = yield from draft_pieces(answerer.stream_draft(plan.standalone, shown))
            else:
                draft = answerer.draft(plan.standalone, shown)
            checked = verify(draft.text, shown, draft.quotes)
        except Exception as exc:  # an LLM backend failed: say so, answer extractively
            notes.append(f"{answerer.name} backend failed ({type(exc).__name__}: {safe_message(exc)}); extractive answer shown")
        backend = answerer.name
        if checked is not None:
            notes.extend(removal_notes(checked.removals))
        if checked is None or not checked.citations:
            if checked is not None and answerer is not self.extractive:
                notes.append(f"{backend} answer had no verifiable citation; extractive answer shown")
            fallback = self.extractive.draft(plan.standalone, plan.cited)
            checked = verify(fallback.text, plan.cited, fallback.quotes)
            if answerer is not self.extractive:
                backend = f"extractive (fallback from {backend})"
        timings["answer_s"] = time.perf_counter() - t1
        timings["total_s"] = time.perf_counter() - t0
        text = "\n\n".join([*plan.lead, checked.text])  # "Who works on X?": the authors first, then the papers
        if plan.remarks:
            text += "\n\n" + " ".join(plan.remarks)
        if plan.related:
            text += "\n\n" + related_text(plan.related, chinese=chinese(plan.question))
        yield Answer(text=text, citations=checked.citations, abstained=False, backend=backend,
                     related=[nearest_paper(ev) for ev in plan.related],
                     question=plan.question, standalone_question=plan.standalone, notes=notes,
                     evidence_ids=[ev.paper.paper_id for ev in plan.evidence], timings=timings)

    def ask(self, question: str, history: History | None = None, filters: FilterArg = None,
            max_citations: int | None = None) -> Answer:
        """The verified answer: the last event of `stream(..., live=False)`."""
        *_, answer = self.stream(question, history, filters, max_citations, live=False)
        assert isinstance(answer, Answer)
        return answer

    def find_all(self, question: str, filters: FilterArg = None) -> Answer:
        """Every paper in the library that addresses `question`, best first (or in the year order it asks), no cap:
        the same relevance decision as `ask`, over candidates gathered deep (see `stream_all`)."""
        *_, answer = self.stream_all(question, filters)
        assert isinstance(answer, Answer)
        return answer

    def stream_all(self, question: str, filters: FilterArg = None, show: int | None = None) -> Iterator[Event]:
        """`find_all` as events: the heading (count, overview by venue), then the listed papers
        `QUOTE_BATCH` at a time as their quotes are chosen, then the verified `Answer`; `show`:
        list only the best `show` (a count's answer), the heading still counting every one."""
        t0 = time.perf_counter()
        plan, snapshot, filters = self._prepare(question, filters)
        order = sorted_by_year(plan.standalone)  # "..., newest first": every paper still, in order of year
        asked = order[0] if order else plan.standalone
        if plan.abstain is None and about_the_library(asked):  # "Which authors have more than one paper?"
            yield from self.stream(asked, filters=filters, max_citations=10**6, live=False, counts=False)  # every paper
            return
        timings: dict[str, float] = {}
        topic = tally[0] if (tally := tallied(asked)) else asked  # "How many papers on X per year?": X
        scored: Scored | None = None if plan.abstain is not None else self.listings.by_scope(
            asked, snapshot, filters)  # papers by venue, year or author, or all of them
        if scored is not None:
            plan.evidence = plan.cited = scored.evidence
            if not scored.evidence and (missing := unsaid(asked)):  # none says it does without the thing
                plan.abstain, plan.uncovered = AbstainReason.NO_SUPPORTING_PAPER, missing
                plan.evidence = self.scored(asked, snapshot, filters).evidence[:3]
        elif plan.abstain is None:  # "How many papers on X per year?": X, its papers counted by year
            scored = self.gather.scored_all(topic, snapshot, filters)
            decision = self.relevance.decide(scored, snapshot, None, every=True)
            plan.evidence, plan.cited, plan.related = scored.evidence, decision.cited, decision.related
            plan.uncovered, plan.partial = decision.uncovered, decision.partial
            if decision.abstain:
                plan.abstain = AbstainReason.NO_SUPPORTING_PAPER
                if filters is not None:
                    plan.outside, plan.outside_n, plan.detail = self.gather.outside(topic, snapshot, filters, 10)
        timings["retrieve_s"] = time.perf_counter() - t0
        if plan.abstain is not None:
            timings["total_s"] = time.perf_counter() - t0
            yield abstention(plan, timings)
            return
        assert scored is not None
        heading = list_heading(plan.cited, chinese=chinese(plan.question), named=scored.named,
                               by_year=tally is not None and tally[1] == "year", order=order[1] if order else None)
        heading = " ".join(scored.lead) or heading  # its own count and reading ("Of the library's 38 papers, 25 ...")
        if show is not None and len(plan.cited) > show:
            heading, plan.cited = heading + remark.shown_text(show, chinese(plan.question)), plan.cited[:show]
        if order:  # the best `show` (or all) in order of year, best first within a year; markers follow the order
            plan.cited = newest_first(plan.cited, len(plan.cited), oldest=order[1] == "oldest").cited
            for marker, ev in enumerate(plan.cited, 1):
                ev.marker = marker
        yield TextPiece(heading)
        lines, quotes = [heading], {}
        for start in range(0, len(plan.cited), QUOTE_BATCH):
            batch = plan.cited[start:start + QUOTE_BATCH]
            self.relevance.quote(scored, batch, snapshot, shortlist=LIST_QUOTE_SHORTLIST)
            for ev in batch:
                quotes[ev.marker] = ev.best_sentence
                lines.append(paper_line(ev))
                yield TextPiece("\n" + lines[-1])
        checked = verify("\n".join(lines), plan.cited, quotes)
        timings["total_s"] = time.perf_counter() - t0
        yield Answer(text=checked.text, citations=checked.citations, backend="extractive (list)",
                     question=plan.question, standalone_question=plan.question, notes=plan.notes,
                     related=[nearest_paper(ev) for ev in plan.related],
                     evidence_ids=[ev.paper.paper_id for ev in plan.evidence], timings=timings)
