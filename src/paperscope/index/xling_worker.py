"""One worker process of a large `multilingual.Encoder.embed` call (an index build).

    python -m paperscope.index.xling_worker TEXTS.json OUT.npy [NICENESS]

Reads a JSON list of texts, writes their USE-m rows (float32, unit length) to OUT.npy.
NICENESS (default 0) is added to the worker's own before it starts.
A plain subprocess, not multiprocessing: a spawned multiprocessing child re-imports the
caller's main script (a user's unguarded script would run again in every worker), and a forked
one inherits ONNX Runtime's and Chroma's threads mid-flight.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    if len(argv) == 3 and int(argv[2]):
        os.nice(int(argv[2]))
    from paperscope.index.multilingual import Encoder

    texts = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    rows = Encoder(processes=1).embed(texts)
    tmp = Path(argv[1]).with_suffix(".part.npy")
    np.save(tmp, rows)
    tmp.replace(argv[1])  # the parent reads OUT.npy only once it is whole
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
