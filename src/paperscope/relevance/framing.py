"""What in a question is framing, not topic, and the question's kind (`question.analyze` uses both).

- The asker's request to the assistant ("Recommend papers on X", "Point me to work on X", "What
  should I read on X?", "Summarize the work on X") and situation ("For my thesis on X", "A colleague
  asked me whether anyone has published on X", "references for a related-work section"): their
  words are rare in abstracts, so read as topic they weighed most of the question.
- Field frames: "What are recent approaches to X?", "Who has worked on X?", "Where can I find work
  on X?", "How do researchers approach X?", "Is X covered by any paper here?", "Give me an overview
  of the papers on X" ask for the field's papers (a list question), and their words are framing.
- Kind: `factoid` (a number, name or detail: "How many ...", "Which loss does X use", also inside a
  request: "Tell me how much faster ..."), `list` ("Which papers ...", "Is there work on ...", a
  request, a search-box query), else `other` (claims, statements).
Each rule reads a word as framing only in its place ("a student model", "a Gaussian prior", "Point
cloud registration", "reading list generation" stay topics). Measured by `paperscope bench
--sections phrasings` (the same questions in 60 wordings) and docs/measurements.md (2026-12-06).
Leaves out: any syntax beyond these patterns; Chinese (its framing is `text.zh`'s).
"""

from __future__ import annotations

import re

# Switches for measuring the rules against the question analysis without them (same run).
REQUESTS = True
WHAT_LIST = True

# A question asked inside a request ("Tell me how much faster X decodes", "Do you know which loss
# X uses?", "I'd like to know what ...") asks what its own question word asks.
_WH = re.compile(r"^\s*(?:(?:please\s+)?(?:tell|show)\s+me|(?:can|could|would)\s+you\s+(?:please\s+)?(?:tell|show)\s+me|"
                 r"do\s+you\s+(?:happen\s+to\s+)?know|i\s+(?:was\s+|am\s+|'m\s+)?wondering|i\s+wonder|"
                 r"i(?:'d|\s+would)\s+like\s+to\s+know|i\s+(?:want|need)\s+to\s+know)?\s*"
                 r"(how|what|which|who|whose|when|where|by how much|to what|besides|according|out of|after)\b", re.I)
_LIST_HEAD = re.compile(r"^\s*((which|what) (papers?|works?|research|studies|articles|publications|literature)\b"
                        # "Which quantization papers use lattices?", "Which NeRF papers ...?": a list too.
                        r"|(?:which|what) (?:(?!(?:do|does|did|is|are|was|were|can|could|would|should|has|have|of|"
                        r"kind|sort|type)\b)[\w-]+ ){1,3}(?:papers|works|studies|articles|publications)\b"
                        r"|which (?:ones|of (?:the|these|those|your|them)(?: papers| ones)?)\b"
                        r"|what(?:'s|\s+has|\s+have)\s+been\s+(?:done|published|written|carried\s+out)"
                        r"|what (research|work|literature) exists)", re.I)
