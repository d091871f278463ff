"""Manual journal entries: create (draft or posted), post, reverse, list and get."""
from __future__ import annotations

from typing import Any

from chalicelib.domain import accounting
from chalicelib.domain.accounting import AUTOMATIC, DRAFT, MANUAL, POSTED, Line
from chalicelib.domain.records import EntryRecord
from chalicelib.errors import DocumentTooLarge, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting import chart, control_accounts, dimensions
from chalicelib.services.accounting.posting import (
    INVALID_ACCOUNT,
    EntryStateError,
    JournalWrites,
    count_attribute,
    entry_item,
    entry_lines,
    get_entry,
    next_entry_id,
)
from chalicelib.services.commands import Command
from chalicelib.store import keys
from chalicelib.store.listing import Page, list_range
from chalicelib.store.repositories import day_counts
from chalicelib.store.table import Table
from chalicelib.store.transaction import MAX_ITEMS, Transaction


def create_entry(command: Command, fields: dict[str, Any]) -> EntryRecord:
    transaction, entry = entry_writes(command, fields)
    return command.commit(transaction, entry)


def entry_writes(command: Command, fields: dict[str, Any], *,
                 controls_allowed: frozenset[int] = frozenset()) -> tuple[Transaction, EntryRecord]:
    """The entry's one transaction, not committed (the opening-balances import adds its unit's
    marker). `controls_allowed`: control accounts this caller may post (the opening balances of the
    tax accounts, whose subledger, the tax books, starts at the changeover)."""
    dimension_items = dimensions.dimension_items(command.table, command.company_id) \
        if any(line.get("dimensions") for line in fields["lines"]) else []
    lines = [Line(line["chartOfAccountId"], line["debit"], line["credit"], line.get("lineDescription"),
                  accounting.dimensions_of(dimensions.checked_line_dimensions(
                      dimension_items, line.get("dimensions"), f"lines[{index}].dimensions")))
             for index, line in enumerate(fields["lines"])]
    accounting.check_lines(lines)
    accounts = _check_accounts(command.table, command.company_id, lines)
    _refuse_control_accounts(command.table, command.company_id, lines, controls_allowed)
    entry = entry_item(command.company_id, next_entry_id(command.table, command.company_id),
                       date=fields["date"], description=fields.get("description"), lines=lines,
                       status=fields.get("status") or DRAFT, entry_type=MANUAL, reference=fields.get("reference"))
    refuse_unless_postable_and_reversible(command.table, command.company_id, entry, accounts)
    writes = JournalWrites(command.company_id)
    writes.know_accounts(accounts)
    writes.add_entry(entry)
    transaction = command.transaction()
    writes.apply(transaction)
    return transaction, entry


def refuse_unless_postable_and_reversible(table: Table, company_id: int, entry: EntryRecord,
                                          accounts: dict[int, dict[str, Any]]) -> None:
    """An entry is refused when posting it, or reversing it afterwards, would write more than one
    transaction takes: both counted from their writes planned now and never submitted (rehearsed
    JournalWrites), each with the Idempotency-Key record its request may carry. The reversal's
    date is not known yet: it is planned on the costliest one, in the next year (another day
    count, another year's period check); by then each account has a posting, so it guards none."""
    posted: EntryRecord = {**entry, "status": POSTED}
    posting = JournalWrites(company_id, rehearsal=True)
    posting.know_accounts(accounts)
    posting.add_entry(posted)
    reversing = JournalWrites(company_id, rehearsal=True)
    reversing.know_accounts({account_id: {**account, "postingCount": 1} for account_id, account in accounts.items()})
    reversing.reverse(table, posted, f"{int(entry['date'][:4]) + 1}-01-01")
    if max(_items(table, posting), _items(table, reversing)) > MAX_ITEMS:
        raise DocumentTooLarge(Phrase("An entry posts at most {} records (one per line and two per account); split it "
                                      "into several entries.", MAX_ITEMS))


