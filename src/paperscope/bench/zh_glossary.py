"""The corpus glossary of Chinese research terms (`paperscope/text/data/zh_glossary.json`):
which English phrases it covers, and how the hand-written terms become the shipped file.

    python -m paperscope.bench.zh_glossary phrases OUT.txt [--titles 12 --keywords 4]  # the phrases to translate
    python -m paperscope.bench.zh_glossary build IN.jsonl... [--out FILE]
    python -m paperscope.bench.zh_glossary derive [--out FILE]  # morphemes and senses only, from the shipped terms

`phrases`: 2-3-word phrases in >= 12 titles of the 85,864-abstract corpus (`title_topics`:
a phrase covered by a longer one in >= 80% of its titles is dropped) and author keywords
(1-4 words) of >= 4 papers, lowercased, hyphens as spaces; none that names a list-all benchmark
topic (`asks_benchmark_topic`) and none the hand-written `GLOSSARY` already translates.
A second pass (2026-12-03: `--titles 8 --keywords 3`, 3,147 more phrases) also leaves out those
already in the shipped file and any naming a cross-lingual benchmark topic (`XL_TOPIC_WORDS`:
bench/questions/crosslingual_topics.jsonl), so that benchmark still measures the glossary's reach
on topics it was not written for; 3,109 phrases, 2,179 of them with terms (one reader per ~390),
of which only terms of 3+ characters were built in: a two-character term is a morpheme of many
compounds and, as a jieba word, split them and took their gloss (软体 "soft bodied" turned
软体抓手 from "soft robotic gripper" into "soft bodied" + CC-CEDICT's "mechanical hand"), or
narrowed a common word to one sense (预测 "forecasting" without "predict").
Each phrase's Chinese was then written by a reader (JSON Lines {"en": phrase, "zh": [terms]}:
the standard Simplified Chinese terms, most common first, [] for a fragment).
`build`: the readers' files -> the shipped JSON, dropping subject-area labels ("machine learning
ml regression"), terms that are not 2+ Chinese characters only ("3D高斯", "力/力矩"), everyday
words with much broader senses (`TOO_BROAD`: 运动 is not only "locomotion"), and
the benchmark's own Chinese topic words (`BENCHMARK_WORDS`), so the list-all benchmark keeps
measuring topics this glossary does not name. (The hand-written `GLOSSARY` predates that rule and
holds 4 of them: 命名实体识别, 神经辐射场, 高斯泼溅, 检索增强生成.)
"""

from __future__ import annotations

import argparse
import collections
import json
import re
from pathlib import Path

from paperscope.text.zh import GLOSSARY, GLOSSARY_FILE

# The list-all benchmark's Chinese topic words (bench/questions/listall_topics.jsonl "zh"): the
# 11 the hand-written glossary leaves out (tests/test_crosslingual.py) and the topics' whole names.
BENCHMARK_WORDS = ("同心管", "讽刺", "共指消解", "插帧", "场景图", "人群计数", "抓手", "夹爪", "配准", "外参标定",
                   "里程计", "点云配准", "场景图生成", "视频插帧", "讽刺检测", "软体抓手", "软体夹爪", "同心管机器人",
                   "视觉惯性里程计", "仇恨言论", "仇恨言论检测", "命名实体识别", "神经辐射场", "高斯泼溅",
                   "检索增强生成", "共形预测", "汤普森采样", "因果发现", "神经架构搜索", "机器遗忘", "文本转SQL")
# The cross-lingual benchmark's topics (bench/questions/crosslingual_topics.jsonl) in English: the
# second pass translated no phrase containing one of these.
XL_TOPIC_WORDS = ("event camera", "dynamic vision", "spiking", "mixture of experts", "experts", "federated",
                  "sign language", "exoskeleton", "soft robot", "machine translation", "re identification",
                  "reidentification", "differential privacy", "quadruped", "legged", "hallucination", "named entity",
                  "radiance", "continual", "catastrophic", "visual question", "optical flow", "underwater", "moe",
                  "snn", "nerf", "vqa", "reid", "privacy")
# A term is Chinese characters only. One with Latin letters or digits ("3D高斯", "2D激光") is left
# out: its Latin part needs no translation (it passes through as written), and as one jieba word
# it split longer words ("3D高斯泼溅" became 3D高斯 + 泼 + 溅, losing 高斯泼溅 "gaussian
# splatting"); one with punctuation ("力/力矩") does not segment whole.
_CJK_ONLY = re.compile(r"[\u4e00-\u9fff]{2,}")
# Everyday words a reader gave as one phrase's term, whose everyday sense is much broader: 运动 is
# "motion" before it is "locomotion" (运动模糊 is motion blur), 合成 "synthesise" (not
# "synthetic"), 移动 "move / mobile", 代理 "proxy / surrogate" (代理模型) as well as "agent".
# CC-CEDICT's several senses serve them better.
TOO_BROAD = frozenset({"运动", "移动", "合成", "代理"})
# Conference subject-area labels among the author keywords ("Machine Learning (ML): Regression"
# -> "machine learning ml regression"): the label's area prefix is not part of the topic, and
# its term (回归) belongs to the plain phrase.
_AREA_LABEL = re.compile(r"^(?:machine learning|data mining|computer vision|robotics) \S+(?: |$)")