# "What" questions that ask for a field's work, not a detail of one paper: "What are recent
# approaches to LLM quantization?", "What methods exist for speeding up inference?", "What's the
# state of the art in X?", "What's known about X?" (each cited one paper, as a factoid question
# does). Not when an auxiliary puts a paper as the subject ("What techniques does SLiM combine?")
# or the question points at a paper ("the X paper", "they", "its").
_WHAT_LIST = re.compile(
    r"^\s*what(?:'s|\s+is|\s+are|\s+were)?\s+(?:the\s+|some\s+(?:of\s+the\s+)?)?(?:(?:most\s+)?(?:recent|latest|main|current|"
    r"existing|common|popular|different|key|major|notable|important|promising|new|emerging|standard|typical|various|"
    r"leading|best|prominent|other|alternative)\s+)*(?:approaches|methods|techniques|advances|solutions|ways|strategies|"
    r"algorithms|directions|developments|trends|lines of (?:work|research)|works|papers|studies|options|alternatives|"
    r"tools|frameworks|ideas|models|architectures)\b"
    # "What's the best paper on X?", "What's a good starting point for X?": one paper, but any of the field's
    r"|^\s*what(?:'s|\s+is|\s+are|\s+would\s+be)?\s+(?:the|a|an|some)\s+(?:(?:most\s+)?(?:best|good|great|key|main|"
    r"important|influential|essential|seminal|classic|standard|first|recommended|useful|canonical|representative)\s+)+"
    r"(?:paper|work|study|article|reference|read|reading|introduction|starting\s+point|place\s+to\s+start|"
    r"entry\s+point|resource)s?\b"
    r"|^\s*what(?:'s|\s+is)\s+(?:the\s+)?(?:state[\s-]of[\s-]the[\s-]art|known|new|current thinking)\b"
    r"|^\s*what\s+(?:work|research|progress)\s+(?:has|have)\s+been(?:\s+(?:done|made|published))?\b", re.I)
# A request to the assistant for an overview of the papers ("Give me an overview of the papers on
# X", "Can you write a short summary of the work on X?") asks for the papers, not for surveys
# (`contribution` reads no genre in it): it abstained on every such question of the libraries.
OVERVIEW_REQUEST = re.compile(r"\b(?:give|provide|write|produce|prepare|offer|share|want|need|like)\s+(?:me\s+|us\s+)?"
                              r"(?:a|an)\s+(?:[\w-]+\s+){0,2}?(?:overview|summary|survey|review|rundown|digest)\s+(?:of|on)\b",
                              re.I)
