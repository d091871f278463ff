"""paymentStatus, the pure rule: every figure worked by hand from a 115.00 invoice (100 + ISV 15 %)
due on 2026-11-30."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.domain.payment_status import days_overdue, payment_status

INVOICE = {"type": "01", "status": "confirmed", "total": Decimal("115.00"), "pending": Decimal("115.00"),
           "dueDate": "2026-11-30"}


def invoice(**changes):
    return {**INVOICE, **changes}


def test_nothing_paid_before_the_due_date_is_unpaid():
    # today 2026-11-28 < due 2026-11-30, pending 115.00 = total 115.00
    assert payment_status(invoice(), "2026-11-28") == "unpaid"


def test_the_due_date_itself_is_not_yet_overdue():
    # due on the 30th means payable through the 30th: "2026-11-30" < "2026-11-30" is false
    assert payment_status(invoice(), "2026-11-30") == "unpaid"
    assert days_overdue(invoice(), "2026-11-30") == 0


def test_the_day_after_the_due_date_is_overdue_by_one_day():
    assert payment_status(invoice(), "2026-12-01") == "overdue"
    assert days_overdue(invoice(), "2026-12-01") == 1          # 1 Dec - 30 Nov
    assert days_overdue(invoice(), "2027-01-15") == 46         # 1 (Nov 30 -> Dec 1) + 30 (December) + 15 = 46


def test_a_part_paid_is_partially_paid_until_the_due_date_then_overdue():
    # 115.00 - 40.00 paid = 75.00 pending: 0 < 75.00 < 115.00
    part_paid = invoice(pending=Decimal("75.00"))
    assert payment_status(part_paid, "2026-11-29") == "partially_paid"
    assert payment_status(part_paid, "2026-12-05") == "overdue"
    assert days_overdue(part_paid, "2026-12-05") == 5          # 5 Dec - 30 Nov


def test_nothing_pending_is_paid_even_long_after_the_due_date():
    # DynamoDB gives 0.00 back as 0
    assert payment_status(invoice(pending=Decimal("0")), "2027-06-01") == "paid"
    assert days_overdue(invoice(pending=Decimal("0")), "2027-06-01") == 0


@pytest.mark.parametrize("status", ["draft", "cancelled"])
def test_drafts_and_cancelled_documents_have_no_payment_status(status):
    assert payment_status(invoice(status=status), "2027-01-01") is None


@pytest.mark.parametrize("document_type", ["100", "101", "112", "102", "05"])
def test_types_that_carry_no_balance_have_no_payment_status(document_type):
    assert payment_status(invoice(type=document_type, pending=Decimal("0")), "2027-01-01") is None


@pytest.mark.parametrize("document_type", ["113", "07", "103", "104", "106", "11", "900", "901"])
def test_every_type_that_adds_to_a_balance_can_be_overdue(document_type):
    assert payment_status(invoice(type=document_type), "2026-12-01") == "overdue"


@pytest.mark.parametrize("document_type", ["06", "105"])
def test_a_credit_note_is_applied_not_overdue(document_type):
    # 115.00 credit, 15.00 applied: 100.00 pending past its due date is still only partly applied
    assert payment_status(invoice(type=document_type, pending=Decimal("100")), "2027-01-01") == "partially_paid"
    assert payment_status(invoice(type=document_type), "2027-01-01") == "unpaid"
    assert payment_status(invoice(type=document_type, pending=0), "2027-01-01") == "paid"


def test_a_document_without_a_due_date_is_never_overdue():
    assert payment_status(invoice(dueDate=None), "2030-01-01") == "unpaid"
