"""What an imported file is made of, whatever its kind: its columns (the API's own field names, a
Spanish heading accepted beside each), its rows (the file's line numbers kept: the heading is line 1)
and the problems found in them. Pure: reading CSV/XLSX and each kind's rules build on these."""
from __future__ import annotations

from dataclasses import dataclass, field

from chalicelib.messages.phrases import Phrase, stored


@dataclass(frozen=True)
class Column:
    name: str                      # the API's field name: the English template's heading
    spanish: str                   # the Spanish template's heading, accepted as well
    required: bool = False
    example: str = ""              # the template's example row
    aliases: tuple[str, ...] = ()  # other headings people write for it ("RTN", "NIT", ...)
    description_es: str = ""       # what goes in it, on the template's instructions sheet
    description_en: str = ""


@dataclass(frozen=True)
class Row:
    line: int                                             # the file's line (the heading is line 1)
    values: dict[str, str] = field(default_factory=dict)  # column name -> the cell's text, trimmed; blank cells absent


@dataclass(frozen=True)
class RowError:
    row: int            # the file's line; 0 when the problem is the file's as a whole
    column: str | None  # the column's name (the API field), None for the row or file as a whole
    message: str        # English: a Phrase (or a literal, its own id), translated by its id when read
    # a problem the API's model found (pydantic's English): its validation kind and context as
    # text, so that it is read in the reader's language as the API's own details are
    issue: tuple[str, dict[str, str]] | None = field(default=None, compare=False)

    def as_json(self) -> dict[str, object]:
        """As stored: the English, and the message's id and parts beside it (messages/phrases.py)."""
        return {"row": self.row, "column": self.column, "message": str.__str__(self.message),
                **({"phrase": stored(self.message)} if isinstance(self.message, Phrase) else {})}
