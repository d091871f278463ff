"""Double-entry rules, no I/O: account types and their normal side, journal-entry lines and
their checks, automatic entries built from semantic movements, determination-rule resolution,
balances accumulated by month and day, and accounting-period arithmetic."""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping, Sequence

# money's constants and rounding live in domain/money.py; many modules read them from here
from chalicelib.domain.money import CENT as CENT
from chalicelib.domain.money import ZERO as ZERO
from chalicelib.domain.money import round_money as round_money
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.messages.phrases import Phrase

ASSET, LIABILITY, EQUITY, INCOME, COST, EXPENSE = "asset", "liability", "equity", "income", "cost", "expense"
ACCOUNT_TYPES = (ASSET, LIABILITY, EQUITY, INCOME, COST, EXPENSE)
_DEBIT_NORMAL = frozenset({ASSET, COST, EXPENSE})

DEBIT, CREDIT = "debit", "credit"

DRAFT, POSTED, REVERSED = "draft", "posted", "reversed"
ENTRY_STATUSES = (DRAFT, POSTED, REVERSED)
MANUAL, AUTOMATIC, REVERSAL = "manual", "automatic", "reversal"
ENTRY_TYPES = (AUTOMATIC, MANUAL, REVERSAL)

OPERATION_TYPES = ("receivable", "payable", "revenue", "expense", "tax_sales", "tax_purchases",
                   "inventory", "cost_of_sales", "cash", "bank", "customer_advance",
                   "supplier_advance", "withholding", "inventory_adjustment_gain", "inventory_adjustment_loss",
                   "opening_balance_equity", "retained_earnings", "fx_gain", "fx_loss", "export_revenue",
                   "fx_unrealized_gain", "fx_unrealized_loss", "revenue_exempt", "revenue_exonerated")
# An operation a chart may post apart, else where the broader one goes: a chart imported before
# export revenue had its own rule (or Honduras', which keeps exports with its sales) still resolves;
# so do companies made before month-end revaluation and revenue by tax treatment (issue 44).
FALLBACK_OPERATIONS = {"export_revenue": "revenue", "revenue_exempt": "revenue", "revenue_exonerated": "revenue",
                       "fx_unrealized_gain": "fx_gain", "fx_unrealized_loss": "fx_loss"}
# The operations whose accounts a subledger stands behind (control accounts), each with that
# subledger in words (messages/es.py PHRASES words them in Spanish). Only documents, payments,
# adjustments and opening balances move these accounts; every bank account's ledger is one too.
CONTROLLED_OPERATIONS = {"receivable": "the customers' balances", "payable": "the suppliers' balances",
                         "inventory": "the stock's value", "customer_advance": "the customers' advances",
                         "supplier_advance": "the advances paid to suppliers",
                         "tax_sales": "the tax charged on sales (the sales tax book)",
                         "tax_purchases": "the tax paid on purchases (the purchase tax book)",
                         "withholding": "the tax withheld (the withholding certificates)"}

OPEN, CLOSED = "open", "closed"



def normal_side(account_type: str) -> str:
    return DEBIT if account_type in _DEBIT_NORMAL else CREDIT


def natural_balance(account_type: str, debit: Decimal, credit: Decimal) -> Decimal:
    """The balance as accountants read it: positive on the account's normal side."""
    return debit - credit if normal_side(account_type) == DEBIT else credit - debit


# --- journal-entry lines -------------------------------------------------------------------------

# A line's cost centres (issue 44): its (dimension id, value id) pairs in dimension order; its
# postings carry the value ids (`dimensionValueIds`).
Dimensions = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Line:
    account_id: int
    debit: Decimal
    credit: Decimal
    description: str | None = None
    dimensions: Dimensions = ()


def dimensions_of(pairs: Iterable[Mapping[str, Any]] | None) -> Dimensions:
    """Stored or requested `[{dimensionId, valueId}]` as a line's dimensions, in dimension order."""
    return tuple(sorted((int(pair["dimensionId"]), int(pair["valueId"])) for pair in pairs or ()))


def dimension_value_ids(dimensions: Dimensions) -> list[int]:
    return [value_id for _, value_id in dimensions]


