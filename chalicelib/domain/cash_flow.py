"""The statement of cash flows by the indirect method (NIIF para PYMES, Sección 7): the period's
net result, adjusted by what moved no cash (depreciation, provisions) and by the changes in
working capital, gives the operating flow; the changes in non-current assets, the investing flow;
in loans and equity, the financing flow.

Why it always balances: every entry's debits equal its credits, so over any period the change in
the cash accounts (debit less credit) is the sum over every other account of its credits less
debits. The net result is that sum over the income, cost and expense accounts; each other
account's credits less debits is exactly one line below. So opening cash + the net flow = closing
cash on any books whose entries balance, whatever the accounts' places. The month-end
revaluation of foreign cash (and its reversal) moves the cash accounts with no cash flowing
(NIIF para PYMES 7.13, NIC 7.28): that effect is taken out of operating (the gain or loss is in
the net result) and shown apart, so opening cash + net flow + the effect = closing cash."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Iterable, Mapping, Sequence

from chalicelib.domain.accounting import ASSET, EQUITY, LIABILITY, ZERO
from chalicelib.domain.statements import RESULT_TYPES, Movements, chart_placements, result
from chalicelib.domain.statements import standard_places as standard_places_by_type

# an account's place (`cashFlowCategory` names the first four; NON_CASH is the standard charts'
# place for accumulated depreciation and amortisation and for provisions: an operating item that
# moved no cash, shown among the adjustments to the net result)
CASH = "cash"
OPERATING = "operating"
INVESTING = "investing"
FINANCING = "financing"
NON_CASH = "non_cash"
CATEGORIES = (CASH, OPERATING, INVESTING, FINANCING)
DEFAULT_BY_TYPE = {ASSET: OPERATING, LIABILITY: OPERATING, EQUITY: FINANCING}

# the lines' keys: the net result, an adjustment (no cash moved), a change in working capital, a
# change in an investing or financing account
NET_RESULT = "netResult"
ADJUSTMENT = "adjustment"
WORKING_CAPITAL = "workingCapital"
NET_RESULT_LABEL = "Resultado neto del periodo"
EXCHANGE_RATE_LABEL = "Diferencial cambiario no realizado del efectivo"
REVALUATION_POSTED = "posted"  # a revaluation's status once all its entries are written


def placements(accounts: Iterable[Mapping[str, Any]], cash_ids: set[int],
               standard: Mapping[str, tuple[str, str, bool]]) -> dict[int, str]:
    """Each account's place in the statement: its own `cashFlowCategory`; else cash when it is a
    bank account's ledger or the cash/bank determination rules' account (`cash_ids`); else as
    `chart_placements` places it (the standard chart, its parent, by type: asset and liability
    operating, equity financing). Income, cost and expense accounts are in the net result:
    operating unless their own `cashFlowCategory` moves them to investing or financing (a gain on
    selling equipment, interest paid as financing)."""
    def own_place(account: Mapping[str, Any]) -> str | None:
        own: str | None = account.get("cashFlowCategory")
        if account["type"] in RESULT_TYPES:
            return own if own in (INVESTING, FINANCING) else OPERATING
        if own:
            return own
        return CASH if int(account["id"]) in cash_ids else None

    return chart_placements(accounts, standard, own_place, DEFAULT_BY_TYPE)


def standard_places(chart: Iterable[tuple[str, str, str, str | None]],
                    named: Mapping[str, str]) -> dict[str, tuple[str, str, bool]]:
    """A country's standard chart and the places it names (`CASH_FLOW_CATEGORIES`) for its balance
    sheet accounts: code -> (type, place, named)."""
    return standard_places_by_type(chart, named, DEFAULT_BY_TYPE)


def _cash(place: Mapping[int, str], balances: Mapping[int, Movements]) -> Decimal:
    return sum((moved.debit - moved.credit for account, moved in balances.items() if place.get(account) == CASH),
               ZERO)


def exchange_rate_effect(revaluations: Iterable[Mapping[str, Any]], bank_ledgers: Mapping[int, int],
                         place: Mapping[int, str], start: str, end: str) -> Decimal:
    """What the posted month-end revaluations moved the cash accounts by between `start` and
    `end` (both included): a bank line's difference (a gain debits the bank's ledger) on the
    revaluation's date, its opposite on the reversal's (the next day). `bank_ledgers`: bank
    account id -> its ledger account. A revaluation still `posting` is left out: its request,
    sent again, finishes it (until then the statement says it does not balance)."""
    effect = ZERO
    for revaluation in revaluations:
        if revaluation.get("status") != REVALUATION_POSTED:
            continue
        for line in revaluation.get("lines") or ():
            ledger = bank_ledgers.get(int(line["bankAccountId"])) if line.get("bankAccountId") is not None else None
            if ledger is None or place.get(ledger) != CASH:
                continue
            difference = Decimal(line["difference"])
            if start <= revaluation["date"] <= end:
                effect += difference
            if start <= revaluation["reversalDate"] <= end:
                effect -= difference
    return effect


def statement(accounts: Sequence[Mapping[str, Any]], place: Mapping[int, str],
              columns: Sequence[tuple[Mapping[int, Movements], Mapping[int, Movements], Mapping[int, Movements]]],
              exchange_effects: list[Decimal] | None = None) -> dict[str, Any]:
    """Per column (the period's movements, the balances before it, the balances at its end):
    the three sections' lines and totals, the net flow, the exchange-rate effect on cash
    (`exchange_effects`, per column: the revaluations' movements on the cash accounts, already
    inside the net result and so taken out of operating by an adjustment line), the cash at
    either end and whether opening cash + net flow + the effect = closing cash. An account
    absent from the chart (it cannot be deleted once posted to) is a working-capital line.
    Lines are in code order; an account whose figures are all zero has none."""
    by_id = {int(a["id"]): a for a in accounts}
    count = range(len(columns))
    net = [result(accounts, period) for period, _, _ in columns]
    sections: dict[str, list[dict[str, Any]]] = {OPERATING: [], INVESTING: [], FINANCING: []}
    sections[OPERATING].append({"key": NET_RESULT, "label": NET_RESULT_LABEL, "chartOfAccountId": None,
                                "code": None, "amounts": net})
    effects = list(exchange_effects) if exchange_effects is not None else [ZERO for _ in count]
    adjustments: list[dict[str, Any]] = []
    if any(effects):
        adjustments.append({"key": ADJUSTMENT, "label": EXCHANGE_RATE_LABEL, "chartOfAccountId": None, "code": None,
                            "amounts": [-effect for effect in effects]})
    moved = sorted({account for period, _, _ in columns for account in period},
                   key=lambda account: (by_id[account]["code"] if account in by_id else "", account))
    for account_id in moved:
        account = by_id.get(account_id, {"code": "", "name": "", "type": ASSET})
        where = place.get(account_id, OPERATING)
        if where == CASH:
            continue
        amounts = [columns[i][0].get(account_id, Movements()) for i in count]
        change = [m.credit - m.debit for m in amounts]  # what it brought in: a liability's rise, an asset's fall
        if not any(change):
            continue
        def line(key: str, figures: list[Decimal], account_id: int = account_id,
                 account: Mapping[str, Any] = account) -> dict[str, Any]:
            return {"key": key, "label": account["name"], "chartOfAccountId": account_id,
                    "code": account["code"] or None, "amounts": figures}

        if account["type"] in RESULT_TYPES:
            if where in (INVESTING, FINANCING):  # already in the net result: out of operating, into its section
                adjustments.append(line(ADJUSTMENT, [-c for c in change]))
                sections[where].append(line(where, change))
        elif where == NON_CASH:
            adjustments.append(line(ADJUSTMENT, change))
        elif where in (INVESTING, FINANCING):
            sections[where].append(line(where, change))
        else:
            sections[OPERATING].append(line(WORKING_CAPITAL, change))
    sections[OPERATING][1:1] = adjustments  # adjustments come right after the net result
    totals = {name: [sum((ln["amounts"][i] for ln in lines), ZERO) for i in count]
              for name, lines in sections.items()}
    flow = [totals[OPERATING][i] + totals[INVESTING][i] + totals[FINANCING][i] for i in count]
    opening = [_cash(place, before) for _, before, _ in columns]
    closing = [_cash(place, through) for _, _, through in columns]
    return {"netResult": net,
            **{name: {"lines": lines, "totals": totals[name]} for name, lines in sections.items()},
            "netCashFlow": flow, "exchangeRateEffect": effects, "openingCash": opening, "closingCash": closing,
            "balanced": [opening[i] + flow[i] + effects[i] == closing[i] for i in count]}
