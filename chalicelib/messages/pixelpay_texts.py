"""PixelPay's words in the catalogue (issue 43: pixelpay): the Spanish of what its adapter and
formats (chalicelib/domain/pixelpay.py, services/integrations/providers/pixelpay.py) answer, and
the labels of the fields of PixelPay's results a refusal names (its own snake_case names)."""
from __future__ import annotations

PIXELPAY_PHRASES: dict[str, str] = {
    "must be a JSON object or a UTF-8 form": "debe ser un objeto JSON o un formulario en UTF-8",
    "required: PixelPay text of 1 to 200 characters": "obligatorio: un texto de PixelPay de 1 a 200 caracteres",
    "PixelPay's transaction id: visible ASCII characters only":
        "el identificador de transacción de PixelPay: solo caracteres ASCII visibles",
    "required: true or false": "obligatorio: true o false",
    "a PixelPay amount: a number with at most 2 decimals": "un monto de PixelPay: un número con 2 decimales como máximo",
    "a 3-letter currency code PixelPay writes (HNL, USD)": "un código de moneda de 3 letras como lo escribe PixelPay (HNL, USD)",
    "a PixelPay date: YYYY-MM-DD": "una fecha de PixelPay: AAAA-MM-DD",
    "a PixelPay time: HH:MM:SS": "una hora de PixelPay: HH:MM:SS",
    "PixelPay's notification carries no payment hash.": "La notificación de PixelPay no trae el hash del pago.",
    "PixelPay refused the status call (HTTP {}): {}": "PixelPay rechazó la consulta de estado (HTTP {0}): {1}",
    "PixelPay's status answer lacks {}: nothing is confirmed.":
        "A la respuesta de estado de PixelPay le falta {0}: no se confirma nada.",
    "PixelPay's status answer is about another transaction: nothing is confirmed.":
        "La respuesta de estado de PixelPay es de otra transacción: no se confirma nada.",
    "PixelPay signs a void with the merchant user's e-mail: set it on the gateway":
        "PixelPay firma una anulación con el correo del usuario del comercio: indíquelo en la pasarela",
    "PixelPay refused the void (HTTP {}): {}": "PixelPay rechazó la anulación (HTTP {0}): {1}",
}

PIXELPAY_LABELS_EN: dict[str, str] = {
    "order_id": "Order (payment link)",
    "payment_uuid": "PixelPay transaction",
    "response_approved": "Approved",
    "transaction_approved_amount": "Approved amount",
    "transaction_amount": "Transaction amount",
    "order_currency": "Order currency",
    "transaction_date": "Transaction date",
    "transaction_time": "Transaction time",
    "userEmail": "Merchant user's e-mail",
}

PIXELPAY_LABELS_ES: dict[str, str] = {
    "order_id": "Orden (enlace de pago)",
    "payment_uuid": "Transacción de PixelPay",
    "response_approved": "Aprobada",
    "transaction_approved_amount": "Monto aprobado",
    "transaction_amount": "Monto de la transacción",
    "order_currency": "Moneda de la orden",
    "transaction_date": "Fecha de la transacción",
    "transaction_time": "Hora de la transacción",
    "userEmail": "Correo del usuario del comercio",
}
