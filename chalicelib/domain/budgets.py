"""Budgets (issue 44), the pure part: how a budget's lines are stored, the checks no table is
needed for, and budget against actual worked out per account and for the result."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Iterable, Mapping

from chalicelib.domain.accounting import CENT, INCOME, ZERO
from chalicelib.domain.statements import RESULT_TYPES

# A budget's lines are one DynamoDB item (400 KB). Stored as compact texts (below) a line takes 20 to
# 90 bytes, so 2,400 lines (200 accounts by 12 months) fit whatever their dimensions; the answer of a
# budget (JSON, also kept for an Idempotency-Key's replay) is checked against the item size too.
MAX_BUDGET_LINES = 2400
HUNDRED = Decimal(100)


def line_key(line: Mapping[str, Any]) -> tuple[int, int, tuple[int, ...]]:
    """What a budget holds once: the account, the month and the cost centres (value ids, sorted)."""
    return (int(line["chartOfAccountId"]), int(line["month"]),
            tuple(sorted(int(pair["valueId"]) for pair in line.get("dimensions") or ())))


def first_duplicate(lines: Iterable[Mapping[str, Any]]) -> int | None:
    """The position of the first line whose (account, month, dimensions) an earlier line has."""
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    for position, line in enumerate(lines):
        key = line_key(line)
        if key in seen:
            return position
        seen.add(key)
    return None


def stored_line(line: Mapping[str, Any]) -> str:
    """"account|month|amount|dimension/value,..." (a text keeps the amount's cents: DynamoDB trims
    numbers)."""
    pairs = ",".join(f"{int(pair['dimensionId'])}/{int(pair['valueId'])}" for pair in line.get("dimensions") or ())
    return f"{int(line['chartOfAccountId'])}|{int(line['month'])}|{Decimal(line['amount']).quantize(CENT)}|{pairs}"


def read_line(text: str) -> dict[str, Any]:
    account, month, amount, pairs = text.split("|")
    dimensions = [{"dimensionId": int(dimension), "valueId": int(value)}
                  for dimension, value in (pair.split("/") for pair in pairs.split(",") if pair)]
    return {"chartOfAccountId": int(account), "month": int(month), "amount": Decimal(amount).quantize(CENT),
            "dimensions": dimensions}


def percentage(variance: Decimal, budget: Decimal) -> Decimal | None:
    """variance / budget * 100 to the hundredth (half up); none of a budget of 0."""
    if budget == 0:
        return None
    return (variance / budget * HUNDRED).quantize(CENT, rounding=ROUND_HALF_UP)


def figures(budget: Decimal, actual: Decimal, ytd_budget: Decimal, ytd_actual: Decimal) -> dict[str, Any]:
    """To the cent (DynamoDB answers 1100 for 1100.00)."""
    budget, actual, ytd_budget, ytd_actual = (amount.quantize(CENT) for amount in (budget, actual, ytd_budget,
                                                                                  ytd_actual))
    variance, ytd_variance = actual - budget, ytd_actual - ytd_budget
    return {"budget": budget, "actual": actual, "variance": variance, "percentage": percentage(variance, budget),
            "yearToDateBudget": ytd_budget, "yearToDateActual": ytd_actual, "yearToDateVariance": ytd_variance,
            "yearToDatePercentage": percentage(ytd_variance, ytd_budget)}


def budgeted(lines: Iterable[Mapping[str, Any]], month: int, value_id: int | None
             ) -> tuple[dict[int, Decimal], dict[int, Decimal], set[int]]:
    """Per account: the budget of `month`, of January to `month`, and every account the year's
    budget names. With `value_id`, only the lines carrying that cost-centre value count."""
    of_month: dict[int, Decimal] = {}
    to_date: dict[int, Decimal] = {}
    named: set[int] = set()
    for line in lines:
        if value_id is not None and value_id not in {int(pair["valueId"]) for pair in line["dimensions"]}:
            continue
        account, line_month = int(line["chartOfAccountId"]), int(line["month"])
        named.add(account)
        if line_month <= month:
            to_date[account] = to_date.get(account, ZERO) + line["amount"]
        if line_month == month:
            of_month[account] = of_month.get(account, ZERO) + line["amount"]
    return of_month, to_date, named


def comparison(accounts: Mapping[int, Mapping[str, Any]], budget: tuple[dict[int, Decimal], dict[int, Decimal], set[int]],
               actual_month: Mapping[int, Decimal], actual_to_date: Mapping[int, Decimal]
               ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The rows (accounts the budget names, and income, cost and expense accounts that moved in the
    year to date; not one deleted from the chart since: it never had a posting), in code order, and the totals of the result: income adds, cost and expense take
    away, balance-sheet accounts stay out. Actual amounts are on each account's natural side."""
    of_month, to_date, named = budget
    moved = {account for account, amount in actual_to_date.items()
             if amount != 0 and accounts.get(account, {}).get("type") in RESULT_TYPES}
    rows = []
    totals = dict.fromkeys(("budget", "actual", "yearToDateBudget", "yearToDateActual"), ZERO)
    for account_id in sorted((named | moved) & accounts.keys(), key=lambda account: accounts[account]["code"]):
        account = accounts[account_id]
        row = figures(of_month.get(account_id, ZERO), actual_month.get(account_id, ZERO),
                      to_date.get(account_id, ZERO), actual_to_date.get(account_id, ZERO))
        rows.append({"chartOfAccountId": account_id, "code": account["code"], "name": account["name"],
                     "type": account["type"], **row})
        if account["type"] in RESULT_TYPES:
            sign = 1 if account["type"] == INCOME else -1
            for name in totals:
                totals[name] += sign * row[name]
    return rows, figures(totals["budget"], totals["actual"], totals["yearToDateBudget"], totals["yearToDateActual"])
