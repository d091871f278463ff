"""The posting engine: what a command does to the books, gathered in `JournalWrites` and added
to the command's one transaction. Manual entries, documents, payments and transfers all post
through here, so every entry moves balances, counts and period locks the same way.

Each item is written at most once per transaction (DynamoDB refuses two operations on one
item), so postings of several entries in one command are merged per account and month, per
account, per date and per year before they are added."""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Iterable

from chalicelib import clock
from chalicelib.domain import accounting
from chalicelib.domain.accounting import (
    AUTOMATIC,
    DRAFT,
    POSTED,
    REVERSAL,
    REVERSED,
    Line,
    Movement,
    Rule,
)
from chalicelib.domain.records import EntryChanges, EntryLineRecord, EntryRecord, PostingRecord
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.store import keys
from chalicelib.store.repositories import accounts, fiscal_years, ledger, periods
from chalicelib.store.repositories import journal as journal_entries
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


class PeriodClosed(ApiError):
    code = "PERIOD_CLOSED"
    message = "The date falls in a closed accounting period."


class EntryStateError(ApiError):
    code = "INVALID_ENTRY_STATUS"


INVALID_ACCOUNT = "INVALID_ACCOUNT"
# why a dated write is refused (JournalWrites.require_open), by field: the year's lock, the books' lock
IN_CLOSED_PERIOD = "falls in a closed accounting period or fiscal year"
IN_CLOSED_YEAR = "falls on or before the last day of a closed fiscal year"


def closed_dates(table: Table, company_id: int, dates: Iterable[str]) -> dict[str, str]:
    """The dates among `dates` (YYYY-MM-DD) that a dated write would be refused today, each with
    why (IN_CLOSED_PERIOD, IN_CLOSED_YEAR): the same locks `JournalWrites.require_open` checks in
    the write's transaction, read now (one BatchGetItem), for a check made before writing (an
    import's, which must name every row its writes would refuse)."""
    dates = set(dates)
    if not dates:
        return {}
    years = sorted({day[:4] for day in dates})
    found = table.batch_get([keys.books_lock(company_id)] + [keys.period_lock(company_id, year) for year in years])
    through = (found.get(keys.pair(keys.books_lock(company_id))) or {}).get("closedThrough")
    refused = {}
    for day in dates:
        lock = found.get(keys.pair(keys.period_lock(company_id, day[:4]))) or {}
        if lock.get("yearClosed") or day[5:] in set(lock.get("closedDays") or ()):
            refused[day] = IN_CLOSED_PERIOD
        elif through is not None and day <= through:
            refused[day] = IN_CLOSED_YEAR
    return refused


def invalid_account(field: str, message: str = "the account does not exist or is inactive") -> ValidationFailed:
    return ValidationFailed(Phrase("{}: {}", field, message), code=INVALID_ACCOUNT,
                            details=[{"field": field, "message": message}])


def count_attribute(status: str, entry_type: str) -> str:
    return f"{status}_{entry_type}"


@dataclass(frozen=True)
class Source:
    """What an automatic entry comes from: a document, a payment, a transfer..."""
    kind: str
    id: int
    document_type: str | None = None

    def as_item(self) -> dict[str, Any]:
        return {"type": self.kind, "id": self.id, "documentType": self.document_type}

    @classmethod
    def from_item(cls, item: dict[str, Any] | None) -> "Source | None":
        if not item:
            return None
        return cls(kind=item["type"], id=item["id"], document_type=item.get("documentType"))


# --- entry items ---------------------------------------------------------------------------------

def entry_item(company_id: int, entry_id: int, *, date: str, description: str | None, lines: list[Line],
               status: str, entry_type: str, reference: str | None = None, source: Source | None = None,
               reversal_of: int | None = None) -> EntryRecord:
    debit, credit = accounting.entry_totals(lines)
    now = clock.now_iso()
    entry: EntryRecord = {"itemType": keys.JOURNAL_ENTRY, "id": entry_id, "date": date, "status": status,
                          "entryType": entry_type, "lines": [stored_line(line) for line in lines],
                          "totalDebit": debit, "totalCredit": credit, "version": 1, "createdAt": now,
                          "updatedAt": now}
    # None is not stored: an entry without a description, reference, source or reversal has none
    if description is not None:
        entry["description"] = description
    if reference is not None:
        entry["reference"] = reference
    if source is not None:
        entry["source"] = source.as_item()
    if reversal_of is not None:
        entry["reversalOf"] = reversal_of
    if status == POSTED:
        entry["postedAt"] = now
    return entry