# The same for "who", "where", "how" and a passive reader's verb: "Who has worked on X?", "Where
# can I find work on X?", "How do researchers approach X?", "Is X covered by any paper here?".
# Asked so, the 106 library questions "Which papers <verb> X?" cited 81, 81, 83 and 71 of their
# 240 gold papers (127 as worded): factoid questions cite one paper, and "covered" was a topic.
# Not "Who proposed X?" (its authors) nor "How does X work?" (one paper).
# A system's name later in the question ("How is NestQuant evaluated?", "How is attention computed in Mamba?",
# "How are tokens pruned in FastV?"): one paper's detail, not the field's practice. Acronyms (LLM) are the field's.
_NAMED_LATER = r"(?-i:[^?]*?(?:\b[A-Z][a-z]+[A-Z]|\b[A-Z][a-z]{2,}\b|\b[A-Za-z]+\d))"
_FIELD_FRAMES = (
    _WHAT_LIST,
    OVERVIEW_REQUEST,
    # "Which paper should I start with to learn about X?"
    re.compile(r"\b(?:should|could|can|do)\s+(?:i|we|one)\s+(?:start|begin)(?:\s+(?:with|from|reading))?\b"
               r"|\bto\s+learn\s+(?:more\s+)?about\b|\b(?:to|do|can|should|could|would)\s+(?:(?:i|we|one)\s+)?get\s+started\s+"
               r"(?:on|with|in)\b", re.I),
    re.compile(r"^\s*(?:who|(?:which|what)\s+(?:other\s+)?(?:authors|researchers|groups|labs|teams|people))\s+"
               r"(?:else\s+)?(?:(?:has|have|had|is|are)\s+)?(?:worked|works|working|work|studied|studies|"
               r"studying|study|researched|researches|researching|looked|looking|published|publishes|written|writes|"
               r"explored|explores|exploring|investigated|investigates|investigating|tackled|tackles|addressed|"
               r"addresses)\b(?:\s+(?:on|at|into|about))?", re.I),
    re.compile(r"^\s*where\s+(?:can|could|do|should|would|might)\s+(?:i|one|we|you)\s+(?:find|read|look|get|learn|"
               r"start)\b(?:\s+(?:for|about|up|more))?", re.I),
    re.compile(r"^\s*how\s+(?:do|did|have|are)\s+(?:(?:the|other|recent|existing|different)\s+)?(?:researchers|people|"
               r"papers|authors|others|works|studies|methods|approaches|groups|scientists|practitioners)\s+"
               r"(?:approach|approached|tackle|tackled|address|addressed|handle|handled|solve|solved|deal\s+with|"
               r"dealt\s+with|study|studied|model|modeled|treat|treated|think\s+about|go\s+about)\b", re.I),
    # The field's work asked through its subject or its usual practice: "How do papers evaluate X?",
    # "How can we reduce X?", "Which methods improve X?", "What datasets are commonly used for X?"
    # (each read as a detail of one paper, so one paper cited). Not "Which methods does X combine?"
    # (an auxiliary: `_ABOUT_ONE`), "Which method improves X?" (one), "How can you ...".
    re.compile(r"^\s*how\s+(?:do|did|can|could|should|might|would|have)\s+(?:(?:other|recent|existing|different)\s+)?"
               r"(?:researchers|people|papers|works|studies|scientists|practitioners|we|one)\b(?:\s+(?:approach|tackle|"
               r"address|handle|solve|deal\s+with|make\s+progress\s+on|go\s+about|think\s+about)\b)?"
               r"|^\s*(?:which|what)\s+(?:[\w-]+\s+){0,2}?(?:approaches|methods|techniques|algorithms|models|architectures|"
               r"frameworks|strategies|solutions|systems)(?=\s+(?!(?:do|does|did|is|was|are|were|has|have|had|can|could|"
               r"should|would|of|for|in|on|to|with|from|that|which|the|a|an|and|or)\b)[a-z]+(?<![^su]s)\b)"
               r"|^\s*(?:which|what)(?=\s+(?:[\w-]+\s+){0,2}?[\w-]+s\s+(?:are|is|were)\s+(?:most\s+)?(?:commonly|typically|"
               r"usually|generally|widely|often|frequently|mostly)\b)"
               # "What are the open problems in X?", "the limitations of X": the papers that discuss them
               # ("open" and the other adjectives frame it too: as a topic word "open" ranked "Open-Vocabulary
               # Federated Learning" first for the open problems in federated learning).
               r"|^\s*what(?:'s|\s+is|\s+are|\s+were)?(?:\s+(?:the|some))?(?:\s+(?:main|key|major|current|biggest|"
               r"remaining|known|common|open|fundamental))*(?=\s+(?:limitations|challenges|(?<=open\s)(?:problems|"
               r"questions)|drawbacks|weaknesses|shortcomings|(?:future|research)\s+directions|risks|pitfalls|bottlenecks|"
               r"obstacles)\s+(?:of|in|for|with|facing|around)\b)", re.I),
    # The field's practice asked as a passive or of a kind of thing: "How can catastrophic forgetting be
    # mitigated?", "How is uncertainty estimated in deep learning?", "How do robots learn to grasp
    # transparent objects?" (each cited one paper, as a factoid). Not "How does X ...?", "How is it /
    # the model ...?" (one paper, or the previous answer's), "How many / much / large ...".
    re.compile(r"^\s*how\s+(?:is|are|can|could|should|might|may)(?!" + _NAMED_LATER + r")"
               r"(?=\s+(?!(?:it|they|this|that|these|those|its|their|the)\b)(?:[\w-]+\s+){1,5}?(?:be\s+)?[a-z]{3,}"
               r"(?:ed|en|wn|ne|lt|ught)\b)"
               r"|^\s*how\s+do(?!" + _NAMED_LATER + r")(?=\s+(?!(?:they|we|you|i|these|those|the\s+authors?)\b)"
               r"(?:[\w-]+\s+){0,2}[\w-]+s\s)", re.I),
    # "How many papers study X?": a count of the papers on X, so the papers (it cited one).
    re.compile(r"^\s*how\s+many\s+(?:of\s+(?:the|these|your)\s+)?(?:papers|works|studies|articles|publications|abstracts)\b",
               re.I),
    # A topic asked after another ("What about quantization?", "How about X instead?", "Same
    # question for diffusion models"): papers on it, as "And quantization?" is read (each cited
    # one paper). Not "What about its latency?" (`_ABOUT_ONE`: a follow-up on one paper).
    re.compile(r"^\s*(?:and\s+|now\s+|ok(?:ay)?,?\s+)?(?:what|how)\s+about\b"
               r"|^\s*(?:and\s+|now\s+)?(?:the\s+)?same\s+(?:question\s+|thing\s+)?(?:for|about|with|on)\b", re.I),
    # "Does the collection include anything on X?", "what's out there on X", "Is anybody doing X?"
    re.compile(r"\b(?:does|do|did)\s+(?:the|this|your|our)\s+(?:collection|library|corpus|database|dataset|set)\s+"
               r"(?:include|contain|have|hold|cover)\b|^\s*what(?:'s|\s+is)\s+out\s+there\b"
               r"|^\s*(?:is|are)\s+(?:any|some)(?:body|one)\s+(?:doing|working\s+on|looking\s+(?:at|into)|studying)\b",
               re.I),
    re.compile(r"\b(?:covered|mentioned|discussed|addressed|studied|treated|handled|tackled|examined|explored|"
               r"investigated|considered|researched)\s+(?:by|in)\s+(?:(?:any|a|the|some|one|these|those|this)\s+)?"
               r"(?:of\s+(?:the\s+)?)?(?:papers?|works?|studies|articles?|publications?|library|corpus|collection)\b",
               re.I),
)
_ABOUT_ONE = re.compile(r"\b(?:do|does|did)\b|\b(?:this|the|that|their|its)\s+(?:[\w-]+\s+){0,2}?paper\b"
                        r"|\b(?:they|their|its|it)\b|\bthe\s+(?:experiments?|evaluation|authors?|study|proposed)\b", re.I)
