"""A revaluation posted in chunks, as the year close posts its closing entries: a company with
hundreds of dollar customers needs more than DynamoDB's 100 items in one transaction. The plan
(every line at the date's rate, each given its chunk) is stored first on the revaluation record
with status `posting`; each chunk is then one transaction: its entry on the date, its reversal
the next day, its partners' ledger movements, and the record's progress under the condition that
it has not moved (`chunksPosted`), so no chunk is written twice. Each chunk balances by itself
(its own gain and loss lines) and moves each partner's ledger with its control account, so after
any chunk the trial balance is zero and every subledger equals its control account. The last
chunk makes the record `posted` and carries the Idempotency-Key answer."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Callable

from chalicelib import clock
from chalicelib.domain import accounting
from chalicelib.domain import revaluation as rules
from chalicelib.domain.accounting import AUTOMATIC, POSTED, REVERSAL, ZERO
from chalicelib.errors import DocumentTooLarge
from chalicelib.messages.books import book_text
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting.posting import JournalWrites, Source, entry_item, next_entry_id
from chalicelib.services.commands import Command
from chalicelib.services.sales_purchases import partner_ledger
from chalicelib.store import keys
from chalicelib.store.repositories import revaluations as revaluation_store
from chalicelib.store.table import Table
from chalicelib.store.transaction import MAX_ITEMS

POSTING, POSTED_STATUS, VOIDING, VOIDED = "posting", "posted", "voiding", "voided"


def subledger_of(line: dict[str, Any]) -> tuple[Any, ...]:
    """The ledger a line moves beside its control account: a partner's side, or a bank's."""
    if line["kind"] == rules.BANK:
        return ("bank", line["bankAccountId"])
    return ("partner", line["partnerId"], revalued_side(line))


def chunk_item_count(lines: list[dict[str, Any]], date: str, reversal_day: str) -> int:
    """What a chunk of `lines` (each with its `accountId`) writes, counted high: the entry and its
    reversal with their postings (a line per account and subledger, the gain and the loss), each
    account's month balance per month and its first-posting guard, the day counts, the period
    and books locks checked, per partner two ledger movements and their months' totals, the
    record's progress and the Idempotency-Key record."""
    months = len({date[:7], reversal_day[:7]})
    years = len({date[:4], reversal_day[:4]})
    groups = {(line["accountId"], subledger_of(line)) for line in lines}
    accounts = len({line["accountId"] for line in lines}) + 2
    partners = {subledger_of(line) for line in lines if line["kind"] != rules.BANK}
    entry_lines = len(groups) + 2
    return (2 + 2 * entry_lines + accounts * months + accounts + 2 + years + 1
            + len(partners) * (2 + months) + 1 + 1)


def plan_chunks(lines: list[dict[str, Any]], date: str, reversal_day: str) -> int:
    """Each line with a difference given its `chunk` (0, 1, ...): whole subledgers, in the plan's
    order, as many as fit in one transaction. Answers the number of chunks."""
    chunk, taken = 0, list[dict[str, Any]]()
    by_subledger: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for line in lines:
        if line["difference"]:
            by_subledger.setdefault(subledger_of(line), []).append(line)
    for group in by_subledger.values():
        if taken and chunk_item_count(taken + group, date, reversal_day) > MAX_ITEMS:
            chunk, taken = chunk + 1, []
        if chunk_item_count(group, date, reversal_day) > MAX_ITEMS:
            raise DocumentTooLarge(Phrase("One partner's or bank's revaluation on {} alone would change more than {} "
                                          "records in one transaction.", date, MAX_ITEMS))
        taken.extend(group)
        for line in group:
            line["chunk"] = chunk
    return chunk + 1 if taken else 0


def account_resolver(rule_list: list[Any]) -> Callable[[dict[str, Any]], int]:
    """The account a line posts to: the bank's ledger, or the receivable/payable rule's account
    for its document type."""
    def account_of(line: dict[str, Any]) -> int:
        if line["kind"] == rules.BANK:
            return int(line["ledgerAccountId"])
        return accounting.resolve_rule(rule_list, line["kind"], line.get("documentType")).account_id
    return account_of