def _items(table: Table, writes: JournalWrites) -> int:
    transaction = Transaction(table)
    writes.apply(transaction)
    return len(transaction.operations) + 1  # the Idempotency-Key record


def _check_accounts(table: Table, company_id: int, lines: list[Line]) -> dict[int, dict[str, Any]]:
    """Precise errors before writing (drafts post nothing, so nothing else would check); a
    posted entry's transaction checks the same again as conditions."""
    wanted = {line.account_id for line in lines}
    found = table.batch_get([chart.account_key(company_id, account_id) for account_id in wanted])
    problems = []
    for index, line in enumerate(lines):
        account = found.get(keys.pair(chart.account_key(company_id, line.account_id)))
        field = f"lines[{index}].chartOfAccountId"
        if account is None:
            problems.append({"field": field, "message": "no such account"})
        elif not account.get("isActive", False):
            problems.append({"field": field, "message": Phrase("account {} is inactive", account['code'])})
    if problems:
        raise ValidationFailed(Phrase("{}: {}", problems[0]['field'], problems[0]['message']), code=INVALID_ACCOUNT,
                               details=problems)
    return {account["id"]: account for account in found.values()}


def _refuse_control_accounts(table: Table, company_id: int, lines: list[Line],
                             allowed: frozenset[int] = frozenset()) -> None:
    control_accounts.refuse_control_accounts(
        table, company_id, [(f"lines[{index}].chartOfAccountId", line.account_id) for index, line in enumerate(lines)
                            if line.account_id not in allowed])


def post_entry(command: Command, entry_id: int) -> EntryRecord:
    entry = get_entry(command.table, command.company_id, entry_id)
    if entry["status"] == DRAFT:  # a rule or bank account may have made a line's account a control account since
        _refuse_control_accounts(command.table, command.company_id, entry_lines(entry))
    writes = JournalWrites(command.company_id)
    posted = writes.post_draft(entry)
    transaction = command.transaction()
    writes.apply(transaction)
    return command.commit(transaction, posted)


def reverse_entry(command: Command, entry_id: int, date: str | None,
                  description: str | None) -> EntryRecord:
    entry = get_entry(command.table, command.company_id, entry_id)
    if entry["entryType"] == AUTOMATIC or entry.get("source"):
        # a reversal of an automatic entry carries its source too: reversing it again would
        # put a cancelled document back in the books
        raise EntryStateError("An automatic entry is reversed by cancelling what created it (its "
                              "document or payment).", code="AUTOMATIC_ENTRY")
    writes = JournalWrites(command.company_id)
    reversal = writes.reverse(command.table, entry, date or entry["date"], description)
    transaction = command.transaction()
    writes.apply(transaction)
    return command.commit(transaction, reversal)


def list_entries(table: Table, company_id: int, *, start_date: str | None, end_date: str | None,
                 status: str | None, entry_type: str | None, page: int, limit: int,
                 cursor: str | None) -> Page:
    """Newest first. `total` is exact for any filter: it sums the per-day counts of the range."""
    if start_date and end_date and start_date > end_date:
        raise ValidationFailed.for_field("startDate", "must not be after the end date")
    counts = day_counts.between(table, company_id, start_date, end_date)
    wanted = {count_attribute(s, t) for s in accounting.ENTRY_STATUSES for t in accounting.ENTRY_TYPES
              if (status is None or s == status) and (entry_type is None or t == entry_type)}
    total = sum(int(day.get(name, 0)) for _, day in counts for name in wanted)
    filters = {name: value for name, value in (("status", status), ("entryType", entry_type)) if value}
    return list_range(table, partition=keys.collection_partition(company_id, keys.JOURNAL_ENTRY),
                      low=start_date, high=keys.day_end(end_date) if end_date else None, filters=filters,
                      page=page, limit=limit, cursor=cursor, descending=True, total=total)
