from decimal import Decimal
from typing import Annotated, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic.config import JsonDict

from chalicelib.domain.gateways import MIN_SECRET_LENGTH
from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.models.base import (
    Date,
    Email,
    EntityId,
    ListEnvelope,
    Money,
    Name,
    PositiveMoney,
    RequestModel,
    ResponseModel,
    ShortText,
)

Provider = Literal["pixelpay", "wompi"]
Mode = Literal["test", "production"]
# The provider's secret (PixelPay Secret Key, Wompi API Secret): written, never read back.
Secret = Annotated[str, StringConstraints(min_length=MIN_SECRET_LENGTH, max_length=500, pattern=r"^[\x21-\x7e]+$"),
                   Field(json_schema_extra={"writeOnly": True})]
KeyId = Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=r"^[\x21-\x7e]+$")]
# a host by its name, port 443 at most (services check it is PixelPay's: domain/pixelpay.endpoint_problem)
HttpsUrl = Annotated[str, StringConstraints(max_length=300, pattern=r"^https://[A-Za-z0-9.-]+(:443)?/?$")]
Percent = Annotated[Decimal, Field(ge=0, le=100, decimal_places=4, allow_inf_nan=False)]
Rate = Annotated[Decimal, Field(ge=0, le=1, decimal_places=4, allow_inf_nan=False)]

_KEY_ID = "PixelPay: the Key ID (x-auth-key); Wompi: the App ID (client_id)"
_SECRET = "PixelPay: the Secret Key; Wompi: the API Secret (client_secret, also the webhooks' key). Never answered"
_METHOD = ("an active payment method with a bank account: that bank account is the gateway's clearing account, in a "
           "currency the provider takes (PixelPay HNL or USD, Wompi USD)")


class GatewayCreate(RequestModel):
    name: Name
    provider: Provider
    mode: Mode = "test"
    key_id: KeyId = Field(description=_KEY_ID)
    secret: Secret = Field(description=_SECRET)
    user_email: Optional[Email] = Field(None, description="PixelPay: the merchant user's e-mail, which signs voids")
    endpoint: Optional[HttpsUrl] = Field(None, description="PixelPay only (refused for Wompi): the merchant's own https host (production): "
                                                         "pixelpay.app or a subdomain of it, by name; changing it "
                                                         "needs `secret` again")
    payment_method_id: EntityId = Field(description=_METHOD)
    fee_percent: Percent = Field(Decimal(0), description="the provider's rate on each payment, 3.5 = 3.5 %")
    fee_fixed: Money = Field(Decimal(0), description="the provider's fixed part of each payment's fee")
    fee_tax_rate: Rate = Field(Decimal(0), description="the sales tax the provider invoices on its fee: a rate of the "
                                                       "company's country (0.15)")
    fee_account_id: Optional[EntityId] = Field(None, description="an active expense account, not a control account; "
                                                                 "required when a fee is charged")
    is_active: bool = True


class GatewayUpdate(RequestModel):
    """Sparse; `secret` rotates the secret, and must come again when `endpoint`, `mode` or `keyId`
    changes (the secret goes where they point). The provider is fixed: its links and their
    notifications depend on it."""
    name: Name = None  # type: ignore[assignment]
    mode: Mode = None  # type: ignore[assignment]
    key_id: KeyId = None  # type: ignore[assignment]
    secret: Secret = None  # type: ignore[assignment]
    user_email: Optional[Email] = None
    endpoint: Optional[HttpsUrl] = None
    payment_method_id: EntityId = None  # type: ignore[assignment]
    fee_percent: Percent = None  # type: ignore[assignment]
    fee_fixed: Money = None  # type: ignore[assignment]
    fee_tax_rate: Rate = None  # type: ignore[assignment]
    fee_account_id: Optional[EntityId] = None
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class Gateway(ResponseModel):
    id: int
    name: str
    provider: str = Field(description="pixelpay or wompi (a gateway stored before issue 43 keeps its old value and is "
                                      "inactive: see legacyProvider)")
    mode: str = "test"
    key_id: Optional[str] = None
    user_email: Optional[str] = None
    endpoint: Optional[str] = None
    payment_method_id: int
    fee_percent: Decimal = Decimal(0)
    fee_fixed: Decimal = Decimal(0)
    fee_tax_rate: Decimal = Decimal(0)
    fee_account_id: Optional[int] = None
    is_active: bool
    has_secret: bool
    secret_fingerprint: Optional[str] = Field(None, description="a hash prefix of the secret, to tell which one is "
                                                                "set without revealing any of it")
    clearing_bank_account_id: Optional[int] = Field(None, description="the payment method's bank account, where the "
                                                                      "gateway's payments wait for its payout")
    clearing_balance: Optional[Decimal] = Field(None, description="what the provider holds for the company: the "
                                                                  "clearing bank account's balance")
    legacy_provider: Optional[str] = Field(None, description="a gateway of an invented format (before issue 43): "
                                                             "deactivated")
    version: int
    created_at: str
    updated_at: str


