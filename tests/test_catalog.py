"""The catalog under concurrent readers: the BM25 state is one immutable snapshot, replaced by
one assignment, and `rebuild_from` replaces every row in one transaction, so a reader never
sees an empty or half-filled catalog while it is rebuilt."""

from __future__ import annotations

import threading

from paperscope.index.bm25 import Bm25Snapshot
from paperscope.index.catalog import Catalog


def test_snapshot_is_immutable_and_swapped_whole(fake_assistant):
    cat = fake_assistant.catalog
    snap = cat.snapshot()
    assert isinstance(snap, Bm25Snapshot) and len(snap) == 38 and cat.snapshot() is snap
    try:
        snap.ids = ()  # type: ignore[misc]
        raise AssertionError("a snapshot must be immutable")
    except AttributeError:
        pass
    new = cat.build_bm25("another-generation")
    assert cat.snapshot() is new and new is not snap and new.ids == snap.ids
    assert snap.search("Langevin dynamics", 3) == new.search("Langevin dynamics", 3)  # the old one still answers


def test_rebuild_is_one_transaction_for_readers(fake_assistant, tmp_path):
    store = fake_assistant.store
    other = Catalog(tmp_path / "other", fake_assistant.settings.collection_name())
    other.rebuild_from(store)
    assert other.paper_count() == 38
    stop = threading.Event()
    seen: list[int] = []
    missing: list[int] = []
    ids = [pid for pid, _ in other.venues()]  # warm the connection of the main thread

    def reader() -> None:
        every = other.snapshot().ids
        while not stop.is_set():
            seen.append(other.paper_count())
            got = other.papers(list(every))
            if len(got) != len(every):
                missing.append(len(got))

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for t in threads:
        t.start()
    try:
        for _ in range(5):
            other.rebuild_from(store)
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert ids and seen and set(seen) == {38}, sorted(set(seen))
    assert not missing
