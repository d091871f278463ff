"""The records services read from the table, typed: documents and their lines, payments, journal
entries and their postings, partners. Ints are ints (the store reads every field annotated `int`
here, and every id and version, as int: store/table.py); money, quantities and rates stay Decimal.
The records are the stored items (camelCase, as the API answers them), so these are TypedDicts over
them rather than classes of their own; `total=False` since older items lack later fields.
The key attributes (PK, SK, GSI...) are on every item and left out."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, TypedDict, get_type_hints


class LineRecord(TypedDict, total=False):
    """A document's line (stored inside the document)."""
    productId: int | None
    description: str
    quantity: Decimal
    unitPrice: Decimal
    discount: Decimal
    taxRate: Decimal
    taxTreatment: str
    subtotal: Decimal
    tax: Decimal
    total: Decimal


class DocumentRecord(TypedDict, total=False):
    id: int
    type: str
    status: str
    number: str | None
    businessPartnerId: int
    date: str
    dueDate: str
    paymentConditionId: int | None
    sourceDocumentId: int | None
    branchId: int | None
    warehouseId: int | None
    journalEntryId: int | None
    currency: str
    exchangeRate: Decimal | None
    lines: list[LineRecord]
    subtotal: Decimal
    taxTotal: Decimal
    total: Decimal
    baseTotal: Decimal
    paidTotal: Decimal
    pending: Decimal
    advancesTotal: Decimal
    withholding: dict[str, Any] | None
    dte: dict[str, Any] | None
    version: int
    createdAt: str
    updatedAt: str


class PaymentRecord(TypedDict, total=False):
    """A payment applied to a document (in the document's partition)."""
    id: int
    documentId: int
    businessPartnerId: int
    kind: str
    status: str
    amount: Decimal
    baseAmount: Decimal
    exchangeRate: Decimal
    paymentDate: str
    journalEntryId: int | None
    paymentMethodId: int | None
    bankAccountId: int | None
    bankTransactionId: int | None
    sourceDocumentId: int | None
    creditNoteId: int | None
    withholdingDocumentId: int | None
    reference: str | None
    notes: str | None
    paymentLinkId: str  # only a gateway's payment, through its link, has it
    version: int


class EntryLineRecord(TypedDict, total=False):
    """A journal entry's line (stored inside the entry)."""
    chartOfAccountId: int
    debit: Decimal
    credit: Decimal
    lineDescription: str | None
    dimensions: list[dict[str, int]]  # cost centres [{dimensionId, valueId}], only when any


class EntryRecord(TypedDict, total=False):
    """A journal entry; `source` names what made it ({type, id, documentType})."""
    id: int
    date: str
    description: str | None
    reference: str | None
    status: str
    entryType: str
    lines: list[EntryLineRecord]
    totalDebit: Decimal
    totalCredit: Decimal
    source: dict[str, Any] | None
    reversalOf: int | None
    reversedBy: int | None
    version: int
    createdAt: str
    updatedAt: str
    postedAt: str


class PostingRecord(TypedDict, total=False):
    """One line of an entry in its account's ledger partition."""
    accountId: int
    journalEntryId: int
    line: int
    date: str
    entryType: str
    description: str | None
    lineDescription: str | None
    reference: str | None
    debit: Decimal
    credit: Decimal
    dimensionValueIds: list[int]  # its line's cost centres' value ids, only when any


class PartnerRecord(TypedDict, total=False):
    id: int
    name: str
    type: str
    taxId: str | None
    email: str | None
    country: str | None
    paymentConditionId: int | None
    credit_limit: Decimal | None
    credit_block_days: int | None
    receivableBalance: Decimal
    payableBalance: Decimal
    isActive: bool
    version: int
    createdAt: str
    updatedAt: str


RECORDS = (DocumentRecord, LineRecord, PaymentRecord, EntryRecord, EntryLineRecord, PostingRecord, PartnerRecord)


def _annotated_int(annotation: Any) -> bool:
    return annotation is int or (int in getattr(annotation, "__args__", ()) and Decimal not in annotation.__args__)


# the fields these records declare as integers, besides every id and version
INTEGER_FIELDS = frozenset(name for record in RECORDS for name, annotation in get_type_hints(record).items()
                           if _annotated_int(annotation))


def integer_field(name: str) -> bool:
    """Whether a stored attribute holds an integer by definition: an id ("id", "...Id"), a version,
    or a field a record above declares `int`."""
    return name in INTEGER_FIELDS or name == "id" or name.endswith("Id")
