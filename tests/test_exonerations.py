"""Honduras: a sale to an exonerated buyer carries its registers (orden de compra exenta,
constancia de registro de exonerado, registro de la SAG), prints them where SAR's invoice format
has them, lists them in the sales book beside the exonerated amount, and its lines carry no ISV."""
from __future__ import annotations

import csv
import io
import json

from pypdf import PdfReader

from tests.documents_support import Shop

REGISTERS = {"purchaseOrderNumber": "OCE-2026-000123", "registryNumber": "CRE-0456/2026", "sagNumber": "SAG-789"}


def _body(shop: Shop, **fields):
    return {"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-03", "lines": [
        {"productId": shop.product, "quantity": 2, "unitPrice": 100},                       # 15 % product: exonerated
        {"description": "Libro", "quantity": 1, "unitPrice": 50, "taxTreatment": "exempt"},  # exempt whoever buys
    ], **fields}


def _print(shop: Shop, document_id: int, template: int = 1) -> str:
    """`template` 1 the letter invoice, 2 the 80 mm ticket."""
    body = json.dumps({"templateId": template}).encode()
    reply = shop.api.http.request("POST", f"/documents/{document_id}/print", body=body, headers={
        "authorization": f"Bearer {shop.key}", "accept": "application/pdf", "content-type": "application/json"})
    assert reply.status_code == 200
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(reply.body)).pages)


def test_an_exonerated_invoice_prints_and_books_its_registers_and_carries_no_isv(api, company_a):
    shop = Shop(api, company_a)
    shop.document("103", [(shop.product, 5, 60)], date="2026-11-01")
    reply = api.post("/documents", _body(shop, exoneration=REGISTERS), key=shop.key)
    assert reply.status == 201, reply.text
    invoice = reply.json
    # 2 x 100 = 200.00 exonerated (no 15 % ISV: 30.00 not charged) + 50.00 exempt = 250.00, tax 0
    assert [(line["taxTreatment"], line["taxRate"], line["tax"]) for line in invoice["lines"]] == \
        [("exonerated", 0, 0), ("exempt", 0, 0)]
    assert (invoice["subtotal"], invoice["taxTotal"], invoice["total"]) == (250, 0, 250)
    assert shop.get(invoice["id"])["exoneration"] == REGISTERS

    printed = _print(shop, invoice["id"])
    assert "No. Correlativo de orden de compra exenta: OCE-2026-000123" in printed
    assert "No. Correlativo de constancia de registro exonerado: CRE-0456/2026" in printed
    assert "No. identificativo del registro de la SAG: SAG-789" in printed
    assert "Importe exonerado" in printed and "200.00" in printed

    book = api.get("/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30", key=shop.key).json
    row = next(row for row in book["rows"] if row["documentId"] == invoice["id"])
    assert (row["exonerated"], row["exempt"], row["taxed15"], row["isv15"], row["total"]) == (200, 50, 0, 0, 250)
    assert {name: row[name] for name in REGISTERS} == REGISTERS
    exported = api.http.request("GET", "/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30",
                                headers={"authorization": f"Bearer {shop.key}", "accept": "text/csv"}, body=b"")
    table = list(csv.reader(io.StringIO(exported.body.decode("utf-8-sig"))))
    exonerated = table[0].index("Exonerado")
    line = next(cells for cells in table if cells[2] == invoice["number"])
    assert line[exonerated - 1:exonerated + 3] == [
        "50.00", "200.00", "OCE OCE-2026-000123; Registro CRE-0456/2026; SAG SAG-789", "0.00"]


def test_a_plain_invoice_keeps_the_three_places_blank(api, company_a):
    shop = Shop(api, company_a)
    shop.document("103", [(shop.product, 5, 60)], date="2026-11-01")
    invoice = shop.document("01", date="2026-11-03")
    assert invoice["exoneration"] is None and invoice["taxTotal"] == 15
    assert "No. identificativo del registro de la SAG:" in _print(shop, invoice["id"])


