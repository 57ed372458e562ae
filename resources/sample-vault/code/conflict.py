"""Prototype of the Aurora merge rules (Priya's reference implementation).

Scalar fields are last-writer-wins registers ordered by hybrid logical clock
(HLC) timestamps; ties are broken by device id. See the decision record
"2026-02-20 Conflict resolution strategy".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Optional, Tuple

# Operations more than 60 seconds in the future are rejected (AUR-1207).
MAX_CLOCK_SKEW_MS = 60_000


class ClockSkewError(Exception):
    code = "AUR-1207"


@dataclass(frozen=True, order=True)
class HLC:
    """Hybrid logical clock timestamp: physical milliseconds + logical counter."""

    physical_ms: int
    counter: int = 0

    def __str__(self) -> str:
        return f"{self.physical_ms}:{self.counter}"


class HybridLogicalClock:
    def __init__(self, now_ms: int = 0) -> None:
        self.last = HLC(now_ms, 0)

    def tick(self, wall_ms: int) -> HLC:
        """Timestamp a local event."""
        if wall_ms > self.last.physical_ms:
            self.last = HLC(wall_ms, 0)
        else:
            self.last = HLC(self.last.physical_ms, self.last.counter + 1)
        return self.last

    def receive(self, remote: HLC, wall_ms: int) -> HLC:
        """Merge a remote timestamp; reject it if it is too far in the future."""
        if remote.physical_ms - wall_ms > MAX_CLOCK_SKEW_MS:
            raise ClockSkewError(f"remote clock {remote} is ahead of {wall_ms} by more than 60 s")
        physical = max(wall_ms, self.last.physical_ms, remote.physical_ms)
        if physical == self.last.physical_ms == remote.physical_ms:
            counter = max(self.last.counter, remote.counter) + 1
        elif physical == self.last.physical_ms:
            counter = self.last.counter + 1
        elif physical == remote.physical_ms:
            counter = remote.counter + 1
        else:
            counter = 0
        self.last = HLC(physical, counter)
        return self.last


@dataclass(frozen=True)
class FieldOp:
    record: str
    field: str
    value: Any
    hlc: HLC
    device_id: str

    def sort_key(self) -> Tuple[HLC, str]:
        return (self.hlc, self.device_id)


@dataclass
class LWWRecord:
    """A record whose fields are independent last-writer-wins registers."""

    winners: Dict[str, FieldOp] = field(default_factory=dict)
    deleted_at: Optional[HLC] = None  # tombstone

    def apply(self, op: FieldOp) -> bool:
        """Apply an operation; returns True if it changed the visible state."""
        if self.deleted_at is not None and op.hlc <= self.deleted_at:
            return False
        current = self.winners.get(op.field)
        if current is None or op.sort_key() > current.sort_key():
            self.winners[op.field] = op
            return True
        return False  # duplicates and older writes are no-ops (idempotent)

    def value(self) -> Dict[str, Any]:
        return {name: op.value for name, op in self.winners.items()}


def merge(ops: Iterable[FieldOp]) -> Dict[str, Dict[str, Any]]:
    """Merge operations in any order; the result does not depend on the order."""
    records: Dict[str, LWWRecord] = {}
    for op in ops:
        records.setdefault(op.record, LWWRecord()).apply(op)
    return {rid: rec.value() for rid, rec in sorted(records.items())}


if __name__ == "__main__":
    a = FieldOp("job-981", "status", "done", HLC(1_742_806_113_004, 0), "tab-19")
    b = FieldOp("job-981", "status", "open", HLC(1_742_806_111_876, 2), "ph-07")
    assert merge([a, b]) == merge([b, a]) == {"job-981": {"status": "done"}}
    print("converged:", merge([a, b]))
