"""Honduras' sales and purchase books: a hand-worked month whose rows and totals are written out
below (not copied from the output), the exports, the cost, and who may ask."""
from __future__ import annotations

import csv
import io
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

from pypdf import PdfReader

from tests.documents_support import Shop
from tests.test_call_budget import calls, measure  # noqa: F401  (calls is a fixture)

SAMPLES = Path(__file__).resolve().parent.parent / "build" / "reports"
AMOUNTS = ("exempt", "exonerated", "taxed15", "taxed18", "isv15", "isv18", "total")


SUPPLIER_CAI = "A1B2C3-D4E5F6-A7B8C9-D0E1F2-A3B4C5-D6"


def test_a_hand_worked_month(api, company_a):
    """November of a small Honduran shop: sales at 15 % and 18 %, an exempt and an exonerated line,
    a credit note and a cancelled one, a purchase under the supplier's own number and CAI, a cash
    payment, an ISV withholding our customer made and one we made, and an income-tax one that the
    ISV summary leaves out. Every expected figure is worked out in the comments."""
    shop = Shop(api, company_a)
    shop.api.put(f"/business-partners/{shop.customer}", {"taxId": "08019001234567"}, key=shop.key)
    first = shop.document("01", [(shop.service, 2, 100)], date="2026-11-02")            # 200 at 15 %: ISV 30
    mixed = shop.created("/documents", {"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-03",
                                        "lines": [{"description": "Licor", "quantity": 1, "unitPrice": 50,
                                                   "taxRate": 0.18},                  # 50 at 18 %: ISV 9
                                                  {"description": "Libro", "quantity": 1, "unitPrice": 20,
                                                   "taxRate": 0},                     # 20 exempt
                                                  {"productId": shop.service, "quantity": 1, "unitPrice": 40,
                                                   "taxTreatment": "exonerated"}]})   # 40 exonerated, no ISV
    assert (mixed["total"], mixed["taxTotal"], mixed["lines"][2]["taxRate"]) == (119, 9, 0)
    note = shop.document("06", [(shop.service, 1, 100)], sourceDocumentId=first["id"], date="2026-11-05")
    voided = shop.document("06", [(shop.service, 1, 10)], sourceDocumentId=first["id"], date="2026-11-06")
    shop.action(voided["id"], "cancel", {"reason": "emitida por error", "date": "2026-11-06"})
    purchase = shop.document("103", [(shop.product, 1, 60)], date="2026-11-02",         # 60 at 15 %: ISV 9
                             supplierDocumentNumber="002-001-01-00004567", supplierCai=SUPPLIER_CAI.lower())
    shop.document("01", [(shop.service, 1, 100)], date="2026-11-10", status="draft")   # not in a book
    shop.document("01", [(shop.service, 1, 100)], date="2026-12-01")                  # another month
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    shop.created(f"/payments/documents/{first['id']}/payments",                         # money: not in the books
                 {"paymentMethodId": cash["id"], "amount": 50, "paymentDate": "2026-11-20"})
    # the customer withheld 15 % of the first invoice's 30 of ISV (4.50) and 1 % of income tax (2.00)
    for tax, amount in (("isv", 4.5), ("isr", 2)):
        certificate = shop.document("05", [(None, 1, amount)], date="2026-11-21",
                                    withholding={"tax": tax, "side": "sales"})
        shop.created(f"/payments/documents/{first['id']}/payments",
                     {"withholdingDocumentId": certificate["id"], "amount": amount, "paymentDate": "2026-11-21"})
    # we withheld 15 % of the purchase's 9 of ISV from the supplier (1.35)
    ours = shop.document("05", [(None, 1, 1.35)], date="2026-11-22", partner=shop.supplier,
                         withholding={"tax": "isv", "side": "purchases"})
    shop.created(f"/payments/documents/{purchase['id']}/payments",
                 {"withholdingDocumentId": ours["id"], "amount": 1.35, "paymentDate": "2026-11-22"})

    sales = api.get("/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30", key=shop.key).json
    rows = [(row["documentId"], row["status"], *(row[name] for name in AMOUNTS)) for row in sales["rows"]]
    assert rows == [
        # id, status, exempt, exonerated, taxed 15, taxed 18, ISV 15, ISV 18, total
        (first["id"], "confirmed", 0, 0, 200, 0, 30, 0, 230),
        (mixed["id"], "confirmed", 20, 40, 0, 50, 0, 9, 119),
        (note["id"], "confirmed", 0, 0, -100, 0, -15, 0, -115),
        (voided["id"], "cancelled", 0, 0, 0, 0, 0, 0, 0),
    ]
    # 20 exempt; 40 exonerated; 200 - 100 at 15 %; 50 at 18 %; 30 - 15 and 9 of ISV; 230 + 119 - 115
    assert sales["totals"] == {"exempt": 20, "exonerated": 40, "taxed15": 100, "taxed18": 50, "isv15": 15,
                               "isv18": 9, "total": 234}
    row = sales["rows"][0]
    assert (row["number"], row["internalNumber"], row["cai"], row["partnerTaxId"], row["partnerName"],
            row["typeName"]) == (first["number"], first["number"], first["cai"]["cai"], "08019001234567",
                                 "Cliente Uno", "Factura")

    purchases = api.get("/reports/purchase-book?startDate=2026-11-01&endDate=2026-11-30", key=shop.key).json
    assert [(r["documentId"], r["number"], r["internalNumber"], r["cai"], r["taxed15"], r["isv15"], r["total"])
            for r in purchases["rows"]] == [
        (purchase["id"], "002-001-01-00004567", purchase["number"], SUPPLIER_CAI, 60, 9, 69)]
    assert purchases["totals"]["total"] == 69

    summary = api.get("/reports/isv-summary?month=2026-11", key=shop.key).json
    # output 15 + 9 = 24; input 9; nothing brought forward: 15 due, of which the customer's 4.50
    # is withheld: 10.50 to pay; the 2.00 of income tax is not ISV; 1.35 withheld by us to remit
    assert {name: summary[name] for name in ("outputTax", "inputTax", "creditBroughtForward", "withholdingsReceived",
                                             "taxPayable", "withholdingsUnapplied", "creditCarriedForward",
                                             "withholdingsMade")} == {
        "outputTax": 24, "inputTax": 9, "creditBroughtForward": 0, "withholdingsReceived": Decimal("4.50"),
        "taxPayable": Decimal("10.50"),
        "withholdingsUnapplied": 0, "creditCarriedForward": 0, "withholdingsMade": Decimal("1.35")}
    assert summary["sales"] == sales["totals"] and summary["purchases"] == purchases["totals"]

    exported = api.http.request("GET", "/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30",
                                headers={"authorization": f"Bearer {shop.key}", "accept": "text/csv"}, body=b"")
    table = list(csv.reader(io.StringIO(exported.body.decode("utf-8-sig"))))
    assert table[0][:7] == ["Fecha", "Tipo", "Número", "CAI", "RTN", "Nombre", "Estado"]
    # the exonerated buyer's registers (OCE, registro de exonerado, SAG) follow the exonerated amount
    assert table[0][7:10] == ["Exento", "Exonerado", "Exoneración (OCE / registro / SAG)"]
    assert table[4][6] == "ANULADO" and table[3][10] == "-100.00" and table[2][7:9] == ["20.00", "40.00"]
    assert table[-1][5:] == ["Totales", "", "20.00", "40.00", "", "100.00", "50.00", "15.00", "9.00", "234.00"]
    assert table[3][7] == "0.00"  # a credit note's empty columns are 0.00, not -0.00
    answer = api.get("/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30", key=shop.key).text
    assert re.search(r":-0(\.0+)?[,}]", answer) is None

    # the PDF: a landscape page (seven amount columns), every row (it was a 500 with rows: too wide)
    printed = api.http.request("GET", "/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30",
                               headers={"authorization": f"Bearer {shop.key}", "accept": "application/pdf"}, body=b"")
    assert printed.status_code == 200, printed.body[:300]
    SAMPLES.mkdir(parents=True, exist_ok=True)
    (SAMPLES / "libro-de-ventas-hn.pdf").write_bytes(printed.body)  # to look at
    reader = PdfReader(io.BytesIO(printed.body))
    page = reader.pages[0]
    assert page.mediabox.width > page.mediabox.height
    text = "".join(p.extract_text() for p in reader.pages)
    assert "Libro de ventas" in text and first["number"] in text and "ANULADO" in text and "234.00" in text

    # the invoice itself shows the exonerated amount apart
    invoice = PdfReader(io.BytesIO(api.http.request("POST", f"/documents/{mixed['id']}/print", body=b"{}", headers={
        "authorization": f"Bearer {shop.key}", "accept": "application/pdf", "content-type": "application/json"}).body))
    assert re.search(r"Importe exonerado:?\s*L?\s*40\.00", invoice.pages[0].extract_text())


