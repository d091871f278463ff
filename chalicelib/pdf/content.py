"""What the document templates (invoice, ticket) show, worked out from the stored records: the
title, the parties, the fiscal block and the totals a Honduran invoice itemizes."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from chalicelib import countries
from chalicelib.domain import taxes
from chalicelib.domain.amount_words import amount_in_words
from chalicelib.domain.currency import base_total, in_base, money_of
from chalicelib.domain.document_types import PURCHASES
from chalicelib.domain.documents import CANCELLED, DRAFT, KINDS
from chalicelib.pdf import text

ZERO = Decimal("0.00")
# Required on Honduran fiscal invoices (Reglamento del Régimen de Facturación).
FISCAL_LEGEND = "LA FACTURA ES BENEFICIO DE TODOS, ¡EXÍJALA!"
COPIES_LEGEND = "Original: cliente. Copia: obligado tributario emisor."
STAMPS = {DRAFT: "BORRADOR: SIN VALOR FISCAL", CANCELLED: "ANULADO"}


@dataclass(frozen=True)
class Totals:
    discounts: Decimal
    subtotal: Decimal
    exonerated: Decimal
    exempt: Decimal
    taxed_general: Decimal
    taxed_special: Decimal
    tax_general: Decimal
    tax_special: Decimal
    total: Decimal
    general_rate: Decimal
    tax_label: str
    special_rate: Decimal | None  # a second rate above the general one (Honduras: 18 %)
    exonerations: bool  # the country's sales may be exonerated (its pack's `takes_exonerations`)

    def rows(self) -> list[tuple[str, Decimal]]:
        """Every rate of the country itemized: Honduras' two ISV rates; El Salvador's one IVA rate
        (13 %) prints no special rows. The exonerated amount only where sales may be exonerated."""
        tax, general = self.tax_label, text.percent(self.general_rate)
        rows = [("Descuentos y rebajas", self.discounts), ("Subtotal", self.subtotal),
                *([("Importe exonerado", self.exonerated)] if self.exonerations else []),
                ("Importe exento", self.exempt), (f"Importe gravado {general}", self.taxed_general)]
        if self.special_rate is not None:
            rows.append((f"Importe gravado {text.percent(self.special_rate)}", self.taxed_special))
        rows.append((f"{tax} {general}", self.tax_general))
        if self.special_rate is not None:
            rows.append((f"{tax} {text.percent(self.special_rate)}", self.tax_special))
        return rows


def totals(document: Mapping[str, Any], company: Mapping[str, Any]) -> Totals:
    """Bases and tax by rate, summed from the lines' own rounded amounts (as the document's
    totals are); a zero-rate line is exonerated or exempt by its treatment. The rows are the
    company's country's rates (its pack's `tax_rates`; the label its `tax_label`)."""
    pack = countries.pack_of(company)
    taxed_rates = sorted(rate for rate in pack.tax_rates if rate)
    special_rate = taxed_rates[-1] if len(taxed_rates) > 1 else None
    exempt = exonerated = discounts = ZERO
    taxed_general = taxed_special = tax_general = tax_special = ZERO
    general_rate = pack.default_rate
    for line in document["lines"]:
        rate, base = Decimal(line.get("taxRate") or 0), Decimal(line["subtotal"])
        if not rate:
            if taxes.treatment_of(line) == taxes.EXONERATED:
                exonerated += base
            else:
                exempt += base
        elif rate == special_rate:
            taxed_special += base
            tax_special += Decimal(line["tax"])
        else:
            general_rate = rate
            taxed_general += base
            tax_general += Decimal(line["tax"])
        discounts += Decimal(line.get("discount") or 0)
    return Totals(discounts=discounts, subtotal=Decimal(document["subtotal"]), exonerated=exonerated, exempt=exempt,
                  taxed_general=taxed_general, taxed_special=taxed_special, tax_general=tax_general,
                  tax_special=tax_special, total=Decimal(document["total"]), general_rate=general_rate,
                  tax_label=pack.tax_label, special_rate=special_rate,
                  exonerations=pack.hooks.takes_exonerations())


def totals_rows(document: Mapping[str, Any], company: Mapping[str, Any],
                partner: Mapping[str, Any] | None = None) -> tuple[list[tuple[str, Decimal]], Decimal]:
    """The totals' rows and what is owed: as the document's electronic version carries them (El
    Salvador's DTE; a draft's, as the one it will be issued as to `partner`), else the rows by
    rate of the stored totals."""
    figures = countries.pack_of_document(document, company).hooks.printed_figures(document, company, partner)
    if figures is not None:
        return figures.rows, figures.total
    worked = totals(document, company)
    return worked.rows(), worked.total


def title(document: Mapping[str, Any], company: Mapping[str, Any], partner: Mapping[str, Any] | None = None) -> str:
    """The tax authority's name of an electronic document (El Salvador's DTE, or the one a draft
    will be issued as to `partner`), else the type's."""
    printed = countries.pack_of_document(document, company).hooks.printed_title(document, partner)
    if printed:
        return printed
    kind = KINDS.get(document["type"])
    return (kind.name if kind else f"Documento {document['type']}").upper()


def number(document: Mapping[str, Any], company: Mapping[str, Any]) -> str:
    """The document's identity on paper: its electronic document's (El Salvador: the número de
    control), else its fiscal number."""
    printed = countries.pack_of_document(document, company).hooks.printed_number(document)
    return printed or document.get("number") or f"Borrador {document['id']}"


def is_sale(document: Mapping[str, Any]) -> bool:
    """A withholding certificate is on the side it certifies (purchases: withheld from a supplier)."""
    kind = KINDS.get(document["type"])
    side = (document.get("withholding") or {}).get("side")
    return kind is None or (side or kind.module) != PURCHASES


def partner_label(document: Mapping[str, Any]) -> str:
    return "Cliente" if is_sale(document) else "Proveedor"


def company_currency_rows(document: Mapping[str, Any], company: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A document in a currency other than the company's prints its rate and the company-currency
    equivalent of its total and tax (what a Honduran invoice in dollars must show in lempiras)."""
    rate = Decimal(document.get("exchangeRate") or 1)
    own = str(company.get("currency") or "HNL")
    if rate == 1 or currency(document, company) == own:
        return []
    tax = countries.pack_of(company).tax_label
    return [("Tipo de cambio", f"1 {currency(document, company)} = {rate.normalize():f} {own}"),
            (f"Total en {own}", text.money(base_total(document, own).amount)),
            (f"{tax} en {own}", text.money(in_base(money_of(document, "taxTotal", own), rate, own).amount))]


def currency(document: Mapping[str, Any], company: Mapping[str, Any]) -> str:
    return str(document.get("currency") or company.get("currency") or "HNL")


def amount_words(document: Mapping[str, Any], company: Mapping[str, Any]) -> str:
    return amount_in_words(Decimal(document["total"]), currency(document, company))


def stamp(document: Mapping[str, Any]) -> str | None:
    return STAMPS.get(document.get("status", ""))


def cai_rows(document: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The CAI block of a number taken from an authorized range (none for other numbers)."""
    cai = document.get("cai")
    if not cai:
        return []
    return [("CAI", str(cai["cai"])),
            ("Rango autorizado", f"{cai['rangeStart']} al {cai['rangeEnd']}"),
            ("Fecha límite de emisión", text.date(cai.get("deadline")))]


def authority_rows(document: Mapping[str, Any], company: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The printed version of an electronic document: its codes and the authority's seal."""
    return countries.pack_of_document(document, company).hooks.printed_rows(document)


def authority_qr_png(document: Mapping[str, Any], company: Mapping[str, Any]) -> bytes | None:
    """The QR code of an electronic document's printed version (the authority's consultation)."""
    return countries.pack_of_document(document, company).hooks.printed_qr(document, company)


def partner_id_rows(partner: Mapping[str, Any], country: str) -> list[tuple[str, str]]:
    """A partner by its tax id under the country's label (Honduras: RTN), or as the pack prints it
    (El Salvador: NIT or DUI and, a taxpayer, NRC)."""
    pack = countries.pack(country)
    printed = pack.hooks.printed_partner_ids(partner)
    return printed if printed is not None else [(pack.tax_id_label, str(partner.get("taxId") or ""))]


def company_rows(company: Mapping[str, Any]) -> list[str]:
    """The tax id under the country's label, then the registers its pack prints (El Salvador: NRC)."""
    pack, rows = countries.pack_of(company), []
    if company.get("taxId"):
        registers = [(pack.tax_id_label, company["taxId"]), *pack.hooks.printed_company_registers(company)]
        rows.append("   ".join(f"{label}: {value}" for label, value in registers))
    rows += [str(company[name]) for name in ("address",) if company.get(name)]
    contact = "  ".join(str(company[name]) for name in ("phone", "email") if company.get(name))
    return rows + ([contact] if contact else [])


def lines(document: Mapping[str, Any], company: Mapping[str, Any],
          partner: Mapping[str, Any] | None = None) -> list[tuple[str, Any, Any, Any, Any]]:
    """Each line's description, quantity, unit price, discount and total: as the electronic
    document carries them (a Salvadoran factura's prices include the IVA, a draft's too), else as stored."""
    figures = countries.pack_of_document(document, company).hooks.printed_figures(document, company, partner)
    if figures is not None:
        return figures.lines
    return [(str(line.get("description") or ""), line["quantity"], line["unitPrice"], line.get("discount") or 0,
             line["subtotal"]) for line in document["lines"]]


def line_rows(document: Mapping[str, Any], company: Mapping[str, Any],
              partner: Mapping[str, Any] | None = None) -> list[list[str]]:
    return [[description, text.quantity(quantity), text.price(price), text.money(discount), text.money(total)]
            for description, quantity, price, discount, total in lines(document, company, partner)]
