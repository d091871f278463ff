"""Document rules, no I/O: what each type does (stock, partner balance, books, state machine),
line and document totals, fiscal number format, credit control and the event summary."""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping, Sequence

from chalicelib.domain import money
from chalicelib.domain.accounting import CREDIT, DEBIT, ZERO, Dimensions, Movement, round_money
from chalicelib.domain.document_types import BOTH, PURCHASES, SALES
from chalicelib.domain.money import MAX_AMOUNT
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.messages.phrases import Phrase

DRAFT, CONFIRMED, CANCELLED = "draft", "confirmed", "cancelled"
DOCUMENT_STATUSES = (DRAFT, CONFIRMED, CANCELLED)

IN, OUT, NONE = 1, -1, 0
AUTOMATIC_CAPTURE = "automatic"


@dataclass(frozen=True)
class Kind:
    """What one document type does once confirmed.

    stock: IN, OUT or NONE for the products it carries. balance: +1 when it adds to what the
    partner owes us (sales) or we owe the partner (purchases), -1 when it takes away (credit
    notes), 0 when it owes nothing (quotes, orders, deliveries, withholding certificates)."""
    code: str
    name: str
    module: str
    stock: int = NONE
    balance: int = 0
    posts: bool = False
    cancellable: bool = False
    starts_draft: bool = False
    capturable: bool = False
    unconfirmable: bool = False
    fiscal: bool = False
    sources: tuple[str, ...] = ()
    source_required: bool = False
    # a balance the partner had before the company's books started here (not a sale or purchase)
    opening: bool = False

    @property
    def sales(self) -> bool:
        return self.module == SALES

    @property
    def owed(self) -> bool:
        """Confirmed, it leaves an amount to pay or apply (its `pending`)."""
        return self.balance != 0 or self.code == "05"


_INVOICE_SOURCES = ("100", "101", "112")
OPENING_RECEIVABLE, OPENING_PAYABLE = "900", "901"
KINDS: dict[str, Kind] = {kind.code: kind for kind in (
    Kind("01", "Factura", SALES, stock=OUT, balance=1, posts=True, fiscal=True, sources=_INVOICE_SOURCES),
    Kind("113", "Factura de reserva", SALES, stock=OUT, balance=1, posts=True, fiscal=True,
         sources=_INVOICE_SOURCES),
    Kind("06", "Nota de crédito", SALES, stock=IN, balance=-1, posts=True, cancellable=True,
         sources=("01", "113"), source_required=True),
    Kind("07", "Nota de débito", SALES, balance=1, posts=True, cancellable=True, sources=("01", "113"),
         source_required=True),
    Kind("100", "Cotización", SALES, starts_draft=True),
    Kind("101", "Orden de venta", SALES, starts_draft=True, sources=("100",)),
    # a delivery note documents a shipment; the invoice moves the goods and books their cost
    Kind("112", "Remisión", SALES, sources=("100", "101")),
    Kind("103", "Factura de compra", PURCHASES, stock=IN, balance=1, posts=True, capturable=True,
         unconfirmable=True, sources=("102",)),
    Kind("104", "Importación", PURCHASES, stock=IN, balance=1, posts=True, cancellable=True, sources=("102",)),
    Kind("105", "Nota de crédito de compra", PURCHASES, stock=OUT, balance=-1, posts=True, cancellable=True,
         capturable=True, sources=("103", "104"), source_required=True),
    Kind("106", "Nota de débito de compra", PURCHASES, balance=1, posts=True, cancellable=True,
         capturable=True, sources=("103", "104"), source_required=True),
    Kind("102", "Orden de compra", PURCHASES, starts_draft=True),
    Kind("11", "Gasto", PURCHASES, balance=1, posts=True),
    # in El Salvador, a certificate of IVA withheld from a supplier names the purchase (a DTE 07)
    Kind("05", "Comprobante de retención", BOTH, sources=("103", "11")),
    # made only by POST /business-partners/{id}/opening-balance: never by POST /documents
    Kind(OPENING_RECEIVABLE, "Saldo inicial de cliente", SALES, balance=1, posts=True, cancellable=True, opening=True),
    Kind(OPENING_PAYABLE, "Saldo inicial de proveedor", PURCHASES, balance=1, posts=True, cancellable=True,
         opening=True),
)}

WITHHOLDING_CERTIFICATE = "05"
# an import's lines that bring no goods (freight, insurance, duties) are its landed costs: they
# add to the value of the goods it brings
IMPORT = "104"

