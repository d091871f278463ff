"""Scheduled invoices: the routes (validation, sparse versioned updates, tenant isolation) and the
hourly run (the invoices it makes through the documents service, exactly once per run date,
catch-up, month ends, end dates, recorded failures that stop nothing else)."""
from __future__ import annotations

import datetime as dt
import threading
from decimal import Decimal

import pytest

from chalicelib import clock
from chalicelib.events.handlers import run_scheduled_invoices
from chalicelib.services.sales_purchases import documents
from chalicelib.services.sales_purchases import scheduled_invoices as service
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction
from tests.documents_support import CAI, Shop
from tests.support import RACES


@pytest.fixture
def at(monkeypatch):
    """Moves the clock: at("2026-01-31T18:00") is noon of the 31st in Honduras (UTC-6)."""
    def move(moment: str) -> None:
        when = dt.datetime.fromisoformat(moment).replace(tzinfo=dt.timezone.utc)
        monkeypatch.setattr(clock, "now", lambda: when)
    move("2026-01-15T18:00")
    return move


@pytest.fixture
def shop(api, company_a, at) -> Shop:
    return Shop(api, company_a)


def schedule(shop: Shop, expect: int = 201, **fields):
    body = {"businessPartnerId": shop.customer, "frequency": "monthly", "startDate": "2026-01-31",
            "lines": [{"productId": shop.service, "quantity": 2, "unitPrice": 50},
                      {"description": "Soporte", "quantity": 1, "unitPrice": 10, "taxRate": 0}], **fields}
    reply = shop.api.post("/scheduled-invoices", body, key=shop.key)
    assert reply.status == expect, reply.text
    return reply.json


def get(shop: Shop, schedule_id: int):
    reply = shop.api.get(f"/scheduled-invoices/{schedule_id}", key=shop.key)
    assert reply.status == 200, reply.text
    return reply.json


def invoices(shop: Shop, schedule_id: int) -> list[dict]:
    """The schedule's invoices, oldest first (every document read whole, for its reference)."""
    listed = shop.api.get("/documents?limit=100", key=shop.key).json["documents"]
    found = [shop.get(item["id"]) for item in listed]
    return sorted((d for d in found if d.get("reference") == f"SCHEDULE-{schedule_id}"), key=lambda d: d["id"])


def due_index_entries(table, schedule_id: int, company_id: int = 1) -> list[str]:
    """The schedule's entries in the due index (every shard read)."""
    entries = []
    for partition in keys.schedule_due_partitions():
        for item in table.query_all(partition=("GSI2PK", partition), index="GSI2"):
            if (item.get("itemType") == keys.SCHEDULED_INVOICE and int(item["id"]) == schedule_id
                    and int(item["companyId"]) == company_id):
                entries.append(item["GSI2SK"])
    return entries


def run(table) -> dict:
    return service.run_due(table)


# --- the routes ------------------------------------------------------------------------------------

