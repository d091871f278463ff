"""Issue 41, the opening kinds: a changeover trial balance, 12 open items in lempiras and dollars for
4 customers and 2 suppliers, and the opening stock of 5 products in 2 warehouses, imported through
the kinds (ImportContext over the real table); afterwards the trial balance at the date is the
file's, the opening balance equity nets to zero, aging, partner balances and valuation agree. Every
figure worked by hand in the comments."""
from __future__ import annotations

from decimal import Decimal

from tests import import_opening_support
from tests.import_opening_support import (
    C1,
    EXPECTED_TRIAL_BALANCE,
    OPEN_ITEMS,
    TRIAL_BALANCE,
    balances_file,
    item,
    stock,
    trial_balance_figures,
)

D = Decimal
moving = import_opening_support.moving  # the fixture: a company moving in


def test_moving_in_lands_the_trial_balance_the_open_items_and_the_stock(moving):
    assert moving.run("open-items", OPEN_ITEMS) == {"created": 12}
    assert moving.run("opening-stock", stock(moving)) == {"created": 2, "lines": 6}
    assert moving.run("opening-balances", balances_file()) == {"created": 1, "lines": 8}

    # the trial balance at the changeover is the file's, figure by figure; 3401 nets to zero:
    # posted lines debit 54,500, credit 66,500 -> the equity line debit 12,000; the open items credit it
    # 22,000 and debit it 15,000, the stock credits it 5,000: 12,000 - 22,000 + 15,000 - 5,000 = 0
    # (the report shows an account's debits and credits: 3401 debit 15,000 + 12,000 = 27,000, credit
    # 22,000 + 5,000 = 27,000)
    assert trial_balance_figures(moving) == EXPECTED_TRIAL_BALANCE

    # partners: C1 9,750.00, C2 7,920.00, C3 2,000.00, C4 2,330.00; S1 11,350.00, S2 3,650.00
    owed = [D(str(moving.get(f"/business-partners/{p['id']}")["receivableBalance"])) for p in moving.customers]
    assert owed == [D("9750.00"), D("7920.00"), D("2000.00"), D("2330.00")]
    owing = [D(str(moving.get(f"/business-partners/{p['id']}")["payableBalance"])) for p in moving.suppliers]
    assert owing == [D("11350.00"), D("3650.00")]

    # aging at 2026-01-01, C1: F-001 due 01-09 and F-003 due 01-19 current (5,000 + 2,450 = 7,450),
    # F-002 due 2025-12-15, 17 days past due: 1 to 30 (2,300); C4: F-030 due 2025-10-15, 78 days: 61 to 90
    aged = moving.get("/reports/aged-receivables?date=2026-01-01")
    by_partner = {row["businessPartnerId"]: row for row in aged["partners"]}
    first = by_partner[moving.customers[0]["id"]]
    assert (D(str(first["current"])), D(str(first["days1To30"])), D(str(first["total"]))) == \
           (D("7450.00"), D("2300.00"), D("9750.00"))
    fourth = by_partner[moving.customers[3]["id"]]
    assert (D(str(fourth["days61To90"])), D(str(fourth["total"]))) == (D("1220.00"), D("2330.00"))

    # payables aging at 2026-01-01: S1 P-100 due 2025-12-31, 1 day past due: 1 to 30 (4,000); P-101 due 01-09
    # current (300 x 24.50 = 7,350); S2 P-200 due 2025-12-20, 12 days past due: 1 to 30 (3,650)
    aged = moving.get("/reports/aged-payables?date=2026-01-01")
    buckets = ("current", "days1To30", "days31To60", "days61To90", "over90", "total")
    by_supplier = {row["businessPartnerId"]: tuple(D(str(row[b])) for b in buckets) for row in aged["partners"]}
    assert by_supplier == {moving.suppliers[0]["id"]: (D("7350.00"), D("4000.00"), 0, 0, 0, D("11350.00")),
                           moving.suppliers[1]["id"]: (0, D("3650.00"), 0, 0, 0, D("3650.00"))}
    # totals: current 7,350; 1 to 30 4,000 + 3,650 = 7,650; 15,000.00 in all, the payables control account's
    assert tuple(D(str(aged["totals"][b])) for b in buckets) == (D("7350.00"), D("7650.00"), 0, 0, 0, D("15000.00"))

    # C1's statement for 2025: nothing before; in date order F-002 11-15 2,300 (2,300), F-001 12-10 5,000
    # (7,300), F-003 12-20 USD 100 x 24.50 = 2,450 (9,750); closing 9,750.00, its receivable balance
    statement = moving.get(f"/credits/client/{moving.customers[0]['id']}/statement?startDate=2025-01-01&endDate=2026-01-01")
    assert [(m["date"], D(str(m["charge"])), D(str(m["balance"])), m["currency"], m["amountInCurrency"] and
             D(str(m["amountInCurrency"]))) for m in statement["movements"]] == [
        ("2025-11-15", D("2300.00"), D("2300.00"), None, None), ("2025-12-10", D("5000.00"), D("7300.00"), None, None),
        ("2025-12-20", D("2450.00"), D("9750.00"), "USD", D("100.00"))]
    assert (D(str(statement["openingBalance"])), D(str(statement["totalCharges"])), D(str(statement["closingBalance"]))) == \
           (0, D("9750.00"), D("9750.00"))

    # valuation: P1 14 units (10 + 4) worth 1,400.00; the five products 5,000.00
    valuation = moving.get("/inventory/valuation?date=2026-01-01")
    by_place = {(row["productId"], row["warehouseId"]): (D(str(row["quantity"])), D(str(row["value"])))
                for row in valuation["items"]}
    first_product, (centre, north) = moving.products[0]["id"], moving.warehouses
    assert (by_place[(first_product, centre)], by_place[(first_product, north)]) == \
           ((D(10), D("1000.00")), (D(4), D("400.00")))
    # the stock's value is the inventory account's: 5,000.00 both, no difference
    assert (D(str(valuation["totalValue"])), D(str(valuation["accountsBalance"])), D(str(valuation["difference"]))) == \
           (D("5000.00"), D("5000.00"), 0)