def entry_totals(lines: Iterable[Line]) -> tuple[Decimal, Decimal]:
    debit = credit = ZERO
    for line in lines:
        debit += line.debit
        credit += line.credit
    return debit, credit


class UnbalancedEntry(ApiError):
    code = "UNBALANCED_ENTRY"
    message = "The sum of debits must equal the sum of credits."


def check_lines(lines: Sequence[Line]) -> None:
    """A journal entry's lines: each carries a debit or a credit (not both, not neither), in
    cents and never negative; at least one of each side; debits equal credits."""
    problems = []
    for index, line in enumerate(lines):
        for side, amount in ((DEBIT, line.debit), (CREDIT, line.credit)):
            if amount < 0:
                problems.append({"field": f"lines[{index}].{side}", "message": "must not be negative"})
            elif amount != round_money(amount):
                problems.append({"field": f"lines[{index}].{side}", "message": "at most 2 decimal places"})
        if (line.debit > 0) == (line.credit > 0):
            problems.append({"field": f"lines[{index}]",
                             "message": "a line carries either a debit or a credit, greater than zero"})
    if problems:
        raise ValidationFailed(Phrase("{}: {}", problems[0]['field'], problems[0]['message']), details=problems)
    if not any(line.debit > 0 for line in lines) or not any(line.credit > 0 for line in lines):
        raise ValidationFailed.for_field("lines", "at least one debit line and one credit line")
    debit, credit = entry_totals(lines)
    if debit != credit:
        raise UnbalancedEntry(Phrase("Debits ({}) and credits ({}) differ by {}.", debit, credit, abs(debit - credit)),
                              details=[{"field": "lines", "message": Phrase("debits {} != credits {}", debit, credit)}])


def reversal_lines(lines: Iterable[Line]) -> list[Line]:
    return [Line(line.account_id, line.credit, line.debit, line.description, line.dimensions) for line in lines]


def account_totals(lines: Iterable[Line]) -> dict[int, tuple[Decimal, Decimal]]:
    """Debit and credit per account, in the order accounts first appear."""
    totals: dict[int, tuple[Decimal, Decimal]] = {}
    for line in lines:
        debit, credit = totals.get(line.account_id, (ZERO, ZERO))
        totals[line.account_id] = (debit + line.debit, credit + line.credit)
    return totals


# --- automatic entries ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Movement:
    """One semantic line of an automatic entry: what it is (the operation type the
    determination rules resolve to an account), which side, how much. `account_id` names the
    account directly when the source carries it (a bank account's ledger account)."""
    operation: str
    side: str
    amount: Decimal
    description: str | None = None
    account_id: int | None = None
    dimensions: Dimensions = ()


def lines_from_movements(movements: Iterable[Movement], account_for: Callable[[Movement], int]) -> list[Line]:
    """`account_for` resolves a movement that names no account. Rounds each movement half-up to cents, drops zeros, merges movements that land on the
    same account, side and cost centres (`dimensions`), and checks that the result balances. An unbalanced set of
    movements is the caller's bug, not the user's: it raises ValueError."""
    merged: dict[tuple[int, str, Dimensions], list[Any]] = {}
    for movement in movements:
        if movement.side not in (DEBIT, CREDIT):
            raise ValueError(f"unknown side {movement.side!r}")
        if movement.operation not in OPERATION_TYPES:
            raise ValueError(f"unknown operation type {movement.operation!r}")
        amount = round_money(movement.amount)
        if amount < 0:
            raise ValueError("movement amounts are never negative; use the other side")
        if amount == 0:
            continue
        account = movement.account_id if movement.account_id is not None else account_for(movement)
        key = (account, movement.side, movement.dimensions)
        if key in merged:
            merged[key][0] += amount
        else:
            merged[key] = [amount, movement.description]
    lines = [Line(account, amount if side == DEBIT else ZERO, amount if side == CREDIT else ZERO, description,
                  dimensions)
             for (account, side, dimensions), (amount, description) in merged.items()]
    lines.sort(key=lambda line: line.debit == 0)  # debits first, order otherwise kept
    debit, credit = entry_totals(lines)
    if debit != credit or debit == 0:
        raise ValueError(f"automatic entry does not balance: debits {debit}, credits {credit}")
    return lines


