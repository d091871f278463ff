"""Cost centres on lines (issue 44): a journal line's and a document line's dimensions are
checked, kept on the line and carried to its postings (`dimensionValueIds`); a document's revenue
or expense is split over its lines by cost centre to the cent."""
from __future__ import annotations

from decimal import Decimal
from decimal import Decimal as D

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


# --- document lines ------------------------------------------------------------------------------

from tests.documents_support import Shop  # noqa: E402


@pytest.fixture
def shop(api, company_a) -> Shop:
    return Shop(api, company_a)


@pytest.fixture
def branches(table, company_a):
    return cost_centres(table, company_a.company_id, {"Sucursal": ["Centro", "Norte"]})


def free_line(amount, dimensions=None, rate=0.15):
    return {"description": "Servicio", "quantity": 1, "unitPrice": amount, "taxRate": rate,
            **({"dimensions": dimensions} if dimensions else {})}


def entry_postings(table, company_id, account_id, entry_id):
    return sorted((p for p in postings(table, company_id, account_id) if int(p["journalEntryId"]) == entry_id),
                  key=lambda p: int(p["line"]))


def test_a_dollar_invoice_shares_its_base_revenue_over_its_cost_centres_to_the_cent(shop, table, company_a,
                                                                                    branches):
    centro, norte = pair(branches, "Sucursal", "Centro"), pair(branches, "Sucursal", "Norte")
    reply = shop.api.post("/documents", {
        "type": "01", "businessPartnerId": shop.customer, "date": shop.default_date, "currency": "USD",
        "exchangeRate": "24.5678", "lines": [free_line("100.00", [centro]), free_line("50.01", [norte])]},
        key=shop.key)
    assert reply.status == 201, reply.text
    sale = reply.json
    assert [line["dimensions"] for line in sale["lines"]] == [[centro], [norte]]
    # USD: tax 100.00 x 15 % = 15.00 and 50.01 x 15 % = 7.5015 -> 7.50; total 150.01 + 22.50 = 172.51
    # base total 172.51 x 24.5678 = 4238.191178 -> 4238.19; base tax 22.50 x 24.5678 = 552.7755 -> 552.78
    # base revenue 4238.19 - 552.78 = 3685.41, shared 100.00 : 50.01 (of 150.01):
    #   3685.41 x 100.00 / 150.01 = 2456.7762... -> 2456.77 (remainder .0062)
    #   3685.41 x  50.01 / 150.01 = 1228.6337... -> 1228.63 (remainder .0037)
    #   2456.77 + 1228.63 = 3685.40: the cent left goes to the larger remainder -> 2456.78 + 1228.63 = 3685.41
    #   (each line alone at the rate: 2456.78 + 1228.64 = 3685.42, a cent more than the entry could balance)
    revenue = entry_postings(table, company_a.company_id, shop.books["410101"], sale["journalEntryId"])
    assert [(D(p["credit"]), p["dimensionValueIds"]) for p in revenue] == [
        (D("2456.78"), [branches["Centro"]]), (D("1228.63"), [branches["Norte"]])]
    receivable = entry_postings(table, company_a.company_id, shop.books["110201"], sale["journalEntryId"])
    assert D(receivable[0]["debit"]) == D("4238.19") and "dimensionValueIds" not in receivable[0]
    tax = entry_postings(table, company_a.company_id, shop.books["210201"], sale["journalEntryId"])
    assert D(tax[0]["credit"]) == D("552.78")  # 4238.19 = 2456.78 + 1228.63 + 552.78: balanced


def test_lines_of_one_cost_centre_post_together_and_lines_without_apart(shop, table, company_a, branches):
    centro = pair(branches, "Sucursal", "Centro")
    reply = shop.api.post("/documents", {
        "type": "01", "businessPartnerId": shop.customer, "date": shop.default_date,
        "lines": [free_line(30, [centro]), free_line(20), free_line(10, [centro])]}, key=shop.key)
    assert reply.status == 201, reply.text
    sale = reply.json
    revenue = entry_postings(table, company_a.company_id, shop.books["410101"], sale["journalEntryId"])
    # Centro: 30.00 + 10.00 = 40.00; no cost centre: 20.00
    assert [(D(p["credit"]), p.get("dimensionValueIds")) for p in revenue] == [
        (D("40.00"), [branches["Centro"]]), (D("20.00"), None)]


