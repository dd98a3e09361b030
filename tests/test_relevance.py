"""The relevance model's behaviour over the seeds, with the real embedder (issue: relevance on
questions nobody tuned for): scaffolding is not topic, a leave-gold-out question abstains and
says which part no paper covers, factoid quotes hold the answer, fusion keeps each retriever's
top papers, related papers are never citations, and the shipped model is what the code computes."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from conftest import SEEDS, SHARED
from paperscope import Assistant
from paperscope.relevance.features import FEATURES
from paperscope.relevance.model import MODEL, RelevanceModel, Tree
from paperscope.relevance.question import analyze


def _flat_idf(stems: set[str]) -> dict[str, float]:
    return {s: 1.0 for s in stems}


@pytest.mark.parametrize("question, topic", [
    ("Which papers look at diffusion models?", "diffusion models"),
    ("Which papers concern quantization?", "quantization"),
    ("Which papers deal with large language models in some way?", "large language models"),
    ("Is anyone working on event cameras?", "event cameras"),
    ("Which papers tackle MoE latency?", "moe latency"),
    # A negation reaches to the end of its clause, not of the question.
    ("Which papers look beyond plain text and work with images?", "images"),
    ("Which papers use unlabeled data but not self-supervised pretraining?", "unlabeled data"),
    ("Is there work on learning without labels and annotations?", "learning"),
    # A reader's verbs for what a paper contains, as the papers' verb only ("set cover" is a topic).
    ("Which papers mention diffusion models?", "diffusion models"),
    ("Are there papers that talk about quantization?", "quantization"),
    ("Which papers cover MoE latency?", "moe latency"),
    ("Does any work touch on privacy?", "privacy"),
    ("Which papers study set cover?", "set cover"),
    # "use" is scaffolding, and so are its synonyms as the papers' verb (before, "rely" weighed .46).
    ("Which papers rely on Bayesian methods?", "bayesian"),
    ("Are there papers that exploit sparsity?", "sparsity"),
    ("Which papers apply reinforcement learning to robotics?", "reinforcement learning robotics"),
    ("Is there work that harnesses large language models?", "large language models"),
    ("Which papers make use of optimal transport?", "optimal transport"),
    ("Which papers take advantage of symmetry?", "symmetry"),
    ("Which papers are based on diffusion models?", "diffusion models"),
    ("Which papers study exploitation in bandits?", "exploitation bandits"),  # not the papers' verb
    ("Which papers generate talking heads?", "generate talking heads"),
    # Function words the stopword list lacks.
    ("Which works touch upon interpretability?", "interpretability"),
    ("Is there work towards efficient LLM inference?", "efficient llm inference"),
    # A request to the assistant: its verb asks for papers, only with a request's object after it.
    ("Recommend papers on speculative decoding", "speculative decoding"),
    ("Point me to work on quantization", "quantization"),
    ("Search for papers about event cameras", "event cameras"),
    ("Can you recommend work on MoE latency?", "moe latency"),
    ("Help me find papers on privacy", "privacy"),
    ("What should I read on diffusion models?", "diffusion models"),
    ("Give me a reading list on interpretability", "interpretability"),
    ("Point cloud registration papers?", "point cloud registration"),
    ("Any work on reading list generation?", "reading generation"),  # ("list" is genre)
    ("Which papers learn to read charts?", "learn read charts"),
    # The asker's situation, only in its place.
    ("For my thesis on event cameras, which papers are relevant?", "event cameras"),
    ("I'm working on a project involving event cameras; are there papers I should know about?", "event cameras"),
    ("A colleague asked me whether anyone has published on event cameras. Any idea?", "event cameras"),
    ("I need references on event cameras for a related-work section.", "event cameras"),
    ("I'm reviewing a paper on event cameras; what prior work exists here?", "event cameras"),
    ("Which papers distill a teacher into a student model?", "distill teacher student model"),
    ("Which papers use a Gaussian prior on weights?", "gaussian prior weights"),
    ("Is there work on LLM personas working together as a team?", "llm personas together team"),
    ("Which papers assign a class to every pixel?", "assign class pixel"),
    ("I wonder if there are papers on event cameras.", "event cameras"),
    ("Papers on event cameras please, thanks!", "event cameras"),
    ("Have you got anything on event cameras?", "event cameras"),
    ("Which paper should I start with to learn about event cameras?", "event cameras"),
    ("Summarize the work on event cameras.", "event cameras"),
    ("Give me an overview of the papers on event cameras.", "event cameras"),
    ("Compare the approaches to event cameras.", "event cameras"),
    # The asker's verdict on the papers wanted, a label, a sign-off.
    ("Seminal work on event cameras?", "event cameras"),
    ("Most cited papers on event cameras", "event cameras"),
    ("Question: which papers study event cameras?", "event cameras"),
    ("Hi! Could you help me find papers about event cameras? Thanks a lot.", "event cameras"),
    ("Papers on generative models, e.g. for images or text please, thanks!", "generative models images text"),
    ("Which papers find the best arm?", "best arm"),
    ("Is there work on key frame selection?", "key frame selection"),
    # How a reader places papers under a topic (before, "fall" weighed .39 and the question abstained
    # over 20,000 papers where "Which papers use conformal prediction?" lists 11).
    ("Which papers fall under conformal prediction?", "conformal prediction"),
    ("Which papers belong to the bandits literature?", "bandits"),
    ("Which papers are devoted to event cameras?", "event cameras"),
    ("Which papers are associated with knowledge distillation?", "knowledge distillation"),
    ("Which papers come from the NLP community?", "nlp"),
    ("Papers under the umbrella of federated learning", "federated learning"),
    ("Papers in the field of program synthesis", "program synthesis"),
    ("What has been published on MoE latency?", "moe latency"),
    ("What's been done in text-to-SQL?", "text sql"),
    ("Which papers study privacy in the context of federated learning?", "privacy federated learning"),
    ("Which papers study the fall of empires?", "fall empires"),  # not the papers' verb
    ("Which papers do community detection?", "community detection"),  # not the question's last word
    ("Which papers analyze the Stack Overflow community?", "stack overflow community"),  # not "from the X community"
    ("Which papers study the detection of communities?", "detection communities"),
    ("Which papers study control in the task space?", "control task space"),  # the X space is a topic
])
def test_scaffolding_is_not_the_topic(question, topic):
    assert analyze(question, _flat_idf).topic == topic


def test_a_function_word_stays_in_what_a_quote_must_hold():
    """"Which method is it built upon?" is answered by "... builds upon ...": the quote's analysis
    keeps it (as research verbs), the relevance analysis does not."""
    assert "upon" in analyze("Which method is it built upon?", _flat_idf, scaffolding=False).topic
    assert "upon" not in analyze("Which method is it built upon?", _flat_idf).topic


def test_alternatives_count_once_and_negated_parts_are_not_asked():
    q = analyze("Is anyone still working on decision trees or boosting rather than neural nets?", _flat_idf)
    assert [sorted(g) for g, _ in q.groups] == [["boost", "decis", "tree"]]
    q = analyze("Which papers deal with symmetry or equivariance in neural networks?", _flat_idf)
    assert sorted(g for g, _ in q.groups)[0] == frozenset({"symmetri", "equivari"})


def test_a_long_run_before_or_shares_its_leading_words():
    """"automatically generate UI or poster layouts" asks for generating UI or poster layouts: the
    leading words are asked for, not alternatives of "poster"; a two-word run stays whole."""
    groups = {g for g, _ in analyze("Any papers that automatically generate UI or poster layouts?", _flat_idf).groups}
    assert frozenset({"ui", "poster"}) in groups and frozenset({"generat"}) in groups
    groups = {g for g, _ in analyze("Are there papers about dialogue systems or chatbots?", _flat_idf).groups}
    assert groups == {frozenset({"dialogu", "system", "chatbot"})}


def test_a_list_before_or_is_one_set_of_alternatives():
    """"legged, quadruped, biped or humanoid robots" asks for any of the four, not for legged and
    quadruped and one of biped/humanoid (read so, find_all over 20,000 papers listed nothing). The
    scaffolding verb that leads into a list is not an item ("take images, video or audio"); a
    chain of "or"s stays a chain ("fool or sabotage learned models, or defences": no list), and
    "either"/"whether" open a list, they are not topic words."""
    def groups(question: str) -> set[frozenset[str]]:
        return {g for g, _ in analyze(question, _flat_idf).groups}

    assert frozenset({"leg", "quadrup", "bipe", "humanoid"}) in groups(
        "Which papers use reinforcement learning for legged, quadruped, biped or humanoid robot locomotion?")
    assert groups("Which papers release a new dataset, corpus or benchmark?") == {
        frozenset({"dataset", "corpus", "benchmark"})}
    assert groups("Which papers release a new dataset, corpus, or benchmark?") == {
        frozenset({"dataset", "corpus", "benchmark"})}  # the serial comma too
    media = groups("Which papers work with models that take images, video or audio alongside text?")
    assert frozenset({"imag", "video", "audio"}) in media and frozenset({"take"}) in media
    chain = groups("Which papers study attacks that deliberately fool or sabotage learned models, or defences against them?")
    assert any({"fool", "sabotag", "defenc"} <= g for g in chain) and not any({"model", "defenc"} <= g for g in chain)
    rl = groups("Which papers do reinforcement learning, either model-free or model-based?")
    assert all("either" not in g for g in rl) and frozenset({"reinforc"}) in rl
    assert all("whether" not in g for g in groups("Is there work on testing whether a classifier is calibrated?"))


def test_separate_parts_never_make_a_list():
    """The cross-lingual path joins a glossed question's concepts with `SEPARATE`: "点云配准" glossed
    as "point cloud | join or fit" asks for a point cloud and for joining or fitting; with commas
    the point cloud became one more alternative of the glosses (and 0.07 of a list on topic)."""
    from paperscope.relevance.question import SEPARATE

    separate = {g for g, _ in analyze(f"Which papers point cloud {SEPARATE} join or fit", _flat_idf).groups}
    assert frozenset({"join", "fit"}) in separate and frozenset({"cloud"}) in separate
    listed = {g for g, _ in analyze("Which papers point cloud, join or fit", _flat_idf).groups}
    assert frozenset({"point", "cloud", "join", "fit"}) in listed


def test_generating_a_layout_kind_is_not_layout_to_image(seeded):
    """Over the seeds one paper generates images from layouts; none generates poster or slide
    layouts. Read flat ("automatically", "generate", "poster" as alternatives) it was cited."""
    answer = seeded.ask("Which papers automatically generate poster or slide layouts?")
    assert answer.abstained and not answer.citations, answer.text


def test_a_place_between_topics_is_not_a_topic():
    """"at the intersection of vision and language" asks for vision and language; the noun only
    says where (it weighed 0.49 and the abstention said no paper covers "intersection of vision").
    Not followed by "of"/"between" it is a word like any other ("intersection over union")."""
    q = analyze("Any work at the intersection of vision and language?", _flat_idf)
    assert {g for g, _ in q.groups} == {frozenset({"vision"}), frozenset({"languag"})}
    q = analyze("Which papers study the interplay between memorization and generalization?", _flat_idf)
    assert all("interplay" not in g for g, _ in q.groups)
    assert frozenset({"intersect"}) in {g for g, _ in analyze("Which papers improve intersection over union?", _flat_idf).groups}


def test_a_bracket_restating_a_phrase_is_its_alternative_as_a_whole():
    """"event cameras (dynamic vision sensors)" is covered by either phrase (the bracket's words
    are not one more part every paper must have), not by "dynamic" alone; "neural radiance fields
    (NeRF)" by the phrase or the acronym. Phrases around "or" stay flat."""
    from paperscope.relevance.features import Cover, concepts_of, covered_groups, stems
    from paperscope.text.acronyms import Acronyms

    def share(question, text):
        q = analyze(question, _flat_idf)
        found = concepts_of(stems(text))
        cover = Cover(q, Acronyms({}))
        assert cover.hits(found) == covered_groups(q, found)
        return cover.share(found)

    events = "Which papers use event cameras (dynamic vision sensors)?"
    assert share(events, "Tracking with dynamic vision sensors") == 1.0
    assert share(events, "Optical flow from event cameras") == 1.0
    assert share(events, "Dynamic pricing with vision models") == 0.0
    nerf = "Which papers build on neural radiance fields (NeRF)?"
    assert share(nerf, "NeRF in the wild") == 1.0
    assert share(nerf, "Neural radiance fields for dynamic scenes") == 1.0
    assert share(nerf, "Neural fields for radiance transfer") == 1.0  # words, not order: phrases are features
    assert share(nerf, "Neural networks for fields") == 0.0
    sign = analyze("Which papers do sign language recognition or translation?", _flat_idf)
    assert not any(sign.alternatives) and frozenset({"recognit", "translat"}) in {g for g, _ in sign.groups}
    # The group's text (embedded for the group-similarity features) keeps the phrases whole.
    assert analyze(events, _flat_idf).group_texts() == ["event cameras or dynamic vision sensors"]


