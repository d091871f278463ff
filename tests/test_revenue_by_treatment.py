"""Revenue by tax treatment (issue 44): an invoice's exempt lines post to `revenue_exempt`, its
exonerated lines to `revenue_exonerated` (the standard charts' "Ventas exentas" / "Ventas
exoneradas"), the taxed ones to `revenue`; a chart without those rules keeps posting to revenue."""
from __future__ import annotations

from decimal import Decimal as D

import pytest

from tests.documents_support import Shop


def line(amount, treatment, rate=None):
    return {"description": f"Venta {treatment}", "quantity": 1, "unitPrice": amount, "taxTreatment": treatment,
            **({"taxRate": rate} if rate is not None else {})}


THREE_LINES = [line(100, "taxed", 0.15), line(40, "exempt"), line(60, "exonerated")]


def invoice(shop, lines, **fields):
    body = {"type": "01", "businessPartnerId": shop.customer, "date": shop.default_date, "lines": lines, **fields}
    reply = shop.api.post("/documents", body, key=shop.key)
    assert reply.status == 201, reply.text
    return reply.json


@pytest.fixture
def standard_shop(api, company_a) -> Shop:
    return Shop(api, company_a, standard_chart=True)


def test_the_honduran_chart_posts_taxed_exempt_and_exonerated_sales_apart(standard_shop):
    shop = standard_shop
    sale = invoice(shop, THREE_LINES)
    # taxed 100.00 + ISV 15 % = 15.00; exempt 40.00 and exonerated 60.00 carry no ISV
    # total = 100.00 + 15.00 + 40.00 + 60.00 = 215.00
    assert D(str(sale["total"])) == D("215.00")
    assert shop.entry_lines(sale["journalEntryId"]) == {
        "110201": (D("215.00"), 0),          # Clientes
        "410101": (0, D("100.00")),          # Ventas gravadas
        "410102": (0, D("40.00")),           # Ventas exentas
        "410103": (0, D("60.00")),           # Ventas exoneradas
        "210201": (0, D("15.00"))}           # ISV por pagar


def test_a_credit_note_takes_every_return_to_the_returns_account(standard_shop):
    shop = standard_shop
    sale = invoice(shop, THREE_LINES)
    note = invoice(shop, [line(10, "exempt"), line(20, "exonerated")], type="06", sourceDocumentId=sale["id"])
    # returns of exempt 10.00 and exonerated 20.00: 30.00 on "Devoluciones y rebajas sobre ventas"
    # (the chart's rule for revenue on 06), as an export's returns are
    assert shop.entry_lines(note["journalEntryId"]) == {"4102": (D("30.00"), 0), "110201": (0, D("30.00"))}


def test_a_debit_note_follows_the_lines_treatment(standard_shop):
    shop = standard_shop
    sale = invoice(shop, THREE_LINES)
    note = invoice(shop, [line(5, "exempt"), line(7, "taxed", 0.15)], type="07", sourceDocumentId=sale["id"])
    # exempt 5.00; taxed 7.00 + 15 % = 1.05; total 13.05
    assert shop.entry_lines(note["journalEntryId"]) == {
        "110201": (D("13.05"), 0), "410102": (0, D("5.00")), "410101": (0, D("7.00")), "210201": (0, D("1.05"))}


def test_a_company_without_the_rules_keeps_posting_to_revenue(api, company_a):
    shop = Shop(api, company_a)  # a small chart made before issue 44: only `revenue`
    sale = invoice(shop, THREE_LINES)
    # 100.00 + 40.00 + 60.00 = 200.00 on Ventas gravadas (the fallback to `revenue`), in one line
    assert shop.entry_lines(sale["journalEntryId"]) == {
        "110201": (D("215.00"), 0), "410101": (0, D("200.00")), "210201": (0, D("15.00"))}


def test_the_charts_name_their_exempt_and_exonerated_sales_accounts():
    from chalicelib.countries.hn import chart as hn
    from chalicelib.countries.sv import chart as sv

    def rule(chart, operation):
        code = next(code for op, doc, code in chart.RULES if op == operation and doc is None)
        return code, next(name for account, name, *_ in chart.ACCOUNTS if account == code)

    assert rule(hn, "revenue_exempt") == ("410102", "Ventas exentas")
    assert rule(hn, "revenue_exonerated") == ("410103", "Ventas exoneradas")
    # El Salvador's DTE declares an exonerated sale among the exempt ones (ventaExenta)
    assert rule(sv, "revenue_exempt") == ("510102", "Ventas exentas")
    assert rule(sv, "revenue_exonerated") == ("510102", "Ventas exentas")


def test_a_company_whose_chart_came_before_takes_the_rules_by_importing_the_chart_again(api, company_a, monkeypatch):
    """No migration writes them (docs/decisions.md): where an accountant's sales post is theirs to
    change, at a date they choose; importing the standard chart again adds only the rules it lacks."""
    from chalicelib.countries.hn import chart as hn

    before_44 = tuple(rule for rule in hn.RULES if rule[0] not in ("revenue_exempt", "revenue_exonerated"))
    monkeypatch.setattr(hn, "RULES", before_44)
    assert api.post("/chart-of-accounts/import-default", key=company_a.api_key).status in (200, 201)
    monkeypatch.undo()
    again = api.post("/chart-of-accounts/import-default", key=company_a.api_key)
    assert again.status in (200, 201), again.text
    assert again.json["accountsCreated"] == 0 and again.json["rulesCreated"] == 2
    resolved = api.post("/account-determination-rules/resolve", {"operationType": "revenue_exempt"},
                        key=company_a.api_key)
    assert resolved.status == 200, resolved.text
    account = api.get(f"/chart-of-accounts/{resolved.json['chartOfAccountId']}", key=company_a.api_key)
    assert account.json["code"] == "410102", account.text
