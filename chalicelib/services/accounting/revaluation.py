"""Month-end revaluation (issue 44, NIIF para PYMES 30.9): every foreign-currency item open at a
date (a document's receivable or payable as its partner's ledger leaves it at the date, a foreign
bank account's balance against its ledger) translated at the company's rate for the date; the
differences posted as automatic entries dated the day and their reversals the next day, in as
many transactions as the company's size needs (revaluation_chunks.py). The documents keep their
`basePending` (a payment's realised difference stays exact); each partner's ledger gets a movement of its own (origin "R")
on both days beside the control account's lines, so the subledgers equal their control accounts on
every day (docs/decisions.md). Advances are taken in the company's currency only
(domain/document_actions.py `_advance`): there are none in a foreign one to revalue."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.domain import aging as aging_rules
from chalicelib.domain import revaluation as rules
from chalicelib.domain.accounting import ZERO
from chalicelib.errors import ApiError, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.accounting import reports
from chalicelib.services.accounting import revaluation_chunks as chunks
from chalicelib.services.accounting.posting import JournalWrites, rule_items, rule_of
from chalicelib.services.banking import exchange_rates
from chalicelib.services.banking.banking import MONEY_IN
from chalicelib.services.commands import Command, Existing
from chalicelib.services.identity import accounts
from chalicelib.store import keys
from chalicelib.store.repositories import bank_transactions as bank_transaction_store
from chalicelib.store.repositories import ledger as ledgers
from chalicelib.store.repositories import partners as partner_store
from chalicelib.store.repositories import revaluations as revaluation_store
from chalicelib.store.table import Table

SIDES = ((keys.RECEIVABLE_SIDE, rules.RECEIVABLE, ("customer", "both"), "receivable"),
         (keys.PAYABLE_SIDE, rules.PAYABLE, ("supplier", "both"), "payable"))
VIEW_FIELDS = ("id", "date", "reversalDate", "currencies", "rates", "status", "journalEntryId",
               "reversalJournalEntryId", "journalEntryIds", "reversalJournalEntryIds", "totalGain", "totalLoss",
               "netDifference", "lines", "createdAt", "voidedAt", "voidJournalEntryIds")


class RevaluationExists(ApiError):
    code = "REVALUATION_EXISTS"
    message = "A revaluation of this date exists already."


def exists_error(existing: dict[str, Any]) -> RevaluationExists:
    return RevaluationExists(Phrase("Revaluation {} already revalues {}.", int(existing['id']), existing['date']),
                             details=[{"field": "date", "message":
                                     Phrase("revaluation {} already revalues {}",
                                            int(existing['id']), existing['date'])}])


# --- what is open at the date --------------------------------------------------------------------

def partner_items(table: Table, company_id: int, date: str, own: str) -> list[dict[str, Any]]:
    """Per foreign-currency document open at the end of `date`: its partner, what is open in its
    currency and in the company's (its ledger's movements up to the date; aging reads them so)."""
    partners = [item for item in partner_store.every_partner(table, company_id)
                if item.get("type") in ("customer", "supplier", "both")]
    found = []
    for partner in sorted(partners, key=lambda item: (item.get("name", ""), item["id"])):
        for side, kind, types, _ in SIDES:
            if partner.get("type") not in types:
                continue
            movements = ledgers.partner_movements_through(table, company_id, partner["id"], side, date)
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
        later = bank_transaction_store.dated_from(table, company_id, account["id"], rules.reversal_date(date))
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
        raise ValidationFailed.for_field("currencies", Phrase("no exchange rate of {} is recorded on or before {}: "
                                                              "record one with POST /exchange-rates",
                                                              ', '.join(missing), date))
    return rates  # type: ignore[return-value]


# --- the command ---------------------------------------------------------------------------------

def revalue(command: Command, fields: dict[str, Any]) -> dict[str, Any] | Existing[dict[str, Any]]:
    """The plan first (the record, status `posting`, every line at the date's rate and its
    chunk), then its chunks (revaluation_chunks.py). A revaluation left `posting` (a chunk that
    failed) is finished by the same request again, on its stored plan."""
    table, company_id, date = command.table, command.company_id, fields["date"]
    today = accounts.today_of(table, company_id)
    if date > today:   # no closing rate is known yet: the latest one would stand in for it
        raise ValidationFailed.for_field("date", Phrase("must not be after today ({}): a month end is revalued once it "
                                                        "has come", today))
    company = exchange_rates.company_of(table, company_id)
    own = exchange_rates.company_currency(company)
    asked = fields.get("currencies")
    if asked and own in asked:
        raise ValidationFailed.for_field("currencies", Phrase("{} is the company's own currency: nothing in it is "
                                                              "revalued", own))
    reversal_day = rules.reversal_date(date)
    writes = JournalWrites(company_id)
    writes.require_open(date)
    writes.require_open(reversal_day)
    writes.refuse_closed_now(table)   # first: a closed day is closed whatever was revalued on it
    existing = table.get(keys.revaluation(company_id, date))
    if existing is not None and existing.get("status", chunks.POSTED_STATUS) != chunks.POSTING:
        raise exists_error(existing)   # posted, or being voided (a voided one has left the date's key)
    rule_list = [rule_of(item) for item in rule_items(table, company_id)]
    if existing is not None:
        if fields.get("dryRun"):
            return Existing(revaluation_view(existing))   # the plan being posted, nothing written: 200
        return _finish(command, rule_list, existing)
    items = [item for item in partner_items(table, company_id, date, own) + bank_items(table, company_id, date, own)
             if not asked or item["currency"] in asked]
    currencies = sorted(set(asked or ()) | {item["currency"] for item in items})
    rates = closing_rates(table, company_id, date, currencies)
    account_of = chunks.account_resolver(rule_list)
    lines = [{**rules.revalued(item, rates[item["currency"]], own), "accountId": account_of(item)} for item in items]
    answer = {"date": date, "reversalDate": reversal_day, "currencies": currencies,
              "rates": [{"currency": currency, "rate": rate} for currency, rate in rates.items()],
              **rules.totals(lines), "lines": lines}
    if fields.get("dryRun"):
        return Existing({**revaluation_view(answer), "id": None, "status": None, "createdAt": None})   # nothing written: 200
    parts = chunks.plan_chunks(lines, date, reversal_day)
    record = {**keys.revaluation(company_id, date), "itemType": "REVALUATION",
              "id": table.next_id(keys.id_sequence(company_id, keys.REVALUATION)), **answer,
              "status": chunks.POSTING if parts else chunks.POSTED_STATUS, "chunkCount": parts, "chunksPosted": 0,
              "journalEntryIds": [], "reversalJournalEntryIds": [], "createdAt": clock.now_iso()}
    transaction = command.transaction()
    writes.apply(transaction)   # the date and the next day open
    transaction.put_new(_stored(record), on_fail=RevaluationExists("A revaluation of this date was just recorded."))
    if not parts:   # nothing differs: the record alone
        return command.commit(transaction, revaluation_view(record))
    Command(command.principal, table).commit(transaction, None)
    return _finish(command, rule_list, record)


def _finish(command: Command, rule_list: list[Any], record: dict[str, Any]) -> dict[str, Any]:
    """The chunks not yet posted, one transaction each, in order."""
    for number in range(int(record["chunksPosted"]), int(record["chunkCount"])):
        record = chunks.write_chunk(command, rule_list, record, number, revaluation_view)
    return revaluation_view(record)


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

def revaluation_view(item: dict[str, Any]) -> dict[str, Any]:
    """A record before issue 44's chunks was posted whole, in one pair of entries."""
    shown: dict[str, Any] = {name: item.get(name) for name in VIEW_FIELDS}
    shown["status"] = item.get("status", chunks.POSTED_STATUS) if "id" in item and item["id"] is not None else None
    for many, first in (("journalEntryIds", "journalEntryId"), ("reversalJournalEntryIds", "reversalJournalEntryId"),
                        ("voidJournalEntryIds", None)):
        if shown[many] is None:
            shown[many] = [item[first]] if first and item.get(first) is not None else []
        shown[many] = [int(entry_id) for entry_id in shown[many]]
    return {**shown, "lines": [_line_view(line) for line in item.get("lines", [])]}