# A search-box query: a few words and no sentence end ("spiking neural networks", "MoE latency").
# Claims end in a full stop ("DUSP4 decreases apoptosis."), questions in a question mark.
_TERSE = re.compile(r"^\s*[^\s.?!]+(?:\s+[^\s.?!]+){0,5}\s*$")  # at twelve words: claims typed without a full stop lost precision
TERSE = True
_LIST = re.compile(r"\b(any|are there|is there|anything|everything|anyone|has anyone|list|papers|work on|research on"
                   r"|an? (?:paper|study|reference|article) (?:on|about|regarding|that|which))\b", re.I)
# A search label ("Keywords: X", "Topic: X") types a search-box query of any length: papers on X.
_SEARCH_LABEL = re.compile(r"^\s*(?:keywords?|topics?|subject|search|terms|tags)\s*:", re.I)

# A reader's request to the assistant names no topic: "Recommend papers on speculative decoding"
# abstained (no paper covers "recommend", which outweighed "decoding"), as did "Point me to",
# "Search for papers about", "Pull up", "What should I read on ...". A request verb counts as
# such at the head of the question (after lead-in words: "please", "can you", "help me") or right
# after "you"/"please"/"me", and only with a request's object after it ("me", "papers", "some",
# "up", ...): "Point cloud registration", "Search-based planning", "Name disambiguation" stay
# topics. "read"/"cite" ask for papers after "I"/"should"/"worth", or before "on"/"about"/"up" or
# a "list" that ends there ("reading comprehension", "learn to read charts", "reading list
# generation" stay topics).
_REQUEST_VERBS = frozenset("""recommend suggest name search searching find finding point get pull fetch surface
    collect gather compile enumerate retrieve return locate identify dig bring share provide send seek seeking
    hunt hunting list show give""".split())
# Asked of the assistant, these take any object at the head ("Summarize the work on X", "Compare
# the approaches to X"): a paper's title rarely opens with them, a question never as a topic.
_REQUEST_VERBS_ANY = frozenset("summarize summarise describe explain outline compare contrast discuss".split())
_REQUEST_LEAD = frozenset("""please kindly can could would will you help me us i d like want wanna need to ll m am
    just quickly also now so and hi hello hey trying try hoping hope""".split())
