"""Each way DynamoDB can refuse a write has its own answer (chalicelib/store/transaction.py):
a conflict with a transaction in flight runs the command again, an item past 400 KB is the
caller's 400, throttling is 503 with Retry-After; none of them leaves anything half-written."""
from __future__ import annotations

from decimal import Decimal

import pytest

from infra.devstack import faithful_dynamodb
from tests.documents_support import Shop
from tests.support import RACES


@pytest.fixture
def shop(api, company_a):
    return Shop(api, company_a)


def invoice(shop: Shop) -> dict:
    return {"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-02",
            "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 100}]}


def documents(shop: Shop) -> int:
    return shop.api.get("/documents?type=01", key=shop.key).json["total"]


def test_a_conflict_with_a_transaction_in_flight_sends_the_transaction_again(shop):
    faithful_dynamodb.inject("TransactWriteItems", "conflict", times=3)
    reply = shop.api.post("/documents", invoice(shop), key=shop.key)
    assert reply.status == 201, reply.text
    # the three cancelled attempts took no number: the invoice is the range's first
    assert reply.json["number"] == "001-001-01-00000001"
    assert documents(shop) == 1
    # 100 + 15 % ISV, once
    assert Decimal(str(shop.partner(shop.customer)["receivableBalance"])) == Decimal("115")


def test_a_record_past_400_kb_is_refused_with_400_and_changes_nothing(shop):
    faithful_dynamodb.inject("TransactWriteItems", "too_large")
    reply = shop.api.post("/documents", invoice(shop), key=shop.key)
    assert reply.status == 400, reply.text
    assert reply.json["code"] == "DOCUMENT_TOO_LARGE"
    assert documents(shop) == 0
    assert shop.partner(shop.customer)["receivableBalance"] == 0
    # and the number it would have taken is still the next one
    assert shop.document("01", [(shop.service, 1, 100)])["number"] == "001-001-01-00000001"


def test_a_throttled_transaction_answers_503_with_retry_after_and_changes_nothing(shop):
    faithful_dynamodb.inject("TransactWriteItems", "throttle")
    reply = shop.api.post("/documents", invoice(shop), key=shop.key)
    assert reply.status == 503, reply.text
    assert reply.json["code"] == "SERVICE_UNAVAILABLE"
    assert reply.headers["Retry-After"] == "1"
    assert documents(shop) == 0
    assert shop.document("01", [(shop.service, 1, 100)])["number"] == "001-001-01-00000001"


def test_a_throttled_read_answers_503_with_retry_after(shop, monkeypatch):
    from botocore.retries.standard import ExponentialBackoff

    monkeypatch.setattr(ExponentialBackoff, "delay_amount", lambda self, context: 0)
    faithful_dynamodb.inject("Query", "throttle", times=5)  # the SDK's four retries, and one more
    reply = shop.api.get("/documents?type=01", key=shop.key)
    assert reply.status == 503, reply.text
    assert reply.headers["Retry-After"] == "1"


def test_a_single_write_that_meets_a_transaction_in_flight_is_sent_again(shop):
    # ids come from counters written by single UpdateItems (store/table.py Table.add)
    faithful_dynamodb.inject("UpdateItem", "conflict", times=2)
    reply = shop.api.post("/documents", invoice(shop), key=shop.key)
    assert reply.status == 201, reply.text
    assert documents(shop) == 1


def test_a_command_that_keeps_losing_answers_503_concurrent_update_with_retry_after(shop, monkeypatch):
    from chalicelib.store import transaction

    monkeypatch.setattr(transaction, "MAX_BACKOFF_S", 0)
    # every transaction cancelled: each run of the command resubmits its transaction under the
    # range's lease RESUBMISSIONS times before running again, COMMAND_ATTEMPTS runs in all
    faithful_dynamodb.inject("TransactWriteItems", "conflict", times=10_000)
    reply = shop.api.post("/documents", invoice(shop), key=shop.key)
    assert reply.status == 503, reply.text
    assert reply.json["code"] == "CONCURRENT_UPDATE"
    assert reply.headers["Retry-After"] == "1"
    assert documents(shop) == 0


@RACES
def test_a_number_retaken_at_commit_is_the_one_stored_answered_replayed_and_posted(shop, monkeypatch):
    """Invoices racing for one CAI range: the losers retake the next number into the transaction
    they built (store/transaction.py Renumbering). Every trace of a number agrees: the answer, the
    stored document, an Idempotency-Key replay, the journal entry's description; and nothing else
    is rewritten: not the range's first number on the document's CAI block, not a client's text or
    Idempotency-Key that quotes a number (a point of sale that keys requests by the number it
    expects)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from chalicelib.store import transaction

    retaken: list[int] = []
    commit = transaction.Transaction.commit

    def counting_commit(self):
        commit(self)
        retaken.extend([1] * len(self.substitutions))

    monkeypatch.setattr(transaction.Transaction, "commit", counting_commit)
    racers = 12
    barrier = threading.Barrier(racers)

    def body(n: int) -> dict:
        return {**invoice(shop), "reference": f"001-001-01-{n + 1:08d}"}

    def send(n: int) -> tuple[str, object]:
        barrier.wait()
        key = f"pos-001-001-01-{n + 1:08d}"
        return key, shop.api.post("/documents", body(n), key=shop.key, headers={"Idempotency-Key": key})

    with ThreadPoolExecutor(racers) as pool:
        answers = list(pool.map(send, range(racers)))
    assert all(reply.status == 201 for _, reply in answers), [reply.text for _, reply in answers]
    assert retaken, "no invoice retook its number: the race did not happen"
    numbers = sorted(reply.json["number"] for _, reply in answers)
    assert numbers == [f"001-001-01-{n:08d}" for n in range(1, racers + 1)]  # 1..12, none twice, no gap
    for n, (key, reply) in enumerate(answers):
        stored = shop.get(reply.json["id"])
        assert stored["number"] == reply.json["number"]
        assert stored["cai"]["rangeStart"] == reply.json["cai"]["rangeStart"] == "001-001-01-00000001"
        assert stored["reference"] == reply.json["reference"] == f"001-001-01-{n + 1:08d}"
        replay = shop.api.post("/documents", body(n), key=shop.key, headers={"Idempotency-Key": key})
        assert replay.headers["Idempotent-Replayed"] == "true"
        assert (replay.json["id"], replay.json["number"]) == (reply.json["id"], reply.json["number"])
        entry = shop.api.get(f"/journal-entries/{stored['journalEntryId']}", key=shop.key).json
        assert entry["description"].endswith(reply.json["number"])


def test_a_retaken_number_rewrites_the_number_only(shop, monkeypatch):
    """Another invoice takes number 1 while this one commits with it: this one retakes number 2.
    Its CAI block still starts the range at 1, and its reference and Idempotency-Key, which quote
    number 1, are the client's and stay as sent (a replay finds the invoice, not a second one)."""
    from chalicelib.store import transaction

    commit, cut_in = transaction.Transaction.commit, []

    def another_invoice_first(self):
        if self.renumbering is not None and not cut_in:
            cut_in.append(None)  # the other invoice's own commit goes straight through
            cut_in[0] = shop.api.post("/documents", invoice(shop), key=shop.key).json["number"]
        commit(self)

    monkeypatch.setattr(transaction.Transaction, "commit", another_invoice_first)
    key = "caja1-001-001-01-00000001"
    sent = {**invoice(shop), "reference": "001-001-01-00000001"}
    reply = shop.api.post("/documents", sent, key=shop.key, headers={"Idempotency-Key": key})
    assert reply.status == 201, reply.text
    assert cut_in == ["001-001-01-00000001"]
    stored = shop.get(reply.json["id"])
    for seen in (reply.json, stored):
        assert seen["number"] == "001-001-01-00000002"
        assert seen["cai"]["rangeStart"] == "001-001-01-00000001"
        assert seen["reference"] == "001-001-01-00000001"
    entry = shop.api.get(f"/journal-entries/{stored['journalEntryId']}", key=shop.key).json
    assert entry["description"].endswith("001-001-01-00000002")
    replay = shop.api.post("/documents", sent, key=shop.key, headers={"Idempotency-Key": key})
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert (replay.json["id"], replay.json["number"]) == (reply.json["id"], "001-001-01-00000002")
    assert documents(shop) == 2
