"""DynamoDB round trips per request (counted, not timed): authentication costs one GetItem and
one BatchGetItem; then one GetItem/Query per read and one transaction per write."""
from __future__ import annotations

from collections import Counter

import pytest

AUTH = Counter({"GetItem": 1, "BatchGetItem": 1})


@pytest.fixture
def calls(table):
    seen: Counter = Counter()
    table.client.meta.events.register("before-call.dynamodb", lambda model, **_: seen.update([model.name]))
    return seen


def measure(calls, send):
    calls.clear()
    reply = send()
    assert reply.status < 300, reply.text
    return calls - AUTH


def test_reads_cost_one_call(api, calls, company_a):
    key = company_a.api_key
    for n in range(25):
        api.post("/business-partners", {"name": f"P{n}", "type": "customer"}, key=key)
    assert measure(calls, lambda: api.get("/business-partners/3", key=key)) == Counter({"GetItem": 1})
    assert measure(calls, lambda: api.get("/business-partners", key=key)) == Counter({"Query": 1})
    assert measure(calls, lambda: api.get("/business-partners?page=2&limit=10", key=key)) == Counter({"Query": 1})
    assert measure(calls, lambda: api.get("/companies", key=key)) == Counter({"GetItem": 1})


def test_writes_cost_one_transaction(api, calls, company_a):
    key = company_a.api_key
    created = measure(calls, lambda: api.post("/products", {"code": "A", "name": "A"}, key=key))
    # the id comes from the counter (one UpdateItem ADD, gaps allowed), the rest is one transaction
    assert created == Counter({"UpdateItem": 1, "TransactWriteItems": 1})
    updated = measure(calls, lambda: api.put("/products/1", {"name": "B"}, key=key))
    assert updated == Counter({"GetItem": 1, "TransactWriteItems": 1})
