"""Answering: the answerer contract (`base`), the offline extractive answerer, the generative
one over an LLM client (`generate`, `reply`, `prompts`), the one citation-marker regex
(`markers`), citation verification with typed removals (`verify`) and the `Plan` of a
question with its `AbstainReason` (`plan`). Backends are chosen in `backends`.
"""
