"""Payment status through the console (issue 38, point 9): the home lists the overdue invoices
(number, customer, due date, days overdue, pending; a link), a document shows its payment status
beside its status (a paid invoice no longer reads only "Confirmado"), the aged receivables and a
partner's statement open the documents behind their rows. In Spanish and English, at 1280 and 390
px wide.

Hand-worked: the overdue invoice is 2 x 100.00 + ISV 15 % = 230.00, 30.00 paid, 200.00 pending, due
95 days before today; the paid one 1 x 100.00 + 15 % = 115.00, paid in full."""
from __future__ import annotations

import datetime
import uuid

from tests.browser.conftest import amount, api_call
from tests.browser.reports_support import switch_language, today
from tests.browser.test_refund_journey import created, customer, document
from tests.browser.test_sales_journey import ensure_sales_setup

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}
WORDS = {"es": {"overdue": "Vencido", "paid": "Pagado", "confirmed": "Confirmado", "days": "95 días"},
         "en": {"overdue": "Overdue", "paid": "Paid", "confirmed": "Confirmed", "days": "95 days"}}


def badges(page) -> list[str]:
    return page.locator("#doc-status .badge").all_inner_texts()


def test_overdue_invoices_paid_badges_and_drill_down(console, demo, stack):
    base, key, page = stack[0].base, demo["apiKey"], console.page
    method_id = ensure_sales_setup(base, key)
    tag = uuid.uuid4().hex[:6]
    partner = customer(base, key, tag)
    day = today()
    overdue = document(base, key, "01", partner["id"], 2, 100, date=(day - datetime.timedelta(days=100)).isoformat(),
                       dueDate=(day - datetime.timedelta(days=95)).isoformat())          # 230.00
    created(base, key, f"/payments/documents/{overdue['id']}/payments", {"paymentMethodId": method_id, "amount": 30})
    paid = document(base, key, "01", partner["id"], 1, 100)                                  # 115.00
    created(base, key, f"/payments/documents/{paid['id']}/payments", {"paymentMethodId": method_id, "amount": 115})
    held = api_call(base, "GET", f"/documents/{overdue['id']}", key)[2]
    assert (held["paymentStatus"], held["daysOverdue"], held["pending"]) == ("overdue", 95, 200)
    assert api_call(base, "GET", f"/documents/{paid['id']}", key)[2]["paymentStatus"] == "paid"

    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    for language in ("es", "en"):
        if language == "en":
            switch_language(console, "en")
        words = WORDS[language]
        page.set_viewport_size(DESKTOP)

        # the home's overdue invoices: this one with its customer, due date, days and pending
        console.goto("/")
        row = page.locator("#overdue-invoices tbody tr", has=page.locator(f"a[href='#/documents/{overdue['id']}']"))
        assert row.count() == 1, page.inner_text("#overdue-invoices")
        cells = row.locator("td").all_inner_texts()
        assert cells[0] == overdue["number"] and cells[1] == partner["name"], cells
        assert cells[3] == words["days"] and amount(cells[4]) == 200.0, cells
        console.shot(f"home-overdue-{language}")

        # into the document: both statuses, and how long it is overdue
        row.locator("a.doc-number").click()
        console.wait_loaded()
        assert page.inner_text("#doc-number") == overdue["number"]
        assert badges(page) == [words["confirmed"], words["overdue"]]
        assert page.inner_text("#doc-days-overdue") == words["days"]
        console.shot(f"document-overdue-{language}")

        # a fully paid invoice reads paid beside confirmed
        console.goto(f"/documents/{paid['id']}")
        assert badges(page) == [words["confirmed"], words["paid"]]
        assert page.locator("#doc-status .badge-paid").count() == 1
        console.shot(f"document-paid-{language}")

        # the aged receivables: the invoice's own row under its customer opens it
        console.goto(f"/reports/aged-receivables?date={day.isoformat()}")
        aged_row = page.locator(f"#aged tr[data-document='{overdue['id']}']")
        # 95 days overdue is past 90: its 200.00 open (230.00 - 30.00) in "over90" and in the total
        assert amount(aged_row.locator("td[data-field='over90']").inner_text()) == 200.0
        assert amount(aged_row.locator("td[data-field='total']").inner_text()) == 200.0
        console.shot(f"aged-drill-down-{language}")
        aged_row.locator(f"a[href='#/documents/{overdue['id']}']").click()
        console.wait_loaded()
        assert page.inner_text("#doc-number") == overdue["number"]

        # the customer's statement: the paid invoice's row opens it
        start = (day - datetime.timedelta(days=120)).isoformat()
        console.goto(f"/partners/{partner['id']}?side=client&startDate={start}&endDate={day.isoformat()}")
        link = page.locator(f"a.doc-number[href='#/documents/{paid['id']}']").first
        assert link.inner_text() == paid["number"]
        console.shot(f"statement-{language}")
        link.click()
        console.wait_loaded()
        assert page.inner_text("#doc-number") == paid["number"]

        # the list filtered by payment status
        console.goto(f"/documents?paymentStatus=overdue&businessPartnerId={partner['id']}")
        listed = page.locator("table.grid tbody tr")
        assert listed.count() == 1 and overdue["number"] in listed.inner_text()
        assert listed.locator(".badge-overdue").inner_text() == words["overdue"]

        # a phone's width
        page.set_viewport_size(PHONE)
        console.goto("/")
        assert page.locator(f"#overdue-invoices a[href='#/documents/{overdue['id']}']").count() == 1
        console.shot(f"home-overdue-phone-{language}")
        console.goto(f"/documents/{paid['id']}")
        console.shot(f"document-paid-phone-{language}")
    switch_language(console, "es")
    assert not console.errors
