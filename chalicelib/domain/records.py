"""The records services read from the table, typed: documents and their lines, payments, journal
entries and their postings, partners. Ints are ints (the store reads every field annotated `int`
here, and every id and version, as int: store/table.py); money, quantities and rates stay Decimal,
an amount (`Amount`) read at its cents: DynamoDB trims numbers (115.00 comes back 115), so the store
gives each field annotated with its `Places` at least those places again (115.00), and a record's
answer is the same when it is written and when it is read.
The records are the stored items (camelCase, as the API answers them), so these are TypedDicts over
them rather than classes of their own; `total=False` since older items lack later fields.
A record built to be written carries its key (`StoredItem`: PK, SK, itemType); the index
attributes (GSI...) the store adds are left out."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, NotRequired, TypedDict, get_args, get_type_hints


@dataclass(frozen=True)
class Places:
    """The decimal places a number field is written with (quantized to them before it is stored)."""
    places: int


# money the books carry: rounded to cents when written (domain/accounting.py round_money, the
# request models' Money)
Amount = Annotated[Decimal, Places(2)]


class StoredItem(TypedDict, total=False):
    """The key an item is written under (store/keys) and what kind of item it is."""
    PK: str
    SK: str
    itemType: str


class LineRecord(TypedDict):
    """A document's line (stored inside the document): priced, with its description, on every line since
    the first (document_content.priced_lines); its tax treatment since the exemptions, its cost centres
    only when any."""
    productId: NotRequired[int | None]
    description: str
    quantity: Decimal
    unitPrice: Decimal
    discount: Amount
    taxRate: Decimal
    taxTreatment: NotRequired[str]
    subtotal: Amount
    tax: Amount
    total: Amount
    dimensions: NotRequired[list[dict[str, int]]]  # cost centres [{dimensionId, valueId}], only when any


class DocumentChanges(StoredItem, total=False):
    """The fields a command sets on a sales or purchase document (a change names only what it
    sets), and with DocumentIdentity's a whole document: total=False, since older items lack later
    fields. None is not stored (services/sales_purchases/documents._stored)."""
    status: str
    capture: str | None  # "automatic": a POS sale captured as a draft
    number: str | None
    cai: dict[str, Any] | None  # Honduras: the CAI range its number came from
    codigoGeneracion: str | None  # El Salvador: its DTE's generation code
    supplierDocumentNumber: str | None  # a purchase: the number its supplier gave it
    supplierCai: str | None
    businessPartnerId: int
    date: str
    dueDate: str
    paymentConditionId: int | None
    sourceDocumentId: int | None
    branchId: int | None
    warehouseId: int | None
    journalEntryId: int | None
    notes: str | None
    reference: str | None
    currency: str
    exchangeRate: Decimal | None
    lines: list[LineRecord]
    subtotal: Amount
    taxTotal: Amount
    total: Amount
    taxBases: dict[str, Decimal]  # the taxable base per rate
    baseTotal: Amount
    paidTotal: Amount
    pending: Amount
    basePending: Amount
    advancesTotal: Amount
    advancesApplied: Decimal  # what invoices took of the advances (read as written: not yet given its places)
    withholding: dict[str, Any] | None
    exoneration: dict[str, Any] | None  # Honduras: the registers that excuse its ISV
    export: dict[str, Any] | None  # El Salvador: a factura de exportación's terms
    dteType: str | None  # El Salvador: the DTE type chosen for a sales invoice
    stockMoves: list[dict[str, Any]]  # the goods its confirmation moved, undone exactly by a reversal
    creditedTotal: Decimal  # what credit notes took off it (read as written)
    dte: dict[str, Any] | None
    reversalDate: str  # undone: the date its reversal is booked on
    reversalEntryIds: list[int | Decimal]  # written as ints, read as numbers (not an integer field)
    version: int
    updatedAt: str
    confirmedAt: str | None
    cancelledAt: str
    cancelReason: str | None


class DocumentIdentity(TypedDict):
    """What every document has had since the first and no command changes."""
    id: int
    type: str
    createdAt: str


class DocumentRecord(DocumentIdentity, DocumentChanges):
    """A sales or purchase document as stored (a document built by a command carries its key)."""


class PaymentIdentity(TypedDict):
    """What every payment has had since the first, from when it is built (payment_records.new_payment)."""
    id: int
    documentId: int
    status: str
    amount: Amount
    paymentDate: str


class PaymentChanges(StoredItem, total=False):
    """What a command sets on a payment besides its identity (a fee booked, a cancellation, a refund
    noted); with PaymentIdentity's a whole payment: total=False, since older items lack later fields."""
    businessPartnerId: int
    kind: str
    baseAmount: Amount
    exchangeRate: Decimal
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
    gatewayId: int  # a gateway's payment: its gateway and the provider's transaction
    gatewayTransactionId: str
    bankTransactionType: str  # the type of the bank transaction it made, when it moved a bank account
    # what it took off the receivable or payable, and off the note or certificate it applies, in the
    # company's currency (kept as written: older payments lack them and settle at `amount`)
    settledBase: Decimal
    appliedBase: Decimal
    # a gateway's payment: the provider's fee (a withdrawal from the clearing account and its
    # entry), that withdrawal's reversal when cancelled, and how the provider refunded it
    gatewayFee: Decimal
    gatewayFeeTax: Decimal
    feeTransactionId: int
    feeJournalEntryId: int | None
    feeReversalTransactionId: int
    feeReversalEntryId: int | None
    refundedThrough: str
    refundReference: str
    refundedAt: str
    version: int
    createdAt: str
    confirmedAt: str
    cancelledAt: str
    cancelReason: str
    reversalEntryId: int
    reversalBankTransactionId: int


