"""Honduras: every document SAR numbers (Factura, Notas de Crédito y Débito, Guía de Remisión, the
Comprobante de Retención the company issues) takes its number from an active CAI range, or is
refused naming the series that has none; the migration reports the documents an earlier version
numbered without one (issue 38)."""
from __future__ import annotations

from chalicelib.store import keys
from infra.ops.migrations import documents_numbered_without_cai
from tests.documents_support import CAI, Shop


def _branch_with_invoices_only(shop: Shop) -> int:
    """A second establishment (002) whose only CAI range is the invoices'."""
    branch = shop.created("/branch", {"name": "Sucursal Norte", "code": "002"})
    shop.created("/cai", {"cai": CAI, "branchId": branch["id"], "emissionPoint": "001", "documentType": "01",
                          "rangeStart": 1, "rangeEnd": 100, "deadline": "2099-12-31"})
    return branch["id"]


def test_a_credit_note_without_an_active_range_is_refused_naming_the_series(api, table, company_a):
    shop = Shop(api, company_a)
    branch = _branch_with_invoices_only(shop)
    invoice = shop.document("01", [(shop.service, 1, 50)], branchId=branch)
    assert invoice["number"] == "002-001-01-00000001" and invoice["cai"]["cai"] == CAI
    body = {"type": "06", "businessPartnerId": shop.customer, "date": shop.default_date, "branchId": branch,
            "sourceDocumentId": invoice["id"], "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 10}]}
    before = api.get("/documents?limit=100", key=shop.key).json["total"]
    refused = api.post("/documents", body, key=shop.key, headers={"accept-language": "es"})
    assert refused.status == 400, refused.text
    assert refused.json["code"] == "CAI_MISSING"
    # the series: establishment 002, any emission point, SAR's code 06 (Nota de Crédito)
    assert refused.json["message"] == (
        "No hay un rango CAI activo para el tipo de documento 06 (serie 002-PPP-06) en la sucursal 002, en ningún "
        "punto de emisión: registre un rango autorizado (POST /cai) antes de emitirlo.")
    assert api.get("/documents?limit=100", key=shop.key).json["total"] == before  # nothing written
    # a debit note and a guía de remisión likewise
    without_source = {name: value for name, value in body.items() if name != "sourceDocumentId"}
    for document_type, sent in (("07", body), ("112", without_source)):
        reply = api.post("/documents", {**sent, "type": document_type}, key=shop.key)
        assert (reply.status, reply.json["code"]) == (400, "CAI_MISSING"), (document_type, reply.text)
    # with the range registered, the note takes its number and its CAI
    shop.created("/cai", {"cai": CAI, "branchId": branch, "emissionPoint": "001", "documentType": "06",
                          "rangeStart": 1, "rangeEnd": 100, "deadline": "2099-12-31"})
    note = api.post("/documents", body, key=shop.key)
    assert note.status == 201, note.text
    assert note.json["number"] == "002-001-06-00000001" and note.json["cai"]["cai"] == CAI


def test_an_inactive_range_is_named_by_its_emission_point(api, company_a):
    shop = Shop(api, company_a)
    invoice = shop.document("01", [(shop.service, 1, 50)])
    assert api.put(f"/cai/{shop.cai_ranges['06']['id']}", {"isActive": False}, key=shop.key).status == 200
    reply = api.post("/documents", {"type": "06", "businessPartnerId": shop.customer, "sourceDocumentId": invoice["id"],
                                    "date": shop.default_date,
                                    "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 10}]},
                     key=shop.key, headers={"accept-language": "en"})
    assert reply.status == 400 and reply.json["message"] == (
        "No active CAI range for document type 06 (series 001-PPP-06) at branch 001, emission point 001: register "
        "an authorized range (POST /cai) before issuing it.")


def test_only_the_withholding_certificate_the_company_issues_needs_its_cai(api, company_a):
    shop = Shop(api, company_a)
    branch = _branch_with_invoices_only(shop)
    # a customer's certificate carries the customer's CAI: the company records it without one of its own
    received = shop.document("05", [(None, 1, 3)], withholding={"tax": "isv", "side": "sales"}, branchId=branch)
    assert received["number"] == "002-001-05-00000001" and received["cai"] is None
    issued = shop.document("05", [(None, 1, 3)], withholding={"tax": "isv", "side": "purchases"},
                           partner=shop.supplier, branchId=branch, expect=400)
    assert issued["code"] == "CAI_MISSING"


def test_the_migration_reports_documents_numbered_without_a_cai_and_changes_nothing(api, table, company_a):
    shop = Shop(api, company_a)
    invoice = shop.document("01", [(shop.service, 1, 50)])
    note = shop.document("06", [(shop.service, 1, 10)], sourceDocumentId=invoice["id"])
    quote = shop.document("100", status="confirmed")  # SAR does not number quotes: never reported
    assert documents_numbered_without_cai(table) == 0
    # the credit note as an earlier version numbered it: from the type's sequence, no CAI
    key = keys.document(company_a.company_id, note["id"])
    table.client.update_item(TableName=table.name, Key={"PK": {"S": key["PK"]}, "SK": {"S": key["SK"]}},
                             UpdateExpression="REMOVE cai")
    before = table.get(key)
    assert documents_numbered_without_cai(table) == 1
    assert documents_numbered_without_cai(table) == 1  # a report: run again, the same
    assert table.get(key) == before  # nothing renumbered
    assert shop.get(note["id"])["number"] == note["number"] and quote["number"]
