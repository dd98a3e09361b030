"""An experiment, not shipped: fine-tunes a cross-encoder (question, paper) -> relevance from the
shipped all-MiniLM-L6-v2 weights, exports it as int8 ONNX (23 MB), and measures it on human-written
questions it never saw (`paperscope.bench.cross_eval`), the go/no-go for making it a relevance-model feature.

    python -m paperscope.bench.cross_train --out /tmp/cross --work /tmp/relevance \
        --human libA,libB,libC,libD,libE,libF,libG,libH,libI,libJ,libK,libL --steps 700   # ~23 min, 2 cores
    python -m paperscope.bench.cross_eval /tmp/cross/torch --work /tmp/relevance --human <same>       # ~2 min

Needs the bench extra (torch, transformers via sentence-transformers, scikit-learn for the
evaluation). Seeded (--seed, default 0). `--work` is relevance_train's library folder (built when absent).

Data: conference papers that nothing else trains or tests on, so every held-out figure stays held
out: the 20,000-paper sample of `relevance_train` and the list-all benchmark, the sixteen
hand-labelled libraries and the seeds are excluded, and so are questions that name a list-all
benchmark topic. SciFact and dev2 are never trained on. From the remaining ~65,000 papers:
- title questions: a title with its name ("LocMoE: ...") cut, asked with the scaffolds of
  `relevance_items` ("Which papers deal with {t}?"); the passage is the paper's abstract, half the
  time without its title;
- keyword questions: an author keyword (its last part: "machine learning: time-series" ->
  "time-series") held by 3-300 papers; positive: a paper with that keyword; negatives must not
  name it;
- inverse-cloze questions: one sentence of an abstract asks for the rest of it (the sentence cut
  from the passage), so the topic is matched in other words;
- TL;DR questions (a few hundred outside the sample);
- `--human`: questions of the named hand-labelled libraries, gold vs the candidates `ask` gathers
  (x3); `cross_eval` then reports dev2 and the other libraries only.
Negatives: BM25 neighbours over the same pool (two from its top 10, one from ranks 10-40). Loss:
binary cross-entropy, 1 positive + 3 negatives a question (absolute relevance, which abstention needs).

Measured (2026-12-04, `cross_eval`; dev2's 60 English single-turn questions, libraries M-P's 240;
candidates as `ask` gathers them; AUC of gold vs other candidates):
| model | dev2 AUC / P@1 | libM-P AUC / P@1 | + to (cosine, rank), dev2 / libM-P |
|---|---|---|---|
| dense cosine (shipped MiniLM) | 0.859 / 0.689 | 0.877 / 0.900 | |
| fused rank | 0.877 / 0.733 | 0.914 / 0.911 | 0.870 / 0.917 with cosine |
| titles 75%, keywords, TL;DRs (KEYWORD_SHARE 0.3, no ICT); 1,500 steps | 0.527 / 0.156 | 0.705 / 0.383 | 0.872 / 0.933 |
| + inverse cloze, keywords, libraries A-L (defaults); 700 steps | 0.811 / 0.489 | 0.865 / 0.711 | 0.888 / 0.930 |
The first learned known items (full titles) and nothing of short topics ("Which papers address MoE
latency?" scored LocMoE -1.2, a point-cloud paper -1.3). Alone, neither beats the dense cosine;
beside cosine and rank the second adds 0.013-0.018 AUC, less than the stacker's other features
likely leave, for ~6 ms a candidate. Not made a feature.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from paperscope.bench.corpus import default_corpus, sample
from paperscope.bench.relevance_items import DATA, SCAFFOLDS, _norm, asks_benchmark_topic
from paperscope.text.sentences import sentences
from paperscope.text.zh import has_cjk

MAX_LEN = 160  # question + passage word pieces (question at most 40)
NEGATIVES = 3
KEYWORD_SHARE = 0.4  # of the questions; inverse-cloze ICT_SHARE, titles the rest
ICT_SHARE = 0.35


def log(msg: str) -> None:
    print(f"[cross] {msg}", flush=True)


def pool(corpus: Path) -> list[dict[str, Any]]:
    """Papers nothing else fits or tests on (see the module docstring)."""
    recs = sample(corpus, None)
    held = {r["id"] for r in recs[:20000]}
    for ids in json.loads((DATA / "libraries.json").read_text()).values():
        held.update(ids)
    seeds = Path(__file__).resolve().parents[3] / "seeds" / "icml2025_seed_metadata.jsonl"
    seed_titles = {_norm(json.loads(x)["title"]) for x in seeds.read_text().splitlines() if x.strip()} \
        if seeds.exists() else set()
    return [r for r in recs if r["id"] not in held and _norm(r.get("title", "")) not in seed_titles
            and len((r.get("abstract") or "").split()) >= 40]


def title_topic(title: str) -> str:
    """The title as a topic: its name before a colon cut, lowercased but for acronyms and names
    ("MoE", "GPT-4": two capitals or a digit). Cosmetic for MiniLM, whose tokenizer is uncased."""
    t = title.split(":", 1)[1] if ":" in title and len(title.split(":", 1)[0].split()) <= 3 else title
    words = [w if sum(c.isupper() for c in w) >= 2 or any(c.isdigit() for c in w) else w.lower()
             for w in t.strip().split()]
    return " ".join(words).strip(" .")


def build_questions(recs: list[dict[str, Any]], rng: random.Random, n: int) -> list[dict[str, Any]]:
    """Questions with their positive paper and the papers that may not be negatives."""
    out: list[dict[str, Any]] = []
    by_kw: dict[str, list[int]] = {}
    for i, r in enumerate(recs):
        for k in r.get("keywords") or []:
            k = k.split(":")[-1].strip().lower()
            if 3 <= len(k) <= 60 and not re.search(r"\bgeneral\b|\bother\b|\bapplications?\b", k):
                by_kw.setdefault(k, []).append(i)
    kws = [k for k, v in by_kw.items() if 3 <= len(v) <= 300 and not asks_benchmark_topic([k])]
    for i, r in enumerate(recs):
        tl = (r.get("tldr") or "").strip()
        if tl and not asks_benchmark_topic([tl]):
            out.append({"q": tl, "pos": i, "skip": {i}, "core": tl, "kind": "tldr"})
    n_kw = min(len(kws) * 4, int(n * KEYWORD_SHARE))
    for _ in range(n_kw):
        k = rng.choice(kws)
        members = by_kw[k]
        out.append({"q": rng.choice(SCAFFOLDS).format(t=k), "pos": rng.choice(members), "skip": set(members),
                    "core": k, "kind": "keyword"})
    order = list(range(len(recs)))
    rng.shuffle(order)
    # Inverse cloze: one sentence of an abstract asks for the rest of it (that sentence removed
    # from the passage), so the topic must be matched in other words than the question's.
    for i in order[: int(n * ICT_SHARE)]:
        sents = sentences(recs[i].get("abstract") or "")
        pick = [k for k, t in enumerate(sents[:5]) if 8 <= len(t.split()) <= 40]
        if len(sents) < 4 or not pick:
            continue
        k = rng.choice(pick)
        out.append({"q": sents[k], "pos": i, "skip": {i}, "core": sents[k], "kind": "ict", "drop": sents[k]})
    for i in order[int(n * ICT_SHARE):][: max(0, n - len(out))]:
        t = title_topic(recs[i].get("title", ""))
        if len(t.split()) < 2 or asks_benchmark_topic([t]):
            continue
        out.append({"q": rng.choice(SCAFFOLDS).format(t=t), "pos": i, "skip": {i}, "core": t, "kind": "title"})
    rng.shuffle(out)
    return out


def mine_negatives(recs: list[dict[str, Any]], questions: list[dict[str, Any]], rng: random.Random) -> None:
    import bm25s
    import Stemmer

    stem = Stemmer.Stemmer("english")
    texts = [f"{r.get('title', '')} {r.get('abstract', '')}" for r in recs]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords="en", stemmer=stem, show_progress=False), show_progress=False)
    norm_text = [" " + _norm(t) + " " for t in texts]
    cores = [q["core"] for q in questions]
    ids, _ = retriever.retrieve(bm25s.tokenize(cores, stopwords="en", stemmer=stem, show_progress=False), k=40,
                                show_progress=False, n_threads=2)
    for q, row in zip(questions, ids):
        phrase = " " + _norm(q["core"]) + " "
        cand = [int(j) for j in row if int(j) not in q["skip"]
                and not (q["kind"] == "keyword" and phrase in norm_text[int(j)])]
        near, far = cand[:10], cand[10:]
        negs = rng.sample(near, min(2, len(near))) + rng.sample(far, min(1, len(far)))
        while len(negs) < NEGATIVES:
            j = rng.randrange(len(recs))
            if j not in q["skip"]:
                negs.append(j)
        q["neg"] = negs


def hand_libraries(work: Path, names: Sequence[str] | None = None) -> Iterator[tuple[str, Any, list[dict[str, Any]]]]:
    """(name, Assistant, English single-turn questions) of the hand-labelled libraries `names`
    (default: all), each ingested once under `work` as relevance_train does."""
    from paperscope.bench.corpus import iter_records
    from paperscope.bench.relevance_items import load_jsonl
    from paperscope.bench.relevance_train import library

    ids = json.loads((DATA / "libraries.json").read_text())
    wanted = [n for n in ids if names is None or n in names]
    by_id = {str(r["id"]): r for r in iter_records(default_corpus())} if wanted else {}
    for name in wanted:
        questions = [it for it in load_jsonl(DATA / f"{name}_questions.jsonl")
                     if "turns" not in it and not has_cjk(it["question"])]
        yield name, library(work, name, [by_id[i] for i in ids[name]]), questions


def human_questions(work: Path, names: Sequence[str], rng: random.Random, repeat: int) -> list[dict[str, Any]]:
    """Questions of the hand-labelled libraries `names` (only these: the others stay held out),
    each `repeat` times: a gold paper (none for an unanswerable question) and negatives among the
    candidates `ask` gathers, nearest first; `acceptable` papers are neither."""
    out: list[dict[str, Any]] = []
    for _, a, questions in hand_libraries(work, names):
        snap = a.catalog.snapshot()
        for it in questions:
            papers = [h.paper for h in a.candidates(it["question"], snap).hits if h.paper is not None]
            gold = [p.model_dump() for p in papers if p.paper_id in set(it["gold"])]
            skip = set(it["gold"]) | set(it.get("acceptable") or [])
            negs = [p.model_dump() for p in papers if p.paper_id not in skip]
            for _ in range(repeat):
                near = negs[:12]
                chosen = rng.sample(near, min(len(near), NEGATIVES + (0 if gold else 1)))
                if len(chosen) < NEGATIVES:
                    continue
                out.append({"q": it["question"], "pos_rec": rng.choice(gold) if gold else None, "neg_recs": chosen,
                            "kind": "human"})
    return out


def passage(r: dict[str, Any], with_title: bool) -> str:
    ab = (r.get("abstract") or "").strip()
    return f"{r.get('title', '').strip()}. {ab}" if with_title else ab


def train(args: argparse.Namespace) -> None:
    import torch
    from transformers import AutoTokenizer, BertForSequenceClassification

    from paperscope.index.minilm import minilm_model_dir

    rng = random.Random(args.seed)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    t0 = time.time()
    recs = pool(args.corpus)
    per_step = args.batch // (NEGATIVES + 1)
    questions = build_questions(recs, rng, args.steps * per_step)
    mine_negatives(recs, questions, rng)
    if args.human:
        human = human_questions(args.work, args.human.split(","), rng, args.human_repeat)
        questions += human
        rng.shuffle(questions)
    kinds = {k: sum(q["kind"] == k for q in questions) for k in ("title", "keyword", "ict", "tldr", "human")}
    log(f"{len(recs)} papers, {len(questions)} questions ({kinds}), {time.time() - t0:.0f}s")
    src = str(minilm_model_dir())
    tok = AutoTokenizer.from_pretrained(src)
    model = BertForSequenceClassification.from_pretrained(src, num_labels=1)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warm = max(1, args.steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (args.steps - s) / max(1, args.steps - warm))))
    lossf = torch.nn.BCEWithLogitsLoss()
    model.train()
    running = 0.0
    for step in range(args.steps):
        batch = questions[step * per_step:(step + 1) * per_step]
        if len(batch) < per_step:
            break
        qs, ps, ys = [], [], []
        for q in batch:
            if q["kind"] == "human":  # records, not pool indices; passages as `ask` reads them
                pairs = ([(q["pos_rec"], 1.0)] if q["pos_rec"] else []) + [(r, 0.0) for r in q["neg_recs"]]
                for r, y in pairs[:NEGATIVES + 1]:
                    qs.append(q["q"])
                    ps.append(passage(r, True))
                    ys.append(y)
                continue
            for j, y in [(q["pos"], 1.0)] + [(j, 0.0) for j in q["neg"]]:
                qs.append(q["q"])
                text = passage(recs[j], with_title=rng.random() < 0.5)
                ps.append(text.replace(q["drop"], " ") if "drop" in q and j == q["pos"] else text)
                ys.append(y)
        enc = tok(qs, ps, truncation="only_second", max_length=MAX_LEN, padding=True, return_tensors="pt")
        logits = model(**enc).logits.squeeze(-1)
        loss = lossf(logits, torch.tensor(ys))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        running = 0.98 * running + 0.02 * loss.item() if step else loss.item()
        if step % 50 == 0:
            log(f"step {step}/{args.steps} loss {running:.4f} {time.time() - t0:.0f}s")
    args.out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(args.out / "torch")
    tok.save_pretrained(args.out / "torch")
    export(model, tok, args.out)
    log(f"done, {time.time() - t0:.0f}s")


def export(model: Any, tok: Any, out: Path) -> None:
    """fp32 ONNX, then dynamic int8 quantization (weights int8, activations quantized per batch)."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model.eval()
    enc = tok(["a question"], ["a passage"], return_tensors="pt")
    fp32 = out / "cross-fp32.onnx"
    torch.onnx.export(model, (enc["input_ids"], enc["attention_mask"], enc["token_type_ids"]), str(fp32),
                      input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["logits"],
                      dynamic_axes={k: {0: "batch", 1: "seq"} for k in ("input_ids", "attention_mask", "token_type_ids")}
                      | {"logits": {0: "batch"}}, opset_version=17, dynamo=False)
    quantize_dynamic(str(fp32), str(out / "cross.onnx"), weight_type=QuantType.QInt8)
    log(f"exported {out / 'cross.onnx'} ({(out / 'cross.onnx').stat().st_size / 1e6:.1f} MB)")


def main() -> None:
    ap = argparse.ArgumentParser(description="Fine-tune and export the cross-encoder.")
    ap.add_argument("--corpus", type=Path, default=default_corpus())
    ap.add_argument("--out", type=Path, default=Path("/tmp/paperscope-cross"))
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--batch", type=int, default=32, help="pairs per step (1 positive + 3 negatives a question)")
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--human", default="", help="Hand-labelled libraries to train on too (e.g. libA,libB); "
                    "cross_eval then reports the others only.")
    ap.add_argument("--human-repeat", type=int, default=3)
    ap.add_argument("--work", type=Path, default=Path("/tmp/paperscope-relevance"), help="Libraries (as relevance_train).")
    args = ap.parse_args()
    if args.steps < 1 or args.batch % (NEGATIVES + 1):
        raise SystemExit("--steps >= 1 and --batch a multiple of 4")
    train(args)


if __name__ == "__main__":
    main()
