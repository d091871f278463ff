"""Running an import kind directly (no file, no job): its rows as Row objects and its context (the
units' done-markers are services/imports/jobs.py's own)."""
from __future__ import annotations

from datetime import date
from typing import Any, Callable

from chalicelib.domain.import_rows import Row
from chalicelib.services.imports.kinds import Checked, ImportContext, kind


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


def stop_at_call(monkeypatch: Any, owner: Any, name: str, nth: int, fault: Exception,
                 noted: Callable[..., Any] = lambda *args, **kwargs: None) -> list[Any]:
    """`owner.name` made to raise `fault` at its `nth` call (the Lambda ending between two units),
    each call before going through; answers what `noted` makes of each call's arguments, that one
    included."""
    real, calls = getattr(owner, name), []

    def stopping(*args: Any, **kwargs: Any) -> Any:
        calls.append(noted(*args, **kwargs))
        if len(calls) == nth:
            raise fault
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, stopping)
    return calls
