from typing import Annotated, Any, Dict, List, Literal, Optional

from pydantic import Field, StringConstraints

from chalicelib.domain.webhook_urls import WEBHOOK_URL_PATTERN
from chalicelib.models.base import ListEnvelope, Name, RequestModel, ResponseModel

# the spec's event kinds a subscription may ask for (webhook.test comes from the test button only)
EventKind = Literal["document.created", "document.confirmed", "document.dte_accepted", "document.dte_invalidated",
                    "document.cancelled",
                    "product.created", "product.updated", "business_partner.created", "business_partner.updated",
                    "payment.created", "payment.confirmed", "inventory_adjustment.created",
                    "inventory_transfer.created", "statement.imported", "statement_line.matched"]
Url = Annotated[str, StringConstraints(min_length=1, max_length=2048),
                Field(json_schema_extra={"format": "uri", "pattern": WEBHOOK_URL_PATTERN})]
Events = Annotated[List[EventKind], Field(min_length=1, max_length=20)]


class WebhookCreate(RequestModel):
    name: Name
    url: Url = Field(description="HTTPS; private, loopback, link-local and metadata addresses are refused")
    events: Events
    is_active: bool = True


class WebhookUpdate(RequestModel):
    name: Name = None  # type: ignore[assignment]
    url: Url = None  # type: ignore[assignment]
    events: Events = None  # type: ignore[assignment]
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class Webhook(ResponseModel):
    id: int
    name: str
    url: str
    events: List[str]
    is_active: bool = True
    version: int
    created_at: str
    updated_at: str


class WebhookCreated(Webhook):
    secret: Optional[str] = Field(description="the signing secret: shown in this answer only (null on an "
                                              "Idempotency-Key replay)")


class WebhookList(ListEnvelope):
    webhooks: List[Webhook]


class DeliveryQuery(RequestModel):
    limit: int = Field(20, ge=1, le=100)
    cursor: Optional[Annotated[str, StringConstraints(max_length=1000)]] = None


class DeliveryAttempt(ResponseModel):
    attempt: int
    at: str
    status_code: Optional[int] = None
    duration_ms: int
    error: Optional[str] = None
    response_excerpt: Optional[str] = None


class Delivery(ResponseModel):
    id: str
    webhook_id: int
    event: str
    resource_type: Optional[str] = None
    resource_id: Optional[int] = None
    occurred_at: str
    status: Literal["pending", "retrying", "delivered", "failed", "skipped"]
    attempt_count: int
    attempts: List[DeliveryAttempt]
    last_attempt_at: Optional[str] = None
    created_at: str
    payload: Dict[str, Any]


class DeliveryList(ResponseModel):
    deliveries: List[Delivery]
    limit: int
    next_cursor: Optional[str] = None
