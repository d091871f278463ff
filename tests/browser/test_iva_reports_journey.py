"""El Salvador's three IVA books and the home page's charts through the console, for a fresh SV
company issuing DTEs to the stack's stand-in authority: what each book's page shows equals the
API's answer, its download opens with its totals, in Spanish and in English."""
from __future__ import annotations

import contextlib
import re
import uuid
from decimal import Decimal
from urllib.parse import urlencode

from tests.browser.reports_support import (
    IVA_AMOUNTS,
    check_home,
    check_rows,
    dec,
    document_row,
    downloaded,
    last_months,
    month_end,
    month_start,
    switch_language,
    today,
    visit,
)


@contextlib.contextmanager
def salvadoran_company(console, demo, stack, name: str):
    """A new El Salvador company that issues DTEs to the stack's tax authority (its stand-in), the
    console switched to it; the demo company again afterwards."""
    from infra.devstack.dte_authority import register_taxpayer
    from tests.documents_support import SV_COMPANY_NIT, SV_ISSUER
    from tests.dte_keys import SIGNING_KEY

    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    status, _, company = console.as_session("POST", "/companies", {
        "name": name, "country": "SV", "currency": "USD", "taxId": SV_COMPANY_NIT, "phone": "2222-3333",
        "address": "Calle Arce 123, San Salvador", "email": "facturas@informes.example", "dteIssuer": SV_ISSUER})
    assert status == 201, company
    try:
        console.page.reload()
        console.wait_loaded()
        console.switch_company(company["id"])
        for method, path, body in (("POST", "/chart-of-accounts/import-default", None),
                                   ("PUT", f"/companies/{company['id']}/dte-signing-key", {"privateKey": SIGNING_KEY}),
                                   ("PUT", f"/companies/{company['id']}/dte-authority-credentials",
                                    {"password": "clave-informes"})):
            status, _, answer = console.as_session(method, path, body)
            assert status in (200, 201), answer
            if path.endswith("dte-signing-key"):
                public_key = answer["publicKey"]
        authority = re.search(r"El Salvador's tax authority: (\S+)", stack.read_log()).group(1)
        register_taxpayer(authority, SV_COMPANY_NIT.replace("-", ""), "clave-informes", public_key)
        yield company
    finally:
        console.as_session("POST", "/auth/switch-company", {"companyId": demo["companyId"]})


def test_iva_books_and_home_of_a_salvadoran_company(console, demo, stack):
    tag = uuid.uuid4().hex[:6]
    page, day = console.page, today()
    with salvadoran_company(console, demo, stack[0], f"Informes {tag} S.A. de C.V."):
        def made(body: dict, path: str = "/documents") -> dict:
            status, _, answer = console.as_session("POST", path, body)
            assert status == 201, answer
            return answer

        consumer = made({"name": f"Cliente final {tag}", "type": "customer"}, "/business-partners")
        taxpayer = made({"name": f"Empresa {tag} SA de CV", "type": "customer", "taxId": "06140101901015",
                         "nrc": "123456-7", "economicActivityCode": "62010",
                         "economicActivity": "Programación informática", "department": "06", "municipality": "14",
                         "address": "Colonia Escalón, San Salvador", "email": "compras@empresa.example"},
                        "/business-partners")
        supplier = made({"name": f"Proveedor {tag}", "type": "supplier", "nrc": "765432-1",
                         "taxId": "06140202902020"}, "/business-partners")
        line = lambda price: [{"description": "Servicio", "quantity": 1, "unitPrice": price, "taxRate": 0.13}]  # noqa: E731
        made({"type": "01", "businessPartnerId": consumer["id"], "lines": line(100)})     # a factura: 113.00
        made({"type": "01", "businessPartnerId": taxpayer["id"], "lines": line(200)})     # a crédito fiscal: 226.00
        made({"type": "103", "businessPartnerId": supplier["id"], "date": month_start(day, 1).replace(day=5).isoformat(),
              "supplierDocumentNumber": "DTE-03-00010001-000000000000123", "lines": line(60)})  # 67.80

        months = last_months(day)
        period = {"startDate": f"{months[0]}-01", "endDate": day.isoformat()}
        books = {path: console.as_session("GET", f"/reports/{path}?{urlencode(period)}")[2] for path in IVA_AMOUNTS}
        monthly = {month: [Decimal(0), Decimal(0)] for month in months}
        for path, book in books.items():
            for row in book["rows"]:
                monthly[row["date"][:7]][path == "iva-purchases"] += dec(row["total"])
        assert monthly[day.isoformat()[:7]] == [Decimal("339"), Decimal(0)]

        console.goto("/")
        nav = page.text_content(".sidebar")
        assert "IVA: compras" in nav and "Libro de ventas" not in nav
        check_home(console, {month: tuple(figures) for month, figures in monthly.items()})
        console.shot("home-sv-es")

        this_and_last = {"startDate": month_start(day, 1).isoformat(), "endDate": month_end(day).isoformat()}
        for language in ("es", "en"):
            if language == "en":
                switch_language(console, "en")
            for path, formats, label in (("iva-sales-consumers", ("csv",), "Totales"),
                                         ("iva-sales-taxpayers", ("xlsx",), "Totales"),
                                         ("iva-purchases", ("pdf",), "Totales")):
                report = visit(console, f"/reports/{path}", this_and_last)
                assert len(report["rows"]) == 1, report
                check_rows(page, report, "rows", IVA_AMOUNTS[path],
                           (lambda row: f"tr[data-date='{row['date']}']") if path == "iva-sales-consumers"
                           else document_row)
                console.shot(f"{path}-{language}")
                if language == "es":
                    stem = {"iva-sales-consumers": "libro-iva-consumidor-final",
                            "iva-sales-taxpayers": "libro-iva-contribuyentes", "iva-purchases": "libro-iva-compras"}[path]
                    downloaded(console, f"{stem}-{this_and_last['startDate']}-{this_and_last['endDate']}", label,
                               [dec(report["totals"][name]) for name in IVA_AMOUNTS[path]], formats)
        console.goto("/")
        check_home(console, {month: tuple(figures) for month, figures in monthly.items()})
        console.shot("home-sv-en")
        switch_language(console, "es")
    assert not console.errors
