"""What a document is made of before it has any effect: the company, partner, products and source
it refers to (read and checked together), its priced lines and totals, its dates and place, and the
fiscal fields of its type."""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from chalicelib import clock, countries
from chalicelib.auth.principal import Principal
from chalicelib.domain import currency as currency_rules
from chalicelib.domain import documents as document_rules
from chalicelib.domain import taxes
from chalicelib.domain.accounting import ZERO, round_money
from chalicelib.domain.document_types import PURCHASES, SALES
from chalicelib.domain.documents import CANCELLED, CONFIRMED, Kind
from chalicelib.domain.money import Money
from chalicelib.domain.records import DocumentChanges, DocumentRecord, LineRecord, PartnerRecord
from chalicelib.errors import NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting import dimensions
from chalicelib.services.banking import exchange_rates
from chalicelib.services.inventory import stock_moves
from chalicelib.services.payments import payment_setup
from chalicelib.store import keys
from chalicelib.store.repositories import documents as document_store
from chalicelib.store.repositories import partners as partner_store
from chalicelib.store.table import Table

# --- what a document needs around it ----------------------------------------------------------------

@dataclass
class Context:
    table: Table
    company: dict[str, Any]
    kind: Kind
    partner: PartnerRecord | None  # None only when read without checks (strict=False) and gone
    products: dict[int, dict[str, Any]]
    source: DocumentRecord | None
    # the products' stock positions (services/inventory/stock_moves.py), read with them
    positions: dict[int, dict[str, Any]] = field(default_factory=dict)
    # the stored draft's (dimension, value) pairs: one made inactive since stays acceptable on it
    kept_dimensions: frozenset[tuple[int, int]] = frozenset()

    @property
    def company_id(self) -> int:
        return int(self.company["id"])

    @property
    def own_currency(self) -> str:
        """The company's currency: the books' (a document in another converts at its rate)."""
        return exchange_rates.company_currency(self.company)

    @property
    def checked_partner(self) -> PartnerRecord:
        """The document's partner, as a strict load checked it exists."""
        if self.partner is None:
            raise ValueError("the document's partner was not found: load the context strictly")
        return self.partner


def load_context(table: Table, company_id: int, kind: Kind, fields: dict[str, Any], *, strict: bool = True) -> Context:
    """Reads the company, partner, products (with their stock positions) and source document in
    one BatchGetItem and checks
    that the document may refer to them (`strict`; undoing a confirmed document only needs
    them read)."""
    partner_key = keys.entity(company_id, keys.PARTNER, fields["businessPartnerId"])
    product_ids = {line["productId"] for line in fields["lines"] if line.get("productId") is not None}
    wanted = [keys.company(company_id), partner_key] + [keys.entity(company_id, keys.PRODUCT, p) for p in product_ids]
    if kind.stock:
        wanted += stock_moves.position_keys(company_id, product_ids)
    if fields.get("sourceDocumentId") is not None:
        wanted.append(keys.document(company_id, fields["sourceDocumentId"]))
    found = table.batch_get(wanted)

    def lookup(key: keys.Key) -> dict[str, Any] | None:
        return found.get(keys.pair(key))
    problems: list[dict[str, str]] = []
    partner = partner_store.as_partner(lookup(partner_key))
    if partner is None:
        problems.append({"field": "businessPartnerId", "message": "no such business partner"})
    elif not partner.get("isActive", True):
        problems.append({"field": "businessPartnerId", "message": "the business partner is inactive"})
    elif not document_rules.partner_suits(kind, partner["type"]):
        wanted_type = "customer" if kind.sales else "supplier"
        problems.append({"field": "businessPartnerId",
                         "message": Phrase("a {} document needs a {}; this partner is a {}",
                                           kind.module, wanted_type, partner['type'])})
    products: dict[int, dict[str, Any]] = {}
    for index, line in enumerate(fields["lines"]):
        if line.get("productId") is None:
            continue
        product = lookup(keys.entity(company_id, keys.PRODUCT, line["productId"]))
        if product is None:
            problems.append({"field": f"lines[{index}].productId", "message": "no such product"})
        elif not product.get("isActive", True):
            problems.append({"field": f"lines[{index}].productId", "message": "the product is inactive"})
        else:
            products[product["id"]] = product
    source = None
    if fields.get("sourceDocumentId") is not None:
        source = document_store.as_document(lookup(keys.document(company_id, fields["sourceDocumentId"])))
        problem = _source_problem(kind, source, fields)
        if problem:
            problems.append({"field": "sourceDocumentId", "message": problem})
    elif kind.source_required:
        problems.append(SOURCE_REQUIRED[kind.code])
    if problems and strict:
        raise ValidationFailed(Phrase("{}: {}", problems[0]['field'], problems[0]['message']), details=problems)
    company = lookup(keys.company(company_id))
    if company is None:
        raise NotFound("Company not found.")
    positions = {item["productId"]: item for key in stock_moves.position_keys(company_id, product_ids)
                 if (item := lookup(key)) is not None}
    return Context(table, company, kind, partner, products, source, positions)


