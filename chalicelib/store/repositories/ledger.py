"""The ledgers: an account's postings and monthly balances, a partner's movements, and a page of
any ledger's dated items ("{prefix}{date}#..." sort keys) with its cursor."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from chalicelib.domain.records import PostingRecord
from chalicelib.store import keys
from chalicelib.store.listing import decode_cursor, encode_cursor
from chalicelib.store.table import Table, invalid_cursor
from chalicelib.store.transaction import Transaction

_DAY_END = "~"  # sorts after every digit and '#': the upper bound of a day's items


def put_posting(transaction: Transaction, company_id: int, posting: PostingRecord) -> None:
    """A posting in its account's partition, ordered by date, entry and line."""
    transaction.put({**keys.posting(company_id, posting["accountId"], posting["date"], posting["journalEntryId"],
                                    posting["line"]), "itemType": keys.POSTING, **posting})


def postings_between(table: Table, company_id: int, account_id: int, start: str, end: str) -> list[dict[str, Any]]:
    """An account's postings dated within [start, end], strongly consistent."""
    return table.query_all(partition=("PK", keys.account_partition(company_id, account_id)),
                           sort_range=("SK", f"{keys.POSTING_PREFIX}{start}", f"{keys.POSTING_PREFIX}{end}{_DAY_END}"),
                           consistent=True)


def account_months(table: Table, company_id: int, account_id: int, through_month: str) -> list[dict[str, Any]]:
    """One account's monthly balance items (and their shards) up to a month, strongly consistent."""
    return table.query_all(partition=("PK", keys.balances_partition(company_id)),
                           sort_range=("SK", *keys.account_balances_range(account_id, through_month)), consistent=True)


def every_month_balance(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Every account's monthly balance items: one strongly consistent Query of the company's balances."""
    return table.query_all(partition=("PK", keys.balances_partition(company_id)), consistent=True)


def partner_movements_through(table: Table, company_id: int, partner_id: int, side: str,
                              date: str) -> list[dict[str, Any]]:
    """A partner's movements on one side (receivable, payable) up to the end of `date`, strongly
    consistent."""
    return table.query_all(
        partition=("PK", keys.partner_ledger_partition(company_id, partner_id, side)),
        sort_range=("SK", keys.PARTNER_MOVEMENT_PREFIX, keys.day_end(keys.PARTNER_MOVEMENT_PREFIX + date)),
        consistent=True)


@dataclass(frozen=True)
class DatedPage:
    items: list[dict[str, Any]]
    # the day the cursor resumed in (None: from `start`) and that day's items up to the cursor's, included
    resumed_on: str | None
    earlier_that_day: list[dict[str, Any]]
    next_cursor: str | None


def dated_page(table: Table, partition: str, prefix: str, start: str, end: str, limit: int,
               cursor: str | None, is_date: Callable[[str], bool]) -> DatedPage:
    """One page of a ledger's items dated in [start, end], strongly consistent, resumed after a
    cursor honoured only inside this partition and range (`is_date` tells a date apart)."""
    low, high = f"{prefix}{start}", f"{prefix}{end}{_DAY_END}"
    start_key = None
    resumed_on: str | None = None
    earlier: list[dict[str, Any]] = []
    if cursor:
        start_key = decode_cursor(cursor, partition_attribute="PK", partition=partition, attributes=("PK", "SK"))
        after = start_key["SK"]
        day = after[len(prefix):len(prefix) + 10]
        if not (low <= after <= high) or not is_date(day) or after[len(prefix) + 10:len(prefix) + 11] != "#":
            raise invalid_cursor()
        resumed_on = day
        # the cursor's own item ended the previous page: it counts
        earlier = table.query_all(partition=("PK", partition), sort_range=("SK", f"{prefix}{day}", after),
                                  consistent=True)
    items: list[dict[str, Any]] = []
    more = False
    while True:
        batch, start_key = table.query(partition=("PK", partition), sort_range=("SK", low, high),
                                       limit=limit + 1 - len(items), start_key=start_key, consistent=True)
        items.extend(batch)
        if len(items) > limit:
            more, items = True, items[:limit]
            break
        if start_key is None:
            break
    next_cursor = encode_cursor(keys.item_key(partition, items[-1]["SK"])) if more and items else None
    return DatedPage(items, resumed_on, earlier, next_cursor)


def anything_posted(table: Table, company_id: int) -> bool:
    """Whether the company's books or stock hold anything yet: a balance or a stock position is the
    first trace of any posting, and neither is ever deleted (two strongly consistent Queries of one
    item each)."""
    for partition in (keys.balances_partition(company_id), keys.stock_positions_partition(company_id)):
        found, _ = table.query(partition=("PK", partition), limit=1, consistent=True)
        if found:
            return True
    return False
