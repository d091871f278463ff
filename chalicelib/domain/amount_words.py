"""An amount in Spanish words, as Honduran invoices print it: "UN MIL DOSCIENTOS TREINTA Y
CUATRO LEMPIRAS CON 56/100".

Conventions (kept everywhere): upper case with the accents of correct Spanish spelling
(DIECISÉIS, VEINTIDÓS, MILLÓN, DÓLARES); thousands always carry their number ("UN MIL", the
usual form on Honduran invoices, never a bare "MIL"); before a noun (the currency, MIL,
MILLONES) "UNO" shortens to "UN" and "VEINTIUNO" to "VEINTIÚN"; an exact number of millions
takes "DE" before the currency ("UN MILLÓN DE LEMPIRAS"); cents are two digits over 100."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

# The largest amount the API carries (chalicelib.domain.money.MAX_AMOUNT) is below this.
LIMIT = 10 ** 12

_UNITS = ("CERO", "UNO", "DOS", "TRES", "CUATRO", "CINCO", "SEIS", "SIETE", "OCHO", "NUEVE", "DIEZ",
          "ONCE", "DOCE", "TRECE", "CATORCE", "QUINCE", "DIECISÉIS", "DIECISIETE", "DIECIOCHO", "DIECINUEVE",
          "VEINTE", "VEINTIUNO", "VEINTIDÓS", "VEINTITRÉS", "VEINTICUATRO", "VEINTICINCO", "VEINTISÉIS",
          "VEINTISIETE", "VEINTIOCHO", "VEINTINUEVE")
_TENS = {3: "TREINTA", 4: "CUARENTA", 5: "CINCUENTA", 6: "SESENTA", 7: "SETENTA", 8: "OCHENTA", 9: "NOVENTA"}
_HUNDREDS = {1: "CIENTO", 2: "DOSCIENTOS", 3: "TRESCIENTOS", 4: "CUATROCIENTOS", 5: "QUINIENTOS",
             6: "SEISCIENTOS", 7: "SETECIENTOS", 8: "OCHOCIENTOS", 9: "NOVECIENTOS"}

# currency code -> (singular, plural)
CURRENCY_WORDS = {"HNL": ("LEMPIRA", "LEMPIRAS"), "USD": ("DÓLAR", "DÓLARES")}


def _apocope(word: str) -> str:
    """The form before a noun: UN LEMPIRA, VEINTIÚN MIL, TREINTA Y UN MILLONES."""
    if word.endswith("VEINTIUNO"):
        return word[:-len("VEINTIUNO")] + "VEINTIÚN"
    if word == "UNO" or word.endswith(" UNO"):
        return word[:-1]
    return word


def _below_thousand(number: int) -> str:
    if number < 30:
        return _UNITS[number]
    if number < 100:
        tens, unit = divmod(number, 10)
        return _TENS[tens] + (f" Y {_UNITS[unit]}" if unit else "")
    if number == 100:
        return "CIEN"
    hundreds, rest = divmod(number, 100)
    return _HUNDREDS[hundreds] + (f" {_below_thousand(rest)}" if rest else "")


def _below_million(number: int, before_noun: bool) -> str:
    thousands, rest = divmod(number, 1000)
    words = []
    if thousands:
        words.append(f"{_apocope(_below_thousand(thousands))} MIL")
    if rest or not thousands:
        low = _below_thousand(rest)
        words.append(_apocope(low) if before_noun else low)
    return " ".join(words)


def number_in_words(number: int, *, before_noun: bool = False) -> str:
    """0 <= number < 10**12 in words; `before_noun` gives the form that precedes a noun
    (21 -> VEINTIÚN instead of VEINTIUNO)."""
    if not 0 <= number < LIMIT:
        raise ValueError(f"number must be between 0 and {LIMIT - 1}")
    millions, rest = divmod(number, 10 ** 6)
    if not millions:
        return _below_million(number, before_noun)
    head = "UN MILLÓN" if millions == 1 else f"{_below_million(millions, True)} MILLONES"
    return head + (f" {_below_million(rest, before_noun)}" if rest else "")


def amount_in_words(amount: Decimal, currency: str) -> str:
    """A money amount with its currency and cents: 1234.56 HNL -> "UN MIL DOSCIENTOS TREINTA Y
    CUATRO LEMPIRAS CON 56/100". A currency without words here is named by its code."""
    if not amount.is_finite() or amount < 0:
        raise ValueError("amount must be a finite, non-negative number")
    cents_total = int((amount * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    whole, cents = divmod(cents_total, 100)
    singular, plural = CURRENCY_WORDS.get(currency.upper(), (currency.upper(), currency.upper()))
    words = number_in_words(whole, before_noun=True)
    if whole >= 10 ** 6 and whole % 10 ** 6 == 0:
        words += " DE"
    return f"{words} {singular if whole == 1 else plural} CON {cents:02d}/100"
