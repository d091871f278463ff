"""Month-end revaluation (issue 44, NIIF para PYMES 30.9): every foreign-currency item open at a
date (a document's receivable or payable as its partner's ledger leaves it at the date, a foreign
bank account's balance against its ledger) translated at the company's rate for the date; the
differences posted as one automatic entry dated the day and its reversal the next day, in one
transaction with the revaluation record. The documents keep their `basePending` (a payment's
realised difference stays exact); each partner's ledger gets a movement of its own (origin "R")
on both days beside the control account's lines, so the subledgers equal their control accounts on
every day (docs/decisions.md). Advances are taken in the company's currency only
(domain/document_actions.py `_advance`): there are none in a foreign one to revalue."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain import accounting
from chalicelib.domain import aging as aging_rules
from chalicelib.domain import revaluation as rules
from chalicelib.domain.accounting import AUTOMATIC, POSTED, REVERSAL, ZERO
from chalicelib.errors import ApiError, DocumentTooLarge, NotFound, ValidationFailed
from chalicelib.messages.books import book_text
from chalicelib.services import records
from chalicelib.services.accounting import reports
from chalicelib.services.accounting.posting import JournalWrites, Source, entry_item, next_entry_id, rule_items, rule_of
from chalicelib.services.banking import exchange_rates
from chalicelib.services.banking.banking import MONEY_IN
from chalicelib.services.commands import Command
from chalicelib.services.sales_purchases import partner_ledger
from chalicelib.store import keys
from chalicelib.store.listing import GSI1
from chalicelib.store.table import Table
from chalicelib.store.transaction import MAX_ITEMS

SIDES = ((keys.RECEIVABLE_SIDE, rules.RECEIVABLE, ("customer", "both"), "receivable"),
         (keys.PAYABLE_SIDE, rules.PAYABLE, ("supplier", "both"), "payable"))
VIEW_FIELDS = ("id", "date", "reversalDate", "currencies", "rates", "journalEntryId", "reversalJournalEntryId",
               "totalGain", "totalLoss", "netDifference", "lines", "createdAt")


class RevaluationExists(ApiError):
    code = "REVALUATION_EXISTS"
    message = "A revaluation of this date exists already."


def exists_error(existing: dict[str, Any]) -> RevaluationExists:
    return RevaluationExists(f"Revaluation {int(existing['id'])} already revalues {existing['date']}.",
                             details=[{"field": "date", "message": f"revaluation {int(existing['id'])} already "
                                                                   f"revalues {existing['date']}"}])


# --- what is open at the date --------------------------------------------------------------------

def partner_items(table: Table, company_id: int, date: str, own: str) -> list[dict[str, Any]]:
    """Per foreign-currency document open at the end of `date`: its partner, what is open in its
    currency and in the company's (its ledger's movements up to the date; aging reads them so)."""
    partners = [item for item in table.query_all(
        partition=("GSI1PK", keys.collection_partition(company_id, keys.PARTNER)), index=GSI1)
        if item.get("type") in ("customer", "supplier", "both")]   # not the count item
    found = []
    for partner in sorted(partners, key=lambda item: (item.get("name", ""), item["id"])):
        for side, kind, types, _ in SIDES:
            if partner.get("type") not in types:
                continue
            movements = table.query_all(
                partition=("PK", keys.partner_ledger_partition(company_id, partner["id"], side)),
                sort_range=("SK", keys.PARTNER_MOVEMENT_PREFIX, keys.day_end(keys.PARTNER_MOVEMENT_PREFIX + date)),
                consistent=True)
            own_movements = {int(movement["documentId"]): movement for movement in movements
                             if movement.get("currency") and movement.get("documentId") is not None}
            booked = aging_rules.open_amounts(movements)
            foreign = aging_rules.open_in_currency(movements)
            for document_id, movement in own_movements.items():
                if movement["currency"] == own or (not booked.get(document_id) and not foreign.get(document_id)):
                    continue
                found.append({"kind": kind, "partnerId": int(partner["id"]), "partnerName": partner.get("name", ""),
                              "documentId": document_id, "documentNumber": movement.get("number"),
                              "documentType": movement.get("documentType"), "currency": movement["currency"],
                              "foreignAmount": foreign.get(document_id, ZERO),
                              "bookedAmount": booked.get(document_id, ZERO)})
    return found


def bank_items(table: Table, company_id: int, date: str, own: str) -> list[dict[str, Any]]:
    """Per foreign-currency bank account: its balance at the end of `date` (today's less what is
    dated later) and its ledger account's balance at the date."""
    found = []
    for account in sorted(records.small_records(table, company_id, keys.BANK_ACCOUNT), key=lambda item: item["id"]):
        if not account.get("currency") or account["currency"] == own:
            continue
        later = table.query_all(partition=("PK", keys.bank_transactions_partition(company_id, account["id"])),
                                sort_range=("SK", rules.reversal_date(date), None), consistent=True)
        held = Decimal(account.get("balance", 0)) - sum(
            (Decimal(item["amount"]) if item["direction"] == MONEY_IN else -Decimal(item["amount"]) for item in later), ZERO)
        if (account.get("openingBalanceDate") or "") > date:
            held -= Decimal(account.get("openingBalance", 0))
        booked = reports.balance_at(table, company_id, int(account["chartOfAccountId"]), date)
        if held or booked:
            found.append({"kind": rules.BANK, "bankAccountId": int(account["id"]),
                          "bankAccountName": account.get("name", ""), "ledgerAccountId": int(account["chartOfAccountId"]),
                          "currency": account["currency"], "foreignAmount": held, "bookedAmount": booked})
    return found