# A note without the document it corrects: the types it may correct named in words and codes, one
# sentence per note type so that es.PHRASES words each whole in Spanish (tests/unit/test_document_notes.py
# checks every type that requires a source has one naming each of its kind's sources).
SOURCE_REQUIRED: dict[str, dict[str, str]] = {
    "06": {"field": "sourceDocumentId",
           "message": "required: the sales invoice (01) or reservation invoice (113) this credit note corrects"},
    "07": {"field": "sourceDocumentId",
           "message": "required: the sales invoice (01) or reservation invoice (113) this debit note corrects"},
    "105": {"field": "sourceDocumentId",
            "message": "required: the purchase invoice (103) or import (104) this purchase credit note corrects"},
    "106": {"field": "sourceDocumentId",
            "message": "required: the purchase invoice (103) or import (104) this purchase debit note corrects"},
}


def _source_problem(kind: Kind, source: DocumentRecord | None, fields: dict[str, Any]) -> str | None:
    if source is None:
        return "no such document"
    if source["type"] not in kind.sources:
        if not kind.sources:
            return f"a {kind.name} has no source document"
        return f"a {kind.name} can come only from a document of type {' or '.join(kind.sources)}, not {source['type']}"
    if source["businessPartnerId"] != fields["businessPartnerId"]:
        return "the source document belongs to another business partner"
    if source["status"] == CANCELLED or (kind.source_required and source["status"] != CONFIRMED):
        return f"the source document is {source['status']}"
    return None


def kind_needs_source_currency(kind: Kind) -> bool:
    """A note corrects its document in that document's currency."""
    return kind.source_required


def check_content(table: Table, company_id: int, document_type: str, fields: dict[str, Any]) -> dict[str, Any]:
    """Checks a partner and lines as creating a document of this type would (the partner may be
    used, the products exist and are active, the amounts are within bounds) and, in El Salvador,
    the DTE it would be (the authority's format, the credentials to send it), writing nothing:
    for what makes documents later (a scheduled invoice). Returns the company."""
    context = load_context(table, company_id, document_rules.KINDS[document_type], fields)
    content = document_content(context, fields, sender=None)  # a schedule carries no rate
    countries.pack_of(context.company).hooks.check_issue(table, context.company, context.partner,
                                                         {**content, "type": document_type}, context.products)
    return context.company


def priced_lines(context: Context, fields: dict[str, Any]) -> tuple[list[LineRecord], document_rules.Totals]:
    lines: list[LineRecord] = []
    amounts = []
    country = countries.pack_of(context.company).code
    # the company's cost centres, read once for all the lines (and only when a line names one)
    dimension_items = dimensions.dimension_items(context.table, context.company_id) \
        if any(line.get("dimensions") for line in fields["lines"]) else []
    exonerated = exoneration(context, fields) is not None
    for index, line in enumerate(fields["lines"]):
        product = context.products.get(line.get("productId")) if line.get("productId") is not None else None
        requested_rate = None if line.get("taxRate") is None else Decimal(line["taxRate"])
        if exonerated:
            line = {**line, "taxTreatment": exonerated_treatment(line, requested_rate, f"lines[{index}]")}
        certificate = context.kind.code == document_rules.WITHHOLDING_CERTIFICATE
        if certificate and requested_rate:
            raise ValidationFailed.for_field(f"lines[{index}].taxRate", "a withholding certificate carries no tax: "
                                                                        "its lines are the amounts withheld")
        rate, treatment = taxes.line_treatment(line.get("taxTreatment"), requested_rate,
                                               Decimal(product.get("taxRate", 0)) if product and not certificate
                                               else ZERO, f"lines[{index}]")
        taxes.check_rate_for_country(country, rate, f"lines[{index}].taxRate")
        discount = line.get("discount") or ZERO
        line_amounts = document_rules.line_amounts(line["quantity"], line["unitPrice"], discount, rate, f"lines[{index}]")
        description = line.get("description") or (product["name"] if product else None)
        if not description:
            raise ValidationFailed.for_field(f"lines[{index}].description", "required for a line without a product")
        priced: LineRecord = {"productId": line.get("productId"), "description": description,
                              "quantity": line["quantity"], "unitPrice": line["unitPrice"],
                              "discount": round_money(discount), "taxRate": rate, "taxTreatment": treatment,
                              "subtotal": line_amounts.subtotal, "tax": line_amounts.tax, "total": line_amounts.total}
        line_dimensions = dimensions.checked_line_dimensions(dimension_items, line.get("dimensions"),
                                                             f"lines[{index}].dimensions", context.kept_dimensions)
        if line_dimensions:  # stored only when any: its revenue or expense posts by them
            priced["dimensions"] = line_dimensions
        lines.append(priced)
        amounts.append((line_amounts, rate))
    totals = document_rules.document_totals(amounts)
    source = context.source
    if source is not None and context.kind.balance < 0 and (
            totals.total > Decimal(source["total"]) - Decimal(source.get("creditedTotal", 0))):
        raise over_credited(source)
    return lines, totals