def test_create_get_and_list(shop, table):
    condition = shop.created("/payment-conditions", {"name": "30 días", "type": "credit", "creditDays": 30})
    created = schedule(shop, paymentConditionId=condition["id"], interval=2, endDate="2026-12-31")
    assert {name: created[name] for name in ("businessPartnerId", "frequency", "interval", "startDate", "endDate",
                                             "isActive", "nextRunDate", "lastDocumentId", "lastRunDate",
                                             "lastError", "version", "paymentConditionId")} == {
        "businessPartnerId": shop.customer, "frequency": "monthly", "interval": 2, "startDate": "2026-01-31",
        "endDate": "2026-12-31", "isActive": True, "nextRunDate": "2026-01-31", "lastDocumentId": None,
        "lastRunDate": None, "lastError": None, "version": 1, "paymentConditionId": condition["id"]}
    assert created["lines"][0] == {"productId": shop.service, "description": None, "quantity": 2, "unitPrice": 50,
                                   "discount": 0, "taxRate": None, "dimensions": []}
    assert created["lines"][1]["taxRate"] == 0 and created["createdAt"] and created["updatedAt"]
    assert get(shop, created["id"]) == created
    assert due_index_entries(table, created["id"]) == [f"2026-01-31#{shop.company.company_id:012d}#{created['id']:012d}"]
    other = schedule(shop, frequency="weekly", startDate="2026-02-02")
    listed = shop.api.get("/scheduled-invoices", key=shop.key).json
    assert (listed["total"], listed["page"], listed["limit"]) == (2, 1, 20)
    assert [s["id"] for s in listed["scheduledInvoices"]] == [created["id"], other["id"]]
    second_page = shop.api.get("/scheduled-invoices?limit=1&page=2", key=shop.key).json
    assert [s["id"] for s in second_page["scheduledInvoices"]] == [other["id"]]
    # the condition counts the schedule among its users
    assert shop.api.get(f"/payment-conditions/{condition['id']}", key=shop.key).status == 200
    from chalicelib.services.payments import payment_setup
    assert payment_setup.get_condition(table, shop.company.company_id, condition["id"])["referenceCount"] == 1


def test_a_past_start_runs_from_today_on_and_an_ended_schedule_is_refused(shop):
    daily = schedule(shop, frequency="daily", startDate="2026-01-01")
    assert daily["nextRunDate"] == "2026-01-15"  # today in Honduras: January's earlier days are not made
    monthly = schedule(shop, startDate="2025-10-31")
    assert monthly["nextRunDate"] == "2026-01-31"
    refused = schedule(shop, startDate="2025-10-01", endDate="2026-01-10", expect=400)
    assert refused["details"][0]["field"] == "endDate"
    inactive = schedule(shop, isActive=False)
    assert inactive["nextRunDate"] is None


@pytest.mark.parametrize("change, field", [
    ({"businessPartnerId": None}, "businessPartnerId"),
    ({"lines": []}, "lines"),
    ({"frequency": "yearly"}, "frequency"),
    ({"interval": 0}, "interval"),
    ({"interval": "2"}, "interval"),
    ({"startDate": "2026-02-30"}, "startDate"),
    ({"endDate": "2026-01-30"}, "endDate"),
    ({"colour": "blue"}, "colour"),
    ({"businessPartnerId": 999}, "businessPartnerId"),
    ({"paymentConditionId": 99}, "paymentConditionId"),
    ({"lines": [{"productId": 999, "quantity": 1, "unitPrice": 1}]}, "lines[0].productId"),
    ({"lines": [{"quantity": 1, "unitPrice": 1}]}, "lines[0].description"),
    ({"lines": [{"description": "x", "quantity": 1, "unitPrice": 10, "discount": 11}]}, "lines[0].discount"),
    ({"lines": [{"description": "x", "quantity": 1, "unitPrice": 1, "taxRate": 0.3}]}, "lines[0].taxRate"),
])
def test_bad_input_is_a_400_on_the_field_and_creates_nothing(shop, change, field):
    refused = schedule(shop, expect=400, **change)
    assert refused["code"] == "VALIDATION_ERROR" and refused["details"][0]["field"] == field, refused
    assert shop.api.get("/scheduled-invoices", key=shop.key).json["total"] == 0


def test_the_partner_must_be_an_active_customer(shop):
    assert schedule(shop, businessPartnerId=shop.supplier, expect=400)["details"][0]["field"] == "businessPartnerId"
    both = shop.created("/business-partners", {"name": "Ambos", "type": "both"})
    assert schedule(shop, businessPartnerId=both["id"])["businessPartnerId"] == both["id"]
    inactive = shop.created("/business-partners", {"name": "Inactivo", "type": "customer", "isActive": False})
    assert schedule(shop, businessPartnerId=inactive["id"], expect=400)["details"][0]["field"] == "businessPartnerId"


