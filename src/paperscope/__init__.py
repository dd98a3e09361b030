"""paperscope: question answering over research-paper abstracts with verified citations.

    from paperscope import Assistant
    a = Assistant.open()
    a.ingest(["seeds/"])
    print(a.ask("Which papers address MoE latency?").text)
"""

from paperscope import _env  # noqa: F401  (must run before tiktoken/chromadb/gradio import)
from paperscope.assistant import Assistant, QuestionError, TextPiece
from paperscope.index.store import StoreError
from paperscope.records import Answer, Citation, Hit, NearestPaper, Paper
from paperscope.retrieve import Filters
from paperscope.settings import Settings, UnknownSettingError

__all__ = ["Answer", "Assistant", "Citation", "Filters", "Hit", "NearestPaper", "Paper", "QuestionError", "Settings",
           "StoreError", "TextPiece", "UnknownSettingError"]
__version__ = "0.1.0"
