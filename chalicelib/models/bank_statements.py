"""Bank statements, their lines and the suggestions for an unmatched line."""
from decimal import Decimal
from typing import List, Literal, Optional

from pydantic import Field

from chalicelib.models.base import ListEnvelope, ResponseModel

LineStatus = Literal["unmatched", "matched", "ignored"]
SuggestionKind = Literal["transaction", "document", "payment", "rule"]
Reason = Literal["amount", "date", "partner", "reference", "rule"]


class SuggestedDocument(ResponseModel):
    document_id: int
    amount: Decimal = Field(description="what the line would pay of it (its pending amount)")


class Suggestion(ResponseModel):
    kind: SuggestionKind
    score: int = Field(ge=0, le=100, description="higher is likelier")
    reasons: List[Reason]
    transaction_id: Optional[int] = None
    documents: Optional[List[SuggestedDocument]] = None
    rule_id: Optional[int] = None


class LineMatch(ResponseModel):
    kind: Literal["transaction", "documents", "create", "transfer"]
    transaction_ids: List[int]
    payment_ids: Optional[List[int]] = None
    documents: Optional[List[SuggestedDocument]] = None
    journal_entry_id: Optional[int] = None
    rule_id: Optional[int] = None
    transfer_to_account_id: Optional[int] = None
    matched_at: str
    # issue 42: match
    other_transaction_id: Optional[int] = Field(None, description="a transfer: its side on the other account, left "
                                                                  "for that account's line to match")
    confirmed_payment_id: Optional[int] = Field(None, description="a pending payment's transaction matched: the "
                                                                  "payment the match confirmed")
    business_partner_id: Optional[int] = Field(None, description="create: the partner the new transaction names")


class StatementLine(ResponseModel):
    id: int
    bank_account_id: int
    statement_id: int
    date: str
    amount: Decimal = Field(description="signed: positive is money in")
    description: str
    reference: Optional[str] = None
    balance: Optional[Decimal] = Field(None, description="the running balance the file states after this line")
    status: LineStatus
    match: Optional[LineMatch] = None
    suggestions: Optional[List[Suggestion]] = Field(None, description="unmatched lines only: ranked candidates, "
                                                                      "best first")
    version: int


class StatementLineList(ListEnvelope):
    statement_lines: List[StatementLine]
