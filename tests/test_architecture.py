"""The shape of the code, read with `ast` from the source files (nothing is imported):
no import cycle among paperscope's modules, imports that only point down the layers, no
module over 400 lines, LLM clients that import nothing from the answer layer, and no test
double shipped in the product."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

# Where each installed package lives in the repository (see [tool.setuptools] in pyproject.toml).
PACKAGES = {"paperscope": ROOT / "src" / "paperscope", "paperscope.ingest": ROOT / "ingest", "paperscope.ui": ROOT / "ui"}
MAX_LINES = 400
# Imports point down: surfaces -> assistant -> library -> answer / relevance / retrieve / ingest -> index / llm ->
# text / records.
LAYERS = [
    ("paperscope.cli", "paperscope.ui", "paperscope.bench", "paperscope"),  # surfaces (and the package facade)
    ("paperscope.assistant",),
    ("paperscope.library",),
    ("paperscope.answer", "paperscope.relevance", "paperscope.retrieve", "paperscope.crosslingual", "paperscope.ingest",
     "paperscope.integrations", "paperscope.gather", "paperscope.listings"),
    ("paperscope.index", "paperscope.llm"),
    ("paperscope.text", "paperscope.records", "paperscope.settings", "paperscope.registry", "paperscope.secrets",
     "paperscope._env"),
]


def modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[0] in ("ingest", "ui") and package == "paperscope":
                continue  # never: ingest/ and ui/ live outside src/
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join([package, *parts])] = path
    return out


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """Modules of paperscope that `module` imports anywhere (functions included), except under
    `if TYPE_CHECKING:`; `importlib.import_module("paperscope.x")` counts too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def resolve(name: str) -> None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name:
            found.add(name)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                resolve(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                resolve(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
        elif isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            if name in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                resolve(node.args[0].value)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    found.discard(module)
    return {m for m in found if m.startswith("paperscope")}


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {m: imports_of(m, p, known) for m, p in mods.items()}


def layer(module: str) -> int:
    best, rank = -1, len(LAYERS)
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    return rank


def test_the_module_map_finds_every_package():
    mods = modules()
    for name in ("paperscope.assistant", "paperscope.index.catalog", "paperscope.ingest.readers",
                 "paperscope.ingest.pipeline", "paperscope.ui.app", "paperscope.relevance.model"):
        assert name in mods, name
    assert all(layer(m) < len(LAYERS) for m in mods), [m for m in mods if layer(m) == len(LAYERS)]


def test_no_import_cycle():
    edges = graph()
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def dfs(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                dfs(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            dfs(node)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_imports_point_down_the_layers():
    upward = [f"{m} (layer {layer(m)}) imports {t} (layer {layer(t)})"
              for m, targets in graph().items() for t in sorted(targets) if layer(t) < layer(m)]
    assert not upward, "\n".join(upward)


def test_llm_clients_import_nothing_from_the_answer_layer():
    bad = [(m, t) for m, targets in graph().items() if m.startswith("paperscope.llm")
           for t in targets if t.startswith("paperscope.answer")]
    assert not bad, bad


def test_no_module_is_over_the_size_limit():
    sizes = {m: len(p.read_text(encoding="utf-8").splitlines()) for m, p in modules().items()}
    big = {m: n for m, n in sizes.items() if n > MAX_LINES}
    assert not big, f"modules over {MAX_LINES} lines (split them by concept): {big}"


def test_test_doubles_are_not_shipped():
    for module, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
        assert "FakeEmbedder" not in names, module
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Constant)
                 and n.args[0].value == "fake"]
        assert not calls, f"{module} registers something named 'fake'"


def test_one_citation_marker_regex():
    """The [n] marker pattern is spelled in answer/markers.py only; verification, prompts and the
    UI use that one object."""
    spelled = [m for m, p in modules().items() if r"\d{1,3}(?:\s*" in p.read_text(encoding="utf-8")]
    assert spelled == ["paperscope.answer.markers"], spelled
    from paperscope.answer import generate, markers, verify
    from paperscope.ui import render

    assert verify.MARKER is markers.MARKER and render.MARKER is markers.MARKER and generate.MARKER is markers.MARKER