def closing_rates(table: Table, company_id: int, date: str, currencies: list[str]) -> dict[str, Decimal]:
    """The company's rate of each currency on or before `date`: 400 naming `currencies` for those without one."""
    rates = {currency: exchange_rates.rate_on(table, company_id, currency, date) for currency in currencies}
    missing = sorted(currency for currency, rate in rates.items() if rate is None)
    if missing:
        raise ValidationFailed.for_field("currencies", f"no exchange rate of {', '.join(missing)} is recorded on or "
                                                       f"before {date}: record one with POST /exchange-rates")
    return rates  # type: ignore[return-value]


# --- the command ---------------------------------------------------------------------------------

def revalue(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    table, company_id, date = command.table, command.company_id, fields["date"]
    company = exchange_rates.company_of(table, company_id)
    own = exchange_rates.company_currency(company)
    asked = fields.get("currencies")
    if asked and own in asked:
        raise ValidationFailed.for_field("currencies", f"{own} is the company's own currency: nothing in it is revalued")
    existing = table.get(keys.revaluation(company_id, date))
    if existing is not None:
        raise exists_error(existing)
    reversal_day = rules.reversal_date(date)
    writes = JournalWrites(company_id)
    writes.require_open(date)
    writes.require_open(reversal_day)
    writes.refuse_closed_now(table)
    items = [item for item in partner_items(table, company_id, date, own) + bank_items(table, company_id, date, own)
             if not asked or item["currency"] in asked]
    currencies = sorted(set(asked or ()) | {item["currency"] for item in items})
    rates = closing_rates(table, company_id, date, currencies)
    lines = [rules.revalued(item, rates[item["currency"]]) for item in items]
    answer = {"date": date, "reversalDate": reversal_day, "currencies": currencies,
              "rates": [{"currency": currency, "rate": rate} for currency, rate in rates.items()],
              **rules.totals(lines), "lines": [_line_view(line) for line in lines]}
    if fields.get("dryRun"):
        command.already_there = True   # nothing written: 200, not 201
        return {**answer, "id": None, "journalEntryId": None, "reversalJournalEntryId": None, "createdAt": None}
    revaluation_id = table.next_id(keys.id_sequence(company_id, keys.REVALUATION))
    transaction = command.transaction()
    entry_id = reversal_id = None
    if any(line["difference"] for line in lines):
        entry_id, reversal_id = _post(table, writes, company_id, revaluation_id, date, reversal_day, lines, rates)
        _partner_movements(transaction, company_id, revaluation_id, date, reversal_day, lines)
    writes.apply(transaction)
    record = {**keys.revaluation(company_id, date), "itemType": "REVALUATION", "id": revaluation_id, **answer,
              "journalEntryId": entry_id, "reversalJournalEntryId": reversal_id, "createdAt": clock.now_iso()}
    transaction.put_new(_stored(record), on_fail=RevaluationExists("A revaluation of this date was just recorded."))
    # the Idempotency-Key record is one more
    if len(transaction.operations) + 1 > MAX_ITEMS:
        raise DocumentTooLarge(f"Revaluing {len(lines)} items on {date} would change {len(transaction.operations) + 1} "
                               f"records in one transaction, more than {MAX_ITEMS}; revalue fewer "
                               "currencies (`currencies`) on another date, or settle small items first.")
    return view(command.commit(transaction, record))


def _post(table: Table, writes: JournalWrites, company_id: int, revaluation_id: int, date: str, reversal_day: str,
          lines: list[dict[str, Any]], rates: dict[str, Decimal]) -> tuple[int, int]:
    """The entry (a line per control account and partner or bank, the gains and the losses) and
    its reversal the next day, both automatic with the revaluation as their source."""
    rules_found = [rule_of(item) for item in rule_items(table, company_id)]

    def account_of(line: dict[str, Any]) -> int:
        if line["kind"] == rules.BANK:
            return line["ledgerAccountId"]
        return accounting.resolve_rule(rules_found, line["kind"], line.get("documentType")).account_id

    def description(line: dict[str, Any]) -> str:
        if line["kind"] == rules.BANK:
            return book_text("revaluation_bank", name=line["bankAccountName"])
        return book_text("revaluation_partner", kind=book_text(f"revaluation_{line['kind']}"), name=line["partnerName"])

    groups = [(account, text, difference) for (account, text), difference in
              rules.grouped(lines, lambda line: (account_of(line), description(line)))]
    totals = rules.totals(lines)
    entry_lines = rules.entry_lines(
        groups, totals["totalGain"], totals["totalLoss"],
        gain_account=accounting.resolve_rule(rules_found, "fx_unrealized_gain", None).account_id,
        loss_account=accounting.resolve_rule(rules_found, "fx_unrealized_loss", None).account_id,
        gain_text=book_text("revaluation_gain", date=date), loss_text=book_text("revaluation_loss", date=date))
    source = Source("revaluation", revaluation_id)
    rate_text = ", ".join(f"{currency} {rate}" for currency, rate in rates.items())
    entry = entry_item(company_id, next_entry_id(table, company_id), date=date,
                       description=book_text("revaluation", date=date, rates=rate_text), lines=entry_lines,
                       status=POSTED, entry_type=AUTOMATIC, source=source)
    writes.add_entry(entry)
    reversal = entry_item(company_id, next_entry_id(table, company_id), date=reversal_day,
                          description=book_text("revaluation_reversal", date=date),
                          lines=accounting.reversal_lines(entry_lines), status=POSTED, entry_type=REVERSAL,
                          source=source, reversal_of=entry["id"])
    writes.add_entry(reversal)
    return int(entry["id"]), int(reversal["id"])


def _partner_movements(transaction: Any, company_id: int, revaluation_id: int, date: str, reversal_day: str,
                       lines: list[dict[str, Any]]) -> None:
    """A movement per partner and side on the day (each revalued document's change named) and
    its opposite the next day: the partner's ledger moves as its control account does. The
    partner's own balance (today's) is left alone: the two cancel."""
    by_partner: dict[tuple[int, str], dict[str, Decimal]] = {}
    for line in lines:
        if line["kind"] == rules.BANK or not rules.ledger_change(line):
            continue
        side = keys.RECEIVABLE_SIDE if line["kind"] == rules.RECEIVABLE else keys.PAYABLE_SIDE
        by_partner.setdefault((line["partnerId"], side), {})[str(line["documentId"])] = rules.ledger_change(line)
    for (partner_id, side), documents in by_partner.items():
        change = sum(documents.values(), ZERO)
        for day, sign, text, version in ((date, 1, "revaluation_movement", 1),
                                         (reversal_day, -1, "revaluation_reversal", 2)):
            partner_ledger.record_movement(
                transaction, company_id, partner_id=partner_id, side=side, date=day, amount=change * sign,
                origin=keys.REVALUATION_ORIGIN, origin_id=revaluation_id, version=version,
                details={"revaluationId": revaluation_id, "description": book_text(text, date=date),
                         "revaluedDocuments": {document: amount * sign for document, amount in documents.items()}})


def _line_view(line: dict[str, Any]) -> dict[str, Any]:
    shown = ("kind", "partnerId", "partnerName", "bankAccountId", "bankAccountName", "documentId", "documentNumber",
             "currency", "foreignAmount", "bookedAmount", "rate", "revaluedAmount", "difference")
    return {name: line.get(name) for name in shown}


def _stored(item: dict[str, Any]) -> dict[str, Any]:
    """No nulls in DynamoDB: neither on the record nor on its lines."""
    clean = {name: value for name, value in item.items() if value is not None}
    clean["lines"] = [{name: value for name, value in line.items() if value is not None} for line in item["lines"]]
    return clean


# --- reading -------------------------------------------------------------------------------------

def view(item: dict[str, Any]) -> dict[str, Any]:
    return {**{name: item.get(name) for name in VIEW_FIELDS},
            "lines": [_line_view(line) for line in item.get("lines", [])]}


def list_revaluations(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Newest date first (one Query of a small partition)."""
    items = table.query_all(partition=("PK", keys.revaluations_partition(company_id)), consistent=True)
    return [view(item) for item in sorted(items, key=lambda item: item["date"], reverse=True)]


def get_revaluation(table: Table, company_id: int, revaluation_id: int) -> dict[str, Any]:
    for item in table.query_all(partition=("PK", keys.revaluations_partition(company_id)), consistent=True):
        if int(item["id"]) == revaluation_id:
            return view(item)
    raise NotFound("Revaluation not found.")
