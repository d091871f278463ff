"""Honduras' sales and purchase books: a hand-worked month whose rows and totals are written out
below (not copied from the output), the exports, the cost, and who may ask."""
from __future__ import annotations

import csv
import io
import re
from collections import Counter

from pypdf import PdfReader

from tests.documents_support import Shop
from tests.test_call_budget import calls, measure  # noqa: F401  (calls is a fixture)

AMOUNTS = ("exempt", "exonerated", "taxed15", "taxed18", "isv15", "isv18", "total")


def test_a_hand_worked_month(api, company_a):
    shop = Shop(api, company_a)
    shop.api.put(f"/business-partners/{shop.customer}", {"taxId": "08019001234567"}, key=shop.key)
    first = shop.document("01", [(shop.service, 2, 100)], date="2026-11-02")            # 200 at 15 %: ISV 30
    mixed = shop.created("/documents", {"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-03",
                                        "lines": [{"description": "Licor", "quantity": 1, "unitPrice": 50,
                                                   "taxRate": 0.18},                  # 50 at 18 %: ISV 9
                                                  {"description": "Libro", "quantity": 1, "unitPrice": 20,
                                                   "taxRate": 0}]})                   # 20 exempt
    note = shop.document("06", [(shop.service, 1, 100)], sourceDocumentId=first["id"], date="2026-11-05")
    voided = shop.document("06", [(shop.service, 1, 10)], sourceDocumentId=first["id"], date="2026-11-06")
    shop.action(voided["id"], "cancel", {"reason": "emitida por error"})
    purchase = shop.document("103", [(shop.product, 1, 60)], date="2026-11-02")          # 60 at 15 %: ISV 9
    shop.document("01", [(shop.service, 1, 100)], date="2026-11-10", status="draft")   # not in a book
    shop.document("01", [(shop.service, 1, 100)], date="2026-12-01")                  # another month

    sales = api.get("/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30", key=shop.key).json
    rows = [(row["documentId"], row["status"], *(row[name] for name in AMOUNTS)) for row in sales["rows"]]
    assert rows == [
        (first["id"], "confirmed", 0, 0, 200, 0, 30, 0, 230),
        (mixed["id"], "confirmed", 20, 0, 0, 50, 0, 9, 79),
        (note["id"], "confirmed", 0, 0, -100, 0, -15, 0, -115),
        (voided["id"], "cancelled", 0, 0, 0, 0, 0, 0, 0),
    ]
    assert sales["totals"] == {"exempt": 20, "exonerated": 0, "taxed15": 100, "taxed18": 50, "isv15": 15,
                               "isv18": 9, "total": 194}
    row = sales["rows"][0]
    assert (row["number"], row["cai"], row["partnerTaxId"], row["partnerName"], row["typeName"]) == (
        first["number"], first["cai"]["cai"], "08019001234567", "Cliente Uno", "Factura")

    purchases = api.get("/reports/purchase-book?startDate=2026-11-01&endDate=2026-11-30", key=shop.key).json
    assert [(r["documentId"], r["taxed15"], r["isv15"], r["total"]) for r in purchases["rows"]] == [
        (purchase["id"], 60, 9, 69)]
    assert purchases["totals"]["total"] == 69

    exported = api.http.request("GET", "/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30",
                                headers={"authorization": f"Bearer {shop.key}", "accept": "text/csv"}, body=b"")
    table = list(csv.reader(io.StringIO(exported.body.decode("utf-8-sig"))))
    assert table[0][:7] == ["Fecha", "Tipo", "Número", "CAI", "RTN", "Nombre", "Estado"]
    assert table[4][6] == "ANULADO" and table[3][9] == "-100.00" and table[-1][5:] == [
        "Totales", "", "20.00", "0.00", "100.00", "50.00", "15.00", "9.00", "194.00"]
    assert table[3][7] == "0.00"  # a credit note's empty columns are 0.00, not -0.00
    answer = api.get("/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30", key=shop.key).text
    assert re.search(r":-0(\.0+)?[,}]", answer) is None

    # the PDF: a landscape page (seven amount columns), every row (it was a 500 with rows: too wide)
    printed = api.http.request("GET", "/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30",
                               headers={"authorization": f"Bearer {shop.key}", "accept": "application/pdf"}, body=b"")
    assert printed.status_code == 200, printed.body[:300]
    reader = PdfReader(io.BytesIO(printed.body))
    page = reader.pages[0]
    assert page.mediabox.width > page.mediabox.height
    text = "".join(p.extract_text() for p in reader.pages)
    assert "Libro de ventas" in text and first["number"] in text and "ANULADO" in text and "194.00" in text


