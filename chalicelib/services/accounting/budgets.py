"""Budgets (issue 44): a name, a year and monthly amounts per account (and cost centre); several a
year (scenarios), names unique within the year. Each budget is a header and an item of lines
(store/keys/budgets.py), written together in one transaction under the header's version."""
from __future__ import annotations

from typing import Any

from chalicelib import clock, jsoncodec
from chalicelib.domain import budgets as budget_rules
from chalicelib.errors import Conflict, NotFound, ValidationFailed, VersionConflict
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting import chart, dimensions
from chalicelib.services.accounting.posting import invalid_account
from chalicelib.services.commands import Command
from chalicelib.services.records import small_page
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import budgets as budget_store
from chalicelib.store.table import MAX_ITEM_BYTES, Table, item_bytes
from chalicelib.store.transaction import Transaction

LINES_ITEM = "BUDGET_LINES"
HEADER_FIELDS = ("id", "name", "year", "lineCount", "version", "createdAt", "updatedAt")


def _not_found() -> NotFound:
    return NotFound("Budget not found.")


def _name_taken(name: str, year: int) -> Conflict:
    return Conflict(Phrase("Another budget of {} is already named {}.", year, repr(name)), code="BUDGET_NAME_TAKEN",
                    details=[{"field": "name", "message": "already used by another budget of the year"}])


# --- reading -------------------------------------------------------------------------------------

