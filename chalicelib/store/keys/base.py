"""Keys every part uses: a company's prefix and item, entities with their list index, counts,
id sequences, unique values, idempotency records, outbox events and rate windows."""
from __future__ import annotations

from typing import Dict

Key = Dict[str, str]


# The items every write of a company touches (accounts' and partners' month balances, the day
# counts, the year's lock) take a shard of their own when a transaction finds one of them in
# flight (store/transaction.py): "{sort key}#{1..SHARDS-1}". A company that never writes
# concurrently keeps one item each. Readers read the shards with the item (their sort keys follow
# its own: ranges end in SHARD_SUFFIX_END) and add them up; the year's lock is written to every
# shard alike, so any shard a check lands on is the lock.
SHARDS = 16
SHARD_SUFFIX_END = "#~"


def shard(key: Key, number: int) -> Key:
    return {"PK": key["PK"], "SK": f"{key['SK']}#{number}"}


def shards(key: Key) -> list[Key]:
    """The item and every shard of it."""
    return [key] + [shard(key, number) for number in range(1, SHARDS)]


def pair(key: Key) -> tuple[str, str]:
    """How Table.batch_get indexes what it found."""
    return key["PK"], key["SK"]


def item_key(partition: str, sort: str) -> Key:
    """The key of an item whose partition and sort key are at hand (a pair, a page's last item)."""
    return {"PK": partition, "SK": sort}


def day_end(day: str) -> str:
    """The sort-key bound after every item of a day: what follows a date in a sort key (an id,
    an origin, a shard) comes after a '#', which sorts before '~'."""
    return f"{day}#~"

# Entity kinds of company-scoped resources: used in keys, counters and list indexes.
PARTNER = "BP"
PRODUCT = "PROD"
API_KEY = "APIKEY"
PAYMENT_CONDITION = "PCOND"
PAYMENT_METHOD = "PMETHOD"
BANK_ACCOUNT = "BANK"
CHART_ACCOUNT = "ACCT"
JOURNAL_ENTRY = "JE"
ACCOUNTING_PERIOD = "PERIOD"
DETERMINATION_RULE = "RULE"
DOCUMENT = "DOC"
BRANCH = "BRANCH"
CAI_RANGE = "CAI"
WAREHOUSE = "WH"
# issue 39: settle
TAX_SETTLEMENT = "TAXSET"


def company_prefix(company_id: int) -> str:
    return f"C#{company_id}"


def company(company_id: int) -> Key:
    return {"PK": company_prefix(company_id), "SK": "COMPANY"}


def entity(company_id: int, kind: str, entity_id: int) -> Key:
    return {"PK": f"C#{company_id}#{kind}#{entity_id}", "SK": kind}


def collection_index(company_id: int, kind: str, entity_id: int) -> Dict[str, str]:
    """GSI1 attributes that list a company's entities of one kind in id order."""
    return {"GSI1PK": collection_partition(company_id, kind), "GSI1SK": sortable_id(entity_id)}


def collection_partition(company_id: int, kind: str) -> str:
    return f"C#{company_id}#{kind}"


# the table's and its indexes' key attributes: never part of a record's answer
INDEX_ATTRIBUTES = frozenset({"PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "GSI3PK", "GSI3SK"})


def sortable_id(entity_id: int) -> str:
    return f"{entity_id:012d}"


def parse_sortable_id(sort: str) -> int | None:
    """The id a `sortable_id` writes, else None (a forged key: another text, other scripts'
    digits, which `int` would read as another number, or too many digits for `int`)."""
    if len(sort) != 12 or not (sort.isascii() and sort.isdigit()):
        return None
    return int(sort)


def lease(of: Key) -> Key:
    """The lease that lets one writer at a time at a counter (store/table.py Table.lease), in a
    partition of its own: never among the records read beside the counter."""
    return {"PK": f"{of['PK']}#LEASE", "SK": of["SK"]}


def id_sequence(company_id: int, kind: str) -> Key:
    """Per-company id allocator (UpdateItem ADD, outside transactions, gaps allowed)."""
    return {"PK": company_prefix(company_id), "SK": f"SEQ#{kind}"}


def search_partition(company_id: int, kind: str) -> str:
    """The search index of a kind's records (partners, products): an item per term and record."""
    return f"C#{company_id}#SEARCH#{kind}"


def search_term(company_id: int, kind: str, term: str, entity_id: int) -> Key:
    return {"PK": search_partition(company_id, kind), "SK": f"{term}#{sortable_id(entity_id)}"}


def entity_count(company_id: int, kind: str) -> Key:
    """How many entities of a kind exist: updated inside the creating transaction."""
    return {"PK": company_prefix(company_id), "SK": f"COUNT#{kind}"}


# The count item also sits in its collection's GSI1 partition, sorted before every id, so
# the first page of a list and its `total` come back from one Query.
COUNT_SORT_KEY = "#COUNT"


def entity_count_index(company_id: int, kind: str) -> Dict[str, str]:
    return {"GSI1PK": collection_partition(company_id, kind), "GSI1SK": COUNT_SORT_KEY}


def global_sequence(kind: str) -> Key:
    return {"PK": "GLOBAL", "SK": f"SEQ#{kind}"}


def unique_value(company_id: int, kind: str, value: str) -> Key:
    """Reserves a value (a product code, ...) inside one company."""
    return {"PK": f"C#{company_id}#UNIQUE#{kind}", "SK": value}


def idempotency(company_id: int, idempotency_key: str) -> Key:
    return {"PK": f"C#{company_id}#IDEM", "SK": idempotency_key}


def outbox_event(company_id: int, occurred_at: str, event_id: str) -> Key:
    return {"PK": f"C#{company_id}#EVT", "SK": f"{occurred_at}#{event_id}"}


def rate_window(company_id: int, key_id: str, window_start: int) -> Key:
    return {"PK": f"C#{company_id}#RATE", "SK": f"{key_id}#{window_start}"}
