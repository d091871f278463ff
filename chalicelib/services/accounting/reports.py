"""General ledger and trial balance, read from the monthly balances (with their per-day
totals) and the postings. A ledger reads only the account's own partition: its cost does not
depend on the company's other accounts."""
from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any, Callable

from chalicelib.domain import accounting
from chalicelib.domain.accounting import ZERO
from chalicelib.errors import NotFound, ValidationFailed
from chalicelib.services.accounting import chart
from chalicelib.services.accounting.posting import month_balance
from chalicelib.services.identity.accounts import today_of
from chalicelib.store import keys
from chalicelib.store.repositories import ledger as ledgers
from chalicelib.store.table import Table

_BEGINNING = "0001-01-01"  # before any posting: a trial balance is of everything up to its date


def _is_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def ledger(table: Table, company_id: int, account_id: int, start_date: str | None, end_date: str | None,
           limit: int, cursor: str | None) -> dict[str, Any]:
    """Opening balance at `start_date` (default: 1 January of the end's year), the postings of
    [start_date, end_date (default: today)] with their running balance (a page of `limit`,
    `nextCursor` for the rest) and the closing balance. The account item and its monthly
    balances come back from one Query (they sort before the postings), the page from a second;
    a cursor page adds a Query for the same day's postings before it."""
    end_date = end_date or today_of(table, company_id)
    start_date = start_date or f"{end_date[:4]}-01-01"
    if start_date > end_date:
        raise ValidationFailed.for_field("startDate", "must not be after the end date")
    partition = keys.account_partition(company_id, account_id)
    account, months = account_and_months(table, company_id, account_id, end_date)
    account_type = account["type"]

    def balance_through(date: str) -> tuple[Decimal, Decimal]:
        return accounting.totals_through(months, date)

    opening_debit, opening_credit = balance_through(accounting.previous_day(start_date))
    closing_debit, closing_credit = balance_through(end_date)
    postings, (running_debit, running_credit), next_cursor = dated_page(
        table, partition, keys.POSTING_PREFIX, start_date, end_date, limit, cursor, months,
        lambda posting: (posting["debit"], posting["credit"]))
    opening = accounting.natural_balance(account_type, running_debit, running_credit)
    balances = accounting.running_balances(account_type, opening,
                                           ((p["debit"], p["credit"]) for p in postings))
    return {
        "account": chart.account_view(account),
        "startDate": start_date, "endDate": end_date,
        "openingBalance": accounting.natural_balance(account_type, opening_debit, opening_credit),
        "totalDebit": closing_debit - opening_debit, "totalCredit": closing_credit - opening_credit,
        "closingBalance": accounting.natural_balance(account_type, closing_debit, closing_credit),
        "postings": [{"date": p["date"], "journalEntryId": p["journalEntryId"], "line": p["line"],
                      "entryType": p["entryType"], "description": p.get("description"),
                      "lineDescription": p.get("lineDescription"), "reference": p.get("reference"),
                      "debit": p["debit"], "credit": p["credit"], "balance": balance}
                     for p, balance in zip(postings, balances, strict=True)],
        "limit": limit,
        "nextCursor": next_cursor,
    }


def account_and_months(table: Table, company_id: int, account_id: int, through: str
                       ) -> tuple[dict[str, Any], list[accounting.MonthBalance]]:
    """The account item and its monthly balances up to the month of `through`: a GetItem and a
    Query, both strongly consistent."""
    account = table.get(keys.chart_account(company_id, account_id))
    if account is None:
        raise NotFound("Account not found.")
    return account, account_months(table, company_id, account_id, through[:7])


def account_months(table: Table, company_id: int, account_id: int, through_month: str) -> list[accounting.MonthBalance]:
    """One account's monthly balances up to a month, strongly consistent."""
    return [month_balance(item) for item in ledgers.account_months(table, company_id, account_id, through_month)]


def balance_at(table: Table, company_id: int, account_id: int, date: str) -> Decimal:
    """An account's balance on its normal side at the end of `date`."""
    account, months = account_and_months(table, company_id, account_id, date)
    return accounting.natural_balance(account["type"], *accounting.totals_through(months, date))


def balance_of(table: Table, company_id: int, account: dict[str, Any], date: str = "9999-12-31") -> Decimal:
    """`balance_at` of an account item already read (by default everything posted, whatever its date)."""
    months = account_months(table, company_id, int(account["id"]), date[:7])
    return accounting.natural_balance(account["type"], *accounting.totals_through(months, date))


