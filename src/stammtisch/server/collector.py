"""Garbage-collector pauses of a busy server.

CPython's young collection scans every container allocated since the last one that is still
alive.  Its trigger counts allocations *minus* deallocations, so while a server replaces the
views, states and connections of hundreds of tables (as many objects die as are made) the young
generation swells to ~200,000 live objects before a collection comes, which then blocks the event
loop for 100–200 ms.  Freezing the heap every ``every`` seconds (``gc.freeze``: what is alive now is
not scanned again) keeps each collection to the few seconds' objects since.  Frozen objects are
still freed by reference counting; only reference cycles among them wait for the sweep, an
unfreeze and full collection every ``sweep`` seconds."""

from __future__ import annotations

import asyncio
import gc


async def freeze_periodically(every: float, sweep: float) -> None:
    loop = asyncio.get_running_loop()
    swept = loop.time()
    while True:
        await asyncio.sleep(every)
        if loop.time() - swept >= sweep:
            gc.unfreeze()
            gc.collect()
            swept = loop.time()
        gc.freeze()
