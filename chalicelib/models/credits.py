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
    total: Decimal
    pending: Decimal
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
