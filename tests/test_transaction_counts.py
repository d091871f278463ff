"""Count, don't predict (issue 45): the 100-item limit of a transaction is checked on the items
the command's plan really holds, and a draft (a manual entry, a document) on the items its
posting or confirmation would hold, planned now and never submitted. Each figure is counted by
hand below from what the plan writes."""
from __future__ import annotations

from decimal import Decimal as D

from chalicelib.store import keys


def new_accounts(api, company, count: int) -> list[int]:
    return [api.post("/chart-of-accounts", {"code": f"8{n:03d}", "name": f"Cuenta {n}", "type": "asset"},
                     key=company.api_key).json["id"] for n in range(count)]


def balanced(accounts: list[int], date: str = "2026-11-05", status: str = "posted") -> dict:
    """A debit of 1 on each account but the last, which takes the credit: one line per account."""
    return {"date": date, "status": status,
            "lines": [{"chartOfAccountId": a, "debit": 1, "credit": 0} for a in accounts[:-1]]
            + [{"chartOfAccountId": accounts[-1], "debit": 0, "credit": len(accounts) - 1}]}


def test_an_entry_on_accounts_already_posted_to_is_counted_without_their_guards(api, company_a):
    """Posting an entry of n lines, one account each, writes: the entry (1), a posting per line
    (n), each account's month balance (n), the first postings' guard only on an account that has
    none yet (n on new accounts, 0 once posted to), the day's count (1), the books' lock check
    (1), the year's period check (1) and the Idempotency-Key record (1): 3n + 5 on new accounts,
    2n + 5 on accounts posted to. Its reversal, at the costliest date (next year), writes the
    reversal (1), the entry's new status (1), n postings, n balances, no guard, two day counts
    (2), the books' lock (1), two years' period checks (2) and the key's record (1): 2n + 8.
    So on new accounts 31 lines is the most (3 x 32 + 5 = 101); on accounts posted to, 46
    (2 x 46 + 8 = 100; 47: 102). The prediction it replaces counted a guard for every account
    (3n + 7 <= 100: 31 lines at most, whatever the accounts)."""
    accounts = new_accounts(api, company_a, 47)
    for part in (accounts[:16], accounts[16:32], accounts[32:]):  # 3 x 16 + 5 = 53 items at most
        assert api.post("/journal-entries", balanced(part), key=company_a.api_key).status == 201
    too_large = api.post("/journal-entries", balanced(accounts), key=company_a.api_key)
    assert (too_large.status, too_large.json["code"]) == (400, "DOCUMENT_TOO_LARGE")
    largest = api.post("/journal-entries", balanced(accounts[:46]), key=company_a.api_key,
                       headers={"idempotency-key": "largest-posted"})
    assert largest.status == 201, largest.text
    reversal = api.post(f"/journal-entries/{largest.json['id']}/reverse", {"date": "2027-01-04"},
                        key=company_a.api_key, headers={"idempotency-key": "reverse-largest"})
    assert reversal.status == 201, reversal.text
    assert len(reversal.json["lines"]) == 46


def test_a_draft_entry_is_counted_as_it_would_post(api, company_a):
    """A draft is refused on the count of its posting: 32 new accounts are 3 x 32 + 5 = 101."""
    accounts = new_accounts(api, company_a, 32)
    refused = api.post("/journal-entries", balanced(accounts, status="draft"), key=company_a.api_key)
    assert (refused.status, refused.json["code"]) == (400, "DOCUMENT_TOO_LARGE")
    draft = api.post("/journal-entries", balanced(accounts[:31], status="draft"), key=company_a.api_key)
    assert draft.status == 201, draft.text
    posted = api.post(f"/journal-entries/{draft.json['id']}/post", key=company_a.api_key,
                      headers={"idempotency-key": "post-draft"})
    assert posted.status == 200, posted.text


