"""The books: chart, accounts' balances and postings, entries, periods, determination rules."""
from __future__ import annotations

from typing import Dict

from chalicelib.store.keys.base import (
    ACCOUNTING_PERIOD,
    CHART_ACCOUNT,
    DETERMINATION_RULE,
    JOURNAL_ENTRY,
    SHARD_SUFFIX_END,
    Key,
    collection_partition,
    company_prefix,
    entity,
    sortable_id,
)

# The chart is one partition of the company ("{accountId}"), in no index: it is read whole and
# strongly consistent, and the `postingCount` every posting adds to its account writes no index
# entry. An account's own partition holds its postings ("P#{date}#{entryId}#{line}"): the ledger
# of one account is read without touching any other account's items. Every account's monthly
# balances are in one partition of the company ("{accountId}#{month}"), in the table itself, not an
# index: the trial balance and the statements read them strongly consistent, so they never see
# part of a posting (an index may lag behind).

def chart_partition(company_id: int) -> str:
    return f"C#{company_id}#CHART"


def chart_account(company_id: int, account_id: int) -> Key:
    return {"PK": chart_partition(company_id), "SK": sortable_id(account_id)}


def account_partition(company_id: int, account_id: int) -> str:
    return entity(company_id, CHART_ACCOUNT, account_id)["PK"]


# where an account item was before issue 14 (in its own partition, listed by GSI1): infra/ops/migrations.py
def legacy_account(company_id: int, account_id: int) -> Key:
    return entity(company_id, CHART_ACCOUNT, account_id)


# the sort keys of balances before issue 14 (in the account's partition): infra/ops/migrations.py
LEGACY_ACCOUNT_BALANCE_PREFIX = "BAL#"
POSTING_PREFIX = "P#"
POSTING = "POSTING"  # a posting's itemType


def account_month_balance(company_id: int, account_id: int, month: str) -> Key:
    return {"PK": balances_partition(company_id), "SK": f"{sortable_id(account_id)}#{month}"}


def account_balances_range(account_id: int, through_month: str | None = None) -> tuple[str, str]:
    """The sort-key bounds of one account's monthly balances and their shards, up to a month
    (inclusive)."""
    return f"{sortable_id(account_id)}#", f"{sortable_id(account_id)}#{through_month or ''}{SHARD_SUFFIX_END}"


def balances_partition(company_id: int) -> str:
    return f"C#{company_id}#BAL"


def posting_sort_key(date: str, entry_id: int, line: int) -> str:
    return f"{POSTING_PREFIX}{date}#{sortable_id(entry_id)}#{line:03d}"


def posting(company_id: int, account_id: int, date: str, entry_id: int, line: int) -> Key:
    return {"PK": account_partition(company_id, account_id), "SK": posting_sort_key(date, entry_id, line)}


def entry_index(company_id: int, date: str, entry_id: int) -> Dict[str, str]:
    """GSI1 attributes that list journal entries by date."""
    return {"GSI1PK": collection_partition(company_id, JOURNAL_ENTRY),
            "GSI1SK": f"{date}#{sortable_id(entry_id)}"}


def period_index(company_id: int, start_date: str, period_id: int) -> Dict[str, str]:
    return {"GSI1PK": collection_partition(company_id, ACCOUNTING_PERIOD),
            "GSI1SK": f"{start_date}#{sortable_id(period_id)}"}


def period_lock(company_id: int, year: str) -> Key:
    """The closed days ("MM-DD") of one year: every write dated that year checks it in its
    transaction, so no posting slips into a period while it is being closed."""
    return {"PK": f"C#{company_id}#PLOCK", "SK": year}


# the books' lock among the years' locks: a sort key no year has (years are digits)
BOOKS_LOCK = "BOOKS"


def books_lock(company_id: int) -> Key:
    """The last day of the newest closed fiscal year (`closedThrough`): every dated write checks
    it in its transaction, so nothing posts on or before that day, in whichever year, one with no
    lock of its own included."""
    return {"PK": f"C#{company_id}#PLOCK", "SK": BOOKS_LOCK}


def guard(company_id: int, name: str) -> Key:
    """A version item that serializes changes whose invariant spans several items (period
    overlaps, the shape of the account tree)."""
    return {"PK": company_prefix(company_id), "SK": f"GUARD#{name}"}


def determination_rule(company_id: int, operation: str, document_type: str | None) -> Key:
    return {"PK": f"C#{company_id}#{DETERMINATION_RULE}", "SK": f"{operation}#{document_type or '*'}"}


def determination_rules_partition(company_id: int) -> str:
    return f"C#{company_id}#{DETERMINATION_RULE}"


def exchange_rate(company_id: int, currency: str, date: str) -> Key:
    """A currency's rate (company currency per unit) from `date` on: one partition per company,
    sorted by currency and date, so the rate of a day is the newest item on or before it."""
    return {"PK": exchange_rates_partition(company_id), "SK": f"{currency}#{date}"}


def exchange_rates_partition(company_id: int) -> str:
    return f"C#{company_id}#FXRATE"


def exchange_rates_through(currency: str, date: str) -> tuple[str, str]:
    """The sort-key range of a currency's rates up to `date`."""
    return f"{currency}#", f"{currency}#{date}"
