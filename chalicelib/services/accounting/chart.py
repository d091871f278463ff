"""Chart of accounts. An account item carries three counters that other commands keep in their
own transactions, so the rules on changing an account are conditions, not hopes:
`postingCount` (above 0 once the account has a posting, then never 0 again: the postings that
find it at 0 add to it; type is frozen once there is one), `childCount` (sub-accounts;
they share the parent's type) and `referenceCount` (determination rules and, later, bank
accounts pointing at it; it stays active while referenced)."""
from __future__ import annotations

from typing import Any

from chalicelib import clock
from chalicelib.domain import accounting, statements
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.accounting.posting import INVALID_ACCOUNT, invalid_account
from chalicelib.services.commands import Command
from chalicelib.services.records import update_item
from chalicelib.store import keys
from chalicelib.store.repositories import accounts as chart_store
from chalicelib.store.repositories.accounts import CODE_KIND
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

TREE_GUARD = "ACCOUNT_TREE"
MAX_DEPTH = 12


class AccountRuleBroken(ApiError):
    """A refusal of this use case: each raise names its code."""


def code_taken(code: str) -> AccountRuleBroken:
    return AccountRuleBroken(Phrase("Another account already uses the code {}.", repr(code)), code="ACCOUNT_CODE_TAKEN",
                             details=[{"field": "code", "message": "already used by another account"}])


def _not_found() -> NotFound:
    return NotFound("Account not found.")


def account_key(company_id: int, account_id: int) -> keys.Key:
    return keys.chart_account(company_id, account_id)


def account_code_key(company_id: int, code: str) -> keys.Key:
    return keys.unique_value(company_id, CODE_KIND, code)


def get_account(table: Table, company_id: int, account_id: int) -> dict[str, Any]:
    item = table.get(account_key(company_id, account_id))
    if item is None:
        raise _not_found()
    return item


def active_account_named_by(table: Table, company_id: int, account_id: int, field: str) -> dict[str, Any]:
    """The account a request names in `field` (a bank transaction's counter account, a rule's, a
    gateway's fee account...): 400 naming the field when the company has none by that id or it is
    inactive."""
    item = table.get(account_key(company_id, int(account_id)))
    if item is None:
        raise ValidationFailed.for_field(field, "no such account")
    if not item.get("isActive", True):
        raise ValidationFailed.for_field(field, "the account is inactive")
    return item


def account_view(item: dict[str, Any]) -> dict[str, Any]:
    return {**item, "normalBalance": accounting.normal_side(item["type"]),
            "hasPostings": int(item.get("postingCount", 0)) > 0}


def all_accounts(table: Table, company_id: int) -> list[dict[str, Any]]:
    """The whole chart in code order (one Query, strongly consistent, for a chart of a few
    thousand accounts)."""
    return sorted(chart_store.chart(table, company_id), key=lambda account: account["code"])


def list_accounts(table: Table, company_id: int, *, account_type: str | None, is_active: bool | None,
                  page: int, limit: int) -> tuple[list[dict[str, Any]], int]:
    matching = [item for item in all_accounts(table, company_id)
                if (account_type is None or item["type"] == account_type)
                and (is_active is None or item["isActive"] == is_active)]
    start = (page - 1) * limit
    return matching[start:start + limit], len(matching)


def new_account_item(company_id: int, account_id: int, fields: dict[str, Any],
                     child_count: int = 0) -> dict[str, Any]:
    now = clock.now_iso()
    return {**account_key(company_id, account_id),
            "itemType": keys.CHART_ACCOUNT, "id": account_id, "isActive": True,
            **{name: value for name, value in fields.items() if value is not None},
            "postingCount": 0, "childCount": child_count, "referenceCount": 0,
            "version": 1, "createdAt": now, "updatedAt": now}


def add_child(transaction: Transaction, company_id: int, parent_id: int, account_type: str,
              delta: int = 1) -> None:
    """Counts a sub-account on its parent; the parent must still exist with the same type
    (checked before; a concurrent change makes the command run again)."""
    chart_store.count_children(transaction, company_id, parent_id, account_type, delta)


def check_parent(table: Table, company_id: int, parent_id: int, account_type: str,
                  account_id: int | None = None) -> None:
    """The parent exists, has the same type, is not the account itself or below it, and the
    tree stays at most MAX_DEPTH levels deep (walking the parent's ancestors)."""
    parent = table.get(account_key(company_id, parent_id))
    if parent is None:
        raise ValidationFailed.for_field("parentId", "no such account")
    if parent["type"] != account_type:
        raise ValidationFailed.for_field("parentId", Phrase("a sub-account has its parent's type ({})", parent['type']))
    levels = 1
    while parent is not None:
        if account_id is not None and parent["id"] == account_id:
            raise ValidationFailed.for_field("parentId", "an account cannot be placed under itself or its sub-accounts")
        if parent.get("parentId") is None:
            break
        levels += 1
        if levels >= MAX_DEPTH:
            raise ValidationFailed.for_field("parentId", Phrase("the chart is at most {} levels deep", MAX_DEPTH))
        parent = table.get(account_key(company_id, parent["parentId"]))


def _check_statement_section(account: dict[str, Any]) -> None:
    """Only the accounts of the result (income, cost, expense) have a place in the income statement."""
    if account.get("statementSection") is not None and account["type"] not in statements.RESULT_TYPES:
        raise ValidationFailed.for_field("statementSection", "only income, cost and expense accounts have a place "
                                                             "in the income statement")
    if account.get("cashFlowCategory") == "cash" and account["type"] != accounting.ASSET:
        raise ValidationFailed.for_field("cashFlowCategory", "only an asset account can be cash")