def test_a_month_reads_only_that_month_and_other_countries_are_refused(api, calls, company_a, company_b):  # noqa: F811
    shop = Shop(api, company_a)
    for day in range(1, 11):
        shop.document("01", [(shop.service, 1, 100)], date=f"2026-10-{day:02d}")
    shop.document("01", [(shop.service, 1, 100)], date="2026-11-02")
    path = "/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30"
    assert measure(calls, lambda: api.get(path, key=shop.key)) == Counter({"GetItem": 1, "Query": 1,
                                                                           "BatchGetItem": 1})
    assert len(api.get(path, key=shop.key).json["rows"]) == 1

    Shop(api, company_b, country="SV")
    refused = api.get(path, key=company_b.api_key)
    assert (refused.status, refused.json["code"]) == (400, "REPORT_NOT_FOR_COUNTRY")
    backwards = api.get("/reports/purchase-book?startDate=2026-12-01&endDate=2026-11-30", key=shop.key)
    assert (backwards.status, backwards.json["details"][0]["field"]) == (400, "startDate")
    missing = api.get("/reports/sales-book?startDate=2026-11-01", key=shop.key)
    assert (missing.status, missing.json["details"][0]["field"]) == (400, "endDate")


def test_the_isv_summary_of_a_month_carries_the_previous_months_credit(api, company_a):
    shop = Shop(api, company_a)
    shop.document("103", [(shop.product, 1, 200)], date="2026-10-05")                 # October: input ISV 30
    shop.document("01", [(shop.service, 3, 100)], date="2026-11-02")                  # output ISV 45
    shop.created("/documents", {"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-03", "lines": [
        {"description": "Licor", "quantity": 1, "unitPrice": 50, "taxRate": 0.18}]})  # output ISV 9 at 18 %
    shop.document("103", [(shop.product, 1, 60)], date="2026-11-04")                  # input ISV 9

    october = api.get("/reports/isv-summary?month=2026-10", key=shop.key).json
    assert (october["outputTax"], october["inputTax"], october["creditBroughtForward"], october["taxPayable"],
            october["creditCarriedForward"]) == (0, 30, 0, 0, 30)
    november = api.get("/reports/isv-summary?month=2026-11", key=shop.key).json
    # 45 + 9 charged, 9 paid, October's 30 of credit: 15 to pay
    assert (november["outputTax"], november["inputTax"], november["creditBroughtForward"], november["taxPayable"],
            november["creditCarriedForward"]) == (54, 9, 30, 15, 0)
    assert (november["sales"]["taxed15"], november["sales"]["taxed18"], november["purchases"]["taxed15"]) == (300, 50, 60)
    december = api.get("/reports/isv-summary?month=2026-12", key=shop.key).json
    assert (december["creditBroughtForward"], december["taxPayable"], december["creditCarriedForward"]) == (0, 0, 0)

    printed = api.http.request("GET", "/reports/isv-summary?month=2026-11", body=b"", headers={
        "authorization": f"Bearer {shop.key}", "accept": "text/csv"}).body.decode("utf-8-sig").splitlines()
    assert printed[0] == "Concepto,Ventas,Compras" and "ISV a pagar,15.00," in printed
    assert api.get("/reports/isv-summary?month=2026-13", key=shop.key).status == 400
