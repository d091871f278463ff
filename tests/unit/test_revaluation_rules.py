"""domain/revaluation.py: a foreign item at the closing rate, the gain or loss it makes by side, and
the entry those add up to. Figures worked by hand in the comments."""
from __future__ import annotations

from decimal import Decimal

from chalicelib.domain import accounting
from chalicelib.domain import revaluation as rules
from chalicelib.domain.accounting import Line

D = Decimal


def item(kind: str, foreign: str, booked: str) -> dict:
    return {"kind": kind, "currency": "USD", "foreignAmount": D(foreign), "bookedAmount": D(booked)}


def test_an_asset_gains_and_a_debt_loses_when_the_rate_rises():
    # receivable USD 1,000.00 booked at 24.50 = 24,500.00; at 24.80 = 24,800.00: +300.00
    receivable = rules.revalued(item("receivable", "1000.00", "24500.00"), D("24.80"), "HNL")
    assert (receivable["revaluedAmount"], receivable["difference"]) == (D("24800.00"), D("300.00"))
    # payable USD 500.00 booked 12,250.00; at 24.80 = 12,400.00: owed 150.00 more, -150.00
    payable = rules.revalued(item("payable", "500.00", "12250.00"), D("24.80"), "HNL")
    assert (payable["revaluedAmount"], payable["difference"]) == (D("12400.00"), D("-150.00"))
    # both move their subledger up by the revalued less the booked amount
    assert (rules.ledger_change(receivable), rules.ledger_change(payable)) == (D("300.00"), D("150.00"))
    # a customer advance (a debt) loses as a payable; a supplier advance and a bank gain as a receivable
    assert rules.revalued(item("customerAdvance", "10.00", "245.00"), D("24.80"), "HNL")["difference"] == D("-3.00")
    assert rules.revalued(item("supplierAdvance", "10.00", "245.00"), D("24.80"), "HNL")["difference"] == D("3.00")
    assert rules.revalued(item("bank", "200.00", "4900.00"), D("24.80"), "HNL")["difference"] == D("60.00")


def test_the_revalued_amount_is_rounded_half_up_to_the_cent():
    # USD 33.33 x 24.5123 = 24.5123 x 33 (808.9059) + 24.5123 x 0.33 (8.089059) = 816.994959 -> 816.99;
    # booked 816.96: +0.03
    line = rules.revalued(item("receivable", "33.33", "816.96"), D("24.5123"), "HNL")
    assert (line["revaluedAmount"], line["difference"]) == (D("816.99"), D("0.03"))
    # a credit note open (negative) falls with the rate as a receivable would rise:
    # -100.00 x 24.80 = -2,480.00 against -2,450.00 booked: -30.00
    assert rules.revalued(item("receivable", "-100.00", "-2450.00"), D("24.80"), "HNL")["difference"] == D("-30.00")


def test_the_entry_balances_with_a_line_per_group_the_gains_and_the_losses():
    lines = [rules.revalued(item("receivable", "1000.00", "24500.00"), D("24.80"), "HNL"),   # +300.00
             rules.revalued(item("payable", "500.00", "12250.00"), D("24.80"), "HNL"),       # -150.00
             rules.revalued(item("bank", "200.00", "4900.00"), D("24.80"), "HNL")]           # +60.00
    totals = rules.totals(lines)
    assert totals == {"totalGain": D("360.00"), "totalLoss": D("150.00"), "netDifference": D("210.00")}
    groups = [(account, "x", difference) for account, difference in
              rules.grouped(lines, lambda line: {"receivable": 1, "payable": 2, "bank": 3}[line["kind"]])]
    entry = rules.entry_lines(groups, totals["totalGain"], totals["totalLoss"], gain_account=8, loss_account=9,
                              gain_text="g", loss_text="l")
    zero = D(0)
    assert entry == [Line(1, D("300.00"), zero, "x"), Line(2, zero, D("150.00"), "x"), Line(3, D("60.00"), zero, "x"),
                     Line(8, zero, D("360.00"), "g"), Line(9, D("150.00"), zero, "l")]
    # debits 300 + 60 + 150 = 510.00 = credits 150 + 360
    assert accounting.entry_totals(entry) == (D("510.00"), D("510.00"))
    # the reversal the next day
    assert rules.reversal_date("2026-11-30") == "2026-12-01" and rules.reversal_date("2026-12-31") == "2027-01-01"


def test_a_group_netting_to_nothing_posts_no_line():
    lines = [rules.revalued(item("receivable", "10.00", "245.00"), D("24.80"), "HNL"),     # +3.00
             rules.revalued(item("receivable", "-10.00", "-245.00"), D("24.80"), "HNL")]   # -3.00
    groups = [(1, "x", difference) for _, difference in rules.grouped(lines, lambda line: 1)]
    assert rules.entry_lines(groups, D("3.00"), D("3.00"), gain_account=8, loss_account=9, gain_text="g",
                             loss_text="l") == [Line(8, D(0), D("3.00"), "g"), Line(9, D("3.00"), D(0), "l")]
