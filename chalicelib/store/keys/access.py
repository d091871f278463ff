"""Users, memberships, invitations, failed logins, the audit log, API keys and sessions."""
from __future__ import annotations

from typing import Dict

from chalicelib.store.keys.base import API_KEY, Key, collection_partition, sortable_id


def user(user_id: int) -> Key:
    return {"PK": f"USER#{user_id}", "SK": "USER"}


def user_email(email: str) -> Key:
    return {"PK": f"EMAIL#{email.strip().lower()}", "SK": "EMAIL"}


USER_COMPANY_LINK_PREFIX = "COMPANY#"


def user_company_link(user_id: int, company_id: int) -> Key:
    """Lets /auth/me list a user's companies with one Query on USER#{id}."""
    return {"PK": f"USER#{user_id}", "SK": f"{USER_COMPANY_LINK_PREFIX}{company_id:012d}"}


def membership(company_id: int, user_id: int) -> Key:
    return {"PK": f"C#{company_id}#USER#{user_id}", "SK": "MEMBER"}


def members_partition(company_id: int) -> str:
    return f"C#{company_id}#MEMBER"


def membership_index(company_id: int, user_id: int) -> Dict[str, str]:
    """GSI1 attributes that list a company's members (and invitations) with one Query."""
    return {"GSI1PK": members_partition(company_id), "GSI1SK": sortable_id(user_id)}


def invitation(token_hash: str) -> Key:
    """Found from the invitation link's token alone (like a session), and naming its company."""
    return {"PK": f"INVITE#{token_hash}", "SK": "INVITE"}


def login_failures(scope: str, value: str, window_start: int) -> Key:
    """Failed logins of one source address (or pair) in one window; expires with it."""
    return {"PK": f"LOGINFAIL#{scope}#{value.strip().lower()}", "SK": str(window_start)}


def login_pair_failures(email: str, source_address: str | None, window_start: int) -> Key:
    """Failed logins of one e-mail from one source address in one window (and when the next may
    be checked); an address holds no '#', so the pair reads back one way."""
    return login_failures("PAIR", f"{email.strip()}#{source_address or ''}", window_start)


AUDIT = "AUDIT"  # the audit log's count item is entity_count(company, AUDIT)


def audit_partition(company_id: int) -> str:
    return f"C#{company_id}#{AUDIT}"


def audit_entry(company_id: int, occurred_at: str, entry_id: str) -> Key:
    """Sorted by time in the company's audit partition: read backwards, newest first."""
    return {"PK": audit_partition(company_id), "SK": f"{occurred_at}#{entry_id}"}


def api_key(key_id: str) -> Key:
    return {"PK": f"KEY#{key_id}", "SK": "KEY"}


def api_key_index(company_id: int, created_at: str, key_id: str) -> Dict[str, str]:
    """GSI1 lists a company's API keys in the order they were issued."""
    return {"GSI1PK": collection_partition(company_id, API_KEY), "GSI1SK": f"{created_at}#{key_id}"}


def session(token_hash: str) -> Key:
    return {"PK": f"SESSION#{token_hash}", "SK": "SESSION"}
