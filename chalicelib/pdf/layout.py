"""What every template draws with: a sheet (page format, core font, footer with page numbers, a
running header on every page after the first) and a table whose rows never split across pages
and whose column titles repeat on each page."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence, Union, cast

from fpdf import FPDF
from fpdf.enums import MethodReturnValue, XPos, YPos

from chalicelib.pdf.text import ENCODING, printable

FONT = "Helvetica"
LETTER = "letter"
LANDSCAPE_LETTER = (279.4, 215.9)  # mm: a letter sheet turned, for wide tables
MARGIN = 12.0
FOOTER_HEIGHT = 10.0

PageFormat = Union[str, "tuple[float, float]"]


class Sheet(FPDF):
    def __init__(self, page_format: PageFormat, *, title: str, margin: float = MARGIN,
                 page_numbers: bool = True) -> None:
        super().__init__(unit="mm", format=page_format)
        self.core_fonts_encoding = ENCODING
        self.page_numbers = page_numbers
        self.running_header: Callable[[], None] | None = None
        self.set_margins(margin, margin, margin)
        self.set_auto_page_break(True, margin + (FOOTER_HEIGHT if page_numbers else 0))
        self.set_title(printable(title))
        self.set_creator("business-api")
        self.add_page()

    @property
    def content_width(self) -> float:
        return self.w - self.l_margin - self.r_margin

    def header(self) -> None:
        if self.page_no() > 1 and self.running_header is not None:
            self.running_header()

    def footer(self) -> None:
        if not self.page_numbers:
            return
        self.set_y(-(self.b_margin - 2))
        self.use(7)
        self.cell(0, 4, f"Página {self.page_no()} de {{nb}}", align="R")

    def use(self, size: float, bold: bool = False) -> None:
        self.set_font(FONT, "B" if bold else "", size)

    def line_of_text(self, text: str, *, size: float = 9, bold: bool = False, align: str = "L",
                     width: float = 0, height: float | None = None) -> None:
        """A paragraph across `width` (0: to the right margin), wrapped, then the next line."""
        self.use(size, bold)
        self.multi_cell(width, height or size * 0.45, printable(text), align=align,
                        new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    def rule(self, gap: float = 1.5) -> None:
        self.ln(gap)
        self.line(self.l_margin, self.get_y(), self.w - self.r_margin, self.get_y())
        self.ln(gap)

    def render(self) -> bytes:
        return bytes(self.output())


@dataclass(frozen=True)
class Column:
    title: str
    width: float
    align: str = "L"


class Table:
    """Rows whose `wrap` columns wrap; a row that would not fit moves whole to the next page,
    where the sheet's running header draws the column titles again."""

    def __init__(self, sheet: Sheet, columns: Sequence[Column], *, size: float = 8, wrap: Sequence[int] = (0,),
                 heading: Callable[[], None] | None = None) -> None:
        self.sheet, self.columns, self.size, self.wrap = sheet, list(columns), size, set(wrap)
        self.line_height = size * 0.48
        self.heading = heading

    def __enter__(self) -> "Table":
        def running_header() -> None:
            if self.heading is not None:
                self.heading()
            self.draw_titles()

        self.sheet.running_header = running_header
        self.draw_titles()
        return self

    def __exit__(self, *_: object) -> None:
        # after the table, later pages (totals that spill over) carry only the page heading
        self.sheet.running_header = self.heading

    def draw_titles(self) -> None:
        """A title wider than its column wraps (a tax book's narrow amount columns)."""
        sheet = self.sheet
        sheet.use(self.size, True)
        sheet.set_fill_color(230, 230, 230)
        titles = [self._wrapped(column.width, printable(column.title)) for column in self.columns]
        height = max(len(lines) for lines in titles) * self.line_height + 1.5
        x, y = sheet.l_margin, sheet.get_y()
        sheet.rect(x, y, self.width, height, style="F")
        sheet.line(x, y, x + self.width, y)
        sheet.line(x, y + height, x + self.width, y + height)
        for column, lines in zip(self.columns, titles, strict=True):
            sheet.set_xy(x, y + (height - len(lines) * self.line_height) / 2)
            sheet.multi_cell(column.width, self.line_height, "\n".join(lines), align=column.align,
                             new_x=XPos.RIGHT, new_y=YPos.TOP)
            x += column.width
        sheet.set_xy(sheet.l_margin, y + height + 0.5)

    def row(self, values: Sequence[str], *, bold: bool = False, rule: bool = False) -> None:
        sheet = self.sheet
        sheet.use(self.size, bold)
        texts = [printable(value) for value in values]
        lines = {index: self._wrapped(column.width, texts[index]) for index, column in enumerate(self.columns)
                 if index in self.wrap}
        height = max([1, *(len(wrapped) for wrapped in lines.values())]) * self.line_height
        if sheet.will_page_break(height + 0.6):
            sheet.add_page()
            sheet.use(self.size, bold)
        x, y = sheet.l_margin, sheet.get_y()
        for index, (column, text) in enumerate(zip(self.columns, texts, strict=True)):
            sheet.set_xy(x, y)
            if len(lines.get(index, ())) > 1:
                sheet.multi_cell(column.width, self.line_height, "\n".join(lines[index]), align=column.align,
                                 new_x=XPos.RIGHT, new_y=YPos.TOP)
            else:
                sheet.cell(column.width, self.line_height, text, align=column.align)
            x += column.width
        sheet.set_xy(sheet.l_margin, y + height + 0.6)
        if rule:
            sheet.set_draw_color(200, 200, 200)
            sheet.line(sheet.l_margin, sheet.get_y() - 0.3, sheet.l_margin + self.width, sheet.get_y() - 0.3)
            sheet.set_draw_color(0, 0, 0)

    @property
    def width(self) -> float:
        return sum(column.width for column in self.columns)

    def _wrapped(self, width: float, text: str) -> list[str]:
        if "\n" not in text and self.sheet.get_string_width(text) <= width - 2 * self.sheet.c_margin:
            return [text]
        # fpdf2 types the answer of every `output` at once; LINES answers the lines
        return cast(list[str], self.sheet.multi_cell(width, self.line_height, text, dry_run=True,
                                                     output=MethodReturnValue.LINES))