def test_a_restated_phrase_is_not_covered_by_one_of_its_words(seeded):
    """Over the seeds nothing is on event cameras: a paper on "rare events" neither covers
    "event cameras (dynamic vision sensors)" nor counts as near it (its soft coverage is its
    weakest word's association, not "events" itself), so the question abstains."""
    answer = seeded.ask("Which papers use event cameras (dynamic vision sensors)?")
    assert answer.abstained and not answer.citations, answer.text


def test_examples_end_where_the_question_goes_on():
    q = analyze("Which papers quantize recurrent networks such as LSTMs or GRUs to very low bit widths?", _flat_idf)
    groups = {g for g, _ in q.groups}
    assert frozenset({"bit"}) in groups and frozenset({"width"}) in groups  # asked for, not one more example
    # The examples are alternatives of their head word only: "quantize" is still asked for.
    assert frozenset({"lstm", "gru", "network"}) in groups and frozenset({"quantiz"}) in groups
    # Prepositions do not end them: "in MDPs" belongs to the example.
    q = analyze("Is there work on reinforcement learning, for example regret guarantees in MDPs?", _flat_idf)
    assert any({"regret", "mdp"} <= g for g, _ in q.groups)


def test_scaffolding_verbs_do_not_hide_the_paper(seeded):
    """On the old hand-set formula these abstained ("concern", "look at" counted as concepts)."""
    for question, word in (("Which papers concern quantization?", "quantization"),
                           ("Which papers look at flow matching?", "flow matching"),
                           ("Which papers mention flow matching?", "flow matching")):
        ans = seeded.ask(question)
        assert not ans.abstained, ans.text
        assert any(word in c.title.lower() for c in ans.citations), [c.title for c in ans.citations]


def test_a_synonym_of_use_as_the_papers_verb_does_not_hide_them(seeded):
    """"Which papers rely on Bayesian methods?" abstained ("its parts appear in different papers":
    "rely" weighed .46, and no paper relies on anything in those words) where "use" cites both."""
    for question in ("Which papers rely on Bayesian methods?", "Which papers make use of Bayesian methods?"):
        ans = seeded.ask(question)
        assert not ans.abstained, ans.text
        assert {c.title.split(":")[0] for c in ans.citations} >= {
            "Bayesian Active Learning for Bivariate Causal Discovery", "Bayesian Optimization from Human Feedback"}


def test_a_comparative_is_covered_by_the_goal_papers_name():
    """"cheaper or faster" is a goal papers name by what they measure (cost, speedup, efficient,
    latency); the words cover the group without changing its weight, and are not shown as the
    question's (`Question.describe`, `topic`). "making" is the papers' verb, no topic."""
    q = analyze("Are there papers about making LLM inference cheaper or faster?", _flat_idf)
    goal = next(g for g, _ in q.groups if "cheaper" in g)
    assert {"cost", "speedup", "effici", "latenc", "faster"} <= goal
    assert q.topic == "llm inference cheaper faster"
    assert q.describe(goal) == "cheaper/faster"
    plain = analyze("Are there papers about LLM inference cheaper or faster?", _flat_idf)
    assert [round(w, 6) for _, w in q.groups] == [round(w, 6) for _, w in plain.groups]
    # Words in most abstracts ("small", "size") cover nothing: a group every paper covers decides nothing.
    assert not {"small", "size"} & next(g for g, _ in analyze("Which papers make models smaller?", _flat_idf).groups)


def test_a_goal_asked_as_a_comparative_finds_the_papers_that_measure_it(seeded):
    """Before: "cheaper/faster" weighed .46, no abstract writes "cheaper", and the answer cited
    Attention-Level Speculation alone of the seeds' five papers on efficient LLM inference."""
    ans = seeded.ask("Are there papers about making LLM inference cheaper or faster?")
    efficient = {"Attention-Level Speculation", "Oracle-MoE", "Scaling Inference-Efficient Language Models", "SLiM",
                 "NestQuant"}
    assert len({c.title.split(":")[0] for c in ans.citations} & efficient) >= 2, ans.text
    safer = seeded.ask("Which papers make LLMs safer?")
    assert "make" not in safer.text.split("none covers")[-1].split("\n")[0]


def test_a_request_asks_for_papers_not_about_its_verb(seeded):
    """"Recommend papers on speculative decoding" abstained, no paper covering "recommend" (and
    "What should I read on ..." read as a factoid question, which cites one paper)."""
    assert analyze("What should I read on quantization?", _flat_idf).kind == "list"
    asked = seeded.ask("Recommend papers on quantization")
    plain = seeded.ask("Which papers are on quantization?")
    assert not asked.abstained and len(asked.citations) >= 2, asked.text
    assert [c.paper_id for c in asked.citations] == [c.paper_id for c in plain.citations]