def headers(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every budget of the company without its lines, by year then id: one Query of a small partition."""
    found = budget_store.headers(table, company_id)
    return sorted(found, key=lambda item: (int(item["year"]), int(item["id"])))


def list_budgets(table: Table, company_id: int, year: int | None, page: int, limit: int) -> Page:
    return small_page([_summary(item) for item in headers(table, company_id)
                       if year is None or int(item["year"]) == year], page, limit)


def get_budget(table: Table, company_id: int, budget_id: int) -> dict[str, Any]:
    """The budget with its lines: one BatchGetItem of its two items."""
    header_key, lines_key = keys.budget(company_id, budget_id), keys.budget_lines(company_id, budget_id)
    found = table.batch_get([header_key, lines_key])
    header = found.get(keys.pair(header_key))
    if header is None:
        raise _not_found()
    stored = (found.get(keys.pair(lines_key)) or {}).get("lines") or []
    return _view(header, [budget_rules.read_line(text) for text in stored])


def _summary(header: dict[str, Any]) -> dict[str, Any]:
    return {name: header[name] for name in HEADER_FIELDS}


def _view(header: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, Any]:
    return {**_summary(header), "lines": lines}


# --- checks --------------------------------------------------------------------------------------

def checked_lines(table: Table, company_id: int, lines: list[dict[str, Any]],
                  kept: frozenset[tuple[int, int]] = frozenset()) -> list[dict[str, Any]]:
    """Each line's account is the company's, active and without sub-accounts (a parent's figures
    are its sub-accounts'); its cost centres are active values (services/accounting/dimensions.py);
    each (account, month, dimensions) once (`kept`: the stored budget's pairs, inactive ones acceptable). The chart and the dimensions are read once. An account
    refused is INVALID_ACCOUNT, as on a journal line."""
    accounts = {int(item["id"]): item for item in chart.all_accounts(table, company_id)}
    dimension_items = (dimensions.dimension_items(table, company_id)
                       if any(line.get("dimensions") for line in lines) else [])
    checked = []
    for position, line in enumerate(lines):
        field = f"lines[{position}]"
        account = accounts.get(int(line["chartOfAccountId"]))
        problem = None
        if account is None:
            problem = "no such account"
        elif not account.get("isActive", True):
            problem = "the account is inactive"
        elif int(account.get("childCount", 0)) > 0:
            problem = "the account has sub-accounts: budget its sub-accounts"
        if account is None or problem is not None:
            raise invalid_account(f"{field}.chartOfAccountId", problem or "no such account")
        checked.append({"chartOfAccountId": int(account["id"]), "month": int(line["month"]),
                        "amount": line["amount"],
                        "dimensions": dimensions.checked_line_dimensions(dimension_items, line.get("dimensions"),
                                                                         f"{field}.dimensions", kept)})
    duplicate = budget_rules.first_duplicate(checked)
    if duplicate is not None:
        raise ValidationFailed.for_field(f"lines[{duplicate}]", "the same account, month and dimensions are on "
                                                                "another line")
    return checked


def _lines_item(company_id: int, budget_id: int, lines: list[dict[str, Any]]) -> dict[str, Any]:
    item = {**keys.budget_lines(company_id, budget_id), "itemType": LINES_ITEM, "budgetId": budget_id,
            "lines": [budget_rules.stored_line(line) for line in lines]}
    return item


def _refuse_too_large(lines_item: dict[str, Any], answer: dict[str, Any]) -> None:
    """The lines item, and the answer an Idempotency-Key keeps, each fit DynamoDB's 400 KB (room
    left for the record's other fields): many lines with many dimensions may not."""
    if item_bytes(lines_item) > MAX_ITEM_BYTES - 4096 or len(jsoncodec.dumps(answer)) > MAX_ITEM_BYTES - 4096:
        raise ValidationFailed.for_field("lines", "too large for one budget (400 KB): split it into budgets")


def _reserve_name(transaction: Transaction, company_id: int, header: dict[str, Any],
                  before: dict[str, Any] | None) -> None:
    name, year = header["name"], int(header["year"])
    if before is not None and (before["name"].casefold(), int(before["year"])) == (name.casefold(), year):
        return
    transaction.put_new({**keys.budget_name(company_id, year, name), "budgetId": header["id"]},
                        on_fail=_name_taken(name, year))
    if before is not None:
        transaction.delete(keys.budget_name(company_id, int(before["year"]), before["name"]))


# --- commands ------------------------------------------------------------------------------------

def create_budget(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    lines = checked_lines(table, company_id, fields.get("lines") or [])
    budget_id = table.next_id(keys.id_sequence(company_id, keys.BUDGET))
    now = clock.now_iso()
    header = {**keys.budget(company_id, budget_id), "itemType": keys.BUDGET, "id": budget_id,
              "name": fields["name"], "year": int(fields["year"]), "lineCount": len(lines), "version": 1,
              "createdAt": now, "updatedAt": now}
    lines_item = _lines_item(company_id, budget_id, lines)
    answer = _view(header, lines)
    _refuse_too_large(lines_item, answer)
    transaction = command.transaction()
    transaction.put_new(header)
    transaction.put_new(lines_item)
    _reserve_name(transaction, company_id, header, None)
    return command.commit(transaction, answer)


def update_budget(command: Command, budget_id: int, changes: dict[str, Any],
                  expected_version: int | None) -> dict[str, Any]:
    """Sparse: `name`, `year`, `lines` (the whole list) under the version read (If-Match or
    `version`: 409 when stale); without one, a concurrent change makes the command run again."""
    table, company_id = command.table, command.company_id
    for required in ("name", "year", "lines"):
        if required in changes and changes[required] is None:
            raise ValidationFailed.for_field(required, "required")
    current = get_budget(table, company_id, budget_id)
    if expected_version is not None and expected_version != current["version"]:
        raise VersionConflict()
    header_changes: dict[str, Any] = {name: changes[name] for name in ("name", "year") if name in changes
                      and changes[name] != current[name]}
    lines = checked_lines(table, company_id, changes["lines"], dimensions.carried_pairs(current["lines"])) \
        if "lines" in changes else None
    if lines is not None and lines != current["lines"]:
        header_changes["lineCount"] = len(lines)
    else:
        lines = None
    if not header_changes:
        return current
    header_changes["updatedAt"] = clock.now_iso()
    updated = {**current, **header_changes, "version": current["version"] + 1,
               **({"lines": lines} if lines is not None else {})}
    transaction = command.transaction()
    transaction.update_fields(keys.budget(company_id, budget_id), header_changes, current["version"],
                              on_fail=VersionConflict() if expected_version is not None else None)
    if lines is not None:
        lines_item = _lines_item(company_id, budget_id, lines)
        _refuse_too_large(lines_item, updated)
        transaction.put(lines_item)
    _reserve_name(transaction, company_id, updated, current)
    return command.commit(transaction, updated)


def delete_budget(command: Command, budget_id: int) -> dict[str, Any]:
    """The header, its lines and its name's reservation, together, under the version read: a
    concurrent rename makes the command run again (the reservation freed is the name's of now)."""
    table, company_id = command.table, command.company_id
    header = table.get(keys.budget(company_id, budget_id))
    if header is None:
        raise _not_found()
    transaction = command.transaction()
    budget_store.delete_as_read(transaction, company_id, budget_id, header["version"])
    transaction.delete(keys.budget_lines(company_id, budget_id))
    transaction.delete(keys.budget_name(company_id, int(header["year"]), header["name"]))
    return command.commit(transaction, {"id": budget_id, "deleted": True})
