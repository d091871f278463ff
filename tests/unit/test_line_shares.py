"""A document's revenue and expense shared over its lines by (operation, cost centres), to the
cent (domain/documents.py `shared`)."""
from __future__ import annotations

from decimal import Decimal as D

from chalicelib.domain import accounting
from chalicelib.domain import documents as rules
from chalicelib.domain.accounting import CREDIT, DEBIT, Movement

INVOICE, PURCHASE = rules.KINDS["01"], rules.KINDS["103"]
CENTRO, NORTE = ((1, 10),), ((1, 11),)


def test_sales_revenue_splits_by_treatment_and_cost_centre_and_still_balances():
    lines = [rules.LineShare(D("100.00"), "taxed", CENTRO), rules.LineShare(D("40.00"), "exempt", CENTRO),
             rules.LineShare(D("60.00"), "exonerated"), rules.LineShare(D("10.00"), "taxed", CENTRO)]
    movements = rules.entry_movements(INVOICE, total=D("226.50"), tax=D("16.50"), stocked_subtotal=D(0),
                                      other_subtotal=D("210.00"), stock_value=D(0), revaluation=D(0),
                                      moves_stock=False, lines=lines)
    revenue = [(m.operation, m.amount, m.dimensions) for m in movements if m.operation.startswith("revenue")]
    # taxed Centro 100.00 + 10.00 = 110.00; exempt Centro 40.00; exonerated, no cost centre, 60.00
    assert revenue == [("revenue", D("110.00"), CENTRO), ("revenue_exempt", D("40.00"), CENTRO),
                       ("revenue_exonerated", D("60.00"), ())]
    lines_out = accounting.lines_from_movements(movements, lambda m: {"receivable": 1, "tax_sales": 2}.get(m.operation, 3))
    # revenue_exempt resolving to the same account as revenue (a chart without its rule): Centro
    # 110.00 + 40.00 = 150.00 and 60.00 without a cost centre, two postings
    assert [(line.account_id, line.credit, line.dimensions) for line in lines_out if line.account_id == 3] == [
        (3, D("150.00"), CENTRO), (3, D("60.00"), ())]


def test_a_rounding_difference_is_shared_to_the_cent():
    # 100.00 shared 1 : 1 : 1 -> 33.33 x 3 = 99.99, the cent left to the first largest remainder
    parts = rules.shared(Movement("expense", DEBIT, D("100.00")),
                         [rules.LineShare(D(1), dimensions=((1, n),)) for n in (1, 2, 3)])
    assert [m.amount for m in parts] == [D("33.34"), D("33.33"), D("33.33")]
    # a negative amount (a cent either way in a foreign currency) goes on the other side
    assert [(m.side, m.amount) for m in rules.shared(Movement("expense", DEBIT, D("-0.01")),
                                                      [rules.LineShare(D(5), dimensions=CENTRO)])] == [(CREDIT, D("0.01"))]


def test_a_purchase_shares_only_its_lines_not_in_stock():
    lines = [rules.LineShare(D("500.00"), stocked=True, dimensions=NORTE), rules.LineShare(D("30.00"), dimensions=CENTRO),
             rules.LineShare(D("20.00"), dimensions=NORTE)]
    movements = rules.entry_movements(PURCHASE, total=D("550.00"), tax=D(0), stocked_subtotal=D("500.00"),
                                      other_subtotal=D("50.00"), stock_value=D("500.00"), revaluation=D(0),
                                      moves_stock=True, lines=lines)
    assert [(m.operation, m.amount, m.dimensions) for m in movements if m.operation in ("inventory", "expense")] == [
        ("inventory", D("500.00"), ()), ("expense", D("30.00"), CENTRO), ("expense", D("20.00"), NORTE)]
