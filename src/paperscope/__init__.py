"""paperscope: question answering over research-paper abstracts with verified citations.

    from paperscope import Assistant
    a = Assistant.open()
    a.ingest(["seeds/"])
    print(a.ask("Which papers address MoE latency?").text)
"""

from paperscope import _env  # noqa: F401  (must run before tiktoken/chromadb/gradio import)
from paperscope.answer.types import Answer, Citation
from paperscope.assistant import Assistant, QuestionError
from paperscope.retrieve import Filters, Hit
from paperscope.settings import Settings
from paperscope.store import StoreError

__all__ = ["Answer", "Assistant", "Citation", "Filters", "Hit", "QuestionError", "Settings", "StoreError"]
__version__ = "0.1.0"