def write_chunk(command: Command, rule_list: list[Any], record: dict[str, Any], number: int,
                answer: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """Chunk `number` of the record's plan in one transaction (module level: a test stops a
    revaluation here to see it resumed); the last one stores `answer(record)` for the
    Idempotency-Key. Answers the record as it now stands."""
    table, company_id = command.table, command.company_id
    lines = [line for line in record["lines"] if line.get("chunk") == number]
    parts = int(record["chunkCount"])
    last = number == parts - 1
    writes = JournalWrites(company_id)
    entry_id, reversal_id = _post(table, writes, company_id, record, lines, rule_list, number, parts)
    transaction = command.transaction()
    writes.apply(transaction)
    partner_movements(transaction, company_id, record, lines)
    now = clock.now_iso()
    # failed: a lost race, the command runs again from the record as it is
    revaluation_store.record_chunk_posted(transaction, company_id, record["date"], number, entry_id, reversal_id,
                                          posting=POSTING, posted=POSTED_STATUS if last else None, now=now)
    if len(transaction.operations) + 1 > MAX_ITEMS:   # the plan counts high: never reached
        raise DocumentTooLarge(Phrase("A chunk of the revaluation of {} would change {} records, more than {}.",
                                      record['date'], len(transaction.operations) + 1, MAX_ITEMS))
    changed = {**record, "chunksPosted": number + 1,
               "journalEntryIds": [*record["journalEntryIds"], entry_id],
               "reversalJournalEntryIds": [*record["reversalJournalEntryIds"], reversal_id],
               "journalEntryId": record.get("journalEntryId") or entry_id,
               "reversalJournalEntryId": record.get("reversalJournalEntryId") or reversal_id,
               **({"status": POSTED_STATUS, "postedAt": now} if last else {})}
    runner = command if last else Command(command.principal, table)
    runner.commit(transaction, answer(changed))
    return changed


def _post(table: Table, writes: JournalWrites, company_id: int, record: dict[str, Any], lines: list[dict[str, Any]],
          rule_list: list[Any], number: int, parts: int) -> tuple[int, int]:
    """The chunk's entry (a line per control account and partner or bank, its gains and its
    losses) and its reversal the next day, both automatic with the revaluation as their source."""
    date, reversal_day = record["date"], record["reversalDate"]

    def description(line: Mapping[str, Any]) -> str:
        if line["kind"] == rules.BANK:
            return book_text("revaluation_bank", name=line["bankAccountName"])
        return book_text("revaluation_partner", kind=book_text(f"revaluation_{line['kind']}"), name=line["partnerName"])

    groups = [(account, text, difference) for (account, text), difference in
              rules.grouped(lines, lambda line: (int(line["accountId"]), description(line)))]
    totals = rules.totals(lines)
    entry_lines = rules.entry_lines(
        groups, totals["totalGain"], totals["totalLoss"],
        gain_account=accounting.resolve_rule(rule_list, "fx_unrealized_gain", None).account_id,
        loss_account=accounting.resolve_rule(rule_list, "fx_unrealized_loss", None).account_id,
        gain_text=book_text("revaluation_gain", date=date), loss_text=book_text("revaluation_loss", date=date))
    source = Source("revaluation", int(record["id"]))
    rate_text = ", ".join(f"{rate['currency']} {rate['rate']}" for rate in record["rates"])
    several = {"part": number + 1, "parts": parts}
    entry = entry_item(company_id, next_entry_id(table, company_id), date=date,
                       description=book_text("revaluation_part" if parts > 1 else "revaluation", date=date,
                                             rates=rate_text, **several),
                       lines=entry_lines, status=POSTED, entry_type=AUTOMATIC, source=source)
    writes.add_entry(entry)
    reversal = entry_item(company_id, next_entry_id(table, company_id), date=reversal_day,
                          description=book_text("revaluation_reversal_part" if parts > 1 else "revaluation_reversal",
                                                date=date, **several),
                          lines=accounting.reversal_lines(entry_lines), status=POSTED, entry_type=REVERSAL,
                          source=source, reversal_of=entry["id"])
    writes.add_entry(reversal)
    return int(entry["id"]), int(reversal["id"])


def partner_movements(transaction: Any, company_id: int, record: dict[str, Any], lines: list[dict[str, Any]], *,
                      voiding: bool = False) -> None:
    """A movement per partner and side on the day (each revalued document's change named) and
    its opposite the next day: the partner's ledger moves as its control account does. The
    partner's own balance (today's) is left alone: the two cancel. A partner is in one chunk
    only, so its movements' keys (origin "R", the revaluation, 1 or 2) are written once;
    `voiding`: their opposites (versions 3 and 4), on the same days."""
    date, reversal_day, revaluation_id = record["date"], record["reversalDate"], int(record["id"])
    undo, shift = (-1, 2) if voiding else (1, 0)
    by_partner: dict[tuple[int, str], dict[str, Decimal]] = {}
    for line in lines:
        if line["kind"] == rules.BANK or not rules.ledger_change(line):
            continue
        by_partner.setdefault((int(line["partnerId"]), revalued_side(line)), {})[str(line["documentId"])] = \
            rules.ledger_change(line)
    for (partner_id, side), documents in by_partner.items():
        change = sum(documents.values(), ZERO)
        texts = ("revaluation_void", "revaluation_void") if voiding else ("revaluation_movement",
                                                                          "revaluation_reversal")
        for day, sign, text, version in ((date, undo, texts[0], 1 + shift), (reversal_day, -undo, texts[1], 2 + shift)):
            partner_ledger.record_movement(
                transaction, company_id, partner_id=partner_id, side=side, date=day, amount=change * sign,
                origin=keys.REVALUATION_ORIGIN, origin_id=revaluation_id, version=version,
                details={"revaluationId": revaluation_id, "description": book_text(text, date=date),
                         "revaluedDocuments": {document: amount * sign for document, amount in documents.items()}})


def revalued_side(line: dict[str, Any]) -> str:
    return keys.RECEIVABLE_SIDE if line["kind"] == rules.RECEIVABLE else keys.PAYABLE_SIDE
