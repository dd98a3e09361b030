"""The datasets and benchmarks the papers of an answer name, counted: said first for a question about
the datasets of a topic's papers ("What datasets are used for crowd counting?", "What is the most common
dataset for crowd counting?": "Named most in these papers' abstracts: ShanghaiTech (5), UCF_CC_50 (3) ...").

A name is a word written like one (a digit, an inner capital or two capitals: ShanghaiTech, UCF-QNRF,
WorldExpo'10, KITTI) in a sentence that speaks of data (dataset, benchmark, corpus, evaluated, experiments
on), and not the paper's own title words, the question's words or their initials (NER, VQA), nor one of the
field's generic abbreviations (CNN, MAE, RGB). Over 20,000 papers: crowd counting ShanghaiTech 5, UCF_CC_50 3,
WorldExpo'10 2, UCF-QNRF 2; monocular depth estimation KITTI 16, NYU 3, Make3d 2.
Leaves out: plain capitalised names ("Spider", "Cityscapes": sentence-initial words look the same).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from paperscope.records import Evidence

_DATA_SENTENCE = re.compile(r"\b(?:datasets?|data\s+sets?|benchmarks?|corpora|corpus|test\s+sets?|evaluat\w*|"
                            r"experiments?\s+on)\b", re.I)
_NAME = re.compile(r"(?<![\w-])(?=[\w'-]*(?:\d|[a-z][A-Z]|[A-Z]{2}))[A-Za-z][\w'.-]*[\w']")
_GENERIC = frozenset("""cnn cnns rnn rnns lstm gan gans mae mse rmse sota rgb rgb-d gpu gpus cpu ai ml nlp cv rl llm llms
map iou auc f1 ap fps bleu rouge psnr ssim 2d 3d 6d 4d 1d dof imu lidar gps bert gpt vit vits resnet vgg mlp svm crf pca
knn em sgd adam kl ood id ner vqa qa mt asr tts uav uavs""".split())
# "Which datasets ...?", "the most common dataset for X", "数据集": a question about the papers' datasets.
_ASKS_DATASETS = re.compile(r"\b(?:datasets?|data\s+sets?|benchmarks?|corpora|test\s+sets?)\b|数据集|基准", re.I)
MIN_PAPERS = 2  # a name one paper writes is its own (its method, its new dataset)
SHOWN = 6


def asks_datasets(question: str) -> bool:
    return bool(_ASKS_DATASETS.search(question))


def dataset_names(cited: Sequence[Evidence], sentences: Sequence[Sequence[str]], question: str) -> list[tuple[str, int]]:
    """(name, papers that write it) for the names at least `MIN_PAPERS` of `cited` write in a data
    sentence (`sentences`: each paper's), most papers first."""
    asked = {w.lower() for w in re.findall(r"[\w'-]+", question)}
    words = [w for w in re.findall(r"[A-Za-z][\w-]*", question) if w.lower() not in {"which", "what", "the", "for", "of"}]
    initials = "".join(w[0] for w in words).lower()
    count: Counter[str] = Counter()
    for ev, sents in zip(cited, sentences):
        own = {w.lower() for w in re.findall(r"[\w'-]+", ev.paper.title)}
        seen: set[str] = set()
        for s in sents:
            if not _DATA_SENTENCE.search(s):
                continue
            for m in _NAME.finditer(s):
                name = m.group(0).strip(".'")
                key = name.lower()
                bare = key[:-1] if key.endswith("s") else key
                if (key in _GENERIC or key in own or key in asked or len(key) < 3 or re.fullmatch(r"[\d.x%-]+", key)
                        or (len(bare) >= 2 and bare in initials)):
                    continue
                seen.add(name)
        count.update(seen)
    named = [(n, k) for n, k in count.most_common() if k >= MIN_PAPERS]
    # "UCF" beside "UCF_CC_50" and "UCF-QNRF": a part of a longer name listed with it
    return [(n, k) for n, k in named if not any(o != n and o.lower().startswith(n.lower()) for o, _ in named)][:SHOWN]