def create_account(command: Command, fields: dict[str, Any]) -> dict[str, Any]:
    company_id, table = command.company_id, command.table
    _check_statement_section(fields)
    if fields.get("parentId") is not None:
        check_parent(table, company_id, fields["parentId"], fields["type"])
    item = new_account_item(company_id, next_account_id(table, company_id), fields)
    transaction = command.transaction()
    add_account(transaction, company_id, item)
    if item.get("parentId") is not None:
        add_child(transaction, company_id, item["parentId"], item["type"])
    return command.commit(transaction, account_view(item))


def next_account_id(table: Table, company_id: int) -> int:
    return table.next_id(keys.id_sequence(company_id, keys.CHART_ACCOUNT))


def add_account(transaction: Transaction, company_id: int, item: dict[str, Any]) -> None:
    """A new account and its code's reservation (its parent counts it apart: add_child, or an
    import's parent made in the same transaction with its childCount)."""
    transaction.put_new(item)
    transaction.put_new({**account_code_key(company_id, item["code"]), "accountId": item["id"]},
                        on_fail=code_taken(item["code"]))


def _has(item: dict[str, Any], counter: str) -> bool:
    return int(item.get(counter, 0)) > 0


def has_postings_error() -> AccountRuleBroken:
    return AccountRuleBroken("The account has postings: its type can no longer change and it cannot be "
                             "deleted.", code="ACCOUNT_HAS_POSTINGS")


def has_children_error(action: str) -> AccountRuleBroken:
    return AccountRuleBroken(Phrase("The account has sub-accounts: {}.", action), code="ACCOUNT_HAS_CHILDREN")


def in_use_error(action: str) -> AccountRuleBroken:
    return AccountRuleBroken(Phrase("The account is used by determination rules or bank accounts: {}.", action),
                             code="ACCOUNT_IN_USE")


def update_account(command: Command, account_id: int, changes: dict[str, Any],
                   expected_version: int | None) -> dict[str, Any]:
    company_id, table = command.company_id, command.table
    current = get_account(table, company_id, account_id)
    changes = {name: value for name, value in changes.items() if current.get(name) != value}
    updated = {**current, **changes}
    _check_statement_section(updated)
    unused = {"postings": False, "children": False, "references": False}
    if "type" in changes:
        if _has(current, "postingCount"):
            raise has_postings_error()
        if _has(current, "childCount"):
            raise has_children_error("they share its type, so it cannot change")
        if _has(current, "referenceCount"):
            # a bank ledger or a rule's account (a control account among them) keeps the type it was linked with
            raise in_use_error("point those at another account before changing its type")
        unused.update(postings=True, children=True, references=True)
    if changes.get("isActive") is False:
        if _has(current, "referenceCount"):
            raise in_use_error("point those at another account before deactivating it")
        unused["references"] = True
    parent_moves = "parentId" in changes
    if updated.get("parentId") is not None and (parent_moves or "type" in changes):
        check_parent(table, company_id, updated["parentId"], updated["type"], account_id)
    tree_version = chart_store.tree_version(table, company_id, TREE_GUARD) if parent_moves else 0

    def add_effects(transaction: Transaction, _: dict[str, Any]) -> None:
        if "code" in changes:
            transaction.put_new({**account_code_key(company_id, changes["code"]), "accountId": account_id},
                                on_fail=code_taken(changes["code"]))
            transaction.delete(account_code_key(company_id, current["code"]))
        if parent_moves:
            # moving accounts around the tree one at a time keeps it free of cycles
            chart_store.move_in_tree(transaction, company_id, TREE_GUARD, tree_version)
            if current.get("parentId") is not None:
                chart_store.uncount_child(transaction, company_id, current["parentId"])
            if updated.get("parentId") is not None:
                add_child(transaction, company_id, updated["parentId"], updated["type"])
        elif "type" in changes and updated.get("parentId") is not None:
            chart_store.parent_keeps_type(transaction, company_id, updated["parentId"], updated["type"])

    guard = chart_store.still_unused(**unused)
    return account_view(update_item(command, account_key(company_id, account_id), current, changes,
                            expected_version, add_effects, guard))


def delete_account(command: Command, account_id: int) -> dict[str, Any]:
    company_id = command.company_id
    current = get_account(command.table, company_id, account_id)
    if _has(current, "postingCount"):
        raise has_postings_error()
    if _has(current, "childCount"):
        raise has_children_error("delete or move them first")
    if _has(current, "referenceCount"):
        raise in_use_error("point those at another account before deleting it")
    transaction = command.transaction()
    chart_store.delete_unused(transaction, company_id, account_id, current["version"])
    transaction.delete(account_code_key(company_id, current["code"]))
    if current.get("parentId") is not None:
        chart_store.uncount_child(transaction, company_id, current["parentId"])
    return command.commit(transaction, {"id": account_id, "deleted": True})


def add_reference(transaction: Transaction, company_id: int, account_id: int, delta: int, field: str, *,
                  unposted: bool = False, postings: int = 0) -> None:
    """Counts a configuration record (rule, bank account) pointing at an account. Adding one
    requires the account to exist and be active (`unposted`: and still to have no postings, as
    the account a subledger starts on; `postings`: the first ones, the subledger's opening entry
    in the same transaction, counted in this update since a transaction writes an item once)."""
    if delta > 0 and unposted:
        chart_store.reference_unposted(transaction, company_id, account_id, delta, postings,
                                       ValidationFailed.for_field(field, "the account was deactivated or received "
                                                                  "postings meanwhile", code=INVALID_ACCOUNT))
    elif delta > 0:
        chart_store.reference_active(transaction, company_id, account_id, delta, invalid_account(field))
    elif delta < 0:
        chart_store.release_references(transaction, company_id, account_id, delta)