def test_counting_a_draft_takes_no_entry_number(api, table, company_a):
    """The rehearsed confirmation of a draft plans an automatic entry under a provisional id: the
    journal's counter moves only when an entry is written."""
    from tests.documents_support import Shop

    shop = Shop(api, company_a)
    counter = keys.id_sequence(company_a.company_id, keys.JOURNAL_ENTRY)
    before = int((table.get(counter) or {}).get("value", 0))
    draft = shop.document("01", [(shop.service, 1, 50)], status="draft")
    assert int((table.get(counter) or {}).get("value", 0)) == before
    confirmed = shop.action(draft["id"], "confirm")
    assert confirmed["journalEntryId"] == before + 1


def test_a_sales_draft_takes_as_many_lines_as_its_confirmation(api, company_a):
    """Confirming a sale of n products (each its own line, the accounts already posted to) writes:
    the number's counter (1); the partner's ledger movement, month total, balance and open
    document (4); the confirmed event (1; a sale made confirmed has its created event too: 2);
    the entry (1), its 5 postings (receivable, revenue, tax, cost of sales, inventory) and their
    5 month balances, no guard (posted to); the day's count, shared by the journal and the
    documents (1), and the partner's (1); the books' and the year's lock checks (2); a stock
    movement and a position per product (2n); the document (1); the Idempotency-Key record (1).
    A sale (01) in Honduras is neither cancelled nor unconfirmed: no room kept for undoing it.
    Made confirmed: 24 + 2n <= 100, so 38 products; as a draft, confirmed later: 23 + 2n <= 100,
    38 too (39: 101). The prediction it replaces counted a guard per account and a stock
    revaluation for every sale where stock may go below zero: 31 + 2n, 34 products for a draft."""
    from tests.documents_support import Shop

    shop = Shop(api, company_a)
    api.put(f"/companies/{company_a.company_id}", {"allowNegativeStock": True}, key=shop.key)
    products = [shop.created("/products", {"code": f"M-{n}", "name": f"Producto {n}", "cost": 5})["id"]
                for n in range(39)]
    shop.document("01", [(products[0], 1, 10)])  # the five accounts posted to

    def sale(count: int, **fields):
        return api.post("/documents", {"type": "01", "businessPartnerId": shop.customer, "date": "2026-11-02",
                                       "lines": [{"productId": p, "quantity": 1, "unitPrice": 10}
                                                 for p in products[:count]], **fields}, key=shop.key)

    for fields in ({}, {"status": "draft"}):
        refused = sale(39, **fields)
        assert (refused.status, refused.json["code"]) == (400, "DOCUMENT_TOO_LARGE")
    assert sale(38).status == 201
    draft = sale(38, status="draft")
    assert draft.status == 201, draft.text
    confirmed = api.post(f"/documents/{draft.json['id']}/confirm", key=shop.key,
                         headers={"idempotency-key": "confirm-largest"})
    assert confirmed.status == 200 and confirmed.json["status"] == "confirmed", confirmed.text



def test_the_room_kept_for_undoing_counts_the_books_corrections_it_would_write():
    """An undoing may come in a later month, and then writes the tax books' two corrections (the
    document as booked and its reversal), counted on a transaction never submitted; beside them 3 items
    (the entry's status, the reversal date's day count and period check) and, for goods, 5 for a stock
    revaluation. An import (104: goods, in the books) keeps 3 + 2 + 5 = 10; a purchase debit note (106:
    no goods, in the books) 3 + 2 = 5; a customer's opening balance (900: neither) 3."""
    from types import SimpleNamespace

    from chalicelib.domain.documents import KINDS
    from chalicelib.services.sales_purchases.documents import _undo_room

    def room(document_type: str) -> int:
        context = SimpleNamespace(table=SimpleNamespace(name="t"), company_id=1, own_currency="HNL",
                                  kind=KINDS[document_type])
        document = {"id": 7, "type": document_type, "version": 2, "date": "2026-12-15", "total": D("115.00"),
                    "lines": [{"taxRate": D("0.15"), "subtotal": D("100.00"), "tax": D("15.00")}]}
        return _undo_room(SimpleNamespace(context=context), document)

    assert [room("104"), room("106"), room("900")] == [3 + 2 + 5, 3 + 2, 3]
