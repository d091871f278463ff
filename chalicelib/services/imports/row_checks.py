"""What the master-data import kinds (partners, products, chart) share: a row's cells read as the
API's request body and checked by the API's own model (each problem named by row and column), the
rows grouped into units of work that fit one transaction, and the done units skipped."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, TypeGuard, TypeVar

from pydantic import BaseModel, ValidationError

from chalicelib.domain import search as search_rules
from chalicelib.domain.import_rows import Row, RowError
from chalicelib.errors import ApiError
from chalicelib.messages import stored_issue
from chalicelib.messages.phrases import Phrase
from chalicelib.models.base import issue_field, issue_message
from chalicelib.services.imports.kinds import MAX_TRANSACTION_ITEMS, ImportContext
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction

M = TypeVar("M", bound=BaseModel)

# what an accountant writes in a yes/no column
_YES = {"si", "s", "yes", "y", "true", "verdadero", "1", "x"}
_NO = {"no", "n", "false", "falso", "0"}
# 1,500.00: a thousands separator, dropped (a decimal comma is not guessed at: 1.500,00 is refused)
_THOUSANDS = re.compile(r"^-?\d{1,3}(,\d{3})+(\.\d+)?$")


def cell_values(row: Row, *, choices: dict[str, dict[str, str]] | None = None,
                flags: Iterable[str] = (), amounts: Iterable[str] = ()) -> dict[str, Any]:
    """The row as the API's request body: `choices` {column: {Spanish word: API value}} for the
    enumerations (a value the API knows passes as it is), `flags` the yes/no columns, `amounts`
    the numbers (a thousands separator dropped)."""
    body: dict[str, Any] = {}
    flags, amounts = set(flags), set(amounts)
    for name, text in row.values.items():
        value: Any = text
        plain = search_rules.normalized(text).strip()
        if choices and name in choices:
            value = choices[name].get(plain, text)
        elif name in flags:
            value = True if plain in _YES else False if plain in _NO else text
        elif name in amounts and _THOUSANDS.match(text):
            value = text.replace(",", "")
        body[name] = value
    return body


def model_fields(model: BaseModel) -> dict[str, Any]:
    """A checked body's fields as the API stores them (by their API names, the ones given)."""
    return {name: value for name, value in model.model_dump(by_alias=True).items() if value is not None}


def validated(model: type[M], row: Row, body: dict[str, Any]) -> tuple[M | None, list[RowError]]:
    """The body checked by the API's model: the model, or each problem by the row's line and the
    column it names (the message as the API writes a detail's)."""
    try:
        return model.model_validate(body), []
    except ValidationError as error:
        return None, [RowError(row.line, issue_field(issue["loc"]) or None, issue_message(issue),
                               stored_issue(issue["type"], issue.get("ctx") or {}))
                      for issue in error.errors(include_url=False)]


def refusal(row: Row, error: ApiError, column: str | None = None) -> list[RowError]:
    """A service rule's refusal as the row's problems: its details by field, else its message."""
    if error.details:
        return [RowError(row.line, detail.get("field") or column, detail["message"]) for detail in error.details]
    return [RowError(row.line, column, error.message)]


@dataclass
class Unit:
    """Rows written in one transaction, named by its first and last line: the same file checked
    again groups them the same (the name is what `context.mark_done` records)."""
    entries: list[Any] = field(default_factory=list)
    first: int = 0
    last: int = 0
    label: str = ""  # what the unit does ("new", "update"): two kinds of unit may start on one line

    @property
    def name(self) -> str:
        return f"{self.label}{self.first}-{self.last}"


def single(entry: Any, line: int, label: str) -> Unit:
    return Unit([entry], line, line, label)


def units(entries: list[Any], line: Callable[[Any], int], size: Callable[[Any], int],
          shared: Callable[[list[Any]], int] = lambda _: 0, label: str = "") -> list[Unit]:
    """The entries in file order, grouped greedily into units of at most MAX_TRANSACTION_ITEMS
    items: `size` of an entry (its items), `shared` what a group writes once (a counter). Sizes
    must depend on the file alone, so that a run again groups alike."""
    grouped: list[Unit] = []
    current = Unit(label=label)
    for entry in entries:
        candidate = current.entries + [entry]
        if current.entries and sum(map(size, candidate)) + shared(candidate) > MAX_TRANSACTION_ITEMS:
            grouped.append(current)
            current = Unit(label=label)
        if not current.entries:
            current.first = line(entry)
        current.entries.append(entry)
        current.last = line(entry)
    if current.entries:
        grouped.append(current)
    return grouped


def land_rows(context: ImportContext, planned: list[Unit], write: Callable[[Unit], None], landed: int = 0) -> int:
    """Writes each unit not done yet (`write`: its transaction, with context.mark_done, committed)
    and reports the rows landed so far, those of units found done included (a run again skips
    them); answers that count."""
    for unit in planned:
        if not context.is_done(unit.name):
            write(unit)
        landed += len(unit.entries)
        context.progress(landed)
    return landed


def repeated(first_of: dict[Any, int], key: Any, row: Row, column: str) -> RowError | None:
    """A natural key the file already had on an earlier row (named on `column`); else None, and
    the key is recorded as this row's."""
    if key in first_of:
        return RowError(row.line, column, Phrase("repeats the value of row {}", first_of[key]))
    first_of[key] = row.line
    return None


def held_by_another(holder: dict[str, Any] | None, context: ImportContext) -> TypeGuard[dict[str, Any]]:
    """A natural key the company already holds, not by this job (what a run again landed is its own)."""
    return holder is not None and holder.get("importJob") != context.job_id


def stored_by_id(context: ImportContext, entity: str, ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The company's records of `entity` (a keys entity kind) with those ids, by id (one BatchGetItem)."""
    found = context.table.batch_get([keys.entity(context.company_id, entity, record_id) for record_id in ids])
    return {int(item["id"]): item for item in found.values()}


@dataclass(frozen=True)
class Entry:
    line: int
    fields: dict[str, Any]                  # the record's fields as its POST stores them
    existing: dict[str, Any] | None = None  # update mode: the record the row updates

    @property
    def updated(self) -> dict[str, Any]:
        """The record an update row changes (update mode's entries carry it)."""
        if self.existing is None:
            raise ValueError(f"line {self.line} creates a record: it updates none")
        return self.existing


@dataclass
class Plan:
    """New records many per unit; updates one row a unit (its items depend on the record it changes)."""
    creates: list[Unit]
    updates: list[Unit]


def land_plan(context: ImportContext, plan: Plan, add_creates: Callable[[Transaction, list[Entry]], None],
              add_update: Callable[[Transaction, Entry], None]) -> dict[str, int]:
    """Each unit of the plan not done yet in its own transaction with its marker: the counts."""
    def writer(add: Callable[[Transaction, list[Entry]], None]) -> Callable[[Unit], None]:
        def write(unit: Unit) -> None:
            transaction = Transaction(context.table)
            add(transaction, unit.entries)
            context.mark_done(transaction, unit.name)
            transaction.commit()
        return write

    created = land_rows(context, plan.creates, writer(add_creates))
    updated = land_rows(context, plan.updates, writer(lambda transaction, entries: add_update(transaction, *entries)),
                   created) - created
    return {"created": created, "updated": updated}
