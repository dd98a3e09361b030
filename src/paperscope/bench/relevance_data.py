"""Builds the corpus statistics the relevance model reads (package data of `paperscope.relevance`).

    python -m paperscope.bench.relevance_data [--corpus conference_abstracts.jsonl.gz]

From the 85,864-abstract corpus (`../shared/corpora`, or PAPERSCOPE_BENCH_CORPUS), deterministic:
- `scaffold.json`: stem -> share of its occurrences right after "we" / "this paper" / "our work".
  Research-activity verbs ("tackle" .20, "investigate" .47, "deal" .15) score high, topical words
  ("train" .03, "quantize" .007) low: a question's "Which papers tackle X?" is scaffolding, not topic.
- `background_df.json.gz`: document frequency of every stem (>= 2 documents) and the corpus size.
  A library of 38 papers has no usable IDF of its own; IDF is computed over library + background.
- `thesaurus.npz`: corpus term associations (PPMI over an 8-word window, truncated SVD to 128
  dimensions, unit rows) for the 14.7k stems in >= 5 documents: a paper that says "quantization"
  partly covers "compress" (cosine .79), one that says "lossless" less so.
- `position.json`: stem -> mean relative sentence position in abstracts minus the corpus mean;
  result words ("outperform" +.38, "conclude" +.41) lean late, background words ("recent" -.25)
  early. Quote selection uses it to prefer findings over background.
- `words.txt.gz`: every lower-case word of five letters or more that >= 3 abstracts use, with
  its document frequency: the words a typing slip in a question may have been meant as
  (`relevance.spelling`; "benchmark", "segmentation" are no whole words of MiniLM's vocabulary).
- `title_phrases.txt.gz`: adjacent concept pairs ("machin translat") that >= 2 titles use and at
  most 5% of abstracts (not "neural network": the field's common ground), after the
  thesaurus (concepts read word families from it): named research terms. A paper that uses
  neither word of such a phrase of the question is not cited for it (`Relevance.missing_term`).
  The common ones left out go to `common_phrases.txt`: after a preposition ("quantization of
  neural networks", "robots in the real world") they place the topic, and weigh less
  (`question.analyze`). Alone: `python -m paperscope.bench.relevance_data --title-phrases`.
- `paperscope/text/data/acronyms.json` (`--acronyms`): the acronyms the abstracts define ("recurrent neural
  networks (RNNs)") in >= `ACRONYM_MIN` of them, each with its most common expansion where that is >= `ACRONYM_SHARE`
  of its definitions ("DP" is differential privacy 42% of the time and dynamic programming 27%: left out), and
  that the abstracts seldom write as a lower-case word (`ACRONYM_AS_WORD`: "LoG" is left out for "log n"). A
  library's own definitions win (`text.acronyms.Acronyms.with_background`); a small one defines few of its own.
All of them are statistics of public abstracts (no text is stored). Takes ~2 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from paperscope.bench.corpus import default_corpus, iter_records
from paperscope.text.analyzer import STOPWORDS, _stemmer, raw_terms
from paperscope.text.sentences import sentences

OUT = Path(__file__).resolve().parents[1] / "relevance" / "data"
_SUBJECT = re.compile(r"\b(?:[Ww]e|[Tt]his (?:paper|work|study|article|thesis)|[Oo]ur (?:paper|work|study)|"
                      r"[Tt]he (?:paper|present work|present paper))\s+(?:[a-z]+ly\s+|also\s+|further\s+|then\s+|"
                      r"first\s+|here\s+|now\s+)?([a-z]+)")


def stems(text: str) -> list[str]:
    """Every word's stem (stopwords kept: the callers decide)."""
    out: list[str] = _stemmer().stemWords(raw_terms(text))
    return out


def _texts(corpus: Path) -> Iterator[tuple[str, str]]:
    for rec in iter_records(corpus):
        yield str(rec.get("title") or ""), str(rec["abstract"])