def test_a_draft_changes_or_drops_its_exoneration(api, company_a):
    shop = Shop(api, company_a)
    draft = shop.document("01", [(shop.product, 1, 100)], status="draft", exoneration={"sagNumber": "SAG-1"})
    none = dict.fromkeys(REGISTERS)
    assert (draft["exoneration"], draft["taxTotal"]) == ({**none, "sagNumber": "SAG-1"}, 0)
    changed = api.put(f"/documents/{draft['id']}", {"exoneration": {"registryNumber": "CRE-9"}}, key=shop.key)
    assert changed.status == 200, changed.text
    assert changed.json["exoneration"] == {**none, "registryNumber": "CRE-9"}
    # dropped without its lines: refused, the draft as it was (its line exonerated, no ISV)
    refused = api.put(f"/documents/{draft['id']}", {"exoneration": None}, key=shop.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "lines"), refused.text
    kept = shop.get(draft["id"])
    assert (kept["exoneration"], kept["taxTotal"], kept["version"]) == (changed.json["exoneration"], 0,
                                                                        changed.json["version"])
    # dropped, with the lines sent again: taxed at the product's 15 % (100 x 0.15 = 15.00)
    dropped = api.put(f"/documents/{draft['id']}", {"exoneration": None, "lines": [
        {"productId": shop.product, "quantity": 1, "unitPrice": 100}]}, key=shop.key)
    assert dropped.status == 200, dropped.text
    assert (dropped.json["exoneration"], dropped.json["taxTotal"], dropped.json["total"]) == (None, 15, 115)


def test_bad_exonerations_are_refused_and_change_nothing(api, company_a, company_b):
    shop = Shop(api, company_a)

    def count() -> int:
        return api.get("/documents", key=shop.key).json["total"]

    before = count()
    cases = [
        (_body(shop, exoneration={}), "exoneration"),
        (_body(shop, exoneration={"sagNumber": None}), "exoneration"),
        (_body(shop, exoneration={"sagNumber": "<b>1</b>"}), "exoneration.sagNumber"),
        (_body(shop, exoneration={"registryNumber": "9" * 41}), "exoneration.registryNumber"),
        (_body(shop, exoneration={"rtn": "0801"}), "exoneration.rtn"),
        ({**_body(shop, exoneration=REGISTERS), "lines": [
            {"productId": shop.product, "quantity": 1, "unitPrice": 10, "taxTreatment": "taxed"}]},
         "lines[0].taxTreatment"),
        ({**_body(shop, exoneration=REGISTERS), "lines": [
            {"description": "x", "quantity": 1, "unitPrice": 10, "taxRate": 0.15}]}, "lines[0].taxTreatment"),
        ({**_body(shop, exoneration=REGISTERS), "type": "103", "businessPartnerId": shop.supplier}, "exoneration"),
        ({**_body(shop, exoneration=REGISTERS), "type": "05", "withholding": {"tax": "isv", "side": "sales"},
          "lines": [{"description": "ISV retenido", "quantity": 1, "unitPrice": 10}]}, "exoneration"),
    ]
    for body, field in cases:
        reply = api.post("/documents", body, key=shop.key)
        assert reply.status == 400, (field, reply.text)
        assert field in [detail["field"] for detail in reply.json.get("details") or []], (field, reply.text)
    spanish = api.post("/documents", cases[0][0], key=shop.key, headers={"Accept-Language": "es"})
    assert "indique al menos uno" in spanish.json["details"][0]["message"]
    assert count() == before

    salvadoran = Shop(api, company_b, country="SV")
    reply = api.post("/documents", _body(salvadoran, exoneration=REGISTERS), key=salvadoran.key)
    assert reply.status == 400 and reply.json["details"][0]["field"] == "exoneration", reply.text


