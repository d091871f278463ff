"""El Salvador's IVA books: a hand-worked month whose rows and totals are written out below (not
copied from the output), the exports, the cost, and who may ask."""
from __future__ import annotations

import csv
import datetime as dt
import io
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from chalicelib import clock
from tests.documents_support import Shop
from tests.test_call_budget import calls, measure  # noqa: F401  (calls is a fixture)

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
NOVEMBER = "startDate=2026-11-01&endDate=2026-11-30"
SAMPLES = Path(__file__).resolve().parent.parent / "build" / "reports"


def exported(api, path: str, key: str, accept: str) -> bytes:
    answer = api.http.request("GET", path, body=b"", headers={"authorization": f"Bearer {key}", "accept": accept})
    assert answer.status_code == 200, answer.body[:300]
    return answer.body


@pytest.fixture
def on(monkeypatch):
    """A DTE is dated the day it is issued: the clock goes to that day (10 a.m. in San Salvador)."""
    def move(day: str) -> None:
        moment = dt.datetime.fromisoformat(f"{day}T16:00:00+00:00")
        monkeypatch.setattr(clock, "now", lambda: moment)
    return move


def test_a_hand_worked_month(api, company_a, on):
    shop = Shop(api, company_a, country="SV")
    key = shop.key
    api.put(f"/business-partners/{shop.customer}", {"taxId": "012345678"}, key=key)  # a consumer's DUI
    taxpayer = shop.created("/business-partners", {
        "name": "Empresa SA de CV", "type": "customer", "taxId": "06140101901015", "nrc": "123456-7",
        "economicActivityCode": "62010", "economicActivity": "Programación informática", "department": "06",
        "municipality": "14", "address": "Colonia Escalón, San Salvador", "email": "compras@empresa.example"})["id"]
    api.put(f"/business-partners/{shop.supplier}", {"nrc": "765432-1", "taxId": "06140202902020"}, key=key)
    # a supplier without an NRC: we issue the factura de sujeto excluido (a DTE), which names him
    unregistered = shop.created("/business-partners", {
        "name": "Don Juan", "type": "supplier", "taxId": "023456783", "department": "06", "municipality": "14",
        "address": "Mejicanos", "phone": "7000-0000", "email": "juan@example.com"})["id"]

    # facturas to consumers: 100 at 13 % (IVA 13); 20 exempt and 10 non-subject; 50 exported
    on("2026-11-02")
    f1 = shop.document("01", [(shop.service, 1, 100)], date="2026-11-02")
    on("2026-11-02")
    f2 = shop.created("/documents", {"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-02", "lines": [
        {"description": "Libro", "quantity": 1, "unitPrice": 20, "taxRate": 0},
        {"description": "Tasa municipal", "quantity": 1, "unitPrice": 10, "taxTreatment": "nonSubject"}]})
    on("2026-11-03")
    # an export is to a customer abroad: a factura de exportación (DTE 11), in the consumers' book
    abroad = shop.created("/business-partners", {
        "name": "Importadora del Norte Inc.", "type": "customer", "country": "US", "personType": "legal",
        "taxId": "98-7654321", "economicActivity": "Comercio al por mayor", "address": "100 Main Street, Houston",
        "email": "compras@norte.example"})["id"]
    f3 = shop.created("/documents", {"type": "01", "businessPartnerId": abroad, "date": "2026-11-03",
                                     "export": {"countryCode": "9905", "countryName": "Destino de prueba"}, "lines": [
        {"productId": shop.service, "quantity": 1, "unitPrice": 50, "taxTreatment": "export"}]})
    # a crédito fiscal to a registered taxpayer: 200 at 13 % (IVA 26); its credit note: 50 (IVA 6.50)
    on("2026-11-04")
    ccf = shop.document("01", [(shop.service, 2, 100)], date="2026-11-04", partner=taxpayer)
    on("2026-11-05")
    note = shop.document("06", [(shop.service, 1, 50)], sourceDocumentId=ccf["id"], date="2026-11-05",
                         partner=taxpayer)
    # purchases: 60 at 13 % (IVA 7.80) under the supplier's control number; an import of 200 (IVA 26);
    # 40 from a supplier without an NRC (sujeto excluido, no IVA)
    p1 = shop.document("103", [(shop.product, 1, 60)], date="2026-11-02",
                       supplierDocumentNumber="DTE-03-00010001-000000000000123")
    p2 = shop.document("104", [(shop.product, 1, 200)], date="2026-11-06")
    on("2026-11-07")
    p3 = shop.created("/documents", {"type": "11", "businessPartnerId": unregistered, "date": "2026-11-07",
                                     "lines": [{"description": "Limpieza", "quantity": 1, "unitPrice": 40,
                                                "taxRate": 0}]})
    on("2026-11-10")
    shop.document("01", [(shop.service, 1, 100)], date="2026-11-10", status="draft")   # not in a book
    on("2026-12-01")
    shop.document("01", [(shop.service, 1, 100)], date="2026-12-01")                  # another month

    assert (f1["dte"]["tipoDte"], ccf["dte"]["tipoDte"], f3["dte"]["tipoDte"]) == ("01", "03", "11")
    # a Salvadoran invoice prints El Salvador's tax, even with no taxed line
    printed = api.http.request("POST", f"/documents/{f2['id']}/print", body=b"{}", headers={
        "authorization": f"Bearer {key}", "accept": "application/pdf", "content-type": "application/json"})
    text = PdfReader(io.BytesIO(printed.body)).pages[0].extract_text()
    assert "IVA 13 %" in text and "ISV" not in text and "18 %" not in text
    assert ccf["dte"]["numeroControl"].startswith("DTE-03-") and ccf["dte"]["numeroControl"].endswith("1")

    consumers = api.get(f"/reports/iva-sales-consumers?{NOVEMBER}", key=key).json
    control = [doc["dte"]["numeroControl"] for doc in (f1, f2, f3)]
    assert consumers["rows"] == [
        {"date": "2026-11-02", "fromNumber": control[0], "toNumber": control[1], "documents": 2,
         # 20 exempt, 10 non-subject, 100 + 13 taxed with its IVA: 143
         "exempt": 20, "nonSubject": 10, "taxed": 113, "exports": 0, "iva": 13, "total": 143},
        {"date": "2026-11-03", "fromNumber": control[2], "toNumber": control[2], "documents": 1,
         "exempt": 0, "nonSubject": 0, "taxed": 0, "exports": 50, "iva": 0, "total": 50}]
    assert consumers["totals"] == {"exempt": 20, "nonSubject": 10, "taxed": 113, "exports": 50, "iva": 13,
                                   "total": 193}

    taxpayers = api.get(f"/reports/iva-sales-taxpayers?{NOVEMBER}", key=key).json
    assert [(r["documentId"], r["number"], r["partnerNrc"], r["taxed"], r["iva"], r["total"])
            for r in taxpayers["rows"]] == [
        (ccf["id"], ccf["dte"]["numeroControl"], "123456-7", 200, 26, 226),
        (note["id"], note["dte"]["numeroControl"], "123456-7", -50, Decimal("-6.50"), Decimal("-56.50"))]
    assert note["dte"]["tipoDte"] == "05"  # the authority's credit note, correcting the crédito fiscal
    # 200 - 50 taxed, 26 - 6.50 of débito fiscal
    assert taxpayers["totals"] == {"exempt": 0, "nonSubject": 0, "taxed": 150, "iva": Decimal("19.50"),
                                   "total": Decimal("169.50")}

    purchases = api.get(f"/reports/iva-purchases?{NOVEMBER}", key=key).json
    amounts = ("exemptInternal", "exemptImports", "taxedInternal", "taxedImports", "iva", "excludedSubject", "total")
    assert [(r["documentId"], r["number"], r["partnerNrc"], *(r[name] for name in amounts))
            for r in purchases["rows"]] == [
        (p1["id"], "DTE-03-00010001-000000000000123", "765432-1", 0, 0, 60, 0, Decimal("7.80"), 0, Decimal("67.80")),
        (p2["id"], p2["number"], "765432-1", 0, 0, 0, 200, 26, 0, 226),
        (p3["id"], p3["dte"]["numeroControl"], None, 0, 0, 0, 0, 0, 40, 40)]  # the 14 we issued: its number
    # 60 and 200 taxed, 7.80 + 26 of crédito fiscal, 40 from an excluded subject: 333.80
    assert purchases["totals"] == {"exemptInternal": 0, "exemptImports": 0, "taxedInternal": 60,
                                   "taxedImports": 200, "iva": Decimal("33.80"), "excludedSubject": 40,
                                   "total": Decimal("333.80")}

    # the exports say the same: CSV, and XLSX with numbers
    rows = list(csv.reader(io.StringIO(exported(api, f"/reports/iva-sales-consumers?{NOVEMBER}", key,
                                                "text/csv").decode("utf-8-sig"))))
    assert rows[0] == ["Fecha", "Del No.", "Al No.", "Docs.", "Exentas", "No sujetas", "Gravadas (IVA incluido)",
                       "Exportaciones", "IVA incluido", "Total"]
    assert rows[1] == ["2026-11-02", control[0], control[1], "2", "20.00", "10.00", "113.00", "0.00", "13.00",
                       "143.00"]
    assert rows[-1][3:] == ["Totales", "20.00", "10.00", "113.00", "50.00", "13.00", "193.00"]
    sheet = load_workbook(io.BytesIO(exported(api, f"/reports/iva-purchases?{NOVEMBER}", key, XLSX))).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    header = next(index for index, row in enumerate(values) if row[0] == "Fecha")
    assert values[header][-7:] == ["Exentas internas", "Import. exentas", "Gravadas internas",
                                   "Import. gravadas", "Crédito fiscal", "Sujetos excluidos", "Total"]
    assert values[header + 1][2] == "DTE-03-00010001-000000000000123"
    assert values[-1][-1] == 333.8 and isinstance(values[header + 2][-4], (int, float))
    pdf = exported(api, f"/reports/iva-purchases?{NOVEMBER}", key, "application/pdf")
    SAMPLES.mkdir(parents=True, exist_ok=True)
    (SAMPLES / "libro-de-compras-sv.pdf").write_bytes(pdf)  # to look at
    printed = PdfReader(io.BytesIO(pdf))
    page = printed.pages[0]
    text = page.extract_text()
    assert page.mediabox.width > page.mediabox.height  # thirteen columns: landscape
    assert "Libro de compras" in text and "DTE-03-00010001-000000000000123" in text and "333.80" in text


