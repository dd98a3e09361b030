#!/usr/bin/env bash
# GPU benchmark: MiniLM embedding throughput on the 85,864-abstract corpus (fp16, large
# batches) and SmolLM2-135M generation TTFT / tokens/s at batch 1 and 32 against the
# memory-bandwidth bound. Auto-detects CUDA; without it (or with --small) it runs small
# sizes on CPU in well under a minute. Needs torch + transformers only; everything else
# (tokenizers, gguf, the corpus, the real weights) is used when present.
#
#   bash src/paperscope/bench/gpu.sh                 # on the GPU machine: < 8 min on an H200
#   bash src/paperscope/bench/gpu.sh --small         # CPU smoke run (what tests/test_bench.py runs)
#   bash src/paperscope/bench/gpu.sh --out r.json    # also write the JSON report to a file ($OUT/gpu_bench.json by default when $OUT is set)
#
# The corpus is looked up in ./shared, ../shared and src/paperscope/bench/data/; to take it to a
# machine that has only the repository:
#   mkdir -p src/paperscope/bench/data && cp ../shared/corpora/conference_abstracts.jsonl.gz src/paperscope/bench/data/
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"  # the repository (this file is src/paperscope/bench/gpu.sh)
py="${PYTHON:-}"
if [[ -z "$py" ]]; then
  if [[ -x "$root/.venv/bin/python" ]]; then py="$root/.venv/bin/python"; else py="$(command -v python3 || command -v python)"; fi
fi
export TOKENIZERS_PARALLELISM="${TOKENIZERS_PARALLELISM:-true}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TRANSFORMERS_VERBOSITY="${TRANSFORMERS_VERBOSITY:-error}"
exec timeout "${GPU_BENCH_TIMEOUT:-470}" "$py" "$here/gpu_bench.py" "$@"