# Quotes and orders take advances: money before the invoice, held on these accounts until an
# invoice of the same partner applies it.
# a delivery note paid on delivery holds the money as the customer's advance until its invoice
ADVANCE_OPERATION = {"100": "customer_advance", "101": "customer_advance", "112": "customer_advance",
                     "102": "supplier_advance"}


def money_comes_in(kind: Kind) -> bool:
    """The spec's bank direction for a payment of this type: customers pay in and suppliers are
    paid out; a credit note turns it round (06 refunded out, 105 refunded in)."""
    return kind.sales != (kind.balance < 0)


def creation_rules_schema() -> list[dict[str, Any]]:
    """The rules above that JSON Schema can state about a new document (for the OpenAPI
    document): which types need a source document, which take none, which can be captured."""
    def of_types(codes: list[str]) -> dict[str, Any]:
        return {"required": ["type"], "properties": {"type": {"enum": codes}}}

    needing = [kind.code for kind in KINDS.values() if kind.source_required]
    without = [kind.code for kind in KINDS.values() if not kind.sources]
    capturable = [kind.code for kind in KINDS.values() if kind.capturable]
    not_purchases = [kind.code for kind in KINDS.values() if kind.module != PURCHASES]
    not_certificates = [code for code in KINDS if code != WITHHOLDING_CERTIFICATE]
    return [{"if": of_types(needing), "then": {"required": ["sourceDocumentId"],
                                               "properties": {"sourceDocumentId": {"type": "integer"}}}},
            {"if": of_types(without), "then": {"properties": {"sourceDocumentId": {"type": "null"}}}},
            {"if": of_types(not_purchases), "then": {"properties": {"supplierDocumentNumber": {"type": "null"},
                                                                    "supplierCai": {"type": "null"}}}},
            {"if": of_types(not_certificates), "then": {"properties": {"withholding": {"type": "null"}}}},
            {"if": {"required": ["capture"], "properties": {"capture": {"const": "automatic"}}},
             "then": {"properties": {"type": {"enum": capturable}}}}]


def partner_suits(kind: Kind, partner_type: str) -> bool:
    if kind.module == BOTH or partner_type == "both":
        return True
    return partner_type == ("customer" if kind.sales else "supplier")


# --- errors -------------------------------------------------------------------------------------

class DocumentStateError(ApiError):
    code = "INVALID_DOCUMENT_STATUS"


class DocumentNotEditable(ApiError):
    code = "DOCUMENT_NOT_EDITABLE"
    message = "Only a draft document can be edited."


def not_cancellable(kind: Kind) -> DocumentStateError:
    return DocumentStateError(Phrase("Documents of type {} ({}) cannot be cancelled once confirmed; only credit and "
                                     "debit notes (06, 07, 105, 106) and imports (104) can (any draft can).",
                                     kind.code, kind.name),
                              code="DOCUMENT_NOT_CANCELLABLE")


def has_payments() -> DocumentStateError:
    return DocumentStateError("The document has payments or applications; cancel them first.",
                              code="DOCUMENT_HAS_PAYMENTS")


def wrong_status(action: str, status: str, needed: str) -> DocumentStateError:
    return DocumentStateError(Phrase("Only a {} document can be {}; this one is {}.", needed, action, status))


# --- lines and totals ----------------------------------------------------------------------------

@dataclass(frozen=True)
class LineAmounts:
    subtotal: Decimal
    tax: Decimal

    @property
    def total(self) -> Decimal:
        return self.subtotal + self.tax


def line_amounts(quantity: Decimal, unit_price: Decimal, discount: Decimal, tax_rate: Decimal,
                 field: str) -> LineAmounts:
    """quantity x unit price, rounded half-up to cents, less the discount (an amount); the
    tax is the rate on that, rounded half-up on the line."""
    gross = round_money(quantity * unit_price)
    if gross > MAX_AMOUNT:
        raise ValidationFailed.for_field(f"{field}.quantity", Phrase("the line amount may not exceed {}", MAX_AMOUNT))
    if discount > gross:
        raise ValidationFailed.for_field(f"{field}.discount", Phrase("must not exceed the line amount {}", gross))
    subtotal = gross - round_money(discount)
    return LineAmounts(subtotal, round_money(subtotal * tax_rate))


@dataclass(frozen=True)
class Totals:
    subtotal: Decimal
    tax_total: Decimal
    total: Decimal
    # base amounts by ISV rate ("0", "0.15", "0.18") as the fiscal invoice shows them
    by_rate: dict[str, Decimal]


