"""Count, don't predict (issue 45): the 100-item limit of a transaction is checked on the items
the command's plan really holds, and a draft (a manual entry, a document) on the items its
posting or confirmation would hold, planned now and never submitted. Each figure is counted by
hand below from what the plan writes."""
from __future__ import annotations

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
