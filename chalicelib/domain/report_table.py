"""A report as a table: what every export format (CSV, XLSX, PDF) writes, so that each report
says once how it reads as rows."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal, Optional


@dataclass(frozen=True)
class Column:
    title: str
    kind: Literal["text", "amount"] = "text"
    weight: float = 1.0  # a text column's share of the printed width left by the amounts


@dataclass(frozen=True)
class Row:
    cells: tuple[Any, ...]  # text, or a Decimal (or None: empty) in an amount column
    level: int = 0  # indentation of the first text cell: an account under its parent
    emphasis: bool = False  # a heading or a total


@dataclass
class ReportTable:
    title: str
    subtitle: str
    columns: tuple[Column, ...]
    rows: list[Row] = field(default_factory=list)
    filename: str = "report"

    def add(self, *cells: Any, level: int = 0, emphasis: bool = False) -> None:
        assert len(cells) == len(self.columns), cells
        self.rows.append(Row(tuple(cells), level, emphasis))


def amount(value: Optional[Any]) -> Optional[Decimal]:
    return None if value is None else Decimal(value)
