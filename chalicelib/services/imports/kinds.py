"""The interface every import kind implements, and their registry.

A job runs a kind in two phases over the file's rows:
1. `check(context, rows)` validates every row against the rules and the company's records (reads
   only) and answers the problems, each by row and column, and a plan of what to write. Any problem:
   the job fails and nothing is written. A dry run stops here.
2. `apply(context, plan)` writes the plan in transactions of at most `MAX_TRANSACTION_ITEMS` items.
   It may stop anywhere (a fault, the Lambda's end): the job then runs again from the start, `check`
   and `apply` both, and must reach the same result without doubling anything. So `check` accepts a
   record THIS job already wrote (it carries `importJob` = the job's id, or its unit is marked done:
   `context.mark_done`) as landed, not as a duplicate, and `apply` skips units already done.
   `check` names every row a write would refuse for a reason it can see; a rule refusal in `apply`
   (another writer took a key between the two) fails the job with that refusal as the unit's rows'
   problem (`refused_rows`), the units already written staying: a run again would meet it again.
"""
from __future__ import annotations

import importlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Callable, Iterable, Iterator, Protocol

from chalicelib import clock
from chalicelib.domain.import_rows import Column, Row, RowError
from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# DynamoDB's limit is 100 items a transaction; a unit leaves room for the job's own progress item
# and the unit's done-marker (context.mark_done)
MAX_TRANSACTION_ITEMS = 98
# a unit's marker outlives any run again of its job (the job's file is kept 7 days)
UNIT_MARKER_DAYS = 30


def _no_progress(rows: int) -> None:
    """A context outside a job's run (a test of a kind alone) reports progress to no one."""


@dataclass(frozen=True)
class ImportContext:
    table: Table
    company_id: int
    job_id: int                    # the job's id: stamped on what it writes (`importJob`) and its units' markers
    user_id: int | None            # who started it (audit, `createdBy`)
    date: date | None              # the changeover date of the opening kinds (`POST /imports` `date`)
    update_existing: bool = False  # mapping {"existing": "update"}: an existing record with the same natural key is updated
    # `progress(rows)`: the rows landed so far in this run, those found done included (absolute, not
    # an increment: a run again reports the same figures); the job shows it as `processed`. Call it
    # after a unit commits; it also renews the run's lease (services/imports/runner.py).
    progress: Callable[[int], None] = field(default=_no_progress, compare=False, repr=False)

    def mark_done(self, transaction: Transaction, unit: str) -> None:
        """Adds to the unit's transaction the marker that it landed (condition: not there yet), so that
        a run again skips it: `is_done(unit)` answers True once that transaction committed. In the
        unit's own transaction, it lands with its marker or not at all; a marker there already fails
        the transaction (the unit landed before): nothing is written twice."""
        transaction.put_new({**keys.import_unit(self.company_id, self.job_id, unit), "itemType": "IMPORT_UNIT",
                             "at": clock.now_iso(), "expiresAt": clock.epoch_seconds() + UNIT_MARKER_DAYS * 86400})

    def is_done(self, unit: str) -> bool:
        """Strongly consistent: a unit committed a moment ago reads as done."""
        return self.table.get(keys.import_unit(self.company_id, self.job_id, unit), consistent=True) is not None


@dataclass
class Checked:
    errors: list[RowError]
    plan: Any = None  # whatever the kind's `apply` takes; None when there are errors


# refusals that say "try again", not "this may not be": a run again (the queue's) may well succeed
_RETRIED = frozenset({"CONFLICT", "VERSION_CONFLICT", "RATE_LIMIT_EXCEEDED"})


def is_rule_refusal(error: ApiError) -> bool:
    """A write refused by a rule of the records (400, 404, 409...): the same refusal on every run again."""
    return not error.server_side and error.code not in _RETRIED


class UnitRefused(Exception):
    """A rule refused a unit's write that `check` let through; `lines` are the unit's rows."""

    def __init__(self, error: ApiError, lines: tuple[int, ...]) -> None:
        super().__init__(error.message)
        self.error, self.lines = error, lines


@contextmanager
def refused_rows(lines: Iterable[int]) -> Iterator[None]:
    """Around a unit's write: a rule's refusal comes out as UnitRefused naming the unit's rows."""
    try:
        yield
    except ApiError as error:
        if is_rule_refusal(error):
            raise UnitRefused(error, tuple(lines)) from error
        raise


class ImportKind(Protocol):
    name: str                      # "partners", "products", ...
    columns: tuple[Column, ...]    # the template's columns, in order (empty for "company": a ZIP, not a table)
    needs_date: bool               # the opening kinds: `date` is required

    def check(self, context: ImportContext, rows: list[Row]) -> Checked: ...

    def apply(self, context: ImportContext, plan: Any) -> dict[str, int]:
        """Writes the plan; answers counts for the job's result ({"created": n, "updated": m, ...})."""
        ...


# kind name -> the module whose `KIND` implements it (imported on first use: cold start)
KINDS: dict[str, str] = {
    "partners": "chalicelib.services.imports.partners",
    "products": "chalicelib.services.imports.products",
    "chart": "chalicelib.services.imports.chart",
    "opening-balances": "chalicelib.services.imports.opening_balances",
    "open-items": "chalicelib.services.imports.open_items",
    "opening-stock": "chalicelib.services.imports.opening_stock",
    "company": "chalicelib.services.imports.company_restore",
}
TABLE_KINDS = tuple(name for name in KINDS if name != "company")  # those with a CSV/XLSX template


def kind(name: str) -> ImportKind:
    found: ImportKind = importlib.import_module(KINDS[name]).KIND
    return found