def build(corpus: Path, out: Path = OUT, dim: int = 128, window: int = 8, min_df: int = 5) -> None:
    import scipy.sparse as sp
    from sklearn.decomposition import TruncatedSVD

    t0 = time.time()
    out.mkdir(parents=True, exist_ok=True)
    subject: Counter[str] = Counter()
    total: Counter[str] = Counter()
    df: Counter[str] = Counter()
    pos_sum: dict[str, float] = defaultdict(float)
    pos_n: Counter[str] = Counter()
    docs: list[list[str]] = []
    words_df: Counter[str] = Counter()
    n_docs = 0
    for title, abstract in _texts(corpus):
        n_docs += 1
        words_df.update(_words(f"{title} {abstract}"))
        for m in _SUBJECT.finditer(abstract):
            subject[_stemmer().stemWord(m.group(1))] += 1
        words = raw_terms(abstract)
        total.update(_stemmer().stemWords(words))
        all_stems = stems(f"{title} {abstract}")
        df.update(set(all_stems))
        docs.append([s for w, s in zip(raw_terms(f"{title}. {abstract}"), all_stems)
                     if w not in STOPWORDS and len(w) > 1 and not w.isdigit()])
        sents = sentences(abstract)
        if len(sents) >= 3:
            for i, sent in enumerate(sents):
                x = i / (len(sents) - 1)
                for s in set(stems(sent)):
                    pos_sum[s] += x
                    pos_n[s] += 1
    scaffold = {s: round(c / total[s], 4) for s, c in subject.items() if total[s] >= 20 and c / total[s] >= 0.02}
    (out / "scaffold.json").write_text(json.dumps(dict(sorted(scaffold.items()))))
    with gzip.open(out / "background_df.json.gz", "wt", encoding="utf-8") as fh:
        json.dump({"n": n_docs, "df": dict(sorted((s, c) for s, c in df.items() if c >= 2))}, fh)
    _write_words(words_df, out)
    mean = sum(pos_sum.values()) / max(sum(pos_n.values()), 1)
    position = {s: round(pos_sum[s] / pos_n[s] - mean, 3) for s in sorted(pos_n) if pos_n[s] >= 30}
    (out / "position.json").write_text(json.dumps(position))
    print(f"counts done in {time.time() - t0:.0f}s ({n_docs} abstracts)")

    doc_df: Counter[str] = Counter()
    for d in docs:
        doc_df.update(set(d))
    vocab = sorted(s for s, c in doc_df.items() if c >= min_df)
    index = {s: i for i, s in enumerate(vocab)}
    rows: list[int] = []
    cols: list[int] = []
    for d in docs:
        ids = [index[s] for s in d if s in index]
        for i, a in enumerate(ids):
            for b in ids[i + 1:i + 1 + window]:
                if a != b:
                    rows.append(a)
                    cols.append(b)
    v = len(vocab)
    co = sp.coo_matrix((np.ones(len(rows), np.float32), (np.array(rows), np.array(cols))), shape=(v, v)).tocsr()
    co = (co + co.T).tocoo()
    grand = float(co.sum())
    row_sum = np.asarray(co.tocsr().sum(1)).ravel()
    ctx = row_sum ** 0.75
    ctx = ctx / ctx.sum()
    pmi = np.log(co.data / grand / (row_sum[co.row] / grand) / ctx[co.col])
    keep = pmi > 0
    ppmi = sp.csr_matrix((pmi[keep].astype(np.float32), (co.row[keep], co.col[keep])), shape=(v, v))
    svd = TruncatedSVD(n_components=dim, algorithm="randomized", n_iter=5, random_state=0)
    u = svd.fit_transform(ppmi) / np.sqrt(svd.singular_values_)[None, :]  # U * S^0.5
    u /= np.linalg.norm(u, axis=1, keepdims=True) + 1e-9
    np.savez_compressed(out / "thesaurus.npz", vocab=np.array(vocab), vecs=u.astype(np.float16))
    print(f"thesaurus of {v} stems done in {time.time() - t0:.0f}s -> {out}")
    if out.resolve() != OUT.resolve():
        # Phrases are read with the package's thesaurus (`features.base_concept`): built beside
        # another one they would spell concepts the shipped code never reads ("causal discove").
        print(f"title phrases not built: copy {out}/* into {OUT}, then run with --title-phrases")
        return
    from paperscope.relevance import features, lexicon

    lexicon.thesaurus.cache_clear()  # the one just written, not one read before
    features.word_families.cache_clear()
    build_title_phrases(corpus, out)


WORD_MIN_DF = 3
_WORD = re.compile(r"[a-z]{5,}")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _write_words(df: Counter[str], out: Path) -> None:
    kept = sorted(w for w, c in df.items() if c >= WORD_MIN_DF)
    with gzip.GzipFile(out / "words.txt.gz", "wb", mtime=0) as fh:  # mtime 0: the same bytes each build
        fh.write("".join(f"{w}\t{df[w]}\n" for w in kept).encode("utf-8"))
    print(f"{len(kept)} words (>= {WORD_MIN_DF} abstracts) -> {out}")


def build_words(corpus: Path, out: Path = OUT) -> None:
    """`words.txt.gz` alone (module docstring)."""
    df: Counter[str] = Counter()
    for title, abstract in _texts(corpus):
        df.update(_words(f"{title} {abstract}"))
    _write_words(df, out)


# A phrase that more than this share of abstracts use is the field's common ground ("neural
# network" 0.10, "real world" 0.10, "real time" 0.054, "experimental results" 0.10), not a research
# term: "Which papers study quantization of neural networks?" abstained because the two
# quantization papers say "LLMs", never "neural network". The next phrases down ("large scale"
# 0.046, "reinforcement learning" 0.042, "language model" 0.041) name topics and stay terms.
COMMON_PHRASE = 0.05