def _due_date(table: Table, company_id: int, date: str, fields: dict[str, Any], partner: PartnerRecord,
              kind: Kind) -> tuple[str, int | None]:
    condition_id = fields.get("paymentConditionId") or partner.get("paymentConditionId")
    if fields.get("dueDate"):
        # an opening balance may be an old invoice, already overdue on the day the books start
        if fields["dueDate"] < date and not kind.opening:
            raise ValidationFailed.for_field("dueDate", "must not be before the document date")
        return fields["dueDate"], condition_id
    if condition_id is None:
        return date, None
    days = payment_setup.due_days(table, company_id, int(condition_id))
    return (_dt.date.fromisoformat(date) + _dt.timedelta(days=days)).isoformat(), condition_id


_PLACES: tuple[tuple[Literal["branchId", "warehouseId"], str, str], ...] = (
    ("branchId", keys.BRANCH, "defaultBranchId"), ("warehouseId", keys.WAREHOUSE, "defaultWarehouseId"))


def _place(table: Table, context: Context, fields: dict[str, Any]) -> DocumentChanges:
    """Branch and warehouse: the ones named (they must exist), else the company's defaults."""
    placed: DocumentChanges = {}
    for name, kind, default in _PLACES:
        value = fields.get(name)
        if value is None:
            fallback = context.company.get(default)
            placed[name] = int(fallback) if fallback is not None else None
            continue
        item = table.get(keys.small_record(context.company_id, kind, value))
        if item is None:
            raise ValidationFailed.for_field(name, Phrase("no such {}",
                                                          'branch' if kind == keys.BRANCH else 'warehouse'))
        if not item.get("isActive", True):
            raise ValidationFailed.for_field(name, "inactive")
        placed[name] = value
    return placed


def document_content(context: Context, fields: dict[str, Any], *, sender: Principal | None) -> DocumentChanges:
    """The stored fields of a document from its request fields: lines with their amounts,
    totals, dates, place and the fiscal fields of its type. `sender` sent its `exchangeRate`
    (None: the rate is the document's own, kept)."""
    table = context.table
    date = fields.get("date") or today(context)
    due_date, condition_id = _due_date(table, context.company_id, date, {**fields, "date": date}, context.checked_partner,
                                       context.kind)
    lines, totals = priced_lines(context, fields)
    # a note, or an invoice from an order, is in its source's currency unless it says otherwise
    currency = fields.get("currency") or (context.source and context.source.get("currency")) or context.own_currency
    if kind_needs_source_currency(context.kind) and context.source is not None and \
            context.source.get("currency") and context.source["currency"] != currency:
        raise ValidationFailed.for_field("currency", Phrase("must be the source document's currency {}",
                                                            context.source['currency']))
    rate = exchange_rates.rate_for(table, context.company, currency, date, fields.get("exchangeRate"), sender=sender)
    return {"exoneration": exoneration(context, fields),
            "businessPartnerId": fields["businessPartnerId"], "date": date, "dueDate": due_date,
            # an opening balance is settled as it comes, whatever terms the partner trades on now
            "paymentConditionId": None if context.kind.opening else condition_id, **_place(table, context, fields),
            "currency": currency, "exchangeRate": rate,
            "baseTotal": currency_rules.converted(Money(totals.total, currency), rate, context.own_currency,
                                                  "exchangeRate").amount,
            "notes": fields.get("notes"), "reference": fields.get("reference"),
            "sourceDocumentId": fields.get("sourceDocumentId"), "lines": lines, "subtotal": totals.subtotal,
            "taxTotal": totals.tax_total, "total": totals.total, "taxBases": totals.by_rate,
            **_fiscal_fields(context, fields)}