def list_revaluations(table: Table, company_id: int) -> list[dict[str, Any]]:
    """Newest date first (one Query of a small partition)."""
    items = revaluation_store.every_record(table, company_id)
    return [revaluation_view(item) for item in sorted(items, key=lambda item: item["date"], reverse=True)]


def get_revaluation(table: Table, company_id: int, revaluation_id: int) -> dict[str, Any]:
    """With `stale` for a posted one: whether the books at its date still carry what it posted."""
    from chalicelib.services.accounting.revaluation_void import stored_record

    item = stored_record(table, company_id, revaluation_id)
    stale = is_stale(table, company_id, item) if item.get("status", chunks.POSTED_STATUS) == chunks.POSTED_STATUS \
        else None
    return {**revaluation_view(item), "stale": stale}


def is_stale(table: Table, company_id: int, record: dict[str, Any]) -> bool:
    """Revalued again at its own rates, the items open at its date differ by nothing while the books
    are as it left them (each line's booked amount then is its revalued one); a posting dated on
    or before the date and made after it (a payment, an invoice, a bank line) leaves a difference
    in a currency it revalued.
    It reads what a dry run reads, for one revaluation (GET by id only, not the list)."""
    own = exchange_rates.company_currency(exchange_rates.company_of(table, company_id))
    rates = {rate["currency"]: Decimal(rate["rate"]) for rate in record.get("rates", [])}
    for item in partner_items(table, company_id, record["date"], own) + bank_items(table, company_id,
                                                                                  record["date"], own):
        if item["currency"] not in rates:
            continue   # a currency it did not revalue (not asked, or nothing of it open then): not its concern
        if rules.revalued(item, rates[item["currency"]], own)["difference"]:
            return True
    return False


def void_revaluation(command: Command, revaluation_id: int) -> dict[str, Any]:
    from chalicelib.services.accounting import revaluation_void

    return {**revaluation_void.void(command, revaluation_id, revaluation_view), "stale": None}