def phrases(corpus: Path, titles: int = 12, keyword_papers: int = 4) -> list[str]:
    from paperscope.bench.corpus import iter_records
    from paperscope.bench.relevance_items import _norm, asks_benchmark_topic, title_topics

    recs = list(iter_records(corpus))
    keywords: collections.Counter[str] = collections.Counter()
    for r in recs:
        keywords.update({_norm(k).strip() for k in r.get("keywords") or []})
    found = set(title_topics(recs, titles, 100_000, 100_000, 0))
    found |= {k for k, c in keywords.items() if c >= keyword_papers and 1 <= len(k.split()) <= 4}
    known = {e.lower() for forms in GLOSSARY.values() for e in forms}
    if (titles, keyword_papers) != (12, 4):  # the second pass: what the first did not translate
        known |= {str(e) for e, _ in json.loads(GLOSSARY_FILE.read_text(encoding="utf-8"))["terms"]}
        known |= {p for p in found if any(w in p for w in XL_TOPIC_WORDS)}
    return sorted(p for p in found if p not in known and not asks_benchmark_topic([p]))


def build(inputs: list[Path], out: Path = GLOSSARY_FILE) -> dict[str, int]:
    terms: list[tuple[str, list[str]]] = []
    dropped = 0
    for path in inputs:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if _AREA_LABEL.match(row["en"]):
                dropped += len(row["zh"])
                continue
            keep = [t for t in dict.fromkeys(row["zh"])
                    if _CJK_ONLY.fullmatch(t) and t not in BENCHMARK_WORDS and t not in TOO_BROAD
                    and t not in GLOSSARY]
            dropped += len(row["zh"]) - len(keep)
            if keep:
                terms.append((str(row["en"]), keep))
    terms.sort()
    return {**_write(out, terms), "dropped": dropped}


# A two-character word CC-CEDICT lacks (位姿, 单目, 人脸) is glossed by its characters ("position
# ... beauty disposition", "bill list eye look"); the glossary's terms that begin or end with it
# say what it means: 单目深度估计 is "monocular depth estimation" and 深度估计 "depth estimation",
# so 单目 is "monocular". Kept when one English word explains it in at least MORPHEME_MIN terms
# and in at least half of those it occurs in.
MORPHEME_MIN = 2
# A word CC-CEDICT has only in everyday senses (分割 "cut up", 姿态 "attitude", 时序 "timing") gets
# its research sense the same way (图像分割 "image segmentation", 实例分割, 动作分割 ...), put before
# CC-CEDICT's: a compound the glossary lacks (点云分割, 手势姿态) was glossed "point cloud cut up".
# Stricter, as it adds to a sense CC-CEDICT already gives: SENSE_MIN terms with at least
# SENSE_PARTNERS different other halves (one term family, 动态时间弯曲 / 时间弯曲, said 弯曲 "warping").
SENSE_MIN = 3
SENSE_PARTNERS = 2
_MORPHEME_WORD = re.compile(r"^[a-z][a-z0-9]*$")
_FUNCTION_WORDS = frozenset({"and", "or", "of", "to", "for", "in", "on", "the", "a", "an", "with", "by", "from", "as"})


def _halves(terms: list[tuple[str, list[str]]]) -> dict[str, dict[str, list[str]]]:
    """Two-character word -> English word -> the other halves of the glossary terms in which that word explains it
    (once per sense of the other half that leaves it): a term's English minus what its other half means."""
    from paperscope.text.zh import _cedict

    cedict = _cedict()
    english: dict[str, list[str]] = {}
    for en, zh in terms:
        for t in zh:
            english.setdefault(t, []).append(en.lower())
    for t, forms in GLOSSARY.items():
        english.setdefault(t, []).extend(f.lower() for f in forms)
    halves: dict[str, dict[str, list[str]]] = collections.defaultdict(lambda: collections.defaultdict(list))
    for term, forms in english.items():
        if len(term) < 3:
            continue
        for m, rest, first in ((term[:2], term[2:], True), (term[-2:], term[:-2], False)):
            if m in english or any(m in w for w in BENCHMARK_WORDS):
                continue
            known = english.get(rest) or cedict.get(rest) or []
            for form in forms:
                for g in (k.lower() for k in known[:6]):
                    if first and form.endswith(" " + g):
                        halves[m][form[:-len(g)].strip()].append(rest)
                    elif not first and form.startswith(g + " "):
                        halves[m][form[len(g):].strip()].append(rest)
    return halves


