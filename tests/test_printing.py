"""Report templates and PDF printing: the fiscal invoice's content (CAI, range, RTNs, ISV
breakdown, amount in words, Spanish letters intact), page breaks of long documents, the 80 mm
ticket, journal entries, template checks, tenant isolation and binary answers through every
layer (chalice.test, the local stack's gateway)."""
from __future__ import annotations

import base64
import io
import json
from decimal import Decimal

import pypdf
import pytest

from chalicelib.domain.amount_words import amount_in_words
from chalicelib.pdf import text
from tests.documents_support import CAI, Shop
from tests.support import ORIGIN, Books

PDF = "application/pdf"
POINTS_PER_MM = 72 / 25.4


@pytest.fixture
def shop(api, company_a) -> Shop:
    shop = Shop(api, company_a)
    reply = api.put(f"/companies/{company_a.company_id}", {"taxId": "08019999000001", "address": "Col. Palmira, Tegucigalpa"},
                    key=company_a.api_key)
    assert reply.status == 200, reply.text
    shop.spanish_customer = shop.created("/business-partners", {"name": "José Peña Muñoz", "type": "customer",
                                                                "taxId": "08011985123456"})["id"]
    shop.chair = shop.created("/products", {"code": "P-2", "name": "Silla ergonómica año 2026", "unitPrice": 1000,
                                            "taxRate": 0.15, "type": "service"})["id"]
    return shop


def print_pdf(api, path: str, key: str, body: dict | None = None, accept: str | None = PDF, **headers: str):
    """The raw answer (status, headers, bytes) of a print route."""
    sent = {"content-type": "application/json", "authorization": f"Bearer {key}", **headers}
    if accept is not None:
        sent["accept"] = accept
    return api.http.request("POST", path, headers=sent, body=json.dumps(body or {}).encode())


def pdf_text(content: bytes) -> tuple[pypdf.PdfReader, str]:
    reader = pypdf.PdfReader(io.BytesIO(content))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def test_report_templates_are_listed(api, company_a):
    reply = api.get("/report-templates", key=company_a.api_key)
    assert reply.status == 200, reply.text
    templates = {template["key"]: template for template in reply.json["reportTemplates"]}
    assert templates["invoice"] == {"id": 1, "key": "invoice", "name": "Documento fiscal (carta)",
                                    "resource": "document", "pageFormat": "letter"}
    assert (templates["ticket"]["id"], templates["ticket"]["resource"], templates["ticket"]["pageFormat"]) == \
        (2, "document", "roll-80mm")
    assert (templates["journal-entry"]["id"], templates["journal-entry"]["resource"]) == (3, "journal-entry")


def test_the_invoice_carries_the_fiscal_content_with_spanish_letters_intact(api, shop):
    invoice = shop.document("01", [(shop.chair, 1, "1234.56"), (None, 2, "10.25")], partner=shop.spanish_customer,
                            notes="Entrega en bodega; ¿dudas? ¡Llámenos!")
    reply = print_pdf(api, f"/documents/{invoice['id']}/print", shop.key)
    assert reply.status_code == 200, reply.body[:300]
    assert reply.headers["Content-Type"] == PDF
    assert reply.headers["Content-Disposition"] == f'inline; filename="{invoice["number"]}.pdf"'
    assert reply.body.startswith(b"%PDF")
    _, content = pdf_text(reply.body)
    cai = invoice["cai"]
    # issuer, CAI block, number and date, customer
    for expected in ("Alpha S. de R.L.", "RTN: 08019999000001", "Col. Palmira, Tegucigalpa", f"CAI: {CAI}",
                     f"{cai['rangeStart']} al {cai['rangeEnd']}", "Fecha límite de emisión: 31/12/2099",
                     "FACTURA", invoice["number"], "02/11/2026", "José Peña Muñoz", "08011985123456",
                     "Silla ergonómica año 2026", "Varios", "¿dudas? ¡Llámenos!",
                     "LA FACTURA ES BENEFICIO DE TODOS, ¡EXÍJALA!"):
        assert expected in content, expected
    # the line amounts and the ISV breakdown: 1234.56 at 15 %, 20.50 exempt
    assert "1,234.56" in content and "20.50" in content
    assert "Importe exento 20.50" in content and "Importe gravado 15 % 1,234.56" in content
    assert "ISV 15 % 185.18" in content and "ISV 18 % 0.00" in content and "Importe exonerado 0.00" in content
    total = Decimal(str(invoice["total"]))
    assert total == Decimal("1440.24")
    assert f"TOTAL A PAGAR (HNL) {text.money(total)}" in content
    assert f"SON: {amount_in_words(total, 'HNL')}" in content
    assert "UN MIL CUATROCIENTOS CUARENTA LEMPIRAS CON 24/100" in content