def stored_line(line: Line) -> EntryLineRecord:
    """An entry's line as stored: its cost centres only when it has any."""
    stored: EntryLineRecord = {"chartOfAccountId": line.account_id, "debit": line.debit, "credit": line.credit,
                               "lineDescription": line.description}
    if line.dimensions:
        stored["dimensions"] = [{"dimensionId": dimension_id, "valueId": value_id}
                                for dimension_id, value_id in line.dimensions]
    return stored


def entry_lines(entry: EntryRecord) -> list[Line]:
    return [Line(line["chartOfAccountId"], Decimal(line["debit"]), Decimal(line["credit"]),
                 line.get("lineDescription"), accounting.dimensions_of(line.get("dimensions")))
            for line in entry["lines"]]


def get_entry(table: Table, company_id: int, entry_id: int) -> EntryRecord:
    entry = journal_entries.entry(table, company_id, entry_id)
    if entry is None:
        raise NotFound("Journal entry not found.")
    return entry


def next_entry_id(table: Table, company_id: int) -> int:
    return table.next_id(keys.id_sequence(company_id, keys.JOURNAL_ENTRY))


# --- what a command does to the books ------------------------------------------------------------

PROVISIONAL_ENTRY_ID = 0  # a rehearsed entry's id: ids start at 1


@dataclass
class AccountUse:
    """The postings a command adds to an account; its first line's field, blamed if the account is not usable."""
    postings: int
    line_field: str


