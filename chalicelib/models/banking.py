from decimal import Decimal
from typing import Annotated, List, Literal, Optional

from pydantic import AfterValidator, ConfigDict, Field

from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.models.base import (
    CENT,
    Currency,
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
from chalicelib.models.exchange_rates import ExchangeRateValue


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
    reconciled_balance: Optional[Decimal] = Field(None, description="the opening balance plus every transaction "
                                                        "reconciled by a completed reconciliation")
    last_reconciliation_date: Optional[str] = Field(None, description="statement date of the last completed "
                                                              "reconciliation")
    opening_journal_entry_id: Optional[int] = Field(None, description="the automatic entry that brought the "
                                                                      "opening balance into the ledger account")
    version: int
    created_at: str
    updated_at: str


class BankAccountList(ListEnvelope):
    bank_accounts: List[BankAccount]


class ManualTransaction(RequestModel):
    type: Literal["deposit", "withdrawal"]
    amount: PositiveMoney
    transaction_date: Date
    reference: Optional[ShortText] = None
    chart_of_account_id: EntityId = Field(description="the other side of the entry (income, capital, expense...)")
    exchange_rate: Optional[ExchangeRateValue] = Field(
        None, description="a bank account in a foreign currency: the company's currency per unit that day; default "
                          "the company's rate for the date")


class BankTransaction(ResponseModel):
    id: int
    bank_account_id: int
    type: str
    direction: Literal["credit", "debit"]
    amount: Decimal
    transaction_date: str
    reference: Optional[str] = None
    document_id: Optional[int] = None
    document_number: Optional[str] = Field(None, description="the document's fiscal number, beside its id")
    document_numero_control: Optional[str] = Field(
        None, description="El Salvador: the document's DTE número de control, by which a person names it; null "
                          "elsewhere")
    payment_id: Optional[int] = None
    journal_entry_id: Optional[int] = None
    reconciled: bool
    reconciliation_id: Optional[int] = None
    statement_line_id: Optional[int] = Field(None, description="the statement line matched to it (none: not matched)")
    reversed_by: Optional[int] = Field(None, description="the transaction that reversed it (an unmatched statement "
                                                         "line's, a cancelled payment's): no line matches it again")
    reverses: Optional[int] = Field(None, description="a reversal: the transaction it reverses")
    created_at: str


class BankTransactionList(ListEnvelope):
    transactions: List[BankTransaction]


class TransferCreate(RequestModel):
    from_account_id: EntityId
    to_account_id: EntityId
    amount: PositiveMoney
    transaction_date: Date
    reference: Optional[ShortText] = None
    exchange_rate: Optional[ExchangeRateValue] = Field(
        None, description="accounts in a foreign currency: the company's currency per unit that day; default the "
                          "company's rate for the date")


class Transfer(ResponseModel):
    journal_entry_id: int
    outgoing: BankTransaction
    incoming: BankTransaction


# --- reconciliations ---------------------------------------------------------------------------------

def _signed_cents(amount: Decimal) -> Decimal:
    cents = amount.quantize(CENT)
    return cents if cents else Decimal("0.00")  # never -0.00


# A statement balance may be negative (an overdrawn account).
SignedMoney = Annotated[Decimal, Field(ge=-MAX_AMOUNT, le=MAX_AMOUNT, decimal_places=2, allow_inf_nan=False),
                        AfterValidator(_signed_cents)]
# services/banking/cleared_transactions.py:MAX_CLEARED: completing writes one item per cleared transaction
MAX_CLEARED_TRANSACTIONS = 95
ClearedIds = Annotated[List[EntityId], Field(max_length=MAX_CLEARED_TRANSACTIONS)]


class ReconciliationCreate(RequestModel):
    """Either statementDate and statementBalance, or statementId (an imported statement of this
    account) from which what is not sent comes."""
    model_config = ConfigDict(json_schema_extra={"anyOf": [{"required": ["statementDate", "statementBalance"]},
                                                           {"required": ["statementId"]}]})

    statement_id: EntityId = Field(  # type: ignore[assignment]
        None, description="an imported bank statement of this account: its periodEnd is the statementDate, its "
                          "closingBalance the statementBalance and the bank transactions of its matched lines not yet "
                          "reconciled the clearedTransactionIds, each unless sent")
    # not sent: from the statement (null is refused, as elsewhere)
    statement_date: Date = Field(None, description="closing date of the bank statement")  # type: ignore[assignment]
    statement_balance: SignedMoney = Field(None, description="closing balance of the bank statement")  # type: ignore[assignment]
    cleared_transaction_ids: ClearedIds = Field(
        None,  # type: ignore[arg-type]
        description="transactions of this account the statement shows (at most "
                    f"{MAX_CLEARED_TRANSACTIONS} sent; a statement's may be more), none dated after "
                    "statementDate")


class ReconciliationUpdate(RequestModel):
    """Sparse; `clearedTransactionIds` replaces the list."""
    statement_date: Date = None  # type: ignore[assignment]
    statement_balance: SignedMoney = None  # type: ignore[assignment]
    cleared_transaction_ids: ClearedIds = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class Reconciliation(ResponseModel):
    id: int
    bank_account_id: int
    statement_id: Optional[int] = Field(None, description="the imported bank statement it started from")
    statement_date: str
    statement_balance: Decimal
    cleared_transaction_ids: List[int]
    status: Literal["draft", "completed"]
    opening_balance: Decimal = Field(description="the account's reconciled balance (frozen at completion)")
    cleared_balance: Decimal = Field(description="openingBalance plus the cleared transactions (money in +, out -)")
    difference: Decimal = Field(description="statementBalance - clearedBalance; 0 to complete")
    completed_at: Optional[str] = None
    version: int
    created_at: str
    updated_at: str


class ReconciliationList(ListEnvelope):
    reconciliations: List[Reconciliation]
