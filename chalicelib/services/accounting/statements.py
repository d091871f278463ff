"""The balance sheet and the income statement: two Queries (the monthly balances up to the
latest date asked, and the chart) whatever the number of documents and entries."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from chalicelib.domain import accounting, statements
from chalicelib.domain.report_table import Column, ReportTable, amount
from chalicelib.domain.statements import Movements
from chalicelib.errors import ValidationFailed
from chalicelib.services.accounting import chart, default_chart, dimension_reports, fiscal_years
from chalicelib.services.accounting.reports import month_balances_through
from chalicelib.services.identity import accounts
from chalicelib.store.table import Table


def balance_sheet(table: Table, company_id: int, date: str | None, compare_date: str | None) -> dict[str, Any]:
    date = date or accounts.today_of(table, company_id)
    dates = [date] + ([compare_date] if compare_date else [])
    months = month_balances_through(table, company_id, max(dates))
    columns = [(_movements(months, day), _movements(months, accounting.previous_day(f"{day[:4]}-01-01")))
               for day in dates]
    sheet = statements.balance_sheet(chart.all_accounts(table, company_id), columns)
    equity = sheet["equity"]
    return {"date": date, "compareDate": compare_date,
            "assets": _section(sheet["assets"]), "liabilities": _section(sheet["liabilities"]),
            "equity": {**_section(equity), **_figure("currentYearResult", equity["currentYearResult"]),
                       **_figure("priorYearsResult", equity["priorYearsResult"])},
            **_figure("totalLiabilitiesAndEquity", sheet["totalLiabilitiesAndEquity"]),
            "balanced": all(sheet["balanced"])}


def income_statement(table: Table, company_id: int, start_date: str | None, end_date: str | None,
                     compare_start: str | None, compare_end: str | None, dimension_value_id: int | None = None,
                     group_by_dimension_id: int | None = None) -> dict[str, Any]:
    """The default answer reads the monthly balances alone. `dimension_value_id`: only the postings
    carrying that value (read from the postings); `group_by_dimension_id`: besides the whole, a
    column per value of that dimension and one for the postings carrying none, adding up to it
    (`…ByDimension`, in `dimensionColumns`' order)."""
    if compare_start is not None and compare_end is not None and group_by_dimension_id is not None:
        raise ValidationFailed.for_field("groupByDimensionId", "a dimension's columns and a comparison period cannot be asked together")
    periods = report_periods(table, company_id, start_date, end_date, compare_start, compare_end)
    _, start_date, end_date = periods[0]
    chosen = dimension_reports.selection(table, company_id, dimension_value_id, group_by_dimension_id)
    months = month_balances_through(table, company_id, max(end for _, _, end in periods))
    chart_accounts = chart.all_accounts(table, company_id)
    result_ids = [int(account["id"]) for account in chart_accounts
                  if account["type"] in statements.RESULT_TYPES and int(account["id"]) in months]
    years = fiscal_years.list_fiscal_years(table, company_id)
    if chosen is None or chosen.value_id is None:
        columns = [_without_closing(table, company_id, years, start, end, {
            account: through_end - before for account, through_end, before in _spans(months, start, end)})
            for _, start, end in periods]
    else:  # the closing entries carry no value: nothing to leave out
        columns = [dimension_reports.tagged_movements(table, company_id, result_ids, start, end, chosen.value_id)
                   for _, start, end in periods]
    groups_from = None
    if chosen is not None and chosen.grouped:
        groups_from = len(columns)
        groups = dimension_reports.group_columns(table, company_id, result_ids, start_date, end_date, chosen)
        if chosen.value_id is None:
            groups[-1] = _without_closing(table, company_id, years, start_date, end_date, dict(groups[-1]))
        columns += groups
    standard = default_chart.standard_sections(accounts.company_country(table, company_id))
    report = statements.income_statement(chart_accounts, columns, standard)
    answer: dict[str, Any] = {"startDate": start_date, "endDate": end_date, "compareStartDate": compare_start,
                              "compareEndDate": compare_end}
    if chosen is not None:
        answer.update(chosen.answer())
    for name, value in report.items():  # sections (trees) and figures, in the statement's order
        answer.update({name: _section(value, groups_from)} if isinstance(value, dict)
                      else _figure(name, value, groups_from))
    return answer


def report_periods(table: Table, company_id: int, start_date: str | None, end_date: str | None,
                   compare_start: str | None, compare_end: str | None) -> list[tuple[str, str, str]]:
    """A period report's columns as (field, start, end): the period (default: the year to
    date) and the comparison period when both its dates are sent."""
    end_date = end_date or accounts.today_of(table, company_id)
    start_date = start_date or f"{end_date[:4]}-01-01"
    periods = [("startDate", start_date, end_date)]
    if (compare_start is None) != (compare_end is None):
        missing = "compareEndDate" if compare_end is None else "compareStartDate"
        raise ValidationFailed.for_field(missing, "send both comparison dates (from and to) together")
    if compare_start is not None and compare_end is not None:
        periods.append(("compareStartDate", compare_start, compare_end))
    for field, start, end in periods:
        if start > end:
            raise ValidationFailed.for_field(field, "must not be after its end date")
    return periods


def _without_closing(table: Table, company_id: int, years: list[dict[str, Any]], start: str, end: str,
                     column: dict[int, Movements]) -> dict[int, Movements]:
    """A closed year still shows its revenue and expenses: its closing entries (and their
    reversals, when it was reopened) are left out of the span."""
    for account, (debit, credit) in fiscal_years.closing_movements(table, company_id, years, start, end).items():
        column[account] = column.get(account, Movements()) - Movements(debit, credit)
    return column


def _movements(months: dict[int, list[accounting.MonthBalance]], date: str) -> dict[int, Movements]:
    return {account: Movements(*accounting.totals_through(balances, date)) for account, balances in months.items()}


def _spans(months: dict[int, list[accounting.MonthBalance]], start: str,
           end: str) -> Iterator[tuple[int, Movements, Movements]]:
    before = accounting.previous_day(start)
    for account, balances in months.items():
        yield (account, Movements(*accounting.totals_through(balances, end)),
               Movements(*accounting.totals_through(balances, before)))


def _figure(name: str, values: list[Any], groups_from: int | None = None) -> dict[str, Any]:
    """A figure and its comparison column: {name: first, compareName: second or null}; from
    `groups_from` on, the columns of a dimension's values ({name}ByDimension)."""
    plain = values if groups_from is None else values[:groups_from]
    figure = {name: plain[0], f"compare{name[0].upper()}{name[1:]}": plain[1] if len(plain) > 1 else None}
    if groups_from is not None:
        figure[f"{name}ByDimension"] = values[groups_from:]
    return figure


def _section(section: dict[str, Any], groups_from: int | None = None) -> dict[str, Any]:
    return {**_figure("total", section["totals"], groups_from),
            "accounts": [_node(node, groups_from) for node in section["accounts"]]}


def _node(node: dict[str, Any], groups_from: int | None = None) -> dict[str, Any]:
    return {"chartOfAccountId": node["chartOfAccountId"], "code": node["code"], "name": node["name"],
            **_figure("balance", node["amounts"], groups_from),
            "accounts": [_node(child, groups_from) for child in node["accounts"]]}


# --- as tables, for the CSV, XLSX and PDF exports -------------------------------------------------

def balance_sheet_table(report: dict[str, Any]) -> ReportTable:
    compare = report["compareDate"]
    subtitle = f"Al {_day(report['date'])}" + (f", comparado con el {_day(compare)}" if compare else "")
    table = _table("Balance general", subtitle, [report["date"]] + ([compare] if compare else []),
                   f"balance-general-{report['date']}")
    for title, key in (("ACTIVO", "assets"), ("PASIVO", "liabilities"), ("PATRIMONIO", "equity")):
        _section_rows(table, title, report[key], compare is not None, closing=key != "equity")
    equity = report["equity"]
    _figure_row(table, "Resultado del ejercicio", equity, "currentYearResult", compare is not None, level=1)
    _figure_row(table, "Resultados de ejercicios anteriores", equity, "priorYearsResult", compare is not None, level=1)
    _figure_row(table, "Total patrimonio", equity, "total", compare is not None, emphasis=True)
    _figure_row(table, "Total pasivo y patrimonio", report, "totalLiabilitiesAndEquity", compare is not None,
                emphasis=True)
    return table


def income_statement_table(report: dict[str, Any]) -> ReportTable:
    """By a dimension: a column per value, the unassigned and the total."""
    compare = report["compareStartDate"] is not None
    grouped = report.get("dimensionColumns") is not None
    period = f"Del {_day(report['startDate'])} al {_day(report['endDate'])}"
    subtitle = period + (f", comparado con el {_day(report['compareStartDate'])} al "
                         f"{_day(report['compareEndDate'])}" if compare else "")
    if report.get("dimensionValueName"):
        subtitle += f"; solo {report['dimensionValueName']}"
    if grouped:
        subtitle += f"; por {report['groupByDimensionName']}"
    columns = [f"{report['startDate']} a {report['endDate']}"] + (
        [f"{report['compareStartDate']} a {report['compareEndDate']}"] if compare else [])
    table = _table("Estado de resultados", subtitle, columns,
                   f"estado-de-resultados-{report['startDate']}-{report['endDate']}", heading="Periodo",
                   grouped=report.get("dimensionColumns"))
    shape = "grouped" if grouped else compare
    _section_rows(table, "INGRESOS DE ACTIVIDADES ORDINARIAS", report["revenue"], shape)
    _section_rows(table, "COSTO DE VENTAS", report["costOfSales"], shape)
    _figure_row(table, "Utilidad bruta", report, "grossMargin", shape, emphasis=True)
    _section_rows(table, "GASTOS DE OPERACIÓN", report["expenses"], shape)
    _figure_row(table, "Resultado de operación", report, "operatingResult", shape, emphasis=True)
    _section_rows(table, "OTROS INGRESOS", report["otherIncome"], shape)
    _section_rows(table, "OTROS GASTOS", report["otherExpenses"], shape)
    _section_rows(table, "INGRESOS FINANCIEROS", report["financialIncome"], shape)
    _section_rows(table, "COSTOS FINANCIEROS", report["financialCosts"], shape)
    _figure_row(table, "Resultado financiero", report, "financialResult", shape, emphasis=True)
    _figure_row(table, "Resultado antes de impuestos", report, "resultBeforeTax", shape, emphasis=True)
    _section_rows(table, "IMPUESTO SOBRE LA RENTA", report["incomeTax"], shape)
    _figure_row(table, "Resultado neto", report, "netResult", shape, emphasis=True)
    return table


def _table(title: str, subtitle: str, dates: list[str], filename: str, heading: str = "Saldo al",
           grouped: list[dict[str, Any]] | None = None) -> ReportTable:
    amounts = ([Column(_column_label(column), "amount") for column in grouped] + [Column("Total", "amount")]
               if grouped is not None else [Column(f"{heading} {date}", "amount") for date in dates])
    return ReportTable(title, subtitle, (Column("Código"), Column("Cuenta", weight=4), *amounts), filename=filename)


def _column_label(column: dict[str, Any]) -> str:
    """A dimension value's column: its code and name; the postings without one: "Sin asignar"."""
    if column["valueId"] is None:
        return "Sin asignar"
    return f"{column['code']} {column['name']}" if column.get("code") else str(column["name"])


# `shape`: False (one column), True (with its comparison) or "grouped" (a column per dimension value and the total)
def _section_rows(table: ReportTable, title: str, section: dict[str, Any], shape: bool | str,
                  closing: bool = True) -> None:
    table.add("", title, *([None] * len(_values(section, "total", shape))), emphasis=True)

    def account_rows(node: dict[str, Any], level: int) -> None:
        table.add(node["code"], node["name"], *_values(node, "balance", shape), level=level)
        for child in node["accounts"]:
            account_rows(child, level + 1)

    for node in section["accounts"]:
        account_rows(node, 1)
    if closing:
        _figure_row(table, f"Total {title.lower()}", section, "total", shape, emphasis=True)


def _figure_row(table: ReportTable, label: str, source: dict[str, Any], name: str, shape: bool | str,
                emphasis: bool = False, level: int = 0) -> None:
    table.add("", label, *_values(source, name, shape), emphasis=emphasis, level=level)


def _values(source: dict[str, Any], name: str, shape: bool | str) -> list[Any]:
    if shape == "grouped":
        return [amount(value) for value in source[f"{name}ByDimension"]] + [amount(source[name])]
    values = [amount(source[name])]
    if shape:
        values.append(amount(source[f"compare{name[0].upper()}{name[1:]}"]))
    return values


def _day(iso_date: str) -> str:
    return f"{iso_date[8:10]}/{iso_date[5:7]}/{iso_date[:4]}"
