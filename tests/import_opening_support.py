"""What the opening kinds' tests share (tests/test_import_opening.py, test_import_opening_faults.py):
a company moving in (its chart, 4 customers, 2 suppliers, 5 products and a service, 2 warehouses), its
files (a changeover trial balance, 12 open items in lempiras and dollars, the opening stock) with their
figures worked by hand, and the kinds run over the real table (ImportContext)."""
from __future__ import annotations

import dataclasses
from datetime import date
from decimal import Decimal

import pytest

from chalicelib.domain.import_rows import Row
from chalicelib.services.imports.kinds import ImportContext, kind
from tests.support import INVENTORY_CHART, INVENTORY_RULES, Books

D = Decimal
CHANGEOVER = date(2026, 1, 1)
CHART = INVENTORY_CHART + (("120103", "Mobiliario y equipo de oficina", "asset"),
                           ("2105", "Préstamos bancarios a corto plazo", "liability"),
                           ("3101", "Capital social", "equity"), ("3301", "Utilidades retenidas", "equity"))


def rows(*records: dict[str, str]) -> list[Row]:
    return [Row(line, values) for line, values in enumerate(records, start=2)]


class Moving:
    def __init__(self, api, company, table):
        self.api, self.key, self.table, self.company = api, company.api_key, table, company
        self.books = Books(api, company, full=False, chart=CHART, rules=INVENTORY_RULES)
        self.customers = [self.created("/business-partners", {"name": f"Cliente {n}", "type": "customer",
                                                              "taxId": f"0801199000001{n}"}) for n in range(1, 5)]
        self.suppliers = [self.created("/business-partners", {"name": f"Proveedor {n}", "type": "supplier",
                                                              "taxId": f"0801199000002{n}"}) for n in range(1, 3)]
        self.products = [self.created("/products", {"code": f"P{n}", "name": f"Producto {n}", "unitPrice": 100,
                                                    "taxRate": 0.15}) for n in range(1, 6)]
        self.service = self.created("/products", {"code": "S1", "name": "Servicio", "type": "service",
                                                  "unitPrice": 50, "taxRate": 0.15})
        self.warehouses = [self.created("/warehouses", {"name": name})["id"] for name in ("Bodega Centro", "Bodega Norte")]

    def created(self, path, body):
        reply = self.api.post(path, body, key=self.key)
        assert reply.status == 201, reply.text
        return reply.json

    def context(self, job_id, progress=None):
        context = ImportContext(self.table, self.company.company_id, job_id, self.company.user_id, CHANGEOVER)
        return dataclasses.replace(context, progress=progress) if progress else context

    def run(self, name, records, job_id=1, progress=None):
        context = self.context(job_id, progress)
        checked = kind(name).check(context, rows(*records))
        if checked.errors:
            return checked.errors
        return kind(name).apply(context, checked.plan)

    def get(self, path):
        reply = self.api.get(path, key=self.key)
        assert reply.status == 200, reply.text
        return reply.json


def item(tax_id, side, number, when, amount, currency="HNL", rate=None, due=None):
    values = {"partnerTaxId": tax_id, "side": side, "documentNumber": number, "date": when, "amount": amount,
              "currency": currency}
    if rate:
        values["exchangeRate"] = rate
    if due:
        values["dueDate"] = due
    return values


