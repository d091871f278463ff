"""A hypothesis state machine over manual entries, periods and the year (create draft or posted,
post, reverse, close, reopen; the year 2026 closed into retained earnings and reopened), through
the API. After every step: each entry balances, the trial
balance's debits equal its credits, each ledger's closing balance is the account's balance in
the trial balance, and both equal what a plain model of the books says. Writes dated in a closed
period must be refused, every other valid write accepted."""
from __future__ import annotations

import itertools
from decimal import Decimal

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from chalicelib.domain.accounting import natural_balance
from tests.support import SMALL_CHART, Books, make_company

DATES = [f"2026-{month:02d}-{day:02d}" for month in (10, 11, 12) for day in (1, 15, 28, 30)] + ["2026-10-31"]
PERIODS = (("Octubre", "2026-10-01", "2026-10-31"), ("Noviembre", "2026-11-01", "2026-11-30"),
           ("Diciembre", "2026-12-01", "2026-12-31"))
CODES = [code for code, _, _ in SMALL_CHART]
RESULT_CODES = [code for code, _, account_type in SMALL_CHART if account_type in ("income", "cost", "expense")]
TYPES = {code: account_type for code, _, account_type in SMALL_CHART}
AMOUNTS = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("5000"), places=2)
END = "2026-12-31"
CUTOFF, AFTER_CUTOFF = "2026-11-15", "2026-11-16"   # a day that carries entries, and the next
_companies = itertools.count(1)


