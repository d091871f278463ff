"""What leaves the service: webhook deliveries and documents' e-mail sendings."""
from __future__ import annotations

from typing import Dict

from chalicelib.store.keys.base import DOCUMENT, Key, entity

WEBHOOK = "WEBHOOK"  # subscriptions: small records, the fan-out reads the company's whole set


def webhook_deliveries_partition(company_id: int, webhook_id: int) -> str:
    return f"C#{company_id}#WHDLV#{webhook_id}"


def webhook_delivery(company_id: int, webhook_id: int, delivery_id: str) -> Key:
    """A delivery of one event to one subscription, with its attempts; delivery ids sort by the
    event's time, so the partition read backwards lists the newest first."""
    return {"PK": webhook_deliveries_partition(company_id, webhook_id), "SK": delivery_id}


DOCUMENT_SENDING_PREFIX = "SEND#"


def document_sending(company_id: int, document_id: int, sent_at: str, message_id: str) -> Key:
    """One sending of a document, in the document's own partition (beside its payments)."""
    return {"PK": entity(company_id, DOCUMENT, document_id)["PK"],
            "SK": f"{DOCUMENT_SENDING_PREFIX}{sent_at}#{message_id}"}


def document_sendings_partition(company_id: int, document_id: int) -> str:
    return f"C#{company_id}#DOCSEND#{document_id}"


def document_sending_index(company_id: int, document_id: int, sent_at: str, message_id: str) -> Dict[str, str]:
    """GSI1 attributes that list a document's sendings by time."""
    return {"GSI1PK": document_sendings_partition(company_id, document_id), "GSI1SK": f"{sent_at}#{message_id}"}


def document_sending_count(company_id: int, document_id: int) -> Key:
    """How many times a document was sent: kept in the sendings' transactions (list totals)."""
    return {"PK": entity(company_id, DOCUMENT, document_id)["PK"], "SK": "SENDCOUNT"}