def test_a_month_reads_only_that_month_and_other_countries_are_refused(api, calls, company_a, company_b, on):  # noqa: F811
    shop = Shop(api, company_a, country="SV")
    for day in range(1, 6):
        on(f"2026-10-{day:02d}")
        shop.document("01", [(shop.service, 1, 100)], date=f"2026-10-{day:02d}")
    on("2026-10-30")
    invoice = shop.document("01", [(shop.service, 1, 100)], date="2026-10-30")
    on("2026-11-02")
    shop.document("06", [(shop.service, 1, 10)], sourceDocumentId=invoice["id"], date="2026-11-02")
    # the company, the month's documents and corrections (documents reversed later), and their
    # partners with the October invoice the note corrects (no purchases: nothing more to read)
    for path, reads in (("iva-sales-consumers", 1), ("iva-sales-taxpayers", 1), ("iva-purchases", 0)):
        assert measure(calls, lambda path=path: api.get(f"/reports/{path}?{NOVEMBER}", key=shop.key)) == Counter(
            {"GetItem": 1, "Query": 2, "BatchGetItem": reads}) - Counter(), path
    consumers = api.get(f"/reports/iva-sales-consumers?{NOVEMBER}", key=shop.key).json
    # a note correcting a factura counts in its day's consumer sales, outside the range of facturas
    assert [(r["fromNumber"], r["documents"], r["total"]) for r in consumers["rows"]] == [(None, 0, Decimal("-11.30"))]
    assert api.get(f"/reports/iva-sales-taxpayers?{NOVEMBER}", key=shop.key).json["rows"] == []

    Shop(api, company_b)
    refused = api.get(f"/reports/iva-purchases?{NOVEMBER}", key=company_b.api_key)
    assert (refused.status, refused.json["code"]) == (400, "REPORT_NOT_FOR_COUNTRY")
    refused = api.get(f"/reports/sales-book?{NOVEMBER}", key=shop.key)
    assert (refused.status, refused.json["code"]) == (400, "REPORT_NOT_FOR_COUNTRY")


def test_el_salvador_takes_its_own_rate(api, company_a):
    shop = Shop(api, company_a, country="SV")
    product = shop.created("/products", {"code": "D-1", "name": "Default"})
    assert product["taxRate"] == Decimal("0.13")
    refused = api.post("/products", {"code": "D-2", "name": "Honduran", "taxRate": 0.15}, key=shop.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "taxRate")
    refused = api.post("/documents", {"type": "01", "businessPartnerId": shop.customer, "lines": [
        {"description": "x", "quantity": 1, "unitPrice": 10, "taxRate": 0.18}]}, key=shop.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "lines[0].taxRate")
    bad_nrc = api.post("/business-partners", {"name": "X", "type": "customer", "nrc": "12A"}, key=shop.key)
    assert (bad_nrc.status, bad_nrc.json["details"][0]["field"]) == (400, "nrc")
