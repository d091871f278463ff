"""The totals an invoice prints, by the company's country's rates (its pack's `tax_rates`)."""
from __future__ import annotations

from decimal import Decimal as D

from chalicelib.pdf import content


def _line(subtotal: str, rate: str, tax: str, treatment: str | None = None) -> dict:
    line = {"subtotal": D(subtotal), "taxRate": D(rate), "tax": D(tax)}
    return {**line, "taxTreatment": treatment} if treatment else line


def test_a_honduran_invoice_itemizes_both_isv_rates():
    document = {"lines": [_line("100.00", "0.15", "15.00"),     # 100 at 15 %: ISV 15
                          _line("50.00", "0.18", "9.00"),       # 50 at 18 %: ISV 9
                          _line("20.00", "0", "0.00"),          # exempt
                          _line("40.00", "0", "0.00", "exonerated")],
                "subtotal": D("210.00"), "total": D("234.00")}  # 100 + 50 + 20 + 40; + 15 + 9
    rows = dict(content.totals(document, {"country": "HN"}).rows())
    assert rows == {"Descuentos y rebajas": D("0"), "Subtotal": D("210.00"), "Importe exonerado": D("40.00"),
                    "Importe exento": D("20.00"), "Importe gravado 15 %": D("100.00"),
                    "Importe gravado 18 %": D("50.00"), "ISV 15 %": D("15.00"), "ISV 18 %": D("9.00")}


def test_a_salvadoran_invoice_has_one_iva_rate_and_no_honduran_exoneration_row():
    document = {"lines": [_line("200.00", "0.13", "26.00")],  # 200 at 13 %: IVA 26
                "subtotal": D("200.00"), "total": D("226.00")}
    rows = dict(content.totals(document, {"country": "SV"}).rows())
    # exonerations are Honduras' (its pack's takes_exonerations): no "Importe exonerado" here
    assert rows == {"Descuentos y rebajas": D("0"), "Subtotal": D("200.00"),
                    "Importe exento": D("0"), "Importe gravado 13 %": D("200.00"), "IVA 13 %": D("26.00")}


def _text(pdf: bytes) -> str:
    import io

    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_ticket_and_the_journal_entry_name_the_tax_id_as_the_country_does():
    from chalicelib.pdf import journal_entry, ticket

    document = {"id": 7, "type": "01", "status": "confirmed", "number": "001-001-01-00000007", "date": "2026-11-02",
                "lines": [{"description": "Servicio", "quantity": D("1"), "unitPrice": D("200.00"), "discount": D("0"),
                           **_line("200.00", "0.13", "26.00")}],
                "subtotal": D("200.00"), "taxTotal": D("26.00"), "total": D("226.00"), "currency": "USD"}
    partner = {"name": "Cliente", "taxId": "0614-010190-101-3"}
    for country, label in (("HN", "RTN"), ("SV", "NIT")):
        company = {"id": 1, "name": "Tienda", "taxId": "0801", "country": country, "currency": "USD"}
        assert f"{label}: 0614-010190-101-3" in _text(ticket.render(company, partner, document))
        entry = {"id": 3, "date": "2026-11-02", "description": "Asiento", "lines": [], "totalDebit": D("0"),
                 "totalCredit": D("0")}
        assert f"{label}: 0801" in _text(journal_entry.render(company, entry, {}))
