"""ccsim run's background series writer: order, waiting for the imports, errors."""

from __future__ import annotations

import threading

import pytest

from ccsim.chunk_writer import ChunkWriter


def _gated_writer() -> tuple[threading.Event, threading.Thread, list[int], ChunkWriter]:
    """A writer whose `ready` (the background imports) finishes when the gate is set."""
    gate = threading.Event()
    ready = threading.Thread(target=gate.wait)
    ready.start()
    written: list[int] = []
    return gate, ready, written, ChunkWriter(ready, written.append)


def test_writes_in_order_only_after_ready() -> None:
    gate, _, written, w = _gated_writer()
    for i in range(50):
        w.put(i)
    assert written == [], "nothing is written before the imports are done"
    gate.set()
    w.close()
    assert written == list(range(50))


def test_error_is_raised_by_close_and_later_chunks_dropped() -> None:
    ready = threading.Thread(target=lambda: None)
    ready.start()
    seen: list[int] = []

    def write(i: int) -> None:
        seen.append(i)
        if i == 2:
            raise OSError(28, "No space left on device")

    w = ChunkWriter(ready, write)
    for i in range(5):
        w.put(i)
    with pytest.raises(OSError, match="No space"):
        w.close()
    assert seen == [0, 1, 2]


def test_cancel_returns_before_ready_and_nothing_is_written_after() -> None:
    """An interrupted run cancels: it must not wait for slow imports, and the thread must
    write nothing into the results being removed."""
    gate, ready, written, w = _gated_writer()
    for i in range(5):
        w.put(i)
    w.cancel()  # returns at once although `ready` has not finished
    assert ready.is_alive()
    gate.set()
    w._thread.join(timeout=5)
    assert not w._thread.is_alive() and written == []
