"""Aged receivables: a hand-worked set of invoices, payments and a credit note whose buckets are
written out below (not copied from the output), equal to the receivable control account."""
from __future__ import annotations

from tests.documents_support import Shop

BUCKETS = ("current", "days1To30", "days31To60", "days61To90", "over90", "total")


def test_a_hand_worked_aging_matches_the_control_account(api, company_a):
    shop = Shop(api, company_a)
    other = shop.created("/business-partners", {"name": "Zeta Comercial", "type": "customer",
                                                "taxId": "08019005555555"})["id"]
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})["id"]

    def invoice(date, due, quantity=1, partner=None):
        return shop.document("01", [(shop.service, quantity, 100)], date=date, dueDate=due, partner=partner)

    def pay(document, amount, date):
        reply = api.post(f"/payments/documents/{document['id']}/payments",
                         {"paymentMethodId": cash, "amount": amount, "paymentDate": date}, key=shop.key)
        assert reply.status == 201, reply.text

    a = invoice("2026-05-01", "2026-05-31")                    # 115.00, 153 days late on 31 October
    e = invoice("2026-07-20", "2026-07-30", partner=other)     # 115.00, 93 days late
    b = invoice("2026-08-15", "2026-09-14", quantity=2)        # 230.00, 30 paid: 200.00, 47 days late
    d = invoice("2026-09-25", "2026-10-02")                    # 115.00, 29 days late, paid on 5 November
    c = invoice("2026-10-10", "2026-11-09")                    # 115.00, not yet due
    note = shop.document("06", [(shop.service, 1, 20)], sourceDocumentId=a["id"], date="2026-10-20")  # -23.00, 11 days
    pay(b, 30, "2026-09-20")
    pay(d, 115, "2026-11-05")

    aged = api.get("/reports/aged-receivables?date=2026-10-31", key=shop.key).json
    by_name = {row["name"]: row for row in aged["partners"]}
    assert {name: [row[b] for b in BUCKETS] for name, row in by_name.items()} == {
        # a credit note ages from its own date, like an invoice (Xero does the same): 1-30 is d less the note
        "Cliente Uno": [115, 92, 200, 0, 115, 522],
        "Zeta Comercial": [0, 0, 0, 0, 115, 115]}
    assert [aged["totals"][b] for b in BUCKETS] == [115, 92, 200, 0, 230, 637]
    documents = {row["documentId"]: (row["open"], row["daysOverdue"], row["bucket"])
                 for row in by_name["Cliente Uno"]["documents"]}
    # each document's column by its days overdue: 153 > 90, 31 <= 47 <= 60, 29 and 11 within 1-30, 0 current
    assert documents == {a["id"]: (115, 153, "over90"), b["id"]: (200, 47, "days31To60"),
                         d["id"]: (115, 29, "days1To30"), c["id"]: (0 + 115, 0, "current"),
                         note["id"]: (-23, 11, "days1To30")}
    assert by_name["Zeta Comercial"]["taxId"] == "08019005555555" and e["id"] in {
        row["documentId"] for row in by_name["Zeta Comercial"]["documents"]}

    def receivable_account(date):
        rows = api.get(f"/journal-entries/trial-balance?date={date}", key=shop.key).json["accounts"]
        return next(row["balance"] for row in rows if row["code"] == "110201")

    assert receivable_account("2026-10-31") == 637
    later = api.get("/reports/aged-receivables?date=2026-11-20", key=shop.key).json
    assert later["totals"]["total"] == receivable_account("2026-11-20") == 522  # d paid on 5 November
    assert api.get("/reports/aged-payables?date=2026-10-31", key=shop.key).json == {
        "date": "2026-10-31", "partners": [], "totals": dict.fromkeys(BUCKETS, 0)}

    shop.document("103", [(shop.product, 1, 60)], date="2026-10-01", dueDate="2026-10-15")  # 69.00, 16 days late
    payables = api.get("/reports/aged-payables?date=2026-10-31", key=shop.key).json
    assert [payables["totals"][b] for b in BUCKETS] == [0, 69, 0, 0, 0, 69]
    rows = api.get("/journal-entries/trial-balance?date=2026-10-31", key=shop.key).json["accounts"]
    assert next(row["balance"] for row in rows if row["code"] == "210101") == 69
    csv_text = api.http.request("GET", "/reports/aged-receivables?date=2026-10-31", body=b"", headers={
        "authorization": f"Bearer {shop.key}", "accept": "text/csv"}).body.decode("utf-8-sig")
    assert csv_text.splitlines()[-1] == ",Totales,115.00,92.00,200.00,0.00,230.00,637.00"


def test_reports_without_a_date_are_of_the_companys_today_not_utcs(api, company_a, monkeypatch):
    """At 01:00 UTC on 29 November it is still 19:00 on the 28th in Tegucigalpa (UTC-6): a report
    asked for without a date is of the 28th, as the company's documents are dated. On UTC's date an
    invoice due on the 28th would already age a day overdue."""
    import datetime as dt

    from chalicelib import clock

    moment = dt.datetime(2026, 11, 29, 1, 0, tzinfo=dt.timezone.utc)
    monkeypatch.setattr(clock, "now", lambda: moment)
    shop = Shop(api, company_a)
    shop.document("01", [(shop.service, 1, 100)], date="2026-11-28", dueDate="2026-11-28")   # 115.00 due today
    aged = api.get("/reports/aged-receivables", key=shop.key).json
    assert aged["date"] == "2026-11-28"
    assert [aged["totals"][b] for b in BUCKETS] == [115, 0, 0, 0, 0, 115]   # current: due today, not overdue
    for path in ("/journal-entries/trial-balance", "/reports/balance-sheet"):
        assert api.get(path, key=shop.key).json["date"] == "2026-11-28", path
    assert api.get("/reports/income-statement", key=shop.key).json["endDate"] == "2026-11-28"
