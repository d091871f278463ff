"""What an unmatched line could be: ranked candidates (domain/bank_matching.py scores them).

A page of lines reads its candidates once, whatever its size:
- the account's bank transactions dated within 30 days of the page's lines: one Query of the
  account's transactions partition by its date-sorted key (more only past 1 MB); those matched to
  a line (`statementLineId`), reconciled already, reversed or reversals (`reversedBy`,
  `reverses`) are left out;
- the payments of those transactions whose amount some line has (one BatchGetItem): a pending
  payment's transaction is kind `payment`, a cancelled one's (and its reversal) no candidate;
- the company's open documents of the sides the lines need (money in: sales, out: purchases),
  one Query of GSI1 per side (keys.open_document_index): each index item carries what a
  candidate needs (pending, type, dates, currency, partner, number, control number:
  document_partners.open_document_item); an item written before it carried them has its
  document read (one BatchGetItem per 100);
- the partners of those documents and payments (one BatchGetItem per 100), for the names;
- the company's active rules (bank_rules.active_rules);
- when some line is a deposit, the company's card gateways and their clearing accounts (one
  Query, at most two BatchGetItems: gateway_payouts.clearing_accounts), for payouts (issue 43);
- after scoring, the documents of the suggestions kept (one BatchGetItem per 100), to confirm
  each still owes what its index item says: one that does not is dropped (a stale index item may
  hide a candidate, never propose a wrong one).
So a page costs, DynamoDB calls: 1 Query of transactions + at most 1 BatchGetItem of payments +
1 Query per side + ceil(partners / 100) + ceil(documents suggested / 100) BatchGetItems + the
rules' reads; never a scan of the company's documents nor a read of every open one."""
from __future__ import annotations

from collections import defaultdict
from datetime import date as Date
from datetime import timedelta
from decimal import Decimal
from typing import Any, Iterable, Mapping

from chalicelib.domain import bank_matching as matching
from chalicelib.domain import bank_rules as rule_matching
from chalicelib.domain import documents as document_rules
from chalicelib.domain.bank_matching import Candidate, Line, Partner, Scored
from chalicelib.services import document_names
from chalicelib.services.banking import bank_transactions
from chalicelib.services.banking.bank_transactions import is_reversal_pair
from chalicelib.services.integrations import gateway_payouts
from chalicelib.services.payments.payment_records import CANCELLED, PENDING
from chalicelib.services.statements import bank_rules
from chalicelib.store import keys
from chalicelib.store.repositories import bank_transactions as bank_transaction_store
from chalicelib.store.repositories import payments as payment_store
from chalicelib.store.table import Table

# what a document's candidate reads of it (document_names.names: its number, a DTE's control
# number): its lines and the rest of its DTE stay in the table
DOCUMENT_FIELDS = ("id", "type", "date", "dueDate", "pending", "currency", "businessPartnerId", "number",
                   "dte.numeroControl")
WINDOW_DAYS = 30


