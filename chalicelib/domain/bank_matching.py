"""What a bank statement line could be, scored 0..100, no I/O.

A line (signed amount: + is money in) is compared with candidates: a bank transaction already
recorded (kind `transaction`, or `payment` when it is a pending payment's), an open document or a
set of one partner's open documents (kind `document`), and the first bank rule that matches
(kind `rule`). The score is the sum of the reasons that hold:

- amount, 50: the candidate's signed amount equals the line's to the cent (a document's pending
  counts + for a sale, money comes in, and - for a purchase). Required: a candidate whose amount
  differs is no candidate, and neither is one of the other direction.
- date: a transaction dated the line's day 20, within 3 days 15, within 7 days 10, within 30
  days 0; beyond 30 days it is no candidate. A document due within 7 days of the line 10, within
  30 days 5, else 0; a line dated before the document's own date cannot pay it (no candidate). A
  set of documents takes its documents' lowest.
- partner, 15: the partner's name is in the line's text (description and reference), compared by
  rapidfuzz's partial ratio >= 90 after folding case and accents and dropping a trailing legal
  form (S.A., S. de R.L., S.A. de C.V., Ltda., Inc.); or the partner's tax id (RTN, NIT: its
  digits, at least 6, without dashes or spaces) is in one of the text's numbers.
- reference, 15: a document's number is one of the text's numbers (digits compared without
  dashes), or its last segment without leading zeros (at least 3 digits) is, when no other open
  document ends so; a transaction's reference (letters and digits, at least 3) is in the text.
- rule: a matching rule's suggestion scores 60 ("rule" its only reason): below a recorded
  transaction of the same amount and day (70), which a rule's new transaction would double.
- payout (issue 43): a deposit that a card gateway's clearing account could have paid out (at
  most its balance), matched as a transfer from it: the text names the provider (PIXELPAY,
  WOMPI: case and accents folded) "partner" 50, the amount is the clearing balance exactly
  "amount" 50, both 80; neither, no candidate.

Sets of documents: one partner's, its 30 oldest by due date, at most 6 in a set, the first exact
set found taking the oldest first; a search takes at most 5,000 steps and a page's searches
200,000 together (SearchBudget), so a page's time is bounded whatever the partners hold.

Ranked best first: score, then transaction, payment, document, rule, then the candidate's order
(oldest first). At most 5 per line."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date as Date
from decimal import Decimal
from typing import Iterable, Sequence

from rapidfuzz import fuzz

from chalicelib.domain.search import normalized

TRANSACTION, PAYMENT, DOCUMENT, RULE, PAYOUT = "transaction", "payment", "document", "rule", "payout"
KIND_ORDER = {TRANSACTION: 0, PAYMENT: 1, DOCUMENT: 2, RULE: 3, PAYOUT: 4}
PAYOUT_SCORE, PAYOUT_BOTH_SCORE = 50, 80
AMOUNT, DATE, PARTNER, REFERENCE = "amount", "date", "partner", "reference"

AMOUNT_POINTS, PARTNER_POINTS, REFERENCE_POINTS, RULE_SCORE = 50, 15, 15, 60
TRANSACTION_DAYS = ((0, 20), (3, 15), (7, 10), (30, 0))   # (at most so many days apart, points)
DOCUMENT_DAYS = ((7, 10), (30, 5))
NAME_SIMILARITY = 90
MIN_NAME, MIN_TAX_ID, MIN_TAIL, MIN_TRANSACTION_REFERENCE = 4, 6, 3, 3
MAX_SUGGESTIONS = 5
MAX_SET, MAX_SET_DOCUMENTS, SET_SEARCH_BUDGET, PAGE_SEARCH_BUDGET = 6, 30, 5_000, 200_000

_LEGAL_FORM = re.compile(r"(\s+(s\s?a(\s?de\s?c\s?v)?|s\s?de\s?r\s?l(\s?de\s?c\s?v)?|ltda|inc|llc|corp))+$")
# a number in a text: digits with dashes or spaces inside, never a decimal amount's part
_NUMBER = re.compile(r"(?<![\d.,])\d(?:[\d\- ]*\d)?(?![.,]\d)")


@dataclass(frozen=True)
class Line:
    amount: Decimal          # signed: + is money in
    date: str
    description: str = ""
    reference: str | None = None

    @property
    def text(self) -> str:
        return f"{self.description} {self.reference or ''}"


@dataclass(frozen=True)
class Partner:
    name: str
    tax_id: str | None = None


@dataclass(frozen=True)
class Candidate:
    """A transaction (kind transaction or payment: `date` its date) or an open document (`date`
    its due date, `issued` its own date). `amount` signed as the line's."""
    kind: str
    amount: Decimal
    date: str
    issued: str | None = None
    numbers: tuple[str, ...] = ()        # a document's number
    reference: str | None = None         # a transaction's reference
    partner: Partner | None = None
    partner_id: int | None = None
    key: tuple[int, ...] = ()            # what identifies it to the caller (ids); ranks ties
    parts: tuple["Candidate", ...] = ()  # a set's documents