def test_text_beyond_the_fonts_is_spelled_with_the_closest_characters(api, shop):
    document = shop.document("01", [(None, 1, 5)], partner=shop.spanish_customer)
    reply = api.put(f"/business-partners/{shop.spanish_customer}", {"name": "Łukasz “Zoë” ≥ 中"}, key=shop.key)
    assert reply.status == 200
    printed = print_pdf(api, f"/documents/{document['id']}/print", shop.key)
    assert printed.status_code == 200
    assert "Lukasz “Zoë” >= ?" in pdf_text(printed.body)[1]


def test_a_200_line_invoice_breaks_into_pages_repeating_the_column_titles(api, shop):
    lines = [{"description": f"Artículo número {n} de la orden", "quantity": 1, "unitPrice": 10, "taxRate": 0.15}
             for n in range(1, 201)]
    reply = api.post("/documents", {"type": "01", "businessPartnerId": shop.spanish_customer, "date": "2026-11-02",
                                    "lines": lines}, key=shop.key)
    assert reply.status == 201, reply.text
    document = reply.json
    printed = print_pdf(api, f"/documents/{document['id']}/print", shop.key)
    assert printed.status_code == 200
    reader, content = pdf_text(printed.body)
    pages = [page.extract_text() for page in reader.pages]
    assert len(pages) >= 4
    for number, page in enumerate(pages, start=1):
        assert "Descripción Cantidad Precio unitario Descuento Total" in page, number
        assert f"Página {number} de {len(pages)}" in page
    for n in range(1, 201):  # every line once, none split or lost at a break
        assert content.count(f"Artículo número {n} de la orden") == 1, n
    assert "(continuación)" in pages[1] and document["number"] in pages[1]
    assert f"TOTAL A PAGAR (HNL) {text.money(Decimal(str(document['total'])))}" in pages[-1]
    assert "DOS MIL TRESCIENTOS LEMPIRAS CON 00/100" in pages[-1]


def test_the_ticket_is_an_80_mm_roll(api, shop):
    document = shop.document("01", [(shop.chair, 2, 100)], partner=shop.spanish_customer)
    printed = print_pdf(api, f"/documents/{document['id']}/print", shop.key, {"templateId": 2})
    assert printed.status_code == 200
    reader, content = pdf_text(printed.body)
    assert len(reader.pages) == 1
    width, height = (float(value) / POINTS_PER_MM for value in (reader.pages[0].mediabox.width,
                                                                  reader.pages[0].mediabox.height))
    assert width == pytest.approx(80, abs=0.01)
    assert 60 < height < 279  # as long as its content, shorter than a letter page
    for expected in (document["number"], f"CAI: {CAI}", "José Peña Muñoz", "Silla ergonómica año 2026",
                     "TOTAL (HNL) 230.00", "DOSCIENTOS TREINTA LEMPIRAS CON 00/100"):
        assert expected in content, expected


def test_a_draft_prints_stamped_without_a_number(api, shop):
    quote = shop.document("100", [(shop.chair, 1, 100)], partner=shop.spanish_customer)
    assert quote["status"] == "draft" and quote.get("number") is None
    printed = print_pdf(api, f"/documents/{quote['id']}/print", shop.key)
    assert printed.status_code == 200
    assert printed.headers["Content-Disposition"] == f'inline; filename="documento-{quote["id"]}.pdf"'
    content = pdf_text(printed.body)[1]
    assert "COTIZACIÓN" in content and "BORRADOR: SIN VALOR FISCAL" in content and "CAI:" not in content


def test_a_journal_entry_prints_its_accounts_and_totals(api, company_a):
    books = Books(api, company_a, full=False)
    entry = books.entry("2026-11-02", ("110101", "1500.75", 0), ("3101", 0, "1500.75"),
                        description="Aportación de capital del señor Núñez")
    printed = print_pdf(api, f"/journal-entries/{entry['id']}/print", company_a.api_key)
    assert printed.status_code == 200
    assert printed.headers["Content-Disposition"] == f'inline; filename="asiento-{entry["id"]}.pdf"'
    content = pdf_text(printed.body)[1]
    for expected in (f"ASIENTO CONTABLE No. {entry['id']}", "02/11/2026", "Contabilizado", "Manual",
                     "Aportación de capital del señor Núñez", "110101 Caja general", "3101 Capital social",
                     "Totales 1,500.75 1,500.75"):
        assert expected in content, expected
    with_template = print_pdf(api, f"/journal-entries/{entry['id']}/print", company_a.api_key, {"templateId": 3})
    assert with_template.status_code == 200 and with_template.body.startswith(b"%PDF")


def test_an_invoice_s_automatic_entry_prints(api, shop):
    invoice = shop.document("01", [(shop.chair, 1, 100)], partner=shop.spanish_customer)
    printed = print_pdf(api, f"/journal-entries/{invoice['journalEntryId']}/print", shop.key)
    assert printed.status_code == 200
    content = pdf_text(printed.body)[1]
    assert "Automático" in content and "110201 Clientes" in content and "Totales 115.00 115.00" in content


