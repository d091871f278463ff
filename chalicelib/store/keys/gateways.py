"""Payment gateways: payment links, gateway callbacks and their decisions."""
from __future__ import annotations

from typing import Dict

from chalicelib.store.keys.base import Key

PAYMENT_GATEWAY = "PGATEWAY"  # small records: a handful per company


def payment_link(link_id: str) -> Key:
    """A gateway's callback names only the link: like an API key, the link is found from its id
    alone and names its company."""
    return {"PK": f"PAYLINK#{link_id}", "SK": "PAYLINK"}


def payment_link_index(company_id: int, created_at: str, link_id: str) -> Dict[str, str]:
    """GSI1 attributes that list a company's payment links by creation time."""
    return {"GSI1PK": f"C#{company_id}#PAYLINK", "GSI1SK": f"{created_at}#{link_id}"}


def gateway_callback(company_id: int, provider: str, transaction_id: str) -> Key:
    """What was decided about one transaction of a gateway (accepted or refused): a repeated
    notification finds it and gets the same answer."""
    return {"PK": f"C#{company_id}#GWCALLBACK", "SK": f"{provider}#{transaction_id}"}


def gateway_decisions_partition(company_id: int, gateway_id: int) -> str:
    return f"C#{company_id}#GWDECISION#{gateway_id}"


def gateway_decision_index(company_id: int, gateway_id: int, received_at: str, transaction_id: str) -> Dict[str, str]:
    """GSI1 attributes that list one gateway's decisions by the time their notification came."""
    return {"GSI1PK": gateway_decisions_partition(company_id, gateway_id), "GSI1SK": f"{received_at}#{transaction_id}"}


def gateway_decision_count(company_id: int, gateway_id: int) -> Key:
    """How many decisions a gateway has: kept in their transactions (list totals). Sorts apart
    from the decisions, whose sort keys start with the provider."""
    return {"PK": f"C#{company_id}#GWCALLBACK", "SK": f"#COUNT#{gateway_id}"}


def payment_links_partition(company_id: int) -> str:
    """GSI1's partition of a company's payment links (payment_link_index)."""
    return f"C#{company_id}#PAYLINK"


def gateway_pending(company_id: int, provider: str, transaction_id: str, since: str) -> Key:
    """A notification not yet decided (issue 43: the provider did not answer its confirmation, or
    the company's setup refused it): kept, across companies and oldest first (`since`, when it
    first reached us), for the hourly run to confirm again; gone in the transaction that decides
    it, or after the run's attempts (the decision stays pending for a person's recheck)."""
    return {"PK": "GWPENDING", "SK": f"{since}#{company_id}#{provider}#{transaction_id}"}


GATEWAY_PENDING_PARTITION = "GWPENDING"