def _fiscal_fields(context: Context, fields: dict[str, Any]) -> DocumentChanges:
    """The supplier's own number and CAI (purchases, for the purchase book) and a withholding
    certificate's tax and side: refused on a type they do not describe."""
    kind = context.kind
    chosen: DocumentChanges = {"supplierDocumentNumber": None, "supplierCai": None, "withholding": None,
                              "export": None, "dteType": None}
    supplier_fields: tuple[Literal["supplierDocumentNumber", "supplierCai"], ...] = ("supplierDocumentNumber",
                                                                                   "supplierCai")
    for name in supplier_fields:
        if fields.get(name) is not None:
            if kind.module != PURCHASES:
                raise ValidationFailed.for_field(name, Phrase("only purchase documents carry it, not a {}", kind.name))
            chosen[name] = fields[name]
    withholding = fields.get("withholding")
    if withholding is not None:
        if kind.code != document_rules.WITHHOLDING_CERTIFICATE:
            raise ValidationFailed.for_field("withholding", Phrase("only a withholding certificate (05) carries it, "
                                                                   "not a {}", kind.name))
        pack = countries.pack_of(context.company)
        if withholding["tax"] in {each.sales_tax for each in countries.packs()} and withholding["tax"] != pack.sales_tax:
            raise ValidationFailed.for_field("withholding.tax",
                    Phrase("{} is not a tax of {}", withholding['tax'], pack.code))
        partner_type = context.partner["type"] if context.partner else None
        wanted = "customer" if withholding["side"] == SALES else "supplier"
        if partner_type not in (wanted, "both"):
            raise ValidationFailed.for_field("withholding.side",
                    Phrase("a withholding on {} is with a {}; this partner is a {}",
                           withholding['side'], wanted, partner_type))
        chosen["withholding"] = {"tax": withholding["tax"], "side": withholding["side"]}
    if fields.get("export") is not None:
        if not countries.pack_of(context.company).hooks.takes_export(context.company, kind.code):
            raise ValidationFailed.for_field("export", Phrase("only an El Salvador sales invoice carries it, not a {}",
                                                              kind.name))
        chosen["export"] = {name: value for name, value in fields["export"].items() if value is not None}
    if fields.get("dteType") is not None:
        if not countries.pack_of(context.company).hooks.takes_electronic_type(context.company, kind.code):
            raise ValidationFailed.for_field("dteType", Phrase("only an El Salvador sales invoice carries it, not a {}",
                                                               kind.name))
        chosen["dteType"] = fields["dteType"]
    return chosen



def exoneration(context: Context, fields: dict[str, Any]) -> dict[str, str | None] | None:
    """The exonerated buyer's registers (Honduras, sales): refused on purchases, certificates,
    opening balances and in another country. A note without registers of its own (absent or
    null: a form sends null for blank fields) takes its invoice's: it corrects a sale made
    without ISV, so it credits or charges none either."""
    given = fields.get("exoneration")
    if given is None:
        source: DocumentChanges = context.source if context.source is not None else {}
        inherited = follows_source_exoneration(context.kind) and source.get("exoneration")
        return {name: inherited[name] for name in taxes.EXONERATION_FIELDS if inherited.get(name)} if inherited else None
    kind = context.kind
    if kind.module != SALES or kind.opening:
        raise ValidationFailed.for_field("exoneration", Phrase("only sales documents carry it, not a {}", kind.name))
    pack = countries.pack_of(context.company)
    if not pack.hooks.takes_exonerations():
        raise ValidationFailed.for_field("exoneration", Phrase("exonerations are Honduran; the company is in {}",
                                                               pack.code))
    registers = {name: given[name] for name in taxes.EXONERATION_FIELDS if given.get(name)}
    if not registers:
        raise ValidationFailed.for_field("exoneration", "give at least one of the exempt purchase order's, the "
                                                        "exoneration certificate's or the SAG registry's number")
    return registers


def follows_source_exoneration(kind: Kind) -> bool:
    """Sales notes (06, 07) follow their invoice's exoneration."""
    return kind.source_required and kind.module == SALES


def exonerated_treatment(line: dict[str, Any], requested_rate: Decimal | None, field: str) -> str:
    """A line of a document under an exoneration carries no ISV: without a treatment it is
    exonerated; an exempt line stays exempt (the good is exempt whoever buys it); a taxed line or
    a rate is a contradiction, refused rather than silently dropped."""
    requested = line.get("taxTreatment")
    if requested == taxes.TAXED or requested_rate:
        raise ValidationFailed.for_field(f"{field}.taxTreatment", "a document under an exoneration carries no ISV: "
                                                                   "its lines are exonerated (ISV 0)")
    return requested or taxes.EXONERATED


def over_credited(source: DocumentChanges) -> ValidationFailed:
    return ValidationFailed.for_field("lines", Phrase("credit notes may not exceed their document's total {} (already "
                                                      "credited: {})",
                                                      source.get('total'), source.get('creditedTotal', 0)))


def today(context: Context) -> str:
    return clock.company_today(context.company)