def test_templates_of_another_resource_or_unknown_ones_are_refused(api, shop):
    document = shop.document("01", [(shop.chair, 1, 100)])
    entry_id = document["journalEntryId"]
    cases = ((f"/documents/{document['id']}/print", {"templateId": 3}, "REPORT_TEMPLATE_MISMATCH"),
             (f"/journal-entries/{entry_id}/print", {"templateId": 1}, "REPORT_TEMPLATE_MISMATCH"),
             (f"/journal-entries/{entry_id}/print", {"templateId": 2}, "REPORT_TEMPLATE_MISMATCH"),
             (f"/documents/{document['id']}/print", {"templateId": 99}, "REPORT_TEMPLATE_NOT_FOUND"),
             (f"/journal-entries/{entry_id}/print", {"templateId": 4}, "REPORT_TEMPLATE_NOT_FOUND"),
             (f"/documents/{document['id']}/print", {"templateId": "1"}, "VALIDATION_ERROR"),
             (f"/documents/{document['id']}/print", {"templateId": 0}, "VALIDATION_ERROR"),
             (f"/documents/{document['id']}/print", {"template": 1}, "VALIDATION_ERROR"))
    for path, body, code in cases:
        reply = print_pdf(api, path, shop.key, body)
        assert reply.status_code == 400, (path, body)
        error = json.loads(reply.body)
        assert error["code"] == code, (path, body, error)
        assert error["details"][0]["field"] in ("templateId", "template")


def test_other_companies_documents_and_entries_are_not_found(api, shop, company_b):
    document = shop.document("01", [(shop.chair, 1, 100)])
    for path in (f"/documents/{document['id']}/print", f"/journal-entries/{document['journalEntryId']}/print",
                 "/documents/999/print", "/journal-entries/999/print", "/documents/abc/print"):
        key = company_b.api_key if "999" not in path else shop.key
        reply = print_pdf(api, path, key)
        assert reply.status_code == 404, path
        assert json.loads(reply.body)["code"] == "NOT_FOUND"


def test_a_print_needs_to_accept_a_pdf(api, shop):
    document = shop.document("01", [(shop.chair, 1, 100)])
    for accept in (None, "*/*", "application/json", "text/html, application/pdf"):
        reply = print_pdf(api, f"/documents/{document['id']}/print", shop.key, accept=accept)
        assert reply.status_code == 406, accept
        assert reply.headers["Content-Type"] == "application/json"
        assert json.loads(reply.body)["code"] == "NOT_ACCEPTABLE"
    accepted = print_pdf(api, f"/documents/{document['id']}/print", shop.key, accept="application/pdf, */*;q=0.1")
    assert accepted.status_code == 200 and accepted.body.startswith(b"%PDF")


def test_a_print_is_a_read_not_stored_for_idempotency_replays(api, shop, table):
    document = shop.document("01", [(shop.chair, 1, 100)])
    path = f"/documents/{document['id']}/print"
    first = print_pdf(api, path, shop.key, {"templateId": 1}, **{"idempotency-key": "print-1"})
    second = print_pdf(api, path, shop.key, {"templateId": 2}, **{"idempotency-key": "print-1"})
    assert (first.status_code, second.status_code) == (200, 200)
    assert "Idempotent-Replayed" not in second.headers
    assert table.get({"PK": f"C#{shop.company.company_id}#IDEM", "SK": "print-1"}) is None


def test_the_origin_check_applies_to_prints(api, shop):
    document = shop.document("01", [(shop.chair, 1, 100)])
    cookie = api.login(shop.company.email)
    path = f"/documents/{document['id']}/print"
    base = {"content-type": "application/json", "accept": PDF, "cookie": f"accessToken={cookie}"}
    refused = api.http.request("POST", path, headers={**base, "origin": "https://evil.example"}, body=b"{}")
    assert refused.status_code == 403 and json.loads(refused.body)["code"] == "CSRF_ORIGIN"
    allowed = api.http.request("POST", path, headers={**base, "origin": ORIGIN}, body=b"{}")
    assert allowed.status_code == 200 and allowed.body.startswith(b"%PDF")
    anonymous = api.http.request("POST", path, headers={"content-type": "application/json", "accept": PDF}, body=b"{}")
    assert anonymous.status_code == 401


def test_the_local_stack_gateway_sends_the_pdf_base64_encoded(api, shop):
    """The local stack's HTTP server decodes `isBase64Encoded` bodies (infra/devstack/local.py), as API
    Gateway does for binaryMediaTypes."""
    from app import app
    from infra.devstack.gateway import LocalApiGateway

    document = shop.document("01", [(shop.chair, 1, 100)])
    answer = LocalApiGateway(app).handle("POST", f"/documents/{document['id']}/print",
                                         {"content-type": "application/json", "accept": PDF,
                                          "authorization": f"Bearer {shop.key}"}, b"{}")
    assert answer["statusCode"] == 200 and answer["isBase64Encoded"] is True
    assert base64.b64decode(answer["body"]).startswith(b"%PDF")
    assert PDF in app.api.binary_types
