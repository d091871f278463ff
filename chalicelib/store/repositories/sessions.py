"""Web sessions (their items hold the token's SHA-256 only)."""
from __future__ import annotations

from chalicelib.errors import ApiError
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction


def move_to_company(transaction: Transaction, session_hash: str, company_id: int, since: str,
                    on_ended: ApiError) -> None:
    """The session now in `company_id` since `since` (a removal from it later ends it there)."""
    transaction.update(keys.session(session_hash), "SET companyId = :company, companySince = :now",
                       condition="attribute_exists(PK)", values={":company": company_id, ":now": since},
                       on_fail=on_ended)


def keep_in_generation(transaction: Transaction, session_hash: str, generation: int, on_ended: ApiError) -> None:
    """The session survives its user's new generation (a password changed from it)."""
    transaction.update(keys.session(session_hash), "SET sessionGeneration = :generation",
                       condition="attribute_exists(PK)", values={":generation": generation}, on_fail=on_ended)
