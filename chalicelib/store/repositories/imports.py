"""Import jobs: a run's lease on its job, the job's status moves, what the run reports on it
(services/imports/jobs.py, runner.py)."""
from __future__ import annotations

from typing import Any

from chalicelib.store.keys import Key
from chalicelib.store.table import Table

# an import job's statuses as stored
VALIDATING, READY, IMPORTING, DONE, FAILED = "validating", "ready", "importing", "done", "failed"
_RUNNING_UNHELD = ("(#s = :validating OR #s = :importing) AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)")
_RUNNING = {":validating": VALIDATING, ":importing": IMPORTING}


def take_lease(table: Table, job: Key, holder: str, now: int, until: int) -> bool:
    """The running job's lease for `holder` until `until`, unless another run holds it at `now`."""
    return bool(table.update_if(job, "SET leaseHolder = :me, leaseUntil = :until", condition=_RUNNING_UNHELD,
                                names={"#s": "status"},
                                values={":me": holder, ":until": until, ":now": now, **_RUNNING}))


def give_back_lease(table: Table, job: Key, holder: str) -> None:
    """The lease let go, if `holder` still holds it."""
    table.update_if(job, "REMOVE leaseHolder, leaseUntil", condition="leaseHolder = :me", values={":me": holder})


def set_while_held(table: Table, job: Key, holder: str, fields: dict[str, Any], remove: tuple[str, ...] = ()) -> bool:
    """`fields` set (and `remove` removed) on the job while `holder` holds its lease; False otherwise."""
    names = {f"#f{index}": name for index, name in enumerate(fields)}
    values = {f":v{index}": value for index, value in enumerate(fields.values())}
    update = "SET " + ", ".join(f"#f{index} = :v{index}" for index in range(len(fields)))
    if remove:
        update += " REMOVE " + ", ".join(remove)
    return bool(table.update_if(job, update, condition="leaseHolder = :me", names=names,
                                values={**values, ":me": holder}))


def stop_unheld(table: Table, job: Key, now: int, at: str) -> bool:
    """A running job no run holds becomes failed and `stopped` (it may be run again); False when
    another run holds it or it finished."""
    return bool(table.update_if(job, "SET #s = :failed, stopped = :true, finishedAt = :at", condition=_RUNNING_UNHELD,
                                names={"#s": "status"},
                                values={":failed": FAILED, ":true": True, ":at": at, ":now": now, **_RUNNING}))


def start_importing(table: Table, job: Key) -> bool:
    """A ready dry run, or a job a fault stopped, made importing; False from any other status."""
    return bool(table.update_if(
        job, "SET #s = :importing, dryRun = :false REMOVE finishedAt, stopped",
        condition="#s = :ready OR (#s = :failed AND stopped = :true)", names={"#s": "status"},
        values={":importing": IMPORTING, ":false": False, ":ready": READY, ":failed": FAILED, ":true": True}))