def test_fiscal_fields_belong_to_their_document_types(api, company_a):
    shop = Shop(api, company_a)

    def refused(body: dict, field: str) -> None:
        reply = api.post("/documents", {"businessPartnerId": shop.customer, "date": "2026-11-02",
                                        "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 10}],
                                        **body}, key=shop.key)
        assert (reply.status, reply.json["details"][0]["field"]) == (400, field), reply.text

    refused({"type": "01", "supplierCai": SUPPLIER_CAI}, "supplierCai")
    refused({"type": "01", "supplierDocumentNumber": "1"}, "supplierDocumentNumber")
    refused({"type": "01", "withholding": {"tax": "isv", "side": "sales"}}, "withholding")
    refused({"type": "05", "withholding": {"tax": "isv", "side": "purchases"}}, "withholding.side")  # a customer
    refused({"type": "01", "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 10, "taxRate": 0.15,
                                      "taxTreatment": "exonerated"}]}, "lines[0].taxRate")
    refused({"type": "01", "lines": [{"description": "x", "quantity": 1, "unitPrice": 10,
                                      "taxTreatment": "taxed"}]}, "lines[0].taxTreatment")
    refused({"type": "01", "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 10,
                                      "taxRate": 0.13}]}, "lines[0].taxRate")  # El Salvador's rate
    refused({"type": "05", "withholding": {"tax": "iva", "side": "sales"}}, "withholding.tax")  # El Salvador's
    refused({"type": "05", "lines": [{"description": "Retención", "quantity": 1, "unitPrice": 5, "taxRate": 0.15}]},
            "lines[0].taxRate")  # a certificate's lines are amounts withheld, not sales
    untaxed = shop.document("05", [(shop.service, 1, 5)], withholding={"tax": "isv", "side": "sales"})
    assert (untaxed["total"], untaxed["lines"][0]["taxRate"]) == (5, 0)  # not the service's 15 %
    # a certificate of a withholding on purchases does not pay a sale
    certificate = shop.document("05", [(None, 1, 5)], partner=shop.supplier,
                                withholding={"tax": "isv", "side": "purchases"})
    both = shop.created("/business-partners", {"name": "Ambos", "type": "both"})["id"]
    invoice = shop.document("01", [(shop.service, 1, 100)], partner=both)
    applied = api.post(f"/payments/documents/{invoice['id']}/payments",
                       {"withholdingDocumentId": certificate["id"], "amount": 5}, key=shop.key)
    assert (applied.status, applied.json["details"][0]["field"]) == (400, "withholdingDocumentId")
    # a draft purchase keeps, changes and clears the supplier's number
    draft = shop.document("103", [(shop.product, 1, 10)], status="draft", supplierDocumentNumber="A-1")
    assert draft["supplierDocumentNumber"] == "A-1"
    changed = api.put(f"/documents/{draft['id']}", {"supplierDocumentNumber": None, "supplierCai": SUPPLIER_CAI},
                      key=shop.key).json
    assert (changed.get("supplierDocumentNumber"), changed["supplierCai"]) == (None, SUPPLIER_CAI)