@pytest.mark.parametrize("question, kind, topic", [
    ("What are recent approaches to LLM quantization?", "list", "llm quantization"),
    ("What's the state of the art in diffusion models?", "list", "diffusion models"),
    ("What are the latest advances in event cameras?", "list", "event cameras"),
    ("What work has been done on causal discovery?", "list", "causal discovery"),
    ("Who has worked on event cameras?", "list", "event cameras"),
    ("Where can I find work on event cameras?", "list", "event cameras"),
    ("How do researchers approach event camera tracking?", "list", "event camera tracking"),
    ("Is event camera tracking covered by any paper here?", "list", "event camera tracking"),
    ("Who proposed Oracle-MoE?", "factoid", "oracle moe"),
    ("How does GAPrompt work?", "factoid", "gaprompt"),
    # A detail of one paper stays a factoid question.
    ("What techniques does SLiM combine?", "factoid", "techniques slim combine"),
    ("What are the main findings of the Contextures paper?", "factoid", "contextures"),
    ("What architectures were used in the experiments?", "factoid", "architectures experiments"),
    # A question inside a request asks what its question word asks.
    ("Tell me how much faster GAPrompt trains.", "factoid", "faster gaprompt trains"),
    ("Do you know which loss GAPrompt uses?", "factoid", "loss gaprompt"),
    # A label, a sign-off or the asker's situation asks for no papers: the question's own kind.
    ("Question: how many parameters does GAPrompt train?", "factoid", "parameters gaprompt train"),
    ("How many parameters does GAPrompt train? Thanks a lot.", "factoid", "parameters gaprompt train"),
    ("Quick question: how many parameters does GAPrompt train?", "factoid", "parameters gaprompt train"),
    ("Do you happen to know how many parameters GAPrompt trains?", "factoid", "parameters gaprompt trains"),
    # A greeting or aside before the question proper.
    ("Sorry, one more thing: how many parameters does GAPrompt train?", "factoid", "parameters gaprompt train"),
    ("Hey, how many parameters does GAPrompt train?", "factoid", "parameters gaprompt train"),
    ("I was wondering how many parameters GAPrompt trains.", "factoid", "parameters gaprompt trains"),
    ("For point clouds, which method is best?", "other", "point clouds best"),  # a topic, not an aside
    # The asker's lead-in straight before the question word, and a hedge after the last comma.
    ("Remind me how many parameters GAPrompt trains?", "factoid", "parameters gaprompt trains"),
    ("Could you check which loss GAPrompt uses?", "factoid", "loss gaprompt"),
    ("I'd love to know how many parameters GAPrompt trains.", "factoid", "parameters gaprompt trains"),
    ("One thing I couldn't figure out: how many parameters does GAPrompt train?", "factoid",
     "parameters gaprompt train"),
    ("For my notes, how many parameters does GAPrompt train?", "factoid", "parameters gaprompt train"),
    ("Do you remember how many parameters GAPrompt trains?", "factoid", "parameters gaprompt trains"),
    ("Any idea how many parameters GAPrompt trains?", "factoid", "parameters gaprompt trains"),
    ("How many parameters does GAPrompt train, roughly?", "factoid", "parameters gaprompt train"),
    ("Which datasets does GAPrompt use, if you know?", "factoid", "datasets gaprompt"),
    ("Remind me which papers study event cameras.", "list", "event cameras"),
    # ... but a question's own leading preposition is its phrasing, not a lead-in.
    ("On which dataset is GAPrompt evaluated?", "other", "dataset gaprompt"),
    ("Up to how many tasks was GAPrompt evaluated?", "other", "tasks gaprompt"),
    ("For my thesis: how large were the models SLiM was tested on?", "factoid", "large models slim tested"),
    ("I need references on event cameras for a related-work section.", "list", "event cameras"),
    # A topic asked after another: papers on it; "instead" is no topic.
    ("What about quantization?", "list", "quantization"),
    ("And how about event cameras instead?", "list", "event cameras"),
    ("Same question for diffusion models.", "list", "diffusion models"),
    ("What about its latency?", "factoid", "latency"),
    ("How many papers study quantization?", "list", "quantization"),
    ("What literature exists on event cameras?", "list", "event cameras"),
    ("Does the collection include anything on event cameras?", "list", "event cameras"),
    ("what's out there on event cameras", "list", "event cameras"),
    ("Which authors work on event cameras?", "list", "event cameras"),
    ("Is anybody doing event camera tracking?", "list", "event camera tracking"),
    ("Which authors proposed GAPrompt?", "factoid", "authors gaprompt"),
    ("How many parameters does GAPrompt train?", "factoid", "parameters gaprompt train"),
    # A verdict on one paper, a place to start, "which ones", a search label, an interjection.
    ("What's the best paper on event cameras?", "list", "event cameras"),
    ("What's a good starting point for event cameras?", "list", "event cameras"),
    ("How do I get started with event camera tracking?", "list", "event camera tracking"),
    ("Which ones are about event cameras?", "list", "event cameras"),
    ("I need a paper on event cameras.", "list", "event cameras"),
    ("Keywords: learning from noisy labels in very large crowdsourced datasets", "list",
     "learning noisy labels large crowdsourced datasets"),
    ("ok so which papers study event cameras", "list", "event cameras"),
    ("hmm how many parameters does GAPrompt train?", "factoid", "parameters gaprompt train"),
    ("What is the paper's main result?", "factoid", "result"),  # a detail of one paper stays one
    # The field's work through its subject or usual practice; one paper's detail stays a factoid.
    ("How do papers evaluate hallucination in large language models?", "list", "hallucination large language models"),
    ("How can we reduce hallucination in LLMs?", "list", "reduce hallucination llm"),
    ("Which methods improve sample efficiency in RL?", "list", "improve sample efficiency rl"),
    ("What datasets are commonly used for visual question answering?", "list",
     "datasets visual question answering"),
    ("Which methods does SLiM combine?", "factoid", "slim combine"),
    ("Which method improves sample efficiency in RL?", "factoid", "improves sample efficiency rl"),
    ("How do the authors evaluate it?", "factoid", "authors"),
    ("What are the open problems in federated learning?", "list", "problems federated learning"),  # not "open"
    ("What are the main challenges in multi-agent reinforcement learning?", "list",
     "challenges multi agent reinforcement learning"),
    ("What are its limitations?", "factoid", "limitations"),
    ("What limitations does SLiM have?", "factoid", "limitations slim"),
    ("Well-posedness of which equations is studied?", "other", "well posedness equations"),  # "well" no interjection
    # A passive or a kind of thing as the subject: the field's practice (each cited one paper of 13 on
    # catastrophic forgetting over 20,000 papers); "it", "the model", "does X" stay one paper's detail.
    ("How can catastrophic forgetting be mitigated?", "list", "catastrophic forgetting mitigated"),
    ("How is uncertainty estimated in deep learning?", "list", "uncertainty estimated deep learning"),
    ("How do robots learn to grasp transparent objects?", "list", "robots learn grasp transparent objects"),
    ("How is it trained?", "factoid", "trained"),
    ("How are the models trained?", "factoid", "models trained"),
    ("How does SLiM compress weights?", "factoid", "slim compress weights"),
    ("How do they represent the relations?", "factoid", "represent"),
    ("How is attention computed in Mamba?", "factoid", "attention computed mamba"),  # a system's name: one paper
    ("How is LLM inference accelerated?", "list", "llm inference accelerated"),  # an acronym is the field's
])
def test_a_what_question_about_a_fields_work_is_a_list_question(question, kind, topic):
    q = analyze(question, _flat_idf)
    assert (q.kind, q.topic) == (kind, topic)


@pytest.mark.parametrize("question, kind", [
    ("event cameras", "list"), ("MoE latency", "list"), ("spiking neural networks for image classification", "list"),
    ("DUSP4 decreases apoptosis.", "other"),  # a claim ends in a full stop
    ("what is GAPrompt", "factoid"),
])
def test_a_search_box_query_asks_for_papers_on_it(question, kind):
    assert analyze(question, _flat_idf).kind == kind


def test_what_are_the_approaches_cites_the_papers_not_one(seeded):
    """It cited NestQuant only (a factoid question cites its best paper)."""
    ans = seeded.ask("What are recent approaches to LLM quantization?")
    assert {"NestQuant", "SLiM"} <= {c.title.split(":")[0] for c in ans.citations}, ans.text


def test_an_abstention_names_the_missing_term_not_the_verb_beside_it(seeded):
    """A verb and its object side by side are no phrase to look for: the abstention said no paper
    covers "apply conformal prediction"."""
    ans = seeded.ask("Which papers apply conformal prediction to molecules?")
    first = ans.text.splitlines()[0]
    assert ans.abstained and "“conformal prediction”" in first and "apply" not in first, first


def test_leave_gold_out_abstains_and_says_what_is_missing(seeded, tmp_path):
    question = "Which papers use flow matching?"
    gold = [c for c in seeded.ask(question).citations]
    assert gold and all("flow matching" in c.quote.lower() or "flow matching" in c.title.lower() for c in gold)
    # The same library without the papers that speak of flow matching.
    lib = tmp_path / "seeds"
    shutil.copytree(SEEDS, lib)
    for txt in lib.glob("*.txt"):
        head, *paras = txt.read_text(encoding="utf-8").split("\n\n")
        txt.write_text("\n\n".join([head] + [p for p in paras if "flow matching" not in p.lower()]), encoding="utf-8")
    (lib / "icml2025_seed_metadata.jsonl").unlink()
    a = Assistant.open(tmp_path / "data")
    a.ingest([lib])
    ans = a.ask(question)
    assert ans.abstained and not ans.citations, ans.text
    first = ans.text.splitlines()[0]
    assert "flow matching" in first.lower(), first  # which part of the question no paper covers
    assert "not matches" not in ans.text and "weaker matches" in ans.text


def test_a_paper_using_neither_word_of_a_named_term_is_not_cited(seeded):
    """Banyan ("low-resource settings", "under-represented languages") never mentions machine
    translation: it is a weaker match, not an answer (it was cited at 0.75), in Chinese too; the
    abstention names the term. A paper using the term is still cited ("flow matching")."""
    for question in ("Any work on low-resource machine translation?", "有没有做低资源语言机器翻译的论文？"):
        ans = seeded.ask(question)
        assert ans.abstained and not ans.citations, ans.text
        assert any("Banyan" in r.title for r in ans.related) or any("Banyan" in n.title for n in ans.nearest), ans.text
    english = seeded.ask("Any work on low-resource machine translation?")
    assert "machine translation" in english.text.splitlines()[0].lower(), english.text
    kept = seeded.ask("Which papers use flow matching for distillation?")
    assert any("Flow Matching" in c.title for c in kept.citations), kept.text


def test_named_terms_are_two_word_phrases_that_two_titles_use(tmp_path):
    from paperscope.bench.relevance_data import build_title_phrases
    from paperscope.relevance.lexicon import title_phrases

    shipped = title_phrases()
    assert {"machin transla", "mixtur expert", "social media", "latent confoun"} <= shipped
    assert not {"walk next", "plausib room", "machin the"} & shipped  # a question's wording; stopwords
    titles = ["Low-Resource Machine Translation", "Machine Translation of the Mixture of Experts",
              "Walk next to robots", "A Mixture of Experts", "Neural Networks Everywhere", "Deep Neural Networks"]
    corpus = tmp_path / "c.jsonl"
    # Every abstract says "neural networks" (over 5% of them): the field's common ground, no term.
    corpus.write_text("".join(json.dumps({"id": str(i), "title": t, "abstract": "We train neural networks."}) + "\n"
                              for i, t in enumerate(titles)), encoding="utf-8")
    build_title_phrases(corpus, tmp_path)
    built = (tmp_path / "title_phrases.txt.gz").read_bytes()
    import gzip

    assert gzip.decompress(built).decode().split() == ["machin", "transla", "mixtur", "expert"]
    assert (tmp_path / "common_phrases.txt").read_text().split() == ["neural", "network"]
    build_title_phrases(corpus, tmp_path)
    assert (tmp_path / "title_phrases.txt.gz").read_bytes() == built  # the same bytes each build


def test_shipped_terms_are_read_as_the_features_read_concepts():
    """The shipped phrases are concept pairs as `features.base_concept` reads them now (word
    families come from the shipped thesaurus): built with a stale one, "causal discovery" was
    stored as "causal discove" and never matched a question's "causal discov"."""
    from paperscope.relevance.features import base_concept, stems
    from paperscope.relevance.lexicon import common_phrases, title_phrases

    for phrase in ("causal discovery", "collision avoidance", "multiple robots", "drug discovery"):
        a, b = stems(phrase)
        assert f"{base_concept(a)} {base_concept(b)}" in title_phrases(), phrase
    assert "neural network" in common_phrases() and "neural network" not in title_phrases()
    assert not {"machin transla", "reinfor learn", "languag model"} & common_phrases()