def test_put_is_sparse_versioned_and_moves_the_next_run(shop, table, at):
    created = schedule(shop)
    key = shop.key
    path = f"/scheduled-invoices/{created['id']}"
    lines = shop.api.put(path, {"lines": [{"description": "Renta", "quantity": 1, "unitPrice": 500}]}, key=key)
    assert lines.status == 200 and lines.json["version"] == 2 and lines.json["nextRunDate"] == "2026-01-31"
    assert [line["description"] for line in lines.json["lines"]] == ["Renta"]
    assert lines.json["frequency"] == "monthly" and lines.json["startDate"] == "2026-01-31"  # untouched
    stale = shop.api.put(path, {"interval": 3, "version": 1}, key=key)
    assert stale.status == 409 and stale.json["code"] == "VERSION_CONFLICT"
    assert shop.api.put(path, {"interval": 3}, key=key, headers={"If-Match": "1"}).status == 409
    for body, field in (({"frequency": None}, "frequency"), ({"startDate": None}, "startDate"),
                        ({"endDate": "2026-01-01"}, "endDate"), ({"businessPartnerId": shop.supplier},
                                                                  "businessPartnerId"),
                        ({"paymentConditionId": 42}, "paymentConditionId"), ({"nextRunDate": "2026-02-01"},
                                                                               "nextRunDate")):
        refused = shop.api.put(path, body, key=key)
        assert refused.status == 400 and refused.json["details"][0]["field"] == field, (body, refused.text)
    assert get(shop, created["id"])["version"] == 2  # refusals changed nothing

    weekly = shop.api.put(path, {"frequency": "weekly", "startDate": "2026-01-05"}, key=key).json
    assert weekly["nextRunDate"] == "2026-01-19" and weekly["version"] == 3  # the first Monday from today
    assert due_index_entries(table, created["id"])[0].startswith("2026-01-19#")

    paused = shop.api.put(path, {"isActive": False}, key=key).json
    assert paused["isActive"] is False and paused["nextRunDate"] is None
    assert due_index_entries(table, created["id"]) == []
    at("2026-02-10T18:00")
    resumed = shop.api.put(path, {"isActive": True}, key=key).json
    assert resumed["nextRunDate"] == "2026-02-16"  # the runs missed while paused are not made
    assert len(due_index_entries(table, created["id"])) == 1

    ended = shop.api.put(path, {"endDate": "2026-02-15"}, key=key).json
    assert ended["nextRunDate"] is None and due_index_entries(table, created["id"]) == []
    reopened = shop.api.put(path, {"endDate": None}, key=key).json
    assert reopened["endDate"] is None and reopened["nextRunDate"] == "2026-02-16"


def test_changing_the_payment_condition_moves_its_reference(shop, table):
    from chalicelib.services.payments import payment_setup

    first = shop.created("/payment-conditions", {"name": "Contado", "type": "cash"})
    second = shop.created("/payment-conditions", {"name": "8 días", "type": "credit", "creditDays": 8})
    created = schedule(shop, paymentConditionId=first["id"])
    path = f"/scheduled-invoices/{created['id']}"
    assert shop.api.put(path, {"paymentConditionId": second["id"]}, key=shop.key).status == 200
    counts = [payment_setup.get_condition(table, shop.company.company_id, c["id"]).get("referenceCount")
              for c in (first, second)]
    assert counts == [0, 1]
    assert shop.api.put(path, {"paymentConditionId": None}, key=shop.key).json["paymentConditionId"] is None
    assert payment_setup.get_condition(table, shop.company.company_id, second["id"])["referenceCount"] == 0


