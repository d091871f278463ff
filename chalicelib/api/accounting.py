"""Accounting: chart of accounts, journal entries, ledger, trial balance, periods and account
determination account_determination.

The services are imported inside the handlers: a cold Lambda serving any other route does not
pay for the accounting modules (see infra/bench/imports.py for the import-time budget)."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import ACCOUNTING, Access, Call, endpoint, page_body

blueprint = Blueprint(__name__)
M = "chalicelib.models.accounting:"
CHART, JOURNAL, PERIODS, RULES = "Chart of accounts", "Journal entries", "Accounting periods", "Determination rules"
SETTLEMENTS = "Tax settlements"


# --- chart of accounts ---------------------------------------------------------------------------

@endpoint(blueprint, "GET", "/chart-of-accounts", summary="List accounts in code order", tag=CHART,
          query=M + "AccountListQuery", response=M + "AccountList")
def list_accounts(call: Call) -> Any:
    from chalicelib.services.accounting import chart

    items, total = chart.list_accounts(call.command.table, call.principal.company_id,
                                       account_type=call.query.type, is_active=call.query.is_active,
                                       page=call.query.page, limit=call.query.limit)
    return dict(accounts=[chart.account_view(item) for item in items], total=total, page=call.query.page,
                limit=call.query.limit)


@endpoint(blueprint, "GET", "/chart-of-accounts/{id}", summary="One account", tag=CHART, response=M + "Account")
def get_account(call: Call) -> Any:
    from chalicelib.services.accounting import chart

    return chart.account_view(chart.get_account(call.command.table, call.principal.company_id, call.ids["id"]))


@endpoint(blueprint, "POST", "/chart-of-accounts", summary="Create an account", tag=CHART,
          body=M + "AccountCreate", response=M + "Account", permission=ACCOUNTING)
def create_account(call: Call) -> Any:
    from chalicelib.services.accounting import chart

    return chart.create_account(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/chart-of-accounts/{id}", summary="Update an account (sparse)", tag=CHART,
          body=M + "AccountUpdate", response=M + "Account", permission=ACCOUNTING, versioned=True)
def update_account(call: Call) -> Any:
    from chalicelib.services.accounting import chart

    return chart.update_account(call.command, call.ids["id"], call.changes(), call.expected_version())


@endpoint(blueprint, "DELETE", "/chart-of-accounts/{id}", summary="Delete an account with no postings, "
          "sub-accounts or references", tag=CHART, response=M + "Deleted", access=Access.WEB_SESSION,
          permission=ACCOUNTING)
def delete_account(call: Call) -> Any:
    from chalicelib.services.accounting import chart

    return chart.delete_account(call.command, call.ids["id"])


@endpoint(blueprint, "POST", "/chart-of-accounts/import-default", summary="Import the country's standard "
          "chart (Honduras or El Salvador) and its determination rules (idempotent: 201 when it created any, "
          "200 when all were there)",
          tag=CHART, response=M + "ChartImport", permission=ACCOUNTING, also_answers=(200,))
def import_default_chart(call: Call) -> Any:
    from chalicelib import messages
    from chalicelib.services.accounting import default_chart
    from chalicelib.services.commands import shown

    lang = messages.language(call.headers)
    return shown(default_chart.import_for_command(call.command), lambda result: {
        **result, "rulesSkipped": [
            {**{name: value for name, value in rule.items() if name != "reasonPhrase"},  # the reason's id, kept for this
             "reason": messages.stored_phrase(rule["reason"], lang, rule.get("reasonPhrase"))}
            for rule in result.get("rulesSkipped", [])]})


# --- journal entries -----------------------------------------------------------------------------

@endpoint(blueprint, "GET", "/journal-entries", summary="List journal entries, newest first", tag=JOURNAL,
          query=M + "EntryListQuery", response=M + "JournalEntryList")
def list_entries(call: Call) -> Any:
    from chalicelib.services.accounting import journal

    query = call.query
    page = journal.list_entries(call.command.table, call.principal.company_id, start_date=query.start_date,
                                end_date=query.end_date, status=query.status, entry_type=query.entry_type,
                                page=query.page, limit=query.limit, cursor=query.cursor)
    return page_body("journalEntries", page)


@endpoint(blueprint, "GET", "/journal-entries/ledger", summary="General ledger of one account", tag=JOURNAL,
          query=M + "LedgerQuery", response=M + "Ledger")
def ledger(call: Call) -> Any:
    from chalicelib.services.accounting import reports

    query = call.query
    return reports.ledger(call.command.table, call.principal.company_id, query.chart_of_account_id, query.start_date,
                          query.end_date, query.limit, query.cursor)


@endpoint(blueprint, "GET", "/journal-entries/trial-balance", summary="Trial balance at a date (of one cost centre, "
          "or by a dimension's values)", tag=JOURNAL,
          query=M + "TrialBalanceQuery", response=M + "TrialBalance")
def trial_balance(call: Call) -> Any:
    from chalicelib.services.accounting import reports

    query = call.query
    return reports.trial_balance(call.command.table, call.principal.company_id, query.date, query.dimension_value_id,
                                 query.group_by_dimension_id)


@endpoint(blueprint, "GET", "/journal-entries/{id}", summary="One journal entry", tag=JOURNAL,
          response=M + "JournalEntry")
def get_entry(call: Call) -> Any:
    from chalicelib.services.accounting import posting

    return posting.get_entry(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/journal-entries", summary="Create a manual entry (draft unless status posted)",
          tag=JOURNAL, body=M + "EntryCreate", response=M + "JournalEntry", permission=ACCOUNTING)
def create_entry(call: Call) -> Any:
    from chalicelib.services.accounting import journal

    return journal.create_entry(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "POST", "/journal-entries/{id}/post", summary="Post a draft entry", tag=JOURNAL,
          response=M + "JournalEntry", status=200, permission=ACCOUNTING)
def post_entry(call: Call) -> Any:
    from chalicelib.services.accounting import journal

    return journal.post_entry(call.command, call.ids["id"])


@endpoint(blueprint, "POST", "/journal-entries/{id}/reverse", summary="Reverse a posted entry: creates the "
          "reversal entry", tag=JOURNAL, body=M + "EntryReverse", response=M + "JournalEntry", permission=ACCOUNTING)
def reverse_entry(call: Call) -> Any:
    from chalicelib.services.accounting import journal

    return journal.reverse_entry(call.command, call.ids["id"], call.body.date, call.body.description)


# --- accounting periods --------------------------------------------------------------------------

@endpoint(blueprint, "GET", "/accounting-periods", summary="List accounting periods", tag=PERIODS,
          query=M + "PeriodListQuery", response=M + "PeriodList")
def list_periods(call: Call) -> Any:
    from chalicelib.services.accounting import periods

    page = periods.list_periods(call.command.table, call.principal.company_id, call.query.page,
                                call.query.limit, call.query.cursor)
    return page_body("accountingPeriods", page)


@endpoint(blueprint, "GET", "/accounting-periods/{id}", summary="One accounting period", tag=PERIODS,
          response=M + "Period")
def get_period(call: Call) -> Any:
    from chalicelib.services.accounting import periods

    return periods.get_period(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/accounting-periods", summary="Create an accounting period", tag=PERIODS,
          body=M + "PeriodCreate", response=M + "Period", permission=ACCOUNTING)
def create_period(call: Call) -> Any:
    from chalicelib.services.accounting import periods

    body = call.body
    return periods.create_period(call.command, body.name, body.start_date, body.end_date)


@endpoint(blueprint, "POST", "/accounting-periods/{id}/close", summary="Close a period: no write may be "
          "dated inside it", tag=PERIODS, response=M + "Period", status=200, permission=ACCOUNTING)
def close_period(call: Call) -> Any:
    from chalicelib.services.accounting import periods

    return periods.close_period(call.command, call.ids["id"])


@endpoint(blueprint, "POST", "/accounting-periods/{id}/reopen", summary="Reopen a closed period", tag=PERIODS,
          response=M + "Period", status=200, permission=ACCOUNTING)
def reopen_period(call: Call) -> Any:
    from chalicelib.services.accounting import periods

    return periods.reopen_period(call.command, call.ids["id"])


# --- fiscal years --------------------------------------------------------------------------------

@endpoint(blueprint, "GET", "/fiscal-years", summary="The years with a closed period or closed themselves, newest "
          "first", tag=PERIODS, response=M + "FiscalYearList")
def list_fiscal_years(call: Call) -> Any:
    from chalicelib.services.accounting import fiscal_years

    years = fiscal_years.list_fiscal_years(call.command.table, call.principal.company_id)
    return {"fiscalYears": years, "total": len(years)}


@endpoint(blueprint, "GET", "/fiscal-years/{year}", summary="One fiscal year's status", tag=PERIODS,
          response=M + "FiscalYear")
def get_fiscal_year(call: Call) -> Any:
    from chalicelib.services.accounting import fiscal_years

    return fiscal_years.fiscal_year(call.command.table, call.principal.company_id, call.ids["year"])


@endpoint(blueprint, "POST", "/fiscal-years/{year}/close", summary="Close the year: the closing entry (revenue, "
          "cost and expense accounts to retained earnings) dated December 31, and no posting dated in the year "
          "afterwards", tag=PERIODS, response=M + "FiscalYear", status=200, permission=ACCOUNTING)
def close_fiscal_year(call: Call) -> Any:
    from chalicelib.services.accounting import fiscal_years

    return fiscal_years.close_year(call.command, call.ids["year"])


@endpoint(blueprint, "POST", "/fiscal-years/{year}/reopen", summary="Reopen a closed year: its closing entry "
          "reversed", tag=PERIODS, response=M + "FiscalYear", status=200, permission=ACCOUNTING)
def reopen_fiscal_year(call: Call) -> Any:
    from chalicelib.services.accounting import fiscal_years

    return fiscal_years.reopen_year(call.command, call.ids["year"])


# --- determination rules -------------------------------------------------------------------------

@endpoint(blueprint, "GET", "/account-determination-rules", summary="List account determination rules",
          tag=RULES, query=M + "RuleListQuery", response=M + "RuleList")
def list_rules(call: Call) -> Any:
    from chalicelib.services.accounting import account_determination

    query = call.query
    found, total = account_determination.list_rules(call.command.table, call.principal.company_id,
                                                    operation=query.operation_type, document_type=query.document_type,
                                                    page=query.page, limit=query.limit)
    return dict(rules=found, total=total, page=query.page, limit=query.limit)


@endpoint(blueprint, "POST", "/account-determination-rules", summary="Create or update the rule of a "
          "(documentType, operationType): 201 created, 200 updated", tag=RULES, body=M + "RuleUpsert",
          response=M + "Rule", permission=ACCOUNTING, also_answers=(200,))
def upsert_rule(call: Call) -> Any:
    from chalicelib.services.accounting import account_determination

    body = call.body
    return account_determination.upsert_rule(call.command, body.operation_type, body.document_type,
                                             body.chart_of_account_id)


@endpoint(blueprint, "POST", "/account-determination-rules/resolve", summary="The account an operation "
          "posts to (the most specific rule wins)", tag=RULES, body=M + "ResolveRequest", response=M + "Resolution",
          status=200, idempotent=False)  # a query sent as POST: nothing to protect, nothing recorded
def resolve_rule(call: Call) -> Any:
    from chalicelib.services.accounting import account_determination

    return account_determination.resolve(call.command.table, call.principal.company_id, call.body.operation_type,
                         call.body.document_type)


# --- tax settlements -----------------------------------------------------------------------------

@endpoint(blueprint, "GET", "/tax-settlements", summary="List tax settlements, newest first", tag=SETTLEMENTS,
          query="chalicelib.models.base:PageQuery", response=M + "TaxSettlementList")
def list_tax_settlements(call: Call) -> Any:
    from chalicelib.services.accounting import tax_settlements

    return page_body("taxSettlements", tax_settlements.list_settlements(call.command.table, call.principal.company_id,
                                                                        call.query.page, call.query.limit))


@endpoint(blueprint, "GET", "/tax-settlements/{id}", summary="One tax settlement", tag=SETTLEMENTS,
          response=M + "TaxSettlement")
def get_tax_settlement(call: Call) -> Any:
    from chalicelib.services.accounting import tax_settlements

    return tax_settlements.get_settlement(call.command.table, call.principal.company_id, call.ids["id"])


@endpoint(blueprint, "POST", "/tax-settlements", summary="Settle the tax up to periodEnd: the output tax (ISV/IVA) "
          "offset by the input credit, the rest (and, when asked, the withholdings made) paid from a bank account, "
          "in one automatic entry", tag=SETTLEMENTS, body=M + "TaxSettlementCreate", response=M + "TaxSettlement",
          permission=ACCOUNTING)
def create_tax_settlement(call: Call) -> Any:
    from chalicelib.services.accounting import tax_settlements

    return tax_settlements.settle_taxes(call.command, call.body.model_dump(by_alias=True))
