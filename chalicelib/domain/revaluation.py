"""Month-end revaluation of foreign-currency monetary items (NIIF para PYMES 30.9), no I/O: each
open receivable, payable, advance and foreign bank balance translated at the closing rate; the
difference from what the books carry is an unrealised gain or loss, posted on the day and
reversed the next, so the documents keep their own rate and a payment's realised difference stays
what it always was."""
from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping

from chalicelib.domain.accounting import ZERO, Line
from chalicelib.domain.money import Money

RECEIVABLE, PAYABLE, CUSTOMER_ADVANCE, SUPPLIER_ADVANCE, BANK = (
    "receivable", "payable", "customerAdvance", "supplierAdvance", "bank")
# what the company holds (worth more when the rate rises); the others it owes
ASSET_KINDS = frozenset({RECEIVABLE, SUPPLIER_ADVANCE, BANK})


def reversal_date(date: str) -> str:
    """The day after `date`: the revaluation's reversal opens the next period at the booked rates."""
    return (datetime.date.fromisoformat(date) + datetime.timedelta(days=1)).isoformat()


def revalued(item: Mapping[str, Any], rate: Decimal, own_currency: str) -> dict[str, Any]:
    """`item` (kind, currency, foreignAmount, bookedAmount in `own_currency`, ...) at `rate`:
    `revaluedAmount` is the foreign amount at the rate to the cent; `difference` is the gain
    (positive) or loss (negative): an asset worth more is a gain, a debt grown larger a loss."""
    foreign = Money(Decimal(item["foreignAmount"]), item["currency"])
    booked = Money(Decimal(item["bookedAmount"]), own_currency)
    revalued_amount = foreign.at(Decimal(rate), own_currency)
    change = revalued_amount - booked
    difference = change if item["kind"] in ASSET_KINDS else -change
    return {**item, "rate": Decimal(rate), "revaluedAmount": revalued_amount.amount,
            "difference": difference.rounded().amount}


def ledger_change(line: Mapping[str, Any]) -> Decimal:
    """What the line moves its subledger by (a partner's debt or the company's, a bank's ledger in
    the company's currency): the revalued amount less the booked one, whichever side it is."""
    return Decimal(line["revaluedAmount"]) - Decimal(line["bookedAmount"])


def totals(lines: Iterable[Mapping[str, Any]]) -> dict[str, Decimal]:
    gain = sum((Decimal(line["difference"]) for line in lines if Decimal(line["difference"]) > 0), ZERO)
    loss = sum((-Decimal(line["difference"]) for line in lines if Decimal(line["difference"]) < 0), ZERO)
    return {"totalGain": gain, "totalLoss": loss, "netDifference": gain - loss}


def entry_lines(groups: Iterable[tuple[int, str, Decimal]], gain: Decimal, loss: Decimal, *,
                gain_account: int, loss_account: int, gain_text: str, loss_text: str) -> list[Line]:
    """The revaluation entry: a line per group (account, description, net difference; a gain
    debits the account, whether an asset grew or a debt shrank; groups netting to zero drop out),
    the gains credited to `gain_account` and the losses debited to `loss_account`."""
    lines = [Line(account_id, difference if difference > 0 else ZERO, -difference if difference < 0 else ZERO,
                  description) for account_id, description, difference in groups if difference != 0]
    if gain:
        lines.append(Line(gain_account, ZERO, gain, gain_text))
    if loss:
        lines.append(Line(loss_account, loss, ZERO, loss_text))
    return lines


def grouped(lines: Iterable[Mapping[str, Any]], key: Callable[[Mapping[str, Any]], Any]) -> list[tuple[Any, Decimal]]:
    """Lines' differences summed by `key(line)`, in the order each key first appears."""
    sums: dict[Any, Decimal] = {}
    for line in lines:
        sums[key(line)] = sums.get(key(line), ZERO) + Decimal(line["difference"])
    return list(sums.items())