def test_another_companys_schedules_are_404_and_its_ids_are_unknown(api, shop, company_b):
    created = schedule(shop)
    path = f"/scheduled-invoices/{created['id']}"
    assert api.get(path, key=company_b.api_key).status == 404
    assert api.put(path, {"interval": 2}, key=company_b.api_key).status == 404
    assert api.get("/scheduled-invoices", key=company_b.api_key).json["total"] == 0
    borrowed = api.post("/scheduled-invoices", {"businessPartnerId": shop.customer, "frequency": "daily",
                                                "startDate": "2026-02-01",
                                                "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 1}]},
                        key=company_b.api_key)
    assert borrowed.status == 400 and borrowed.json["details"][0]["field"] == "businessPartnerId"
    assert get(shop, created["id"])["version"] == 1


# --- the hourly run --------------------------------------------------------------------------------

def test_a_run_makes_the_due_invoice_through_the_documents_service_and_advances(shop, table, at):
    condition = shop.created("/payment-conditions", {"name": "30 días", "type": "credit", "creditDays": 30})
    created = schedule(shop, paymentConditionId=condition["id"])
    at("2026-01-30T18:00")
    assert run_scheduled_invoices({})["scheduledInvoices"] == {"created": 0, "failed": 0, "skipped": 0}  # not due yet: not even read
    at("2026-01-31T18:00")
    assert run_scheduled_invoices({})["scheduledInvoices"] == {"created": 1, "failed": 0, "skipped": 0}
    [invoice] = invoices(shop, created["id"])
    assert (invoice["type"], invoice["status"], invoice["date"], invoice["dueDate"], invoice["businessPartnerId"]) == (
        "01", "confirmed", "2026-01-31", "2026-03-02", shop.customer)
    assert invoice["number"] == "001-001-01-00000001" and invoice["cai"]["cai"] == CAI
    assert [(line["description"], line["total"]) for line in invoice["lines"]] == [("Instalación", 115), ("Soporte", 10)]
    assert (invoice["subtotal"], invoice["taxTotal"], invoice["total"], invoice["pending"]) == (110, 15, 125, 125)
    assert shop.entry_lines(invoice["journalEntryId"])["110201"] == (Decimal("125.00"), Decimal("0"))
    assert shop.partner(shop.customer)["receivableBalance"] == 125
    after = get(shop, created["id"])
    assert (after["nextRunDate"], after["lastRunDate"], after["lastDocumentId"], after["lastError"], after["version"]) == (
        "2026-02-28", "2026-01-31", invoice["id"], None, 2)
    assert due_index_entries(table, created["id"])[0].startswith("2026-02-28#")

    assert run(table) == {"created": 0, "failed": 0, "skipped": 0}  # again the same day: nothing
    at("2026-01-31T23:00")
    assert run(table) == {"created": 0, "failed": 0, "skipped": 0}
    assert len(invoices(shop, created["id"])) == 1


@RACES
def test_a_stale_read_of_the_index_makes_no_second_invoice(shop, table, at):
    created = schedule(shop)
    at("2026-01-31T18:00")
    [stale] = [item for partition in keys.schedule_due_partitions()
               for item in table.query_all(partition=("GSI2PK", partition), index="GSI2")]
    assert run(table)["created"] == 1
    # a concurrent run that read the index before this one committed
    assert service._run_schedule(table, stale, "2026-01-31") == {"created": 0, "skipped": 1}
    assert len(invoices(shop, created["id"])) == 1 and get(shop, created["id"])["version"] == 2


@RACES
def test_concurrent_runs_make_one_invoice_per_due_date(shop, table, at, monkeypatch):
    created = schedule(shop, frequency="daily", startDate="2026-01-20")
    other = schedule(shop, frequency="weekly", startDate="2026-01-16")
    at("2026-01-26T18:00")  # daily: 20th..26th (7 runs); weekly: 16th and 23rd
    results, errors = [], []
    # every run has read the same due schedules before any of them makes an invoice
    barrier, waited, run_schedule = threading.Barrier(3), threading.local(), service._run_schedule

    def together(*args):
        if not getattr(waited, "done", False):
            waited.done = True
            barrier.wait(timeout=60)
        return run_schedule(*args)

    monkeypatch.setattr(service, "_run_schedule", together)

    def one_run():
        try:
            results.append(run(table))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=one_run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and sum(result["failed"] for result in results) == 0
    assert sum(result["created"] for result in results) == 9
    assert [d["date"] for d in invoices(shop, created["id"])] == [f"2026-01-{day}" for day in range(20, 27)]
    assert [d["date"] for d in invoices(shop, other["id"])] == ["2026-01-16", "2026-01-23"]
    numbers = [d["number"] for d in invoices(shop, created["id"]) + invoices(shop, other["id"])]
    assert len(set(numbers)) == 9  # none shares a fiscal number
    assert get(shop, created["id"])["nextRunDate"] == "2026-01-27"
    assert get(shop, other["id"])["nextRunDate"] == "2026-01-30"


def test_month_end_runs_take_the_last_day_and_come_back_to_the_31st(shop, table, at):
    created = schedule(shop)
    seen = []
    for today, next_run in (("2026-01-31", "2026-02-28"), ("2026-02-28", "2026-03-31"), ("2026-03-31", "2026-04-30"),
                            ("2026-04-30", "2026-05-31")):
        at(f"{today}T18:00")
        assert run(table)["created"] == 1
        seen.append(get(shop, created["id"])["nextRunDate"])
        assert seen[-1] == next_run
    assert [d["date"] for d in invoices(shop, created["id"])] == ["2026-01-31", "2026-02-28", "2026-03-31",
                                                                  "2026-04-30"]


def test_missed_runs_are_caught_up_each_dated_its_run_date(shop, table, at):
    created = schedule(shop)
    at("2026-04-15T18:00")  # January 31st, February 28th and March 31st were missed
    assert run(table) == {"created": 3, "failed": 0, "skipped": 0}
    made = invoices(shop, created["id"])
    assert [d["date"] for d in made] == ["2026-01-31", "2026-02-28", "2026-03-31"]
    assert [d["number"][-3:] for d in made] == ["001", "002", "003"]
    after = get(shop, created["id"])
    assert (after["nextRunDate"], after["lastRunDate"], after["lastDocumentId"]) == (
        "2026-04-30", "2026-03-31", made[-1]["id"])


def test_catch_up_is_bounded_per_run(shop, table, at):
    created = schedule(shop, frequency="daily", startDate="2026-01-15",
                       lines=[{"description": "Café", "quantity": 1, "unitPrice": 1}])
    at("2026-03-01T18:00")  # 46 days due
    assert run(table)["created"] == service.CATCH_UP_LIMIT == 31
    assert get(shop, created["id"])["nextRunDate"] == "2026-02-15"
    assert run(table)["created"] == 15
    assert get(shop, created["id"])["nextRunDate"] == "2026-03-02"


def test_the_end_date_stops_the_schedule(shop, table, at):
    created = schedule(shop, frequency="daily", startDate="2026-01-20", endDate="2026-01-22")
    at("2026-01-30T18:00")
    assert run(table)["created"] == 3
    assert [d["date"] for d in invoices(shop, created["id"])] == ["2026-01-20", "2026-01-21", "2026-01-22"]
    after = get(shop, created["id"])
    assert after["nextRunDate"] is None and after["lastRunDate"] == "2026-01-22"
    assert due_index_entries(table, created["id"]) == []
    at("2026-03-30T18:00")
    assert run(table)["created"] == 0


def test_an_ended_schedule_cannot_be_reactivated_into_one_that_never_runs(shop, table, at):
    created = schedule(shop, frequency="daily", startDate="2026-01-20", endDate="2026-01-22", isActive=False)
    at("2026-01-30T18:00")
    reply = shop.api.put(f"/scheduled-invoices/{created['id']}", {"isActive": True}, key=shop.key)
    assert reply.status == 400 and reply.json["details"][0]["field"] == "endDate", reply.text
    assert get(shop, created["id"]) == created
    resumed = shop.api.put(f"/scheduled-invoices/{created['id']}", {"isActive": True, "endDate": "2026-02-05"},
                           key=shop.key)
    assert resumed.status == 200 and resumed.json["nextRunDate"] == "2026-01-30", resumed.text


def test_inactive_schedules_are_not_run(shop, table, at):
    inactive = schedule(shop, isActive=False)
    paused = schedule(shop)
    assert shop.api.put(f"/scheduled-invoices/{paused['id']}", {"isActive": False}, key=shop.key).status == 200
    at("2026-02-28T18:00")
    assert run(table) == {"created": 0, "failed": 0, "skipped": 0}
    assert invoices(shop, inactive["id"]) == invoices(shop, paused["id"]) == []


def test_a_schedule_is_due_by_its_own_companys_date(shop, table, at):
    created = schedule(shop, startDate="2026-02-01")
    at("2026-02-01T03:00")  # the 1st in UTC, still January 31st in Honduras
    assert run(table) == {"created": 0, "failed": 0, "skipped": 1}
    at("2026-02-01T06:00")
    assert run(table)["created"] == 1 and invoices(shop, created["id"])[0]["date"] == "2026-02-01"


def test_a_failing_schedule_records_its_error_and_another_company_still_runs(api, shop, table, at, company_b):
    other_shop = Shop(api, company_b)
    failing = schedule(shop)
    working = schedule(other_shop)
    assert api.put(f"/business-partners/{shop.customer}", {"isActive": False}, key=shop.key).status == 200
    at("2026-01-31T18:00")
    assert run(table) == {"created": 1, "failed": 1, "skipped": 0}
    assert len(invoices(other_shop, working["id"])) == 1
    failed = get(shop, failing["id"])
    assert failed["lastError"]["code"] == "VALIDATION_ERROR" and "inactive" in failed["lastError"]["message"]
    assert failed["lastError"]["message"].startswith("2026-01-31") and failed["lastError"]["at"].startswith("2026-01-31T18")
    assert failed["nextRunDate"] == "2026-01-31" and len(due_index_entries(table, failing["id"])) == 1  # still due
    # stored by the hourly run, read in the reader's language: the run's date, the field as a person knows it
    # and the problem (no program name, no English inside the Spanish)
    assert failed["lastError"]["message"] == "2026-01-31: Customer or supplier: the business partner is inactive"
    read_in_spanish = shop.api.get(f"/scheduled-invoices/{failing['id']}", key=shop.key,
                                   headers={"Accept-Language": "es"}).json["lastError"]
    assert read_in_spanish == {**failed["lastError"], "message": "2026-01-31: Cliente o proveedor: el cliente o "
                                                                 "proveedor está inactivo"}
    listed = shop.api.get("/scheduled-invoices", key=shop.key, headers={"Accept-Language": "es"}).json
    assert [s["lastError"] for s in listed["scheduledInvoices"] if s["id"] == failing["id"]] == [read_in_spanish]
    assert invoices(shop, failing["id"]) == []

    assert api.put(f"/business-partners/{shop.customer}", {"isActive": True}, key=shop.key).status == 200
    at("2026-01-31T19:00")
    assert run(table) == {"created": 1, "failed": 0, "skipped": 0}  # the next hourly run retries it
    retried = get(shop, failing["id"])
    assert retried["lastError"] is None and retried["nextRunDate"] == "2026-02-28"
    assert [d["date"] for d in invoices(shop, failing["id"])] == ["2026-01-31"]


def test_an_exhausted_cai_range_stops_the_catch_up_at_the_failing_date(api, company_a, table, at):
    shop = Shop(api, company_a, range_size=1)
    created = schedule(shop, frequency="daily", startDate="2026-01-20")
    at("2026-01-22T18:00")
    assert run(table) == {"created": 1, "failed": 1, "skipped": 0}
    after = get(shop, created["id"])
    assert after["lastError"]["code"] == "CAI_EXHAUSTED"
    assert (after["lastRunDate"], after["nextRunDate"]) == ("2026-01-20", "2026-01-21")
    assert [d["date"] for d in invoices(shop, created["id"])] == ["2026-01-20"]


def test_an_unexpected_error_is_recorded_and_stops_nothing_else(api, shop, table, at, company_b, monkeypatch):
    other_shop = Shop(api, company_b)
    broken = schedule(shop)
    working = schedule(other_shop)
    create_document = documents.create_document

    def explode_for_a(command, fields, **kwargs):
        if command.company_id == shop.company.company_id:
            raise RuntimeError("boom")
        return create_document(command, fields, **kwargs)

    monkeypatch.setattr(documents, "create_document", explode_for_a)
    at("2026-01-31T18:00")
    # an error no company data explains: counted apart, for the alarm
    assert run(table) == {"created": 1, "failed": 1, "skipped": 0, "errored": 1}
    error = get(shop, broken["id"])["lastError"]
    assert error["code"] == "INTERNAL_ERROR" and "boom" not in error["message"]
    assert len(invoices(other_shop, working["id"])) == 1


def test_the_local_stack_fires_the_hourly_schedule_soon_after_it_starts():
    from chalice import Chalice, Rate

    from infra.devstack.pollers import FIRST_SCHEDULE_DELAY_S, Pollers

    app, fired = Chalice("hourly"), threading.Event()

    @app.schedule(Rate(1, unit=Rate.HOURS))
    def every_hour(event):
        fired.set()

    pollers = Pollers(app, dynamodb_streams=None, sqs=None, table_stream_arn=None).start()
    try:
        assert fired.wait(FIRST_SCHEDULE_DELAY_S + 5), "the hourly schedule did not fire soon after start"
    finally:
        pollers.stop()


def test_a_schedule_that_cannot_even_be_read_stops_nothing_else(api, shop, table, at, company_b):
    working = schedule(Shop(api, company_b))
    broken = schedule(shop)
    transaction = Transaction(table)  # no recurrence can be made of what it now holds
    transaction.update(service.schedule_key(shop.company.company_id, broken["id"]), "SET frequency = :f",
                       values={":f": "fortnightly"})
    transaction.commit()
    at("2026-01-31T18:00")
    assert run(table) == {"created": 1, "failed": 1, "skipped": 0, "errored": 1}
    assert api.get(f"/scheduled-invoices/{working['id']}", key=company_b.api_key).json["lastRunDate"] == "2026-01-31"


def test_an_el_salvador_schedule_is_checked_as_the_dte_it_will_make(api, company_b, table, at):
    """A schedule of an SV company is refused now, naming the field, when the DTE its invoices
    would be is one the authority's format refuses; a good one makes DTEs the authority accepts."""
    sv = Shop(api, company_b, country="SV")
    big = [{"productId": sv.service, "quantity": 10, "unitPrice": 100}]  # 1,130 dollars: the consumer is named
    refused = schedule(sv, expect=400, lines=big)
    assert {detail["field"] for detail in refused["details"]} >= {"dte.receptor.numDocumento"}
    assert sv.api.get("/scheduled-invoices", key=sv.key).json["scheduledInvoices"] == []
    api.put(f"/business-partners/{sv.customer}", {"taxId": "01234567-8"}, key=sv.key)
    created = schedule(sv, lines=big)
    at("2026-02-02T18:00")  # the run of the 31st was missed (the job did not run for two days)
    assert run(table) == {"created": 1, "failed": 0, "skipped": 0}
    [invoice] = invoices(sv, created["id"])
    # a DTE is dated the day it is issued: today, not the missed run's date
    assert invoice["date"] == "2026-02-02" and invoice["dte"]["status"] == "accepted", invoice["dte"]
    assert get(sv, created["id"])["lastRunDate"] == "2026-01-31"
