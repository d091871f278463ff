"""Financial statements from account balances: the balance sheet at a date and the income
statement of a period, each section a tree of the chart with a subtotal at every level."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Iterable, Mapping

from chalicelib.domain.accounting import ASSET, COST, EQUITY, EXPENSE, INCOME, LIABILITY, ZERO, natural_balance

RESULT_TYPES = (INCOME, COST, EXPENSE)


@dataclass(frozen=True)
class Movements:
    """An account's debit and credit totals over some span."""
    debit: Decimal = ZERO
    credit: Decimal = ZERO

    def __sub__(self, other: Movements) -> Movements:
        return Movements(self.debit - other.debit, self.credit - other.credit)


def section(accounts: Iterable[Mapping[str, Any]], account_type: str,
            columns: list[Mapping[int, Movements]]) -> dict[str, Any]:
    """The accounts of one type as a tree in code order: each node's `amounts` (one per column,
    on the type's normal side) include its sub-accounts'. Accounts whose subtree never moved
    are left out. `totals` sums the top level."""
    of_type = sorted((a for a in accounts if a["type"] == account_type), key=lambda a: a["code"])
    known = {int(a["id"]) for a in of_type}
    children: dict[int | None, list[Mapping[str, Any]]] = {}
    for account in of_type:
        parent = account.get("parentId")
        children.setdefault(int(parent) if parent is not None and int(parent) in known else None, []).append(account)

    def node(account: Mapping[str, Any]) -> dict[str, Any] | None:
        account_id = int(account["id"])
        below = [child for child in (node(a) for a in children.get(account_id, [])) if child is not None]
        own = [column.get(account_id, Movements()) for column in columns]
        moved = any(m.debit or m.credit for m in own)
        if not moved and not below:
            return None
        amounts = [natural_balance(account_type, m.debit, m.credit) + sum((c["amounts"][i] for c in below), ZERO)
                   for i, m in enumerate(own)]
        return {"chartOfAccountId": account_id, "code": account["code"], "name": account["name"],
                "amounts": amounts, "accounts": below}

    top = [n for n in (node(a) for a in children.get(None, [])) if n is not None]
    return {"accounts": top, "totals": [sum((n["amounts"][i] for n in top), ZERO) for i in range(len(columns))]}


def result(accounts: Iterable[Mapping[str, Any]], movements: Mapping[int, Movements]) -> Decimal:
    """Income less cost and expenses over the span the movements cover."""
    types = {int(a["id"]): a["type"] for a in accounts}
    total = ZERO
    for account_id, moved in movements.items():
        account_type = types.get(account_id)
        if account_type in RESULT_TYPES:
            total += moved.credit - moved.debit  # income's normal side; cost and expenses reduce it
    return total


def balance_sheet(accounts: list[Mapping[str, Any]], columns: list[tuple[Mapping[int, Movements],
                                                                         Mapping[int, Movements]]]) -> dict[str, Any]:
    """Per column, (movements up to the date, movements before 1 January of its year). The
    year's result and the earlier years' (not yet closed into an equity account) belong to
    equity, so assets = liabilities + equity on any books whose entries balance."""
    through = [column[0] for column in columns]
    assets, liabilities, equity = (section(accounts, kind, through) for kind in (ASSET, LIABILITY, EQUITY))
    current = [result(accounts, to_date) - result(accounts, before_year) for to_date, before_year in columns]
    earlier = [result(accounts, before_year) for _, before_year in columns]
    equity_total = [equity["totals"][i] + current[i] + earlier[i] for i in range(len(columns))]
    liabilities_and_equity = [liabilities["totals"][i] + equity_total[i] for i in range(len(columns))]
    return {"assets": assets, "liabilities": liabilities,
            "equity": {**equity, "currentYearResult": current, "priorYearsResult": earlier, "totals": equity_total},
            "totalLiabilitiesAndEquity": liabilities_and_equity,
            "balanced": [assets["totals"][i] == liabilities_and_equity[i] for i in range(len(columns))]}


def income_statement(accounts: list[Mapping[str, Any]], columns: list[Mapping[int, Movements]]) -> dict[str, Any]:
    """Per column (the movements of a period): revenue, cost of sales, gross margin, expenses and
    the result. The chart has no separate financial or tax sections, so the operating result is
    the net result."""
    revenue, cost, expenses = (section(accounts, kind, columns) for kind in (INCOME, COST, EXPENSE))
    gross = [revenue["totals"][i] - cost["totals"][i] for i in range(len(columns))]
    operating = [gross[i] - expenses["totals"][i] for i in range(len(columns))]
    return {"revenue": revenue, "costOfSales": cost, "grossMargin": gross, "expenses": expenses,
            "operatingResult": operating, "netResult": operating}
