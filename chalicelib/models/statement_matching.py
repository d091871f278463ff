"""What acting on a statement line takes: a match (exactly one of four kinds), nothing else for
unmatch, ignore and unignore."""
from decimal import Decimal
from typing import Annotated, List, Optional

from pydantic import Field, model_validator

from chalicelib.models.base import EntityId, Name, PositiveMoney, RequestModel

# A line paying documents writes, per document, at most 14 items (the payment, the document, the
# entry and its up to three postings, the bank transaction and its pointer, the open-document
# index, the partner's movement, its month balance and its balance, the payment's event, the
# payment condition checked) and 16 once (the line, its event, the Idempotency-Key record, the bank
# account, the payment method, four ledger balances and up to four accounts' first postings, the
# day's counts, the period's and the books' locks): 16 + 6 x 14 = 100, DynamoDB's limit.
MAX_MATCHED_DOCUMENTS = 6

TaxRate = Annotated[Decimal, Field(gt=0, lt=1, decimal_places=4, allow_inf_nan=False,
                                   description="the tax included in the line's amount, e.g. 0.15")]


class MatchedDocument(RequestModel):
    document_id: EntityId
    amount: PositiveMoney = Field(description="what the line pays of it, at most its pending amount")


class NewTransaction(RequestModel):
    chart_of_account_id: EntityId = Field(description="the other side of the entry (an expense, an income...)")
    description: Name
    business_partner_id: Optional[EntityId] = None
    tax_rate: Optional[TaxRate] = None


class MatchRequest(RequestModel):
    """Exactly one of `transactionId`, `documents`, `create`, `transferToAccountId`."""
    transaction_id: Optional[EntityId] = Field(
        None, description="an existing bank transaction of this account, not yet matched, of the line's direction and "
                          "amount (a pending payment's is confirmed by the match)")
    documents: Optional[List[MatchedDocument]] = Field(
        None, min_length=1, max_length=MAX_MATCHED_DOCUMENTS, description=f"the documents the line pays (one payment each, in one transaction): "
                                        f"at most {MAX_MATCHED_DOCUMENTS}, adding up to the line's amount, all sales "
                                        f"(money in) or all purchases (money out), in the account's currency")
    payment_method_id: Optional[EntityId] = Field(
        None, description="with `documents`: a payment method of this bank account; default the company's active one")
    create: Optional[NewTransaction] = Field(
        None, description="a new deposit (money in) or withdrawal (money out) for the line's amount, with its entry")
    transfer_to_account_id: Optional[EntityId] = Field(
        None, description="the company's other bank account: the line is this account's side of a transfer")
    rule_id: Optional[EntityId] = Field(None, description="the bank rule that proposed the match")

    @model_validator(mode="after")
    def _one_kind(self) -> "MatchRequest":
        kinds = [name for name, value in (("transactionId", self.transaction_id), ("documents", self.documents),
                                           ("create", self.create), ("transferToAccountId", self.transfer_to_account_id))
                 if value is not None]
        if len(kinds) != 1:
            raise ValueError("send exactly one of `transactionId`, `documents`, `create`, `transferToAccountId`")
        if self.payment_method_id is not None and self.documents is None:
            raise ValueError("`paymentMethodId` goes with `documents`")
        return self
