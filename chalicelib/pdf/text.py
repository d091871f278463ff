"""How values read on paper: amounts with thousands separators, quantities without trailing
zeros, dates day first, and text reduced to what the PDF's fonts can draw."""
from __future__ import annotations

import unicodedata
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

# The templates draw with the PDF core font Helvetica in Windows-1252 (WinAnsiEncoding): every
# Spanish letter and sign (ñ, á, ü, ¿, ¡), the euro sign and typographic quotes and dashes, with
# no font file to embed. Anything else is spelled with the closest of those characters.
ENCODING = "windows-1252"
_CLOSEST = {"\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2043": "-", "\u00a0": " ", "\u2009": " ",
            "\u202f": " ", "\u2002": " ", "\u2003": " ", "\u2192": "->", "\u2190": "<-", "\u2264": "<=",
            "\u2265": ">=", "\u2260": "!=", "\u2713": "v", "\u2715": "x",
            "\u0141": "L", "\u0142": "l", "\u0110": "D", "\u0111": "d", "\u0131": "i"}
_CENT = Decimal("0.01")


def printable(value: Any) -> str:
    """The text as the fonts can draw it: characters outside Windows-1252 become their closest
    equivalent (their base letter, a plain sign) or "?"; control characters become spaces."""
    if value is None:
        return ""
    text = unicodedata.normalize("NFC", str(value))
    try:
        text.encode(ENCODING)
    except UnicodeEncodeError:
        text = "".join(_closest(character) for character in text)
    return "".join(" " if unicodedata.category(character) == "Cc" and character != "\n" else character
                   for character in text)


def _closest(character: str) -> str:
    try:
        character.encode(ENCODING)
        return character
    except UnicodeEncodeError:
        pass
    if character in _CLOSEST:
        return _CLOSEST[character]
    decomposed = unicodedata.normalize("NFKD", character)
    kept = "".join(part for part in decomposed if not unicodedata.combining(part))
    try:
        kept.encode(ENCODING)
        return kept or "?"
    except UnicodeEncodeError:
        return "?"


def money(amount: Any) -> str:
    """1234.5 -> "1,234.50" (Honduras writes a comma for thousands and a point for cents)."""
    return f"{Decimal(amount).quantize(_CENT, rounding=ROUND_HALF_UP):,.2f}"


def price(amount: Any) -> str:
    """A unit price as carried: cents at least, more decimals when it has them (28.25, 1.1187)."""
    value = Decimal(amount)
    if value == value.quantize(_CENT):
        return money(value)
    return f"{value.normalize():,f}"


def quantity(amount: Any) -> str:
    """2.5000 -> "2.5", 3 -> "3", 1250 -> "1,250"."""
    value = Decimal(amount)
    if value == value.to_integral_value():
        return f"{value:,.0f}"
    return f"{value.normalize():,f}"


def date(iso_date: str | None) -> str:
    """YYYY-MM-DD -> DD/MM/YYYY."""
    if not iso_date:
        return ""
    year, month, day = iso_date[:10].split("-")
    return f"{day}/{month}/{year}"


def percent(fraction: Any) -> str:
    """0.15 -> "15 %"."""
    return f"{(Decimal(fraction) * 100).normalize():f} %"