def _neural(a: str, b: str) -> bool:
    return {a, b} <= {"neural", "network", "real", "world"}


@pytest.mark.parametrize("question, main", [
    ("Which papers study quantization of neural networks?", "quantiz"),
    ("Which papers deal with symmetry or equivariance in neural networks?", "symmetri"),
    ("Which papers study robustness of deep neural networks?", "robust"),
    ("Is there research on robots in the real world?", "robot"),
])
def test_a_common_ground_phrase_after_a_preposition_places_the_topic(question, main):
    """"quantization of neural networks" asks for quantization: the seeds' quantization papers
    say "LLMs", and the question abstained (it weighed neural + network .41)."""
    weight = {s: w for g, w in analyze(question, _flat_idf, common=_neural).groups for s in g}
    before = {s: w for g, w in analyze(question, _flat_idf).groups for s in g}
    placed = "neural" if "neural" in weight else "world"
    assert weight[main] > before[main] and weight[placed] < before[placed] * 0.6


@pytest.mark.parametrize("question", [
    "Which papers use graph neural networks?",  # names a kind of network
    "Any work on neural network pruning?",  # the phrase goes on: it names the topic
    "Which papers use neural networks?",  # nothing else is asked
])
def test_a_common_ground_phrase_naming_the_topic_keeps_its_weight(question):
    assert analyze(question, _flat_idf, common=_neural).groups == analyze(question, _flat_idf).groups


def test_a_question_placed_in_neural_networks_cites_the_papers_on_its_topic(seeded):
    ans = seeded.ask("Which papers study quantization of neural networks?")
    titles = " | ".join(c.title for c in ans.citations)
    assert "SLiM" in titles and "NestQuant" in titles, ans.text


def test_factoid_quote_is_the_sentence_holding_the_answer(seeded):
    ans = seeded.ask("What kernel speedup does FlashTP report over cuEquivariance?")
    assert len(ans.citations) == 1 and "60.8" in ans.citations[0].quote, ans.citations
    first = seeded.ask("Which paper proposes test-time training layers?")
    history = [("Which paper proposes test-time training layers?", first)]
    follow = seeded.ask("How large were the models evaluated?", history=history)
    assert follow.citations and "1.3B" in follow.citations[0].quote, follow.text


def test_how_many_quotes_the_sentence_that_counts(seeded):
    """The count is the answer: not the sentence restating most of the question, nor a size
    ("the Morph-1B model") standing before the counted word."""
    ans = seeded.ask("How many models did the inference-efficient scaling law study train?")
    assert ans.citations and "63 models" in ans.citations[0].quote, ans.text


def test_counted_first_moves_only_whole_number_counts_of_the_asked_thing():
    from paperscope.relevance.quotes import counted_first

    sentences = ["We release the Morph-1B model.", "We fit scaling laws to many models.", "We train 63 models."]
    scores = np.array([3.0, 5.0, 1.0])
    q = analyze("How many models were trained?", _flat_idf, scaffolding=False)
    assert list(np.argsort(-counted_first(q, sentences, range(3), scores))) == [2, 1, 0]
    other = analyze("Which models were trained?", _flat_idf, scaffolding=False)
    assert list(counted_first(other, sentences, range(3), scores)) == list(scores)
    assert list(counted_first(q, sentences, [0, 1], scores[:2])) == [3.0, 5.0]  # only the rows given


def test_a_which_papers_quote_holds_what_the_title_does_not_say(seeded):
    """"Which papers address MoE latency?": Oracle-MoE's title says MoE, so the quote must say
    latency (the ranker alone quoted its theoretical-analysis finding)."""
    ans = seeded.ask("Which papers address MoE latency?")
    oracle = [c for c in ans.citations if c.title.startswith("Oracle-MoE")]
    assert oracle and "latenc" in oracle[0].quote.lower(), ans.text


def test_asked_first_moves_only_sentences_holding_every_word_the_title_lacks():
    from paperscope.relevance.quotes import asked_first

    sentences = ["Our MoE routes tokens by locality.", "MoE inference suffers high latency.", "Latency drops 2x."]
    scores = np.array([5.0, 1.0, 3.0])
    q = analyze("Which papers address MoE latency?", _flat_idf, scaffolding=False)
    title = "Oracle-MoE: Locality-preserving Routing"
    assert list(np.argsort(-asked_first(q, sentences, range(3), title, scores), kind="stable")) == [2, 1, 0]
    # Every asked word in the title: the ranker's order stands; so for other kinds of question.
    assert list(asked_first(q, sentences, range(3), "MoE latency at the edge", scores)) == list(scores)
    factoid = analyze("What latency does the MoE reach?", _flat_idf, scaffolding=False)
    assert list(asked_first(factoid, sentences, range(3), title, scores)) == list(scores)
    assert list(asked_first(q, sentences, [0], title, scores[:1])) == [5.0]  # no sentence given holds it
    # A research verb of the question ("deal", "discuss") need not be in the sentence: it quoted FedATH's
    # results sentence for "Which papers deal with privacy?" over the one on "preserving the local data privacy".
    fed = ["FGL trains on private graphs preserving the local data privacy.", "Experiments on six datasets show gains."]
    for asked in ("Which papers deal with privacy?", "Which papers discuss data privacy?"):
        q = analyze(asked, _flat_idf, scaffolding=False)
        assert int(np.argmax(asked_first(q, fed, range(2), "Less is More: Federated Graph Learning",
                                         np.array([1.0, 4.0])))) == 0, asked


def test_introduced_first_quotes_what_a_paper_is_for_what_is_questions():
    from paperscope.relevance.quotes import introduced_first

    sentences = ["Quantization shrinks LLMs.", "This work proposes NestQuant, a nested lattice PTQ scheme.",
                 "We also propose a fast decoder.", "NestQuant beats QuaRot by 55% in perplexity gap."]
    scores = np.array([1.0, 2.0, 2.5, 5.0])  # the rankers favour the result
    for question in ("What is NestQuant?", "Summarize the NestQuant paper.", "What is the main contribution of NestQuant?",
                     "How does NestQuant work?", "What does NestQuant do?",
                     # how briefly is no part of what is asked (it was: "NestQuant in one sentence", four words)
                     "Summarize NestQuant in one sentence.", "Describe NestQuant briefly.",
                     "Give me a short summary of NestQuant."):
        q = analyze(question, _flat_idf, scaffolding=False)
        assert int(np.argmax(introduced_first(q, sentences, range(4), scores))) == 1, question
    # A question about a detail of the paper keeps the rankers' order.
    detail = analyze("What is the perplexity gap of NestQuant against QuaRot?", _flat_idf, scaffolding=False)
    assert list(introduced_first(detail, sentences, range(4), scores)) == list(scores)


def test_find_all_does_not_list_papers_missing_a_heavy_part_once_others_cover_it_all(seeded):
    """Topic mode lifts every paper of the larger topic (MoE); once three candidates cover the
    whole question (MoE and latency), papers without latency are no longer listed."""
    from paperscope.records import Evidence, Paper
    from paperscope.relevance import Scored

    snap = seeded.catalog.snapshot()
    rel = seeded.relevance
    reach = min(rel.thresholds()[0], rel.list_threshold())
    q = rel.analyze("Which papers address MoE latency?", snap)

    def scored(n_whole: int) -> Scored:
        whole = [Paper(paper_id=f"w{i}", title=f"Fast MoE serving {i}",
                       abstract="Mixture-of-Experts (MoE) inference suffers high latency. We cut it.") for i in range(n_whole)]
        part = Paper(paper_id="p", title="Statistical mechanics of the mixture of experts",
                     abstract="We study phase transitions of mixture of experts models.")
        evidence = [Evidence(i + 1, p, 0.9, []) for i, p in enumerate([part, *whole])]
        return Scored(q, None, evidence)  # type: ignore[arg-type]  # vectors are not read

    out = {ev.paper.paper_id: ev.support for ev in rel.whole_topic(scored(3), snap).evidence}
    assert out["p"] < reach and all(out[f"w{i}"] == 0.9 for i in range(3)), out
    # Fewer papers say it all (a question described in other words): nothing moves.
    assert all(ev.support == 0.9 for ev in rel.whole_topic(scored(2), snap).evidence)


def test_find_all_keeps_papers_missing_only_light_words_of_a_described_question(seeded):
    """A question that describes its topic in many words ("translating natural language questions
    into SQL queries") misses several light words in the papers that name it ("Text-to-SQL");
    only a missing part heavy on its own (MoE latency's "latency") keeps a paper off the list.
    Over 85,864 papers the summed rule dropped 20 text-to-SQL papers from this question."""
    from paperscope.records import Evidence, Paper
    from paperscope.relevance import Scored

    snap = seeded.catalog.snapshot()
    rel = seeded.relevance
    q = rel.analyze("Is there work on translating natural language questions into SQL queries?", snap)
    light = [w for g, w in q.groups if not any(s[:4] in {"sql", "quer"} for s in g)]
    assert len(light) >= 4 and max(light) < 0.3, q.groups
    said = "We translate natural language questions into SQL queries."
    whole = [Paper(paper_id=f"w{i}", title=f"Parser {i}", abstract=said) for i in range(3)]
    named = Paper(paper_id="t", title="Text-to-SQL with schema linking", abstract="We generate SQL for databases.")
    evidence = [Evidence(i + 1, p, 0.9, []) for i, p in enumerate([named, *whole])]
    covered = rel.whole_topic(Scored(q, None, evidence), snap)  # type: ignore[arg-type]  # vectors unread
    assert sum(light) >= 0.3  # the summed rule would have capped it
    assert all(ev.support == 0.9 for ev in covered.evidence)


