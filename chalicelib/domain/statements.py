"""Financial statements from account balances: the balance sheet at a date and the income
statement of a period, each section a tree of the chart with a subtotal at every level."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping, Sequence

from chalicelib.domain.accounting import ASSET, COST, EQUITY, EXPENSE, INCOME, LIABILITY, ZERO, natural_balance

RESULT_TYPES = (INCOME, COST, EXPENSE)

# --- the income statement's sections (NIIF para PYMES, Sección 5: an analysis of expenses by function) ---
REVENUE = "revenue"
COST_OF_SALES = "cost_of_sales"
OPERATING_EXPENSES = "operating_expenses"
OTHER_INCOME = "other_income"
OTHER_EXPENSES = "other_expenses"
FINANCIAL_INCOME = "financial_income"
FINANCIAL_COSTS = "financial_costs"  # interest, bank charges, exchange losses
INCOME_TAX = "income_tax"
STATEMENT_SECTIONS = (REVENUE, COST_OF_SALES, OPERATING_EXPENSES, OTHER_INCOME, OTHER_EXPENSES, FINANCIAL_INCOME,
                      FINANCIAL_COSTS, INCOME_TAX)
# a section's figures are on the credit side (what adds to the result) or the debit side (what takes from it)
CREDIT_SECTIONS = frozenset({REVENUE, OTHER_INCOME, FINANCIAL_INCOME})
SECTION_BY_TYPE = {INCOME: REVENUE, COST: COST_OF_SALES, EXPENSE: OPERATING_EXPENSES}


@dataclass(frozen=True)
class Movements:
    """An account's debit and credit totals over some span."""
    debit: Decimal = ZERO
    credit: Decimal = ZERO

    def __sub__(self, other: Movements) -> Movements:
        return Movements(self.debit - other.debit, self.credit - other.credit)


def _credit_side(debit: Decimal, credit: Decimal) -> Decimal:
    return credit - debit


def _debit_side(debit: Decimal, credit: Decimal) -> Decimal:
    return debit - credit


def placements(accounts: Iterable[Mapping[str, Any]],
               standard: Mapping[str, tuple[str, str, bool]]) -> dict[int, str]:
    """Each income, cost or expense account's section of the income statement: its own
    `statementSection`, else as `chart_placements` places it (the standard chart, its parent, its
    type: income revenue, cost cost of sales, expense operating expenses). So a chart imported
    before accounts had a place, or built by hand on the standard codes, reads as the standard
    chart places it, and a sub-account follows the account it hangs under."""
    return chart_placements([a for a in accounts if a["type"] in RESULT_TYPES], standard,
                            lambda account: account.get("statementSection") or None, SECTION_BY_TYPE)


def chart_placements(accounts: Iterable[Mapping[str, Any]], standard: Mapping[str, tuple[str, str, bool]],
                     own_place: Callable[[Mapping[str, Any]], str | None],
                     by_type: Mapping[str, str]) -> dict[int, str]:
    """Where a statement places each of `accounts` (the income statement its sections, the
    statement of cash flows its activities): the place the account gives itself (`own_place`);
    else the place the country's standard chart names for its code (`standard`: code -> (type,
    place, named)), the types agreeing; else its parent's (among `accounts`); else the standard
    chart's place for its code however it got there; else its type's (`by_type`)."""
    by_id = {int(a["id"]): a for a in accounts}
    placed: dict[int, str] = {}

    def place(account_id: int, seen: frozenset[int]) -> str:
        if account_id in placed:
            return placed[account_id]
        account = by_id[account_id]
        standard_type, standard_place, named = standard.get(account["code"], ("", "", False))
        in_standard = bool(standard_type) and standard_type == account["type"]
        parent = account.get("parentId")
        parent = int(parent) if parent is not None else None
        own = own_place(account)
        if own:
            found = own
        elif in_standard and named:
            found = standard_place
        elif parent in by_id and parent not in seen:
            found = place(parent, seen | {account_id})
        elif in_standard:
            found = standard_place
        else:
            found = by_type[account["type"]]
        placed[account_id] = found
        return found

    for account_id in by_id:
        place(account_id, frozenset())
    return placed


