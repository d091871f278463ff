"""Manual journal entries, the general ledger, the trial balance and accounting periods through
the API, with closed-period enforcement on every dated write."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib import jsoncodec
from chalicelib.store import keys
from tests.support import Books, walk_cursor


@pytest.fixture
def books(api, company_a):
    return Books(api, company_a, full=False)


def entry_body(books, date="2026-11-05", *lines, **fields):
    lines = lines or (("110101", 100, 0), ("410101", 0, 100))
    return {"date": date, **fields, "lines": [{"chartOfAccountId": books[code], "debit": d, "credit": c}
                                              for code, d, c in lines]}


def postings(table, company_id, account_id):
    items, _ = table.query(partition=("PK", keys.account_partition(company_id, account_id)),
                           sort_prefix=("SK", "P#"), consistent=True)
    return items


# --- create --------------------------------------------------------------------------------------

def test_a_manual_entry_is_a_draft_unless_posted(api, table, company_a, books):
    draft = api.post("/journal-entries", entry_body(books, description="Venta de contado"), key=company_a.api_key)
    assert draft.status == 201, draft.text
    assert draft.json["status"] == "draft" and draft.json["entryType"] == "manual"
    assert draft.json["totalDebit"] == draft.json["totalCredit"] == 100
    assert postings(table, company_a.company_id, books["110101"]) == []
    posted = api.post("/journal-entries", entry_body(books, status="posted", reference="F-001"), key=company_a.api_key)
    assert posted.json["status"] == "posted" and posted.json["postedAt"]
    assert len(postings(table, company_a.company_id, books["110101"])) == 1
    again = api.get(f"/journal-entries/{posted.json['id']}", key=company_a.api_key)
    assert again.status == 200 and again.text == posted.text


@pytest.mark.parametrize("lines, code, field", [
    ((("110101", 100, 0), ("410101", 0, 99.99)), "UNBALANCED_ENTRY", "lines"),
    ((("110101", 100, 100), ("410101", 0, 100)), "VALIDATION_ERROR", "lines[0]"),
    ((("110101", 0, 0), ("110103", 10, 0), ("410101", 0, 10)), "VALIDATION_ERROR", "lines[0]"),
    ((("110101", -5, 0), ("410101", 0, -5)), "VALIDATION_ERROR", "lines[0].debit"),
    ((("110101", 1.005, 0), ("410101", 0, 1.005)), "VALIDATION_ERROR", "lines[0].debit"),
    ((("110101", 10, 0), ("110103", 10, 0)), "VALIDATION_ERROR", "lines"),
    ((("110101", 10, 0),), "VALIDATION_ERROR", "lines"),
])
def test_bad_lines_are_refused_and_nothing_is_written(api, table, company_a, books, lines, code, field):
    reply = api.post("/journal-entries", entry_body(books, "2026-11-05", *lines, status="posted"),
                     key=company_a.api_key)
    assert reply.status == 400, reply.text
    assert reply.json["code"] == code and reply.json["details"][0]["field"] == field
    assert api.get("/journal-entries", key=company_a.api_key).json["total"] == 0
    assert postings(table, company_a.company_id, books["110101"]) == []


def test_minus_zero_is_zero(api, company_a, books):
    body = entry_body(books)
    body["lines"][0]["credit"] = "-0.00"
    reply = api.request("POST", "/journal-entries", raw=jsoncodec.dumps(body).replace('"-0.00"', "-0.00").encode(),
                        key=company_a.api_key)
    assert reply.status == 201, reply.text
    assert '"credit":0.00' in reply.text and ':-0' not in reply.text


def test_lines_need_existing_active_accounts(api, company_a, company_b, books):
    other = Books(api, company_b, full=False)
    body = entry_body(books, status="posted")
    body["lines"][1]["chartOfAccountId"] = other["410101"] + 1000
    unknown = api.post("/journal-entries", body, key=company_a.api_key)
    assert unknown.status == 400 and unknown.json["code"] == "INVALID_ACCOUNT"
    assert unknown.json["details"] == [{"field": "lines[1].chartOfAccountId", "message": "no such account"}]
    api.put(f"/chart-of-accounts/{books['410101']}", {"isActive": False}, key=company_a.api_key)
    inactive = api.post("/journal-entries", entry_body(books), key=company_a.api_key)
    assert inactive.status == 400 and inactive.json["code"] == "INVALID_ACCOUNT"
    assert "inactive" in inactive.json["details"][0]["message"]


def test_an_account_deactivated_after_the_draft_stops_the_posting(api, company_a, books):
    draft = api.post("/journal-entries", entry_body(books), key=company_a.api_key).json
    api.put(f"/chart-of-accounts/{books['410101']}", {"isActive": False}, key=company_a.api_key)
    reply = api.post(f"/journal-entries/{draft['id']}/post", key=company_a.api_key)
    assert reply.status == 400 and reply.json["code"] == "INVALID_ACCOUNT"
    assert reply.json["details"][0]["field"] == "lines[1].chartOfAccountId"
    assert api.get(f"/journal-entries/{draft['id']}", key=company_a.api_key).json["status"] == "draft"


def test_an_entry_is_never_too_large_to_post_and_reverse(api, company_a):
    accounts = [api.post("/chart-of-accounts", {"code": f"9{n:03d}", "name": f"C{n}", "type": "asset"},
                         key=company_a.api_key).json["id"] for n in range(32)]

    def lines(count):
        return [{"chartOfAccountId": a, "debit": 1, "credit": 0} for a in accounts[:count - 1]] + [
            {"chartOfAccountId": accounts[count - 1], "debit": 0, "credit": count - 1}]

    too_large = api.post("/journal-entries", {"date": "2026-11-05", "lines": lines(32)}, key=company_a.api_key)
    assert too_large.status == 400 and too_large.json["code"] == "DOCUMENT_TOO_LARGE"
    largest = api.post("/journal-entries", {"date": "2026-11-05", "lines": lines(31)}, key=company_a.api_key)
    assert largest.status == 201, largest.text
    entry_id = largest.json["id"]
    assert api.post(f"/journal-entries/{entry_id}/post", key=company_a.api_key,
                    headers={"idempotency-key": "post-largest"}).status == 200
    reversal = api.post(f"/journal-entries/{entry_id}/reverse", {"date": "2026-11-06"}, key=company_a.api_key,
                        headers={"idempotency-key": "reverse-largest"})
    assert reversal.status == 201, reversal.text
    assert len(reversal.json["lines"]) == 31


# --- post and reverse ----------------------------------------------------------------------------

def test_post_a_draft_once(api, table, company_a, books):
    draft = api.post("/journal-entries", entry_body(books), key=company_a.api_key).json
    posted = api.post(f"/journal-entries/{draft['id']}/post", key=company_a.api_key)
    assert posted.status == 200 and posted.json["status"] == "posted" and posted.json["version"] == 2
    again = api.post(f"/journal-entries/{draft['id']}/post", key=company_a.api_key)
    assert again.status == 400 and again.json["code"] == "ENTRY_NOT_DRAFT"
    assert len(postings(table, company_a.company_id, books["110101"])) == 1
    assert api.post("/journal-entries/999/post", key=company_a.api_key).status == 404


def test_reverse_swaps_the_lines_and_marks_the_original(api, company_a, books):
    original = books.entry("2026-11-05", ("110101", 100, 0), ("410101", 0, 100), description="Venta")
    reversal = api.post(f"/journal-entries/{original['id']}/reverse", {"date": "2026-11-20"}, key=company_a.api_key)
    assert reversal.status == 201, reversal.text
    body = reversal.json
    assert body["entryType"] == "reversal" and body["status"] == "posted" and body["reversalOf"] == original["id"]
    assert body["date"] == "2026-11-20" and "Venta" in body["description"]
    assert [(line["debit"], line["credit"]) for line in body["lines"]] == [(0, 100), (100, 0)]
    after = api.get(f"/journal-entries/{original['id']}", key=company_a.api_key).json
    assert after["status"] == "reversed" and after["reversedBy"] == body["id"]
    twice = api.post(f"/journal-entries/{original['id']}/reverse", key=company_a.api_key)
    assert twice.status == 400 and twice.json["code"] == "ENTRY_NOT_POSTED"
    assert books.ledger("110101")["closingBalance"] == 0


def test_reverse_defaults_to_the_entry_date_and_refuses_drafts_and_earlier_dates(api, company_a, books):
    draft = api.post("/journal-entries", entry_body(books), key=company_a.api_key).json
    assert api.post(f"/journal-entries/{draft['id']}/reverse", key=company_a.api_key).json["code"] == \
        "ENTRY_NOT_POSTED"
    posted = books.entry("2026-11-05", ("110101", 10, 0), ("410101", 0, 10))
    early = api.post(f"/journal-entries/{posted['id']}/reverse", {"date": "2026-11-04"}, key=company_a.api_key)
    assert early.status == 400 and early.json["details"][0]["field"] == "date"
    default = api.post(f"/journal-entries/{posted['id']}/reverse", {}, key=company_a.api_key)
    assert default.status == 201 and default.json["date"] == "2026-11-05"


# --- list ----------------------------------------------------------------------------------------

def test_list_filters_and_exact_totals(api, company_a, books):
    first = books.entry("2026-10-31", ("110101", 10, 0), ("410101", 0, 10))
    books.entry("2026-11-01", ("110101", 20, 0), ("410101", 0, 20), status="draft")
    third = books.entry("2026-11-15", ("110101", 30, 0), ("410101", 0, 30))
    api.post(f"/journal-entries/{first['id']}/reverse", {"date": "2026-11-30"}, key=company_a.api_key)

    def listing(query=""):
        reply = api.get(f"/journal-entries{query}", key=company_a.api_key)
        assert reply.status == 200, reply.text
        return reply.json

    everything = listing()
    assert everything["total"] == 4 and everything["page"] == 1 and everything["limit"] == 50
    assert [e["date"] for e in everything["journalEntries"]] == ["2026-11-30", "2026-11-15", "2026-11-01", "2026-10-31"]
    assert listing("?status=posted")["total"] == 2
    assert listing("?status=reversed")["journalEntries"][0]["id"] == first["id"]
    assert listing("?status=draft")["total"] == 1
    assert listing("?entryType=reversal")["total"] == 1
    assert listing("?entryType=manual&status=posted")["journalEntries"][0]["id"] == third["id"]
    november = listing("?startDate=2026-11-01&endDate=2026-11-15")
    assert november["total"] == 2 and {e["date"] for e in november["journalEntries"]} == {"2026-11-01", "2026-11-15"}
    assert listing("?startDate=2026-11-02&status=posted")["total"] == 2
    assert listing("?endDate=2026-10-31")["total"] == 1
    page = listing("?limit=3&page=2")
    assert page["total"] == 4 and [e["date"] for e in page["journalEntries"]] == ["2026-10-31"]
    seen = walk_cursor(lambda cursor: listing("?limit=1&status=posted" + (f"&cursor={cursor}" if cursor else "")),
                       "journalEntries")
    assert len(seen) == 2
    for bad in ("?status=open", "?entryType=x", "?startDate=2026-02-30", "?limit=101",
                "?startDate=2026-12-01&endDate=2026-11-01"):
        assert api.get(f"/journal-entries{bad}", key=company_a.api_key).status == 400, bad


# --- ledger --------------------------------------------------------------------------------------

def test_ledger_opening_running_and_closing_balances(api, company_a, books):
    books.entry("2026-09-30", ("110101", 1000, 0), ("3101", 0, 1000))
    books.entry("2026-10-15", ("110101", 250.50, 0), ("410101", 0, 250.50))
    books.entry("2026-11-01", ("6199", 100, 0), ("110101", 0, 100))
    books.entry("2026-11-01", ("110101", 40, 0), ("410101", 0, 40))
    books.entry("2026-12-01", ("110101", 5, 0), ("410101", 0, 5))
    ledger = books.ledger("110101", "2026-10-01", "2026-11-30")
    assert ledger["openingBalance"] == 1000 and ledger["closingBalance"] == Decimal("1190.50")
    assert ledger["totalDebit"] == Decimal("290.50") and ledger["totalCredit"] == 100
    assert [(p["date"], p["debit"], p["credit"], p["balance"]) for p in ledger["postings"]] == [
        ("2026-10-15", Decimal("250.50"), 0, Decimal("1250.50")),
        ("2026-11-01", 0, 100, Decimal("1150.50")),
        ("2026-11-01", 40, 0, Decimal("1190.50"))]
    assert ledger["account"]["code"] == "110101" and ledger["nextCursor"] is None
    income = books.ledger("410101", "2026-01-01", "2026-12-31")
    assert income["closingBalance"] == Decimal("295.50") and income["account"]["normalBalance"] == "credit"


def test_ledger_pages_keep_the_running_balance(api, company_a, books):
    for day in range(1, 8):
        books.entry(f"2026-11-{day:02d}", ("110101", day, 0), ("410101", 0, day))
    books.entry("2026-11-03", ("110101", 0, 1), ("6199", 1, 0))
    whole = books.ledger("110101", "2026-11-02", "2026-11-30")
    pages, cursor = [], None
    while True:
        page = books.ledger("110101", "2026-11-02", "2026-11-30", limit=2, **({"cursor": cursor} if cursor else {}))
        assert page["openingBalance"] == whole["openingBalance"] == 1
        assert page["closingBalance"] == whole["closingBalance"]
        pages += page["postings"]
        cursor = page["nextCursor"]
        if not cursor:
            break
    assert pages == whole["postings"] and len(pages) == 7


def cursor_of(key):
    from chalicelib.store.listing import encode_cursor
    return encode_cursor(key)


def test_tampered_cursors_are_400(api, company_a, books):
    for day in (1, 2, 3):
        books.entry(f"2026-11-{day:02d}", ("110101", 1, 0), ("410101", 0, 1))
    partition = keys.account_partition(company_a.company_id, books["110101"])
    ledger = f"/journal-entries/ledger?chartOfAccountId={books['110101']}&startDate=2026-11-01&endDate=2026-11-30"
    for sort_key in ("P#2026-02-30#000000000001#000", "P#2026-11", "P#2026-11-1x#000000000001#000",
                     "P#2026-12-01#000000000001#000", "BAL#2026-11"):
        reply = api.get(f"{ledger}&cursor={cursor_of({'PK': partition, 'SK': sort_key})}", key=company_a.api_key)
        assert reply.status == 400 and reply.json["details"][0]["field"] == "cursor", sort_key
    good = books.ledger("110101", "2026-11-01", "2026-11-30", limit=1)["nextCursor"]
    assert api.get(f"{ledger}&cursor={good}", key=company_a.api_key).status == 200
    listing = "/journal-entries?limit=1"
    entries = keys.collection_partition(company_a.company_id, keys.JOURNAL_ENTRY)
    for key in ({"GSI1PK": entries}, {"GSI1PK": entries, "GSI1SK": "2026-11-02#000000000002"},
                {"PK": "x", "SK": "y", "GSI1PK": entries, "GSI1SK": ""}):
        reply = api.get(f"{listing}&cursor={cursor_of(key)}", key=company_a.api_key)
        assert reply.status == 400, key
    issued = api.get(listing, key=company_a.api_key).json["nextCursor"]
    assert api.get(f"{listing}&cursor={issued}", key=company_a.api_key).status == 200
    # a cursor of one date range is not valid for another
    assert api.get(f"{listing}&endDate=2026-10-31&cursor={issued}", key=company_a.api_key).status == 400


def test_ledger_errors(api, company_a, books):
    base = f"/journal-entries/ledger?chartOfAccountId={books['110101']}"
    assert api.get("/journal-entries/ledger", key=company_a.api_key).json["details"][0]["field"] == "chartOfAccountId"
    assert api.get(f"{base}&startDate=2026-12-01&endDate=2026-11-01", key=company_a.api_key).status == 400
    assert api.get(f"{base}&cursor=bm90LWEtY3Vyc29y", key=company_a.api_key).status == 400
    assert api.get("/journal-entries/ledger?chartOfAccountId=999", key=company_a.api_key).status == 404
    default = api.get(base, key=company_a.api_key).json
    assert default["startDate"].endswith("-01-01") and default["endDate"] >= default["startDate"]


# --- trial balance -------------------------------------------------------------------------------

def test_trial_balance_totals_agree(api, company_a, books):
    books.entry("2026-10-01", ("110101", 1000, 0), ("3101", 0, 1000))
    books.entry("2026-10-20", ("6199", 300, 0), ("210101", 0, 300))
    books.entry("2026-11-03", ("110101", 500, 0), ("410101", 0, 500))
    october = books.trial_balance("2026-10-31")
    assert october["totalDebit"] == october["totalCredit"] == 1300
    assert {row["code"]: row["balance"] for row in october["accounts"]} == {
        "110101": 1000, "210101": 300, "3101": 1000, "6199": 300}
    later = books.trial_balance("2026-11-30")
    assert later["totalDebit"] == later["totalCredit"] == 1800
    assert later["totalDebitBalance"] == later["totalCreditBalance"] == 1800
    assert [row["code"] for row in later["accounts"]] == ["110101", "210101", "3101", "410101", "6199"]
    assert api.get("/journal-entries/trial-balance?date=tomorrow", key=company_a.api_key).status == 400


# --- accounting periods --------------------------------------------------------------------------

def period(api, company, name, start, end, expect=201):
    reply = api.post("/accounting-periods", {"name": name, "startDate": start, "endDate": end}, key=company.api_key)
    assert reply.status == expect, reply.text
    return reply.json


def test_periods_never_overlap(api, company_a):
    november = period(api, company_a, "Noviembre", "2026-11-01", "2026-11-30")
    assert november["status"] == "open"
    period(api, company_a, "Diciembre", "2026-12-01", "2026-12-31")
    for start, end in (("2026-11-30", "2026-12-05"), ("2026-10-01", "2027-01-31"), ("2026-11-10", "2026-11-11")):
        clash = period(api, company_a, "X", start, end, expect=409)
        assert clash["code"] == "PERIOD_OVERLAP"
    assert period(api, company_a, "X", "2026-11-30", "2026-11-01", expect=400)["code"] == "VALIDATION_ERROR"
    listed = api.get("/accounting-periods", key=company_a.api_key).json
    assert listed["total"] == 2 and [p["name"] for p in listed["accountingPeriods"]] == ["Noviembre", "Diciembre"]
    assert api.get(f"/accounting-periods/{november['id']}", key=company_a.api_key).json["name"] == "Noviembre"


def test_close_and_reopen(api, company_a):
    november = period(api, company_a, "Noviembre", "2026-11-01", "2026-11-30")
    path = f"/accounting-periods/{november['id']}"
    closed = api.post(f"{path}/close", key=company_a.api_key)
    assert closed.status == 200 and closed.json["status"] == "closed" and closed.json["closedAt"]
    assert api.post(f"{path}/close", key=company_a.api_key).json["code"] == "PERIOD_NOT_OPEN"
    reopened = api.post(f"{path}/reopen", key=company_a.api_key)
    assert reopened.status == 200 and reopened.json["status"] == "open"
    assert api.post(f"{path}/reopen", key=company_a.api_key).json["code"] == "PERIOD_NOT_CLOSED"
    assert api.post("/accounting-periods/99/close", key=company_a.api_key).status == 404


def test_a_closed_period_refuses_every_write_dated_inside(api, company_a, books):
    before = books.entry("2026-11-10", ("110101", 10, 0), ("410101", 0, 10))
    draft = books.entry("2026-11-12", ("110101", 20, 0), ("410101", 0, 20), status="draft")
    november = period(api, company_a, "Noviembre", "2026-11-01", "2026-11-30")
    api.post(f"/accounting-periods/{november['id']}/close", key=company_a.api_key)

    def closed(reply):
        assert reply.status == 400 and reply.json["code"] == "PERIOD_CLOSED", reply.text

    for status in ("draft", "posted"):
        closed(api.post("/journal-entries", entry_body(books, "2026-11-30", status=status), key=company_a.api_key))
        closed(api.post("/journal-entries", entry_body(books, "2026-11-01", status=status), key=company_a.api_key))
    closed(api.post(f"/journal-entries/{draft['id']}/post", key=company_a.api_key))
    closed(api.post(f"/journal-entries/{before['id']}/reverse", key=company_a.api_key))
    closed(api.post(f"/journal-entries/{before['id']}/reverse", {"date": "2026-11-20"}, key=company_a.api_key))
    assert books.ledger("110101")["closingBalance"] == 10
    assert api.get("/journal-entries", key=company_a.api_key).json["total"] == 2
    # the days around it are open, and a reversal may be dated after the close
    assert api.post("/journal-entries", entry_body(books, "2026-10-31"), key=company_a.api_key).status == 201
    assert api.post("/journal-entries", entry_body(books, "2026-12-01"), key=company_a.api_key).status == 201
    reversal = api.post(f"/journal-entries/{before['id']}/reverse", {"date": "2026-12-01"}, key=company_a.api_key)
    assert reversal.status == 201
    api.post(f"/accounting-periods/{november['id']}/reopen", key=company_a.api_key)
    assert api.post(f"/journal-entries/{draft['id']}/post", key=company_a.api_key).status == 200


def test_periods_spanning_years_lock_each_year(api, company_a, books):
    fiscal = period(api, company_a, "FY", "2026-07-01", "2027-06-30")
    api.post(f"/accounting-periods/{fiscal['id']}/close", key=company_a.api_key)
    for date in ("2026-07-01", "2026-12-31", "2027-01-01", "2027-06-30"):
        reply = api.post("/journal-entries", entry_body(books, date), key=company_a.api_key)
        assert reply.json["code"] == "PERIOD_CLOSED", date
    assert api.post("/journal-entries", entry_body(books, "2027-07-01"), key=company_a.api_key).status == 201
    assert period(api, company_a, "Long", "2030-01-01", "2045-01-01", expect=400)["code"] == "VALIDATION_ERROR"


def test_another_companys_entries_and_periods_are_404(api, company_a, company_b, books):
    entry = books.entry("2026-11-05", ("110101", 10, 0), ("410101", 0, 10))
    november = period(api, company_a, "Noviembre", "2026-11-01", "2026-11-30")
    key_b = company_b.api_key
    assert api.get(f"/journal-entries/{entry['id']}", key=key_b).status == 404
    assert api.post(f"/journal-entries/{entry['id']}/reverse", key=key_b).status == 404
    assert api.post(f"/accounting-periods/{november['id']}/close", key=key_b).status == 404
    assert api.get("/journal-entries", key=key_b).json["total"] == 0
    assert api.get("/accounting-periods", key=key_b).json["total"] == 0
    assert api.get("/journal-entries/trial-balance", key=key_b).json["accounts"] == []


def test_idempotent_replay_of_an_entry(api, company_a, books):
    body = entry_body(books, status="posted")
    first = api.post("/journal-entries", body, key=company_a.api_key, headers={"idempotency-key": "je-1"})
    again = api.post("/journal-entries", body, key=company_a.api_key, headers={"idempotency-key": "je-1"})
    assert again.header("Idempotent-Replayed") == "true" and again.text == first.text
    assert books.ledger("110101")["closingBalance"] == 100