_REQUEST_OBJECT = frozenset("""me us up out for some any all every papers paper work works research studies
    study articles article publications literature reading readings relevant recent related everything anything
    whatever what which on about good key few several more other interesting important influential""".split())
_READING = frozenset("read reading readings cite citing".split())
_READING_BEFORE = frozenset("i should worth some good further suggested recommended must background essential key we".split())
_READING_AFTER = frozenset("on about up material materials regarding into around".split())


def _requesting(toks: list[str]) -> set[int]:
    """Indices of the words of a request to the assistant (see `_REQUEST_VERBS`)."""
    out: set[int] = set()
    lead = True
    for i, t in enumerate(toks):
        after = toks[i + 1] if i + 1 < len(toks) else ""
        ends = not after.isalnum()
        if t in _REQUEST_VERBS_ANY and lead and after.isalnum():
            out.add(i)
        elif t in _REQUEST_VERBS and (lead or (i and toks[i - 1] in ("you", "please", "me"))) and (
                ends or after in _REQUEST_OBJECT or after in _READING):
            out.add(i)
            out.update(j for j in range(i) if toks[j] in ("help", "like", "trying", "hoping", "hope") and lead)
        elif t in _READING and ((i and toks[i - 1] in _READING_BEFORE) or after in _READING_AFTER or (
                after in ("list", "lists") and (i + 2 == len(toks) or not toks[i + 2].isalnum()
                                               or toks[i + 2] in _READING_AFTER | {"for", "of"}))):
            out.add(i)
        lead = lead and (t in _REQUEST_LEAD or not t.isalnum())
    return out


# The asker's situation is no topic: "For my thesis on X", "I'm working on a project involving X",
# "A colleague asked me whether anyone has published on X", "I need references on X for a
# related-work section", "what prior work exists", "Any idea?", "Are you aware of", "Any pointers
# to". Such words are rare in abstracts, so they weighed most: asked so, the library questions
# cited a fifth to a half of the gold papers they cite as "Which papers <verb> X?". Each is read so
# only in its place: a situation noun after "my"/"a"/... with no content word after it ("a
# student model", "random projections", "the draft model" stay topics), "prior" before
# "work"/"research", "published" after "has"/"anyone", a verb of the asker's after "I'm"/"we're".
_SITUATION_LISTS = frozenset("references pointers suggestions recommendations citations idea ideas thoughts".split())
_SITUATION_NOUNS = frozenset("""thesis dissertation project projects colleague colleagues advisor adviser supervisor
    supervisors coauthor coauthors collaborator collaborators reviewer reviewers manuscript draft proposal talk
    course class lab team group boss manager friend student students section chapter bibliography""".split()
                             ) | _SITUATION_LISTS
_SITUATION_CLEAR = frozenset("""thesis dissertation project colleague colleagues advisor adviser supervisor coauthor
    collaborator manuscript proposal bibliography chapter""".split())
_SITUATION_OWNERS = frozenset("my our his her their a an this".split())
_SITUATION_MODIFIERS = frozenset("""new current upcoming own phd master masters research side next final term reading
    related work literature review background introduction""".split())
_SITUATION_AFTER = frozenset("""on about involving regarding around in into for that which where asked asks wants
    wanted wonders wondered is was needs needed uses using with of to i we me and""".split())
_PRIOR = frozenset("prior previous earlier".split())
_PRIOR_OF = frozenset("work works research papers literature studies art".split())
_ASKER_VERBS = frozenset("""working writing preparing reviewing teaching drafting revising starting
    building doing trying""".split())
_PUBLISHERS = frozenset("has have had anyone anybody someone people who".split())  # "Has anyone published on X?"
_ASKED = frozenset("asked asks wondered wonders wondering".split())
_ASKED_OBJECT = frozenset("me us whether if about what which".split())