def test_names_topic_reads_title_opening_or_two_mentions_not_one_passing_one():
    """A paper names its topic in its title, its first two sentences, or twice; one later mention
    is in passing (the line the training labels draw)."""
    from paperscope.records import Paper
    from paperscope.relevance.features import Cover, PaperText, names_topic
    from paperscope.text.acronyms import Acronyms

    q = analyze("Which papers use Thompson sampling?", _flat_idf)
    cover = Cover(q, Acronyms({}))
    filler = "We study bandits. Regret bounds follow. Experiments agree. Code is public."

    def text(title: str, abstract: str) -> PaperText:
        return PaperText(Paper(paper_id="x", title=title, abstract=abstract))

    assert names_topic(cover, text("Thompson Sampling for Bandits", filler))
    assert names_topic(cover, text("Bandits", "Thompson sampling is popular. " + filler))
    twice = f"{filler} We analyse Thompson sampling. Thompson sampling then wins."
    assert names_topic(cover, text("Bandits", twice))
    once = f"{filler} Baselines include Thompson sampling."
    assert not names_topic(cover, text("Hierarchical Bayesian Bandits", once))


def test_find_all_does_not_list_passing_mentions_once_three_papers_name_the_topic(seeded):
    from paperscope.records import Evidence, Paper
    from paperscope.relevance import Scored

    snap = seeded.catalog.snapshot()
    rel = seeded.relevance
    cite = rel.thresholds()[0]
    reach = min(cite, rel.list_threshold())
    q = rel.analyze("Which papers use Thompson sampling?", snap)
    filler = "We study bandits. Regret bounds follow. Experiments agree."

    def scored(n_naming: int) -> Scored:
        naming = [Paper(paper_id=f"n{i}", title=f"Thompson Sampling {i}", abstract=filler) for i in range(n_naming)]
        passing = Paper(paper_id="p", title="Hierarchical Bayesian Bandits",
                        abstract=f"{filler} Baselines include Thompson sampling.")
        evidence = [Evidence(i + 1, p, 0.9, []) for i, p in enumerate([passing, *naming])]
        return Scored(q, None, evidence)  # type: ignore[arg-type]  # vectors are not read

    out = {ev.paper.paper_id: ev.support for ev in rel.names_rule(scored(3), snap).evidence}
    assert out["p"] < reach and all(out[f"n{i}"] == 0.9 for i in range(3)), out
    assert all(ev.support == 0.9 for ev in rel.names_rule(scored(2), snap).evidence)


def test_quotes_ranked_in_one_batch_equal_ranking_each_paper_alone(seeded):
    """`Relevance.quote` scores all papers' sentences in one ranker call (the ranker scores each
    sentence on its own): the same order as `rank_sentences` paper by paper, the reference."""
    import copy

    from paperscope.relevance.quotes import rank_sentences

    snap = seeded.catalog.snapshot()
    for question in ("Which papers study mixture-of-experts efficiency?", "How many parameters does GAPrompt train?"):
        scored = seeded.scored(question, snap)
        evidence = [copy.copy(ev) for ev in scored.evidence[:8]]
        seeded.relevance.quote(scored, evidence, snap)
        q = seeded.relevance.analyze(question, snap, scaffolding=False)
        ranker = seeded.relevance.model.factoid_quotes if q.kind == "factoid" else seeded.relevance.model.quotes
        for ev, (sents, vecs) in zip(evidence, seeded.relevance.sentences.get([ev.paper for ev in evidence])):
            assert ev.sentences == rank_sentences(ranker, q, scored.vectors.question, sents, vecs, title=ev.paper.title)


def test_a_long_lists_quote_comes_from_the_sentences_saying_most_of_the_question(seeded):
    """find_all embeds only a shortlist of each listed paper's sentences (those covering most of
    the question's words) and quotes the best of them; the other sentences follow, unranked."""
    from paperscope.assistant import LIST_QUOTE_SHORTLIST
    from paperscope.relevance.features import Cover

    snap = seeded.catalog.snapshot()
    question = "Which papers address large language models?"
    scored = seeded.scored(question, snap, deep=True)
    evidence = scored.evidence[:6]
    seeded.relevance.quote(scored, evidence, snap, shortlist=LIST_QUOTE_SHORTLIST)
    cover = Cover(seeded.relevance.analyze(question, snap, scaffolding=False), snap.acronyms)
    for ev in evidence:
        text = seeded.relevance.texts.get(ev.paper)
        assert sorted(s for s, _ in ev.sentences) == sorted(text.sentences)  # every sentence, once
        shares = sorted((cover.share(ss) for ss in text.sent_sets), reverse=True)
        cut = shares[min(LIST_QUOTE_SHORTLIST, len(shares)) - 1]
        assert cover.share(text.sent_sets[text.sentences.index(ev.best_sentence)]) >= cut
        scores = [score for _, score in ev.sentences]
        assert scores[LIST_QUOTE_SHORTLIST:] == [min(scores)] * len(scores[LIST_QUOTE_SHORTLIST:])


def test_fusion_keeps_each_retrievers_top_ten(seeded):
    question = "birth-weight of tensor-product layers under distribution shift"
    snap = seeded.catalog.snapshot()
    vec = seeded.embedder.embed([question])[0]
    hits = seeded.retriever.search(question, k=3, vector=vec, snapshot=snap, each=10)
    ids = {h.paper_id for h in hits}
    assert {pid for pid, _ in snap.search(question, 10)} <= ids
    assert {pid for pid, _ in seeded.retriever.dense(vec, 10, snapshot=snap)} <= ids


def test_related_papers_are_shown_apart_never_cited(seeded):
    ans = seeded.ask("Which papers concern quantization?")
    cited = {c.paper_id for c in ans.citations}
    assert not cited & {r.paper_id for r in ans.related}
    if ans.related:
        assert "Related, but weaker matches (not cited)" in ans.text


def test_shipped_model_matches_the_features_and_its_reference_evaluator():
    raw = json.loads(MODEL.read_text())
    assert tuple(raw["features"]) == FEATURES
    model = RelevanceModel.from_dict(raw)
    assert 0 < model.related <= model.cite < 1 and len(model.trees) > 10
    # The numpy evaluator against a plain recursive walk of the same trees (reference).
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, len(FEATURES)))
    x[3, 2] = np.nan

    def walk(tree: dict, row: np.ndarray, i: int = 0) -> float:
        f = tree["feature"][i]
        if f < 0:
            return float(tree["value"][i])
        v = row[f]
        left = tree["default_left"][i] if np.isnan(v) else v <= tree["threshold"][i]
        return walk(tree, row, tree["left"][i] if left else tree["right"][i])

    want = 1 / (1 + np.exp(-np.array([sum(walk(t, row) for t in raw["trees"]) for row in x])))
    assert np.allclose(model.probability(x), want, atol=1e-12)
    other = dict(raw, features=list(FEATURES[::-1]))
    with pytest.raises(ValueError, match="retrain"):
        RelevanceModel.from_dict(other)
    assert isinstance(model.trees[0], Tree)


def _scored(supports: list[float]):
    """A list question's candidates with the given probabilities, most likely first."""
    from paperscope.records import Evidence, Paper
    from paperscope.relevance import Scored
    from paperscope.relevance.features import QuestionVectors

    q = analyze("Which papers study event cameras?", _flat_idf)
    papers = [Paper(paper_id=f"p{i}", title=f"Paper {i}", abstract="An abstract.") for i in range(len(supports))]
    vec = np.zeros(4, np.float32)
    return Scored(q, QuestionVectors(vec, vec, ()), [Evidence(i + 1, p, s, []) for i, (p, s) in enumerate(zip(papers, supports))])


def test_list_reaches_below_the_cite_threshold_only_when_ask_would_answer():
    from paperscope.relevance.decision import decide

    answered = _scored([0.9, 0.5, 0.3, 0.15, 0.05])
    ids = lambda d: [ev.paper.paper_id for ev in d.cited]  # noqa: E731
    assert ids(decide(answered, 0.55, 0.1, None)) == ["p0"]  # ask: the cite threshold
    assert ids(decide(answered, 0.55, 0.1, None, every=True)) == ["p0"]  # no list threshold: the same
    assert ids(decide(answered, 0.55, 0.1, None, every=True, listing=0.2)) == ["p0", "p1", "p2"]
    # No paper reaches the cite threshold: the list abstains as `ask` does, however many are near it.
    weak = _scored([0.5, 0.45, 0.3])
    assert decide(weak, 0.55, 0.1, None, every=True, listing=0.2).abstain
    assert decide(weak, 0.55, 0.1, None).abstain
    # A list threshold above the cite threshold never narrows a list.
    assert ids(decide(answered, 0.55, 0.1, None, every=True, listing=0.8)) == ["p0"]


def test_abstention_says_parts_are_in_different_papers_only_when_no_paper_has_them_all():
    from paperscope.relevance.decision import decide

    weak = _scored([0.5, 0.45])
    whole = {"p0": {"event", "camera", "event camera"}, "p1": {"event"}}  # words, and the phrase as a pair
    d = decide(weak, 0.55, 0.1, None, covered=lambda ev: whole[ev.paper.paper_id])
    assert d.abstain and not d.uncovered and not d.partial
    split = {"p0": {"event", "event camera"}, "p1": {"camera"}}
    d = decide(weak, 0.55, 0.1, None, covered=lambda ev: split[ev.paper.paper_id])
    assert d.abstain and not d.uncovered and d.partial
    missing = {"p0": {"event"}, "p1": {"event"}}
    d = decide(weak, 0.55, 0.1, None, covered=lambda ev: missing[ev.paper.paper_id])
    assert d.abstain and d.uncovered and not d.partial


def test_shipped_list_threshold_was_measured_on_held_out_list_questions():
    model = RelevanceModel.from_dict(json.loads(MODEL.read_text()))
    held = model.info["held_out"]["deep_as_listed"]
    assert model.related <= model.listing <= model.cite
    assert held["list"] == model.listing and held["questions"] >= 100 and held["precision"] >= 0.85