def _read_off(said: dict[str, list[str]], least: int, partners: int = 1) -> str | None:
    """The English word most terms say a word means, when at least `least` of them (with `partners`
    different other halves) and at least half of all say it."""
    counts = {w: len(v) for w, v in said.items()}
    word = max(counts, key=lambda w: (counts[w], w))
    n = counts[word]
    if (n >= least and n * 2 >= sum(counts.values()) and len(set(said[word])) >= partners
            and _MORPHEME_WORD.match(word) and word not in _FUNCTION_WORDS):
        return word
    return None


def derive_morphemes(terms: list[tuple[str, list[str]]]) -> dict[str, str]:
    """Two-character Chinese words CC-CEDICT lacks -> their English word, read off the glossary's
    terms (see MORPHEME_MIN); none is a benchmark word or part of one."""
    from paperscope.text.zh import _cedict

    cedict = _cedict()
    halves = _halves(terms)
    return {m: w for m, said in halves.items() if m not in cedict and (w := _read_off(said, MORPHEME_MIN))}


def derive_senses(terms: list[tuple[str, list[str]]]) -> dict[str, str]:
    """Two-character words CC-CEDICT has without their research sense -> that sense, read off the
    glossary's terms (see SENSE_MIN); none is a benchmark word or part of one, none is question scaffolding (相关
    "related", not "dependent"), and none has a stem already one of CC-CEDICT's senses'."""
    from paperscope.text.analyzer import terms as stems
    from paperscope.text.zh import _ZH_STOP, _cedict

    cedict = _cedict()
    halves = _halves(terms)
    out = {}
    for m, said in halves.items():
        if m in cedict and m not in _ZH_STOP and (w := _read_off(said, SENSE_MIN, SENSE_PARTNERS)):
            if not set(stems(w)) <= {s for g in cedict[m] for s in stems(g)}:
                out[m] = w
    return out


def _write(out: Path, terms: list[tuple[str, list[str]]]) -> dict[str, int]:
    """The shipped file: the terms, and the morphemes and senses read off them."""
    morphemes, senses = derive_morphemes(terms), derive_senses(terms)
    about = ("English research phrase -> Simplified Chinese terms; written by hand for the corpus's "
             "frequent title phrases and author keywords (paperscope.bench.zh_glossary).")
    rows = ",\n".join(json.dumps(list(r), ensure_ascii=False) for r in terms)

    def listed(found: dict[str, str]) -> str:
        return ",\n".join(json.dumps(list(m), ensure_ascii=False) for m in sorted(found.items()))

    # One phrase per line, so a change to the glossary reads as a line diff.
    out.write_text(f'{{"about": {json.dumps(about)}, "terms": [\n{rows}\n],\n"morphemes": [\n{listed(morphemes)}\n],\n'
                   f'"senses": [\n{listed(senses)}\n]}}\n', encoding="utf-8")
    return {"phrases": len(terms), "terms": sum(len(zh) for _, zh in terms), "morphemes": len(morphemes),
            "senses": len(senses)}


def main() -> None:
    from paperscope.bench.corpus import default_corpus

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("phrases")
    p.add_argument("out", type=Path)
    p.add_argument("--corpus", type=Path, default=None)
    p.add_argument("--titles", type=int, default=12, help="a title phrase in at least this many titles")
    p.add_argument("--keywords", type=int, default=4, help="an author keyword of at least this many papers")
    b = sub.add_parser("build")
    b.add_argument("inputs", type=Path, nargs="+")
    b.add_argument("--out", type=Path, default=GLOSSARY_FILE)
    d = sub.add_parser("derive", help="read the morphemes and senses off the shipped file's terms again")
    d.add_argument("--out", type=Path, default=GLOSSARY_FILE)
    args = ap.parse_args()
    if args.cmd == "phrases":
        found = phrases(args.corpus or default_corpus(), args.titles, args.keywords)
        args.out.write_text("\n".join(found) + "\n", encoding="utf-8")
        print(len(found), "phrases")
    elif args.cmd == "derive":
        shipped = json.loads(GLOSSARY_FILE.read_text(encoding="utf-8"))["terms"]
        print(_write(args.out, [(str(en), list(zh)) for en, zh in shipped]))
    else:
        print(build(args.inputs, args.out))


if __name__ == "__main__":
    main()