def _situation(toks: list[str]) -> set[int]:
    """Indices of the words of the asker's situation (see `_SITUATION_NOUNS`)."""
    out: set[int] = set()
    n = len(toks)
    for i, t in enumerate(toks):
        after = toks[i + 1] if i + 1 < n else ""
        before = toks[i - 1] if i else ""
        if t in _SITUATION_NOUNS and (not after.isalnum() or after in _SITUATION_AFTER):
            j = i - 1
            while j >= 0 and (toks[j] in _SITUATION_MODIFIERS or toks[j] == "-") and i - j <= 3:
                j -= 1
            # "a team", "a class", "a student" are often the topic ("work together as a team", "assigns
            # a class to every pixel"): after an article only the unambiguous nouns, or a section
            # named by its part of a paper ("a related-work section").
            named = any(toks[k] in ("related", "literature", "review", "background", "introduction") for k in range(j + 1, i))
            if j >= 0 and toks[j] in _SITUATION_OWNERS and (
                    toks[j] not in ("a", "an", "this") or t in _SITUATION_CLEAR or named):
                out.update(range(j - (j > 0 and toks[j - 1] in ("for", "in", "on", "as", "with")), i + 1))
                if after in ("involving", "regarding", "concerning", "around", "using"):  # "a project involving X"
                    out.add(i + 1)
            elif t in _SITUATION_LISTS and (before in ("any", "some", "good", "few", "useful", "need", "want", "relevant", "key")
                                            or after in ("on", "about", "to", "regarding")):
                out.add(i)
        elif t in _PRIOR and after in _PRIOR_OF:
            out.add(i)
        elif t in ("published", "publish", "publishing") and before in _PUBLISHERS:
            out.add(i)
        elif t in _ASKER_VERBS and before in ("m", "am", "re", "are", "i", "we", "been"):
            out.add(i)
        elif t in _ASKED and (after in _ASKED_OBJECT or not after.isalnum()):
            out.add(i)
        elif t == "aware" and before in ("you", "i", "we", "anyone", "be", "are", "am"):
            out.add(i)
    return out


# What the asker thinks of the papers wanted, before the papers: "Top papers on X", "Seminal work
# on X", "Any good papers on X?", "Most cited papers on X", "Latest work on X" (the library holds
# no citation counts; each word was a topic no paper has: 37-90 of the 240 gold papers as-worded
# questions cite 127 of). A label ("Question: ..."), a greeting and a sign-off ("Thanks a lot.")
# are framing too.
_VERDICT = frozenset("""latest newest top key seminal good great best important influential classic classical
    notable foundational landmark essential major popular interesting cited highly most must read strong
    representative canonical""".split())
_WORKS = frozenset("papers paper work works research studies articles publications literature reading readings".split())
_LABELS = frozenset("question q query request".split())
_SIGN_OFF = frozenset("thanks thank cheers regards".split())
_ASIDE_WORDS = frozenset("""hey hi hello there sorry one more thing quick question again also btw ok okay so well actually
    just briefly quickly curious i m am im and follow up another last small dear""".split())
_INTERJECTIONS = frozenset("ok okay so well hmm hm um uh alright right hey hi hello oh".split())
_QUESTION_WORDS = frozenset("how what which who whose when where why is are do does did can could".split())
# The asker's own lead-in straight before the question word, with or without a comma: "Remind me
# how many ...", "Could you check which loss ...", "I'd love to know what ...", "Do you remember
# how ...", "One thing I couldn't figure out: how ...", "For my notes, what ...", "quick q - how
# ...". Read as topic, "remind", "check" or "figure" weighed as much as the asked detail (key facts
# quoted 140-178 of 205, 200 as worded). Only when every word before the question word is one of
# these: "For diffusion models, how many steps ..." keeps its topic.
_LEAD_IN = _ASIDE_WORDS | _INTERJECTIONS | frozenset("""i me my you your we us our d ll m s re ve t do does did can
    could would will should might may is are was be been not don didn couldn can cannot won wouldn isn doesn please
    kindly really still maybe perhaps now then remind recall remember forget forgot forgotten know knew tell check
    confirm verify double clarify figure find found understand get got see wonder wondered wondering curious love like
    want wanted need needed ask asking say look learn out sure idea clue thing things question questions q query
    notes note record memory for to a the any some about on here it this that one more another""".split())