class JournalWrites:
    def __init__(self, company_id: int, *, period_checks: bool = True, rehearsal: bool = False) -> None:
        """`period_checks` off: the year close's own entries, whose command writes the year's lock
        item itself (a transaction cannot both check and write one item). `rehearsal`: writes
        planned only to be counted, never submitted: their entries take a provisional id, no
        number of the journal's counter."""
        self.company_id = company_id
        self._period_checks = period_checks
        self._rehearsal = rehearsal
        self._puts: list[EntryRecord] = []
        self._status_changes: list[tuple[EntryRecord, str, EntryChanges]] = []
        self._postings: list[PostingRecord] = []
        self._balances: dict[tuple[int, str], accounting.MonthMoves] = {}  # by (account, month)
        self._accounts: dict[int, AccountUse] = {}
        self._day_counts: dict[str, Counter[str]] = defaultdict(Counter)
        self._dated: dict[str, set[str]] = defaultdict(set)
        # accounts the command has already read (strongly consistent), by id
        self._read_accounts: dict[int, dict[str, Any]] = {}

    # entries

    def add_entry(self, entry: EntryRecord, *, line_field: str = "lines") -> None:
        """A new entry: written, counted, its date checked against closed periods and closed
        years and, when posted, its lines posted."""
        self._puts.append(entry)
        self._count(entry["date"], entry["status"], entry["entryType"], 1)
        self.require_open(entry["date"])
        if entry["status"] == POSTED:
            self._post_lines(entry, line_field)

    def post_draft(self, entry: EntryRecord) -> EntryRecord:
        if entry["status"] != DRAFT:
            raise EntryStateError(Phrase("Only a draft can be posted; this entry is {}.", entry['status']),
                                  code="ENTRY_NOT_DRAFT")
        posted = self._change_status(entry, POSTED, {"postedAt": clock.now_iso()})
        self.require_open(entry["date"])
        self._post_lines(posted, "lines")
        return posted

    def reverse(self, table: Table, entry: EntryRecord, date: str,
                description: str | None = None) -> EntryRecord:
        """A `reversal` entry with the lines swapped, posted on `date`; the original becomes
        `reversed` (its own postings stay: they happened)."""
        if entry["status"] != POSTED:
            raise EntryStateError(Phrase("Only a posted entry can be reversed; this entry is {}.", entry['status']),
                                  code="ENTRY_NOT_POSTED")
        if date < entry["date"]:
            raise ValidationFailed.for_field("date", Phrase("a reversal cannot be dated before the entry ({})",
                                                            entry['date']))
        reversal_id = self._new_entry_id(table)
        reversal = entry_item(
            self.company_id, reversal_id, date=date,
            description=description or (
                book_text("entry_reversal_of", entry=int(entry["id"]), description=entry["description"])
                if entry.get("description") else book_text("entry_reversal", entry=int(entry["id"]))),
            lines=accounting.reversal_lines(entry_lines(entry)), status=POSTED, entry_type=REVERSAL,
            reference=entry.get("reference"), source=Source.from_item(entry.get("source")),
            reversal_of=entry["id"])
        self.add_entry(reversal)
        self._change_status(entry, REVERSED, {"reversedBy": reversal_id})
        return reversal

    def automatic_entry(self, table: Table, rules: list[Rule], *, source: Source, date: str,
                        description: str, movements: Iterable[Movement]) -> EntryRecord:
        """A posted `automatic` entry from semantic movements, accounts resolved through the
        determination rules (most specific first) unless a movement names its account."""
        def account_for(movement: Movement) -> int:
            return accounting.resolve_rule(rules, movement.operation, source.document_type).account_id

        lines = accounting.lines_from_movements(movements, account_for)
        entry = entry_item(self.company_id, self._new_entry_id(table), date=date,
                           description=description, lines=lines, status=POSTED, entry_type=AUTOMATIC,
                           source=source)
        self.add_entry(entry)
        return entry

    def know_accounts(self, accounts: dict[int, dict[str, Any]]) -> None:
        """Accounts the command read with strong consistency: not read again before posting."""
        self._read_accounts.update(accounts)

    def require_open(self, date: str) -> None:
        if self._period_checks:
            self._dated[date[:4]].add(date[5:])

    def refuse_closed_now(self, table: Table) -> None:
        """The refusal `apply`'s checks of the locks would make at commit, read now (one
        BatchGetItem): for a command that must be refused before an act outside the books (a
        card payment's void at its provider); the commit still checks."""
        dated = [f"{year}-{day}" for year, days in self._dated.items() for day in days] if self._period_checks else []
        refused = closed_dates(table, self.company_id, dated)
        if refused:
            first = min(refused)
            if refused[first] == IN_CLOSED_YEAR:
                raise PeriodClosed(Phrase("{} falls on or before the last day of a closed fiscal year.", first),
                                   details=[{"field": "date", "message": IN_CLOSED_YEAR}])
            year, day = first[:4], first[5:]   # apply's own words
            raise PeriodClosed(Phrase("{}-{} falls in a closed accounting period or fiscal year.", year, day),
                               details=[{"field": "date", "message": IN_CLOSED_PERIOD}])

    # internals

    def _new_entry_id(self, table: Table) -> int:
        return PROVISIONAL_ENTRY_ID if self._rehearsal else next_entry_id(table, self.company_id)

    def _change_status(self, entry: EntryRecord, status: str, also: EntryChanges) -> EntryRecord:
        changed: EntryRecord = {**entry, "status": status, **also, "version": entry["version"] + 1,
                                "updatedAt": clock.now_iso()}
        self._status_changes.append((entry, status, {**also, "updatedAt": changed["updatedAt"]}))
        self._count(entry["date"], entry["status"], entry["entryType"], -1)
        self._count(entry["date"], status, entry["entryType"], 1)
        return changed

    def _count(self, date: str, status: str, entry_type: str, delta: int) -> None:
        self._day_counts[date][count_attribute(status, entry_type)] += delta

    def _post_lines(self, entry: EntryRecord, line_field: str) -> None:
        date, month, day = entry["date"], accounting.month_of(entry["date"]), accounting.day_of(entry["date"])
        entry_id = entry["id"]
        for index, line in enumerate(entry_lines(entry)):
            posting: PostingRecord = {
                "accountId": line.account_id, "date": date,
                "journalEntryId": entry_id, "line": index, "entryType": entry["entryType"],
                "description": entry.get("description"), "lineDescription": line.description,
                "reference": entry.get("reference"), "debit": line.debit, "credit": line.credit}
            if line.dimensions:  # what the reports by cost centre filter and group on (dimension_reports.py)
                posting["dimensionValueIds"] = accounting.dimension_value_ids(line.dimensions)
            self._postings.append(posting)
            moves = self._balances.setdefault((line.account_id, month), accounting.MonthMoves())
            moves.add(day, line.debit, line.credit)
            self._accounts.setdefault(line.account_id,
                                      AccountUse(0, f"{line_field}[{index}].chartOfAccountId")).postings += 1

    def apply(self, transaction: Transaction) -> None:
        for entry in self._puts:
            journal_entries.put_new_entry(transaction, self.company_id, entry)
        for entry, status, also in self._status_changes:
            journal_entries.change_status(transaction, self.company_id, entry, status, also)
        for posting in self._postings:
            ledger.put_posting(transaction, self.company_id, posting)
        for (account_id, month), moves in self._balances.items():
            self._add_balance(transaction, account_id, month, moves)
        self._guard_accounts(transaction)
        for date, counts in self._day_counts.items():
            transaction.add_counts(keys.day_counts(self.company_id, date), counts)
        self._check_books_lock(transaction)
        for year, days in self._dated.items():
            ordered = sorted(days)
            closed = PeriodClosed(Phrase("{}-{} falls in a closed accounting period or fiscal year.",
                                         year, ordered[0]) if len(ordered) == 1 else
                    Phrase("A date of this operation in {} falls in a closed accounting period or fiscal year.", year),
                                  details=[{"field": "date", "message": IN_CLOSED_PERIOD}])
            periods.require_days_open(transaction, self.company_id, year, ordered, closed)

    def _check_books_lock(self, transaction: Transaction) -> None:
        """Nothing dated on or before the newest closed year's last day, whichever year the date
        is in (fiscal_years.py moves `closedThrough`): one check for all the command's dates."""
        if not self._dated:
            return
        first = min(f"{year}-{min(days)}" for year, days in self._dated.items())
        closed = PeriodClosed(Phrase("{} falls on or before the last day of a closed fiscal year.", first),
                              details=[{"field": "date", "message": IN_CLOSED_YEAR}])
        fiscal_years.require_after_closed_years(transaction, self.company_id, first, closed)

    def _guard_accounts(self, transaction: Transaction) -> None:
        """Each account posted to must exist and be active, and once it has a posting its type is
        frozen and it cannot be deleted (chart.py: conditions on `postingCount` = 0). An account
        read (strongly consistent) with a posting needs no write: `postingCount` never goes back
        to 0, so it can be neither deleted nor retyped before this commits; a deactivation in
        between conditions on nothing this writes, so the two are as if this came first. Only an
        account's first postings add to `postingCount`, under the condition that it exists and is
        active: an invoice writes no chart item, where it wrote one per account."""
        if not self._accounts:
            return
        wanted = {account_id: keys.chart_account(self.company_id, account_id) for account_id in self._accounts}
        unread = [key for account_id, key in wanted.items() if account_id not in self._read_accounts]
        found = transaction.table.batch_get(unread) if unread else {}
        for account_id, use in self._accounts.items():
            postings, field = use.postings, use.line_field
            account = self._read_accounts.get(account_id) or found.get(keys.pair(wanted[account_id]))
            if account is None or not account.get("isActive"):
                raise invalid_account(field)
            if int(account.get("postingCount", 0)) > 0:
                continue
            accounts.count_first_postings(transaction, self.company_id, account_id, postings, invalid_account(field))

    def _add_balance(self, transaction: Transaction, account_id: int, month: str, moves: accounting.MonthMoves) -> None:
        add_month_totals(transaction, keys.account_month_balance(self.company_id, account_id, month), month,
                         moves.debit, moves.credit, moves.days, {"accountId": account_id, "itemType": "BALANCE"})


