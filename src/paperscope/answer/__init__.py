"""Answering: evidence selection (support), the offline extractive answerer, verification."""

from paperscope.answer.types import Answer, Citation, Evidence

__all__ = ["Answer", "Citation", "Evidence"]