def test_an_expense_posts_by_cost_centre_and_its_cancellation_reverses_them(shop, table, company_a, branches):
    centro, norte = pair(branches, "Sucursal", "Centro"), pair(branches, "Sucursal", "Norte")
    reply = shop.api.post("/documents", {
        "type": "104", "businessPartnerId": shop.supplier, "date": shop.default_date,
        "lines": [free_line(70, [centro], rate=0), free_line(30, [norte], rate=0)]}, key=shop.key)
    assert reply.status == 201, reply.text
    purchase = reply.json
    # an import of services only: nothing stocked, its 100.00 all expense (Compras), 70.00 + 30.00 by branch
    expense = entry_postings(table, company_a.company_id, shop.books["5102"], purchase["journalEntryId"])
    assert [(D(p["debit"]), p["dimensionValueIds"]) for p in expense] == [
        (D("70.00"), [branches["Centro"]]), (D("30.00"), [branches["Norte"]])]
    cancelled = shop.action(purchase["id"], "cancel", {"date": shop.default_date})
    assert cancelled["status"] == "cancelled"
    back = [p for p in postings(table, company_a.company_id, shop.books["5102"])
            if int(p["journalEntryId"]) != purchase["journalEntryId"]]
    assert sorted((D(p["credit"]), tuple(p["dimensionValueIds"])) for p in back) == [
        (D("30.00"), (branches["Norte"],)), (D("70.00"), (branches["Centro"],))]


def test_an_invalid_cost_centre_on_a_document_line_is_refused_and_nothing_is_written(shop, table, company_a,
                                                                                   branches):
    before = shop.api.get("/documents", key=shop.key).json["total"]
    reply = shop.api.post("/documents", {
        "type": "01", "businessPartnerId": shop.customer, "date": shop.default_date,
        "lines": [free_line(10), free_line(10, [{"dimensionId": branches["Sucursal"], "valueId": 9999}])]},
        key=shop.key)
    assert reply.status == 400, reply.text
    assert reply.json["details"][0]["field"] == "lines[1].dimensions[0].valueId"
    assert shop.api.get("/documents", key=shop.key).json["total"] == before
    assert postings(table, company_a.company_id, shop.books["410101"]) == []
    spanish = shop.api.post("/documents", {
        "type": "01", "businessPartnerId": shop.customer, "date": shop.default_date,
        "lines": [free_line(10, [{"dimensionId": branches["Sucursal"], "valueId": 9999}])]},
        key=shop.key, headers={"Accept-Language": "es"})
    assert spanish.status == 400 and "no es un valor activo de esta dimensión" in spanish.text


def test_the_biggest_document_with_cost_centres_stays_within_one_transaction(shop, table, company_a):
    many = cost_centres(table, company_a.company_id, {"Proyecto": [f"P{n}" for n in range(100)]})
    lines = [free_line(1, [pair(many, "Proyecto", f"P{n}")]) for n in range(100)]
    source = shop.document("01", [(None, 1, 1000)])
    accepted = None
    for size in range(100, 0, -1):  # the largest debit note (cancellable: room for its reversal kept)
        reply = shop.api.post("/documents", {"type": "07", "businessPartnerId": shop.customer,
                                             "date": shop.default_date, "sourceDocumentId": source["id"],
                                             "lines": lines[:size]}, key=shop.key)
        if reply.status == 201:
            accepted = reply.json
            break
        assert reply.status == 400 and reply.json["code"] == "DOCUMENT_TOO_LARGE", reply.text
    assert accepted is not None and size > 50
    revenue = entry_postings(table, company_a.company_id, shop.books["410101"], accepted["journalEntryId"])
    assert len(revenue) == size  # a posting per cost centre: 1.00 each
    assert {D(p["credit"]) for p in revenue} == {D("1.00")}
    assert shop.action(accepted["id"], "cancel", {"date": shop.default_date})["status"] == "cancelled"


def test_a_value_made_inactive_stays_on_the_draft_that_holds_it_and_is_never_newly_chosen(shop, table, company_a,
                                                                                        branches):
    centro = pair(branches, "Sucursal", "Centro")
    reply = shop.api.post("/documents", {"type": "01", "businessPartnerId": shop.customer, "date": shop.default_date,
                                         "status": "draft", "lines": [free_line(30, [centro]), free_line(20)]},
                          key=shop.key)
    assert reply.status == 201, reply.text
    draft = reply.json
    made_inactive = shop.api.put(f"/dimensions/{branches['Sucursal']}/values/{branches['Centro']}",
                                 {"isActive": False}, key=shop.key)
    assert made_inactive.status == 200, made_inactive.text
    # the draft saved again with the line it kept: accepted (it already carried Centro)
    edited = shop.api.put(f"/documents/{draft['id']}", {"lines": [free_line(35, [centro]), free_line(20)]},
                          key=shop.key)
    assert edited.status == 200, edited.text
    assert [line.get("dimensions") for line in edited.json["lines"]] == [[centro], []]
    # a new document cannot choose it
    refused = shop.api.post("/documents", {"type": "01", "businessPartnerId": shop.customer, "date": shop.default_date,
                                           "status": "draft", "lines": [free_line(10, [centro])]}, key=shop.key)
    assert (refused.status, refused.json["details"][0]["field"]) == (400, "lines[0].dimensions[0].valueId")
    # confirmed as it is: its revenue posts by Centro, 35.00, and 20.00 without a cost centre
    confirmed = shop.action(draft["id"], "confirm")
    revenue = entry_postings(table, company_a.company_id, shop.books["410101"], confirmed["journalEntryId"])
    assert [(D(p["credit"]), p.get("dimensionValueIds")) for p in revenue] == [
        (D("35.00"), [branches["Centro"]]), (D("20.00"), None)]
