"""One small name -> factory registry, shared by embedders, LLM clients and answerers.

Built-ins register exactly as a plugin would: `REGISTRY.register("name")(factory)`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

F = TypeVar("F", bound=Callable)


class Registry(Generic[F]):
    def __init__(self, kind: str, hint: str = "", error: type[Exception] = ValueError,
                 before_lookup: Callable[[], None] | None = None):
        self.kind, self.hint, self.error = kind, hint, error
        self._before = before_lookup  # e.g. import the package whose import registers plugins
        self._factories: dict[str, F] = {}

    def register(self, name: str) -> Callable[[F], F]:
        def deco(factory: F) -> F:
            self._factories[name] = factory
            return factory
        return deco

    def names(self) -> list[str]:
        if self._before:
            self._before()
        return sorted(self._factories)

    def get(self, name: str) -> F:
        names = self.names()
        try:
            return self._factories[name]
        except KeyError:
            raise self.error(f"unknown {self.kind} {name!r}; {self.hint}choose one of {', '.join(names)}") from None
