"""The statement of cash flows' pure rules (domain/cash_flow.py): where each account goes, a month
worked by hand, and, over random charts and random balanced entries, opening cash + net flow =
closing cash with every account's change in exactly one line."""
from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from chalicelib.countries.hn import chart as hn_chart
from chalicelib.countries.sv import chart as sv_chart
from chalicelib.domain import cash_flow
from chalicelib.domain.statements import Movements

D = Decimal


def _account(account_id, code, account_type, parent=None, **fields):
    return {"id": account_id, "code": code, "name": f"Cuenta {code}", "type": account_type, "parentId": parent,
            **fields}


def _through(before: dict[int, Movements], period: dict[int, Movements]) -> dict[int, Movements]:
    """The balances at the period's end: before it plus its movements."""
    return {a: Movements(before.get(a, Movements()).debit + period.get(a, Movements()).debit,
                         before.get(a, Movements()).credit + period.get(a, Movements()).credit)
            for a in set(before) | set(period)}


def test_the_standard_charts_place_cash_working_capital_investing_financing_and_non_cash_items():
    for module in (hn_chart, sv_chart):
        places = cash_flow.standard_places(module.ACCOUNTS, module.CASH_FLOW_CATEGORIES)
        found = {code: place for code, (_, place, _) in places.items()}
        assert (found["110101"], found["110103"]) == ("cash", "cash")                  # under 1101
        assert (found["110201"], found["110301"]) == ("operating", "operating")        # under 11
        assert (found["120104"], found["120201"]) == ("investing", "investing")        # under 12
        assert (found["120106"], found["120202"], found["2202"]) == ("non_cash",) * 3  # no cash moved
        assert (found["2201"], found["3101"], found["3401"]) == ("financing",) * 3
        assert "6108" not in found and "410101" not in found  # the result's accounts are in the net result
    hn = {code: place for code, (_, place, _) in cash_flow.standard_places(
        hn_chart.ACCOUNTS, hn_chart.CASH_FLOW_CATEGORIES).items()}
    assert (hn["210201"], hn["2105"]) == ("operating", "financing")  # ISV owed; a short-term bank loan


def test_an_accounts_place_own_then_cash_then_standard_then_parent_then_type():
    standard = cash_flow.standard_places(hn_chart.ACCOUNTS, hn_chart.CASH_FLOW_CATEGORIES)
    accounts = [
        _account(1, "110103", "asset"),                                  # standard: cash
        _account(2, "1900", "asset"),                                    # a bank account's ledger: cash
        _account(3, "120104", "asset"),                                  # standard: investing
        _account(4, "120104.01", "asset", parent=3),                     # follows its parent
        _account(5, "1203", "asset", cashFlowCategory="operating"),      # its own place first
        _account(6, "9000", "liability"),                                # nowhere: by type
        _account(7, "9100", "equity"),
        _account(8, "6301", "expense", cashFlowCategory="financing"),    # interest paid as financing
        _account(9, "4203", "income", cashFlowCategory="cash"),          # a result account is never cash
        _account(10, "120106", "asset"),                                 # accumulated depreciation
        _account(11, "110201", "liability"),                             # types disagree: not the standard's
    ]
    place = cash_flow.placements(accounts, {2}, standard)
    assert place == {1: "cash", 2: "cash", 3: "investing", 4: "investing", 5: "operating", 6: "operating",
                     7: "financing", 8: "financing", 9: "operating", 10: "non_cash", 11: "operating"}


def test_a_month_by_hand():
    """A sale on credit of 11,500 (10,000 + 1,500 of tax), 6,000 of it collected, equipment of
    24,000 bought, a loan of 30,000, 400 of depreciation; 54,000 of cash before."""
    accounts = [_account(1, "110103", "asset"), _account(2, "110201", "asset"), _account(3, "210201", "liability"),
                _account(4, "410101", "income"), _account(5, "120104", "asset"), _account(6, "2201", "liability"),
                _account(7, "6108", "expense"), _account(8, "120106", "asset"), _account(9, "3101", "equity")]
    place = cash_flow.placements(accounts, set(), cash_flow.standard_places(hn_chart.ACCOUNTS,
                                                                             hn_chart.CASH_FLOW_CATEGORIES))
    before = {1: Movements(D(54000), D(0)), 9: Movements(D(0), D(54000))}
    period = {1: Movements(D(6000) + D(30000), D(24000)), 2: Movements(D(11500), D(6000)),
              3: Movements(D(0), D(1500)), 4: Movements(D(0), D(10000)), 5: Movements(D(24000), D(0)),
              6: Movements(D(0), D(30000)), 7: Movements(D(400), D(0)), 8: Movements(D(0), D(400))}
    report = cash_flow.statement(accounts, place, [(period, before, _through(before, period))])
    assert report["netResult"] == [D(9600)]  # 10,000 - 400
    assert [(line["key"], line["code"], line["amounts"]) for line in report["operating"]["lines"]] == [
        ("netResult", None, [D(9600)]), ("adjustment", "120106", [D(400)]),
        ("workingCapital", "110201", [D(-5500)]), ("workingCapital", "210201", [D(1500)])]
    assert report["operating"]["totals"] == [D(6000)]     # 9,600 + 400 - 5,500 + 1,500
    assert report["investing"]["totals"] == [D(-24000)]
    assert report["financing"]["totals"] == [D(30000)]
    assert report["netCashFlow"] == [D(12000)]            # 6,000 - 24,000 + 30,000
    assert (report["openingCash"], report["closingCash"]) == ([D(54000)], [D(66000)])
    assert report["balanced"] == [True]


