"""Concurrent requests through the whole pipeline: ids stay unique, counters exact, optimistic
versions never lose an update, and a thread never sees another thread's request."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from chalicelib.store import keys

pytestmark = pytest.mark.emulator("races writers: on the emulator, transactions in flight conflict")

THREADS = 8
PER_THREAD = 5


def test_concurrent_partner_creation_gives_unique_ids_and_an_exact_total(api, table, company_a, company_b):
    def create(n):
        company = company_a if n % 2 == 0 else company_b
        reply = api.post("/business-partners", {"name": f"P{n}", "type": "customer"}, key=company.api_key)
        assert reply.status == 201, reply.text
        return company.company_id, reply.json["id"], reply.json["name"]

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(create, range(THREADS * PER_THREAD)))
    for company in (company_a, company_b):
        mine = [(pid, name) for cid, pid, name in results if cid == company.company_id]
        assert len({pid for pid, _ in mine}) == len(mine)
        listed = api.get("/business-partners?limit=100", key=company.api_key).json
        assert listed["total"] == len(mine) == len(listed["businessPartners"])
        # every answer described the caller's own new partner
        assert {p["name"] for p in listed["businessPartners"]} == {name for _, name in mine}
    events, _ = table.query(partition=("PK", f"C#{company_a.company_id}#EVT"), consistent=True)
    assert len(events) == THREADS * PER_THREAD // 2


def test_concurrent_updates_of_one_record_lose_nothing(api, table, company_a):
    created = api.post("/business-partners", {"name": "Base", "type": "customer"}, key=company_a.api_key).json
    fields = ["email", "phone", "address", "taxId"]
    values = {"email": "a@b.hn", "phone": "9999-0000", "address": "Col. Palmira", "taxId": "08011999123456"}

    def update(field):
        reply = api.put(f"/business-partners/{created['id']}", {field: values[field]}, key=company_a.api_key)
        assert reply.status == 200, reply.text

    with ThreadPoolExecutor(len(fields)) as pool:
        list(pool.map(update, fields))
    final = api.get(f"/business-partners/{created['id']}", key=company_a.api_key).json
    assert {field: final[field] for field in fields} == values
    assert final["version"] == 1 + len(fields)
    assert int(table.get(keys.entity_count(company_a.company_id, keys.PARTNER))["total"]) == 1


def test_concurrent_claims_of_one_product_code_let_exactly_one_win(api, company_a):
    def create(n):
        return api.post("/products", {"code": "SAME", "name": f"N{n}"}, key=company_a.api_key).status

    with ThreadPoolExecutor(THREADS) as pool:
        statuses = list(pool.map(create, range(THREADS)))
    assert sorted(statuses) == [201] + [409] * (THREADS - 1)
    assert api.get("/products", key=company_a.api_key).json["total"] == 1


def test_each_thread_sees_its_own_current_request():
    import threading

    from app import app

    barrier = threading.Barrier(2)
    seen = {}

    def serve(name):
        app.current_request = name
        barrier.wait()  # both threads have set their request before either reads it
        seen[name] = app.current_request

    threads = [threading.Thread(target=serve, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"a": "a", "b": "b"}


def test_concurrent_postings_to_the_same_accounts_add_up(api, company_a):
    from decimal import Decimal

    from tests.support import Books
    books = Books(api, company_a, full=False)

    def post(n):
        entry = books.entry("2026-11-05", ("110101", n + 1, 0), ("410101", 0, n + 1))
        return entry["id"]

    with ThreadPoolExecutor(THREADS) as pool:
        ids = list(pool.map(post, range(THREADS * PER_THREAD)))
    assert len(set(ids)) == len(ids)
    expected = Decimal(sum(n + 1 for n in range(THREADS * PER_THREAD)))
    assert books.ledger("110101")["closingBalance"] == expected
    trial = books.trial_balance()
    assert trial["totalDebit"] == trial["totalCredit"] == expected
    assert api.get("/journal-entries", key=company_a.api_key).json["total"] == len(ids)


@pytest.mark.parametrize("first", ["close", "entry"])
def test_a_period_closing_while_an_entry_posts_lets_none_slip_in(api, company_a, monkeypatch, first):
    """The race forced both ways: one request has read the period open and is held at its commit
    while the other runs whole. An entry the close got ahead of is refused (its commit lost the
    race, and run again it finds the period closed); an entry that got ahead of the close stays."""
    from tests.race_support import hold_at_commit
    from tests.support import Books
    books = Books(api, company_a, full=False)
    november = api.post("/accounting-periods", {"name": "Nov", "startDate": "2026-11-01", "endDate": "2026-11-30"},
                        key=company_a.api_key).json
    body = {"date": "2026-11-05", "status": "posted", "lines": [
        {"chartOfAccountId": books["110101"], "debit": 1}, {"chartOfAccountId": books["410101"], "credit": 1}]}

    def post():
        reply = api.post("/journal-entries", body, key=company_a.api_key)
        return reply.json.get("code") if reply.status == 400 else reply.status

    def close():
        return api.post(f"/accounting-periods/{november['id']}/close", key=company_a.api_key).status

    if first == "close":
        race = hold_at_commit(monkeypatch, post, close)
        entry, closed = race.held, race.other
        assert race.lost == 1 and entry == "PERIOD_CLOSED"  # its commit failed: it raced, and lost
    else:
        race = hold_at_commit(monkeypatch, close, post)
        closed, entry = race.held, race.other
        assert entry == 201  # the close had read the period before the entry came
    assert closed == 200
    # exactly the accepted entry is in the books, and nothing can be added once closed
    assert books.ledger("110101")["closingBalance"] == (1 if entry == 201 else 0)
    assert api.post("/journal-entries", body, key=company_a.api_key).json["code"] == "PERIOD_CLOSED"