def test_question_side_acronym_coverage_equals_expanding_each_paper(seeded):
    """`Cover` checks the question's concepts against a paper's raw set; it must say exactly what
    expanding the set with the library's acronyms (both ways) and then checking would."""
    from paperscope.relevance.features import Cover, covered_groups

    snap = seeded.catalog.snapshot()
    acronyms = snap.acronyms
    assert acronyms.table  # the seeds define MoE, LLM, ...
    checked = 0
    for question in ("Which papers address MoE latency?", "Which papers reduce mixture of experts inference cost?",
                     "Any work on LLMs?", "Which papers study large language model agents?"):
        c = seeded.candidates(question, snap)
        cover = Cover(c.question, acronyms)
        for hit in c.hits:
            text = seeded.relevance.texts.get(hit.paper)
            for found in (text.all, text.title, text.head, *text.sent_sets):
                assert cover.hits(found) == covered_groups(c.question, acronyms.expand(found))
                checked += 1
    assert checked > 200


def _topic_library(tmp_path, topic_id: str, gold_papers: int | None = None, others: int = 60):
    """A library of a list-all topic's papers in the shared corpus (the first `gold_papers`) among
    `others` off-topic ones: (Assistant, the topic's gold ids, the records). Skips without ../shared."""
    from conftest import need
    from paperscope.bench.corpus import sample, write_jsonl
    from paperscope.bench.listall import load_topics

    corpus = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
    need(corpus.exists(), f"shared corpus missing at {corpus}")
    topic, = [t for t in load_topics() if t["id"] == topic_id]
    gold = set(topic["gold_85k"])
    recs = sample(corpus, None)
    papers = [r for r in recs if r["id"] in gold][:gold_papers] + [r for r in recs if r["id"] not in gold][:others]
    a = Assistant.open(tmp_path / "data")
    a.ingest([write_jsonl(papers, tmp_path / "papers.jsonl")])
    return a, gold, papers


def test_find_all_asks_an_acronym_question_also_spelled_out(tmp_path, monkeypatch):
    """"Is there work on SVGD?" lists the papers that write only "Stein variational gradient
    descent": find_all also asks the question with the library's acronyms spelled out and keeps
    each paper's better probability (asked with the acronym alone, BM25 and the sentence-mention
    features see "SVGD" only, and those papers fell below the list threshold)."""
    from paperscope.text.acronyms import Acronyms

    a, gold, papers = _topic_library(tmp_path, "stein_variational_gradient_descent")
    only_expansion = {r["id"] for r in papers if r["id"] in gold
                      and "svgd" not in (r["title"] + " " + r["abstract"]).lower()}
    assert len(only_expansion) >= 3  # the data this test is about

    def listed(question: str) -> set[str]:
        return {c.paper_id for c in a.find_all(question).citations}

    spelled_question = listed("Is there work on Stein variational gradient descent?")
    both = listed("Is there work on SVGD?")
    assert spelled_question & only_expansion  # what the twin question brings
    assert spelled_question & only_expansion <= both
    monkeypatch.setattr(Acronyms, "spelled", lambda self, text: None)
    assert not (spelled_question & only_expansion) <= listed("Is there work on SVGD?")  # without it: lost


def test_a_hyphenated_compound_is_one_phrase_across_its_stopword():
    """"text-to-SQL" is the phrase text~sql, as "mixture of experts" is mixtur~expert; written
    apart ("text to SQL") the stopword still breaks it. Without the phrase, papers titled
    "...Text-to-SQL..." scored .06-.59 (20,000 papers), below the list threshold."""
    idf = lambda stems: {}  # noqa: E731
    assert analyze("Which papers address text-to-SQL?", idf).phrases == (("text", "sql"),)
    assert analyze("Which papers tackle peg-in-hole insertion?", idf).phrases == (("peg", "hole"), ("hole", "insert"))
    assert analyze("Which papers convert text to SQL?", idf).phrases == (("convert", "text"),)
    assert analyze("Which papers use mixture of experts?", idf).phrases == (("mixtur", "expert"),)