_LEAD_WH = frozenset("how what which who whose when where why whether".split())
# Words that also lead a question's own phrasing ("On which dataset ...", "Up to how many ...", "For
# which class ...", "And how much ..."): a lead-in of only these is the question, not framing.
_LEAD_PLAIN = frozenset("for to on up and about a the any some it this that one more another here so".split())
_LEAD_PREPOSITIONS = frozenset("on to up for about in by of at with from into".split())
# A hedge after the question's last comma ("..., roughly?", "..., if you know?", "..., by any
# chance?") qualifies the asking, not the topic.
_HEDGE = frozenset("""roughly approximately approx exactly precisely ballpark about more or less if you know
    remember recall any chance by in short brief briefly possible please thanks""".split())


def _lead_in(toks: list[str]) -> int:
    """Where the question proper starts after the asker's lead-in (`_LEAD_IN`: "Remind me how
    ...", "Any idea which ..."); 0 without one."""
    first_wh = next((k for k, t in enumerate(toks[:12]) if t in _LEAD_WH), 0)
    while first_wh and toks[first_wh - 1] in _LEAD_PREPOSITIONS:  # "Can you tell me on which ...": "on" is the question's
        first_wh -= 1
    lead_in = [t for t in toks[:first_wh] if t.isalnum()]
    if lead_in and all(t in _LEAD_IN for t in lead_in) and not all(t in _LEAD_PLAIN for t in lead_in):
        return first_wh
    return 0


def _asides(toks: list[str], lead_in: int) -> set[int]:
    """Indices of the asker's verdict words, a leading label, the lead-in before `lead_in` (`_lead_in`),
    a hedge and a sign-off (see `_VERDICT`)."""
    out: set[int] = set()
    for i, t in enumerate(toks):
        if t in _VERDICT:
            j = i
            while j < len(toks) and toks[j] in _VERDICT:
                j += 1
            if j < len(toks) and toks[j] in _WORKS and not (i and toks[i - 1] in _VERDICT):
                out.update(range(i, j))
    # A leading label, with its own words: "Question:", "Quick question:", "One more question:".
    colon = next((k for k, t in enumerate(toks[:5]) if t == ":"), None)
    if colon is not None and colon > 0 and (toks[colon - 1] in _LABELS or colon == 1 and _SEARCH_LABEL.match(toks[0] + ":")):
        out.update(range(colon))
    # A greeting or aside before the question proper: "Hey, how many ...?", "Sorry, one more thing:
    # what ...?", "Briefly, which ...?", "I'm curious: how ...?" (the kind was read from "Hey").
    stop = next((k for k, t in enumerate(toks[:8]) if t in (",", ":", "!", ".") and k + 1 < len(toks)
                 and toks[k + 1] in _QUESTION_WORDS), None)
    if stop is not None and all(t in _ASIDE_WORDS or not t.isalnum() for t in toks[:stop]):
        out.update(range(stop + 1))
    out.update(range(lead_in))
    comma = max((k for k, t in enumerate(toks) if t == ","), default=-1)
    tail = [t for t in toks[comma + 1:] if t.isalnum()]
    if comma > 0 and 0 < len(tail) <= 4 and all(t in _HEDGE for t in tail):
        out.update(range(comma, len(toks)))
    # Interjections typed straight into the question ("ok so which papers ...", "hmm what ..."):
    # read as topic, "ok" weighed half the question.
    lead = next((k for k, t in enumerate(toks[:4]) if t not in _INTERJECTIONS), 0)
    if lead and toks[lead] in _QUESTION_WORDS:
        out.update(range(lead))
    # "Do you happen to know ...": the asker's aside, not a topic "happen".
    out.update(i for i in range(len(toks) - 2) if toks[i] == "happen" and toks[i + 1] == "to"
               and toks[i + 2] in ("know", "remember", "have"))
    # A closing sentence after the question that opens with thanks: "... event cameras? Thanks a
    # lot.", "Thank you in advance". Not any sentence holding "thanks": the "." of "e.g." ends none
    # ("X, e.g. bandits or online learning please, thanks!" lost its examples).
    last = max((k for k, t in enumerate(toks[:-1]) if t in (".", "!", "?")), default=-1)
    if last >= 0 and toks[last + 1] in _SIGN_OFF:
        out.update(range(last + 1, len(toks)))
    return out


