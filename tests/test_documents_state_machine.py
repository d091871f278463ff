"""A hypothesis state machine over sales and purchase documents through the API: invoices (01,
some drafts; 113 without a CAI range), purchase invoices (103, some captured automatically),
imports (104), credit and debit notes (06, 07, 105, 106), deliveries (112), expenses (11);
confirming drafts, unconfirming purchase invoices, cancelling notes and imports, editing drafts,
closing and reopening periods, and actions a document's type or status does not allow.

A plain model says which command must be accepted and which refused (with its code), and what
each accepted one does to stock, balances and numbers. After every step: the trial balance
balances; each product's stock per warehouse is the sum of its movements and the model's;
each partner's balance is what its confirmed documents still owe and the model's, and the
control accounts carry the partners' sum; the document list holds exactly the documents
created, as the model has them; fiscal numbers are distinct and consecutive from 1.

Each example starts on a new, empty table. The chart holds only the accounts documents post to
(the trial balance reads the whole chart, after every step). Every document generated writes an
entry (prices from 1, discounts up to 90 %, deliveries carry goods), so each one dated in a
closed period is refused. Credit notes of one document, together, may not pass its total, at
creation, edit and confirmation alike."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from infra.resources import create_table
from tests.documents_support import CAI
from tests.support import DOCUMENT_CHART, DOCUMENT_RULES, Books, make_company

CENT = Decimal("0.01")
DATES = ("2026-10-06", "2026-10-27", "2026-11-04", "2026-11-19")
PERIODS = (("Octubre", "2026-10-01", "2026-10-31"), ("Noviembre", "2026-11-01", "2026-11-30"))
WAREHOUSES = (1, 2)
# what the lines carry: two stocked products, a service, free text
PRODUCTS = {"P1": {"code": "P-1", "name": "Silla", "unitPrice": 100, "cost": 60, "taxRate": 0.15},
            "P2": {"code": "P-2", "name": "Mesa", "unitPrice": 250, "cost": Decimal("37.5"), "taxRate": 0.18},
            "SVC": {"code": "S-1", "name": "Instalación", "type": "service", "unitPrice": 50, "taxRate": 0.15}}
STOCKED = ("P1", "P2")
DEFAULT_RATE = {"P1": Decimal("0.15"), "P2": Decimal("0.18"), "SVC": Decimal("0.15"), "FREE": Decimal("0")}

STOCK_SIGN = {"01": -1, "113": -1, "105": -1, "103": 1, "104": 1, "06": 1}
RECEIVABLE = {"01": 1, "113": 1, "07": 1, "06": -1}
PAYABLE = {"103": 1, "104": 1, "106": 1, "11": 1, "105": -1}
SOURCES = {"01": ("100", "101", "112"), "113": ("100", "101", "112"), "06": ("01", "113"), "07": ("01", "113"),
           "105": ("103", "104"), "106": ("103", "104"), "103": ("102",), "104": ("102",)}
SOURCE_REQUIRED = ("06", "07", "105", "106")
CREDIT_NOTES = ("06", "105")
CANCELLABLE = ("06", "07", "104", "105", "106")
CAPTURABLE = ("103", "105", "106")

LINE = st.tuples(st.sampled_from(("P1", "P2", "SVC", "FREE")),
                 st.sampled_from([Decimal(q) for q in ("1", "2", "3", "0.5", "2.25")]),
                 st.decimals(min_value=Decimal("1"), max_value=Decimal("300"), places=2),
                 st.sampled_from((0, 0, 10, 25, 90)),   # discount, % of the line amount
                 st.sampled_from((None, Decimal("0"), Decimal("0.15"), Decimal("0.18"))))
LINES = st.lists(LINE, min_size=1, max_size=3)
DATE = st.sampled_from(DATES)
WAREHOUSE = st.sampled_from((None, None, 2))
MODES = st.sampled_from(("confirmed", "confirmed", "draft"))


def money(amount: Decimal) -> Decimal:
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def discount_of(quantity: Decimal, price: Decimal, percent: int) -> Decimal:
    return money(money(quantity * price) * percent / 100)


def total_of(lines: list[tuple]) -> Decimal:
    total = Decimal("0")
    for item, quantity, price, percent, rate in lines:
        subtotal = money(quantity * price) - discount_of(quantity, price, percent)
        total += subtotal + money(subtotal * (DEFAULT_RATE[item] if rate is None else rate))
    return total


def with_stocked_line(lines: list[tuple]) -> list[tuple]:
    """A delivery carries goods: without them it would write no entry at all."""
    if any(line[0] in STOCKED for line in lines):
        return lines
    return [("P1", *lines[0][1:]), *lines[1:]]


def later_dates(date: str) -> st.SearchStrategy[str]:
    return st.sampled_from([d for d in DATES if d >= date])


def number(doc_type: str, sequence: int) -> str:
    return f"001-001-{doc_type.zfill(2)}-{sequence:08d}"


@dataclass
class Doc:
    type: str
    partner: int
    date: str
    warehouse: int
    lines: list[tuple]
    status: str = "draft"
    source: int | None = None
    number: str | None = None
    moves: dict[tuple[int, int], Decimal] = field(default_factory=dict)   # stock moved by its confirmation
    paid: Decimal = Decimal("0")    # by its live payments

    @property
    def total(self) -> Decimal:
        return total_of(self.lines)

    @property
    def pending(self) -> Decimal:
        owed = self.type in RECEIVABLE or self.type in PAYABLE
        return self.total - self.paid if owed and self.status == "confirmed" else Decimal("0")


def test_documents_stay_consistent(api, table):
    def fresh_table() -> None:
        table.client.delete_table(TableName=table.name)
        create_table(table.client, table.name)

    class DocumentsMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            fresh_table()
            company = make_company(table, "Tienda S. de R.L.", "owner@tienda.hn")
            self.key = company.api_key
            self.accounts = Books(api, company, full=False, chart=DOCUMENT_CHART, rules=DOCUMENT_RULES).accounts
            self.period_ids = [self.created("/accounting-periods", {"name": name, "startDate": start,
                                                                    "endDate": end})["id"]
                               for name, start, end in PERIODS]
            self.customers = [self.created("/business-partners", {"name": f"Cliente {i}", "type": "customer"})["id"]
                              for i in (1, 2)]
            self.suppliers = [self.created("/business-partners", {"name": f"Proveedor {i}", "type": "supplier"})["id"]
                              for i in (1, 2)]
            self.products = {item: self.created("/products", body)["id"] for item, body in PRODUCTS.items()}
            self.cai_range = self.created("/cai", {"cai": CAI, "branchId": 1, "emissionPoint": "001",
                                                   "documentType": "01", "rangeStart": 1, "rangeEnd": 1000,
                                                   "deadline": "2099-12-31"})["id"]
            assert self.created("/warehouses", {"name": "Bodega 2"})["id"] == 2
            self.closed: set[int] = set()
            self.docs: dict[int, Doc] = {}
            self.stock = {(self.products[item], warehouse): Decimal("0")
                          for item in STOCKED for warehouse in WAREHOUSES}
            self.sequences: dict[str, int] = defaultdict(int)
            self.credited: dict[int, Decimal] = defaultdict(Decimal)   # by confirmed credit notes
            self.bank = self.created("/bank-accounts", {"name": "Banco", "openingBalance": 500,
                                                        "openingBalanceDate": "2026-10-01",
                                                        "chartOfAccountId": self.accounts["110103"]})["id"]
            self.methods = {"cash": self.created("/payments/methods", {"name": "Efectivo"})["id"],
                            "bank": self.created("/payments/methods", {"name": "Transferencia",
                                                                       "bankAccountId": self.bank})["id"]}
            self.payments: dict[int, tuple[int, Decimal, str, str]] = {}   # live: id -> (document, amount, date, method)
            self.bank_balance = Decimal("500")

        # --- helpers ---------------------------------------------------------------------------

        def created(self, path: str, body: dict) -> dict:
            reply = api.post(path, body, key=self.key)
            assert reply.status == 201, reply.text
            return reply.json

        def listed(self, path: str, name: str) -> list[dict]:
            """Every item of a listing, page by page; the total must count them."""
            items, page = [], 1
            while True:
                reply = api.get(f"{path}{'&' if '?' in path else '?'}limit=100&page={page}", key=self.key)
                assert reply.status == 200, reply.text
                items += reply.json[name]
                if not reply.json[name] or len(items) >= reply.json["total"]:
                    assert len(items) == reply.json["total"], (path, len(items), reply.json["total"])
                    return items
                page += 1

        def is_closed(self, date: str) -> bool:
            return any(PERIODS[i][1] <= date <= PERIODS[i][2] for i in self.closed)

        def body_lines(self, lines: list[tuple]) -> list[dict]:
            sent = []
            for item, quantity, price, percent, rate in lines:
                line = {"quantity": quantity, "unitPrice": price, "discount": discount_of(quantity, price, percent)}
                if item == "FREE":
                    line["description"] = "Varios"
                else:
                    line["productId"] = self.products[item]
                if rate is not None:
                    line["taxRate"] = rate
                sent.append(line)
            return sent

        def of(self, *types: str, status: str | None = None) -> list[int]:
            return sorted(i for i, d in self.docs.items() if d.type in types and status in (None, d.status))

        def moves_of(self, doc: Doc) -> dict[tuple[int, int], Decimal]:
            """What confirming moves: goods of the lines, by the type's direction (a delivery
            note moves nothing: its invoice does)."""
            sign = STOCK_SIGN.get(doc.type, 0)
            if not sign:
                return {}
            moves: dict[tuple[int, int], Decimal] = defaultdict(Decimal)
            for item, quantity, *_ in doc.lines:
                if item in STOCKED:
                    moves[(self.products[item], doc.warehouse)] += quantity * sign
            return dict(moves)

        def short(self, moves: dict[tuple[int, int], Decimal]) -> bool:
            return any(quantity < 0 and self.stock[key] + quantity < 0 for key, quantity in moves.items())

        def bad_source(self, doc: Doc) -> bool:
            """The source checks (made again when a document is confirmed): a type it may come
            from, the same partner, not cancelled, confirmed for notes."""
            if doc.source is None:
                return doc.type in SOURCE_REQUIRED
            source = self.docs[doc.source]
            return source.type not in SOURCES.get(doc.type, ()) or source.partner != doc.partner \
                or source.status == "cancelled" or (doc.type in SOURCE_REQUIRED and source.status != "confirmed")

        def too_much_credit(self, doc: Doc) -> bool:
            """Credit notes of one document, together, never credit more than its total."""
            return doc.type in CREDIT_NOTES and doc.total > self.docs[doc.source].total - self.credited[doc.source]

        def invalid(self, doc: Doc) -> bool:
            return self.bad_source(doc) or self.too_much_credit(doc)

        def confirm_refusal(self, doc: Doc) -> str | None:
            if doc.type == "113":
                return "CAI_MISSING"      # no CAI range for 113: an HN company cannot number it
            if self.is_closed(doc.date) and doc.type != "112":  # the others all touch stock or the books
                return "PERIOD_CLOSED"
            if self.short(self.moves_of(doc)):
                return "INSUFFICIENT_STOCK"
            return None

        def confirmed(self, doc: Doc) -> None:
            doc.moves = self.moves_of(doc)
            for key, quantity in doc.moves.items():
                self.stock[key] += quantity
            doc.status = "confirmed"
            if doc.type in CREDIT_NOTES:
                self.credited[doc.source] += doc.total
            if doc.number is None:
                self.sequences[doc.type] += 1
                doc.number = number(doc.type, self.sequences[doc.type])

        def answered(self, reply, code: str | None, status: int) -> bool:
            if code is None:
                assert reply.status == status, reply.text
                return True
            expected_status = 403 if code == "DOCUMENT_NOT_EDITABLE" else 400
            assert (reply.status, reply.json.get("code")) == (expected_status, code), reply.text
            return False

        def shown(self, view: dict, doc: Doc) -> None:
            assert (view["type"], view["status"], view["businessPartnerId"], view["date"], view["warehouseId"],
                    view["total"], view["pending"], view.get("number"), view.get("sourceDocumentId")) == \
                   (doc.type, doc.status, doc.partner, doc.date, doc.warehouse, doc.total, doc.pending, doc.number,
                    doc.source), view

        def create(self, doc: Doc, mode: str) -> None:
            body = {"type": doc.type, "businessPartnerId": doc.partner, "date": doc.date,
                    "lines": self.body_lines(doc.lines)}
            if doc.warehouse != 1:
                body["warehouseId"] = doc.warehouse
            if doc.source is not None:
                body["sourceDocumentId"] = doc.source
            if mode == "draft":
                body["status"] = "draft"
            elif mode == "automatic":
                body["capture"] = "automatic"
            if (mode == "automatic" and doc.type not in CAPTURABLE) or self.invalid(doc):
                code = "VALIDATION_ERROR"
            else:
                code = self.confirm_refusal(doc) if mode == "confirmed" else None
            reply = api.post("/documents", body, key=self.key)
            if self.answered(reply, code, 201):
                if mode == "confirmed":
                    self.confirmed(doc)
                self.docs[reply.json["id"]] = doc
                self.shown(reply.json, doc)

        def pick_lines(self, data, doc_type: str, lines: list[tuple], source_id: int | None) -> list[tuple]:
            if doc_type == "112":
                return with_stocked_line(lines)
            room = self.docs[source_id].total - self.credited[source_id] if source_id is not None else Decimal("0")
            if doc_type in CREDIT_NOTES and total_of(lines) > room > CENT \
                    and data.draw(st.integers(0, 3), label="fit the credit note"):
                price = money(room / 3)
                return [(lines[0][0], Decimal("1"), price, 0, Decimal("0"))]
            return lines

        # --- rules ------------------------------------------------------------------------------

        @rule(customer=st.integers(0, 1), date=DATE, lines=LINES, mode=MODES, warehouse=WAREHOUSE,
              reservation=st.sampled_from((False,) * 9 + (True,)), data=st.data())
        def sales_invoice(self, customer, date, lines, mode, warehouse, reservation, data):
            partner = self.customers[customer]
            deliveries = [i for i in self.of("112") if self.docs[i].partner == partner]
            source = None
            if deliveries and data.draw(st.integers(0, 2), label="from a delivery") == 0:
                source = data.draw(st.sampled_from(deliveries), label="delivery")
            self.create(Doc("113" if reservation else "01", partner, date, warehouse or 1, lines, source=source), mode)

        @rule(supplier=st.integers(0, 1), date=DATE, lines=LINES, warehouse=WAREHOUSE,
              mode=st.sampled_from(("confirmed", "confirmed", "draft", "automatic")))
        def purchase_invoice(self, supplier, date, lines, mode, warehouse):
            self.create(Doc("103", self.suppliers[supplier], date, warehouse or 1, lines), mode)

        @rule(doc_type=st.sampled_from(("104", "11")), supplier=st.integers(0, 1), date=DATE, lines=LINES,
              mode=st.sampled_from(("confirmed",) * 4 + ("draft", "automatic")), warehouse=WAREHOUSE)
        def import_or_expense(self, doc_type, supplier, date, lines, mode, warehouse):
            self.create(Doc(doc_type, self.suppliers[supplier], date, warehouse or 1, lines), mode)

        @rule(customer=st.integers(0, 1), date=DATE, lines=LINES, mode=MODES, warehouse=WAREHOUSE)
        def delivery(self, customer, date, lines, mode, warehouse):
            self.create(Doc("112", self.customers[customer], date, warehouse or 1, with_stocked_line(lines)), mode)

        @precondition(lambda self: self.of("01"))
        @rule(doc_type=st.sampled_from(("06", "06", "07")), date=DATE, lines=LINES, mode=MODES,
              warehouse=WAREHOUSE, data=st.data())
        def sales_note(self, doc_type, date, lines, mode, warehouse, data):
            confirmed = self.of("01", status="confirmed")
            candidates = confirmed if confirmed and data.draw(st.integers(0, 5), label="any invoice") else self.of("01")
            source_id = data.draw(st.sampled_from(candidates), label="invoice")
            source = self.docs[source_id]
            partner = source.partner
            if data.draw(st.integers(0, 9), label="other customer") == 0:
                partner = next(c for c in self.customers if c != partner)
            lines = self.pick_lines(data, doc_type, lines, source_id)
            self.create(Doc(doc_type, partner, date, warehouse or 1, lines, source=source_id), mode)

        @precondition(lambda self: self.of("103", "104"))
        @rule(doc_type=st.sampled_from(("105", "105", "106")), date=DATE, lines=LINES,
              mode=st.sampled_from(("confirmed", "confirmed", "draft", "automatic")), warehouse=WAREHOUSE,
              data=st.data())
        def purchase_note(self, doc_type, date, lines, mode, warehouse, data):
            confirmed = self.of("103", "104", status="confirmed")
            candidates = confirmed if confirmed and data.draw(st.integers(0, 5), label="any") else self.of("103", "104")
            source_id = data.draw(st.sampled_from(candidates), label="purchase")
            source = self.docs[source_id]
            partner = source.partner
            if data.draw(st.integers(0, 9), label="other supplier") == 0:
                partner = next(s for s in self.suppliers if s != partner)
            lines = self.pick_lines(data, doc_type, lines, source_id)
            self.create(Doc(doc_type, partner, date, warehouse or 1, lines, source=source_id), mode)

        def confirm(self, doc_id: int) -> None:
            doc = self.docs[doc_id]
            if self.bad_source(doc):
                code = "VALIDATION_ERROR"
            elif doc.status != "draft":
                code = "INVALID_DOCUMENT_STATUS"
            elif self.too_much_credit(doc):
                # its document's total went down since (unconfirmed, edited, confirmed again):
                # a credit note may still not credit more than the document's total
                code = "VALIDATION_ERROR"
            else:
                code = self.confirm_refusal(doc)
            reply = api.post(f"/documents/{doc_id}/confirm", {}, key=self.key)
            if self.answered(reply, code, 200):
                self.confirmed(doc)
                self.shown(reply.json, doc)

        def undo(self, doc_id: int, action: str, date: str) -> None:
            doc = self.docs[doc_id]
            allowed = doc.type == "103" if action == "unconfirm" else doc.type in CANCELLABLE
            if not allowed:
                code = "DOCUMENT_NOT_UNCONFIRMABLE" if action == "unconfirm" else "DOCUMENT_NOT_CANCELLABLE"
            elif doc.status != "confirmed":
                code = "INVALID_DOCUMENT_STATUS"
            elif doc.paid:
                code = "DOCUMENT_HAS_PAYMENTS"
            elif self.credited[doc_id]:
                code = "DOCUMENT_HAS_CREDIT_NOTES"
            elif self.is_closed(date):
                code = "PERIOD_CLOSED"
            elif self.short({key: -quantity for key, quantity in doc.moves.items()}):
                code = "INSUFFICIENT_STOCK"
            else:
                code = None
            reply = api.post(f"/documents/{doc_id}/{action}", {"date": date, "reason": "prueba"}, key=self.key)
            if self.answered(reply, code, 200):
                for key, quantity in doc.moves.items():
                    self.stock[key] -= quantity
                doc.moves = {}
                doc.status = "draft" if action == "unconfirm" else "cancelled"
                if doc.type in CREDIT_NOTES:
                    self.credited[doc.source] -= doc.total
                self.shown(reply.json, doc)

        def edit(self, doc_id: int, data) -> None:
            doc = self.docs[doc_id]
            body, changed = {}, doc
            if data.draw(st.booleans(), label="new lines"):
                lines = data.draw(LINES, label="lines")
                lines = self.pick_lines(data, doc.type, lines, doc.source)
                body["lines"], changed = self.body_lines(lines), replace(changed, lines=lines)
            if data.draw(st.booleans(), label="new date"):
                date = data.draw(DATE, label="date")
                body["date"], changed = date, replace(changed, date=date)
            if data.draw(st.integers(0, 3), label="new warehouse") == 0:
                warehouse = data.draw(st.sampled_from(WAREHOUSES), label="warehouse")
                body["warehouseId"], changed = warehouse, replace(changed, warehouse=warehouse)
            if data.draw(st.integers(0, 3), label="new partner") == 0:   # the other one of its side
                partners = self.customers if doc.type in RECEIVABLE or doc.type == "112" else self.suppliers
                partner = next(p for p in partners if p != doc.partner)
                body["businessPartnerId"], changed = partner, replace(changed, partner=partner)
            if not body:
                body["notes"] = "sin cambios"
            if doc.status != "draft":
                code = "DOCUMENT_NOT_EDITABLE"
            else:
                code = "VALIDATION_ERROR" if self.invalid(changed) else None
            reply = api.put(f"/documents/{doc_id}", body, key=self.key)
            if self.answered(reply, code, 200):
                self.docs[doc_id] = changed
                self.shown(reply.json, changed)

        @precondition(lambda self: any(d.status == "draft" for d in self.docs.values()))
        @rule(data=st.data())
        def confirm_draft(self, data):
            self.confirm(data.draw(st.sampled_from(sorted(i for i, d in self.docs.items() if d.status == "draft"))))

        @precondition(lambda self: self.of("103", status="confirmed"))
        @rule(data=st.data())
        def unconfirm_purchase(self, data):
            doc_id = data.draw(st.sampled_from(self.of("103", status="confirmed")), label="invoice")
            self.undo(doc_id, "unconfirm", data.draw(later_dates(self.docs[doc_id].date), label="date"))

        @precondition(lambda self: self.of(*CANCELLABLE, status="confirmed"))
        @rule(data=st.data())
        def cancel(self, data):
            doc_id = data.draw(st.sampled_from(self.of(*CANCELLABLE, status="confirmed")), label="document")
            self.undo(doc_id, "cancel", data.draw(later_dates(self.docs[doc_id].date), label="date"))

        @precondition(lambda self: any(d.status == "draft" for d in self.docs.values()))
        @rule(data=st.data())
        def edit_draft(self, data):
            self.edit(data.draw(st.sampled_from(sorted(i for i, d in self.docs.items() if d.status == "draft"))),
                      data)

        @precondition(lambda self: self.docs)
        @rule(action=st.sampled_from(("confirm", "unconfirm", "cancel", "edit")), data=st.data())
        def any_action(self, action, data):
            """Any action on any document: refused with the right code when the type or status
            does not allow it."""
            doc_id = data.draw(st.sampled_from(sorted(self.docs)), label="document")
            if action == "confirm":
                self.confirm(doc_id)
            elif action == "edit":
                self.edit(doc_id, data)
            else:
                self.undo(doc_id, action, data.draw(later_dates(self.docs[doc_id].date), label="date"))

        @precondition(lambda self: any(d.status == "confirmed" and d.pending > 0 and (
            RECEIVABLE.get(d.type, 0) > 0 or PAYABLE.get(d.type, 0) > 0) for d in self.docs.values()))
        @rule(data=st.data(), method=st.sampled_from(("cash", "bank")), whole=st.booleans())
        def pay(self, data, method, whole):
            """A payment of what is owed, of part of it, or of more (refused); dated on the document."""
            owed = sorted(i for i, d in self.docs.items() if d.status == "confirmed" and d.pending > 0
                          and (RECEIVABLE.get(d.type, 0) > 0 or PAYABLE.get(d.type, 0) > 0))
            doc_id = data.draw(st.sampled_from(owed), label="document")
            doc = self.docs[doc_id]
            cents = data.draw(st.integers(1, int(doc.pending * 100) + 500), label="cents")
            amount = doc.pending if whole else Decimal(cents) / 100
            code = ("AMOUNT_EXCEEDS_PENDING" if amount > doc.pending else
                    "PERIOD_CLOSED" if self.is_closed(doc.date) else None)
            reply = api.post(f"/payments/documents/{doc_id}/payments",
                             {"paymentMethodId": self.methods[method], "amount": str(amount), "paymentDate": doc.date},
                             key=self.key)
            if self.answered(reply, code, 201):
                doc.paid += amount
                self.payments[reply.json["id"]] = (doc_id, amount, doc.date, method)
                if method == "bank":
                    self.bank_balance += amount if doc.type in RECEIVABLE else -amount

        @precondition(lambda self: self.payments)
        @rule(data=st.data())
        def cancel_payment(self, data):
            payment_id = data.draw(st.sampled_from(sorted(self.payments)), label="payment")
            doc_id, amount, date, method = self.payments[payment_id]
            code = "PERIOD_CLOSED" if self.is_closed(date) else None
            reply = api.post(f"/payments/documents/{doc_id}/payments/{payment_id}/cancel",
                             {"reason": "prueba", "date": date}, key=self.key)
            if self.answered(reply, code, 200):
                self.docs[doc_id].paid -= amount
                del self.payments[payment_id]
                if method == "bank":
                    self.bank_balance -= amount if self.docs[doc_id].type in RECEIVABLE else -amount

        @invariant()
        def bank_balance_is_opening_plus_its_transactions(self):
            account = api.get(f"/bank-accounts/{self.bank}", key=self.key).json
            signed = sum((Decimal(str(t["amount"])) * (1 if t["direction"] == "credit" else -1)
                          for t in self.listed(f"/bank-accounts/{self.bank}/transactions", "transactions")), Decimal("0"))
            assert Decimal(str(account["balance"])) == Decimal("500") + signed == self.bank_balance
            assert 0 <= min((d.paid for d in self.docs.values()), default=0)
            assert all(d.paid <= d.total for d in self.docs.values())

        @rule(index=st.integers(0, len(PERIODS) - 1))
        def close_or_reopen(self, index):
            action = "reopen" if index in self.closed else "close"
            reply = api.post(f"/accounting-periods/{self.period_ids[index]}/{action}", key=self.key)
            assert reply.status == 200, reply.text
            self.closed ^= {index}

        # --- invariants -------------------------------------------------------------------------

        @invariant()
        def books_balance(self):
            reply = api.get("/journal-entries/trial-balance?date=2099-12-31", key=self.key)
            assert reply.status == 200, reply.text
            assert reply.json["totalDebit"] == reply.json["totalCredit"], reply.json

        @invariant()
        def stock_is_its_movements(self):
            for item in STOCKED:
                product = self.products[item]
                levels = self.listed(f"/inventory/stock?productId={product}", "stock")
                movements = self.listed(f"/inventory/movements?productId={product}", "movements")
                for warehouse in WAREHOUSES:
                    level = sum((s["quantity"] for s in levels if s["warehouseId"] == warehouse), Decimal("0"))
                    moved = sum((m["quantity"] for m in movements if m["warehouseId"] == warehouse), Decimal("0"))
                    assert level == moved == self.stock[(product, warehouse)], (item, warehouse, level, moved)
            for warehouse in WAREHOUSES:
                levels = self.listed(f"/inventory/stock?warehouseId={warehouse}", "stock")
                assert {s["productId"]: s["quantity"] for s in levels if s["quantity"]} == \
                       {p: q for (p, w), q in self.stock.items() if w == warehouse and q}, warehouse

        @invariant()
        def balances_are_what_is_owed(self):
            partners = {p["id"]: p for p in self.listed("/business-partners", "businessPartners")}
            receivable = payable = Decimal("0")
            for partner_id in self.customers + self.suppliers:
                open_docs = self.listed(f"/documents?businessPartnerId={partner_id}&status=confirmed", "documents")
                owed = sum((d["pending"] * RECEIVABLE.get(d["type"], 0) for d in open_docs), Decimal("0"))
                owes = sum((d["pending"] * PAYABLE.get(d["type"], 0) for d in open_docs), Decimal("0"))
                model = [d for d in self.docs.values() if d.partner == partner_id and d.status == "confirmed"]
                model_owed = sum((d.pending * RECEIVABLE.get(d.type, 0) for d in model), Decimal("0"))
                model_owes = sum((d.pending * PAYABLE.get(d.type, 0) for d in model), Decimal("0"))
                partner = partners[partner_id]
                assert partner["receivableBalance"] == owed == model_owed, (partner, owed, model_owed)
                assert partner["payableBalance"] == owes == model_owes, (partner, owes, model_owes)
                receivable += partner["receivableBalance"]
                payable += partner["payableBalance"]
            assert self.closing("110201") == receivable
            assert self.closing("210101") + self.closing("210102") == payable

        def closing(self, code: str) -> Decimal:
            reply = api.get(f"/journal-entries/ledger?chartOfAccountId={self.accounts[code]}"
                            "&startDate=2026-01-01&endDate=2099-12-31", key=self.key)
            assert reply.status == 200, reply.text
            return reply.json["closingBalance"]

        @invariant()
        def documents_are_the_model(self):
            listed = self.listed("/documents", "documents")
            assert len(listed) == len(self.docs)
            for item in listed:
                doc = self.docs[item["id"]]
                assert (item["type"], item["status"], item["businessPartnerId"], item["date"], item["total"],
                        item["pending"], item["number"]) == \
                       (doc.type, doc.status, doc.partner, doc.date, doc.total, doc.pending, doc.number), item
            numbers: dict[str, list[str]] = defaultdict(list)
            for item in listed:
                if item["number"]:
                    numbers[item["type"]].append(item["number"])
            for doc_type, issued in numbers.items():
                assert sorted(issued) == [number(doc_type, n) for n in range(1, len(issued) + 1)], (doc_type, issued)
            invoices = [item["number"] for item in listed if item["type"] == "01" and item["status"] == "confirmed"]
            assert sorted(invoices) == sorted(numbers["01"])
            cai = api.get(f"/cai/{self.cai_range}", key=self.key).json
            assert cai["nextNumber"] == len(invoices) + 1, cai

    run_state_machine_as_test(DocumentsMachine, settings=settings(
        max_examples=10, stateful_step_count=18, deadline=None, suppress_health_check=list(HealthCheck)))
