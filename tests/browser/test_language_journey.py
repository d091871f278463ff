"""Issue 38, point 8: one language per screen. A bank account's movements and the sales book of a
Honduran company seen in Spanish and in English: a payment's movement reads "Pago de documento" /
"Document payment" (it read "Payment doc" in both), and the English sales book names its documents
in English ("Sales invoice"), not with the API's Spanish type names ("Factura")."""
from __future__ import annotations

import datetime
import uuid

from tests.browser.conftest import fresh_company
from tests.browser.reports_support import switch_language, today


def seed(console, tag: str) -> dict:
    def made(path: str, body: dict) -> dict:
        status, _, answer = console.as_session("POST", path, body)
        assert status == 201, (path, answer)
        return answer

    day = today()
    made("/cai", {"cai": "35A4E1-6C8E5B-2F49A3-0C6F26-2C3E5A-0B", "branchId": 1, "emissionPoint": "001",
                  "documentType": "01", "rangeStart": 1, "rangeEnd": 500,
                  "deadline": (day + datetime.timedelta(days=365)).isoformat()})
    customer = made("/business-partners", {"name": f"Comercial Lenca {tag}", "type": "customer",
                                           "taxId": "08011999012345"})
    invoice = made("/documents", {"type": "01", "status": "confirmed", "businessPartnerId": customer["id"],
                                  "date": day.isoformat(), "dueDate": day.isoformat(), "lines": [
                                      {"description": "Servicio", "quantity": 1, "unitPrice": 100, "taxRate": 0.15}]})
    chart = {a["code"]: a["id"] for a in console.as_session("GET", "/chart-of-accounts?limit=100&page=1")[2]["accounts"]}
    bank = made("/bank-accounts", {"name": f"Cuenta {tag}", "openingBalanceDate": day.replace(day=1).isoformat(),
                                   "chartOfAccountId": chart["110103"]})
    method = made("/payments/methods", {"name": f"Transferencia {tag}", "bankAccountId": bank["id"]})
    made(f"/payments/documents/{invoice['id']}/payments", {"paymentMethodId": method["id"], "amount": 115})
    return {"bank": bank, "invoice": invoice}


def test_movements_and_books_speak_one_language(console, demo):
    tag = uuid.uuid4().hex[:6]
    page = console.page
    with fresh_company(console, demo, f"Idiomas {tag} S.A."):
        seeded = seed(console, tag)
        month = today().isoformat()[:7]
        book = f"/reports/sales-book?startDate={month}-01&endDate={today().isoformat()}"
        for language, payment, invoice_type, foreign in (
                ("es", "Pago de documento", "Factura", ("Payment doc", "Document payment", "Sales invoice")),
                ("en", "Document payment", "Sales invoice", ("Payment doc", "Pago de documento", "Factura",
                                                             "Nota de crédito"))):
            switch_language(console, language)
            console.goto(f"/banking/{seeded['bank']['id']}")
            page.wait_for_selector(f"td:has-text('{payment}')")
            text = page.inner_text("main")
            assert not [word for word in foreign if word in text], text
            console.shot(f"movements-{language}")
            console.goto(book)
            page.wait_for_selector(".book .doc-number")
            cell = page.inner_text(".book .cell-note")
            assert cell.startswith(invoice_type), cell
            text = page.inner_text("main")
            assert not [word for word in foreign if word in text], text
            console.shot(f"sales-book-{language}")
        switch_language(console, "es")
    assert not console.errors