def framing(question: str, toks: list[str], starts: list[int]) -> tuple[set[int], str]:
    """Indices of `toks` (the question's tokens, folded; `starts`: where each begins in `question`)
    that frame the question (a request, the asker's situation and asides, a field frame's words),
    and the question's kind (`kind_of`): a list when the framing asks for papers (a request, a
    field frame, "references", "prior work"), else read from the question after its leading
    framing words ("Question: how many parameters does X train? Thanks." asks for a detail)."""
    if not REQUESTS:
        return set(), kind_of(question, False)
    requests, situation, lead_in = _requesting(toks), _situation(toks), _lead_in(toks)
    out = requests | situation | _asides(toks, lead_in)
    # A request word inside the lead-in ("Any idea which ...") asks what the question word asks.
    asks = any(i >= lead_in for i in requests) or any(toks[i] in _SITUATION_LISTS | _PRIOR for i in situation if i >= lead_in)
    asks = asks or bool(_SEARCH_LABEL.match(question))
    for head in (h for frame in (_FIELD_FRAMES if WHAT_LIST else ()) for h in frame.finditer(question)):
        if not _ABOUT_ONE.search(question[:head.start()] + " " + question[head.end():]):
            # Its words frame the question ("the latest advances", "covered by any paper").
            out |= {i for i, start in enumerate(starts) if head.start() <= start < head.end()}
            asks = True
    lead = next((starts[i] for i, t in enumerate(toks) if t.isalnum() and i not in out), len(question))
    return out, kind_of(question[lead:], asks)


# The paper or topic named first, then the question: "Regarding NestQuant, which lattice is used?",
# "For GAPrompt, how many parameters are trained?", "In the SLiM paper, what ...?" (read as 'other',
# they quoted the paper's most topical sentence, not the one holding the answer).
_TOPIC_FIRST = re.compile(r"^\s*(?:for|regarding|about|as\s+(?:for|to)|concerning|in|on|with)\s+[^,?.!]{1,80},\s*"
                          r"(?=(?:how|what|which|who|whose|when|where)\b)", re.I)
_BEST = re.compile(r"\b(?:best|better|fastest|strongest|most\s+(?:accurate|efficient|effective|popular|promising))\b", re.I)


def kind_of(question: str, asks_papers: bool) -> str:
    """'factoid', 'list' or 'other' (see the module docstring); `asks_papers`: the framing asks for papers."""
    if asks_papers:  # "What should I read on X?", "What are recent approaches to X?": papers, not a detail
        return "list"
    first = _TOPIC_FIRST.match(question)
    # Not "For my thesis on X, where ..., which papers ...?" nor "For point clouds, which method is best?"
    # (a comparison across the field's papers, not one paper's detail).
    if first and "," not in question[first.end():] and not _BEST.search(question[first.end():]):
        question = question[first.end():]
    if _WH.search(question) and not _LIST_HEAD.search(question):
        return "factoid"
    if TERSE and _TERSE.match(question):  # a search-box query ("event cameras"): papers on it
        return "list"
    if _LIST_HEAD.search(question) or _LIST.search(question):
        return "list"
    return "other"
