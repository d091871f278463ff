"""Documents named by their number where a person reads them (issue 38, point 9): the banking
page's document column shows the invoice's number, not "#id"; and at a phone's width (390 px) the
aged receivables and a partner's statement keep their tables inside their box (scrolling there),
so the page itself does not spill sideways. In Spanish and English.

Hand-worked: the invoice is 1 x 100.00 + ISV 15 % = 115.00, paid in full through a payment method
linked to the bank account: one bank movement of 115.00 in, naming the invoice. Another invoice,
2 x 100.00 + 15 % = 230.00 with 30.00 paid in cash, stays open (200.00) for the reports' rows."""
from __future__ import annotations

import datetime
import uuid

from tests.browser.conftest import amount, api_call, bank_ledger
from tests.browser.reports_support import switch_language, today
from tests.browser.test_refund_journey import created, customer, document
from tests.browser.test_sales_journey import ensure_sales_setup

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


def page_spill(page) -> int:
    """How many pixels the page is wider than the viewport (0: nothing spills)."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def tables_spilling_their_card(page) -> list[str]:
    """The visible tables wider than their card that do not scroll inside it (a .table-scroll box
    within the card's edges)."""
    return page.evaluate("""() => [...document.querySelectorAll("#app table")].filter((table) => table.offsetParent)
      .filter((table) => {
        const card = (table.closest(".card") || table.parentElement).getBoundingClientRect();
        if (table.getBoundingClientRect().right <= card.right + 1) return false;
        const box = table.closest(".table-scroll");
        return !(box && box.getBoundingClientRect().right <= card.right + 1 && getComputedStyle(box).overflowX === "auto");
      }).map((table) => table.id || table.className)""")


def test_bank_movements_name_their_document_and_reports_fit_a_phone(console, demo, stack):
    base, key, page = stack[0].base, demo["apiKey"], console.page
    cash_id = ensure_sales_setup(base, key)
    tag = uuid.uuid4().hex[:6]
    bank = created(base, key, "/bank-accounts", {
        "name": f"Banco cobros {tag}", "openingBalanceDate": "2026-01-01",
        "chartOfAccountId": bank_ledger(base, key, tag)})
    method = created(base, key, "/payments/methods", {"name": f"Transferencia {tag}", "bankAccountId": bank["id"]})
    partner = customer(base, key, tag)
    sale = document(base, key, "01", partner["id"], 1, 100)                                   # 115.00
    created(base, key, f"/payments/documents/{sale['id']}/payments", {"paymentMethodId": method["id"], "amount": 115})
    day = today()
    # an invoice still open, so the aged receivables and the statement have rows to lay out:
    # 2 x 100.00 + 15 % = 230.00, 30.00 paid, 200.00 pending, 95 days overdue
    overdue = document(base, key, "01", partner["id"], 2, 100, date=(day - datetime.timedelta(days=100)).isoformat(),
                       dueDate=(day - datetime.timedelta(days=95)).isoformat())
    created(base, key, f"/payments/documents/{overdue['id']}/payments", {"paymentMethodId": cash_id, "amount": 30})
    [movement] = api_call(base, "GET", f"/bank-accounts/{bank['id']}/transactions", key)[2]["transactions"]
    assert (movement["documentId"], movement["documentNumber"], amount(str(movement["amount"]))) == (
        sale["id"], sale["number"], 115.0)

    console.login_to_company(demo["email"], demo["password"], demo["companyId"])
    start = (day - datetime.timedelta(days=120)).isoformat()
    for language in ("es", "en"):
        if language == "en":
            switch_language(console, "en")
        page.set_viewport_size(DESKTOP)
        console.goto(f"/banking/{bank['id']}")
        link = page.locator(f"a.doc-number[href='#/documents/{sale['id']}']")
        assert link.count() == 1 and link.inner_text() == sale["number"], page.inner_text("#app")
        # the document's cell names it by its number alone (the entry's cell shows "#<entry id>", which
        # may be the document's id too)
        assert page.locator("#app table td", has=link).inner_text() == sale["number"]
        console.shot(f"banking-document-number-{language}")

        # a phone: the reports' tables scroll inside their box, the page does not spill
        page.set_viewport_size(PHONE)
        console.goto(f"/banking/{bank['id']}")
        console.shot(f"banking-phone-{language}")
        console.goto(f"/reports/aged-receivables?date={day.isoformat()}")
        aged_row = page.locator(f"#aged tr[data-document='{overdue['id']}']")
        assert amount(aged_row.locator("td[data-field='total']").inner_text()) == 200.0
        console.shot(f"aged-phone-{language}")
        assert page_spill(page) == 0, f"aged receivables spill {page_spill(page)} px at 390"
        assert tables_spilling_their_card(page) == []
        console.goto(f"/partners/{partner['id']}?side=client&startDate={start}&endDate={day.isoformat()}")
        assert page.locator(f"a.doc-number[href='#/documents/{sale['id']}']").first.inner_text() == sale["number"]
        console.shot(f"statement-phone-{language}")
        assert page_spill(page) == 0, f"the statement spills {page_spill(page)} px at 390"
        assert tables_spilling_their_card(page) == []
    switch_language(console, "es")
    assert not console.errors
