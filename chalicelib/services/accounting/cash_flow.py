"""The statement of cash flows (indirect method, NIIF para PYMES Sección 7): the monthly balances
up to the latest date asked, the chart, the year locks (closed years' closing entries are left
out, as the income statement leaves them), the determination rules, the bank accounts (their
ledgers are cash) and the month-end revaluations (their effect on foreign cash, shown apart) — a
fixed number of reads whatever the books hold."""
from __future__ import annotations

from typing import Any

from chalicelib.domain import cash_flow
from chalicelib.domain.report_table import ReportTable
from chalicelib.services import records
from chalicelib.services.accounting import chart, default_chart, fiscal_years, revaluation
from chalicelib.services.accounting.posting import rule_items
from chalicelib.services.accounting.reports import month_balances_through
from chalicelib.services.accounting.statements import (
    _day,
    _figure,
    _spans,
    _table,
    _values,
    _without_closing,
    report_periods,
)
from chalicelib.services.identity import accounts
from chalicelib.store import keys
from chalicelib.store.table import Table

CASH_OPERATIONS = ("cash", "bank")
SECTIONS = (("operatingActivities", cash_flow.OPERATING), ("investingActivities", cash_flow.INVESTING),
            ("financingActivities", cash_flow.FINANCING))


def bank_ledgers(table: Table, company_id: int) -> dict[int, int]:
    """Each bank account's ledger account: bank account id -> chart of account id."""
    return {int(item["id"]): int(item["chartOfAccountId"])
            for item in records.small_records(table, company_id, keys.BANK_ACCOUNT)}


def cash_account_ids(table: Table, company_id: int, ledgers: dict[int, int] | None = None) -> set[int]:
    """The bank accounts' ledger accounts and the cash and bank rules' accounts."""
    banks = set((bank_ledgers(table, company_id) if ledgers is None else ledgers).values())
    return banks | {int(rule["chartOfAccountId"]) for rule in rule_items(table, company_id)
                    if rule["operationType"] in CASH_OPERATIONS}


def cash_flow_statement(table: Table, company_id: int, start_date: str | None, end_date: str | None,
                        compare_start: str | None, compare_end: str | None) -> dict[str, Any]:
    periods = report_periods(table, company_id, start_date, end_date, compare_start, compare_end)
    months = month_balances_through(table, company_id, max(end for _, _, end in periods))
    years = fiscal_years.list_fiscal_years(table, company_id)
    columns = []
    for _, start, end in periods:
        spans = list(_spans(months, start, end))
        moved = _without_closing(table, company_id, years, start, end,
                                 {account: through - before for account, through, before in spans})
        columns.append((moved, {account: before for account, _, before in spans},
                        {account: through for account, through, _ in spans}))
    every_account = chart.all_accounts(table, company_id)
    standard = default_chart.standard_cash_flow_places(accounts.company_country(table, company_id))
    ledgers = bank_ledgers(table, company_id)
    place = cash_flow.placements(every_account, cash_account_ids(table, company_id, ledgers), standard)
    revaluations = revaluation.list_revaluations(table, company_id)
    effects = [cash_flow.exchange_rate_effect(revaluations, ledgers, place, start, end) for _, start, end in periods]
    report = cash_flow.statement(every_account, place, columns, effects)
    (_, start_date, end_date), compare = periods[0], periods[1:]
    answer: dict[str, Any] = {"startDate": start_date, "endDate": end_date,
                              "compareStartDate": compare[0][1] if compare else None,
                              "compareEndDate": compare[0][2] if compare else None,
                              **_figure("netResult", report["netResult"])}
    for name, section in SECTIONS:
        answer[name] = {**_figure("total", report[section]["totals"]),
                        "lines": [{key: value for key, value in line.items() if key != "amounts"}
                                  | _figure("amount", line["amounts"]) for line in report[section]["lines"]]}
    for name in ("netCashFlow", "exchangeRateEffect", "openingCash", "closingCash"):
        answer.update(_figure(name, report[name]))
    answer["balanced"] = all(report["balanced"])
    return answer


# --- as a table, for the CSV, XLSX and PDF exports ------------------------------------------------

HEADINGS = {"operatingActivities": ("ACTIVIDADES DE OPERACIÓN", "Flujo neto de actividades de operación"),
            "investingActivities": ("ACTIVIDADES DE INVERSIÓN", "Flujo neto de actividades de inversión"),
            "financingActivities": ("ACTIVIDADES DE FINANCIAMIENTO", "Flujo neto de actividades de financiamiento")}
GROUPS = {cash_flow.ADJUSTMENT: "Ajustes por partidas que no representan movimientos de efectivo",
          cash_flow.WORKING_CAPITAL: "Cambios en el capital de trabajo"}


def cash_flow_table(report: dict[str, Any]) -> ReportTable:
    compare = report["compareStartDate"] is not None
    period = f"Del {_day(report['startDate'])} al {_day(report['endDate'])}"
    subtitle = period + (f", comparado con el {_day(report['compareStartDate'])} al "
                         f"{_day(report['compareEndDate'])}" if compare else "") + " (método indirecto)"
    columns = [f"{report['startDate']} a {report['endDate']}"] + (
        [f"{report['compareStartDate']} a {report['compareEndDate']}"] if compare else [])
    table = _table("Estado de flujos de efectivo", subtitle, columns,
                   f"estado-de-flujos-de-efectivo-{report['startDate']}-{report['endDate']}", heading="Periodo")
    empty = [None, None] if compare else [None]
    for name, (title, total) in HEADINGS.items():
        section = report[name]
        table.add("", title, *empty, emphasis=True)
        group = None
        for line in section["lines"]:
            if line["key"] in GROUPS and line["key"] != group:
                group = line["key"]
                table.add("", GROUPS[group], *empty, level=1, emphasis=True)
            level = 2 if line["key"] in GROUPS else 1
            table.add(line["code"] or "", line["label"], *_values(line, "amount", compare), level=level)
        table.add("", total, *_values(section, "total", compare), emphasis=True)
    effect = [("Efecto de las variaciones en las tasas de cambio sobre el efectivo", "exchangeRateEffect")] if (
        report["exchangeRateEffect"] or report["compareExchangeRateEffect"]) else []
    for label, name in (("Aumento (disminución) neto del efectivo", "netCashFlow"), *effect,
                        ("Efectivo al inicio del periodo", "openingCash"),
                        ("Efectivo al final del periodo", "closingCash")):
        table.add("", label, *_values(report, name, compare), emphasis=True)
    return table
