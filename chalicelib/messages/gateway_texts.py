"""The card gateways' words in the catalogue (issue 43): the Spanish of what the gateways' use
cases, adapters and formats answer (PixelPay, Wompi, the configuration, links, notifications,
fees, payouts, refunds), and the labels of the fields a refusal names (PixelPay's snake_case and
Wompi's PascalCase names among them): messages/es.py and field_labels.py take them in."""
from __future__ import annotations

GATEWAY_PHRASES: dict[str, str] = {
    # pixelpay
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
    # books
    "the gateway's payment method moves no bank account": "el método de pago de la pasarela no mueve ninguna cuenta bancaria",
    "must differ from the gateway's clearing account": "debe ser distinta de la cuenta de compensación de la pasarela",
    "more than the gateway's clearing account holds": "más de lo que tiene la cuenta de compensación de la pasarela",
    "at most {}, what the gateway's clearing account holds":
        "como máximo {0}, lo que tiene la cuenta de compensación de la pasarela",
    # pixelpay
    # wompi
    "The payment gateway refused the request.": "La pasarela de pago rechazó la solicitud.",
    "must be true or false": "debe ser true o false",
    "required: a number": "obligatorio: un número",
    "Wompi refused the App ID and API Secret: {}": "Wompi rechazó el App ID y el API Secret: {0}",
    "Wompi refused the request: {}": "Wompi rechazó la solicitud: {0}",
    "Wompi answered a transaction this service cannot read: {}":
        "Wompi respondió con una transacción que este servicio no puede leer: {0}",
    # core
    "A payment of live={} through a gateway in {} mode.": "Un pago con live={0} por una pasarela en modo {1}.",
    "No notification of this transaction through this gateway.":
        "No hay notificación de esta transacción por esta pasarela.",
    "The gateway cannot collect this document: its clearing account is in {}, the document in {}.":
        "La pasarela no puede cobrar este documento: su cuenta de compensación está en {0}, el documento en {1}.",
    "The payment gateway did not answer in time; try again.":
        "La pasarela de pago no respondió a tiempo; inténtelo de nuevo.",
    "The payment of {} is not the {} the link asks for.": "El pago de {0} no es el monto de {1} que pide el enlace.",
    "its bank account is in {}; {} takes {}": "su cuenta bancaria está en {0}; {1} acepta {2}",
    "its clearing account is in {}, the document in {}": "su cuenta de compensación está en {0}, el documento en {1}",
    "must be an active expense account": "debe ser una cuenta de gastos activa",
    "must have a bank account: the gateway's clearing account, where its payments wait for the provider's payout":
        "debe tener una cuenta bancaria: la cuenta de compensación de la pasarela, donde sus pagos esperan la "
        "liquidación del proveedor",
    "only a PixelPay merchant has an endpoint of its own": "solo un comercio de PixelPay tiene un endpoint propio",
    "required when the gateway charges a fee: the expense account its fees are booked to":
        "obligatoria cuando la pasarela cobra una comisión: la cuenta de gastos a la que se cargan sus comisiones",
    "{} is a retired format: create a PixelPay or Wompi gateway instead":
        "{0} es un formato retirado: cree en su lugar una pasarela PixelPay o Wompi",
    # fixbooks
    "The payment's card fee withdrawal is matched to a statement line of the clearing account: unmatch that line "
    "first.":
        "El retiro de la comisión de tarjeta del pago está vinculado a una línea del estado de cuenta de la cuenta de "
        "compensación: desvincule esa línea primero.",
    "Only an owner or administrator may cancel a card payment: cancelling it refunds the money at the payment "
    "gateway.":
        "Solo un propietario o un administrador puede anular un pago con tarjeta: anularlo devuelve el dinero en la "
        "pasarela de pago.",
    # fixconfig
    "must be an https address of PixelPay by its name: pixelpay.app or one of its subdomains":
        "debe ser una dirección https de PixelPay por su nombre: pixelpay.app o uno de sus subdominios",
    "required again when the endpoint, the mode or the Key ID changes: the secret goes where they point":
        "obligatorio de nuevo cuando cambia el endpoint, el modo o el Key ID: el secreto va adonde ellos indican",
    # fixnotify
    "Send the body as application/json or application/x-www-form-urlencoded.":
        "Envíe el cuerpo como application/json o application/x-www-form-urlencoded.",
    "the gateway has no secret: enter it again": "la pasarela no tiene su clave secreta: ingrésela de nuevo",
    "The gateway cannot collect this document: {} takes {}, the document is in {}.":
        "La pasarela no puede cobrar este documento: {0} acepta {1}, el documento está en {2}.",
    "{} takes {}, the document is in {}": "{0} acepta {1}, el documento está en {2}",
}

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
