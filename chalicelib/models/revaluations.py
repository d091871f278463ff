"""Month-end revaluation of foreign-currency items (issue 44): the request and the answer."""
from decimal import Decimal
from typing import List, Literal, Optional

from pydantic import Field, StrictBool

from chalicelib.models.base import Currency, Date, RequestModel, ResponseModel


class RevaluationCreate(RequestModel):
    date: Date = Field(description="the reporting date (a month's last day): the items open at its end are "
                                   "revalued, the entry dated it, its reversal the next day")
    currencies: Optional[List[Currency]] = Field(None, min_length=1, max_length=10,
                                                 description="only these foreign currencies (default: every one "
                                                             "an open item or bank account is in)")
    dry_run: StrictBool = Field(False, description="answer what would be posted (200) and write nothing (true or false only: \"no\" is refused, not taken for a real revaluation)")


class RevaluationRate(ResponseModel):
    currency: str
    rate: Decimal = Field(description="the company's rate on or before the date (POST /exchange-rates)")


class RevaluationLine(ResponseModel):
    kind: Literal["receivable", "payable", "customerAdvance", "supplierAdvance", "bank"]
    partner_id: Optional[int] = None
    partner_name: Optional[str] = None
    bank_account_id: Optional[int] = None
    bank_account_name: Optional[str] = None
    document_id: Optional[int] = None
    document_number: Optional[str] = None
    currency: str
    foreign_amount: Decimal = Field(description="open (or held) at the date in `currency`")
    booked_amount: Decimal = Field(description="what the books carry for it at the date, in the company's currency")
    rate: Decimal
    revalued_amount: Decimal = Field(description="`foreignAmount` x `rate`, to the cent")
    difference: Decimal = Field(description="the unrealised gain (positive) or loss (negative)")


class Revaluation(ResponseModel):
    id: Optional[int] = Field(None, description="null on a dry run")
    date: str
    reversal_date: str = Field(description="the day after `date`: the reversal's date")
    currencies: List[str]
    rates: List[RevaluationRate] = []
    status: Optional[Literal["posting", "posted", "voiding", "voided"]] = Field(
        None, description="`posting` while its chunks are written (a request that stopped half-way: the same POST "
                          "again finishes it), then `posted`; `voiding` while POST /revaluations/{id}/void undoes "
                          "it (stopped half-way: the same void again finishes it), then `voided` (its date free "
                          "for a new one); null on a dry run")
    journal_entry_id: Optional[int] = Field(None, description="the first of `journalEntryIds`: null on a dry run or "
                                                              "when nothing differs")
    reversal_journal_entry_id: Optional[int] = Field(None, description="the first of `reversalJournalEntryIds`")
    journal_entry_ids: List[int] = Field([], description="the entries dated `date`, one per chunk (a transaction "
                                                         "holds at most 100 records: a large company's revaluation "
                                                         "posts in several balanced parts)")
    reversal_journal_entry_ids: List[int] = Field([], description="their reversals dated `reversalDate`, in the "
                                                                  "same order")
    total_gain: Decimal
    total_loss: Decimal
    net_difference: Decimal = Field(description="totalGain - totalLoss")
    lines: List[RevaluationLine]
    created_at: Optional[str] = None
    voided_at: Optional[str] = None
    void_journal_entry_ids: List[int] = Field([], description="the entries that reversed it when voided: per part, "
                                                              "the entry's on `date` and its reversal's on "
                                                              "`reversalDate`")
    stale: Optional[bool] = Field(None, description="GET /revaluations/{id} of a posted one only: true when something "
                                                    "dated on or before its date was posted after it (a payment, an "
                                                    "invoice, a bank line): void it and revalue the date again")


class RevaluationList(ResponseModel):
    data: List[Revaluation]
    total: int
