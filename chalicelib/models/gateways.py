from decimal import Decimal
from typing import Annotated, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from chalicelib.domain.gateways import GATEWAY_A, GATEWAY_B, MIN_SECRET_LENGTH, notification_schema
from chalicelib.models.base import (
    Date,
    EntityId,
    ListEnvelope,
    Money,
    Name,
    PositiveMoney,
    RequestModel,
    ResponseModel,
    ShortText,
)

Provider = Literal["gateway-a", "gateway-b"]
# The secret the gateway gives the merchant to verify its notifications: written, never read back.
Secret = Annotated[str, StringConstraints(min_length=MIN_SECRET_LENGTH, max_length=500, pattern=r"^[\x21-\x7e]+$"),
                   Field(json_schema_extra={"writeOnly": True})]


class GatewayCreate(RequestModel):
    name: Name
    provider: Provider
    payment_method_id: EntityId = Field(description="the active payment method gateway payments are registered with")
    secret: Secret
    is_active: bool = True


class GatewayUpdate(RequestModel):
    """Sparse; `secret` rotates the secret. The provider is fixed: its links and their
    notifications depend on it."""
    name: Name = None  # type: ignore[assignment]
    payment_method_id: EntityId = None  # type: ignore[assignment]
    secret: Secret = None  # type: ignore[assignment]
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class Gateway(ResponseModel):
    id: int
    name: str
    provider: str
    payment_method_id: int
    is_active: bool
    has_secret: bool
    secret_fingerprint: Optional[str] = Field(None, description="a hash prefix of the secret, to tell which one is "
                                                                "set without revealing any of it")
    version: int
    created_at: str
    updated_at: str


class GatewayList(ListEnvelope):
    payment_gateways: List[Gateway]


class LinkCreate(RequestModel):
    document_id: EntityId
    gateway_id: EntityId
    amount: Optional[Money] = Field(None, description="default: the document's pending total")


class PaymentLink(ResponseModel):
    link_id: str
    url: str
    amount: Decimal
    currency: str
    expires_at: str
    document_id: int
    gateway_id: int
    status: Literal["active", "paid"]


class GatewayANotification(BaseModel):
    """gateway-a's own payload, checked with its signature against the raw body by
    domain.gateways (formats in docs/gateways.md); other fields are accepted."""
    model_config = ConfigDict(extra="allow", defer_build=True,
                              json_schema_extra=lambda schema, _: schema.update(notification_schema(GATEWAY_A)))


class GatewayBNotification(BaseModel):
    """gateway-b's own payload (as GatewayANotification)."""
    model_config = ConfigDict(extra="allow", defer_build=True,
                              json_schema_extra=lambda schema, _: schema.update(notification_schema(GATEWAY_B)))


class NotificationAnswer(ResponseModel):
    status: Literal["accepted", "refused", "ignored"]
    link_id: str
    transaction_id: str
    payment_id: Optional[int] = None
    code: Optional[str] = Field(None, description="why a payment was refused")
    reason: Optional[str] = None


class GatewayDecision(NotificationAnswer):
    amount: Decimal
    currency: str
    document_id: int
    document_number: Optional[str] = Field(None, description="the document's fiscal number, beside its id")
    document_numero_control: Optional[str] = Field(
        None, description="El Salvador: the document's DTE número de control, by which a person names it; null "
                          "elsewhere")
    paid_at: str = Field(description="when the gateway says the customer paid")
    received_at: str


class GatewayDecisionList(ListEnvelope):
    notifications: List[GatewayDecision]


# issue 43: books
class PayoutCreate(RequestModel):
    bank_account_id: EntityId = Field(description="the company's bank account the payout reaches (not the clearing "
                                                  "account)")
    amount: PositiveMoney = Field(description="at most the gateway's clearing account's balance")
    payout_date: Date
    reference: Optional[ShortText] = Field(None, description="the provider's payout or settlement reference")


class Payout(ResponseModel):
    gateway_id: int
    from_account_id: int = Field(description="the gateway's clearing bank account")
    to_account_id: int
    amount: Decimal
    payout_date: str
    reference: Optional[str] = None
    journal_entry_id: int
    outgoing_transaction_id: int
    incoming_transaction_id: int