def document_totals(lines: Iterable[tuple[LineAmounts, Decimal]]) -> Totals:
    subtotal = tax = ZERO
    by_rate: dict[str, Decimal] = {}
    for amounts, rate in lines:
        subtotal += amounts.subtotal
        tax += amounts.tax
        name = str(rate.normalize()) if rate else "0"
        by_rate[name] = by_rate.get(name, ZERO) + amounts.subtotal
    if subtotal + tax > MAX_AMOUNT:
        raise ValidationFailed.for_field("lines", Phrase("the document total may not exceed {}", MAX_AMOUNT))
    return Totals(subtotal, tax, subtotal + tax, by_rate)


# --- books ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LineShare:
    """A document line as its automatic entry sees it: its weight in the revenue (sales) or expense
    (purchases) the entry posts (its subtotal, in the document's currency), its tax treatment, its cost
    centres, and whether its goods move stock (a stocked line's value goes to inventory instead)."""
    weight: Decimal
    treatment: str = "taxed"
    dimensions: Dimensions = ()
    stocked: bool = False


# Sales revenue by the line's tax treatment (issue 44): what the tax books show apart, the ledger
# shows apart too. Export lines are `revenue` unless the whole invoice is an export (export_revenue).
REVENUE_BY_TREATMENT = {"exempt": "revenue_exempt", "exonerated": "revenue_exonerated"}


def entry_movements(kind: Kind, *, total: Decimal, tax: Decimal, stocked_subtotal: Decimal,
                    other_subtotal: Decimal, stock_value: Decimal, revaluation: Decimal,
                    moves_stock: bool, export: bool = False, lines: Sequence[LineShare] = ()) -> list[Movement]:
    """The automatic entry of a confirmed document, as semantic movements.

    Sales: receivable against revenue and output tax; goods leaving stock move their cost (at the
    average) from inventory to cost of sales, goods returned by a credit note bring it back.
    Purchases: the goods' value (with an import's landed costs) to inventory, the rest to expense,
    input tax, against payable. A purchase credit note takes the goods out at the average: what the
    supplier credits beyond (or short of) it goes to cost of sales. `stock_value` is what the goods
    moved are worth (>= 0); `revaluation` is stock value written off to cost of sales (signed).
    An `export` invoice's revenue is `export_revenue` (declared apart); its credit notes' returns
    stay with the other sales' returns.

    `lines` (issue 44): the revenue, or the expense, is shared over the lines that make it by
    (operation, cost centres) in proportion to their subtotals, to the cent (money.split): an exempt
    line's revenue is `revenue_exempt`, an exonerated one's `revenue_exonerated`. A sales credit note's
    returns stay on `revenue` (the returns account, whatever the treatment, as an export's do), split
    by cost centre only. Without `lines`, one movement each, as before."""
    movements: list[Movement] = []
    goods = stock_value if moves_stock else ZERO
    if kind.opening:  # what was owed before the books started here, against the opening equity
        partner_side = Movement("receivable", DEBIT, total) if kind.sales else Movement("payable", CREDIT, total)
        return [partner_side, swapped(Movement("opening_balance_equity", partner_side.side, total))]
    if kind.balance and kind.sales:
        def revenue_of(line: LineShare) -> str:
            if kind.balance < 0:
                return "revenue"
            return "export_revenue" if export else REVENUE_BY_TREATMENT.get(line.treatment, "revenue")

        movements += [Movement("receivable", DEBIT, total),
                      *shared(Movement("export_revenue" if export and kind.balance > 0 else "revenue", CREDIT,
                                       stocked_subtotal + other_subtotal), lines, revenue_of),
                      Movement("tax_sales", CREDIT, tax)]
        if kind.balance < 0:
            movements = [swapped(movement) for movement in movements]
    elif kind.balance > 0:
        # signed: in a foreign currency the rounded parts may leave a cent either way
        movements += [Movement("inventory", DEBIT, goods),
                      *shared(Movement("expense", DEBIT, stocked_subtotal + other_subtotal - goods),
                              [line for line in lines if not line.stocked]),
                      Movement("tax_purchases", DEBIT, tax),
                      Movement("payable", CREDIT, total)]
    elif kind.balance < 0:
        credited = stocked_subtotal if moves_stock else ZERO
        movements += [Movement("payable", DEBIT, total),
                      Movement("inventory", CREDIT, goods),
                      signed_movement("cost_of_sales", CREDIT, credited - goods),
                      *shared(Movement("expense", CREDIT, stocked_subtotal + other_subtotal - credited),
                              [line for line in lines if not (moves_stock and line.stocked)]),
                      Movement("tax_purchases", CREDIT, tax)]
    if kind.sales and moves_stock and goods:
        cost_lines = [Movement("cost_of_sales", DEBIT, goods), Movement("inventory", CREDIT, goods)]
        movements += cost_lines if kind.stock == OUT else [swapped(movement) for movement in cost_lines]
    movements += revaluation_movements(revaluation)
    return [movement for movement in movements if round_money(movement.amount) != 0]


