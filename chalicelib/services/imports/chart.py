"""The `chart` import: accounts merged into the company's chart, each row checked as POST
/chart-of-accounts checks its body (the same model), its parent named by code (a row of the file, in
any order, or an account of the chart) with the chart's tree rules (a sub-account has its parent's
type; at most chart.MAX_DEPTH levels), the code its natural key. Parents are written before their
sub-accounts; an existing code is refused, or in update mode its name, description and type change
as PUT /chart-of-accounts/{id} allows (services/accounting/chart.py's own rules)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from chalicelib.auth.principal import Principal
from chalicelib.domain.import_rows import Column, Row, RowError
from chalicelib.errors import ApiError
from chalicelib.messages.phrases import Phrase
from chalicelib.models.accounting import AccountCreate
from chalicelib.services.accounting import chart
from chalicelib.services.commands import Command
from chalicelib.services.imports import row_checks
from chalicelib.services.imports.kinds import MAX_TRANSACTION_ITEMS, Checked, ImportContext
from chalicelib.store.transaction import Transaction

COLUMNS = (
    Column("code", "Código", required=True, example="110101", aliases=("Código de cuenta", "Cuenta")),
    Column("name", "Nombre", required=True, example="Caja general", aliases=("Nombre de la cuenta",)),
    Column("type", "Tipo", required=True, example="asset", aliases=("Tipo de cuenta",)),
    Column("parentCode", "Cuenta padre", example="1101", aliases=("Código padre", "Cuenta de mayor")),
    Column("description", "Descripción"),
)
CHOICES = {"type": {"activo": "asset", "pasivo": "liability", "patrimonio": "equity", "capital": "equity",
                    "ingreso": "income", "ingresos": "income", "costo": "cost", "costos": "cost",
                    "gasto": "expense", "gastos": "expense"}}
# an account, its code's reservation and its parent's count (at most one item each)
ITEMS_PER_ACCOUNT = 3
ACCOUNTS_PER_UNIT = MAX_TRANSACTION_ITEMS // ITEMS_PER_ACCOUNT


@dataclass
class Entry:
    line: int
    fields: dict[str, Any]
    parent_code: str | None
    depth: int = 1


@dataclass
class Plan:
    creates: list[row_checks.Unit]             # parents in earlier units than, or the same unit as, their sub-accounts
    updates: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (account id, changes)


def _type_change_refused(account: dict[str, Any]) -> ApiError | None:
    """What PUT refuses of a type change (chart.update_account's rules, asked before anything is written)."""
    if int(account.get("postingCount", 0)) > 0:
        return chart.has_postings_error()
    if int(account.get("childCount", 0)) > 0:
        return chart.has_children_error("they share its type, so it cannot change")
    if int(account.get("referenceCount", 0)) > 0:
        return chart.in_use_error("point those at another account before changing its type")
    return None


class ChartKind:
    name = "chart"
    columns = COLUMNS
    needs_date = False

    def check(self, context: ImportContext, rows: list[Row]) -> Checked:
        existing = {account["code"]: account for account in chart.all_accounts(context.table, context.company_id)}
        errors: list[RowError] = []
        new: dict[str, Entry] = {}
        updates: list[tuple[int, dict[str, Any]]] = []
        first_of: dict[str, int] = {}
        for row in rows:
            body = row_checks.cell_values(row, choices=CHOICES)
            parent_code = body.pop("parentCode", None)
            model, problems = row_checks.validated(AccountCreate, row, body)
            if model is None:
                errors += problems
                continue
            fields = row_checks.model_fields(model)
            code = fields["code"]
            if (repeated := row_checks.repeated(first_of, code, row, "code")) is not None:
                errors.append(repeated)
                continue
            account = existing.get(code)
            if row_checks.held_by_another(account, context):
                problem = self._update(context, row, account, body, parent_code, existing, updates)
                errors += problem
                continue
            new[code] = Entry(row.line, {**fields, "importJob": context.job_id}, parent_code)
        errors += _place(new, existing, context.job_id)
        if errors:
            return Checked(sorted(errors, key=lambda error: error.row))
        ordered = sorted(new.values(), key=lambda entry: (entry.depth, entry.line))
        units = [row_checks.Unit(ordered[start:start + ACCOUNTS_PER_UNIT], start, 0, "new")
                 for start in range(0, len(ordered), ACCOUNTS_PER_UNIT)]
        for unit in units:  # named by position: sorted by depth, a unit's lines are not a range
            unit.last = unit.first + len(unit.entries) - 1
        return Checked([], Plan(units, updates))

    @staticmethod
    def _update(context: ImportContext, row: Row, account: dict[str, Any], body: dict[str, Any],
                parent_code: str | None, existing: dict[str, dict[str, Any]],
                updates: list[tuple[int, dict[str, Any]]]) -> list[RowError]:
        if not context.update_existing:
            return [RowError(row.line, "code", "already used by another account")]
        parent = next((other for other in existing.values() if other["id"] == account.get("parentId")), None)
        if (parent_code or None) != (parent["code"] if parent else None):
            return [RowError(row.line, "parentCode", "an existing account keeps its place in the chart: move it there")]
        changes: dict[str, Any] = {name: body[name] for name in ("name", "type", "description") if name in body}
        if changes.get("type", account["type"]) != account["type"]:
            refused = _type_change_refused(account)
            if refused is not None:
                return [RowError(row.line, "type", refused.message)]
            if parent is not None and parent["type"] != changes["type"]:
                return [RowError(row.line, "type", Phrase("a sub-account has its parent's type ({})", parent['type']))]
        updates.append((int(account["id"]), changes))
        return []

    def apply(self, context: ImportContext, plan: Plan) -> dict[str, int]:
        table, company_id = context.table, context.company_id

        def create(unit: row_checks.Unit) -> None:
            transaction = Transaction(table)
            ids = {entry.fields["code"]: chart.next_account_id(table, company_id) for entry in unit.entries}
            in_unit = Counter(entry.parent_code for entry in unit.entries if entry.parent_code in ids)
            outside: Counter[tuple[int, str]] = Counter()
            for entry in unit.entries:
                parent_id = None
                if entry.parent_code in ids:
                    parent_id = ids[entry.parent_code]
                elif entry.parent_code is not None:
                    reservation = table.get(chart.account_code_key(company_id, entry.parent_code))
                    if reservation is None:  # checked: in the chart or landed in an earlier unit
                        raise LookupError(f"the parent account {entry.parent_code} is gone")
                    parent_id = int(reservation["accountId"])
                    outside[(parent_id, entry.fields["type"])] += 1
                item = chart.new_account_item(company_id, ids[entry.fields["code"]], {**entry.fields, "parentId": parent_id},
                                              child_count=in_unit[entry.fields["code"]])
                chart.add_account(transaction, company_id, item)
            for (parent_id, account_type), children in sorted(outside.items()):
                chart.add_child(transaction, company_id, parent_id, account_type, children)
            context.mark_done(transaction, unit.name)
            transaction.commit()

        created = row_checks.land_rows(context, plan.creates, create)
        # an update sets what the row says: written again, it changes nothing (no marker needed)
        command = Command(Principal.acting_for(company_id, "import"), table)
        for done, (account_id, changes) in enumerate(plan.updates, start=1):
            chart.update_account(command, account_id, changes, None)
            context.progress(created + done)
        return {"created": created, "updated": len(plan.updates)}


def _place(new: dict[str, Entry], existing: dict[str, dict[str, Any]], job_id: int) -> list[RowError]:
    """Each new account's parent (a row of the file or an account of the chart) and its depth,
    with the chart's tree rules; the problems by row on `parentCode`."""
    depth_of_existing: dict[int, int] = {}
    by_id = {account["id"]: account for account in existing.values()}

    def chart_depth(account: dict[str, Any]) -> int:
        if account["id"] not in depth_of_existing:
            parent = by_id.get(account.get("parentId"))
            depth_of_existing[account["id"]] = 1 + (chart_depth(parent) if parent else 0)
        return depth_of_existing[account["id"]]

    errors: list[RowError] = []
    for entry in new.values():
        seen, depth, code = {entry.fields["code"]}, 1, entry.parent_code
        broken: str | None = None
        account_type = entry.fields["type"]
        while code is not None:
            parent = new.get(code)
            if parent is not None:
                if code in seen:
                    broken = "an account cannot be placed under itself or its sub-accounts"
                    break
                seen.add(code)
                if code == entry.parent_code and parent.fields["type"] != account_type:
                    broken = Phrase("a sub-account has its parent's type ({})", parent.fields["type"])
                    break
                depth, code = depth + 1, parent.parent_code
                continue
            account = existing.get(code)
            if account is None or account.get("importJob") == job_id:
                broken = "no such account"  # not in the file nor in the chart
                break
            if code == entry.parent_code and account["type"] != account_type:
                broken = Phrase("a sub-account has its parent's type ({})", account["type"])
                break
            depth += chart_depth(account)
            break
        if broken is None and depth > chart.MAX_DEPTH:
            broken = Phrase("the chart is at most {} levels deep", chart.MAX_DEPTH)
        if broken is not None:
            errors.append(RowError(entry.line, "parentCode", broken))
        entry.depth = depth
    return errors


KIND = ChartKind()
