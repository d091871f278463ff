"""The posting engine as later capabilities (documents, payments, transfers) use it: automatic
entries from semantic movements inside the caller's own transaction, reversal, and what it
refuses (no rule, closed period, inactive account) with nothing written."""
from __future__ import annotations

from decimal import Decimal

import pytest

from chalicelib.auth.principal import API_KEY, Principal
from chalicelib.domain.accounting import Movement
from chalicelib.errors import ApiError
from chalicelib.services.accounting import posting
from chalicelib.services.commands import Command
from chalicelib.store import keys
from tests.support import Books

D = Decimal
SALE = [Movement("receivable", "debit", D("1150.00")), Movement("revenue", "credit", D("1000.00")),
        Movement("tax_sales", "credit", D("150.00"))]


@pytest.fixture
def books(api, company_a):
    return Books(api, company_a)


@pytest.fixture
def command(table, company_a):
    return Command(Principal(API_KEY, company_a.company_id, company_a.user_id, "owner"), table)


def document_key(company_id, document_id):
    return {"PK": f"C#{company_id}#DOC#{document_id}", "SK": "DOC"}


def post_sale(command, document_id=15, date="2026-11-05", movements=SALE, document_type="01"):
    """What a document command does: its own item plus the entry, in one transaction."""
    writes = posting.JournalWrites(command.company_id)
    rules = posting.load_rules(command.table, command.company_id)
    entry = writes.automatic_entry(command.table, rules, source=posting.Source("document", document_id, document_type),
                                   date=date, description=f"Factura {document_id}", movements=movements)
    transaction = command.transaction()
    transaction.put({**document_key(command.company_id, document_id), "total": D("1150.00")})
    writes.apply(transaction)
    command.commit(transaction, entry)
    return entry


def test_an_automatic_entry_resolves_accounts_and_commits_with_its_source(api, table, company_a, books, command):
    entry = post_sale(command)
    stored = api.get(f"/journal-entries/{entry['id']}", key=company_a.api_key).json
    assert stored["entryType"] == "automatic" and stored["status"] == "posted"
    assert stored["source"] == {"type": "document", "id": 15, "documentType": "01"}
    assert {(line["chartOfAccountId"], line["debit"], line["credit"]) for line in stored["lines"]} == {
        (books["110201"], D("1150.00"), 0), (books["410101"], 0, D("1000.00")), (books["210201"], 0, D("150.00"))}
    assert table.get(document_key(company_a.company_id, 15)) is not None
    assert books.ledger("110201")["closingBalance"] == D("1150.00")
    assert books.ledger("210201")["closingBalance"] == D("150.00")
    listed = api.get("/journal-entries?entryType=automatic", key=company_a.api_key).json
    assert listed["total"] == 1


def test_specific_rules_apply_to_their_document_type(api, company_a, books, command):
    entry = post_sale(command, movements=[Movement("receivable", "credit", D("50")),
                                          Movement("revenue", "debit", D("50"))], document_type="06")
    revenue_line = next(line for line in entry["lines"] if line["debit"] > 0)
    assert revenue_line["chartOfAccountId"] == books["4102"]  # devoluciones sobre ventas


def test_several_entries_of_one_command_share_their_balance_items(api, company_a, books, command):
    writes = posting.JournalWrites(command.company_id)
    rules = posting.load_rules(command.table, command.company_id)
    for number in (1, 2):
        writes.automatic_entry(command.table, rules, source=posting.Source("document", number, "01"),
                               date="2026-11-05", description="x", movements=SALE)
    transaction = command.transaction()
    writes.apply(transaction)
    command.commit(transaction, None)
    assert books.ledger("110201")["closingBalance"] == D("2300.00")
    assert [p["balance"] for p in books.ledger("110201")["postings"]] == [D("1150.00"), D("2300.00")]
    assert api.get("/journal-entries?status=posted", key=company_a.api_key).json["total"] == 2


def test_a_missing_rule_refuses_and_writes_nothing(api, table, company_a, company_b, command):
    Books(api, company_a, full=False)
    with pytest.raises(ApiError) as raised:
        post_sale(command)
    assert raised.value.code == "ACCOUNT_RULE_MISSING"
    assert table.get(document_key(company_a.company_id, 15)) is None


def test_a_closed_period_refuses_the_whole_command(api, table, company_a, books, command):
    november = api.post("/accounting-periods", {"name": "Nov", "startDate": "2026-11-01", "endDate": "2026-11-30"},
                        key=company_a.api_key).json
    api.post(f"/accounting-periods/{november['id']}/close", key=company_a.api_key)
    with pytest.raises(ApiError) as raised:
        post_sale(command)
    assert raised.value.code == "PERIOD_CLOSED"
    assert table.get(document_key(company_a.company_id, 15)) is None
    assert books.ledger("110201")["closingBalance"] == 0
    assert api.get("/journal-entries", key=company_a.api_key).json["total"] == 0


def test_an_inactive_account_named_directly_refuses(api, table, company_a, books, command):
    api.put(f"/chart-of-accounts/{books['110102']}", {"isActive": False}, key=company_a.api_key)
    with pytest.raises(ApiError) as raised:
        post_sale(command, movements=[Movement("cash", "debit", D("10"), account_id=books["110102"]),
                                      Movement("revenue", "credit", D("10"))])
    assert raised.value.code == "INVALID_ACCOUNT"
    assert table.get(document_key(company_a.company_id, 15)) is None


def test_reversing_an_automatic_entry_goes_through_its_source(api, company_a, books, command):
    entry = post_sale(command)
    refused = api.post(f"/journal-entries/{entry['id']}/reverse", key=company_a.api_key)
    assert refused.status == 400 and refused.json["code"] == "AUTOMATIC_ENTRY"
    writes = posting.JournalWrites(command.company_id)   # what cancelling the document does
    reversal = writes.reverse(command.table, posting.get_entry(command.table, command.company_id, entry["id"]),
                              "2026-11-20")
    transaction = command.transaction()
    writes.apply(transaction)
    command.commit(transaction, reversal)
    assert reversal["source"] == entry["source"] and reversal["entryType"] == "reversal"
    again = api.post(f"/journal-entries/{reversal['id']}/reverse", key=company_a.api_key)
    assert again.status == 400 and again.json["code"] == "AUTOMATIC_ENTRY"
    assert books.ledger("110201")["closingBalance"] == 0
    trial = books.trial_balance()
    assert trial["totalDebit"] == trial["totalCredit"] == D("2300.00")


def test_the_day_counts_follow_status_changes(table, company_a, books, command):
    entry = post_sale(command)
    writes = posting.JournalWrites(command.company_id)
    writes.reverse(command.table, posting.get_entry(command.table, command.company_id, entry["id"]), "2026-11-05")
    transaction = command.transaction()
    writes.apply(transaction)
    command.commit(transaction, None)
    day = table.get(keys.day_counts(company_a.company_id, "2026-11-05"))
    assert day["reversed_automatic"] == 1 and day["posted_reversal"] == 1 and day["posted_automatic"] == 0


def test_unbalanced_movements_are_a_bug_not_a_user_error(books, command):
    with pytest.raises(ValueError):
        post_sale(command, movements=[Movement("receivable", "debit", D("10")), Movement("revenue", "credit", D("9"))])