def standard_places(chart: Iterable[tuple[str, str, str, str | None]], named: Mapping[str, str],
                    by_type: Mapping[str, str]) -> dict[str, tuple[str, str, bool]]:
    """A country's standard chart (code, name, type, parent code; parents first) and the places a
    statement names for its codes (`named`) as code -> (type, place, named), for the accounts of
    the types `by_type` places: an account the chart does not name follows its parent, a top
    account its type."""
    places: dict[str, tuple[str, str, bool]] = {}
    for code, _, account_type, parent_code in chart:
        if account_type not in by_type:
            continue
        if code in named:
            places[code] = (account_type, named[code], True)
        elif parent_code in places:
            places[code] = (account_type, places[parent_code][1], False)
        else:
            places[code] = (account_type, by_type[account_type], False)
    return places


def section(accounts: Iterable[Mapping[str, Any]], account_type: str,
            columns: list[Mapping[int, Movements]]) -> dict[str, Any]:
    """The accounts of one type as a tree in code order (see `_tree`), on the type's normal side."""
    return _tree([a for a in accounts if a["type"] == account_type], columns,
                 lambda debit, credit: natural_balance(account_type, debit, credit))


def _tree(members: list[Mapping[str, Any]], columns: Sequence[Mapping[int, Movements]],
          balance: Callable[[Decimal, Decimal], Decimal]) -> dict[str, Any]:
    """`members` as a tree in code order: each node's `amounts` (one per column, `balance` of its
    movements) include its sub-accounts' in the tree; an account whose parent is not a member
    is at the top. Accounts whose subtree never moved are left out. `totals` sums the top level."""
    members = sorted(members, key=lambda a: a["code"])
    known = {int(a["id"]) for a in members}
    children: dict[int | None, list[Mapping[str, Any]]] = {}
    for account in members:
        parent = account.get("parentId")
        children.setdefault(int(parent) if parent is not None and int(parent) in known else None, []).append(account)

    def node(account: Mapping[str, Any]) -> dict[str, Any] | None:
        account_id = int(account["id"])
        below = [child for child in (node(a) for a in children.get(account_id, [])) if child is not None]
        own = [column.get(account_id, Movements()) for column in columns]
        moved = any(m.debit or m.credit for m in own)
        if not moved and not below:
            return None
        amounts = [balance(m.debit, m.credit) + sum((c["amounts"][i] for c in below), ZERO)
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


def balance_sheet(accounts: Sequence[Mapping[str, Any]], columns: Sequence[tuple[Mapping[int, Movements],
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


def income_statement(accounts: Sequence[Mapping[str, Any]], columns: Sequence[Mapping[int, Movements]],
                     standard: Mapping[str, tuple[str, str, bool]]) -> dict[str, Any]:
    """Per column (the movements of a period), NIIF para PYMES' income statement: revenue less
    cost of sales is the gross margin; less operating expenses, the operating result; with other
    income and expenses and the financial result (financial income less financial costs, exchange
    differences included), the result before tax; less income tax, the net result. Each account
    is in the section `placements` gives it, its figures on that section's side, so the net result
    is every income, cost and expense account's credits less debits whatever their places."""
    place = placements(accounts, standard)
    sections = {}
    for name in STATEMENT_SECTIONS:
        side = _credit_side if name in CREDIT_SECTIONS else _debit_side
        sections[name] = _tree([a for a in accounts if place.get(int(a["id"])) == name], columns, side)
    total = {name: sections[name]["totals"] for name in STATEMENT_SECTIONS}
    count = range(len(columns))
    gross = [total[REVENUE][i] - total[COST_OF_SALES][i] for i in count]
    operating = [gross[i] - total[OPERATING_EXPENSES][i] for i in count]
    financial = [total[FINANCIAL_INCOME][i] - total[FINANCIAL_COSTS][i] for i in count]
    before_tax = [operating[i] + total[OTHER_INCOME][i] - total[OTHER_EXPENSES][i] + financial[i] for i in count]
    net = [before_tax[i] - total[INCOME_TAX][i] for i in count]
    return {"revenue": sections[REVENUE], "costOfSales": sections[COST_OF_SALES], "grossMargin": gross,
            "expenses": sections[OPERATING_EXPENSES], "operatingResult": operating,
            "otherIncome": sections[OTHER_INCOME], "otherExpenses": sections[OTHER_EXPENSES],
            "financialIncome": sections[FINANCIAL_INCOME], "financialCosts": sections[FINANCIAL_COSTS],
            "financialResult": financial, "resultBeforeTax": before_tax, "incomeTax": sections[INCOME_TAX],
            "netResult": net}