def test_a_control_account_the_open_items_do_not_match_is_refused_by_name(moving):
    assert moving.run("open-items", OPEN_ITEMS[:9])["created"] == 9     # the customers only: 22,000 receivable
    figures = {**TRIAL_BALANCE, "110201": ("12500.00", ""), "3301": ("", "4500.00")}  # still balances: -9,500 both sides
    errors = moving.run("opening-balances", balances_file(figures))
    messages = {error.message for error in errors}
    assert "account 110201 Clientes: the file says 12,500.00, the books hold 22,000.00 from the open items, the " \
           "opening stock and the bank accounts (import those first)" in messages
    # payables: the file 15,000.00, the books nothing; inventory: 5,000.00, the books nothing
    assert any(m.startswith("account 210101 Proveedores locales: the file says 15,000.00, the books hold 0.00") for m in messages)
    assert any(m.startswith("account 110501 Inventario de mercadería: the file says 5,000.00") for m in messages)
    # nothing posted beside the open items: 110201 debit 22,000, 3401 credit 22,000
    assert trial_balance_figures(moving) == {"110201": (D("22000.00"), 0), "3401": (0, D("22000.00"))}


def test_a_file_that_does_not_balance_is_refused_naming_both_sums(moving):
    figures = {**TRIAL_BALANCE, "3101": ("", "29000.00")}   # credits 81,500 - 1,000 = 80,500
    errors = moving.run("opening-balances", balances_file(figures))
    assert [(e.row, e.message) for e in errors] == \
           [(0, "the trial balance does not balance: debits 81,500.00, credits 80,500.00")]


def test_rows_wrong_each_named(moving):
    errors = moving.run("open-items", [item("99999999999999", "customer", "X-1", "2025-12-01", "10.00"),
                                        item(C1, "customer", "X-2", "2026-01-02", "10.00"),
                                        item(C1, "customer", "X-3", "2025-12-01", "10.00", "USD"),
                                        item(C1, "customer", "X-4", "2025-12-01", "10.00"),
                                        item(C1, "cliente", "x-4", "2025-12-01", "10.00")])
    assert [(e.row, e.column) for e in errors] == [(2, "partnerTaxId"), (3, "date"), (4, "exchangeRate"),
                                                  (6, "documentNumber")]
    first = str(moving.warehouses[0])
    errors = moving.run("opening-stock", [{"productCode": "S1", "warehouseId": first, "quantity": "1", "unitCost": "1"},
                                          {"productCode": "ZZ", "warehouseId": first, "quantity": "1", "unitCost": "1"},
                                          {"productCode": "P1", "warehouseId": "999", "quantity": "1", "unitCost": "1"},
                                          {"productCode": "P1", "warehouseId": first, "quantity": "0", "unitCost": "1"},
                                          {"productCode": "P2", "warehouseId": first, "quantity": "1", "unitCost": "-1"},
                                          {"productCode": "P3", "warehouseId": first, "quantity": "1", "unitCost": "1"},
                                          {"productCode": "P3", "warehouseId": first, "quantity": "2", "unitCost": "1"}])
    assert [(e.row, e.column) for e in errors] == [(2, "productCode"), (3, "productCode"), (4, "warehouseId"),
                                                  (5, "quantity"), (6, "unitCost"), (8, "productCode")]
    errors = moving.run("opening-balances", [{"accountCode": "999", "debit": "1"}, {"accountCode": "3101", "credit": "1"}])
    assert [(e.row, e.column) for e in errors] == [(2, "accountCode")]