@dataclass(frozen=True)
class Scored:
    candidate: Candidate
    score: int
    reasons: tuple[str, ...] = field(default=())


def fold(text: str | None) -> str:
    """Lower case, no accents, letters and digits separated by single spaces."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", normalized(text or "")).split())


def numbers_in(text: str) -> list[str]:
    """The text's numbers, digits only (dashes and spaces inside a number dropped)."""
    return [re.sub(r"\D", "", found) for found in _NUMBER.findall(text or "")]


def digits(text: str | None) -> str:
    return re.sub(r"\D", "", text or "")


def days_between(first: str, second: str) -> int:
    return abs((Date.fromisoformat(first[:10]) - Date.fromisoformat(second[:10])).days)


def tail(number: str) -> str:
    """A document number's last segment without leading zeros: 000-001-01-00000123 -> 123."""
    return re.split(r"\D", number.strip())[-1].lstrip("0")


def unique_tails(documents: Iterable[Iterable[str]]) -> frozenset[str]:
    """The last digits that name one document only among `documents` (each its numbers: the
    open documents read)."""
    seen: dict[str, int] = {}
    for numbers in documents:
        for end in {tail(number) for number in numbers}:
            seen[end] = seen.get(end, 0) + 1
    return frozenset(end for end, count in seen.items() if count == 1 and len(end) >= MIN_TAIL)


def partner_named(text: str, partner: Partner | None) -> bool:
    if partner is None:
        return False
    tax_id = digits(partner.tax_id)
    if len(tax_id) >= MIN_TAX_ID and any(tax_id in number for number in numbers_in(text)):
        return True
    name = _LEGAL_FORM.sub("", fold(partner.name))
    return len(name) >= MIN_NAME and fuzz.partial_ratio(name, fold(text)) >= NAME_SIMILARITY


def reference_named(text: str, candidate: Candidate, tails: frozenset[str]) -> bool:
    found = numbers_in(text)
    for number in candidate.numbers:
        if digits(number) in found or (tail(number) in tails and tail(number) in {each.lstrip("0") for each in found}):
            return True
    reference = fold(candidate.reference).replace(" ", "")
    return len(reference) >= MIN_TRANSACTION_REFERENCE and reference in fold(text).replace(" ", "")


def date_points(line: Line, candidate: Candidate) -> int | None:
    """None: the dates rule the candidate out. A set of documents: its documents' lowest."""
    if candidate.parts:
        points = [date_points(line, part) for part in candidate.parts]
        return None if any(each is None for each in points) else min(each for each in points if each is not None)
    apart = days_between(line.date, candidate.date)
    if candidate.kind == DOCUMENT:
        if candidate.issued and line.date < candidate.issued:
            return None
        return next((points for days, points in DOCUMENT_DAYS if apart <= days), 0)
    return next((points for days, points in TRANSACTION_DAYS if apart <= days), None)