TYPES = ("asset", "liability", "equity", "income", "cost", "expense")
CATEGORY = st.sampled_from((None, "cash", "operating", "investing", "financing"))
CHARTS = st.lists(st.tuples(st.sampled_from(TYPES), CATEGORY, st.sampled_from(("110103", "120106", "2201", "9")),
                            st.booleans()), min_size=2, max_size=8)
AMOUNTS = st.decimals(min_value=D("0.01"), max_value=D("99999.99"), places=2)


ENTRIES = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), AMOUNTS, st.booleans()), max_size=12)


@settings(max_examples=200, deadline=None, database=None)
@given(chart=CHARTS, entries=ENTRIES.filter(bool), revaluations=ENTRIES, cash_ids=st.sets(st.integers(0, 7), max_size=3))
def test_random_books_always_balance_and_every_change_is_in_one_line(chart, entries, revaluations, cash_ids):
    """Random accounts (types, own places, standard codes, parents) and random balanced entries,
    each before or in the period, some of them revaluations (their movements on the cash accounts
    in the period are the exchange-rate effect): the statement balances (opening + net flow +
    effect = closing), and each account outside cash has its change (credits less debits) in
    exactly one line, but a result account moved to investing or financing: its adjustment and
    its line cancel out."""
    accounts = []
    for index, (account_type, category, code, under_previous) in enumerate(chart):
        parent = index - 1 if under_previous and index and chart[index - 1][0] == account_type else None
        if category == "cash" and account_type != "asset":
            category = None  # refused on the way in
        accounts.append(_account(index, f"{code}.{index}" if index % 2 else code, account_type, parent,
                                 cashFlowCategory=category))
    count = len(accounts)
    before: dict[int, Movements] = {}
    period: dict[int, Movements] = {}
    for debit, credit, amount, in_period in entries + revaluations:
        debit, credit = debit % count, credit % count
        moved = period if in_period else before
        moved[debit] = Movements(moved.get(debit, Movements()).debit + amount, moved.get(debit, Movements()).credit)
        moved[credit] = Movements(moved.get(credit, Movements()).debit, moved.get(credit, Movements()).credit + amount)
    place = cash_flow.placements(accounts, cash_ids, cash_flow.standard_places(hn_chart.ACCOUNTS,
                                                                                hn_chart.CASH_FLOW_CATEGORIES))
    effect = sum((amount * ((place[debit % count] == "cash") - (place[credit % count] == "cash"))
                  for debit, credit, amount, in_period in revaluations if in_period), D(0))
    report = cash_flow.statement(accounts, place, [(period, before, _through(before, period))], [effect])
    assert report["balanced"] == [True] and report["exchangeRateEffect"] == [effect]
    assert report["openingCash"][0] + report["netCashFlow"][0] + effect == report["closingCash"][0]
    unnamed = [line["amounts"] for line in report["operating"]["lines"][1:] if line["chartOfAccountId"] is None]
    assert unnamed == ([[-effect]] if effect else [])   # taken out of operating: the result holds it
    lines = [line for name in ("operating", "investing", "financing") for line in report[name]["lines"]]
    assert report["netCashFlow"][0] == sum((line["amounts"][0] for line in lines), D(0))
    by_account: dict[int, list[Decimal]] = {}
    for line in lines:
        if line["chartOfAccountId"] is not None:
            by_account.setdefault(line["chartOfAccountId"], []).append(line["amounts"][0])
    for account in accounts:
        moved = period.get(account["id"], Movements())
        change = moved.credit - moved.debit
        found = by_account.get(account["id"], [])
        if place[account["id"]] == "cash" or change == 0:
            assert found == []
        elif account["type"] in ("income", "cost", "expense"):
            assert found == ([-change, change] if place[account["id"]] in ("investing", "financing") else [])
        else:
            assert found == [change]


def test_the_exchange_rate_effect_counts_the_revaluations_and_reversals_dated_in_the_period():
    """Bank 7's ledger is account 70 (cash); bank 8's, 80, was moved to operating by its own
    category: its revaluation is a working-capital line, no effect. A revaluation still posting
    is left out."""
    place = {70: "cash", 80: "operating"}
    ledgers = {7: 70, 8: 80}
    revaluations = [
        {"date": "2026-10-31", "reversalDate": "2026-11-01", "status": "posted",
         "lines": [{"kind": "bank", "bankAccountId": 7, "difference": "-50.00"},
                   {"kind": "receivable", "partnerId": 3, "difference": "999.00"}]},
        {"date": "2026-11-30", "reversalDate": "2026-12-01", "status": "posted",
         "lines": [{"kind": "bank", "bankAccountId": 7, "difference": "300.00"},
                   {"kind": "bank", "bankAccountId": 8, "difference": "40.00"}]},
        {"date": "2026-11-15", "reversalDate": "2026-11-16", "status": "posting",
         "lines": [{"kind": "bank", "bankAccountId": 7, "difference": "1000.00"}]},
    ]

    def effect(start, end):
        return cash_flow.exchange_rate_effect(revaluations, ledgers, place, start, end)

    # November: October's reversal on the 1st (-(-50) = +50) and the 30th's +300 = 350.00
    assert effect("2026-11-01", "2026-11-30") == D("350.00")
    # December: the 1st's reversal of the 300 = -300.00
    assert effect("2026-12-01", "2026-12-31") == D("-300.00")
    # October alone: its -50; October and November: -50 + 50 + 300 = 300.00
    assert (effect("2026-10-01", "2026-10-31"), effect("2026-10-01", "2026-11-30")) == (D("-50.00"), D("300.00"))
    assert effect("2026-11-02", "2026-11-29") == 0   # neither a revaluation's day nor a reversal's
