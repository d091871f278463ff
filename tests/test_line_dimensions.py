"""Cost centres on lines (issue 44): a journal line's and a document line's dimensions are
checked, kept on the line and carried to its postings (`dimensionValueIds`); a document's revenue
or expense is split over its lines by cost centre to the cent."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.store import keys
from tests.dimension_support import cost_centres, pair
from tests.support import Books


@pytest.fixture
def books(api, company_a):
    return Books(api, company_a, full=False)


@pytest.fixture
def centres(table, company_a):
    return cost_centres(table, company_a.company_id, {"Sucursal": ["Centro", "Norte"], "Proyecto": ["Alfa"]},
                        inactive=("Norte",))


def postings(table, company_id, account_id):
    items, _ = table.query(partition=("PK", keys.account_partition(company_id, account_id)),
                           sort_prefix=("SK", "P#"), consistent=True)
    return items


def test_a_journal_line_carries_its_cost_centres_to_its_posting_and_its_reversal(api, table, company_a, books,
                                                                                 centres):
    body = {"date": "2026-11-05", "status": "posted", "lines": [
        {"chartOfAccountId": books["6199"], "debit": 70, "credit": 0,
         # asked in any order: kept in dimension order (Sucursal was made first)
         "dimensions": [pair(centres, "Proyecto", "Alfa"), pair(centres, "Sucursal", "Centro")]},
        {"chartOfAccountId": books["6199"], "debit": 30, "credit": 0},
        {"chartOfAccountId": books["110101"], "debit": 0, "credit": 100}]}
    reply = api.post("/journal-entries", body, key=company_a.api_key)
    assert reply.status == 201, reply.text
    lines = reply.json["lines"]
    assert lines[0]["dimensions"] == [pair(centres, "Sucursal", "Centro"), pair(centres, "Proyecto", "Alfa")]
    assert lines[1]["dimensions"] == [] and lines[2]["dimensions"] == []
    expense = sorted(postings(table, company_a.company_id, books["6199"]), key=lambda p: int(p["line"]))
    assert [Decimal(p["debit"]) for p in expense] == [70, 30]
    assert expense[0]["dimensionValueIds"] == [centres["Centro"], centres["Alfa"]]
    assert "dimensionValueIds" not in expense[1]  # absent, not empty, when the line has none
    cash = postings(table, company_a.company_id, books["110101"])
    assert "dimensionValueIds" not in cash[0]

    reversal = api.post(f"/journal-entries/{reply.json['id']}/reverse", {"date": "2026-11-06"}, key=company_a.api_key)
    assert reversal.status in (200, 201), reversal.text
    assert reversal.json["lines"][0]["dimensions"] == lines[0]["dimensions"]
    assert Decimal(str(reversal.json["lines"][0]["credit"])) == 70
    back = [p for p in postings(table, company_a.company_id, books["6199"])
            if int(p["journalEntryId"]) == reversal.json["id"]]
    by_line = {int(p["line"]): p for p in back}
    assert by_line[0]["dimensionValueIds"] == [centres["Centro"], centres["Alfa"]]
    assert Decimal(by_line[0]["credit"]) == 70 and "dimensionValueIds" not in by_line[1]


def test_a_draft_keeps_its_cost_centres_until_it_is_posted(api, table, company_a, books, centres):
    body = {"date": "2026-11-05", "lines": [
        {"chartOfAccountId": books["6199"], "debit": 10, "dimensions": [pair(centres, "Proyecto", "Alfa")]},
        {"chartOfAccountId": books["110101"], "credit": 10}]}
    draft = api.post("/journal-entries", body, key=company_a.api_key)
    assert draft.status == 201, draft.text
    posted = api.post(f"/journal-entries/{draft.json['id']}/post", key=company_a.api_key)
    assert posted.status == 200, posted.text
    assert posted.json["lines"][0]["dimensions"] == [pair(centres, "Proyecto", "Alfa")]
    assert postings(table, company_a.company_id, books["6199"])[0]["dimensionValueIds"] == [centres["Alfa"]]


@pytest.mark.parametrize("dimensions, field", [
    ("no such dimension", "lines[0].dimensions[0].dimensionId"),
    ("inactive value", "lines[0].dimensions[0].valueId"),
    ("value of another dimension", "lines[0].dimensions[0].valueId"),
    ("twice the same dimension", "lines[0].dimensions[1].dimensionId"),
])
def test_an_invalid_cost_centre_is_refused_and_nothing_is_written(api, table, company_a, books, centres,
                                                                   dimensions, field):
    named = {"no such dimension": [{"dimensionId": 999, "valueId": centres["Centro"]}],
             "inactive value": [pair(centres, "Sucursal", "Norte")],
             "value of another dimension": [{"dimensionId": centres["Sucursal"], "valueId": centres["Alfa"]}],
             "twice the same dimension": [pair(centres, "Sucursal", "Centro"), pair(centres, "Sucursal", "Centro")]}
    body = {"date": "2026-11-05", "status": "posted", "lines": [
        {"chartOfAccountId": books["6199"], "debit": 10, "dimensions": named[dimensions]},
        {"chartOfAccountId": books["110101"], "credit": 10}]}
    reply = api.post("/journal-entries", body, key=company_a.api_key)
    assert reply.status == 400, reply.text
    assert reply.json["details"][0]["field"] == field
    assert api.get("/journal-entries", key=company_a.api_key).json["total"] == 0
    assert postings(table, company_a.company_id, books["6199"]) == []


def test_another_companys_cost_centre_is_refused(api, table, company_a, company_b, books):
    theirs = cost_centres(table, company_b.company_id, {"Sucursal": ["Centro"]})
    body = {"date": "2026-11-05", "lines": [
        {"chartOfAccountId": books["6199"], "debit": 10, "dimensions": [pair(theirs, "Sucursal", "Centro")]},
        {"chartOfAccountId": books["110101"], "credit": 10}]}
    reply = api.post("/journal-entries", body, key=company_a.api_key)
    assert reply.status == 400 and reply.json["details"][0]["field"] == "lines[0].dimensions[0].dimensionId"