def score(line: Line, candidate: Candidate, tails: frozenset[str] = frozenset()) -> Scored | None:
    """The candidate's score for the line, None when it is none (amount, direction or date)."""
    if candidate.amount != line.amount:
        return None
    dated = date_points(line, candidate)
    if dated is None:
        return None
    total, reasons = AMOUNT_POINTS + dated, [AMOUNT] + ([DATE] if dated else [])
    if partner_named(line.text, candidate.partner):
        total, reasons = total + PARTNER_POINTS, reasons + [PARTNER]
    if reference_named(line.text, candidate, tails):
        total, reasons = total + REFERENCE_POINTS, reasons + [REFERENCE]
    return Scored(candidate, min(total, 100), tuple(reasons))


def document_set(documents: Sequence[Candidate]) -> Candidate:
    """Open documents of one partner as one candidate: their amounts added."""
    return Candidate(kind=DOCUMENT, amount=sum((each.amount for each in documents), Decimal(0)),
                     date=documents[0].date, numbers=tuple(number for each in documents for number in each.numbers),
                     partner=documents[0].partner, partner_id=documents[0].partner_id, key=tuple(key for each in documents for key in each.key),
                     parts=tuple(documents))


class SearchBudget:
    """Steps a page's set searches may still take together (each search takes at most
    SET_SEARCH_BUDGET of them): a page costs bounded time whatever its partners hold."""

    def __init__(self, steps: int = PAGE_SEARCH_BUDGET) -> None:
        self.left = steps


def adding_up(target: Decimal, amounts: Sequence[Decimal], max_size: int = MAX_SET,
              budget: SearchBudget | None = None) -> tuple[int, ...] | None:
    """The positions of at least 2 and at most `max_size` of `amounts` (all of one sign as
    `target`, oldest first) that add up to `target` exactly: the first found taking the oldest
    first, None when there is none or the search spent its steps (SET_SEARCH_BUDGET, and what
    is left of the page's `budget`)."""
    if target == 0:
        return None
    budget = budget or SearchBudget()
    sign = 1 if target > 0 else -1
    cents = [int(amount * 100 * sign) for amount in amounts]
    goal = int(target * 100 * sign)
    after = [0] * (len(cents) + 1)   # what the amounts from a position on add up to
    for position in range(len(cents) - 1, -1, -1):
        after[position] = after[position + 1] + max(cents[position], 0)
    limit = min(SET_SEARCH_BUDGET, budget.left)
    steps = 0

    def search(start: int, left: int, chosen: tuple[int, ...]) -> tuple[int, ...] | None:
        nonlocal steps
        if left == 0:
            return chosen if len(chosen) >= 2 else None
        if len(chosen) == max_size or after[start] < left:
            return None
        for position in range(start, len(cents)):
            steps += 1
            if steps > limit:
                return None
            if 0 < cents[position] <= left:
                found = search(position + 1, left - cents[position], chosen + (position,))
                if found:
                    return found
        return None

    found = search(0, goal, ())
    budget.left -= min(steps, limit)
    return found


def ranked(suggestions: Iterable[Scored]) -> list[Scored]:
    return sorted(suggestions, key=lambda each: (-each.score, KIND_ORDER[each.candidate.kind],
                                                 each.candidate.key))[:MAX_SUGGESTIONS]


def payout_score(line: Line, provider_names: Iterable[str], balance: Decimal, key: tuple[int, ...]) -> Scored | None:
    """A gateway's payout for a deposit `line`: its clearing account holds `balance`, its
    provider goes by `provider_names`; `key` identifies the clearing account to the caller."""
    if line.amount <= 0 or line.amount > balance:
        return None
    text = normalized(line.text)
    named = any(normalized(name) in text for name in provider_names if name)
    exact = line.amount == balance
    if not (named or exact):
        return None
    reasons = ((AMOUNT,) if exact else ()) + ((PARTNER,) if named else ())
    candidate = Candidate(kind=PAYOUT, amount=line.amount, date=line.date, key=key)
    return Scored(candidate, PAYOUT_BOTH_SCORE if named and exact else PAYOUT_SCORE, reasons)
