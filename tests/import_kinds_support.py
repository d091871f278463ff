"""Running an import kind directly (no file, no job): its rows as Row objects, its context, and the
units' done-markers, which services/imports/jobs.py keeps (a stand-in here until it exists)."""
from __future__ import annotations

import sys
import types
from datetime import date
from typing import Any

from chalicelib.domain.import_rows import Row
from chalicelib.services.imports.kinds import Checked, ImportContext, kind


def stand_in_units(monkeypatch: Any) -> None:
    """The jobs module's mark_unit_done/unit_done, when that module is not there yet."""
    try:
        from chalicelib.services.imports import jobs  # noqa: F401
        return
    except ImportError:
        pass
    module = types.ModuleType("chalicelib.services.imports.jobs")

    def key(context: ImportContext, unit: str) -> dict[str, str]:
        return {"PK": f"C#{context.company_id}#IMPORTUNIT#{context.job_id}", "SK": unit}

    module.mark_unit_done = lambda transaction, context, unit: transaction.put_new(key(context, unit))  # type: ignore[attr-defined]
    module.unit_done = lambda context, unit: context.table.get(key(context, unit)) is not None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "chalicelib.services.imports.jobs", module)


def rows(*values: dict[str, str]) -> list[Row]:
    """The file's rows: the heading is line 1, so the first row is line 2."""
    return [Row(line, {name: text for name, text in row.items() if text != ""})
            for line, row in enumerate(values, start=2)]


def context(table: Any, company: Any, job_id: int = 1, *, update: bool = False,
            on: date | None = None) -> ImportContext:
    return ImportContext(table=table, company_id=company.company_id, job_id=job_id, user_id=company.user_id,
                         date=on, update_existing=update)


def run(name: str, ctx: ImportContext, file_rows: list[Row]) -> tuple[Checked, dict[str, int] | None]:
    """check, then apply when there is no problem."""
    checked = kind(name).check(ctx, file_rows)
    if checked.errors:
        return checked, None
    return checked, kind(name).apply(ctx, checked.plan)


def problems(checked: Checked) -> list[tuple[int, str | None, str]]:
    return [(error.row, error.column, error.message) for error in checked.errors]