C1, C2, C3, C4 = (f"0801199000001{n}" for n in range(1, 5))
S1, S2 = "08011990000021", "08011990000022"
# receivables, in lempiras: 5,000 + 2,300 + 100 x 24.50 = 2,450 (C1: 9,750.00); 3,000 + 200 x 24.60 = 4,920
# (C2: 7,920.00); 1,250 + 750 (C3: 2,000.00); 50 x 24.40 = 1,220 + 1,110 (C4: 2,330.00)
# total 9,750 + 7,920 + 2,000 + 2,330 = 22,000.00
# payables: 4,000 + 300 x 24.50 = 7,350 (S1: 11,350.00); 3,650 (S2); total 15,000.00
OPEN_ITEMS = (
    item(C1, "customer", "F-001", "2025-12-10", "5000.00", due="2026-01-09"),
    item(C1, "cliente", "F-002", "2025-11-15", "2300.00", due="2025-12-15"),
    item(C1, "customer", "F-003", "2025-12-20", "100.00", "USD", "24.50", due="2026-01-19"),
    item(C2, "customer", "F-010", "2025-10-01", "3000.00", due="2025-10-31"),
    item(C2, "customer", "F-011", "2025-12-28", "200.00", "USD", "24.60", due="2026-01-27"),
    item(C3, "customer", "F-020", "2025-12-05", "1250.00", due="2026-01-04"),
    item(C3, "customer", "F-021", "2025-12-31", "750.00"),
    item(C4, "customer", "F-030", "2025-09-15", "50.00", "USD", "24.40", due="2025-10-15"),
    item(C4, "customer", "F-031", "2025-12-15", "1110.00", due="2026-01-14"),
    item(S1, "supplier", "P-100", "2025-12-01", "4000.00", due="2025-12-31"),
    item(S1, "proveedor", "P-101", "2025-12-10", "300.00", "USD", "24.50", due="2026-01-09"),
    item(S2, "supplier", "P-200", "2025-11-20", "3650.00", due="2025-12-20"),
)


def stock(moving):
    first, second = (str(w) for w in moving.warehouses)
    # 10 x 100 = 1,000; 5 x 250 = 1,250; 20 x 12.50 = 250; 4 x 100 = 400; 8 x 75 = 600; 3 x 500 = 1,500
    # total 5,000.00
    return ({"productCode": "P1", "warehouseId": first, "quantity": "10", "unitCost": "100"},
            {"productCode": "P2", "warehouseId": first, "quantity": "5", "unitCost": "250"},
            {"productCode": "P3", "warehouseId": first, "quantity": "20", "unitCost": "12.50"},
            {"productCode": "P1", "warehouseId": second, "quantity": "4", "unitCost": "100"},
            {"productCode": "P4", "warehouseId": second, "quantity": "8", "unitCost": "75"},
            {"productCode": "P5", "warehouseId": second, "quantity": "3", "unitCost": "500"})


# debits 3,000 + 40,000 + 22,000 + 1,500 + 5,000 + 10,000 = 81,500.00
# credits 15,000 + 2,500 + 20,000 + 30,000 + 14,000 = 81,500.00
TRIAL_BALANCE = {"110101": ("3000.00", ""), "110103": ("40000.00", ""), "110201": ("22000.00", ""),
                 "110401": ("1500.00", ""), "110501": ("5000.00", ""), "120103": ("10000.00", ""),
                 "210101": ("", "15000.00"), "210201": ("", "2500.00"), "2105": ("", "20000.00"),
                 "3101": ("", "30000.00"), "3301": ("", "14000.00"), "3401": ("0", "0")}


EXPECTED_TRIAL_BALANCE = {**{code: (D(debit or 0), D(credit or 0)) for code, (debit, credit) in TRIAL_BALANCE.items()
                             if code != "3401"}, "3401": (D("27000.00"), D("27000.00"))}


def balances_file(figures=TRIAL_BALANCE):
    return [{"accountCode": code, **({"debit": debit} if debit else {}), **({"credit": credit} if credit else {})}
            for code, (debit, credit) in figures.items()]


@pytest.fixture
def moving(api, company_a, table):
    return Moving(api, company_a, table)


def trial_balance_figures(moving):
    report = moving.books.trial_balance("2026-01-01")
    rows_ = report.get("accounts", report.get("rows"))
    return {row["code"]: (D(str(row["debit"])), D(str(row["credit"]))) for row in rows_
            if D(str(row["debit"])) or D(str(row["credit"]))}


def close_period(moving, start, end):
    period = moving.api.post("/accounting-periods", {"name": "Cerrado", "startDate": start, "endDate": end},
                             key=moving.key).json
    closed = moving.api.post(f"/accounting-periods/{period['id']}/close", key=moving.key)
    assert closed.status == 200, closed.text