def test_books_stay_consistent(api, table):
    class BooksMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            number = next(_companies)
            self.company = make_company(table, f"Empresa {number}", f"owner{number}@books.hn")
            self.key = self.company.api_key
            # retained earnings: the capital account, for a small chart
            self.books = Books(api, self.company, full=False, rules=(("retained_earnings", None, "3101"),))
            self.period_ids = []
            for name, start, end in PERIODS:
                reply = api.post("/accounting-periods", {"name": name, "startDate": start, "endDate": end},
                                 key=self.key)
                self.period_ids.append(reply.json["id"])
            self.closed: set[int] = set()
            self.year_closed = False
            self.closing_ids: list[int] = []
            self.entries: dict[int, dict] = {}   # id -> {date, status, lines: [(code, debit, credit)]}

        def is_closed(self, date: str) -> bool:
            return self.year_closed or any(PERIODS[i][1] <= date <= PERIODS[i][2] for i in self.closed)

        def expect(self, reply, status: int, date: str):
            if self.is_closed(date):
                assert reply.status == 400 and reply.json["code"] == "PERIOD_CLOSED", reply.text
                return False
            assert reply.status == status, reply.text
            return True

        @rule(date=st.sampled_from(DATES), posted=st.booleans(), data=st.data(),
              debit_codes=st.lists(st.sampled_from(CODES), min_size=1, max_size=3))
        def create_entry(self, date, posted, data, debit_codes):
            amounts = [data.draw(AMOUNTS) for _ in debit_codes]
            credit_code = data.draw(st.sampled_from(CODES))
            lines = [(code, amount, Decimal("0")) for code, amount in zip(debit_codes, amounts, strict=True)]
            lines.append((credit_code, Decimal("0"), sum(amounts)))
            body = {"date": date, "status": "posted" if posted else "draft",
                    "lines": [{"chartOfAccountId": self.books[code], "debit": debit, "credit": credit}
                              for code, debit, credit in lines]}
            reply = api.post("/journal-entries", body, key=self.key)
            if self.expect(reply, 201, date):
                self.entries[reply.json["id"]] = {"date": date, "status": body["status"], "lines": lines}

        @rule(date=st.sampled_from(DATES))
        def create_unbalanced_entry(self, date):
            body = {"date": date, "lines": [{"chartOfAccountId": self.books[CODES[0]], "debit": 10},
                                            {"chartOfAccountId": self.books[CODES[1]], "credit": 9}]}
            reply = api.post("/journal-entries", body, key=self.key)
            assert reply.status == 400 and reply.json["code"] == "UNBALANCED_ENTRY", reply.text

        @precondition(lambda self: any(e["status"] == "draft" for e in self.entries.values()))
        @rule(data=st.data())
        def post_draft(self, data):
            entry_id = data.draw(st.sampled_from(sorted(i for i, e in self.entries.items() if e["status"] == "draft")))
            reply = api.post(f"/journal-entries/{entry_id}/post", key=self.key)
            if self.expect(reply, 200, self.entries[entry_id]["date"]):
                self.entries[entry_id]["status"] = "posted"

        @precondition(lambda self: any(e["status"] == "posted" for e in self.entries.values()))
        @rule(data=st.data())
        def reverse(self, data):
            entry_id = data.draw(st.sampled_from(sorted(i for i, e in self.entries.items() if e["status"] == "posted")))
            entry = self.entries[entry_id]
            date = data.draw(st.sampled_from([d for d in DATES if d >= entry["date"]] or [entry["date"]]))
            reply = api.post(f"/journal-entries/{entry_id}/reverse", {"date": date}, key=self.key)
            if entry.get("automatic"):   # the year's closing entries go only by reopening the year
                assert reply.status == 400 and reply.json["code"] == "AUTOMATIC_ENTRY", reply.text
                return
            if self.expect(reply, 201, date):
                entry["status"] = "reversed"
                self.entries[reply.json["id"]] = {"date": date, "status": "posted",
                                                  "lines": [(c, cr, d) for c, d, cr in entry["lines"]]}

        @rule(index=st.integers(0, len(PERIODS) - 1))
        def close_or_reopen(self, index):
            action = "reopen" if index in self.closed else "close"
            reply = api.post(f"/accounting-periods/{self.period_ids[index]}/{action}", key=self.key)
            assert reply.status == 200, reply.text
            self.closed ^= {index}

        @rule()
        def close_or_reopen_year(self):
            """2026 closed: its revenue and expenses to retained earnings on 31 December, and no
            write dated in it accepted; or reopened: the closing entry reversed that day."""
            if not self.year_closed:
                reply = api.post("/fiscal-years/2026/close", {}, key=self.key)
                assert reply.status == 200 and reply.json["status"] == "closed", reply.text
                totals = {code: [Decimal("0"), Decimal("0")] for code in RESULT_CODES}
                for entry in self.entries.values():
                    if entry["status"] != "draft":
                        for code, debit, credit in entry["lines"]:
                            if code in totals:
                                totals[code][0] += debit
                                totals[code][1] += credit
                nets = {code: debit - credit for code, (debit, credit) in totals.items() if debit != credit}
                new_ids = reply.json["closingEntryIds"][len(self.closing_ids):]
                assert len(new_ids) == (1 if nets else 0), reply.json
                if nets:
                    result = sum(nets.values(), Decimal("0"))
                    lines = [(code, max(-net, Decimal("0")), max(net, Decimal("0"))) for code, net in nets.items()]
                    if result:
                        lines.append(("3101", max(result, Decimal("0")), max(-result, Decimal("0"))))
                    self.entries[new_ids[0]] = {"date": END, "status": "posted", "lines": lines, "automatic": True}
                    self.closing_ids += new_ids
            else:
                reply = api.post("/fiscal-years/2026/reopen", {}, key=self.key)
                assert reply.status == 200 and reply.json["status"] == "open", reply.text
                for closing_id in self.closing_ids:
                    closing = self.entries[closing_id]
                    if closing["status"] == "posted":
                        closing["status"] = "reversed"
                        reversal = api.get(f"/journal-entries/{closing_id}", key=self.key).json["reversedBy"]
                        self.entries[reversal] = {"date": END, "status": "posted", "automatic": True,
                                                  "lines": [(c, cr, d) for c, d, cr in closing["lines"]]}
            self.year_closed = not self.year_closed

        @invariant()
        def books_agree(self):
            listed = api.get("/journal-entries?limit=100", key=self.key).json
            assert listed["total"] == len(self.entries)
            for entry in listed["journalEntries"]:
                debit = sum(line["debit"] for line in entry["lines"])
                credit = sum(line["credit"] for line in entry["lines"])
                assert debit == credit == entry["totalDebit"] == entry["totalCredit"]
                assert entry["status"] == self.entries[entry["id"]]["status"]
            model = {cutoff: self.model_balances(cutoff) for cutoff in (CUTOFF, END)}
            for cutoff in (CUTOFF, END):
                trial = self.books.trial_balance(cutoff)
                assert trial["totalDebit"] == trial["totalCredit"]
                balances = {row["code"]: row["balance"] for row in trial["accounts"]}
                assert {code: balances.get(code, 0) for code in CODES} == model[cutoff], cutoff
            for code in CODES:
                ledger = self.books.ledger(code, AFTER_CUTOFF, END)
                assert ledger["openingBalance"] == model[CUTOFF][code], code
                assert ledger["closingBalance"] == model[END][code], code
                if ledger["postings"]:
                    assert ledger["postings"][-1]["balance"] == ledger["closingBalance"]

        def model_balances(self, cutoff: str) -> dict[str, Decimal]:
            """Posted and reversed entries stay in the books (a reversal is an entry of its own)."""
            totals = {code: [Decimal("0"), Decimal("0")] for code in CODES}
            for entry in self.entries.values():
                if entry["status"] != "draft" and entry["date"] <= cutoff:
                    for code, debit, credit in entry["lines"]:
                        totals[code][0] += debit
                        totals[code][1] += credit
            return {code: natural_balance(TYPES[code], *totals[code]) for code in CODES}

        # issue 39: control
        @rule(date=st.sampled_from(DATES), amount=AMOUNTS, through_bank=st.booleans(), data=st.data())
        def touch_a_control_account(self, date, amount, through_bank, data):
            """A manual entry or a manual bank transaction against a control account (the receivable or
            customer-advance rule's account, a bank account's ledger), dated anywhere, open or closed: refused with
            CONTROL_ACCOUNT naming the field, and nothing changes (the books_agree invariant checks
            the entries and balances of the model's accounts; the control accounts stay at 0)."""
            if not hasattr(self, "control"):   # made once, on accounts the other rules never touch
                receivable = api.post("/chart-of-accounts", {"code": "110201", "name": "Clientes", "type": "asset"},
                                      key=self.key).json["id"]
                assert api.post("/account-determination-rules", {"operationType": "receivable",
                                                                 "chartOfAccountId": receivable}, key=self.key).status == 201
                advances = api.post("/chart-of-accounts", {"code": "210401", "name": "Anticipos de clientes",
                                                            "type": "liability"}, key=self.key).json["id"]
                assert api.post("/account-determination-rules", {"operationType": "customer_advance",
                                                                 "chartOfAccountId": advances}, key=self.key).status == 201
                ledger = api.post("/chart-of-accounts", {"code": "110104", "name": "Banco", "type": "asset"},
                                  key=self.key).json["id"]
                bank = api.post("/bank-accounts", {"name": "Banco", "openingBalance": 0, "openingBalanceDate": "2026-10-01",
                                                   "chartOfAccountId": ledger}, key=self.key)
                assert bank.status == 201, bank.text
                self.control = {"110201": receivable, "210401": advances, "110104": ledger, "bank": bank.json["id"]}
            control_code = data.draw(st.sampled_from(["110201", "210401", "110104"]))
            if through_bank:   # the counterpart of a bank's own transaction: another subledger's account
                reply = api.post(f"/bank-accounts/{self.control['bank']}/transactions",
                                 {"type": data.draw(st.sampled_from(["deposit", "withdrawal"])), "amount": str(amount),
                                  "transactionDate": date,
                                  "chartOfAccountId": self.control[data.draw(st.sampled_from(["110201", "210401"]))]},
                                 key=self.key)
                fields = ["chartOfAccountId"]
            else:
                other = data.draw(st.sampled_from(CODES))
                lines = [(self.control[control_code], amount, 0), (self.books[other], 0, amount)]
                if data.draw(st.booleans()):
                    lines.reverse()
                reply = api.post("/journal-entries", {"date": date, "status": data.draw(st.sampled_from(["draft", "posted"])),
                                                      "lines": [{"chartOfAccountId": a, "debit": str(d), "credit": str(c)}
                                                                for a, d, c in lines]}, key=self.key)
                fields = [f"lines[{i}].chartOfAccountId" for i, (a, _, _) in enumerate(lines)
                          if a == self.control[control_code]]
            assert (reply.status, reply.json["code"]) == (400, "CONTROL_ACCOUNT"), reply.text
            assert [d["field"] for d in reply.json["details"]] == fields
            balances = {row["code"]: row["balance"] for row in self.books.trial_balance(END)["accounts"]}
            assert [balances.get(code, 0) for code in ("110201", "210401", "110104")] == [0, 0, 0]
            assert api.get(f"/bank-accounts/{self.control['bank']}/transactions", key=self.key).json["total"] == 0

    run_state_machine_as_test(BooksMachine, settings=settings(
        max_examples=8, stateful_step_count=20, deadline=None, suppress_health_check=list(HealthCheck)))