def _pairs(text: str) -> set[str]:
    """Adjacent concept pairs of `text`, read as a question's phrases are (`question.analyze`):
    "of" inside keeps the chain ("mixture of experts" -> "mixtur expert"), any other stopword breaks it."""
    from paperscope.relevance.features import base_concept

    words = [w for w in raw_terms(text) if w != "of"]
    seq = [None if w in STOPWORDS else base_concept(s) for w, s in zip(words, _stemmer().stemWords(words))]
    return {f"{a} {b}" for a, b in zip(seq, seq[1:]) if a and b and a != b}


def build_title_phrases(corpus: Path, out: Path = OUT, min_titles: int = 2) -> None:
    """`title_phrases.txt.gz` (module docstring): pairs that >= `min_titles` titles use and at
    most `COMMON_PHRASE` of the abstracts. Reads concepts as the relevance features do
    (`features.base_concept`, which reads the shipped thesaurus: build that first)."""
    titles: Counter[str] = Counter()
    abstracts: Counter[str] = Counter()
    n = 0
    for title, abstract in _texts(corpus):
        n += 1
        titles.update(_pairs(title))
        abstracts.update(_pairs(abstract))
    common = {p for p, c in abstracts.items() if c > COMMON_PHRASE * n}
    kept = sorted(p for p, c in titles.items() if c >= min_titles and p not in common)
    with gzip.GzipFile(out / "title_phrases.txt.gz", "wb", mtime=0) as fh:  # mtime 0: the same bytes each build
        fh.write(("\n".join(kept) + "\n").encode("utf-8"))
    dropped = sorted(p for p, c in titles.items() if c >= min_titles and p in common)
    (out / "common_phrases.txt").write_text("\n".join(dropped) + "\n", encoding="utf-8")
    print(f"{len(kept)} title phrases (>= {min_titles} titles; common ground left out: {', '.join(dropped)}) -> {out}")


ACRONYM_MIN, ACRONYM_SHARE, ACRONYM_AS_WORD = 5, 0.7, 0.1
ACRONYMS_OUT = Path(__file__).resolve().parents[1] / "text" / "data" / "acronyms.json"


def build_acronyms(corpus: Path, out: Path = ACRONYMS_OUT) -> None:
    """`acronyms.json` (module docstring): {"table": acronym concept -> expansion concepts, "surface":
    acronym concept -> its expansion as most often written}, as `Acronyms.learn` reads a library."""
    from paperscope.text.acronyms import _WORD, acronym_concept, acronym_definitions, written_as_acronym
    from paperscope.text.analyzer import concepts

    counts: dict[str, Counter[tuple[str, ...]]] = defaultdict(Counter)
    forms: dict[tuple[str, tuple[str, ...]], Counter[str]] = defaultdict(Counter)
    # Lower-case words by the concept they read as ("log", "map", "harnessing" -> "har"): a paper writing them names
    # no acronym, but coverage reads concepts, so "HAR" (human activity recognition) would cover "harness".
    as_word: Counter[str] = Counter()
    as_acronym: Counter[str] = Counter()
    word_concept: dict[str, str | None] = {}
    for title, abstract in _texts(corpus):
        text = f"{title}. {abstract}"
        for acr, expansion in acronym_definitions(text):
            key, exp = acronym_concept(acr), tuple(sorted(concepts(expansion)))
            if key and len(key) >= 2 and len(exp) >= 2 and key not in exp:
                counts[key][exp] += 1
                forms[(key, exp)][expansion.lower()] += 1
        for w in _WORD.findall(text):
            if w.islower():
                if w not in word_concept:
                    word_concept[w] = acronym_concept(w)
                if c := word_concept[w]:
                    as_word[c] += 1
            elif written_as_acronym(w) and (c := acronym_concept(w)):
                as_acronym[c] += 1
    table, surface = {}, {}
    for key, exps in sorted(counts.items()):
        (exp, n), total = exps.most_common(1)[0], sum(exps.values())
        # A key also written as a word ("LoG" and "log n", "MAP" and "map") would read every such word as the acronym.
        if total >= ACRONYM_MIN and n >= ACRONYM_SHARE * total and as_word[key] <= ACRONYM_AS_WORD * as_acronym[key]:
            table[key] = list(exp)
            written = forms[(key, exp)]
            surface[key] = max(written, key=lambda f: (written[f], f))
    out.write_text(json.dumps({"table": table, "surface": surface}, sort_keys=True), encoding="utf-8")
    print(f"{len(table)} acronyms (>= {ACRONYM_MIN} definitions, one expansion >= {ACRONYM_SHARE:.0%}) -> {out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--title-phrases", action="store_true", help="build title_phrases.txt.gz alone")
    ap.add_argument("--words", action="store_true", help="build words.txt.gz alone")
    ap.add_argument("--acronyms", action="store_true", help="build paperscope/text/data/acronyms.json alone")
    args = ap.parse_args()
    if args.acronyms:
        build_acronyms(args.corpus or default_corpus())
        return
    step = build_title_phrases if args.title_phrases else build_words if args.words else build
    step(args.corpus or default_corpus(), args.out)


if __name__ == "__main__":
    main()