def shared(whole: Movement, lines: Sequence[LineShare],
           operation_of: Callable[[LineShare], str] | None = None) -> list[Movement]:
    """`whole` (its amount signed: a negative one goes on the other side) shared over `lines` by
    (operation, cost centres), in proportion to their weights, to the cent: the parts add up to it
    exactly, so the entry balances as it did. No lines: `whole` itself."""
    groups: dict[tuple[str, Dimensions], Decimal] = {}
    for line in lines:
        group = (operation_of(line) if operation_of else whole.operation, line.dimensions)
        groups[group] = groups.get(group, ZERO) + line.weight
    if not groups:
        return [signed_movement(whole.operation, whole.side, whole.amount)]
    parts = money.split(whole.amount, list(groups.values()))
    return [signed_movement(operation, whole.side, part, dimensions)
            for (operation, dimensions), part in zip(groups, parts, strict=True)]


def revaluation_movements(revaluation: Decimal) -> list[Movement]:
    """Stock value written off to cost of sales (positive) or back from it (negative)."""
    return [signed_movement("cost_of_sales", DEBIT, revaluation), signed_movement("inventory", CREDIT, revaluation)]


def signed_movement(operation: str, side: str, amount: Decimal, dimensions: Dimensions = ()) -> Movement:
    """A movement of a signed amount: a negative one goes on the other side."""
    movement = Movement(operation, side, abs(amount), dimensions=dimensions)
    return swapped(movement) if amount < 0 else movement


def swapped(movement: Movement) -> Movement:
    return Movement(movement.operation, CREDIT if movement.side == DEBIT else DEBIT, movement.amount,
                    movement.description, movement.account_id, movement.dimensions)


# --- numbers -------------------------------------------------------------------------------------

def format_number(establishment: str, emission_point: str, segment: str, sequence: int) -> str:
    """EEE-PPP-TT-NNNNNNNN; TT is the type's segment (document_types.number_segment)."""
    return f"{establishment}-{emission_point}-{segment}-{sequence:08d}"


def plain_number(number: str | None) -> str | None:
    return number.replace("-", "") if number else number


# --- credit control ------------------------------------------------------------------------------

def overdue_days(open_due_dates: Iterable[str], today: str) -> int:
    """Days the oldest open document is past its due date (0 when none is)."""
    oldest = min(open_due_dates, default=None)
    if oldest is None or oldest >= today:
        return 0
    return (_dt.date.fromisoformat(today) - _dt.date.fromisoformat(oldest)).days


def credit_warning(policy: str, limit: Decimal | None, balance: Decimal, amount: Decimal) -> str | None:
    """What the limit says of a new receivable: None (within it, no limit, or policy off), a
    warning (policy warn) or CREDIT_LIMIT_EXCEEDED (policy block)."""
    if policy == "off" or limit is None or balance + amount <= limit:
        return None
    message = f"The customer's balance {balance + amount} would exceed its credit limit {limit}."
    if policy == "block":
        raise credit_limit_exceeded(message)
    return message


def credit_limit_exceeded(message: str) -> ApiError:
    return ApiError(message, code="CREDIT_LIMIT_EXCEEDED",
                    details=[{"field": "businessPartnerId", "message": "credit limit exceeded"}])


def credit_blocked(days: int, tolerated: int) -> ApiError:
    # Said as an accountant reads it: the customer's own block (its `credit_block_days`) is a number
    # of days, not a field name
    return ApiError(Phrase("The customer has documents {} days overdue, more than the {} days its credit block "
                           "tolerates: collect them (or change the customer's credit block) to invoice it.",
                           days, tolerated),
                    code="CREDIT_BLOCKED",
                    details=[{"field": "businessPartnerId",
                              "message": Phrase("has documents overdue more than {} days (the customer's credit block)",
                                                tolerated)}])


# --- events --------------------------------------------------------------------------------------

def event_data(document: Mapping[str, Any]) -> dict[str, Any]:
    return {"IdFactura": int(document["id"]), "type": document["type"],
            "number": plain_number(document.get("number")), "total": document["total"],
            "businessPartnerId": int(document["businessPartnerId"]),
            "isConfirmed": document["status"] == CONFIRMED,
            "codigoGeneracion": document.get("codigoGeneracion")}
