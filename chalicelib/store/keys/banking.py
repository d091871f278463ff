"""Bank accounts' transactions, the pointers that find them by id, and reconciliations."""
from __future__ import annotations

from chalicelib.store.keys.base import Key, sortable_id

BANK_TRANSACTION = "BANKTX"
BANK_TRANSACTION_POINTER = "BANKTXID"
BANK_RECONCILIATION = "BANKREC"


def bank_transactions_partition(company_id: int, account_id: int) -> str:
    return f"C#{company_id}#{BANK_TRANSACTION}#{account_id}"


def bank_transaction(company_id: int, account_id: int, date: str, tx_id: int) -> Key:
    """An account's transactions sort by date in its own partition (its statement)."""
    return {"PK": bank_transactions_partition(company_id, account_id), "SK": f"{date}#{sortable_id(tx_id)}"}


def bank_transaction_pointer(company_id: int, account_id: int, tx_id: int) -> Key:
    """Finds a transaction of an account by id (its own key starts with its date). A partition of
    its own, so the transactions partition lists transactions only."""
    return {"PK": f"C#{company_id}#{BANK_TRANSACTION_POINTER}#{account_id}", "SK": sortable_id(tx_id)}


def reconciliations_partition(company_id: int, account_id: int) -> str:
    return f"C#{company_id}#{BANK_RECONCILIATION}#{account_id}"


def reconciliation(company_id: int, account_id: int, reconciliation_id: int) -> Key:
    return {"PK": reconciliations_partition(company_id, account_id), "SK": sortable_id(reconciliation_id)}
