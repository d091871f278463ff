"""Scheduled invoices: a customer's sales invoice (01) made again every so many days, weeks or
months by the hourly run, through the same command as POST /documents.

A schedule is a small record of its company. While it is active and has a run ahead, it also
sits in the due index (GSI2, keys.schedule_due_index) under its next run date: the hourly run
reads that index up to today, never the table. Each invoice commits in one transaction with
the schedule's advance, conditioned on the run date it was made for, so a run date yields one
invoice however many runs overlap or repeat."""
from __future__ import annotations

import dataclasses
import datetime as _dt
from collections.abc import Mapping
from typing import Any

from chalicelib import clock, countries
from chalicelib.auth.principal import Principal
from chalicelib.domain import schedules
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.messages import stored_failure
from chalicelib.observability import logger
from chalicelib.services import document_names, records
from chalicelib.services.commands import Command
from chalicelib.services.payments import payment_setup
from chalicelib.services.sales_purchases import document_content, documents
from chalicelib.store import keys
from chalicelib.store.listing import Page
from chalicelib.store.repositories import scheduled_invoices as schedule_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import LostRace, Transaction, run_with_retries

SALES_INVOICE = "01"
# Missed runs one hourly run makes per schedule, the oldest first: a schedule further behind (a
# daily one that failed for more than a month) catches up over the following runs.
CATCH_UP_LIMIT = 31
# Changing these moves the runs: the next one is computed again from today.
_RESCHEDULING = ("frequency", "interval", "startDate")


def schedule_key(company_id: int, schedule_id: int) -> keys.Key:
    return keys.small_record(company_id, keys.SCHEDULED_INVOICE, schedule_id)


def list_schedules(table: Table, company_id: int, page: int, limit: int) -> Page:
    listed = records.small_page(records.small_records(table, company_id, keys.SCHEDULED_INVOICE), page, limit)
    return dataclasses.replace(listed, items=_with_last_document_names(table, company_id, listed.items))


def get_schedule(table: Table, company_id: int, schedule_id: int) -> dict[str, Any]:
    schedule = records.get_small_record(table, company_id, keys.SCHEDULED_INVOICE, schedule_id, "Scheduled invoice")
    return _with_last_document_names(table, company_id, [schedule])[0]