def suggest(table: Table, company_id: int, account: dict[str, Any],
            lines: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """line id -> its suggestions, best first: [{kind: transaction|document|payment|rule|payout,
    score, reasons, transactionId?, documents?: [{documentId, amount}], ruleId?,
    transferToAccountId? and gatewayId? (a payout)}]. One page of lines at a
    time: candidates are read once for the page, never by a scan of the company's documents."""
    unmatched = [line for line in lines if line.get("status", "unmatched") == "unmatched"]
    if not unmatched:
        return {}
    parsed = {int(line["id"]): _line(line) for line in unmatched}
    amounts = {line.amount for line in parsed.values()}
    transactions = _open_transactions(table, company_id, int(account["id"]), [line.date for line in parsed.values()],
                                      amounts)
    payments = _payments_of(table, company_id, transactions)
    documents = _open_documents(table, company_id, account, {line.amount > 0 for line in parsed.values()})
    partners = _partners(table, company_id, {int(item["businessPartnerId"]) for item in
                                             [*documents, *payments.values()] if item.get("businessPartnerId")})
    candidates = _transaction_candidates(transactions, payments, partners)
    singles = [_document_candidate(document, partners) for document in documents]
    tails = matching.unique_tails(each.numbers for each in singles)
    rules = bank_rules.rules_for_account(bank_rules.active_rules(table, company_id), int(account["id"]))
    by_amount: dict[Decimal, list[Candidate]] = defaultdict(list)
    for candidate in [*candidates, *singles]:
        by_amount[candidate.amount].append(candidate)
    by_partner, budget = _by_partner(singles), matching.SearchBudget()
    stored = {int(line["id"]): line for line in unmatched}
    clearing = _clearing_accounts(table, company_id, account, any(line.amount > 0 for line in parsed.values()))
    best: dict[int, list[Scored]] = {}
    for line_id, line in parsed.items():
        scored = [each for each in (matching.score(line, candidate, tails) for candidate in by_amount.get(line.amount, []))
                  if each is not None]
        scored.extend(_document_sets(line, by_partner, tails, budget))
        scored.extend(_payouts(line, clearing))
        best[line_id] = matching.ranked(scored)
    stale = _stale(table, company_id, {int(document["id"]): document for document in documents
                                       if document.get(_INDEXED)}, best.values())
    answer = {}
    for line_id in parsed:
        answer[line_id] = [_answered(each) for each in best[line_id]
                           if not any(part.key[0] in stale for part in _documents_of(each.candidate))]
        rule = rule_matching.first_match(rules, stored[line_id])
        if rule is not None:
            answer[line_id] = _with_rule(answer[line_id], rule)
    return answer


def _line(item: dict[str, Any]) -> Line:
    return Line(amount=Decimal(item["amount"]), date=item["date"], description=item.get("description") or "",
                reference=item.get("reference"))


def _day(date: str, shift: int) -> str:
    return (Date.fromisoformat(date[:10]) + timedelta(days=shift)).isoformat()


def _open_transactions(table: Table, company_id: int, account_id: int, dates: list[str],
                       amounts: set[Decimal]) -> list[dict[str, Any]]:
    """The account's transactions within the window of the lines' dates, not matched nor
    reconciled, of an amount (signed) some line has."""
    low, high = _day(min(dates), -WINDOW_DAYS), _day(max(dates), WINDOW_DAYS)
    items = bank_transaction_store.dated_between(table, company_id, account_id, low, high)
    return [item for item in items if not item.get("statementLineId") and not item.get("reconciled")
            and not is_reversal_pair(item) and bank_transactions.signed(item) in amounts]


def _payments_of(table: Table, company_id: int, transactions: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    wanted = {(int(item["documentId"]), int(item["paymentId"])) for item in transactions
              if item.get("paymentId") is not None and item.get("documentId") is not None}
    if not wanted:
        return {}
    found = table.batch_get([keys.document_payment(company_id, document_id, payment_id)
                             for document_id, payment_id in sorted(wanted)])
    return {int(payment["id"]): payment for payment in found.values()}


# marks a document read from its open-document index item (confirmed by its document only if suggested)
_INDEXED = "_indexed"


def _open_documents(table: Table, company_id: int, account: dict[str, Any], directions: set[bool]) -> list[dict[str, Any]]:
    """The company's documents that owe, of the sides the lines' directions need, in the
    account's currency: from their index items, or their documents where an item carries no
    `pending` (written before it did)."""
    sides = [keys.RECEIVABLE_SIDE if money_in else keys.PAYABLE_SIDE for money_in in sorted(directions, reverse=True)]
    indexed = [item for side in sides
               for item in payment_store.open_documents(table, company_id, side)]
    documents = [{**item, "id": int(item["documentId"]), _INDEXED: True} for item in indexed if "pending" in item]
    wanted = [keys.document(company_id, int(item["documentId"])) for item in indexed if "pending" not in item]
    if wanted:
        found = table.batch_get(wanted, fields=DOCUMENT_FIELDS)
        documents.extend(document for document in (found.get(keys.pair(key)) for key in wanted) if document is not None)
    currency = account.get("currency")
    return [document for document in documents if Decimal(document.get("pending", 0)) > 0
            and (not currency or not document.get("currency") or document["currency"] == currency)]


def _documents_of(candidate: Candidate) -> tuple[Candidate, ...]:
    if candidate.kind != matching.DOCUMENT:
        return ()
    return candidate.parts or (candidate,)


def _stale(table: Table, company_id: int, indexed: dict[int, dict[str, Any]],
           kept: Iterable[list[Scored]]) -> set[int]:
    """The documents suggested from their index items that no longer owe what the item says
    (one BatchGetItem per 100 of them)."""
    suggested = sorted({part.key[0] for scored in kept for each in scored for part in _documents_of(each.candidate)
                        if part.key[0] in indexed})
    if not suggested:
        return set()
    found = {int(document["id"]): document for document in
             table.batch_get([keys.document(company_id, each) for each in suggested], fields=DOCUMENT_FIELDS).values()}
    return {each for each in suggested if each not in found
            or Decimal(found[each].get("pending", 0)) != Decimal(indexed[each]["pending"])}


def _partners(table: Table, company_id: int, partner_ids: set[int]) -> dict[int, Partner]:
    if not partner_ids:
        return {}
    found = table.batch_get([keys.entity(company_id, keys.PARTNER, each) for each in sorted(partner_ids)])
    return {int(item["id"]): Partner(name=item.get("name") or "", tax_id=item.get("taxId")) for item in found.values()}


def _transaction_candidates(transactions: list[dict[str, Any]], payments: dict[int, dict[str, Any]],
                            partners: dict[int, Partner]) -> list[Candidate]:
    candidates = []
    for item in transactions:
        payment = payments.get(int(item["paymentId"])) if item.get("paymentId") is not None else None
        if payment is not None and payment.get("status") == CANCELLED:
            continue   # the payment and its reversal cancel out: the bank never saw either
        kind = matching.PAYMENT if payment is not None and payment.get("status") == PENDING else matching.TRANSACTION
        partner_id = (payment or {}).get("businessPartnerId")
        candidates.append(Candidate(
            kind=kind, amount=bank_transactions.signed(item), date=item["transactionDate"], reference=item.get("reference"),
            numbers=tuple(number for number in (item.get("documentNumber"), item.get("documentNumeroControl"))
                          if number),
            partner=partners.get(int(partner_id)) if partner_id is not None else None, key=(int(item["id"]),)))
    return candidates


def _document_candidate(document: dict[str, Any], partners: dict[int, Partner]) -> Candidate:
    sales = document_rules.KINDS[document["type"]].sales
    pending = Decimal(document["pending"])
    return Candidate(kind=matching.DOCUMENT, amount=pending if sales else -pending, date=document["dueDate"],
                     issued=document.get("date"), numbers=tuple(number for number in _names(document) if number),
                     partner=partners.get(int(document["businessPartnerId"])),
                     partner_id=int(document["businessPartnerId"]), key=(int(document["id"]),))


def _names(document: dict[str, Any]) -> tuple[str | None, ...]:
    if document.get(_INDEXED):   # the index item carries them (document_partners.open_document_item)
        return document.get("number"), document.get("numeroControl")
    return tuple(document_names.names(document).values())


def _by_partner(singles: list[Candidate]) -> dict[tuple[int, bool], list[Candidate]]:
    """Each partner's open documents per direction, oldest due first."""
    grouped: dict[tuple[int, bool], list[Candidate]] = defaultdict(list)
    for single in sorted(singles, key=lambda each: (each.date, each.key)):
        if single.partner_id is not None:
            grouped[(single.partner_id, single.amount > 0)].append(single)
    return grouped


def _document_sets(line: Line, by_partner: dict[tuple[int, bool], list[Candidate]], tails: frozenset[str],
                   budget: matching.SearchBudget) -> Iterable[Scored]:
    """Per partner the line names (its name or tax id, or one of its documents' numbers, in the
    text), the first set of its oldest open documents issued by the line's date (at most 30 by due
    date, at most 6 in a set) whose pendings add up to the line exactly. A partner the line does
    not name is not searched: a set of anyone's documents adding up to an amount is a coincidence
    to propose, and the search is the page's costliest part."""
    for (_, money_in), documents in by_partner.items():
        if money_in != (line.amount > 0) or not _named(line, documents):
            continue
        oldest = [each for each in documents if (each.issued or "") <= line.date][:matching.MAX_SET_DOCUMENTS]
        if len(oldest) < 2 or abs(sum((each.amount for each in oldest), Decimal(0))) < abs(line.amount):
            continue
        chosen = matching.adding_up(line.amount, [each.amount for each in oldest], budget=budget)
        if chosen:
            scored = matching.score(line, matching.document_set([oldest[position] for position in chosen]), tails)
            if scored is not None:
                yield scored


def _named(line: Line, documents: list[Candidate]) -> bool:
    return matching.partner_named(line.text, documents[0].partner) or any(
        number in line.text for each in documents for number in each.numbers)


def _answered(scored: Scored) -> dict[str, Any]:
    candidate = scored.candidate
    answer: dict[str, Any] = {"kind": candidate.kind, "score": scored.score, "reasons": list(scored.reasons)}
    if candidate.kind == matching.DOCUMENT:
        parts = candidate.parts or (candidate,)
        answer["documents"] = [{"documentId": part.key[0], "amount": abs(part.amount)} for part in parts]
    elif candidate.kind == matching.PAYOUT:   # accepted as the match {transferToAccountId}
        answer["transferToAccountId"], answer["gatewayId"] = candidate.key
    else:
        answer["transactionId"] = candidate.key[0]
    return answer


def _clearing_accounts(table: Table, company_id: int, account: dict[str, Any],
                       deposits: bool) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The card gateways' clearing accounts a deposit on `account` could be a payout of: the
    account's currency, not the account itself, holding something."""
    if not deposits:
        return []
    return [(gateway, clearing) for gateway, clearing in gateway_payouts.clearing_accounts(table, company_id)
            if int(clearing["id"]) != int(account["id"]) and clearing.get("currency") == account.get("currency")
            and Decimal(str(clearing.get("balance", 0))) > 0]


def _payouts(line: Line, clearing: list[tuple[dict[str, Any], dict[str, Any]]]) -> Iterable[Scored]:
    for gateway, account in clearing:
        scored = matching.payout_score(line, gateway_payouts.PROVIDER_NAMES.get(gateway.get("provider") or "", ()),
                                       Decimal(str(account.get("balance", 0))), (int(account["id"]), int(gateway["id"])))
        if scored is not None:
            yield scored


def _with_rule(suggestions: list[dict[str, Any]], rule: Mapping[str, Any]) -> list[dict[str, Any]]:
    proposed = {"kind": matching.RULE, "score": matching.RULE_SCORE, "reasons": [matching.RULE],
                "ruleId": int(rule["id"])}
    better = [each for each in suggestions if each["score"] >= matching.RULE_SCORE]
    worse = [each for each in suggestions if each["score"] < matching.RULE_SCORE]
    return [*better, proposed, *worse][:matching.MAX_SUGGESTIONS]
