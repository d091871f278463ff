"""What the service writes into a company's books for a person to read later: journal entries'
descriptions, a partner ledger's movement labels, a bank transaction's reference, a generated
document line. Stored texts are read long after the request that wrote them, by whoever opens the
books, so they are written in the books' language, not the caller's.

A company has no language setting (neither the spec nor models/company.py names one): the books of
every company, Honduran or Salvadoran, are kept in Spanish (docs/decisions.md, issue 38). A
company language would be chosen here, in `book_text`, and nowhere else."""
from __future__ import annotations

from typing import Any

from chalicelib.messages import SPANISH

BOOKS_LANGUAGE = SPANISH

# one entry per kind of stored text; the names in braces are what the service fills in
BOOK_TEXTS: dict[str, dict[str, str]] = {
    SPANISH: {
        "entry_reversal": "Reversión de la partida {entry}",
        "entry_reversal_of": "Reversión de la partida {entry}: {description}",
        "payment_reversal_reference": "Reversión: {reason}",
        "year_closing": "Cierre del ejercicio {year}",
        "year_closing_partial": "Cierre del ejercicio {year} (parcial)",
        "year_reopening": "Reapertura del ejercicio {year}",
        "inventory_adjustment": "Ajuste de inventario {adjustment}: {reason}",
        "exchange_difference_credit_note": "Diferencial cambiario: nota de crédito {note} aplicada a {document}",
        "withholding": "Retención {document}",
        "payment": "Pago {document}",
        "refund": "Reembolso {document}",
        "payment_cancelled": "Anulación: {label}",
        "advance": "Anticipo {document}",
        "advance_application": "Aplicación de anticipo {source} a {document}",
        "document": "{kind} {number}",
        "document_reversal": "Reversión {label}",
        "inventory_revaluation_reversal": "Revalorización de inventario: reversión de {kind} {number}",
        "opening_balance": "Saldo inicial",
        "opening_balance_reference": "Saldo inicial ({reference})",
        "bank_deposit": "Depósito {account}",
        "bank_withdrawal": "Retiro {account}",
        "bank_transfer": "Transferencia {source} -> {target}",
        "with_reference": "{text}: {reference}",
        # issue 39: settle
        "tax_settlement": "Liquidación de impuestos {settlement} al {period_end}",
        # issue 41: opening
        "opening_balances": "Saldos iniciales al {date}",
        # issue 42: match
        "statement_line_unmatched": "Línea {line} del estado de cuenta desvinculada",
        # issue 43: books
        "gateway_fee": "Comisión de la pasarela {gateway} sobre el pago {payment}",
        "gateway_payout": "Liquidación de la pasarela {gateway}",
        # issue 44: reval
        "revaluation": "Diferencial cambiario no realizado al {date} ({rates})",
        "revaluation_part": "Diferencial cambiario no realizado al {date} ({rates}), parte {part} de {parts}",
        "revaluation_reversal_part": "Reversión del diferencial cambiario no realizado al {date}, parte {part} de "
                                     "{parts}",
        "revaluation_movement": "Diferencial cambiario no realizado al {date}",
        "revaluation_reversal": "Reversión del diferencial cambiario no realizado al {date}",
        "revaluation_partner": "Diferencial cambiario no realizado: {kind} {name}",
        "revaluation_bank": "Diferencial cambiario no realizado: cuenta bancaria {name}",
        "revaluation_gain": "Ganancia cambiaria no realizada al {date}",
        "revaluation_loss": "Pérdida cambiaria no realizada al {date}",
        "revaluation_receivable": "cliente",
        "revaluation_payable": "proveedor",
        # issue 44: fix-reval2
        "revaluation_void": "Anulación del diferencial cambiario no realizado al {date}",
    },
}


def book_text(key: str, **parts: Any) -> str:
    """The stored text `key` in the books' language, its parts filled in."""
    return BOOK_TEXTS[BOOKS_LANGUAGE][key].format(**parts)


def with_reference(text: str, reference: str | None) -> str:
    """A stored text followed by the reference the user gave, when there is one."""
    return book_text("with_reference", text=text, reference=reference) if reference else text
