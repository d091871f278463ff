from decimal import Decimal
from typing import List, Optional

from pydantic import Field

from chalicelib.models.base import ResponseModel


class PendingDocument(ResponseModel):
    id: int
    type: str
    number: Optional[str] = None
    date: str
    due_date: str
    total: Decimal = Field(description="in the document's currency")
    pending: Decimal = Field(description="in the document's currency")
    currency: Optional[str] = None
    exchange_rate: Decimal = Field(default=Decimal(1), description="company currency per unit of `currency`")
    base_pending: Optional[Decimal] = Field(None, description="`pending` in the company's currency at the "
                                                                "document's rate (what `pendingBalance` adds)")
    overdue_days: int


class CreditSummary(ResponseModel):
    business_partner_id: int
    name: str
    pending_balance: Decimal
    credit_limit: Optional[Decimal] = Field(None, alias="credit_limit")
    available: Optional[Decimal] = None
    credit_block_days: Optional[int] = Field(None, alias="credit_block_days")
    overdue_days: int
    oldest_due_date: Optional[str] = None
    pending_document_count: int
    pending_documents: List[PendingDocument] = Field(description="the oldest open documents first (up to 100)")


class CreditMovement(ResponseModel):
    date: str
    description: Optional[str] = None
    document_id: Optional[int] = None
    document_type: Optional[str] = None
    number: Optional[str] = None
    payment_id: Optional[int] = None
    payment_kind: Optional[str] = None
    charge: Decimal = Field(description="raises what is owed: a document confirmed, a payment cancelled")
    credit: Decimal = Field(description="lowers it: payments, credit notes, applied advances, reversals")
    balance: Decimal = Field(description="what is owed after this movement")
    currency: Optional[str] = Field(None, description="a foreign-currency document's: its currency (charge and "
                                                      "credit are in the company's)")
    exchange_rate: Optional[Decimal] = None
    amount_in_currency: Optional[Decimal] = Field(None, description="the movement in `currency`, signed as "
                                                                    "charge minus credit")


class CreditMovements(ResponseModel):
    business_partner_id: int
    start_date: str
    end_date: str
    movements: List[CreditMovement]
    limit: int
    next_cursor: Optional[str] = None


class CreditStatement(CreditMovements):
    name: str
    opening_balance: Decimal
    total_charges: Decimal
    total_credits: Decimal
    closing_balance: Decimal