class PaymentRecord(PaymentIdentity, PaymentChanges):
    """A payment applied to a document (in the document's partition)."""


class EntryLineRecord(TypedDict):
    """A journal entry's line (stored inside the entry): its account and both sides on every line since
    the first (posting.stored_line); None is not stored."""
    chartOfAccountId: int
    debit: Amount
    credit: Amount
    lineDescription: NotRequired[str | None]
    dimensions: NotRequired[list[dict[str, int]]]  # cost centres [{dimensionId, valueId}], only when any


class EntryRecord(TypedDict):
    """A journal entry; `source` names what made it ({type, id, documentType}). Every entry has had
    the required keys since the first; None is not stored (an entry without a description has
    none). Its key and its place in the by-date index are the store's to add when it is written
    (store/repositories/journal.put_new_entry)."""
    itemType: str
    id: int
    date: str
    description: NotRequired[str | None]
    reference: NotRequired[str | None]
    status: str
    entryType: str
    lines: list[EntryLineRecord]
    totalDebit: Amount
    totalCredit: Amount
    source: NotRequired[dict[str, Any] | None]
    reversalOf: NotRequired[int | None]
    reversedBy: NotRequired[int | None]
    version: int
    createdAt: str
    updatedAt: str
    postedAt: NotRequired[str]


class EntryChanges(TypedDict, total=False):
    """What a status move sets on an entry besides its status and version."""
    postedAt: str
    reversedBy: int
    updatedAt: str


class PostingRecord(TypedDict):
    """One line of an entry in its account's ledger partition (services/accounting/posting.py)."""
    accountId: int
    journalEntryId: int
    line: int
    date: str
    entryType: str
    description: NotRequired[str | None]
    lineDescription: NotRequired[str | None]
    reference: NotRequired[str | None]
    debit: Amount
    credit: Amount
    dimensionValueIds: NotRequired[list[int]]  # its line's cost centres' value ids, only when any


class PartnerIdentity(TypedDict):
    """What every business partner has had since the first."""
    id: int
    name: str
    type: str


class PartnerRecord(PartnerIdentity, total=False):
    """A business partner as stored: total=False past its identity, since older items lack later fields."""
    taxId: str | None
    email: str | None
    country: str | None
    paymentConditionId: int | None
    credit_limit: Amount | None
    credit_block_days: int | None
    receivableBalance: Amount
    payableBalance: Amount
    isActive: bool
    version: int
    createdAt: str
    updatedAt: str


class StoredMoney(TypedDict, total=False):
    """The other stored money fields the API answers (a bank account's, a reconciliation's, a product's
    reference cost, a document's pending in the company's currency and what credit notes took off it,
    revaluations' figures): read at their cents, as they were written, so that
    a record's GET answers what its POST did though DynamoDB keeps 1000.50 as 1000.5. (A document
    line's unit price and a quantity take up to 4 places as sent: they are not here.)"""
    openingBalance: Amount
    balance: Amount
    reconciledBalance: Amount
    statementBalance: Amount
    clearedBalance: Amount
    difference: Amount
    basePending: Amount
    creditedTotal: Amount
    settledBase: Amount
    cost: Amount
    foreignAmount: Amount
    bookedAmount: Amount
    revaluedAmount: Amount
    totalGain: Amount
    totalLoss: Amount
    netDifference: Amount


RECORDS = (DocumentRecord, LineRecord, PaymentRecord, EntryRecord, EntryLineRecord, PostingRecord, PartnerRecord,
           StoredMoney)


def _annotated_int(annotation: Any) -> bool:
    return annotation is int or (int in getattr(annotation, "__args__", ()) and Decimal not in annotation.__args__)


# the fields these records declare as integers, besides every id and version
INTEGER_FIELDS = frozenset(name for record in RECORDS for name, annotation in get_type_hints(record).items()
                           if _annotated_int(annotation))


def _places(annotation: Any) -> int | None:
    """The places an annotation declares, looked for through its wrappers (`NotRequired[...]`, `... | None`)."""
    declared = [meta.places for meta in getattr(annotation, "__metadata__", ()) if isinstance(meta, Places)]
    if declared:
        return declared[0]
    return next((places for part in get_args(annotation) if (places := _places(part)) is not None), None)


def _field_places() -> dict[str, int]:
    found: dict[str, int] = {}
    for record in RECORDS:
        for name, annotation in get_type_hints(record, include_extras=True).items():
            places = _places(annotation)
            if places is not None and found.setdefault(name, places) != places:
                raise TypeError(f"{name} is declared with {found[name]} and {places} places")
    return found


# the places of each field declared with them (by name, in every record: one name, one scale)
FIELD_PLACES = _field_places()


def places_of(name: str) -> int | None:
    """The places a stored number field is written with, None when it has none of its own
    (a quantity, a price or a rate keeps what it was written with, trimmed as DynamoDB keeps it)."""
    return FIELD_PLACES.get(name)


def integer_field(name: str) -> bool:
    """Whether a stored attribute holds an integer by definition: an id ("id", "...Id"), a version,
    or a field a record above declares `int`."""
    return name in INTEGER_FIELDS or name == "id" or name.endswith("Id")


def as_declared(name: str, number: Decimal) -> Decimal | int:
    """A stored number as its field declares it, whatever DynamoDB trimmed: an integer field's
    whole number as int, an amount with its places at least (more are kept: 0.125 stays), any
    other number as it comes."""
    if not number.is_finite():
        return number
    if integer_field(name):
        return int(number) if number == number.to_integral_value() else number
    places = places_of(name)
    exponent = number.as_tuple().exponent
    if places is not None and isinstance(exponent, int) and exponent > -places:
        return number.quantize(Decimal(1).scaleb(-places))
    return number