# --- determination rules -------------------------------------------------------------------------

@dataclass(frozen=True)
class Rule:
    id: int
    operation: str
    document_type: str | None
    account_id: int


class RuleMissing(ApiError):
    code = "ACCOUNT_RULE_MISSING"
    message = "No account determination rule applies."


def resolve_rule(rules: Iterable[Rule], operation: str, document_type: str | None) -> Rule:
    """The most specific rule wins: one for this document type, else the general one; an operation
    without either takes its FALLBACK_OPERATIONS one's."""
    rules = list(rules)
    general = None
    for rule in rules:
        if rule.operation != operation:
            continue
        if document_type is not None and rule.document_type == document_type:
            return rule
        if rule.document_type is None:
            general = rule
    if general is None and operation in FALLBACK_OPERATIONS:
        return resolve_rule(rules, FALLBACK_OPERATIONS[operation], document_type)
    if general is None:
        raise RuleMissing(
            Phrase("No account determination rule for operation {} for document type {}.",
                   operation, document_type) if document_type else
                    Phrase("No account determination rule for operation {}.", operation),
            details=[{"field": "operationType", "message": Phrase("no rule for {} for document type {}",
                                                                  operation, document_type) if document_type else
                    Phrase("no rule for {}", operation)}])
    return general


# --- balances by month and day -------------------------------------------------------------------

def month_of(date: str) -> str:
    return date[:7]


def day_of(date: str) -> str:
    return date[8:10]


def previous_day(date: str) -> str:
    return (_dt.date.fromisoformat(date) - _dt.timedelta(days=1)).isoformat()


@dataclass(frozen=True)
class MonthBalance:
    """An account's movements in one month: totals, and per day of the month (`days` maps
    "DD" to (debit, credit)) so a balance at any date needs no posting reads."""
    month: str
    debit: Decimal
    credit: Decimal
    days: dict[str, tuple[Decimal, Decimal]]


@dataclass
class MonthMoves:
    """What a command adds to an account's month (written as a MonthBalance is read back)."""
    debit: Decimal = ZERO
    credit: Decimal = ZERO
    days: dict[str, tuple[Decimal, Decimal]] = field(default_factory=dict)

    def add(self, day: str, debit: Decimal, credit: Decimal) -> None:
        self.debit += debit
        self.credit += credit
        day_debit, day_credit = self.days.get(day, (ZERO, ZERO))
        self.days[day] = (day_debit + debit, day_credit + credit)


def totals_through(months: Iterable[MonthBalance], date: str) -> tuple[Decimal, Decimal]:
    """Debit and credit movements of an account up to and including `date`."""
    month, day = month_of(date), day_of(date)
    debit = credit = ZERO
    for balance in months:
        if balance.month < month:
            debit += balance.debit
            credit += balance.credit
        elif balance.month == month:
            for moment, (day_debit, day_credit) in balance.days.items():
                if moment <= day:
                    debit += day_debit
                    credit += day_credit
    return debit, credit


def running_balances(account_type: str, opening: Decimal,
                     movements: Iterable[tuple[Decimal, Decimal]]) -> list[Decimal]:
    balance, result = opening, []
    for debit, credit in movements:
        balance += natural_balance(account_type, debit, credit)
        result.append(balance)
    return result


# --- accounting periods --------------------------------------------------------------------------

def overlaps(start: str, end: str, other_start: str, other_end: str) -> bool:
    return start <= other_end and other_start <= end


def days_by_year(start: str, end: str) -> dict[str, set[str]]:
    """The days of [start, end] grouped by year, as "MM-DD": the closed-day sets of the
    period locks."""
    first, last = _dt.date.fromisoformat(start), _dt.date.fromisoformat(end)
    grouped: dict[str, set[str]] = {}
    day = first
    while day <= last:
        grouped.setdefault(f"{day.year:04d}", set()).add(day.strftime("%m-%d"))
        day += _dt.timedelta(days=1)
    return grouped
