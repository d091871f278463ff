"""Concurrent requests through the whole pipeline: ids stay unique, counters exact, optimistic
versions never lose an update, and a thread never sees another thread's request."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from chalicelib.store import keys

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
    values = {"email": "a@b.hn", "phone": "9999-0000", "address": "Col. Palmira", "taxId": "0801"}

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
