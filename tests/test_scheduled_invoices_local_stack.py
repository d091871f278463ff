"""Smoke test: the real local stack fires the hourly schedule (every second here, through
LOCAL_SCHEDULE_SECONDS) and a schedule due today yields its sales invoice, seen over HTTP."""
from __future__ import annotations

import datetime as dt

import pytest

from tests.documents_support import CAI
from tests.test_local_stack import call, fresh_stack
from tests.test_webhooks_local_stack import wait_for

pytestmark = pytest.mark.smoke


def test_a_schedule_due_today_yields_its_invoice_through_the_local_stack(tmp_path):
    with fresh_stack(tmp_path, {"LOCAL_SCHEDULE_SECONDS": "1"}) as (stack, credentials):
        base, headers = stack.base, {"X-API-Key": credentials["apiKey"]}

        def created(path, body):
            status, _, answer = call("POST", f"{base}{path}", body, headers=headers)
            assert status == 201, answer
            return answer

        created("/cai", {"cai": CAI, "branchId": 1, "emissionPoint": "001", "documentType": "01",
                         "rangeStart": 1, "rangeEnd": 100, "deadline": "2099-12-31"})
        customer = created("/business-partners", {"name": "Cliente Programado", "type": "customer"})
        today = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=6)).date().isoformat()  # Honduras
        schedule = created("/scheduled-invoices", {
            "businessPartnerId": customer["id"], "frequency": "daily", "startDate": today,
            "lines": [{"description": "Mensualidad", "quantity": 1, "unitPrice": 100, "taxRate": 0.15}]})
        assert schedule["nextRunDate"] == today

        def made():
            status, _, found = call("GET", f"{base}/scheduled-invoices/{schedule['id']}", headers=headers)
            assert status == 200, found
            return found if found["lastDocumentId"] else None

        after = wait_for(made, 30, "the scheduled invoice")
        status, _, invoice = call("GET", f"{base}/documents/{after['lastDocumentId']}", headers=headers)
        assert status == 200, invoice
        assert (invoice["type"], invoice["status"], invoice["businessPartnerId"]) == ("01", "confirmed", customer["id"])
        assert invoice["total"] == 115 and invoice["number"].startswith("001-001-01-")
        assert after["lastRunDate"] >= today and after["nextRunDate"] > after["lastRunDate"]
        assert after["lastError"] is None
        status, _, listed = call("GET", f"{base}/documents?type=01", headers=headers)
        assert [d["date"] for d in listed["documents"]][-1] == today  # the first one is dated its run date
