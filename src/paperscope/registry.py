"""One name -> factory registry per kind of part: embedders, LLM clients, answerers.

Built-ins register in code, `REGISTRY.register("name")(factory)`; a plugin does the same, or,
without any import of its own, declares a setuptools entry point in the registry's group:

    [project.entry-points."paperscope.embedders"]   # factory(EmbedSettings) -> Embedder
    my-embedder = "my_package.module:MyEmbedder"
    [project.entry-points."paperscope.llms"]        # factory(LLMSettings) -> LLM client
    [project.entry-points."paperscope.answerers"]   # factory(Settings) -> Answerer

Entry points are read when a name is looked up (so a plugin installed while the program runs
is found), and loaded only when chosen. A name registered in code wins over an entry point.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Generic, TypeVar

F = TypeVar("F", bound=Callable[..., object])


class Registry(Generic[F]):
    def __init__(self, kind: str, group: str, hint: str = "", error: type[Exception] = ValueError) -> None:
        self.kind, self.group, self.hint, self.error = kind, group, hint, error
        self._factories: dict[str, F] = {}
        self._lock = threading.Lock()

    def register(self, name: str) -> Callable[[F], F]:
        def deco(factory: F) -> F:
            with self._lock:
                self._factories[name] = factory
            return factory
        return deco

    def plugins(self) -> dict[str, EntryPoint]:
        """Installed entry points of this registry's group, by name."""
        return {ep.name: ep for ep in entry_points(group=self.group)}

    def names(self) -> list[str]:
        return sorted(set(self._factories) | set(self.plugins()))

    def __contains__(self, name: object) -> bool:
        return name in self._factories or name in self.plugins()

    def get(self, name: str) -> F:
        factory = self._factories.get(name)
        if factory is not None:
            return factory
        ep = self.plugins().get(name)
        if ep is None:
            raise self.error(f"unknown {self.kind} {name!r}; {self.hint}choose one of {', '.join(self.names())}")
        try:
            loaded: F = ep.load()
        except Exception as exc:  # a broken plugin: say which one, never a bare traceback
            raise self.error(f"{self.kind} {name!r} (plugin {ep.value}) failed to load: "
                             f"{type(exc).__name__}: {exc}") from exc
        with self._lock:
            self._factories.setdefault(name, loaded)
        return self._factories[name]
