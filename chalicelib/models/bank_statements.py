"""Bank statements, their lines and the suggestions for an unmatched line."""
from decimal import Decimal
from typing import Annotated, List, Literal, Optional

from pydantic import Field, StringConstraints

from chalicelib.domain.bank_statements import DATE_FORMATS, Format
from chalicelib.models.base import (
    NOT_BLANK_PATTERN,
    ListEnvelope,
    ListQuery,
    Name,
    OneOf,
    QueryId,
    RequestModel,
    ResponseModel,
)
from chalicelib.models.imports import BASE64_PATTERN
from chalicelib.services.imports.jobs import MAX_REQUEST_BYTES
from chalicelib.services.statements.mapping import ENCODINGS

LineStatus = Literal["unmatched", "matched", "ignored"]
SuggestionKind = Literal["transaction", "document", "payment", "rule", "payout"]
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
    # issue 43: books
    transfer_to_account_id: Optional[int] = Field(None, description="a payout: the card gateway's clearing account "
                                                                    "the deposit came from; accepted by matching the "
                                                                    "line with {transferToAccountId}")
    gateway_id: Optional[int] = Field(None, description="a payout: the card gateway whose clearing account it is")


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
    # issue 42: fixmatch
    existing_transfer: Optional[bool] = Field(None, description="a transfer: true when the other account's line had "
                                                                "booked it already (this side, waiting, was matched); "
                                                                "unmatching frees this side only")


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


# issue 42: imports ------------------------------------------------------------------------------

StatementFormat = Format
# strings, not enums: a client generator names enum members by their letters, and "DD/MM/YYYY" and
# "DD-MM-YYYY" would be one name (the service checks them against DATE_FORMATS)
DateFormat = Annotated[str, StringConstraints(min_length=6, max_length=10), Field(
    description="one of " + ", ".join(DATE_FORMATS), json_schema_extra={"pattern": r"^[DMY/.\-]+$"})]
OneCharacter = Annotated[str, StringConstraints(min_length=1, max_length=1)]
Column = Annotated[str, StringConstraints(min_length=1, max_length=200),
                   Field(json_schema_extra={"pattern": NOT_BLANK_PATTERN})]


class StatementFile(RequestModel):
    file_name: Name = Field(description="the file's name (its extension helps detect the format)")
    # the document states plain base64 (what a client sends); the service also takes line breaks and a
    # browser's `data:...;base64,` prefix
    content: str = Field(max_length=MAX_REQUEST_BYTES,
                         description="the file, base64-encoded; at most 4 MB decoded (413 PAYLOAD_TOO_LARGE above)",
                         json_schema_extra={"minLength": 4, "pattern": BASE64_PATTERN, "contentEncoding": "base64"})
    format: Optional[StatementFormat] = Field(None, description="detected from the content (else the name) when "
                                                                "absent; csv and xlsx read with the account's mapping")


class StatementImport(StatementFile):
    pass


class StatementMapping(RequestModel):
    """How the bank's CSV/XLSX download reads; columns named by their heading text (case-, accent-
    and space-blind). Either `amountColumn` (signed: positive is money in) or both `debitColumn`
    and `creditColumn`."""
    encoding: Optional[Annotated[str, OneOf(ENCODINGS)]] = Field(
        None, description="detected when absent (byte order marks, UTF-8, else cp1252)")
    delimiter: Optional[OneCharacter] = Field(None, description="detected when absent; one of , ; | or a tab")
    skip_rows: int = Field(0, ge=0, le=100, description="rows before the table's heading row")
    date_column: Column
    date_format: DateFormat = "DD/MM/YYYY"
    description_column: Column
    reference_column: Optional[Column] = None
    amount_column: Optional[Column] = None
    debit_column: Optional[Column] = Field(None, description="money out, positive in the file")
    credit_column: Optional[Column] = Field(None, description="money in")
    balance_column: Optional[Column] = None
    decimal_separator: OneCharacter = Field(".", description=". or ,")
    thousands_separator: OneCharacter = Field(",", description=", . ' or a space")


class SavedStatementMapping(ResponseModel):
    bank_account_id: int
    encoding: Optional[str] = None
    delimiter: Optional[str] = None
    skip_rows: int
    date_column: str
    date_format: str
    description_column: str
    reference_column: Optional[str] = None
    amount_column: Optional[str] = None
    debit_column: Optional[str] = None
    credit_column: Optional[str] = None
    balance_column: Optional[str] = None
    decimal_separator: str
    thousands_separator: str
    version: int
    updated_at: str


class StatementPreviewRequest(StatementFile):
    mapping: Optional[StatementMapping] = Field(None, description="to try before saving it; absent: the saved one")


class PreviewLine(ResponseModel):
    line: int = Field(description="where the line sits in the file (a CSV/XLSX row, headings counted; else the "
                                  "entry's ordinal)")
    date: str
    amount: Decimal = Field(description="signed: positive is money in")
    description: str
    reference: Optional[str] = None
    balance: Optional[Decimal] = None


class StatementPreview(ResponseModel):
    format: StatementFormat
    currency: Optional[str] = None
    opening_balance: Optional[Decimal] = None
    closing_balance: Optional[Decimal] = None
    period_start: Optional[str] = None
    period_end: Optional[str] = None
    line_count: int
    lines: List[PreviewLine] = Field(description="the first 20")


class BankStatement(ResponseModel):
    id: int
    bank_account_id: int
    file_name: str
    format: StatementFormat
    status: Literal["importing", "imported"] = Field(
        description="`importing`: stopped half-way (its lines landed are kept; importing the file again lands the "
                    "rest)")
    lines_imported: int
    lines_skipped: int = Field(description="lines the account had already (from an earlier or overlapping file)")
    lines_auto_matched: int = Field(description="new lines a bank rule with autoCreate matched")
    period_start: str
    period_end: str
    opening_balance: Optional[Decimal] = None
    closing_balance: Optional[Decimal] = None
    currency: str
    created_at: str


class BankStatementList(ListEnvelope):
    statements: List[BankStatement]


class StatementLineQuery(ListQuery):
    status: Optional[LineStatus] = None
    statement_id: Optional[QueryId] = None