def test_a_month_reads_only_that_month_and_other_countries_are_refused(api, calls, company_a, company_b):  # noqa: F811
    shop = Shop(api, company_a)
    for day in range(1, 11):
        shop.document("01", [(shop.service, 1, 100)], date=f"2026-10-{day:02d}")
    shop.document("01", [(shop.service, 1, 100)], date="2026-11-02")
    path = "/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30"
    # the company; the month's documents and the month's corrections (documents reversed later); partners
    assert measure(calls, lambda: api.get(path, key=shop.key)) == Counter({"GetItem": 1, "Query": 2,
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


def test_a_month_once_booked_keeps_its_book_when_a_document_is_reversed_later(api, company_a):
    """A credit note of October cancelled in November, and an October purchase invoice unconfirmed in
    November and confirmed again changed: October's books stay as they were, November's carry the
    reversals, and each month's ISV agrees with the ISV accounts' movements of that month."""
    shop = Shop(api, company_a)
    invoice = shop.document("01", [(shop.service, 2, 100)], date="2026-10-02")        # ISV 30
    note = shop.document("06", [(shop.service, 1, 100)], sourceDocumentId=invoice["id"],
                         date="2026-10-20")                                           # ISV -15
    purchase = shop.document("103", [(shop.product, 1, 60)], date="2026-10-05")        # ISV 9
    october_before = {path: api.get(f"/reports/{path}?startDate=2026-10-01&endDate=2026-10-31", key=shop.key).json
                      for path in ("sales-book", "purchase-book")}
    shop.action(note["id"], "cancel", {"reason": "mal emitida", "date": "2026-11-03"})
    shop.action(purchase["id"], "unconfirm", {"date": "2026-11-04"})
    shop.api.put(f"/documents/{purchase['id']}", {"lines": [{"productId": shop.product, "quantity": 1,
                                                            "unitPrice": 80}]}, key=shop.key)
    shop.action(purchase["id"], "confirm")                                            # October again: ISV 12

    october = {path: api.get(f"/reports/{path}?startDate=2026-10-01&endDate=2026-10-31", key=shop.key).json
               for path in ("sales-book", "purchase-book")}
    assert october["sales-book"] == october_before["sales-book"]
    # the purchase as booked (60) stays, and its new confirmation (80) is October's too
    assert [(r["documentId"], r["status"], r["taxed15"]) for r in october["purchase-book"]["rows"]] == [
        (purchase["id"], "confirmed", 60), (purchase["id"], "confirmed", 80)]
    november = {path: api.get(f"/reports/{path}?startDate=2026-11-01&endDate=2026-11-30", key=shop.key).json
                for path in ("sales-book", "purchase-book")}
    assert [(r["documentId"], r["date"], r["status"], r["number"], r["taxed15"], r["isv15"], r["total"])
            for r in november["sales-book"]["rows"]] == [
        (note["id"], "2026-11-03", "reversal", note["number"], 100, 15, 115)]
    assert [(r["documentId"], r["status"], r["taxed15"], r["isv15"])
            for r in november["purchase-book"]["rows"]] == [(purchase["id"], "reversal", -60, -9)]

    # each month's ISV figures agree with that month's movements of the ISV accounts
    def isv_movement(code: str, start: str, end: str) -> Decimal:
        account = next(a for a in api.get("/chart-of-accounts", key=shop.key).json["accounts"] if a["code"] == code)
        ledger = api.get(f"/journal-entries/ledger?chartOfAccountId={account['id']}&startDate={start}&endDate={end}",
                         key=shop.key).json
        return Decimal(str(ledger["totalCredit"])) - Decimal(str(ledger["totalDebit"]))

    for month, start, end in (("2026-10", "2026-10-01", "2026-10-31"), ("2026-11", "2026-11-01", "2026-11-30")):
        summary = api.get(f"/reports/isv-summary?month={month}", key=shop.key).json
        assert summary["outputTax"] == isv_movement("210201", start, end), month
        assert summary["inputTax"] == -isv_movement("110401", start, end), month
    printed = api.http.request("GET", "/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30", body=b"",
                               headers={"authorization": f"Bearer {shop.key}", "accept": "text/csv"})
    assert "REVERSIÓN" in printed.body.decode("utf-8-sig")