def add_month_totals(transaction: Transaction, key: keys.Key, month: str, debit: Decimal, credit: Decimal,
                     days: Mapping[str, tuple[Decimal, Decimal]], also: dict[str, Any]) -> None:
    """A month's debit and credit totals and its per-day figures ("DD" -> (debit, credit)) added
    to a balance item in one update, `also` set on it: what `month_balance` reads back."""
    additions: dict[str, Any] = {"debit": debit, "credit": credit}
    for day, (day_debit, day_credit) in days.items():
        additions[f"d{day}"], additions[f"c{day}"] = day_debit, day_credit
    # a command that moves one balance twice (two payments of one partner) adds once, their sum
    transaction.accumulate(key, additions, sets={"month": month, **also}, shardable=True)


# --- reading balances back -----------------------------------------------------------------------

def month_balance(item: dict[str, Any]) -> accounting.MonthBalance:
    days = {}
    for name, value in item.items():
        if len(name) == 3 and name[0] == "d" and name[1:].isdigit():
            days[name[1:]] = (Decimal(value), Decimal(item.get(f"c{name[1:]}", 0)))
    return accounting.MonthBalance(month=item["month"], debit=Decimal(item.get("debit", 0)),
                                   credit=Decimal(item.get("credit", 0)), days=days)


def rule_items(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every determination rule of the company: one Query of a partition bounded by operation
    type x document type."""
    return accounts.determination_rules(table, company_id)


def load_rules(table: Table, company_id: int) -> list[Rule]:
    return [rule_of(item) for item in rule_items(table, company_id)]


def rule_of(item: dict[str, Any]) -> Rule:
    return Rule(id=item["id"], operation=item["operationType"], document_type=item.get("documentType"),
                account_id=item["chartOfAccountId"])