def test_find_all_reads_deeper_only_for_a_large_topic(seeded, monkeypatch):
    """find_all reads each retriever FIND_ALL_FIRST_DEPTH deep and all FIND_ALL_DEPTH only when a
    paper it would list sits in the lower half of that; then it lists what the deep read lists.
    (Over the seeds, a first depth of 4 stands in for 250 at 85,864 papers.)"""
    import paperscope.gather as gather

    question = "Which papers address large language models?"
    full = [c.paper_id for c in seeded.find_all(question).citations]
    assert len(full) > 3
    depths: list[int | None] = []
    real = gather.Gatherer.candidates

    def spy(self, *args, **kwargs):
        depths.append(kwargs.get("depth"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(gather.Gatherer, "candidates", spy)
    monkeypatch.setattr(gather, "FIND_ALL_FIRST_DEPTH", 4)
    assert [c.paper_id for c in seeded.find_all(question).citations] == full
    # Each wording of the question (here also "... address LLM?", the library's acronym) is read
    # at 4, then all of them deep: listed papers sat below rank 2.
    half = len(depths) // 2
    assert depths == [4] * half + [gather.FIND_ALL_DEPTH] * half and half >= 1
    depths.clear()
    monkeypatch.setattr(gather, "FIND_ALL_FIRST_DEPTH", 30)
    assert [c.paper_id for c in seeded.find_all(question).citations] == full
    assert set(depths) == {30}  # everything listed ranks in the top 15 of a retriever: no second read


def test_find_all_reads_ranks_at_the_scale_of_the_library_the_model_was_fitted_on(seeded, monkeypatch):
    """A topic holds more papers in a larger library, so find_all reads ranks scaled to the
    largest library the model was fitted on (at 85,864 papers rank 200 reads as 47); `ask` reads
    them as they are (the paper answering a specific question ranks near the top at any size).
    Over the seeds a fitted size of 10 stands in for 20,000 at 85,864."""
    import math

    import paperscope.relevance.features as features

    question = "Which papers address large language models?"
    before = seeded.ask(question)
    monkeypatch.setattr(features, "FITTED_LIBRARY", 10)
    assert features.rank_scale(38) == 10 / 38 and features.rank_scale(8) == 1.0
    snap = seeded.catalog.snapshot()
    c = seeded.candidates(question, snap, deep=True)
    plain = seeded.relevance.rows(c.question, c.vectors, c.hits, snap, c.chunk_vectors)
    topic = seeded.relevance.rows(c.question, c.vectors, c.hits, snap, c.chunk_vectors, topic=True)

    def read(r, scale, best=features.RANK_CAP):
        return math.log(min(max(1.0, r * scale) if r else features.RANK_CAP, features.RANK_CAP, best))

    assert any(h.bm25_rank and h.bm25_rank > 4 for h in c.hits)
    cover = features.Cover(c.question, snap.acronyms)
    for p, t, h in zip(plain, topic, c.hits):
        best = features.TITLE_RANK if features.states_topic(c.question, cover, seeded.relevance.texts.get(h.paper)) \
            else features.RANK_CAP
        assert p["b_rank"] == read(h.bm25_rank, 1.0) and p["d_rank"] == read(h.dense_rank, 1.0)
        assert t["b_rank"] == read(h.bm25_rank, 10 / 38, best) and t["d_rank"] == read(h.dense_rank, 10 / 38, best)
    after = seeded.ask(question)
    assert [x.paper_id for x in after.citations] == [x.paper_id for x in before.citations]


def test_a_title_that_states_the_topic_reads_as_a_top_rank_in_a_list():
    """find_all reads a paper whose title states the question's topic as ranked at most
    TITLE_RANK (a topic of 65 papers fills ranks 1-80, and the model read rank 60 as a tail
    paper); the title must carry TITLE_TOPIC of the question's weight, with the question's
    phrases together. `ask` reads ranks as they are."""
    from paperscope.records import Paper
    from paperscope.relevance.features import Cover, PaperText, states_topic
    from paperscope.text.acronyms import Acronyms

    q = analyze("Which papers are about exoskeleton robots?",
                lambda stems: {s: 6.0 if s.startswith("exoskelet") else 1.0 for s in stems})

    def states(question, title):
        return states_topic(question, Cover(question, Acronyms({})), PaperText(Paper(paper_id="p", title=title,
                                                                                     abstract="An abstract.")))

    assert states(q, "A Low-Profile Hip Exoskeleton for Pathological Gait Assistance")  # "robots" is light
    assert not states(q, "Robots that Walk on Rough Terrain")
    nerf = analyze("Which papers use neural radiance fields?", _flat_idf)
    assert states(nerf, "Neural Radiance Fields for Dynamic Scenes")
    assert not states(nerf, "Neural Fields for Radiance Transfer")  # the words, not the phrase


def test_find_all_lists_a_large_topics_titled_papers_at_any_rank(seeded, monkeypatch):
    """Over the seeds, the titled papers of a question's topic get their ranks capped in
    find_all's rows only; the other papers score as before."""
    import paperscope.relevance.features as features

    question = "Which papers address large language models?"
    snap = seeded.catalog.snapshot()
    c = seeded.candidates(question, snap, deep=True)
    cover = features.Cover(c.question, snap.acronyms)
    titled = [features.states_topic(c.question, cover, seeded.relevance.texts.get(h.paper)) for h in c.hits]
    assert any(titled) and not all(titled)
    with_rule = seeded.relevance.score(c.question, c.vectors, c.hits, snap, c.chunk_vectors, topic=True)
    monkeypatch.setattr(features, "TITLE_RANK", features.RANK_CAP)
    import paperscope.relevance as relevance
    monkeypatch.setattr(relevance, "TITLE_RANK", features.RANK_CAP)
    without = seeded.relevance.score(c.question, c.vectors, c.hits, snap, c.chunk_vectors, topic=True)
    p_with = {ev.paper.paper_id: ev.support for ev in with_rule.evidence}
    p_without = {ev.paper.paper_id: ev.support for ev in without.evidence}
    changed = [h.paper_id for h, t in zip(c.hits, titled) if t and p_with[h.paper_id] != p_without[h.paper_id]]
    assert changed  # some titled paper read deeper than TITLE_RANK before
    assert sum(p_with[pid] for pid in changed) > sum(p_without[pid] for pid in changed)
    assert all(p_with[h.paper_id] == p_without[h.paper_id] for h, t in zip(c.hits, titled) if not t)


def test_an_adjective_made_from_a_name_covers_the_name():
    """"PAC-Bayesian" covers a question's "PAC-Bayes" (and the phrase pac~bayes), "Markovian" covers
    "Markov", both ways; Snowball stems "bayes" to "bay", so before, a paper titled "PAC-Bayesian
    ..." missed the question's main word. Short words ("median") keep their own concept."""
    from paperscope.relevance.features import Cover, _phrase_share, base_concept, concepts_of, stems
    from paperscope.text.acronyms import Acronyms

    idf = lambda stems: {}  # noqa: E731
    for question, paper in (("Which papers prove PAC-Bayes bounds?", "PAC-Bayesian bounds on graph diffusion"),
                            ("Which papers prove PAC-Bayesian bounds?", "Tighter PAC-Bayes bounds through coin-betting"),
                            ("Is there work on Markov decision processes?", "Non-Markovian decision processes"),
                            ("Which papers use Euclidean distances?", "Euclid distances in embeddings")):
        q = analyze(question, idf)
        paper_stems = stems(paper)
        assert all(Cover(q, Acronyms()).hits(concepts_of(paper_stems))), (question, paper)
        assert _phrase_share(q, [base_concept(s) for s in paper_stems]) == 1.0, (question, paper)
    assert concepts_of(stems("median")) == {"median"}  # a short word keeps its own concept


def test_find_all_lists_pac_bayesian_papers_for_a_pac_bayes_question(tmp_path, monkeypatch):
    """Over the PAC-Bayes papers of the corpus among 60 others, "Which papers prove PAC-Bayes
    bounds?" lists papers that write only "PAC-Bayesian"; read as before (no name concept
    for "Bayesian"), fewer of them are listed (at 20,000 papers 2 of 8 were)."""
    from paperscope.relevance import features

    a, gold, papers = _topic_library(tmp_path, "pac_bayes", 30)
    adjective_only = {r["id"] for r in papers if r["id"] in gold
                      and "pac-bayes " not in (r["title"] + " " + r["abstract"]).lower().replace("pac-bayes-", "pac-bayes ")
                      and "pac-bayesian" in (r["title"] + " " + r["abstract"]).lower()}
    assert len(adjective_only) >= 5  # the data this test is about

    def listed() -> set[str]:
        return {c.paper_id for c in a.find_all("Which papers prove PAC-Bayes bounds?").citations} & adjective_only

    now = listed()
    assert len(now) >= 3
    features._name_concept.cache_clear()
    monkeypatch.setattr(features, "_name_concept", lambda stem: stem[:7])
    a.relevance.texts = features.TextCache()  # paper texts were read with the name concepts
    assert len(listed()) < len(now)


def test_word_families_snowball_leaves_apart_cover_each_other():
    """"privacy-preserving" is covered by a paper on "differentially private" learning, "point set
    registration" by "registering point sets", "detection" by "detectors": stems Snowball leaves
    apart (privaci/privat, registr/regist, detecto/detect) that share 5+ letters, differ in a short
    tail and that the corpus uses alike. Words that merely share letters stay apart."""
    from paperscope.relevance.features import Cover, _phrase_share, base_concept, concepts_of, stems, word_families
    from paperscope.text.acronyms import Acronyms

    idf = lambda stems: {}  # noqa: E731
    for question, paper in (("Which papers study privacy-preserving federated learning?",
                             "Differentially private federated learning preserving utility"),
                            ("Which papers do point set registration?", "Registering point sets with outliers"),
                            ("Any work on object detection?", "Faster object detectors"),
                            ("Which papers explain model predictions?", "Explanations of model predictions")):
        q = analyze(question, idf)
        assert all(Cover(q, Acronyms()).hits(concepts_of(stems(paper)))), (question, paper)
    q = analyze("Which papers do point set registration?", idf)
    assert _phrase_share(q, [base_concept(s) for s in stems("point set registering")]) > 0
    families = word_families()
    for a, b in (("compress", "comprehens"), ("converg", "convex"), ("generat", "generalis"), ("graph", "graphic")):
        assert families.get(a, a[:7]) != families.get(b, b[:7]), (a, b)


def test_quote_features_read_the_asked_part_not_the_papers_name():
    """A factoid question names its paper (words of the title) and asks something about it: the
    sentence features that pick the quote count the other words (`s_rest`, softly `s_soft_rest`),
    and for "how many X" a number standing before X (`s_num_near`), not any number."""
    from paperscope.relevance.question import analyze
    from paperscope.relevance.quotes import SENTENCE_FEATURES, sentence_features

    def ask(question: str):
        return analyze(question, lambda words: dict.fromkeys(words, 1.0), scaffolding=False)

    sents = ["Sparse routing for mixture-of-experts inference balances the load of experts across devices.",
             "We demonstrate sparse routing on Graphcore accelerators and measure its throughput.",
             "We vary model parameters from 80M to 1B and train 63 models in total."]
    title = "Sparse Routing for Mixture-of-Experts Inference"
    col = {name: i for i, name in enumerate(SENTENCE_FEATURES)}
    vecs = np.eye(len(sents), 4, dtype=np.float32)
    qvec = np.ones(4, np.float32) / 2

    q = ask("What hardware was sparse routing for mixture-of-experts inference demonstrated on?")
    f = sentence_features(q, qvec, sents, vecs, title=title)
    assert f[1, col["s_rest"]] > f[0, col["s_rest"]]  # "hardware"/"demonstrated", not the title's words
    assert f[0, col["s_cov"]] > f[1, col["s_cov"]]  # while plain coverage favours the restated title
    without_title = sentence_features(q, qvec, sents, vecs)
    assert without_title[0, col["s_rest"]] > f[0, col["s_rest"]]

    q = ask("How many models were trained for sparse routing?")
    f = sentence_features(q, qvec, ["We vary model parameters from 80M to 1B.", "Training covers 63 models."], vecs[:2],
                          title=title)
    assert f[:, col["s_num_near"]].tolist() == [0.0, 1.0]


def test_factoid_quote_answers_what_the_title_does_not_already_say(seeded, tmp_path):
    """Asked about a paper by its title's words, the quote is the sentence with what is asked
    (the hardware, the count), not the sentence restating the title."""
    from paperscope.bench.corpus import write_jsonl

    paper = {"id": "sparse-routing", "title": "Sparse Expert Routing for Fast Mixture-of-Experts Inference",
             "authors": ["A. Author"], "venue": "ICML", "year": 2025, "abstract": (
                 "Mixture-of-experts inference is slow when routing sends most tokens to a few experts. "
                 "We propose sparse expert routing for fast mixture-of-experts inference, which balances tokens "
                 "across experts with a learned capacity controller. "
                 "Sparse expert routing cuts mixture-of-experts inference latency while keeping accuracy. "
                 "We evaluate it on 14 language modelling benchmarks and train 36 models from 100M to 3B parameters. "
                 "Demonstrated on Graphcore IPU systems, the method serves 2.1 times more requests per second.")}
    seeded.ingest([write_jsonl([paper], tmp_path / "paper.jsonl")])
    for question, answer in (
            ("What hardware was sparse expert routing for fast mixture-of-experts inference demonstrated on?",
             "Graphcore"),
            ("How many models were trained for sparse expert routing in mixture-of-experts inference?", "36 models")):
        ans = seeded.ask(question)
        assert ans.citations and ans.citations[0].paper_id == "sparse-routing", ans.text
        assert answer in ans.citations[0].quote, (question, ans.citations[0].quote)


def _hit(i: int, title: str, dense_rank: int | None):
    from paperscope.records import Hit, Paper

    pid = f"p{i}"
    return Hit(paper_id=pid, title=title, score=0.0, dense_rank=dense_rank,
               paper=Paper(paper_id=pid, title=title, abstract="An abstract."))


def test_library_phrase_is_the_specific_title_name_the_nearest_papers_share():
    """The library's name for a described topic: a 2-3 word title phrase that at least 3 of the
    10 densest-ranked candidates share, that adds a word the question lacks, and, of those, the
    one fewest candidate titles carry ("Point Cloud Registration", not the broader "Point
    Cloud"). A phrase of fewer titles, or one that only repeats the question, is no name."""
    from paperscope.relevance.library_terms import library_phrases, title_phrases

    idf = lambda stems: {s: 1.0 for s in stems}  # noqa: E731
    # Hyphenated names are phrases, written as in the title; no phrase crosses a colon.
    phrases = title_phrases("Peg-in-Hole Insertion: Sparse Mixture-of-Experts")
    assert phrases[("peg", "in", "hole")] == "Peg-in-Hole" and phrases[("mixtur", "of", "expert")] == "Mixture-of-Experts"
    assert ("insert", "spars") not in phrases
    near = ["Robust Point Cloud Registration with Outliers", "Deep Point Cloud Registration",
            "Point Cloud Registration by Learned Features", "Fast Point Cloud Registration for Robots",
            "Point Cloud Segmentation for Driving", "Mixed Precision Training", "A Study of Dropout",
            "Graph Attention Networks", "Point Cloud Upsampling", "Bayesian Optimization at Scale"]
    far = [f"Point Cloud Completion {i}" for i in range(20)]  # the broad phrase, all around the topic
    hits = [_hit(i, t, i + 1) for i, t in enumerate(near)] + [_hit(100 + i, t, None) for i, t in enumerate(far)]
    q = analyze("List everything about registering point sets.", idf)
    # The most specific first; the broader phrases follow, for when the specific one is not close
    # enough to the question (`Gatherer._named` asks the first that is).
    assert library_phrases(q, hits) == ["Point Cloud Registration", "Point Cloud"]
    # The titles only repeat what is asked: nothing to add.
    assert library_phrases(analyze("Which papers do point cloud registration?", idf), hits) == []
    # Two titles are two papers, not a topic's name.
    others = ["Mixed Precision Training", "A Study of Dropout", "Graph Attention Networks", "Bayesian Optimization at Scale",
              "Neural Machine Translation", "Protein Folding Models", "Music Generation", "Speech Enhancement",
              "Image Super Resolution", "Federated Averaging"]
    two = [_hit(i, t, i + 1) for i, t in enumerate(near[:2] + others)]
    assert library_phrases(q, two) == []
    # Only the densest-ranked ten are read: the same titles further down name nothing.
    late = [_hit(i, t, 50 + i) for i, t in enumerate(near[:4])] + [_hit(10 + i, t, i + 1) for i, t in enumerate(others)]
    assert library_phrases(q, late) == []
    # The question's own words are the nearest titles' commonest phrase: it already names the topic.
    own = [_hit(i, t, i + 1) for i, t in enumerate(near[:4] + ["Registering Point Sets Quickly"] * 5 + others[:1])]
    assert library_phrases(q, own) == []


def test_find_all_also_asks_by_the_librarys_name_for_a_described_topic(tmp_path, monkeypatch):
    """"List everything about crowd density estimation." over the crowd-counting papers of the
    corpus among 60 others: the nearest papers' titles name the topic "Crowd Counting", find_all
    also asks by that name, lists papers that never write "density", and says so in its heading.
    A name whose papers are not among the question's own nearest is not trusted."""
    from paperscope import gather

    a, gold, papers = _topic_library(tmp_path, "crowd_counting", 30)
    # The name is sought in libraries of NAMED_MIN_LIBRARY papers and more; here the question's
    # nearest 40 stand for a large library's nearest 100.
    monkeypatch.setattr(gather, "NAMED_MIN_LIBRARY", 0)
    monkeypatch.setattr(gather, "NAMED_NEAR", 40)
    no_density = {r["id"] for r in papers if r["id"] in gold and "densit" not in (r["title"] + r["abstract"]).lower()}
    assert len(no_density) >= 3  # the data this test is about
    question = "List everything about crowd density estimation."

    answer = a.find_all(question)
    listed = {c.paper_id for c in answer.citations}
    assert "also searched as \u201cCrowd Counting\u201d" in answer.text.splitlines()[0]
    assert len(listed & no_density) >= 3
    assert len(listed - gold) <= 2  # what the name adds is on the topic
    # Without the name: those papers are not listed.
    monkeypatch.setattr(gather, "library_phrases", lambda q, hits: [])
    plain = {c.paper_id for c in a.find_all(question).citations}
    assert not (listed & no_density) <= plain
    # A name far in meaning from the question is not asked; one whose papers are not among the
    # question's own nearest (here its 5 nearest) is not trusted; nor any in a small library.
    monkeypatch.setattr(gather, "library_phrases", lambda q, hits: ["Bipedal Walking"])
    for similar, near in ((gather.NAMED_SIMILAR, gather.NAMED_NEAR), (-1.0, 5)):
        monkeypatch.setattr(gather, "NAMED_SIMILAR", similar)
        monkeypatch.setattr(gather, "NAMED_NEAR", near)
        far = a.find_all(question)
        assert "also searched" not in far.text.splitlines()[0]
        assert {c.paper_id for c in far.citations} == plain
    monkeypatch.setattr(gather, "library_phrases", lambda q, hits: ["Crowd Counting"])
    monkeypatch.setattr(gather, "NAMED_MIN_LIBRARY", len(papers) + 1)
    assert {c.paper_id for c in a.find_all(question).citations} == plain


def test_an_expansion_the_library_defines_is_also_asked_as_its_acronym(seeded, monkeypatch):
    """SLiM's abstract writes only "LLMs": for "Which papers deal with large language models?"
    BM25, phrases and sentence mentions saw the expansion alone and it scored ~0.01. The question
    is also asked with the library's acronym, each paper at its better probability."""
    from paperscope.text.acronyms import Acronyms

    lib = Acronyms.learn(["Large language models (LLMs) are big.", "We study large language models (LLMs).",
                          "A mixture of experts (MoE) routes tokens.", "Sparse mixture of experts (MoE) layers."])
    assert lib.abbreviated("Which papers deal with large language models in some way?") == \
        "Which papers deal with LLM in some way?"
    assert lib.abbreviated("Which papers address mixture of experts latency?") == "Which papers address MOE latency?"
    assert lib.abbreviated("Which papers use flow matching?") is None
    assert lib.abbreviated("Which papers use large models?") is None  # part of an expansion is not one

    question = "Which papers deal with large language models in some way?"
    snapshot = seeded.catalog.snapshot()

    def slim() -> float:
        scored = seeded.scored(question, snapshot)
        return next(ev.support for ev in scored.evidence if ev.paper.title.startswith("SLiM"))

    now = slim()
    monkeypatch.setattr(type(snapshot.acronyms), "abbreviated", lambda self, text: None)
    assert slim() < 0.1 < now


def test_an_acronym_a_paper_spells_out_otherwise_is_not_the_librarys():
    """Where the library writes MoE for mixture of experts, a paper on "MoE (Monitoring
    Ethereum)" covers neither "MoE" nor "experts" (at 20,000 papers plus the seeds it was listed
    for "Which papers address MoE latency?"); a paper that spells out "Mixture of Experts (MoE)"
    covers "MoE" even where only its title says it, and one that never spells it out still does."""
    from paperscope.records import Paper
    from paperscope.relevance.features import Cover, PaperText
    from paperscope.text.acronyms import Acronyms, own_acronyms

    assert own_acronyms("a framework, MoE (Monitoring Ethereum), that") == {"moe": {"monitor", "ethereu"}}
    assert own_acronyms("Sparse Mixture-of-Experts (MoE) models") == {"moe": {"mixtur", "expert"}}
    acronyms = Acronyms.learn(["Mixture of Experts (MoE) layers", "a Mixture-of-Experts (MoE) model"], min_count=1)

    def paper(title: str, abstract: str) -> PaperText:
        return PaperText(Paper(paper_id=title, title=title, abstract=abstract, source="t", position=1))

    moe = Cover(analyze("Which papers address MoE latency?", _flat_idf), acronyms)
    experts = Cover(analyze("Which papers address the latency of mixture of experts?", _flat_idf), acronyms)
    ethereum = paper("Runtime monitoring of attacks", "We present MoE (Monitoring Ethereum), a framework. "
                     "MoE detects attacks with low latency.")
    assert moe.hits(ethereum.all) == [False, True] and not all(experts.hits(ethereum.all))
    slim = paper("SlimMoE: compressing MoE models for low latency", "The Mixture of Experts (MoE) architecture scales.")
    assert all(moe.hits(slim.title)) and all(moe.hits(slim.all))
    plain = paper("Faster MoE inference", "We cut the latency of MoE layers.")
    assert all(moe.hits(plain.all)) and all(experts.hits(plain.all))
    # A misspelt spelling-out that shares most of the library's expansion is still its meaning.
    typo = paper("Faster MoE inference", "A new Mixture of Expertss (MoE) cuts latency.")
    assert all(moe.hits(typo.all))


def test_a_comparison_cites_each_paper_it_names(seeded):
    from paperscope.records import Evidence, Paper
    from paperscope.relevance.decision import compared

    def ev(title: str, support: float) -> Evidence:
        return Evidence(1, Paper(paper_id=title[:6], title=title, abstract="x"), support, [])

    pool = [ev("LocMoE: A Low-overhead MoE", 0.2), ev("Oracle-MoE: Locality-preserving Routing", 0.3),
            ev("Mixture of Experts for LocMoE fans", 0.9), ev("Zero-shot: a title", 0.8)]
    assert [e.paper.title[:6] for e in compared("Compare LocMoE and Oracle-MoE", pool)] == ["Oracle", "LocMoE"]
    assert compared("Which papers use LocMoE and Oracle-MoE?", pool) == []  # no comparison asked
    assert compared("Compare zero-shot and LLMs", pool) == []  # not names
    # Over the seeds: both papers cited, each quoted for what it is.
    answer = seeded.ask("What is the difference between Oracle-MoE and GraphGPT?")
    titles = [c.title.split(":")[0] for c in answer.citations]
    assert sorted(titles) == ["GraphGPT", "Oracle-MoE"]
    assert all(any(w in c.quote.lower() for w in ("propose", "introduce")) for c in answer.citations)
    # Asking for a quantity, the quote is the rankers' (the number), not the introduction.
    from paperscope.relevance.quotes import introduced_first
    sentences = ["We propose Oracle-MoE, a routing scheme.", "Latency drops 2x against GraphGPT."]
    q = analyze("By how much does Oracle-MoE cut latency compared to GraphGPT?", _flat_idf, scaffolding=False)
    assert list(introduced_first(q, sentences, range(2), np.array([0.0, 1.0]))) == [0.0, 1.0]
    # A claim comparing named things is a statement: its finding is quoted, not an introduction.
    claim = analyze("ScPif1p binds less G-rich ssDNA compared to RecQ1.", _flat_idf, scaffolding=False)
    assert list(introduced_first(claim, sentences, range(2), np.array([0.0, 1.0]))) == [0.0, 1.0]


def test_a_comparison_says_which_named_paper_the_library_lacks(seeded):
    """"Compare LocMoE and Oracle-MoE" over the seeds (no LocMoE there) cited Oracle-MoE and said
    nothing of LocMoE; it now says the library holds no paper named LocMoE, in Chinese too."""
    answer = seeded.ask("Compare LocMoE and Oracle-MoE")
    assert [c.title.split(":")[0] for c in answer.citations] == ["Oracle-MoE"]
    assert "No paper in the library is named \u201cLocMoE\u201d" in answer.text
    zh = seeded.ask("比较 LocMoE 和 Oracle-MoE")
    assert "库中没有名为“LocMoE”的论文" in zh.text
    both = seeded.ask("What is the difference between Oracle-MoE and GraphGPT?")  # both held: nothing said
    assert "No paper in the library is named" not in both.text


def test_chinese_comparison_and_what_is_questions(seeded):
    from paperscope.text.zh import runs

    # jieba cuts "Oracle-MoE" at its hyphen; the name stays whole, as an English question reads it.
    assert runs("比较 Oracle-MoE 和 GraphGPT") == [["比较"], "Oracle-MoE", "GraphGPT"]
    answer = seeded.ask("比较 Oracle-MoE 和 GraphGPT")
    assert sorted(c.title.split(":")[0] for c in answer.citations) == ["GraphGPT", "Oracle-MoE"]
    what = seeded.ask("GAPrompt 是什么？")
    assert what.citations and "propose" in what.citations[0].quote  # its introduction, not its results