def _with_last_document_names(table: Table, company_id: int, schedules: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last invoice named by its number (stored by each run since issue 38; read for older runs)."""
    return document_names.completed(table, company_id, schedules, id_field="lastDocumentId", prefix="lastDocument")


# --- create and update ---------------------------------------------------------------------------

def create_schedule(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id = command.table, command.company_id
    fields = {**fields, "lines": _stored_lines(fields["lines"])}
    company = _check_invoice_content(table, company_id, fields)
    _check_dates(fields)
    next_run = None
    if fields["isActive"]:
        next_run = _first_run_from(_recurrence(fields), _today(company))
        if next_run is None:
            raise ValidationFailed.for_field("endDate", "the schedule would end before its first run")
    item = records.new_small_record(table, company_id, keys.SCHEDULED_INVOICE,
                                    {**fields, "companyId": company_id, "nextRunDate": next_run})
    item.update(_due_index(item))
    transaction = command.transaction()
    transaction.put_new(item)
    if item.get("paymentConditionId") is not None:
        payment_setup.reference_condition(transaction, company_id, item["paymentConditionId"], 1)
    return command.commit(transaction, item)


def update_schedule(command: Command, schedule_id: int, changes: dict[str, Any],
                    expected_version: int | None) -> dict[str, Any]:
    """Sparse. Changing the frequency, interval or start date, or reactivating, computes the
    next run again from today (never a date already run): runs missed meanwhile are not made.
    Deactivating, or an end date before the next run, takes the schedule out of the due index."""
    table, company_id = command.table, command.company_id
    current = records.get_small_record(table, company_id, keys.SCHEDULED_INVOICE, schedule_id, "Scheduled invoice")
    if "lines" in changes:
        changes = {**changes, "lines": _stored_lines(changes["lines"])}
    merged = {**current, **changes}
    if "businessPartnerId" in changes or "lines" in changes:
        _check_invoice_content(table, company_id, merged)
    _check_dates(merged)
    changes = {**changes, **_next_run_after_change(table, current, merged, changes)}

    def reference_condition(transaction: Transaction, _: dict[str, Any]) -> None:
        before, after = current.get("paymentConditionId"), merged.get("paymentConditionId")
        if "paymentConditionId" not in changes or before == after:
            return
        if after is not None:
            payment_setup.reference_condition(transaction, company_id, int(after), 1)
        if before is not None:
            payment_setup.reference_condition(transaction, company_id, int(before), -1)

    return records.update_item(command, schedule_key(company_id, schedule_id), current, changes, expected_version,
                               reference_condition)


def _next_run_after_change(table: Table, current: dict[str, Any], merged: dict[str, Any],
                           changes: dict[str, Any]) -> dict[str, Any]:
    """The schedule's nextRunDate and due index attributes after a change."""
    if not merged.get("isActive", True):
        next_run = None
    elif (any(name in changes for name in _RESCHEDULING) or not current.get("isActive", True)
          or (current.get("nextRunDate") is None and "endDate" in changes)):
        company = table.get(keys.company(current["companyId"])) or {}
        not_before = _today(company)
        if current.get("lastRunDate"):
            not_before = max(not_before, _day_after(current["lastRunDate"]))
        next_run = _first_run_from(_recurrence(merged), not_before)
        if next_run is None:  # as create refuses it: an active schedule that would never run
            raise ValidationFailed.for_field("endDate", "the schedule would end before its next run")
    else:
        next_run = current.get("nextRunDate")
        if next_run is not None and merged.get("endDate") is not None and next_run > merged["endDate"]:
            next_run = None
    return {"nextRunDate": next_run, **_due_index({**merged, "nextRunDate": next_run})}


def _check_invoice_content(table: Table, company_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """The partner and lines as a sales invoice checks them (a customer, active; products that
    exist and are active; amounts within bounds), so a schedule is refused now rather than
    failing at every run. Returns the company."""
    return document_content.check_content(table, company_id, SALES_INVOICE, _invoice_request(fields))


def _check_dates(fields: dict[str, Any]) -> None:
    if fields.get("endDate") is not None and fields["endDate"] < fields["startDate"]:
        raise ValidationFailed.for_field("endDate", "must not be before the start date")


def _stored_lines(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{name: value for name, value in line.items() if value is not None} for line in lines]


# --- dates -----------------------------------------------------------------------------------------

def _recurrence(schedule: dict[str, Any]) -> schedules.Recurrence:
    return schedules.Recurrence.of(schedule["frequency"], int(schedule["interval"]), schedule["startDate"],
                                   schedule.get("endDate"))


def _today(company: dict[str, Any]) -> str:
    return clock.company_today(company)


def _day_after(date: str) -> str:
    return (_dt.date.fromisoformat(date) + _dt.timedelta(days=1)).isoformat()


def _first_run_from(recurrence: schedules.Recurrence, date: str) -> str | None:
    found = schedules.first_run_on_or_after(recurrence, _dt.date.fromisoformat(date))
    return found.isoformat() if found else None


def _due_index(schedule: dict[str, Any]) -> dict[str, Any]:
    """The due index attributes of an active schedule with a run ahead; None (removed) otherwise."""
    return schedule_store.due_index(schedule)


def _latest_today() -> str:
    """Today where it is latest among the companies' countries (and UTC, for the rest)."""
    return max(clock.today_in(country) for country in (*(pack.code for pack in countries.packs()), "UTC"))


# --- the hourly run --------------------------------------------------------------------------------

def system_principal(company_id: int) -> Principal:
    """The hourly run's principal; never one a request can carry (Principal.from_context)."""
    return Principal.acting_for(company_id, "scheduler")


def run_due(table: Table) -> dict[str, int]:
    """Makes every due invoice of every company: the due index read up to the latest today,
    each schedule then judged by its own company's today. One schedule's failure is recorded on
    it and stops nothing else. Returns how many invoices were `created`, how many schedules
    `failed`, and how many were `skipped` (not due yet where their company is, or made by a
    concurrent run); `errored`, when any, counts the failures no company data explains (a bug,
    DynamoDB unavailable): what the alarm watches."""
    summary = {"created": 0, "failed": 0, "skipped": 0}
    todays: dict[int, str | None] = {}
    issued_today: dict[int, bool] = {}
    high = keys.day_end(_latest_today())  # after the company and schedule ids of the day
    for partition in keys.schedule_due_partitions():
        for schedule in schedule_store.due_through(table, partition, high):
            try:
                company_id = schedule["companyId"]
                if company_id not in todays:
                    company = table.get(keys.company(company_id))
                    todays[company_id] = _today(company) if company else None
                    issued_today[company_id] = bool(company and countries.pack_of(company).hooks.issues_electronically(
                        company, SALES_INVOICE))
                outcome = _run_schedule(table, schedule, todays[company_id], issued_today[company_id])
            except Exception:  # reading it failed (throttled, malformed): the others still run
                logger.exception("scheduled invoice not run",
                                 extra={"companyId": schedule.get("companyId"), "schedule": schedule.get("id")})
                outcome = {"failed": 1, "errored": 1}
            for name, count in outcome.items():
                summary[name] = summary.get(name, 0) + count
    logger.info("scheduled invoices run", extra={"summary": summary})
    return summary


def _run_schedule(table: Table, schedule: dict[str, Any], today: str | None, issued_today: bool = False) -> dict[str, int]:
    """The schedule's due runs up to its company's today, oldest first, at most CATCH_UP_LIMIT.
    A failed run is recorded and ends the schedule's turn: it stays due for the next run. An
    invoice that is a DTE (El Salvador) is dated today, the day it is issued, even when it
    catches up a run missed earlier."""
    if today is None:
        return {"skipped": 1}
    runs = schedules.due_runs(_recurrence(schedule), _dt.date.fromisoformat(schedule["nextRunDate"]),
                              _dt.date.fromisoformat(today), CATCH_UP_LIMIT)
    if not runs:
        return {"skipped": 1}
    command = Command(system_principal(schedule["companyId"]), table)
    created = 0
    for run in runs:
        run_date = run.isoformat()
        try:
            advanced = _make_invoice(command, schedule, run_date, today if issued_today else run_date)
        except ApiError as error:
            _record_failure(command, schedule, run_date, error.code, error.message, error.details)
            return {"created": created, "failed": 1}
        except Exception:  # a bug must not stop the other schedules: logged whole, recorded plainly
            logger.exception("scheduled invoice failed", extra=_ids(schedule, run_date))
            _record_failure(command, schedule, run_date, "INTERNAL_ERROR",
                            "an internal error stopped this run; it is retried at the next run.")
            return {"created": created, "failed": 1, "errored": 1}
        if advanced is None:  # another run made it
            return {"created": created, "skipped": 1}
        schedule = advanced
        created += 1
    return {"created": created}


def _make_invoice(command: Command, schedule: dict[str, Any], run_date: str, dated: str) -> dict[str, Any] | None:
    """The invoice of one run date, committed with the schedule's advance under the condition
    that the schedule is still as read and still waits for this date. A lost race reads the
    schedule again: advanced past the date, another run made the invoice (None); otherwise this
    run tries again on fresh data. Returns the schedule after the run."""
    key = schedule_key(schedule["companyId"], schedule["id"])
    first_read: list[dict[str, Any]] = [schedule]

    def attempt() -> dict[str, Any] | None:
        current = first_read.pop() if first_read else command.table.get(key)
        if current is None or current.get("nextRunDate") != run_date or not current.get("isActive", True):
            return None
        changes = _advance(current, run_date)

        def advance_schedule(transaction: Transaction, invoice: Mapping[str, Any]) -> None:
            changes.update(lastDocumentId=invoice["id"], **document_names.names(invoice, "lastDocument"))
            transaction.update_fields(key, changes, current["version"],
                                      guard=schedule_store.still_waiting_for(run_date))

        documents.create_document(command, _invoice_fields(current, dated), extra_writes=advance_schedule)
        advanced = {name: value for name, value in {**current, **changes}.items() if value is not None}
        return {**advanced, "version": current["version"] + 1}

    return run_with_retries(attempt)


def _advance(schedule: dict[str, Any], run_date: str) -> dict[str, Any]:
    next_run = schedules.run_after(_recurrence(schedule), _dt.date.fromisoformat(run_date))
    advanced = {"nextRunDate": next_run.isoformat() if next_run else None, "lastRunDate": run_date,
                "lastError": None, "updatedAt": clock.now_iso()}
    return {**advanced, **_due_index({**schedule, **advanced})}


def _invoice_request(schedule: dict[str, Any]) -> dict[str, Any]:
    """The partner and lines as document request fields (the store reads ids as int)."""
    return {"businessPartnerId": schedule["businessPartnerId"], "lines": [dict(line) for line in schedule["lines"]]}


def _invoice_fields(schedule: dict[str, Any], dated: str) -> dict[str, Any]:
    return {**_invoice_request(schedule), "type": SALES_INVOICE, "date": dated,
            "paymentConditionId": schedule.get("paymentConditionId"), "reference": f"SCHEDULE-{schedule['id']}"}


def _record_failure(command: Command, schedule: dict[str, Any], run_date: str, code: str, message: str,
                    details: list[dict[str, Any]] | None = None) -> None:
    """lastError on the schedule, which stays due: the next hourly run tries the date again. Kept in the
    API's English ("<run date>: <message>") with its details and the message's id and parts, so a reader
    gets it in their language (messages.stored_failure, stored_error). Written only while the schedule
    still waits for that date; a failure to record is logged."""
    logger.warning("scheduled invoice not made", extra={**_ids(schedule, run_date), "code": code, "reason": message})
    company_id, schedule_id = schedule["companyId"], schedule["id"]
    transaction = command.transaction()
    schedule_store.record_failure(transaction, schedule_key(company_id, schedule_id), run_date,
                                  stored_failure(code, f"{run_date}: {message}", clock.now_iso(), details, said=message),
                                  clock.now_iso())
    try:
        transaction.commit()
    except LostRace:
        pass  # the schedule moved on meanwhile (changed, paused, or the date made): nothing to record
    except Exception:
        logger.exception("could not record a scheduled invoice's failure", extra=_ids(schedule, run_date))


def _ids(schedule: dict[str, Any], run_date: str) -> dict[str, Any]:
    return {"companyId": schedule["companyId"], "scheduleId": schedule["id"], "runDate": run_date}
