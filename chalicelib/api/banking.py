"""Bank accounts, their transactions, transfers and reconciliations. Models and services load on
first use; handlers return plain records that the route's response model renders."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import ACCOUNTING, MANAGE, Access, Call, endpoint, page_body

blueprint = Blueprint(__name__)
TAG = "Banking"
M = "chalicelib.models.banking:"
PAGE = "chalicelib.models.base:PageQuery"


@endpoint(blueprint, "GET", "/bank-accounts", summary="List bank accounts", tag=TAG, query=PAGE,
          response=M + "BankAccountList")
def list_accounts(call: Call) -> Any:
    from chalicelib.services.banking import banking

    return page_body("bankAccounts", banking.list_bank_accounts(call.command.table, call.principal.company_id,
                                                           call.query.page, call.query.limit))


@endpoint(blueprint, "GET", "/bank-accounts/{accountId}", summary="One bank account with its balance", tag=TAG,
          response=M + "BankAccount")
def get_account(call: Call) -> Any:
    from chalicelib.services.banking import banking

    return banking.get_bank_account(call.command.table, call.principal.company_id, call.ids["accountId"])


@endpoint(blueprint, "POST", "/bank-accounts", summary="Create a bank account", tag=TAG,
          body=M + "BankAccountCreate", response=M + "BankAccount", permission=MANAGE)
def create_account(call: Call) -> Any:
    from chalicelib.services.banking import banking

    return banking.create_bank_account(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/bank-accounts/{accountId}", summary="Update a bank account (sparse)", tag=TAG,
          body=M + "BankAccountUpdate", response=M + "BankAccount", permission=MANAGE, versioned=True)
def update_account(call: Call) -> Any:
    from chalicelib.services.banking import banking

    return banking.update_bank_account(call.command, call.ids["accountId"], call.changes(), call.expected_version())


@endpoint(blueprint, "DELETE", "/bank-accounts/{accountId}", summary="Delete a bank account without transactions (web app "
          "only)", tag=TAG, response="chalicelib.models.accounting:Deleted", access=Access.WEB_SESSION,
          permission=MANAGE)
def delete_account(call: Call) -> Any:
    from chalicelib.services.banking import banking

    return banking.delete_bank_account(call.command, call.ids["accountId"])


@endpoint(blueprint, "GET", "/bank-accounts/{accountId}/transactions", summary="Transactions of a bank account, "
          "newest first", tag=TAG, query=PAGE, response=M + "BankTransactionList")
def list_transactions(call: Call) -> Any:
    from chalicelib.services.banking import bank_transactions

    return page_body("transactions", bank_transactions.list_transactions(call.command.table, call.principal.company_id,
                                                               call.ids["accountId"], call.query.page,
                                                               call.query.limit))


@endpoint(blueprint, "POST", "/bank-accounts/{accountId}/transactions", summary="A manual deposit or withdrawal, "
          "with its journal entry", tag=TAG, body=M + "ManualTransaction", response=M + "BankTransaction")
def record_manual(call: Call) -> Any:
    from chalicelib.services.banking import bank_transactions

    return bank_transactions.record_manual(call.command, call.ids["accountId"], call.body.model_dump(by_alias=True))


@endpoint(blueprint, "POST", "/bank-transactions/transfer", summary="Transfer between two bank accounts: both "
          "sides and one entry", tag=TAG, body=M + "TransferCreate", response=M + "Transfer")
def transfer(call: Call) -> Any:
    from chalicelib.services.banking import bank_transactions

    return bank_transactions.transfer(call.command, call.body.model_dump(by_alias=True))


# --- reconciliations ---------------------------------------------------------------------------------
RECONCILIATIONS = "/bank-accounts/{accountId}/reconciliations"
RECONCILIATION = RECONCILIATIONS + "/{reconciliationId}"


@endpoint(blueprint, "GET", RECONCILIATIONS, summary="Reconciliations of a bank account, newest first", tag=TAG,
          query=PAGE, response=M + "ReconciliationList")
def list_reconciliations(call: Call) -> Any:
    from chalicelib.services.banking import reconciliations

    return page_body("reconciliations", reconciliations.list_reconciliations(
        call.command.table, call.principal.company_id, call.ids["accountId"], call.query.page, call.query.limit))


@endpoint(blueprint, "GET", RECONCILIATION, summary="One reconciliation with its cleared balance and difference",
          tag=TAG, response=M + "Reconciliation")
def get_reconciliation(call: Call) -> Any:
    from chalicelib.services.banking import reconciliations

    return reconciliations.get_reconciliation(call.command.table, call.principal.company_id, call.ids["accountId"],
                                              call.ids["reconciliationId"])


@endpoint(blueprint, "POST", RECONCILIATIONS, summary="Start a reconciliation (draft) against a bank statement",
          tag=TAG, body=M + "ReconciliationCreate", response=M + "Reconciliation", permission=ACCOUNTING)
def create_reconciliation(call: Call) -> Any:
    from chalicelib.services.banking import reconciliations

    return reconciliations.create_reconciliation(call.command, call.ids["accountId"],
                                                 call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PATCH", RECONCILIATION, summary="Update a draft reconciliation (sparse; "
          "clearedTransactionIds replaces the list)", tag=TAG, body=M + "ReconciliationUpdate",
          response=M + "Reconciliation", permission=ACCOUNTING, versioned=True)
def update_reconciliation(call: Call) -> Any:
    from chalicelib.services.banking import reconciliations

    return reconciliations.update_reconciliation(call.command, call.ids["accountId"], call.ids["reconciliationId"],
                                                 call.changes(), call.expected_version())


@endpoint(blueprint, "POST", RECONCILIATION + "/complete", summary="Complete a draft whose cleared balance equals "
          "the statement balance: its transactions become reconciled", tag=TAG, response=M + "Reconciliation",
          status=200, permission=ACCOUNTING, versioned=True)
def complete_reconciliation(call: Call) -> Any:
    from chalicelib.services.banking import reconciliations

    return reconciliations.complete_reconciliation(call.command, call.ids["accountId"], call.ids["reconciliationId"],
                                                   call.expected_version())


@endpoint(blueprint, "DELETE", RECONCILIATION, summary="Delete a draft reconciliation (web app only)", tag=TAG,
          response="chalicelib.models.accounting:Deleted", access=Access.WEB_SESSION, permission=ACCOUNTING, versioned=True)
def delete_reconciliation(call: Call) -> Any:
    from chalicelib.services.banking import reconciliations

    return reconciliations.delete_reconciliation(call.command, call.ids["accountId"], call.ids["reconciliationId"],
                                                 call.expected_version())
