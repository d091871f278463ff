"""Every key of the single table is built here. Company-scoped keys start with C#{companyId}#
(or are exactly C#{companyId}) so that no query can cross companies by construction."""
from __future__ import annotations

from typing import Dict

Key = Dict[str, str]

# Entity kinds of company-scoped resources: used in keys, counters and list indexes.
PARTNER = "BP"
PRODUCT = "PROD"
API_KEY = "APIKEY"
PAYMENT_CONDITION = "PCOND"
CHART_ACCOUNT = "ACCT"
JOURNAL_ENTRY = "JE"
ACCOUNTING_PERIOD = "PERIOD"
DETERMINATION_RULE = "RULE"


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


def sortable_id(entity_id: int) -> str:
    return f"{entity_id:012d}"


def id_sequence(company_id: int, kind: str) -> Key:
    """Per-company id allocator (UpdateItem ADD, outside transactions, gaps allowed)."""
    return {"PK": company_prefix(company_id), "SK": f"SEQ#{kind}"}


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


def user(user_id: int) -> Key:
    return {"PK": f"USER#{user_id}", "SK": "USER"}


def user_email(email: str) -> Key:
    return {"PK": f"EMAIL#{email.strip().lower()}", "SK": "EMAIL"}


def user_company_link(user_id: int, company_id: int) -> Key:
    """Lets /auth/me list a user's companies with one Query on USER#{id}."""
    return {"PK": f"USER#{user_id}", "SK": f"COMPANY#{company_id:012d}"}


def membership(company_id: int, user_id: int) -> Key:
    return {"PK": f"C#{company_id}#USER#{user_id}", "SK": "MEMBER"}


def api_key(key_id: str) -> Key:
    return {"PK": f"KEY#{key_id}", "SK": "KEY"}


def session(token_hash: str) -> Key:
    return {"PK": f"SESSION#{token_hash}", "SK": "SESSION"}


# --- accounting ---------------------------------------------------------------------------------
# An account's partition holds, in sort-key order, the account item ("ACCT"), its monthly
# balances ("BAL#{month}") and its postings ("P#{date}#{entryId}#{line}"): the ledger of one
# account is read without touching any other account's items.

def chart_index(company_id: int, code: str) -> Dict[str, str]:
    """GSI1 attributes that list a company's chart of accounts in code order."""
    return {"GSI1PK": collection_partition(company_id, CHART_ACCOUNT), "GSI1SK": code}


def account_partition(company_id: int, account_id: int) -> str:
    return entity(company_id, CHART_ACCOUNT, account_id)["PK"]


ACCOUNT_BALANCE_PREFIX = "BAL#"
POSTING_PREFIX = "P#"


def account_month_balance(company_id: int, account_id: int, month: str) -> Key:
    return {"PK": account_partition(company_id, account_id), "SK": f"{ACCOUNT_BALANCE_PREFIX}{month}"}


def balance_index(company_id: int, account_id: int, month: str) -> Dict[str, str]:
    """GSI1 attributes that list every account's monthly balances by month (trial balance)."""
    return {"GSI1PK": f"C#{company_id}#BAL", "GSI1SK": f"{month}#{sortable_id(account_id)}"}


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


def entry_day_count(company_id: int, date: str) -> Key:
    """How many journal entries of each status and type carry this date: list totals for any
    date range and filter come from one Query over these."""
    return {"PK": f"C#{company_id}#JEDAY", "SK": date}


def period_index(company_id: int, start_date: str, period_id: int) -> Dict[str, str]:
    return {"GSI1PK": collection_partition(company_id, ACCOUNTING_PERIOD),
            "GSI1SK": f"{start_date}#{sortable_id(period_id)}"}


def period_lock(company_id: int, year: str) -> Key:
    """The closed days ("MM-DD") of one year: every write dated that year checks it in its
    transaction, so no posting slips into a period while it is being closed."""
    return {"PK": f"C#{company_id}#PLOCK", "SK": year}


def guard(company_id: int, name: str) -> Key:
    """A version item that serializes changes whose invariant spans several items (period
    overlaps, the shape of the account tree)."""
    return {"PK": company_prefix(company_id), "SK": f"GUARD#{name}"}


def determination_rule(company_id: int, operation: str, document_type: str | None) -> Key:
    return {"PK": f"C#{company_id}#{DETERMINATION_RULE}", "SK": f"{operation}#{document_type or '*'}"}


def determination_rules_partition(company_id: int) -> str:
    return f"C#{company_id}#{DETERMINATION_RULE}"