def test_notes_of_an_exonerated_invoice_follow_its_exoneration(api, company_a):
    shop = Shop(api, company_a)
    shop.document("103", [(shop.product, 5, 60)], date="2026-11-01")
    invoice = shop.document("01", [(shop.product, 2, 100)], date="2026-11-03", exoneration=REGISTERS)
    # 2 x 100 = 200.00 exonerated, no ISV

    def note(doc_type: str, quantity: int, **fields) -> dict:
        return {"type": doc_type, "businessPartnerId": shop.customer, "date": "2026-11-04",
                "sourceDocumentId": invoice["id"], **fields,
                "lines": [{"productId": shop.product, "quantity": quantity, "unitPrice": 100}]}

    # a credit note of 1 chair without registers of its own: 1 x 100 = 100.00 exonerated, the
    # product's 15 % not credited (15.00 of ISV never charged), total 100.00
    reply = api.post("/documents", note("06", 1), key=shop.key)
    assert reply.status == 201, reply.text
    credit = reply.json
    assert [(line["taxTreatment"], line["taxRate"], line["tax"]) for line in credit["lines"]] == [("exonerated", 0, 0)]
    assert (credit["subtotal"], credit["taxTotal"], credit["total"]) == (100, 0, 100)
    assert credit["exoneration"] == REGISTERS
    # null (a form's blank registers) follows the invoice too: 1 x 100 debited, no ISV
    debit = api.post("/documents", note("07", 1, exoneration=None), key=shop.key)
    assert debit.status == 201, debit.text
    assert (debit.json["exoneration"], debit.json["taxTotal"], debit.json["total"]) == (REGISTERS, 0, 100)
    # a note that sends its own registers keeps them
    own = api.post("/documents", note("07", 1, exoneration={"sagNumber": "SAG-2"}), key=shop.key)
    assert own.status == 201, own.text
    assert own.json["exoneration"] == {**dict.fromkeys(REGISTERS), "sagNumber": "SAG-2"}
    # a taxed line on a note of an exonerated invoice would charge or credit ISV the sale never carried
    taxed = note("06", 1)
    taxed["lines"][0]["taxTreatment"] = "taxed"
    refused = api.post("/documents", taxed, key=shop.key)
    assert refused.status == 400 and refused.json["details"][0]["field"] == "lines[0].taxTreatment", refused.text

    printed = _print(shop, credit["id"])
    assert "No. Correlativo de orden de compra exenta: OCE-2026-000123" in printed
    assert "No. identificativo del registro de la SAG: SAG-789" in printed
    book = api.get("/reports/sales-book?startDate=2026-11-01&endDate=2026-11-30", key=shop.key).json
    row = next(row for row in book["rows"] if row["documentId"] == credit["id"])
    # a credit note counts against the month: -100.00 exonerated, no ISV
    assert (row["exonerated"], row["taxed15"], row["isv15"], row["total"]) == (-100, 0, 0, -100)
    assert {name: row[name] for name in REGISTERS} == REGISTERS


def test_a_draft_note_given_another_invoice_takes_its_treatment(api, company_a):
    shop = Shop(api, company_a)
    shop.document("103", [(shop.product, 5, 60)], date="2026-11-01")
    exonerated = shop.document("01", date="2026-11-03", exoneration={"registryNumber": "CRE-1"})
    plain = shop.document("01", date="2026-11-03")
    draft = shop.document("06", status="draft", sourceDocumentId=exonerated["id"], date="2026-11-04")
    assert (draft["exoneration"]["registryNumber"], draft["taxTotal"]) == ("CRE-1", 0)
    # moved to the plain invoice, its line sent again: taxed at 15 %, 100 x 0.15 = 15.00
    moved = api.put(f"/documents/{draft['id']}", {"sourceDocumentId": plain["id"], "lines": [
        {"productId": shop.product, "quantity": 1, "unitPrice": 100}]}, key=shop.key)
    assert moved.status == 200, moved.text
    assert (moved.json["exoneration"], moved.json["taxTotal"], moved.json["total"]) == (None, 15, 115)


def test_the_ticket_prints_the_registers_given(api, company_a):
    shop = Shop(api, company_a)
    shop.document("103", [(shop.product, 5, 60)], date="2026-11-01")
    invoice = shop.document("01", date="2026-11-03", exoneration={"purchaseOrderNumber": "OCE-7", "sagNumber": "SAG-8"})
    printed = _print(shop, invoice["id"], template=2)
    assert "Orden compra exenta: OCE-7" in printed and "Registro SAG: SAG-8" in printed
    assert "Constancia exonerado" not in printed  # not given: a ticket has no room for blanks
    # 1 x 100 exonerated, no ISV: total 100.00
    assert "Importe exonerado 100.00" in printed and "TOTAL (HNL) 100.00" in printed
    plain = shop.document("01", date="2026-11-03")
    assert "Registro SAG" not in _print(shop, plain["id"], template=2)
