"""Calibrates `relevance.similar.SIMILAR_FLOOR`: how often a paper's nearest abstracts share its topic.

    python -m paperscope.bench.similar_cal --library DIR [--per-topic 4]

DIR: a library holding the list-all benchmark's papers (e.g. the 20,000-paper one that
`paperscope bench --n 20000 --sections listall --work-dir W` builds under W). For each list-all
topic, `--per-topic` of its gold papers (seeded sample) are references; each reference's ten
nearest candidates (as `Gatherer.similar` finds them) count as right when on the same topic (its
gold or acceptable papers). A lower bound on precision: near papers off the narrow label are often
similar all the same. Prints precision by cosine floor and for the first k neighbours.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from paperscope.assistant import Assistant
from paperscope.bench.relevance_items import DATA as QUESTIONS
from paperscope.gather import SIMILAR_POOL
from paperscope.relevance.similar import closeness

FLOORS = (0.80, 0.75, 0.70, 0.65, 0.60, 0.55)


def calibrate(library: Path, per_topic: int = 4, seed: int = 0) -> dict[str, object]:
    a = Assistant.open(library)
    snap = a.catalog.snapshot()
    rng = random.Random(seed)
    rows: list[tuple[float, bool, int]] = []  # (cosine, on topic, rank)
    topics = [json.loads(line) for line in (QUESTIONS / "listall_topics.jsonl").read_text().splitlines() if line]
    for topic in topics:
        gold = sorted(g for g in topic["gold_85k"] if g in snap.positions)
        right = set(gold) | set(topic.get("acceptable_85k") or [])
        for ref in rng.sample(gold, min(per_topic, len(gold))):
            title = a.catalog.papers([ref])[ref].display_title
            c = a.gather.candidates(title, snap, k=SIMILAR_POOL, exclude={ref})
            own = a.store.paper_vectors({pid: n for pid, (_, n) in a.catalog.hashes([ref]).items()})
            close = sorted(((s, pid) for pid, s in closeness(list(own.values()), c.chunk_vectors).items()
                            if pid != ref), reverse=True)[:10]
            rows += [(s, pid in right, rank) for rank, (s, pid) in enumerate(close)]
    by_floor = {f"{f:.2f}": {"neighbours": len(sel := [r for r in rows if r[0] >= f]),
                             "precision": round(sum(r[1] for r in sel) / max(len(sel), 1), 3)} for f in FLOORS}
    first = {f"{k}": round(sum(r[1] for r in rows if r[2] < k) / max(sum(1 for r in rows if r[2] < k), 1), 3)
             for k in (1, 3, 5, 10)}
    return {"references": sum(1 for r in rows if r[2] == 0), "by_floor": by_floor, "first_k": first}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--per-topic", type=int, default=4)
    args = ap.parse_args()
    print(json.dumps(calibrate(args.library, args.per_topic), indent=1))


if __name__ == "__main__":
    main()
