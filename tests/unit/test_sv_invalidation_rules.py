"""Issue 40, point 5: invalidation by the Manual Funcional V2.0 (section VII, printed pages 9-17)
as pure rules: the motives and replacements per document type, the documents that block an
invalidation, the windows counted in El Salvador's business days (business_days.json) and the
date the v3 event carries. Every date below is worked by hand from a calendar in its comment."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from chalicelib.countries.sv.domain import business_days
from chalicelib.countries.sv.domain import dte_invalidation_rules as manual

D = dt.date


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


# --- the matrix: document type x motive -> whether the replacement is issued and sealed first (page 13, 14-17)
REPLACED_FIRST, INVALIDATED_FIRST = True, False
MATRIX = [
    # tipoDte, motive 1 (error), motive 2 (rescinded), motive 3 (other)
    ("01", REPLACED_FIRST, INVALIDATED_FIRST, REPLACED_FIRST),    # FE
    ("03", REPLACED_FIRST, INVALIDATED_FIRST, REPLACED_FIRST),    # CCF
    ("04", REPLACED_FIRST, INVALIDATED_FIRST, REPLACED_FIRST),    # NR
    ("05", INVALIDATED_FIRST, INVALIDATED_FIRST, INVALIDATED_FIRST),  # NC: "invalidada la NCE ... deberá generar"
    ("06", REPLACED_FIRST, INVALIDATED_FIRST, REPLACED_FIRST),    # ND
    ("07", REPLACED_FIRST, INVALIDATED_FIRST, REPLACED_FIRST),    # CR
    ("08", INVALIDATED_FIRST, INVALIDATED_FIRST, INVALIDATED_FIRST),  # CL
    ("09", REPLACED_FIRST, INVALIDATED_FIRST, REPLACED_FIRST),    # DCL
    ("11", REPLACED_FIRST, INVALIDATED_FIRST, REPLACED_FIRST),    # FEX
    ("14", REPLACED_FIRST, INVALIDATED_FIRST, REPLACED_FIRST),    # FSE
    ("15", REPLACED_FIRST, INVALIDATED_FIRST, REPLACED_FIRST),    # CD
    ("17", INVALIDATED_FIRST, INVALIDATED_FIRST, INVALIDATED_FIRST),  # EOE: "la palabra null"
    ("18", INVALIDATED_FIRST, INVALIDATED_FIRST, INVALIDATED_FIRST),  # ER: "la palabra null"
]


@pytest.mark.parametrize("tipo, motive, replaced_first",
                         [(row[0], motive, row[motive]) for row in MATRIX for motive in manual.MOTIVES])
def test_which_motives_name_the_replacement_per_type(tipo, motive, replaced_first):
    assert manual.needs_replacement(tipo, motive) is replaced_first
    missing = manual.replacement_refusal(tipo, motive, replacement_given=False)
    given = manual.replacement_refusal(tipo, motive, replacement_given=True)
    if replaced_first:
        assert missing.code == "DTE_INVALIDATION_REPLACEMENT_REQUIRED" and given is None
        assert missing.details[0]["field"] == "replacementDocumentId"
    else:
        assert missing is None and given.code == "DTE_INVALIDATION_REPLACEMENT_NOT_ALLOWED"


def test_the_matrix_covers_every_type_the_rules_know():
    assert sorted(row[0] for row in MATRIX) == sorted(manual.TYPES)


# --- relations: (type invalidated, documents against it) -> blocked by (pages 14-17)
NOTE_CREDIT = {"id": 7, "number": "001-001-05-00000001", "tipoDte": "05", "status": "accepted"}
NOTE_DEBIT = {"id": 8, "number": "001-001-06-00000001", "tipoDte": "06", "status": "accepted"}
NOTE_INVALIDATED = {**NOTE_CREDIT, "id": 9, "status": "invalidated"}
RETURN = {"id": 10, "codigoGeneracion": "A" * 8 + "-AAAA-4AAA-8AAA-" + "A" * 12, "tipoDte": "18", "status": "accepted"}
RETENTION = {"id": 11, "number": "001-001-07-00000001", "tipoDte": "07", "status": "accepted"}
RELATIONS = [
    ("03", [NOTE_CREDIT], [7]),                 # CCF note 1: a validated NC first
    ("03", [NOTE_DEBIT, NOTE_CREDIT], [8, 7]),  # and a validated ND, both named
    ("03", [NOTE_INVALIDATED], []),             # a note already invalidated no longer blocks
    ("03", [RETENTION], []),                    # CCF note 3: related to a CR, it can be invalidated
    ("07", [NOTE_CREDIT, NOTE_DEBIT], [7, 8]),  # CR note 1
    ("01", [RETURN], [10]),                     # FE note 3: an active return event first
    ("11", [RETURN], [10]),                     # FEX note 1
    ("14", [RETURN], [10]),                     # FSE note 1
    ("01", [NOTE_CREDIT], []),                  # FE note 1: related documents need not go first
    ("05", [NOTE_DEBIT], []),                   # NC note 1
    ("18", [NOTE_CREDIT], []),                  # ER note 1
    ("06", [NOTE_CREDIT], []),                  # ND note 1
]


@pytest.mark.parametrize("tipo, related, blocking_ids", RELATIONS)
def test_documents_validated_against_a_dte_block_its_invalidation(tipo, related, blocking_ids):
    assert [document["id"] for document in manual.blockers(tipo, related)] == blocking_ids
    refused = manual.blocked_refusal(tipo, related)
    if blocking_ids:
        assert refused.code == "DTE_INVALIDATION_BLOCKED" and refused.status == 409
        assert [detail["documentId"] for detail in refused.details] == blocking_ids
    else:
        assert refused is None


# --- El Salvador's business days
def test_the_calendar_data_lists_what_its_rules_give_for_2024_to_2030():
    data = json.loads(business_days.CALENDAR.read_text(encoding="utf-8"))
    assert "Código de Trabajo" in data["source"]["asuetos"] and "art. 190" in data["source"]["asuetos"]
    assert sorted(data["years"]) == [str(year) for year in range(2024, 2031)]
    for year in range(2024, 2031):
        assert data["years"][str(year)] == business_days.computed_days_off(year)


@pytest.mark.parametrize("year, easter", [(2024, D(2024, 3, 31)), (2025, D(2025, 4, 20)), (2026, D(2026, 4, 5)),
                                          (2027, D(2027, 3, 28)), (2028, D(2028, 4, 16)), (2029, D(2029, 4, 1)),
                                          (2030, D(2030, 4, 21))])
def test_easter_sunday(year, easter):
    assert business_days.easter(year) == easter


@pytest.mark.parametrize("day, business", [
    (D(2027, 3, 19), True),    # Friday before Holy Week 2027
    (D(2027, 3, 22), False),   # Lunes Santo (public employees' vacation)
    (D(2027, 3, 25), False),   # Jueves Santo (art. 190)
    (D(2027, 3, 26), False),   # Viernes Santo
    (D(2027, 3, 29), False),   # Lunes de Pascua
    (D(2027, 3, 30), True),
    (D(2026, 9, 15), False),   # Independencia, a Tuesday
    (D(2026, 11, 2), False),   # Difuntos, a Monday
    (D(2026, 12, 25), False),  # Navidad, a Friday
    (D(2026, 12, 28), False),  # year-end vacation (24 Dec - 2 Jan)
    (D(2026, 8, 5), False),    # the August vacation (1-6 Aug): 5 August counted off too
    (D(2026, 6, 17), False),   # Día del Padre, a Wednesday
    (D(2026, 6, 18), True),
    (D(2026, 11, 28), False),  # a Saturday
])
def test_business_days(day, business):
    assert business_days.is_business_day(day) is business


def test_holy_week_2027_moves_the_16th_business_day_of_march_past_it():
    # March 2027: Mon 1-Fri 5 (5), 8-12 (10), 15-19 (15); 22-26 Holy Week and Mon 29 off; Tue 30 is the 16th
    assert business_days.nth_business_day(2027, 3, 15) == D(2027, 3, 19)
    assert business_days.nth_business_day(2027, 3, 16) == D(2027, 3, 30)


# --- the windows (page 11's table, followed over page 12's "10 días hábiles posteriores a la transmisión")
@pytest.mark.parametrize("tipo, sealed, last", [
    # the manual's Ejemplo 1: sealed 19 March 2026 -> 20 April 2026. April 2026: Wed 1-Mon 6 off (Holy Week
    # 2026, Easter on the 5th: Mon 30 Mar-Mon 6 Apr), Tue 7 (1), 8, 9, 10 (4), 13-17 (9), Mon 20 (10)
    ("03", "2026-03-19T07:30:00", "2026-04-20T23:59:59"),
    # Ejemplo 2: sealed 25 April 2026 -> 15 May 2026. May: Fri 1 off, 4-8 (5), 11-15 (10); 10 May a Sunday
    ("05", "2026-04-25T00:30:00", "2026-05-15T23:59:59"),
    # month end: sealed the last minute of March still counts in April; the first of April in May
    ("06", "2026-03-31T23:59:00", "2026-04-20T23:59:59"),
    ("07", "2026-04-01T00:00:10", "2026-05-15T23:59:59"),
    # 2 November 2026, a Monday: Tue 3 (1), 4, 5, 6 (4), 9-13 (9), Mon 16 (10)
    ("03", "2026-10-15T10:00:00", "2026-11-16T23:59:59"),
    # September 2026: Tue 1-Fri 4 (4), 7-11 (9), Mon 14 (10): the deadline falls the day before 15 September
    ("18", "2026-08-31T16:00:00", "2026-09-14T23:59:59"),
    # August 2026: 1-2 weekend, 3-5 vacation, 6 asueto; Fri 7 (1), 10-14 (6), 17-20 (10)
    ("04", "2026-07-10T09:00:00", "2026-08-20T23:59:59"),
    # the year end: a CCF sealed 28 December 2026. January 2027: Fri 1 asueto, Sat 2 and Sun 3;
    # Mon 4 (1), 5, 6, 7, 8 (5), 11, 12, 13, 14, Fri 15 (10) -> 15 January 2027
    ("03", "2026-12-28T11:00:00", "2027-01-15T23:59:59"),
    # December 2026 itself (a November seal): Tue 1-Fri 4 (4), 7-11 (9), Mon 14 (10), before Navidad
    ("03", "2026-11-30T11:00:00", "2026-12-14T23:59:59"),
    # FE, FEX, FSE: three months from the seal, the same day (page 11: 11-11-2025 -> 11-02-2026)
    ("01", "2025-11-11T07:30:00", "2026-02-11T23:59:59"),
    ("11", "2025-11-30T12:00:00", "2026-02-28T23:59:59"),  # page 12: 30-11-2025 -> 28-02-2026, the month's end
    ("14", "2027-11-30T12:00:00", "2028-02-29T23:59:59"),  # a leap year's February
    ("01", "2026-12-28T11:00:00", "2027-03-28T23:59:59"),  # across the year end, holidays do not count
])
def test_the_deadline_of_an_invalidation(tipo, sealed, last):
    assert manual.deadline(tipo, at(sealed)) == at(last)
    assert manual.window_refusal(tipo, at(sealed), at(last)) is None
    refused = manual.window_refusal(tipo, at(sealed), at(last) + dt.timedelta(seconds=1))
    assert refused.code == "DTE_INVALIDATION_WINDOW_CLOSED" and refused.status == 409
    assert last.replace("T", " ") in refused.details[0]["message"]


def test_the_seal_is_read_in_el_salvadors_time():
    # 05:30 UTC on 1 April is 23:30 on 31 March in San Salvador (UTC-6): April's deadline, not May's
    sealed = manual.sealed_at({"acceptedAt": "2026-04-01T05:30:00Z"}, -6)
    assert sealed == at("2026-03-31T23:30:00")
    assert manual.deadline("03", sealed) == at("2026-04-20T23:59:59")
    assert manual.refusal_now({"tipoDte": "03", "acceptedAt": "2026-04-01T05:30:00Z"},
                              dt.datetime(2026, 4, 21, 5, 59, 59, tzinfo=dt.timezone.utc), -6) is None
    assert manual.refusal_now({"tipoDte": "03", "acceptedAt": "2026-04-01T05:30:00Z"},
                              dt.datetime(2026, 4, 21, 6, 0, 0, tzinfo=dt.timezone.utc), -6).code == \
        "DTE_INVALIDATION_WINDOW_CLOSED"


# --- the event's date (page 11, second table)
@pytest.mark.parametrize("tipo, generated, now, moment", [
    # CCF..CD, events: the DTE's own generation date (29-03-2026 transmitted 04-04-2026 -> 29-03-2026)
    ("03", ("2026-03-29", "10:15:00"), "2026-04-04T09:00:00", ("2026-03-29", "10:15:00")),
    ("18", ("2026-03-29", "10:15:00"), "2026-04-04T09:00:00", ("2026-03-29", "10:15:00")),
    # FE, FEX, FSE: the event's own date, from the generation up to three months after (09-01-2026 -> 09-04-2026)
    ("01", ("2026-01-09", "08:00:00"), "2026-02-02T16:20:05", ("2026-02-02", "16:20:05")),
    ("11", ("2026-01-09", "08:00:00"), "2026-04-09T23:00:00", ("2026-04-09", "23:00:00")),
    # sealed late (contingency): past three months from the generation the date stops at its last day
    ("14", ("2026-01-09", "08:00:00"), "2026-04-10T09:00:00", ("2026-04-09", "23:59:59")),
])
def test_the_events_date(tipo, generated, now, moment):
    assert manual.event_moment(tipo, generated[0], generated[1], at(now)) == moment
