"""El Salvador's standard chart: `import-default` on a Salvadoran company imports the Salvadoran
catalogue (IVA débito / crédito fiscal, retenido, percibido) and its rules, so that an invoice and a
purchase post to Salvadoran accounts; a Honduran company keeps the Honduran chart."""
from __future__ import annotations

from decimal import Decimal as D

from chalicelib.countries.hn import chart as honduran_chart
from chalicelib.countries.sv import chart as default_chart_sv
from chalicelib.domain.accounting import FALLBACK_OPERATIONS, OPERATION_TYPES
from tests.documents_support import Shop
from tests.dte_support import customer_abroad, export_invoice


def chart_of(api, key) -> dict[str, dict]:
    listed = []
    for page in (1, 2):
        listed += api.get(f"/chart-of-accounts?limit=100&page={page}", key=key).json["accounts"]
    return {account["code"]: account for account in listed}


def test_the_salvadoran_rules_mirror_the_honduran_ones_on_salvadoran_accounts():
    """Whatever a Honduran company's rules send somewhere, a Salvadoran company's send to its own
    chart: the same (operation, document type) pairs, every one on an account of that chart."""
    honduran = {(operation, document_type) for operation, document_type, _ in honduran_chart.RULES}
    salvadoran = {(operation, document_type): code for operation, document_type, code in default_chart_sv.RULES}
    assert honduran <= set(salvadoran)
    assert {operation for operation, _ in salvadoran} == set(OPERATION_TYPES)
    # an operation the Honduran chart leaves out resolves to the one it falls back to, which it has
    left_out = set(OPERATION_TYPES) - {operation for operation, _ in honduran}
    assert left_out == {"export_revenue"} and all((FALLBACK_OPERATIONS[op], None) in honduran for op in left_out)
    codes = {code: (account_type, parent) for code, _, account_type, parent in default_chart_sv.ACCOUNTS}
    assert set(salvadoran.values()) <= set(codes)
    for code, (account_type, parent) in codes.items():
        if parent is not None:  # a sub-account under its parent's code, with its type
            assert code.startswith(parent) and codes[parent][0] == account_type, code


def test_an_sv_company_imports_the_salvadoran_chart_and_posts_iva_to_it(api, company_a, dte_authority):
    shop = Shop(api, company_a, country="SV", standard_chart=True)
    chart = chart_of(api, shop.key)
    assert len(chart) == len(default_chart_sv.ACCOUNTS)
    assert [name for name in (a["name"] for a in chart.values()) if "ISV" in name.upper()] == []
    assert chart["210601"]["name"] == "IVA débito fiscal" and chart["210601"]["type"] == "liability"
    assert chart["110401"]["name"] == "IVA crédito fiscal" and chart["110401"]["type"] == "asset"
    assert chart["110403"]["name"] == "IVA retenido por clientes (1 %)"
    assert chart["110404"]["name"] == "IVA percibido por proveedores (1 %)"
    assert chart["210602"]["name"] == "IVA retenido a proveedores (1 %)"
    assert chart["210603"]["name"] == "IVA percibido a clientes (1 %)"
    # the classes as Salvadoran catalogues number them: 4 costs and expenses, 5 income
    assert (chart["410101"]["type"], chart["420199"]["type"], chart["510101"]["type"]) == ("cost", "expense", "income")

    # a factura (DTE 01) of 2 services at 50.00: 100.00 + 13 % IVA 13.00 = 113.00
    invoice = shop.document("01", [(shop.service, 2, 50)])
    assert invoice["dte"]["status"] == "accepted", invoice["dte"]
    assert shop.entry_lines(invoice["journalEntryId"]) == {
        "110201": (D("113.00"), 0),   # Clientes
        "510101": (0, D("100.00")),   # Ventas gravadas
        "210601": (0, D("13.00")),    # IVA débito fiscal: 100.00 x 13 %
    }

    # a factura de exportación (DTE 11): 3 x 100.00 less 10.00 = 290.00 + 45.50 = 335.50, no IVA,
    # on the exports' own revenue account
    exported = export_invoice(shop, customer_abroad(shop))
    assert exported["dte"]["tipoDte"] == "11" and exported["dte"]["status"] == "accepted", exported["dte"]
    assert shop.entry_lines(exported["journalEntryId"]) == {
        "110201": (D("335.50"), 0),   # Clientes
        "510104": (0, D("335.50")),   # Ventas de exportación
    }

    # a registered taxpayer's crédito fiscal for 3 chairs at 40.00: 120.00 + 13 % IVA 15.60 = 135.60
    supplier = shop.created("/business-partners", {
        "name": "Distribuidora Gamma S.A. de C.V.", "type": "supplier", "taxId": "0614-030303-103-9",
        "nrc": "112233-4", "economicActivityCode": "46510", "economicActivity": "Venta al por mayor",
        "department": "06", "municipality": "14", "address": "Boulevard de los Héroes",
        "email": "ventas@gamma.example", "phone": "2233-4455"})["id"]
    purchase = shop.document("103", [(shop.product, 3, 40)], partner=supplier,
                             supplierDocumentNumber="7DE5A3C1-0B2F-4E8D-9A6C-1F3B5D7E9A0C")
    assert shop.entry_lines(purchase["journalEntryId"]) == {
        "110601": (D("120.00"), 0),   # Inventario de mercadería: 3 x 40.00
        "110401": (D("15.60"), 0),    # IVA crédito fiscal: 120.00 x 13 %
        "210201": (0, D("135.60")),   # Proveedores locales
    }


def test_a_honduran_company_still_imports_the_honduran_chart(api, company_a):
    reply = api.post("/chart-of-accounts/import-default", key=company_a.api_key)
    assert reply.status == 201, reply.text
    chart = chart_of(api, company_a.api_key)
    assert set(chart) == {code for code, *_ in honduran_chart.ACCOUNTS}
    assert chart["210201"]["name"] == "ISV por pagar" and chart["110401"]["name"] == "ISV crédito fiscal"