def dated_page(table: Table, partition: str, prefix: str, start_date: str, end_date: str, limit: int,
               cursor: str | None, months: list[accounting.MonthBalance],
               amounts: Callable[[dict[str, Any]], tuple[Decimal, Decimal]],
               ) -> tuple[list[dict[str, Any]], tuple[Decimal, Decimal], str | None]:
    """One page of a ledger's dated items (sort keys `{prefix}{date}#...`) in [start_date,
    end_date], the debit and credit totals before its first item (from the monthly balances,
    plus the same day's earlier items when a cursor starts mid-day) and the next page's cursor."""
    page = ledgers.dated_page(table, partition, prefix, start_date, end_date, limit, cursor, _is_date)
    running_debit, running_credit = accounting.totals_through(
        months, accounting.previous_day(page.resumed_on or start_date))
    for earlier in page.earlier_that_day:
        debit, credit = amounts(earlier)
        running_debit, running_credit = running_debit + debit, running_credit + credit
    return page.items, (running_debit, running_credit), page.next_cursor


def month_balances_through(table: Table, company_id: int, date: str) -> dict[int, list[accounting.MonthBalance]]:
    """Every account's monthly balances up to the month of `date`: one strongly consistent Query
    of the company's balances, whatever the number of postings (the posting engine keeps them in
    the posting's transaction), so a report never sees part of a posting."""
    by_account: dict[int, list[accounting.MonthBalance]] = {}
    for item in ledgers.every_month_balance(table, company_id):
        if item["month"] <= date[:7]:
            by_account.setdefault(item["accountId"], []).append(month_balance(item))
    return by_account


def trial_balance(table: Table, company_id: int, date: str | None, dimension_value_id: int | None = None,
                  group_by_dimension_id: int | None = None) -> dict[str, Any]:
    """Per account with movements up to `date` (default: today): total debits, total credits and the balance on
    its normal side; the debit and credit totals of a balanced ledger are equal. One Query of
    the monthly balances up to the month of `date` and one of the chart. `dimension_value_id`:
    only the postings carrying that value; `group_by_dimension_id`: the figures also by that
    dimension's values and the unassigned (`…ByDimension`), adding up to the row's. Both read
    the postings of every account up to `date` (dimension_reports)."""
    from chalicelib.services.accounting import dimension_reports

    date = date or today_of(table, company_id)
    chosen = dimension_reports.selection(table, company_id, dimension_value_id, group_by_dimension_id)
    by_account = month_balances_through(table, company_id, date)
    account_ids = [int(account_id) for account_id in by_account]
    if chosen is None or chosen.value_id is None:
        whole = {int(account_id): accounting.totals_through(months, date) for account_id, months in by_account.items()}
    else:
        whole = {account_id: (moved.debit, moved.credit) for account_id, moved in dimension_reports.tagged_movements(
            table, company_id, account_ids, _BEGINNING, date, chosen.value_id).items()}
    groups = (dimension_reports.group_columns(table, company_id, account_ids, _BEGINNING, date, chosen)
              if chosen is not None and chosen.grouped else None)
    rows = []
    total_debit = total_credit = ZERO
    accounts = {int(item["id"]): item for item in chart.all_accounts(table, company_id)}
    for account_id, (debit, credit) in whole.items():
        if debit == 0 and credit == 0:
            continue
        account = accounts.get(account_id) or {"code": "", "name": "", "type": accounting.ASSET}
        balance = accounting.natural_balance(account["type"], debit, credit)
        row = {"chartOfAccountId": account_id, "code": account["code"], "name": account["name"],
               "type": account["type"], "debit": debit, "credit": credit, "balance": balance,
               "debitBalance": max(debit - credit, ZERO), "creditBalance": max(credit - debit, ZERO)}
        if groups is not None:
            moved = [group.get(account_id) for group in groups]
            row.update({"debitByDimension": [m.debit if m else ZERO for m in moved],
                        "creditByDimension": [m.credit if m else ZERO for m in moved],
                        "balanceByDimension": [accounting.natural_balance(account["type"], m.debit, m.credit)
                                               if m else ZERO for m in moved]})
        rows.append(row)
        total_debit += debit
        total_credit += credit
    rows.sort(key=lambda row: row["code"])
    answer = {"date": date, "accounts": rows, "totalDebit": total_debit, "totalCredit": total_credit,
              "totalDebitBalance": sum((row["debitBalance"] for row in rows), ZERO),
              "totalCreditBalance": sum((row["creditBalance"] for row in rows), ZERO)}
    if chosen is not None:
        answer.update(chosen.answer())
    if groups is not None:
        answer["totalDebitByDimension"] = [sum((row["debitByDimension"][i] for row in rows), ZERO)
                                           for i in range(len(groups))]
        answer["totalCreditByDimension"] = [sum((row["creditByDimension"][i] for row in rows), ZERO)
                                            for i in range(len(groups))]
    return answer
