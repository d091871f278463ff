"""The card gateways' field labels (issue 43): the fields a refusal names, PixelPay's snake_case and
Wompi's PascalCase names among them (field_labels.py takes them in; the gateways' phrases are in the
gettext catalogue, locale/es/LC_MESSAGES/api.po)."""
from __future__ import annotations

GATEWAY_LABELS_EN: dict[str, str] = {
    # pixelpay
    "order_id": "Order (payment link)",
    "payment_uuid": "PixelPay transaction",
    "response_approved": "Approved",
    "transaction_approved_amount": "Approved amount",
    "transaction_amount": "Transaction amount",
    "order_currency": "Order currency",
    "transaction_date": "Transaction date",
    "transaction_time": "Transaction time",
    "userEmail": "Merchant user's e-mail",
    # pixelpay
    # wompi (the fields of Wompi's webhook)
    'EnlacePago': "Wompi's payment link",
    'IdentificadorEnlaceComercio': "The payment link's reference",
    'IdTransaccion': "Wompi's transaction id",
    'ResultadoTransaccion': "The transaction's result",
    'Monto': 'Amount paid',
    'FechaTransaccion': "The transaction's date",
    'EsProductiva': 'Real charge (not test mode)',
    # core (a card gateway's configuration)
    'keyId': "The provider's key id (PixelPay Key ID, Wompi App ID)",
    'mode': 'Mode (test or production)',
    'endpoint': "The merchant's own PixelPay address",
    'feePercent': "The provider's fee rate",
    'feeFixed': "The provider's fixed fee",
    'feeTaxRate': "The tax rate on the provider's fee",
    'feeAccountId': "The fee's expense account",
    # books
    'payoutDate': 'Payout date',
}

GATEWAY_LABELS_ES: dict[str, str] = {
    # pixelpay
    "order_id": "Orden (enlace de pago)",
    "payment_uuid": "Transacción de PixelPay",
    "response_approved": "Aprobada",
    "transaction_approved_amount": "Monto aprobado",
    "transaction_amount": "Monto de la transacción",
    "order_currency": "Moneda de la orden",
    "transaction_date": "Fecha de la transacción",
    "transaction_time": "Hora de la transacción",
    "userEmail": "Correo del usuario del comercio",
    # pixelpay
    # wompi (the fields of Wompi's webhook)
    'EnlacePago': 'Enlace de pago de Wompi',
    'IdentificadorEnlaceComercio': 'Referencia del enlace de pago',
    'IdTransaccion': 'Identificador de la transacción de Wompi',
    'ResultadoTransaccion': 'Resultado de la transacción',
    'Monto': 'Monto pagado',
    'FechaTransaccion': 'Fecha de la transacción',
    'EsProductiva': 'Cobro real (no de prueba)',
    # core (a card gateway's configuration)
    'keyId': 'Identificador de la llave del proveedor (Key ID de PixelPay, App ID de Wompi)',
    'mode': 'Modo (prueba o producción)',
    'endpoint': 'Dirección propia del comercio en PixelPay',
    'feePercent': 'Porcentaje de comisión del proveedor',
    'feeFixed': 'Comisión fija del proveedor',
    'feeTaxRate': 'Tasa del impuesto sobre la comisión',
    'feeAccountId': 'Cuenta de gastos de la comisión',
    # books
    'payoutDate': 'Fecha de la liquidación',
}