class GatewayList(ListEnvelope):
    payment_gateways: List[Gateway]


class LinkCreate(RequestModel):
    document_id: EntityId
    gateway_id: EntityId
    amount: Optional[PositiveMoney] = Field(None, description="default: the document's pending total")


class PaymentLink(ResponseModel):
    link_id: str
    url: str = Field(description="the provider's page where the customer pays")
    amount: Decimal
    currency: str
    expires_at: str
    document_id: int
    gateway_id: int
    status: Literal["active", "paid"]
    provider: Optional[str] = None
    provider_link_id: Optional[str] = Field(None, description="the provider's own id of the link (Wompi idEnlace)")
    qr_code: Optional[str] = Field(None, description="a QR code of `url`: data:image/svg+xml;base64,...")
    created_at: Optional[str] = None


class PaymentLinkList(ListEnvelope):
    payment_links: List[PaymentLink]


# what the providers' parsers (domain/pixelpay.py, domain/wompi.py) take, stated for the document
_VISIBLE_TEXT: JsonDict = {"type": "string", "pattern": "^[\\x21-\\x7e]{1,200}$"}
# PixelPay sends numbers; a decimal text is taken too. Integers and texts are exact in any client.
_PIXELPAY_AMOUNT: JsonDict = {"anyOf": [{"type": "integer", "minimum": 0, "maximum": int(MAX_AMOUNT)},
                              {"type": "string", "pattern": "^\\d{1,12}(\\.\\d{1,2})?$"}]}


class PixelPayCallback(BaseModel):
    """PixelPay's payment callback (the hosted page's `_callback`, the card API's `order_callback`),
    verified by its `payment_hash` and confirmed with PixelPay's status call (docs/gateways.md
    "## PixelPay"); other fields are accepted."""
    model_config = ConfigDict(extra="allow", defer_build=True, json_schema_extra={
        "description": "PixelPay's callback: order_id (our link id), payment_uuid, payment_hash = "
                       "MD5(order_id|key_id|secret), the transaction's result fields (also transaction_date "
                       "YYYY-MM-DD and transaction_time HH:MM[:SS], and amounts as numbers with 2 decimals)",
        "required": ["order_id", "payment_uuid", "payment_hash", "response_approved"],
        "properties": {"order_id": _VISIBLE_TEXT, "payment_uuid": _VISIBLE_TEXT,
                       "payment_hash": {"type": "string", "pattern": "^[0-9a-fA-F]{32}$",
                                        "description": "MD5(order_id|key_id|secret), hex"},
                       "response_approved": {"type": "boolean"}, "transaction_amount": _PIXELPAY_AMOUNT,
                       "transaction_approved_amount": _PIXELPAY_AMOUNT,
                       "order_currency": {"type": "string", "pattern": "^[A-Za-z]{3}$"}}})


class WompiWebhook(BaseModel):
    """Wompi's webhook, signed in the `wompi_hash` header (HMAC-SHA256 of the raw body with the API
    Secret) and confirmed with GET /TransaccionCompra/{IdTransaccion} (docs/gateways.md "## Wompi")."""
    model_config = ConfigDict(extra="allow", defer_build=True, json_schema_extra={
        "description": "Wompi's webhook: IdTransaccion, ResultadoTransaccion, Monto, EsProductiva, "
                       "EnlacePago {Id, IdentificadorEnlaceComercio (our link id)}",
        "required": ["IdTransaccion", "ResultadoTransaccion", "Monto", "FechaTransaccion", "EnlacePago"],
        "properties": {"IdTransaccion": _VISIBLE_TEXT,
                       "ResultadoTransaccion": {"type": "string", "minLength": 1, "maxLength": 200},
                       "Monto": {"type": "number", "exclusiveMinimum": 0, "maximum": float(MAX_AMOUNT)},
                       "FechaTransaccion": {"type": "string", "format": "date-time"},
                       "EsProductiva": {"type": "boolean"},
                       "EnlacePago": {"type": "object", "required": ["IdentificadorEnlaceComercio"], "properties": {
                           "Id": {"type": "integer"},
                           "IdentificadorEnlaceComercio": {"type": "string", "minLength": 1, "maxLength": 200}}}}})


class NotificationAnswer(ResponseModel):
    status: Literal["accepted", "refused", "ignored", "pending"]
    link_id: str
    transaction_id: str
    payment_id: Optional[int] = None
    code: Optional[str] = Field(None, description="why a payment was refused")
    reason: Optional[str] = None


class GatewayDecision(NotificationAnswer):
    amount: Optional[Decimal] = None
    currency: Optional[str] = None
    document_id: int
    document_number: Optional[str] = Field(None, description="the document's fiscal number, beside its id")
    document_numero_control: Optional[str] = Field(
        None, description="El Salvador: the document's DTE número de control, by which a person names it; null "
                          "elsewhere")
    paid_at: Optional[str] = Field(None, description="when the provider says the customer paid")
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
