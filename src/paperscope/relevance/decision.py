"""The one place that decides whether an answer cites papers, and which.

Given evidence best first (`Relevance.score`), a question is answered when its best paper's
support reaches the abstention threshold; it then cites every paper within
`relative_cutoff` of the best one (and above the threshold), at most `limit` of them. A
follow-up about the papers of the previous answer needs only half the threshold (it names
them: "the models", "it") and cites its best paper.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from paperscope.records import Evidence

FOLLOW_UP_SHARE = 0.5  # of the threshold, for a follow-up restricted to the previous answer's papers


@dataclass(frozen=True)
class Decision:
    cited: list[Evidence] = field(default_factory=list)  # empty: abstain

    @property
    def abstain(self) -> bool:
        return not self.cited


def decide(evidence: list[Evidence], threshold: float, relative_cutoff: float, limit: int,
           follow_up: bool = False) -> Decision:
    if not evidence:
        return Decision()
    best = evidence[0].support
    if follow_up:
        return Decision(evidence[:1] if best >= threshold * FOLLOW_UP_SHARE else [])
    if best < threshold:
        return Decision()
    floor = max(threshold, best * relative_cutoff)
    return Decision([ev for ev in evidence if ev.support >= floor][:limit] or evidence[:1])
