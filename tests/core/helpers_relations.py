"""A stand-in for the app that answers the core's question about two people
(``games.core.relations``), for the core's own tests: it bars the pairs a test names."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from games.core import relations


class Answers:
    """``barred[(kind, actor, target)] = verdict``; ``asked`` every question, in order."""

    def __init__(self) -> None:
        self.barred: dict[tuple[str, int, int], str] = {}
        self.asked: list[tuple[str, frozenset[int], frozenset[int]]] = []

    def __call__(self, kind, actors, targets):
        self.asked.append((kind, actors, targets))
        return {
            (a, t): v for (k, a, t), v in self.barred.items() if k == kind and a in actors and t in targets
        }


@contextmanager
def answering() -> Iterator[Answers]:
    """Register an :class:`Answers` for the block, then give back the app's own."""
    before = relations._answerer
    answers = Answers()
    relations.answer_with(answers)
    try:
        yield answers
    finally:
        relations.answer_with(before)
