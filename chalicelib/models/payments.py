from decimal import Decimal
from typing import List, Literal, Optional

from pydantic import ConfigDict, Field

from chalicelib.models.base import (
    Date,
    EntityId,
    ListEnvelope,
    LongText,
    Name,
    PositiveMoney,
    RequestModel,
    ResponseModel,
    ShortText,
)
from chalicelib.models.exchange_rates import ExchangeRateValue


class PaymentCreate(RequestModel):
    """One of paymentMethodId, creditNoteId or withholdingDocumentId."""
    model_config = ConfigDict(json_schema_extra={"oneOf": [
        {"required": [form], "properties": {form: {"type": "integer"}}}
        for form in ("paymentMethodId", "creditNoteId", "withholdingDocumentId")]})

    payment_method_id: Optional[EntityId] = None
    credit_note_id: Optional[EntityId] = None
    withholding_document_id: Optional[EntityId] = None
    amount: PositiveMoney = Field(description="in the document's currency")
    exchange_rate: Optional[ExchangeRateValue] = Field(
        None, description="a document in a foreign currency: the company's currency per unit on the payment date; "
                          "default the company's rate for that date (POST /exchange-rates)")
    reference: Optional[ShortText] = None
    payment_date: Optional[Date] = None
    notes: Optional[LongText] = None


class AdvanceApply(RequestModel):
    """Defaults: the document's own source document; all that is available, up to the pending total."""
    source_document_id: Optional[EntityId] = None
    amount: Optional[PositiveMoney] = None
    payment_date: Optional[Date] = None
    reference: Optional[ShortText] = None
    notes: Optional[LongText] = None


class AdvanceAvailability(ResponseModel):
    source_document_id: int
    advances_total: Decimal
    applied: Decimal
    available: Decimal


class PaymentCancel(RequestModel):
    reason: Name
    date: Optional[Date] = None


class Payment(ResponseModel):
    id: int
    document_id: int
    kind: Literal["method", "credit_note", "withholding", "advance", "refund"]
    amount: Decimal = Field(description="in the document's currency")
    exchange_rate: Optional[Decimal] = Field(None, description="money by a payment method: the rate it moved at")
    base_amount: Optional[Decimal] = Field(None, description="money by a payment method: the amount in the "
                                                               "company's currency at `exchangeRate`")
    settled_base: Optional[Decimal] = Field(None, description="what it took off the receivable or payable, in the "
                                                                "company's currency at the document's rate; the "
                                                                "difference to baseAmount is an exchange gain or loss")
    status: Literal["pending", "confirmed", "cancelled"]
    payment_date: str
    reference: Optional[str] = None
    notes: Optional[str] = None
    payment_method_id: Optional[int] = None
    credit_note_id: Optional[int] = None
    withholding_document_id: Optional[int] = None
    source_document_id: Optional[int] = Field(default=None, description="the quote or order whose advance this applies")
    journal_entry_id: Optional[int] = None
    bank_account_id: Optional[int] = None
    bank_transaction_id: Optional[int] = None
    reversal_entry_id: Optional[int] = None
    reversal_bank_transaction_id: Optional[int] = None
    cancel_reason: Optional[str] = None
    confirmed_at: Optional[str] = None
    cancelled_at: Optional[str] = None
    # issue 43: core
    gateway_id: Optional[int] = Field(None, description="a card gateway's payment: the gateway it came through")
    gateway_transaction_id: Optional[str] = Field(None, description="the provider's transaction id (PixelPay "
                                                                    "payment_uuid, Wompi IdTransaccion)")
    version: int
    created_at: str
    # issue 43: books
    gateway_fee: Optional[Decimal] = Field(None, description="what the provider kept of it (rate and fixed part), "
                                                            "withdrawn from the clearing account with the payment")
    gateway_fee_tax: Optional[Decimal] = Field(None, description="the sales tax the provider invoices on its fee")
    fee_transaction_id: Optional[int] = Field(None, description="the fee's withdrawal from the clearing account")
    fee_journal_entry_id: Optional[int] = None
    fee_reversal_transaction_id: Optional[int] = Field(None, description="cancelled: the fee's withdrawal undone")
    refunded_through: Optional[Literal["api", "panel"]] = Field(
        None, description="a cancelled gateway payment: refunded through the provider's API (a PixelPay void) or "
                          "recorded as refunded in its panel (Wompi has no refund API)")
    refund_reference: Optional[str] = None
    # issue 43: fixbooks
    refunded_at: Optional[str] = Field(
        None, description="when the provider refunded it; on a payment still `confirmed`: voided at the provider, "
                          "the books' cancellation pending (send the cancel again: no second void)")


class PaymentList(ListEnvelope):
    payments: List[Payment]
