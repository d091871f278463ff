from decimal import Decimal
from typing import List, Literal, Optional

from pydantic import Field

from chalicelib.models.base import Date, EntityId, ListEnvelope, Money, Name, RequestModel, ResponseModel, ShortText

Currency = Literal["HNL", "USD"]


class BankAccountCreate(RequestModel):
    name: Name
    bank_name: Optional[ShortText] = None
    account_number: Optional[ShortText] = None
    currency: Currency = "HNL"
    opening_balance: Money = Decimal("0.00")
    opening_balance_date: Date
    chart_of_account_id: EntityId = Field(description="the asset account of the chart this bank account posts to")
    is_active: bool = True


class BankAccountUpdate(RequestModel):
    """Ledger account, currency and opening balance are fixed once the account has transactions."""
    name: Name = None  # type: ignore[assignment]
    bank_name: Optional[ShortText] = None
    account_number: Optional[ShortText] = None
    currency: Currency = None  # type: ignore[assignment]
    opening_balance: Money = None  # type: ignore[assignment]
    opening_balance_date: Date = None  # type: ignore[assignment]
    chart_of_account_id: EntityId = None  # type: ignore[assignment]
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class BankAccount(ResponseModel):
    id: int
    name: str
    bank_name: Optional[str] = None
    account_number: Optional[str] = None
    currency: str
    opening_balance: Decimal
    opening_balance_date: str
    chart_of_account_id: int
    is_active: bool
    balance: Decimal
    transaction_count: int
    version: int
    created_at: str
    updated_at: str


class BankAccountList(ListEnvelope):
    bank_accounts: List[BankAccount]


class ManualTransaction(RequestModel):
    type: Literal["deposit", "withdrawal"]
    amount: Money
    transaction_date: Date
    reference: Optional[ShortText] = None
    chart_of_account_id: EntityId = Field(description="the other side of the entry (income, capital, expense...)")


class BankTransaction(ResponseModel):
    id: int
    bank_account_id: int
    type: str
    direction: Literal["credit", "debit"]
    amount: Decimal
    transaction_date: str
    reference: Optional[str] = None
    document_id: Optional[int] = None
    payment_id: Optional[int] = None
    journal_entry_id: Optional[int] = None
    reconciled: bool
    created_at: str


class BankTransactionList(ListEnvelope):
    transactions: List[BankTransaction]


class TransferCreate(RequestModel):
    from_account_id: EntityId
    to_account_id: EntityId
    amount: Money
    transaction_date: Date
    reference: Optional[ShortText] = None


class Transfer(ResponseModel):
    journal_entry_id: int
    outgoing: BankTransaction
    incoming: BankTransaction
