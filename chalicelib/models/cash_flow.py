"""The statement of cash flows (issue 44): its query and its answer."""
from __future__ import annotations

from decimal import Decimal
from typing import List, Literal, Optional

from pydantic import Field

from chalicelib.models.base import ResponseModel
from chalicelib.models.statements import PeriodQuery


class CashFlowQuery(PeriodQuery):
    """The period and an optional comparison period only: cash flow reads no cost centre (a dimension
    filter is refused, not ignored)."""


class CashFlowLine(ResponseModel):
    key: Literal["netResult", "adjustment", "workingCapital", "investing", "financing"] = Field(
        description="netResult: the period's net result (the income statement's); adjustment: what moved no cash "
                    "(depreciation, provisions), a result account placed in investing or financing, or the unrealised "
                    "exchange difference on foreign cash (no account: the month-end revaluations' effect, shown apart "
                    "as exchangeRateEffect), taken out of operating; workingCapital: the change in a current asset or liability; investing, financing: "
                    "the change in an account of that section")
    label: str
    chart_of_account_id: Optional[int] = None
    code: Optional[str] = None
    amount: Decimal = Field(description="cash it brought in (negative: took out): the account's credits less debits "
                                        "over the period")
    compare_amount: Optional[Decimal] = None


class CashFlowSection(ResponseModel):
    total: Decimal
    compare_total: Optional[Decimal] = None
    lines: List[CashFlowLine] = Field(description="in code order after the net result and the adjustments; an "
                                                  "account whose change is zero is left out")


class CashFlow(ResponseModel):
    """NIIF para PYMES' statement of cash flows (Sección 7), indirect method."""
    start_date: str
    end_date: str
    compare_start_date: Optional[str] = None
    compare_end_date: Optional[str] = None
    net_result: Decimal
    compare_net_result: Optional[Decimal] = None
    operating_activities: CashFlowSection = Field(description="the net result, its adjustments and the changes in "
                                                              "working capital")
    investing_activities: CashFlowSection = Field(description="property, plant and equipment, intangibles, "
                                                              "long-term investments")
    financing_activities: CashFlowSection = Field(description="loans, the owners' contributions and withdrawals, "
                                                              "dividends")
    net_cash_flow: Decimal = Field(description="the three sections' totals")
    compare_net_cash_flow: Optional[Decimal] = None
    exchange_rate_effect: Decimal = Field(description="the effect of exchange-rate changes on cash (NIIF para PYMES "
                                                      "7.13): what the month-end revaluations and their reversals dated "
                                                      "in the period moved the cash accounts by, no cash flowing")
    compare_exchange_rate_effect: Optional[Decimal] = None
    opening_cash: Decimal = Field(description="the cash accounts' balance the day before the period")
    closing_cash: Decimal = Field(description="the cash accounts' balance at the period's end")
    compare_opening_cash: Optional[Decimal] = None
    compare_closing_cash: Optional[Decimal] = None
    balanced: bool = Field(description="openingCash + netCashFlow + exchangeRateEffect = closingCash in every "
                                       "column")
