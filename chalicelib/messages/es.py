"""The API's Spanish catalogue (Honduras, El Salvador): the same codes and validation kinds as
en.py, and PHRASES: each English phrase the service writes (a template: `{}` is a part filled in
at run time) with its Spanish, where `{0}`, `{1}`... place those parts. The wording follows the
console's Spanish (cliente o proveedor, partida, catálogo de cuentas, ejercicio fiscal, bodega,
método de pago, rango CAI, anular); DTE matters speak of Hacienda (El Salvador's tax authority)."""
from __future__ import annotations

from chalicelib.messages.bank_statement_phrases import BANK_STATEMENT_PHRASES

# catalogue(lang).FIELD_LABELS: both languages' labels live side by side in field_labels.py
from chalicelib.messages.field_labels import ES as FIELD_LABELS  # noqa: F401
from chalicelib.messages.gateway_texts import GATEWAY_PHRASES
from chalicelib.messages.month_end_texts import MONTH_END_PHRASES

CODES: dict[str, str] = {
    "BAD_REQUEST": "El servicio no puede procesar la solicitud.",
    "VALIDATION_ERROR":
        "Falta un campo, parámetro de consulta o cabecera, o su valor no es válido (el detalle indica cuál).",
    "MALFORMED_JSON": "El cuerpo de la solicitud no es JSON válido.",
    "DOCUMENT_TOO_LARGE": "La transacción del documento superaría los 100 registros que admite DynamoDB.",
    "REQUEST_TOO_LARGE": "El cuerpo de la solicitud supera 1 MB, o 5,5 MB en POST /imports.",
    "INVALID_ACCOUNT": "La cuenta de una línea o de una regla no existe, está inactiva o no es de último nivel.",
    "CONTROL_ACCOUNT":
        "La cuenta es de control de un auxiliar (cuentas por cobrar, por pagar, inventario, anticipos de clientes o a "
        "proveedores, impuesto de ventas o de compras, retenciones o una cuenta bancaria, cuya cuenta contable lleva "
        "también los pagos de su pasarela): solo la mueven los documentos, pagos, ajustes y saldos iniciales, y "
        "ningún otro auxiliar la toma.",
    "UNBALANCED_ENTRY": "La partida está descuadrada: el total del debe y el del haber no son iguales.",
    "ACCOUNT_RULE_MISSING": "Ninguna regla de determinación indica la cuenta en la que se contabiliza la operación.",
    "ACCOUNT_HAS_POSTINGS":
        "La cuenta tiene movimientos contabilizados: su tipo ya no puede cambiar, no se puede eliminar y no puede pasar "
        "a ser la cuenta contable de una cuenta bancaria ni la cuenta de control de un auxiliar.",
    "ACCOUNT_HAS_CHILDREN": "La cuenta tiene subcuentas.",
    "ACCOUNT_IN_USE": "La cuenta está en uso en reglas de determinación o en cuentas bancarias.",
    "AUTOMATIC_ENTRY": "Una partida automática solo cambia a través de su documento o pago.",
    "ENTRY_NOT_DRAFT": "Solo una partida en borrador se puede modificar, contabilizar o eliminar.",
    "ENTRY_NOT_POSTED": "Solo una partida contabilizada se puede revertir.",
    "INVALID_ENTRY_STATUS": "El estado de la partida no permite esta acción.",
    "PERIOD_CLOSED": "La fecha cae en un período contable cerrado o en un ejercicio fiscal cerrado.",
    "FISCAL_YEAR_STATUS":
        "El estado del ejercicio fiscal no permite esta acción (solo se cierra un ejercicio abierto y solo se reabre "
        "uno cerrado).",
    "FISCAL_YEAR_ORDER": "Los ejercicios se cierran en orden y se reabren del más reciente al más antiguo.",
    "PERIOD_NOT_OPEN": "Solo se puede cerrar un período abierto.",
    "PERIOD_NOT_CLOSED": "Solo se puede reabrir un período cerrado.",
    "INVALID_DOCUMENT_STATUS": "El estado del documento no permite esta acción.",
    "REPORT_NOT_FOR_COUNTRY": "El informe corresponde a otro país (los libros de ISV son de Honduras).",
    "DTE_SIGNING_KEY_MISSING": "La empresa de El Salvador no tiene la clave de firma con la que se firman sus DTE.",
    "DTE_AUTHORITY_CREDENTIALS_MISSING":
        "La empresa de El Salvador no tiene la contraseña de la API de Hacienda con la que se transmiten sus DTE.",
    "DTE_INVALIDATION_REJECTED": "Hacienda rechazó la invalidación del DTE (sus observaciones están en el detalle).",
    "DTE_NOT_TRANSMITTED": "Hacienda aún no ha respondido a este DTE (o nunca se le transmitió).",
    "REPORT_TEMPLATE_NOT_FOUND": "La plantilla de informe indicada no existe (GET /report-templates las lista).",
    "REPORT_TEMPLATE_MISMATCH": "La plantilla de informe imprime otro tipo de registro.",
    "DOCUMENT_NOT_CANCELLABLE": "El tipo o el estado del documento no permite anularlo.",
    "DOCUMENT_NOT_UNCONFIRMABLE": "Solo las facturas de compra (103) pueden volver a borrador.",
    "DOCUMENT_NOT_DELETABLE": "Solo se puede eliminar un borrador.",
    "DOCUMENT_HAS_PAYMENTS": "El documento tiene pagos: anúlelos primero.",
    "DOCUMENT_HAS_CREDIT_NOTES": "Hay notas de crédito que corrigen el documento: anúlelas primero.",
    "DOCUMENT_NOT_PAYABLE": "El tipo o el estado del documento no admite pagos, o no tiene saldo pendiente.",
    "INSUFFICIENT_STOCK": "Una línea saca más de lo que hay en existencia en la bodega en su fecha o en una fecha posterior.",
    "CREDIT_LIMIT_EXCEEDED": "El saldo por cobrar del cliente superaría su límite de crédito.",
    "CREDIT_BLOCKED": "El cliente tiene documentos vencidos y el control de crédito lo bloquea.",
    "CAI_MISSING": "Ningún rango CAI cubre la serie de este documento fiscal de Honduras.",
    "CAI_EXHAUSTED": "El rango CAI ya no tiene números disponibles.",
    "CAI_EXPIRED": "Ya pasó la fecha límite de emisión del rango CAI.",
    "AMOUNT_EXCEEDS_PENDING": "El pago supera el saldo pendiente del documento.",
    "AMOUNT_MISMATCH": "El pago por la pasarela no es el monto que pide su enlace de cobro.",
    "CASH_CONDITION_UNMET": "Con una condición de contado el monto completo se paga de una sola vez.",
    "PAYMENT_METHOD_INACTIVE": "El método de pago está inactivo o fue eliminado.",
    "INVALID_PAYMENT_STATUS": "El estado del pago no permite esta acción.",
    "ADVANCE_NOT_AVAILABLE": "El documento de origen no tiene anticipo disponible para aplicar.",
    "ADVANCE_ALREADY_APPLIED": "El anticipo ya está aplicado: deshaga primero las aplicaciones.",
    "CURRENCY_MISMATCH": "La moneda de la pasarela (la de su cuenta de compensación, o la de un pago) no es la del documento.",
    "PAYMENT_GATEWAY_INACTIVE": "La pasarela de pago está inactiva.",
    "PAYMENT_LINK_EXPIRED": "El enlace de cobro ya no se puede pagar.",
    "BANK_ACCOUNT_IN_USE":
        "La cuenta bancaria tiene movimientos: ese campo ya no puede cambiar y la cuenta no se puede eliminar.",
    "BANK_TRANSACTION_RECONCILED": "Un movimiento bancario conciliado no se puede modificar.",
    "INVALID_RECONCILIATION_STATUS": "El estado de la conciliación no permite esta acción.",
    "RECONCILIATION_UNBALANCED": "El saldo según el banco y el saldo conciliado calculado no coinciden.",
    "RECORD_IN_USE": "Otros registros usan este método o condición.",
    "WEBHOOK_INACTIVE": "El webhook está inactivo: actívelo para probarlo o reenviar entregas.",
    "CHANNEL_UNSUPPORTED": "El documento no se puede enviar por ese canal.",
    "EMAIL_ADDRESS_REFUSED": "La dirección de correo electrónico no puede recibir correo.",
    "CURRENT_PASSWORD_WRONG": "La contraseña actual indicada no es la del usuario.",
    "LAST_OWNER": "El último propietario activo no se puede cambiar de rol, desactivar ni quitar.",
    "INVITATION_INVALID": "El enlace de invitación no es válido.",
    "INVITATION_EXPIRED": "La invitación venció.",
    "INVITATION_USED": "La invitación ya fue aceptada, reemplazada por otra más reciente o retirada.",
    "INVITATION_PASSWORD_WRONG": "Una cuenta existente acepta la invitación con su propia contraseña actual.",
    "INVITATION_PENDING": "El usuario aún no ha aceptado la invitación.",
    "INVITATION_NOT_PENDING": "El usuario ya aceptó la invitación.",
    # issue 39: rates
    "EXCHANGE_RATE_OUT_OF_RANGE":
        "El tipo de cambio enviado se aparta del registrado por la empresa para la fecha más de lo que admite su "
        "tolerancia, o no hay uno registrado: solo un usuario con permiso de contabilidad puede enviarlo.",
    "AUTHENTICATION_REQUIRED": "Se requiere autenticación: no hay cookie de sesión ni clave API.",
    "INVALID_CREDENTIALS":
        "El correo electrónico o la contraseña son incorrectos, o no hay una empresa activa a la cual ingresar.",
    "INVALID_SESSION": "La sesión no existe, venció o ya terminó.",
    "INVALID_API_KEY": "La clave API tiene un formato incorrecto, no existe, es incorrecta o fue revocada.",
    "API_KEY_EXPIRED": "Ya pasó la fecha de vencimiento de la clave API.",
    "API_KEY_NO_USER": "La clave API no está respaldada por un propietario o administrador activo.",
    "INVALID_SIGNATURE": "La firma de la notificación de la pasarela no es correcta.",
    "SIGNATURE_REQUIRED": "La notificación de la pasarela no trae firma.",
    "PERMISSION_DENIED": "Su rol no permite esta acción.",
    "CSRF_ORIGIN": "El origen de la solicitud (Origin o Referer) no está en la lista de permitidos.",
    "CSRF_NO_ORIGIN": "Una solicitud que modifica datos llegó sin cabecera Origin ni Referer y sin clave API.",
    "CSRF_API_KEY_ERROR": "No se pudo verificar la clave API (falla del almacenamiento); intente de nuevo.",
    "WEB_SESSION_REQUIRED": "Esta operación solo está disponible en la aplicación web, no con una clave API.",
    "API_KEY_MANAGEMENT_FORBIDDEN": "Las claves API no se pueden administrar con una clave API.",
    "API_KEY_DELETE_FORBIDDEN": "DELETE no está disponible solo con una clave API.",
    "COMPANY_MISMATCH": "La solicitud indica una empresa distinta de la de sus credenciales.",
    "DOCUMENT_NOT_EDITABLE": "Un documento confirmado o anulado no se puede editar.",
    "NOT_FOUND": "El recurso no existe en la empresa, o la ruta no existe.",
    "METHOD_NOT_ALLOWED": "La ruta existe, pero no admite este método; la cabecera Allow indica los que admite.",
    "NOT_ACCEPTABLE": "La ruta no puede responder en el formato que pide la cabecera Accept.",
    "UNSUPPORTED_MEDIA_TYPE": "El cuerpo de la solicitud no es application/json.",
    "CONFLICT": "La solicitud choca con otra.",
    "VERSION_CONFLICT": "If-Match indica una versión anterior: vuelva a leer el registro e intente de nuevo.",
    "DUPLICATE_CODE": "Otro producto u otra sucursal ya usa ese código.",
    "ACCOUNT_CODE_TAKEN": "Otra cuenta ya usa ese código.",
    "EMAIL_TAKEN": "Ya existe un usuario con ese correo electrónico.",
    "USER_ALREADY_MEMBER": "El usuario ya es miembro de la empresa.",
    "CAI_RANGE_OVERLAP": "El rango se traslapa con otro rango de la misma serie o con números ya emitidos.",
    "PERIOD_OVERLAP": "El período se traslapa con otro período.",
    "DELIVERY_IN_PROGRESS": "La entrega del webhook se está intentando en este momento.",
    "IDEMPOTENCY_KEY_REUSED": "La Idempotency-Key ya se usó para otra solicitud.",
    "RATE_LIMIT_EXCEEDED":
        "Demasiadas solicitudes o intentos fallidos de inicio de sesión; la cabecera Retry-After indica cuándo "
        "reintentar.",
    "INTERNAL_ERROR":
        "Ocurrió un error interno; el identificador de la cabecera X-Request-Id permite encontrarlo en los registros.",
    "EMAIL_NOT_SENT": "El servicio de correo no aceptó el mensaje.",
    "EMAIL_REJECTED": "El servicio de correo rechazó el mensaje.",
    "SERVICE_UNAVAILABLE": "Un servicio del que depende la API no está disponible; intente más tarde.",
    "CONCURRENT_UPDATE": "La operación chocó repetidamente con cambios simultáneos; intente de nuevo.",
    "EMAIL_SERVICE_BUSY": "El servicio de correo está limitando los envíos; intente más tarde.",
    "PAYMENT_DEFERRED": "El pago de la pasarela aún no se puede registrar; la pasarela lo reintentará.",
    # issue 38: hnids
    "DUPLICATE_TAX_ID": "Otro cliente o proveedor de la empresa ya tiene ese número de identificación tributaria.",
    # issue 39: fixed
    "COMPANY_HAS_POSTINGS":
        "La empresa ya tiene registros en su contabilidad o movimientos de inventario: su moneda y su país ya no "
        "se pueden cambiar.",
    # issue 39: years
    "FISCAL_YEAR_NOT_ENDED": "Un ejercicio fiscal solo se cierra después de su último día.",
    # issue 39: control
    "CONTROL_ACCOUNT_HAS_BALANCE":
        "La regla o la cuenta bancaria no puede dejar su cuenta de control mientras esa cuenta tenga saldo.",
    # issue 39: settle
    "NOTHING_TO_SETTLE": "Al fin del período las cuentas de impuestos no tienen nada que liquidar.",
    "TAX_SETTLEMENT_OVERLAP":
        "El período de la liquidación termina antes de la fecha de la liquidación anterior, o mientras tanto se "
        "registró otra.",
    # issue 40: returns
    "DTE_RETURN_WINDOW_CLOSED":
        "El evento de retorno (DTE 18) se aplica a una FE, FEXE o FSEE con sello de recepción, dentro de los 3 meses "
        "siguientes a su fecha de generación.",
    "DTE_RETURN_EXCEEDS_DOCUMENT":
        "Los retornos del DTE excederían sus líneas (cantidad o monto), o retornan una línea que el DTE no lleva.",
    # issue 40: invalidation
    "DTE_INVALIDATION_REPLACEMENT_REQUIRED":
        "El tipo de invalidación (1 o 3) requiere emitir primero el DTE que reemplaza al invalidado, aceptado por "
        "Hacienda, e indicarlo en la solicitud.",
    "DTE_INVALIDATION_REPLACEMENT_NOT_ALLOWED":
        "La invalidación no lleva documento que reemplace: una operación rescindida (tipo 2), o un tipo que se "
        "invalida primero y se emite de nuevo después (nota de crédito, comprobante de liquidación, evento de "
        "retorno o de operaciones especiales).",
    "DTE_INVALIDATION_WINDOW_CLOSED":
        "Terminó el plazo que Hacienda da para invalidar el DTE (el detalle indica su sello y el plazo): no se "
        "envió nada.",
    "DTE_INVALIDATION_BLOCKED":
        "Hay documentos validados por Hacienda contra este DTE (sus notas de crédito o débito, un evento de "
        "retorno) que deben invalidarse primero (el detalle los indica).",
    # issue 41: jobs
    "PAYLOAD_TOO_LARGE": "El archivo supera los 4 MB (decodificado): divídalo en archivos más pequeños.",
    "IMPORT_NOT_READY":
        "La importación no se puede ejecutar: solo una prueba sin problemas (lista) o una importación detenida por "
        "una falla.",
    # issue 41: fixjobs
    "IMPORT_INVALID": "El archivo no se puede importar: cada problema indica su fila y su columna.",
    "COMPANY_NOT_EMPTY":
        "Esta empresa ya tiene registros: el respaldo de una empresa se restaura en una empresa nueva y vacía.",
    # issue 42: imports
    "STATEMENT_INVALID":
        "El estado de cuenta no se puede importar: no se puede leer, o sus líneas no suman de su saldo inicial a su "
        "saldo final.",
    "STATEMENT_CURRENCY_MISMATCH": "El estado de cuenta está en otra moneda que la cuenta bancaria.",
    # issue 42: match
    "STATEMENT_LINE_NOT_UNMATCHED": "Solo una línea del estado de cuenta sin vincular se puede vincular o ignorar.",
    "STATEMENT_LINE_NOT_MATCHED": "Solo una línea del estado de cuenta vinculada se puede desvincular.",
    "STATEMENT_LINE_NOT_IGNORED": "Solo una línea del estado de cuenta ignorada se puede restaurar.",
    "STATEMENT_LINE_RECONCILED": "La línea no se puede desvincular: su transacción bancaria ya está en una conciliación completada.",
    "BANK_TRANSACTION_ALREADY_MATCHED": "La transacción bancaria ya está vinculada a una línea del estado de cuenta.",
    "MATCH_AMOUNT_MISMATCH": "Lo que mueve el vínculo difiere del monto de la línea.",
    # issue 43: wompi
    "GATEWAY_PROVIDER_ERROR": "La pasarela de pago rechazó la solicitud.",
    # issue 43: core
    "MODE_MISMATCH": "Un pago real por una pasarela en modo de prueba, o un pago de prueba por una en producción.",
    "GATEWAY_UNAVAILABLE": "El proveedor de la pasarela de pago no respondió a tiempo; no se decidió nada: inténtelo de nuevo.",
    # issue 44: attachments
    "ATTACHMENT_LIMIT_REACHED": "El registro ya tiene 10 adjuntos, el máximo: elimine uno primero.",
    "ATTACHMENT_RECORD_NOT_DRAFT": "Solo se pueden eliminar los adjuntos de un borrador: un documento o una partida en borrador, una línea del estado de cuenta sin conciliar.",
    # issue 44: budgets
    "BUDGET_NAME_TAKEN": "Otro presupuesto del mismo año ya tiene ese nombre.",
    # issue 44: reval
    "REVALUATION_EXISTS": "Ya existe una revaluación de esta fecha.",
    # issue 44: dims
    "DIMENSION_LIMIT_REACHED": "Una empresa tiene como máximo 5 dimensiones: desactive una y reutilícela.",
    "DIMENSION_NAME_TAKEN": "Otra dimensión ya tiene ese nombre.",
    "DIMENSION_VALUE_TAKEN": "Otro valor de la dimensión ya tiene ese nombre o código.",
}

# issue 42: fiximport. The last "or" of a list of choices pydantic writes (literal_error's `expected`)
OR = " o "

KINDS: dict[str, str] = {
    "no_such_attribute": "el objeto no tiene el atributo '{attribute}'",
    "json_invalid": "JSON no válido: {error}",
    "json_type": "la entrada JSON debe ser texto o bytes",
    "needs_python_object": "no se puede verificar `{method_name}` al validar desde JSON",
    "recursion_loop": "error de recursión: referencia cíclica",
    "recursion_depth_exceeded": "error de recursión: se superó la profundidad máxima de validación",
    "missing": "obligatorio",
    "frozen_field": "el campo no se puede modificar",
    "frozen_instance": "la instancia no se puede modificar",
    "extra_forbidden": "campo desconocido",
    "invalid_key": "las claves deben ser texto",
    "get_attribute_error": "error al obtener el atributo: {error}",
    "model_type": "debe ser un objeto",
    "model_attributes_type": "debe ser un objeto",
    "dataclass_type": "debe ser un objeto o una instancia de {class_name}",
    "dataclass_exact_type": "debe ser una instancia de {class_name}",
    "named_tuple_type": "debe ser una tupla, lista, objeto o instancia de {class_name}",
    "default_factory_not_called": "no se calculó el valor predeterminado porque hubo otro error de validación",
    "none_required": "debe ser null",
    "greater_than": "debe ser mayor que {gt}",
    "greater_than_equal": "debe ser mayor o igual que {ge}",
    "less_than": "debe ser menor que {lt}",
    "less_than_equal": "debe ser menor o igual que {le}",
    "multiple_of": "debe ser múltiplo de {multiple_of}",
    "finite_number": "debe ser un número finito",
    "too_short": "debe tener al menos {min_length} elemento(s), no {actual_length}",
    "too_long": "debe tener como máximo {max_length} elemento(s), no {actual_length}",
    "iterable_type": "debe ser una lista",
    "iteration_error": "error al recorrer los elementos: {error}",
    "string_type": "debe ser texto",
    "string_unicode": "debe ser texto Unicode válido",
    "string_too_short": "debe tener al menos {min_length} carácter(es)",
    "string_too_long": "debe tener como máximo {max_length} carácter(es)",
    "string_pattern_mismatch": "debe cumplir el formato '{pattern}'",
    "string_not_ascii": "solo debe contener caracteres ASCII",
    "enum": "debe ser uno de: {expected}",
    "dict_type": "debe ser un objeto",
    "frozen_dict_type": "debe ser un objeto",
    "ordered_dict_type": "debe ser un objeto",
    "counter_type": "debe ser un objeto",
    "mapping_type": "debe ser un objeto: {error}",
    "list_type": "debe ser una lista",
    "deque_type": "debe ser una lista",
    "tuple_type": "debe ser una lista",
    "set_type": "debe ser un conjunto",
    "set_item_not_hashable": "los elementos del conjunto deben ser valores simples",
    "bool_type": "debe ser verdadero o falso (true o false)",
    "bool_parsing": "debe ser verdadero o falso (true o false); no se pudo interpretar el valor",
    "int_type": "debe ser un número entero",
    "int_parsing": "debe ser un número entero; el texto no se pudo interpretar como entero",
    "int_parsing_size": "el número entero es demasiado grande",
    "int_from_float": "debe ser un número entero, sin decimales",
    "float_type": "debe ser un número",
    "float_parsing": "debe ser un número; el texto no se pudo interpretar como número",
    "bytes_type": "debe ser una secuencia de bytes",
    "bytes_too_short": "debe tener al menos {min_length} byte(s)",
    "bytes_too_long": "debe tener como máximo {max_length} byte(s)",
    "bytes_invalid_encoding": "debe ser {encoding} válido: {encoding_error}",
    "value_error": "valor no válido",
    "assertion_error": "valor no válido",
    "literal_error": "debe ser uno de: {expected}",
    "missing_sentinel_error": "debe ser el centinela 'MISSING'",
    "ellipsis_error": "debe ser el literal 'Ellipsis'",
    "date_type": "debe ser una fecha válida",
    "date_parsing": "debe ser una fecha válida con el formato AAAA-MM-DD",
    "date_from_datetime_parsing": "debe ser una fecha o una fecha y hora válida",
    "date_from_datetime_inexact": "una fecha y hora enviada como fecha debe tener la hora en cero",
    "date_past": "debe ser una fecha pasada",
    "date_future": "debe ser una fecha futura",
    "time_type": "debe ser una hora válida",
    "time_parsing": "debe ser una hora con formato válido",
    "datetime_type": "debe ser una fecha y hora válida",
    "datetime_parsing": "debe ser una fecha y hora válida",
    "datetime_object_invalid": "fecha y hora no válida: {error}",
    "datetime_from_date_parsing": "debe ser una fecha y hora o una fecha válida",
    "datetime_past": "debe estar en el pasado",
    "datetime_future": "debe estar en el futuro",
    "timezone_naive": "no debe incluir zona horaria",
    "timezone_aware": "debe incluir la zona horaria",
    "timezone_offset": "se requiere la diferencia horaria {tz_expected}, no {tz_actual}",
    "time_delta_type": "debe ser una duración válida",
    "time_delta_parsing": "debe ser una duración válida",
    "frozen_set_type": "debe ser un conjunto",
    "is_instance_of": "debe ser una instancia de {class}",
    "is_subclass_of": "debe ser una subclase de {class}",
    "callable_type": "debe ser invocable",
    "union_tag_invalid":
        "la etiqueta '{tag}' de {discriminator} no coincide con ninguna de las esperadas: {expected_tags}",
    "union_tag_not_found": "no se pudo obtener la etiqueta con el discriminador {discriminator}",
    "arguments_type": "los argumentos deben ser una tupla, una lista o un objeto",
    "missing_argument": "falta un argumento obligatorio",
    "unexpected_keyword_argument": "argumento con nombre inesperado",
    "missing_keyword_only_argument": "falta un argumento con nombre obligatorio",
    "unexpected_positional_argument": "argumento posicional inesperado",
    "missing_positional_only_argument": "falta un argumento posicional obligatorio",
    "multiple_argument_values": "se recibieron varios valores para el argumento",
    "url_type": "debe ser una URL",
    "url_parsing": "debe ser una URL válida",
    "url_syntax_violation": "la URL no cumple las reglas estrictas de sintaxis",
    "url_too_long": "la URL debe tener como máximo {max_length} carácter(es)",
    "url_scheme": "el esquema de la URL debe ser {expected_schemes}",
    "uuid_type": "debe ser un UUID",
    "uuid_parsing": "debe ser un UUID válido",
    "uuid_version": "se esperaba un UUID de la versión {expected_version}",
    "decimal_type": "debe ser un número decimal",
    "decimal_parsing": "debe ser un número decimal válido",
    "decimal_max_digits": "debe tener como máximo {max_digits} dígito(s) en total",
    "decimal_max_places": "debe tener como máximo {decimal_places} decimal(es)",
    "decimal_whole_digits": "debe tener como máximo {whole_digits} dígito(s) antes del punto decimal",
    "fraction_type": "debe ser un número entero, decimal, texto o fracción",
    "fraction_parsing": "no es una fracción válida",
    "complex_type": "debe ser un número complejo válido",
    "complex_str_parsing": "debe ser un número complejo válido en texto",
}

# the service's own phrases: first the messages, then the field problems (a detail's message)
PHRASES: dict[str, str] = {
    "A cancelled document takes no advance.": "Un documento anulado no recibe anticipos.",
    "A cash document is paid once, for its whole total.":
        "Un documento de contado se paga una sola vez, por su total completo.",
    "A cash document takes its whole pending from the advance, or one payment.":
        "Un documento de contado toma todo su saldo pendiente del anticipo, o se paga en un solo pago.",
    "A company keeps at least one active owner: make someone else an owner before demoting, deactivating or removing "
    "this one.":
        "Una empresa conserva al menos un propietario activo: haga propietario a otro usuario antes de cambiarle el "
        "rol, desactivar o quitar a este.",
    "A date of this operation in {} falls in a closed accounting period or fiscal year.":
        "Una fecha de esta operación en {0} cae en un período contable o ejercicio fiscal cerrado.",
    "A mutating request needs an Origin or Referer header (or an API key).":
        "Una solicitud que modifica datos necesita la cabecera Origin o Referer (o una clave API).",
    "A record would exceed DynamoDB's 400 KB item size; shorten it or split it.":
        "Un registro superaría el tamaño máximo de 400 KB de DynamoDB; acórtelo o divídalo.",
    "A user with this e-mail already exists.": "Ya existe un usuario con este correo electrónico.",
    "API key not found.": "No se encontró la clave API.",
    "API keys cannot be managed with an API key; use the web app.":
        "Las claves API no se pueden administrar con una clave API; use la aplicación web.",
    "Account not found.": "No se encontró la cuenta.",
    "Account {} is inactive: the closing entry posts to it. Activate it to close the year.":
        "La cuenta {0} está inactiva y la partida de cierre se registra en ella. Actívela para cerrar el ejercicio.",
    "Accounting period not found.": "No se encontró el período contable.",
    "Advances are taken in the company's currency; this {} is in {}: invoice it and pay the invoice.":
        "Los anticipos se reciben en la moneda de la empresa; este documento ({0}) está en {1}: facture el documento "
        "y pague la factura.",
    "Advances on this {} may not exceed its total {}; {} is left.":
        "Los anticipos de este documento ({0}) no pueden superar su total de {1}; quedan {2}.",
    "An API key has the form KEY_ID:SECRET.": "Una clave API tiene la forma KEY_ID:SECRET.",
    "An El Salvador DTE is sent to the tax authority with the company's API password: set it first (PUT "
    "/companies/{id}/dte-authority-credentials).":
        "Un DTE de El Salvador se transmite a Hacienda con la contraseña de API de la empresa: configúrela primero "
        "(PUT /companies/{id}/dte-authority-credentials).",
    "An El Salvador DTE is signed with the company's key: upload it first (PUT /companies/{id}/dte-signing-key).":
        "Un DTE de El Salvador se firma con la clave de la empresa: súbala primero (PUT "
        "/companies/{id}/dte-signing-key).",
    "An El Salvador electronic tax document (DTE) is invalidated at the tax authority, not cancelled here: once "
    "accepted, POST /documents/{id}/invalidate.":
        "Un documento tributario electrónico (DTE) de El Salvador no se anula aquí, se invalida ante Hacienda: una "
        "vez aceptado, use POST /documents/{id}/invalidate.",
    "An El Salvador electronic tax document (DTE) is not unconfirmed: once accepted, invalidate it (POST "
    "/documents/{id}/invalidate).":
        "Un documento tributario electrónico (DTE) de El Salvador no vuelve a borrador: una vez aceptado, invalídelo "
        "(POST /documents/{id}/invalidate).",
    "An automatic entry is reversed by cancelling what created it (its document or payment).":
        "Una partida automática se revierte anulando lo que la originó (su documento o pago).",
    "An entry posts at most {} records (one per line and two per account); split it into several entries.":
        "Una partida registra como máximo {0} registros (uno por línea y dos por cuenta); divídala en varias partidas.",
    "An internal error occurred.": "Ocurrió un error interno.",
    "Another account already uses the code {}.": "Otra cuenta ya usa el código {0}.",
    "Another branch already uses the establishment code {}.": "Otra sucursal ya usa el código de establecimiento {0}.",
    "Another product already uses the code {}.": "Otro producto ya usa el código {0}.",
    "Another request is invalidating this document; send it again.":
        "Otra solicitud está invalidando este documento; envíe su solicitud de nuevo.",
    "Authentication required: log in or send an API key.":
        "Se requiere autenticación: inicie sesión o envíe una clave API.",
    "Bank account not found.": "No se encontró la cuenta bancaria.",
    "Business partners use this payment condition; give them another one first.":
        "Hay clientes o proveedores que usan esta condición de pago; asígneles otra primero.",
    "Company not found.": "No se encontró la empresa.",
    "Credit notes correct this document; cancel them first.":
        "Hay notas de crédito que corrigen este documento; anúlelas primero.",
    "DELETE is not available with an API key; use the web app, or the cancel and reverse operations.":
        "DELETE no está disponible con una clave API; use la aplicación web, o las operaciones de anulación y "
        "reversión.",
    "Debits ({}) and credits ({}) differ by {}.": "El debe ({0}) y el haber ({1}) difieren en {2}.",
    'Documents can only be sent by e-mail ("{}"), not "{}".':
        'Los documentos solo se pueden enviar por correo electrónico ("{0}"), no por "{1}".',
    "Documents of type {} ({}) cannot be cancelled once confirmed; only credit and debit notes (06, 07, 105, 106) and "
    "imports (104) can (any draft can).":
        "Los documentos de tipo {0} ({1}) no se pueden anular una vez confirmados; solo se pueden anular las notas de "
        "crédito y de débito (06, 07, 105, 106) y las importaciones (104) (y cualquier borrador).",
    "Delivery not found.": "No se encontró la entrega.",
    "Document not found.": "No se encontró el documento.",
    "E-mail or password is wrong.": "El correo electrónico o la contraseña son incorrectos.",
    "Invoices already took {} of this document's advances; cancel those applications first.":
        "Las facturas ya aplicaron {0} de los anticipos de este documento; anule primero esas aplicaciones.",
    "Journal entry not found.": "No se encontró la partida.",
    "Method not allowed on this path.": "Método no permitido en esta ruta.",
    "No account determination rule applies.": "No aplica ninguna regla de determinación de cuentas.",
    "No fiscal year {}: years run from {} to {}.":
        "No existe el ejercicio fiscal {0}: los ejercicios van de {1} a {2}.",
    "No such file in the console.": "Ese archivo no existe en la consola.",
    "No {} with that id.": "No se encontró ese id como {0}.",
    "Nothing is left to refund: the credit note was applied or refunded whole.":
        "No queda nada por reembolsar: la nota de crédito ya se aplicó o se reembolsó por completo.",
    "Nothing to apply: no advance is available on the source document.":
        "No hay nada que aplicar: el documento de origen no tiene anticipo disponible.",
    "Nothing to apply: the document is paid.": "No hay nada que aplicar: el documento ya está pagado.",
    "Numbers up to {} of type {} were already issued without a CAI range; start the range after them.":
        "Ya se emitieron números hasta el {0} del tipo {1} sin rango CAI; inicie el rango después de ellos.",
    "Only a confirmed El Salvador document whose DTE the tax authority accepted can be invalidated; this one is {}, "
    "its DTE {}.":
        "Solo se puede invalidar un documento confirmado de El Salvador cuyo DTE haya aceptado Hacienda; este está "
        "{0:m} y su DTE está {1:m}.",
    "Only a confirmed El Salvador document whose DTE the tax authority accepted can be invalidated; this one is {}.":
        "Solo se puede invalidar un documento confirmado de El Salvador cuyo DTE haya aceptado Hacienda; este está "
        "{0:m}.",
    "Only a credit note (06, 105) is refunded, not type {} ({}).":
        "Solo se reembolsa una nota de crédito (06, 105), no el tipo {0} ({1}).",
    "Only a draft can be deleted; cancel or credit a confirmed document.":
        "Solo se puede eliminar un borrador; un documento confirmado se anula o se corrige con una nota de crédito.",
    "Only a draft can be edited; this document is {}.":
        "Solo se puede editar un borrador; este documento está {0:m}.",
    "Only a draft can be posted; this entry is {}.":
        "Solo se puede contabilizar una partida en borrador; esta partida está {0:f}.",
    "Only a draft document can be edited.": "Solo se puede editar un documento en borrador.",
    "Only a draft reconciliation can be {}; this one is {}.":
        "Solo una conciliación en borrador puede ser {0:f}; esta está {1:f}.",
    "Only a pending payment can be confirmed; this one is {}.":
        "Solo se puede confirmar un pago pendiente; este está {0:m}.",
    "Only a posted entry can be reversed; this entry is {}.":
        "Solo se puede revertir una partida contabilizada; esta partida está {0:f}.",
    "Only a {} document can be {}; this one is {}.":
        "Solo un documento {0:m} puede ser {1:m}; este está {2:m}.",
    "Only an owner can change, deactivate or remove an owner.":
        "Solo un propietario puede cambiar, desactivar o quitar a otro propietario.",
    "Only an owner can make someone an owner.": "Solo un propietario puede hacer propietario a otro usuario.",
    "Only owners and administrators can create API keys: a key acts with their authority.":
        "Solo los propietarios y administradores pueden crear claves API: una clave actúa con la autoridad de quien "
        "la crea.",
    "Only purchase invoices (103) can be unconfirmed, not type {}.":
        "Solo las facturas de compra (103) pueden volver a borrador, no el tipo {0}.",
    "Only quotes, orders and deliveries (100, 101, 102, 112) take advances, not type {} ({}).":
        "Solo las cotizaciones, pedidos, órdenes de compra y entregas (100, 101, 102, 112) reciben anticipos, no el "
        "tipo {0} ({1}).",
    "Only {} of advance is available on document {}.": "Solo hay {0} de anticipo disponible en el documento {1}.",
    "Payment link not found.": "No se encontró el enlace de cobro.",
    "Payment links of this gateway may still be paid or notified; deactivate it instead.":
        "Los enlaces de cobro de esta pasarela aún pueden pagarse o notificarse; desactívela en lugar de eliminarla.",
    "Payment not found.": "No se encontró el pago.",
    "Reconciliation not found.": "No se encontró la conciliación.",
    "Report template {} ({}) prints a {}, not a {}.":
        "La plantilla de informe {0} ({1}) imprime registros de tipo {2}, no {3}.",
    "Resource not found.": "No se encontró el recurso.",
    "Send the body as application/json.": "Envíe el cuerpo como application/json.",
    "The API key has expired.": "La clave API venció.",
    "The API key is invalid or has been revoked.": "La clave API no es válida o fue revocada.",
    "The API key is not bound to an active owner or administrator of its company.":
        "La clave API no está vinculada a un propietario o administrador activo de su empresa.",
    "The Authorization header must be `Bearer KEY_ID:SECRET`.":
        "La cabecera Authorization debe ser `Bearer KEY_ID:SECRET`.",
    "The CAI range has no numbers left.": "El rango CAI ya no tiene números disponibles.",
    "The CAI range's issue deadline has passed.": "Ya pasó la fecha límite de emisión del rango CAI.",
    "The account has postings: its type can no longer change and it cannot be deleted.":
        "La cuenta tiene movimientos contabilizados: su tipo ya no puede cambiar y no se puede eliminar.",
    "The account has sub-accounts: {}.": "La cuenta tiene subcuentas: {0}.",
    "The account has transactions or reconciliations; deactivate it instead.":
        "La cuenta tiene movimientos o conciliaciones; desactívela en lugar de eliminarla.",
    "The account is used by determination rules or bank accounts: {}.":
        "La cuenta está en uso en reglas de determinación o en cuentas bancarias: {0}.",
    "The adjustment would change more than {} records in one transaction; split its lines into several adjustments (a "
    "count line that matches the stock writes nothing).":
        "El ajuste modificaría más de {0} registros en una sola transacción; divida sus líneas en varios ajustes (una "
        "línea de conteo igual a la existencia no registra nada).",
    "The amount {} exceeds the pending total {}.": "El monto {0} supera el saldo pendiente de {1}.",
    "The cleared balance {} differs from the statement balance {} by {}.":
        "El saldo conciliado calculado, {0}, difiere del saldo según el banco, {1}, en {2}.",
    "The company's DTE signing key is gone: upload it again.":
        "La clave de firma de DTE de la empresa ya no está disponible: súbala de nuevo.",
    "The company's tax authority credentials are gone: set them again.":
        "Las credenciales de Hacienda de la empresa ya no están disponibles: configúrelas de nuevo.",
    "The credentials could not be validated right now; retry.":
        "Las credenciales no se pudieron validar en este momento; intente de nuevo.",
    "The current password is wrong.": "La contraseña actual es incorrecta.",
    "The database is throttling this company's requests; retry in a moment.":
        "La base de datos está limitando las solicitudes de esta empresa; intente de nuevo en un momento.",
    "The date falls in a closed accounting period.": "La fecha cae en un período contable cerrado.",
    "The delivery changed meanwhile; try again.": "La entrega cambió mientras tanto; intente de nuevo.",
    "The delivery is still being attempted; redeliver it once it has finished.":
        "La entrega todavía se está intentando; reenvíela cuando haya terminado.",
    "The document cannot be collected: {}.": "El documento no se puede cobrar: {0}.",
    "The document has payments or applications; cancel them first.":
        "El documento tiene pagos o aplicaciones; anúlelos primero.",
    "The document holds advances of {}; cancel those payments first.":
        "El documento tiene anticipos por {0}; anule primero esos pagos.",
    "The document holds advances of {}; its {} cannot change.":
        "El documento tiene anticipos por {0}; su campo {1} no puede cambiar.",
    "The document's effects (stock items, movements and journal postings) would exceed {} records in one transaction; "
    "split it into several documents.":
        "Los efectos del documento (existencias, movimientos y líneas de partida) superarían {0} registros en una "
        "sola transacción; divídalo en varios documentos.",
    "The draft has payments on record (cancelled ones too); cancel it instead.":
        "El borrador tiene pagos registrados (incluso anulados); cancélelo en lugar de eliminarlo.",
    "The e-mail service did not accept the message; nothing was sent.":
        "El servicio de correo no aceptó el mensaje; no se envió nada.",
    "The e-mail service is busy; nothing was sent. Retry shortly.":
        "El servicio de correo está ocupado; no se envió nada. Intente de nuevo en breve.",
    "The e-mail service refused the recipient address; nothing was sent.":
        "El servicio de correo rechazó la dirección del destinatario; no se envió nada.",
    "The e-mail service rejected the message (is the sender address verified?); nothing was sent.":
        "El servicio de correo rechazó el mensaje (¿está verificada la dirección del remitente?); no se envió nada.",
    "The fiscal year {} is {}: reopen it first.": "El ejercicio fiscal {0} está {1:m}: reábralo primero.",
    "The fiscal year {} is {}; only a closed year is reopened.":
        "El ejercicio fiscal {0} está {1:m}; solo se reabre un ejercicio cerrado.",
    "The fiscal year {} is {}; only an open year is closed.":
        "El ejercicio fiscal {0} está {1:m}; solo se cierra un ejercicio abierto.",
    "The gateway's payment method is deleted or inactive.":
        "El método de pago de la pasarela fue eliminado o está inactivo.",
    "The notification's signature does not match.": "La firma de la notificación no coincide.",
    "The operation would change more than 100 records in one transaction.":
        "La operación modificaría más de 100 registros en una sola transacción.",
    "The payment cannot be registered yet ({}: {}); send it again later.":
        "El pago aún no se puede registrar ({0}: {1}); envíelo de nuevo más tarde.",
    "The payment gateway is inactive.": "La pasarela de pago está inactiva.",
    "The payment is already cancelled.": "El pago ya está anulado.",
    "The payment is in {}, the link in {}.": "El pago está en {0} y el enlace de cobro en {1}.",
    "The payment link expired at {}, before the payment.": "El enlace de cobro venció el {0}, antes del pago.",
    "The payment method is inactive.": "El método de pago está inactivo.",
    "The period is already {}.": "El período ya está en estado {0}.",
    "The period overlaps period {} ({} to {}).": "El período se traslapa con el período {0} ({1} a {2}).",
    "The range overlaps CAI range {} ({}-{}) of the same branch, emission point and type.":
        "El rango se traslapa con el rango CAI {0} ({1}-{2}) de la misma sucursal, punto de emisión y tipo.",
    "The request body is larger than {} KB.": "El cuerpo de la solicitud supera los {0} KB.",
    "The request body is not valid JSON.": "El cuerpo de la solicitud no es JSON válido.",
    "The request could not be processed.": "No se pudo procesar la solicitud.",
    "The request is invalid.": "La solicitud no es válida.",
    "The request names another company than the one of your credentials.":
        "La solicitud indica una empresa distinta de la de sus credenciales.",
    "The request's Origin is not allowed.": "El Origin de la solicitud no está permitido.",
    "The resource changed; reload it and retry.": "El recurso cambió; vuelva a cargarlo e intente de nuevo.",
    "The resource was changed by someone else; reload it and send the current version.":
        "Otra persona modificó el recurso; vuelva a cargarlo y envíe la versión actual.",
    "The service is busy; retry shortly.": "El servicio está ocupado; intente de nuevo en breve.",
    "The session has ended; log in again.": "La sesión terminó; inicie sesión de nuevo.",
    "The session is invalid or has expired; log in again.": "La sesión no es válida o venció; inicie sesión de nuevo.",
    "The sum of debits must equal the sum of credits.": "El total del debe tiene que ser igual al total del haber.",
    "The tax authority did not answer; nothing was invalidated. Send it again.":
        "Hacienda no respondió; no se invalidó nada. Envíelo de nuevo.",
    "The tax authority has not answered this DTE yet: it is sent again every hour; ask again once it is accepted.":
        "Hacienda aún no ha respondido a este DTE: se le envía de nuevo cada hora; consúltelo otra vez cuando lo "
        "haya aceptado.",
    "The tax authority refused the invalidation.": "Hacienda rechazó la invalidación.",
    "The tax authority's format refuses this document: {}: {}":
        "El formato de Hacienda rechaza este documento: {0}: {1}",
    "The tax authority's format refuses this invalidation: {}: {}":
        "El formato de Hacienda rechaza esta invalidación: {0}: {1}",
    "The transfer would change more than {} records in one transaction; split its lines into several transfers.":
        "El traslado modificaría más de {0} registros en una sola transacción; divida sus líneas en varios traslados.",
    "The user has not accepted the invitation yet: resend it or remove the user.":
        "El usuario aún no ha aceptado la invitación: reenvíela o quite al usuario.",
    "The webhook is inactive; activate it first.": "El webhook está inactivo; actívelo primero.",
    "The {} header is required.": "La cabecera {0} es obligatoria.",
    "The {} must be a JSON object.": "La sección {0} de la solicitud debe ser un objeto JSON.",
    "There is no report template {}; GET /report-templates lists them.":
        "No existe la plantilla de informe {0}; GET /report-templates las lista.",
    "This Idempotency-Key was already used with a different request.":
        "Esta Idempotency-Key ya se usó con una solicitud diferente.",
    "This DTE was issued before the tax authority's formats and was never sent to it.":
        "Este DTE se emitió antes de los formatos de Hacienda y nunca se le transmitió.",
    "This document is not an El Salvador DTE.": "Este documento no es un DTE de El Salvador.",
    "This company has no DTE signing key.": "Esta empresa no tiene clave de firma de DTE.",
    "This company has no tax authority credentials.": "Esta empresa no tiene credenciales de Hacienda.",
    "This invitation can no longer be used: it was already accepted, replaced by a newer invitation or withdrawn.":
        "Esta invitación ya no se puede usar: ya fue aceptada, reemplazada por una invitación más reciente o retirada.",
    "This invitation has expired; ask for a new one.": "Esta invitación venció; solicite una nueva.",
    "This invitation link is not valid; check that it was copied whole.":
        "Este enlace de invitación no es válido; verifique que se haya copiado completo.",
    "This operation is only available in the web app.": "Esta operación solo está disponible en la aplicación web.",
    "This route answers {}: send the header Accept: {}.": "Esta ruta responde {0}: envíe la cabecera Accept: {1}.",
    "This user has already accepted the invitation.": "Este usuario ya aceptó la invitación.",
    "This user is already a member of the company.": "Este usuario ya es miembro de la empresa.",
    "Too many concurrent changes to the same records; retry.":
        "Demasiados cambios simultáneos en los mismos registros; intente de nuevo.",
    "Too many requests for this API key; retry later.": "Demasiadas solicitudes con esta clave API; intente más tarde.",
    "User not found.": "No se encontró el usuario.",
    "Webhook not found.": "No se encontró el webhook.",
    "You already have an account: type its current password to accept the invitation.":
        "Usted ya tiene una cuenta: escriba su contraseña actual para aceptar la invitación.",
    "You do not have permission to do this.": "No tiene permiso para realizar esta acción.",
    "Your role ({}) may not do this.": "Su rol ({0}) no permite esta acción.",
    "{} cannot change once the account has transactions.":
        "{0} no puede cambiar una vez que la cuenta tiene movimientos.",
    "{} not found.": "No se encontró el registro ({0}).",
    "{}-{} falls in a closed accounting period or fiscal year.":
        "{0}-{1} cae en un período contable o ejercicio fiscal cerrado.",
    "{}: the transaction is already reconciled.": "{0}: el movimiento ya está conciliado.",
    "{}: {}": "{0}: {1}",
    "1 to 255 visible ASCII characters": "de 1 a 255 caracteres ASCII visibles",
    "a book spans at most {} days (books are monthly)":
        "un libro abarca como máximo {0} días (los libros son mensuales)",
    "a cash condition has no credit days": "una condición de contado no tiene días de crédito",
    "a credit condition needs at least 1 credit day": "una condición de crédito necesita al menos 1 día de crédito",
    "a credit note is refunded in money: give the payment method":
        "una nota de crédito se reembolsa en dinero: indique el método de pago",
    "a line carries either a debit or a credit, greater than zero":
        "cada línea lleva un monto al debe o al haber, mayor que cero",
    "a line {} carries no tax: its tax rate is 0":
        "una línea con tratamiento {0} no lleva impuesto: su tasa de impuesto es 0",
    "a period spans at most {} calendar years": "un período abarca como máximo {0} años calendario",
    "a public key: send the private key": "es una clave pública: envíe la clave privada",
    "a purchase from a supplier without an NRC is a factura de sujeto excluido, which carries no IVA: set the lines' "
    "IVA to 0, or register the supplier's NRC":
        "una compra a un proveedor sin NRC es una factura de sujeto excluido, que no lleva IVA: ponga en 0 el IVA "
        "de las líneas, o registre el NRC del proveedor",
    "a reversal cannot be dated before the entry ({})":
        "una reversión no puede tener fecha anterior a la partida ({0})",
    "a search is paged by page, not by cursor": "una búsqueda se pagina con page, no con cursor",
    "a sub-account has its parent's type ({})": "una subcuenta tiene el tipo de su cuenta madre ({0})",
    "a taxed line needs a tax rate above 0": "una línea gravada necesita una tasa de impuesto mayor que 0",
    "a withholding certificate carries no tax: its lines are the amounts withheld":
        "un comprobante de retención no lleva impuesto: sus líneas son los montos retenidos",
    "a withholding on {} is with a {}; this partner is a {}":
        "una retención sobre {0} corresponde al tipo {1}; este cliente o proveedor es de tipo {2}",
    "a {} document needs a {}; this partner is a {}":
        "un documento de {0} requiere el tipo {1}; este cliente o proveedor es de tipo {2}",
    "account {} is inactive": "la cuenta {0} está inactiva",
    "already a member of this company": "ya es miembro de esta empresa",
    "already reconciled": "ya está conciliado",
    "already reconciled by reconciliation {}": "ya está conciliado en la conciliación {0}",
    "already registered": "ya está registrado",
    "already used by another account": "ya lo usa otra cuenta",
    "already used by another branch": "ya lo usa otra sucursal",
    "already used by another product": "ya lo usa otro producto",
    "an El Salvador DTE is dated the day it is issued: {}, not {}":
        "un DTE de El Salvador lleva la fecha del día en que se emite: {0}, no {1}",
    "an ISO 8601 timestamp with its time zone": "una fecha y hora ISO 8601 con su zona horaria",
    "an account cannot be placed under itself or its sub-accounts":
        "una cuenta no puede colocarse bajo sí misma ni bajo sus subcuentas",
    "an advance is money: give the payment method": "un anticipo es dinero: indique el método de pago",
    "an opening stock only adds: {} are already on hand": "un inventario inicial solo agrega: ya hay {0} en existencia",
    "at least one debit line and one credit line": "al menos una línea al debe y una al haber",
    "at most 0": "como máximo 0",
    "at most 2 decimal places": "como máximo 2 decimales",
    "at most {}": "como máximo {0}",
    "at most {} transactions per reconciliation": "como máximo {0} movimientos por conciliación",
    "automatic capture applies to types 103, 105 and 106": "la captura automática aplica a los tipos 103, 105 y 106",
    "both accounts must have the same currency": "ambas cuentas deben tener la misma moneda",
    "credit limit exceeded": "límite de crédito excedido",
    "credit notes may not exceed their document's total {} (already credited: {})":
        "las notas de crédito no pueden superar el total de su documento, {0} (ya acreditado: {1})",
    "damage only takes away: {} are on hand": "mermas y daños solo quitan existencias: hay {0} en existencia",
    "debits {} != credits {}": "debe {0} != haber {1}",
    "falls in a closed accounting period or fiscal year": "cae en un período contable o ejercicio fiscal cerrado",
    "finds more than {}: type more of the number or the name":
        "encuentra más de {0}: escriba más del número o del nombre",
    "inactive": "inactivo",
    "insufficient stock": "existencias insuficientes",
    "invalid or expired cursor": "cursor no válido o vencido",
    "is a control account behind {}: only documents, payments, adjustments and opening balances move it":
        "es una cuenta de control de {0}: solo la mueven los documentos, pagos, ajustes y saldos iniciales",
    "its bank account is in {}, the document in {}": "su cuenta bancaria está en {0} y el documento en {1}",
    "its payment method is inactive": "su método de pago está inactivo",
    "must be 1 (or left out) for the company's own currency {}":
        "debe ser 1 (u omitirse) para la moneda propia de la empresa, {0}",
    "must be a JSON object": "debe ser un objeto JSON",
    "must be a quote, order or delivery note (100, 101, 102, 112): only those take advances":
        "debe ser una cotización, pedido, orden de compra o entrega (100, 101, 102, 112): solo esos reciben anticipos",
    "must be above {}": "debe ser mayor que {0}",
    "must be an active asset account": "debe ser una cuenta de activo que esté activa",
    "must be greater than 0": "debe ser mayor que 0",
    "must be greater than 0 and at most {}": "debe ser mayor que 0 y como máximo {0}",
    "must be in the future": "debe ser una fecha futura",
    "must be one of {} for a company in {}": "debe ser uno de {0} para una empresa de {1}",
    "must be the resource's version number": "debe ser el número de versión del recurso",
    "must be the source document's currency {}": "debe ser la moneda del documento de origen, {0}",
    "must be {}": "debe ser {0}",
    "must be {}, with no earlier payment": "debe ser {0}, sin pagos anteriores",
    "must differ from the source account": "debe ser distinta de la cuenta origen",
    "must differ from the source warehouse": "debe ser distinta de la bodega de origen",
    "must differ from the bank's own ledger account":
        "debe ser distinta de la cuenta contable de la propia cuenta bancaria",
    "must name an active payment method": "debe indicar un método de pago activo",
    "must not be after the end date": "no debe ser posterior a la fecha final",
    "must not be after its end date": "no debe ser posterior a su fecha final",
    "must not be before the start date": "no debe ser anterior a la fecha inicial",
    "must not be before the account's opening balance date ({})":
        "no debe ser anterior a la fecha del saldo inicial de la cuenta ({0})",
    "must not be before the document date": "no debe ser anterior a la fecha del documento",
    "must not be before the document's date {}": "no debe ser anterior a la fecha del documento, {0}",
    "must not be before the payment's date {}": "no debe ser anterior a la fecha del pago, {0}",
    "must not be before the statement date of the last completed reconciliation ({})":
        "no debe ser anterior a la fecha del estado de cuenta de la última conciliación completada ({0})",
    "must not be below the range's first number": "no debe ser menor que el primer número del rango",
    "must not be negative": "no debe ser negativo",
    "must not be zero": "no debe ser cero",
    "must not exceed the line amount {}": "no debe superar el monto de la línea, {0}",
    "no such account": "la cuenta no existe",
    "no such branch": "la sucursal no existe",
    "no such business partner": "el cliente o proveedor no existe",
    "no such document": "el documento no existe",
    "no such payment condition": "la condición de pago no existe",
    "no such payment gateway": "la pasarela de pago no existe",
    "no such payment method": "el método de pago no existe",
    "no such product": "el producto no existe",
    "no such stocked product: it is a service or does not track inventory":
        "no es un producto con existencias: es un servicio o no controla inventario",
    "no such warehouse": "la bodega no existe",
    "no such {}": "no existe ({0})",
    "no usable CAI range for this branch and type": "no hay un rango CAI utilizable para esta sucursal y tipo",
    "not a valid date or timestamp": "no es una fecha ni una fecha y hora válida",
    "not an RSA private key in PEM": "no es una clave privada RSA en formato PEM",
    "not the account's current password": "no es la contraseña actual de la cuenta",
    "numbers up to {} were already issued": "ya se emitieron números hasta el {0}",
    "one of {}": "uno de: {0}",
    'only "{}" is supported': 'solo se admite "{0}"',
    "only an El Salvador sales invoice carries it, not a {}":
        "solo lo lleva una factura de venta de El Salvador, no el tipo {0}",
    "an El Salvador export invoice (DTE 11) carries export lines only: issue the taxed, exempt or non-subject "
    "lines on an invoice of their own":
        "una factura de exportación de El Salvador (DTE 11) lleva solo líneas de exportación: emita las líneas "
        "gravadas, exentas o no sujetas en una factura aparte",
    "an export sale is to a customer abroad: set the customer's country (ISO 3166 code, not SV)":
        "una venta de exportación es a un cliente en el exterior: indique el país del cliente (código ISO 3166, "
        "distinto de SV)",
    "only a withholding certificate (05) carries it, not a {}":
        "solo lo lleva un comprobante de retención (05), no el tipo {0}",
    "only purchase documents carry it, not a {}": "solo lo llevan los documentos de compra, no el tipo {0}",
    "only sales documents carry it, not a {}": "solo lo llevan los documentos de venta, no el tipo {0}",
    "exonerations are Honduran; the company is in {}": "las exoneraciones son de Honduras; la empresa es de {0}",
    "give at least one of the exempt purchase order's, the exoneration certificate's or the SAG registry's number":
        "indique al menos uno: el número de orden de compra exenta, el de constancia de registro de exonerado o el de "
        "registro de la SAG",
    "a document under an exoneration carries no ISV: its lines are exonerated (ISV 0)":
        "un documento con exoneración no lleva ISV: sus líneas son exoneradas (ISV 0)",
    "overlaps period {}": "se traslapa con el período {0}",
    "overlaps range {}": "se traslapa con el rango {0}",
    "page * limit may not exceed {}; use cursor to go deeper":
        "page * limit no puede superar {0}; use cursor para avanzar más",
    "refused by the e-mail service": "rechazado por el servicio de correo",
    "required for a line without a product": "obligatorio en una línea sin producto",
    "required for a partner that is both customer and supplier: receivable (the customer owes) or payable (the "
    "company owes)":
        "obligatorio para quien es cliente y proveedor a la vez: receivable (por cobrar: el cliente debe) o payable "
        "(por pagar: la empresa debe)",
    "required for an opening stock": "obligatorio para un inventario inicial",
    "required: a refund is made by a payment method": "obligatorio: un reembolso se hace por un método de pago",
    "required: a string of 1 to 200 characters": "obligatorio: un texto de 1 a 200 caracteres",
    "required: an El Salvador comprobante de retención names the purchase (103 or 11) the IVA was withheld from":
        "obligatorio: un comprobante de retención de El Salvador indica la compra (103 u 11) de la que se retuvo el "
        "IVA",
    "required: an advance is paid by a payment method": "obligatorio: un anticipo se paga por un método de pago",
    "required: an object": "obligatorio: un objeto",
    "required: no exchange rate of {} on or before {}; send it, or record one with POST /exchange-rates":
        "obligatorio: no hay tipo de cambio de {0} en o antes del {1}; envíelo, o registre uno con POST "
        "/exchange-rates",
    "required: a payment method, a credit note or a withholding certificate":
        "obligatorio: un método de pago, una nota de crédito o un comprobante de retención",
    "required: the document has no source document": "obligatorio: el documento no tiene documento de origen",
    "required: the document moves stock and the company has no default warehouse":
        "obligatorio: el documento mueve existencias y la empresa no tiene bodega predeterminada",
    "required: the product has no average cost yet": "obligatorio: el producto aún no tiene costo promedio",
    "required: type 1 is replaced by another DTE": "obligatorio: el tipo 1 se reemplaza por otro DTE",
    "send both comparison dates (from and to) together":
        "envíe juntas las dos fechas de comparación (desde y hasta)",
    "send only one of a payment method, a credit note or a withholding certificate":
        "envíe solo uno: un método de pago, una nota de crédito o un comprobante de retención",
    "the account has transactions": "la cuenta tiene movimientos",
    "the account is inactive": "la cuenta está inactiva",
    "the address is not allowed ({})": "la dirección no está permitida ({0})",
    "the authority's user is the company's NIT: set the company's NIT first":
        "el usuario ante Hacienda es el NIT de la empresa: registre primero el NIT de la empresa",
    "the bank account is inactive": "la cuenta bancaria está inactiva",
    "the business partner is inactive": "el cliente o proveedor está inactivo",
    "the chart is at most {} levels deep": "el catálogo de cuentas tiene como máximo {0} niveles",
    "the company's default {} stays active": "el registro predeterminado de la empresa ({0}) debe seguir activo",
    "the document holds advances": "el documento tiene anticipos",
    "the document total may not exceed {}": "el total del documento no puede superar {0}",
    "the goods' value may not exceed {}": "el valor de la mercadería no puede superar {0}",
    "the invitation is not accepted yet": "la invitación aún no ha sido aceptada",
    "the key has {} bits; at least {}": "la clave tiene {0} bits; se requieren al menos {1}",
    "the line amount may not exceed {}": "el monto de la línea no puede superar {0}",
    "the name resolves to a {} address": "el nombre apunta a una dirección no permitida ({0})",
    "the product is inactive": "el producto está inactivo",
    "the product is on another line (lines[{}])": "el producto ya está en otra línea (lines[{0}])",
    "the schedule would end before its first run": "la programación terminaría antes de su primera emisión",
    "the schedule would end before its next run": "la programación terminaría antes de su próxima emisión",
    "the total may not fall below the advances received ({})":
        "el total no puede ser menor que los anticipos recibidos ({0})",
    "the warehouse is inactive": "la bodega está inactiva",
    "this partner is a {}: its opening balance is {}":
        "este cliente o proveedor es de tipo {0}: su saldo inicial es {1}",
    "visible ASCII characters only": "solo caracteres ASCII visibles",
    "wrong password": "contraseña incorrecta",
    "{} (the bank statement's balance less the cleared balance); must be 0":
        "{0} (el saldo según el banco menos el saldo conciliado); debe ser 0",
    "{} failed logins per {} s": "{0} intentos fallidos de inicio de sesión cada {1} s",
    "{} is not a tax of {}": "{0} no es un impuesto de {1}",
    "{} is the company's own currency: its rate is always 1":
        "{0} es la moneda propia de la empresa: su tipo de cambio siempre es 1",
    "{} requests per {} s": "{0} solicitudes cada {1} s",
    "{} to 200 characters": "de {0} a 200 caracteres",
    "the DTE was issued without the authority's format": "el DTE se emitió sin el formato de Hacienda",
    # a DTE's field problems, "<what>: <remedy>", each part translated (countries/sv/domain/dte_formats.py)
    "missing": "falta",
    "{} is missing": "falta {0}",
    "{} is not in the authority's format ({} {})": "{0} no cumple el formato de Hacienda ({1} {2})",
    "set the company's economic activity": "indique la actividad económica de la empresa",
    "set the company's department, municipality and address":
        "indique el departamento, el municipio y la dirección de la empresa",
    "set the company's NRC": "indique el NRC de la empresa",
    "set the person responsible for the company's establishment":
        "indique la persona responsable del establecimiento de la empresa",
    "set the company's email": "indique el correo de la empresa",
    "set the company's phone": "indique el teléfono de la empresa",
    "set the company's NIT": "indique el NIT de la empresa",
    "set the customer's address": "indique la dirección del cliente",
    "set the customer's department, municipality and address":
        "indique el departamento, el municipio y la dirección del cliente",
    "set the customer's economic activity": "indique la actividad económica del cliente",
    "set the customer's economic activity code": "indique el código de actividad económica del cliente",
    "set the customer's email": "indique el correo del cliente",
    "set the customer's NRC": "indique el NRC del cliente",
    "set the customer's person type": "indique el tipo de persona (natural o jurídica) del cliente",
    "set the customer's phone": "indique el teléfono del cliente",
    "set the customer's NIT": "indique el NIT del cliente",
    "set the customer's NIT or DUI": "indique el NIT o DUI del cliente",
    "set the document's currency (USD)": "indique la moneda del documento (USD)",
    "set the export's destination country code (CAT-020)": "indique el código del país de destino (CAT-020)",
    "set the export's destination country": "indique el país de destino",
    "the DTE was issued without the customer's NIT or DUI, which its invalidation needs":
        "el DTE se emitió sin el NIT o DUI del cliente, que su invalidación necesita",
    "the DTE was issued without the customer's email, which its invalidation needs":
        "el DTE se emitió sin el correo del cliente, que su invalidación necesita",
    "the DTE was issued without the customer's name, which its invalidation needs":
        "el DTE se emitió sin el nombre del cliente, que su invalidación necesita",
    # the Ministerio de Hacienda's catalogues (countries/sv/domain/dte_catalogues.py)
    "{} is not in the authority's catalogue CAT-012": "{0} no está en el catálogo CAT-012 de Hacienda",
    "{} is not in the authority's catalogue CAT-013 for department {}":
        "{0} no está en el catálogo CAT-013 de Hacienda para el departamento {1}",
    "{} is not in the authority's catalogue {}": "{0} no está en el catálogo {1} de Hacienda",
    "must be a date YYYY-MM-DD": "debe ser una fecha AAAA-MM-DD",
    "must be a date between 1900 and 2999": "debe ser una fecha entre 1900 y 2999",
    "send either the change in quantity or the counted quantity, not both":
        "envíe el cambio de cantidad o la cantidad contada, no ambos",
    "the exoneration is removed: send the lines again, with the tax they carry without it":
        "se quita la exoneración: envíe de nuevo las líneas, con el impuesto que llevan sin ella",
    # issue 38: notes
    "required: the sales invoice (01) or reservation invoice (113) this credit note corrects":
        "obligatorio: la factura (01) o factura de reserva (113) que corrige esta nota de crédito",
    "required: the sales invoice (01) or reservation invoice (113) this debit note corrects":
        "obligatorio: la factura (01) o factura de reserva (113) que corrige esta nota de débito",
    "required: the purchase invoice (103) or import (104) this purchase credit note corrects":
        "obligatorio: la factura de compra (103) o importación (104) que corrige esta nota de crédito de compra",
    "required: the purchase invoice (103) or import (104) this purchase debit note corrects":
        "obligatorio: la factura de compra (103) o importación (104) que corrige esta nota de débito de compra",
    # issue 38: lang (whole sentences where a filled-in part used to carry English; the subledgers
    # a control account stands behind, placed in Spanish inside "es una cuenta de control de {0}")
    "No account determination rule for operation {} for document type {}.":
        "No hay regla de determinación de cuentas para la operación {0} en el tipo de documento {1}.",
    "No account determination rule for operation {}.": "No hay regla de determinación de cuentas para la operación {0}.",
    "The {} books are for companies of {} (the company's country is {}).":
        "Los libros de {0} son de las empresas de {1} (el país de la empresa es {2}).",
    "Too many failed logins for this address; retry later.":
        "Demasiados intentos fallidos de inicio de sesión desde esta dirección; intente más tarde.",
    "no rule for {}": "no hay regla para {0}",
    "no rule for {} for document type {}": "no hay regla para {0} en el tipo de documento {1}",
    "the customers' balances": "los saldos de los clientes",
    "the suppliers' balances": "los saldos de los proveedores",
    "the stock's value": "el valor de las existencias",
    "bank account {}'s transactions (its opening balance: a deposit against the opening balance equity account)":
        "los movimientos de la cuenta bancaria {0} (su saldo inicial: un depósito contra la cuenta de patrimonio de "
        "saldos iniciales)",
    # a `problem` a refusal quotes in its message and its detail (they answered "valor no válido")
    "a document does not replace itself": "un documento no se reemplaza a sí mismo",
    "a payment link collects a sales document a customer owes; this one is {} ({})":
        "un enlace de cobro cobra un documento de venta que un cliente adeuda; este es {0} ({1})",
    "belongs to another business partner": "pertenece a otro cliente o proveedor",
    "it certifies a withholding on {}, not on this document's side":
        "certifica una retención sobre {0}, no sobre el lado de este documento",
    "it is in {}, the document in {}": "está en {0}, el documento en {1}",
    "must be a DTE the tax authority accepted": "debe ser un DTE que Hacienda aceptó",
    "must be a document of type {}": "debe ser un documento de tipo {0}",
    "must be a customer quote, order or delivery note (100, 101, 112)":
        "debe ser una cotización, un pedido o una nota de entrega de un cliente (100, 101, 112)",
    "must be a purchase order (102)": "debe ser una orden de compra (102)",
    "nothing is pending on this document": "el documento no tiene saldo pendiente",
    "only a confirmed document can be paid; this one is {}": "solo se paga un documento confirmado; este está {0:m}",
    "only {} of it is left to apply": "solo quedan {0} por aplicar",
    "the document is {}": "el documento está {0:m}",
    "the tax authority did not answer": "Hacienda no respondió",
    # issue 38: income
    "only income, cost and expense accounts have a place in the income statement":
        "solo las cuentas de ingresos, costos y gastos tienen lugar en el estado de resultados",
    # issue 38: devx
    "The customer has documents {} days overdue, more than the {} days its credit block tolerates: collect them "
    "(or change the customer's credit block) to invoice it.":
        "El cliente tiene documentos vencidos hace {0} días, más que los {1} días que tolera su bloqueo de crédito: "
        "cóbrelos (o cambie el bloqueo de crédito del cliente) para facturarle.",
    "has documents overdue more than {} days (the customer's credit block)":
        "tiene documentos vencidos hace más de {0} días (bloqueo de crédito del cliente)",
    # issue 38: svprint
    "an export sale is a factura de exportación (DTE 11): leave the DTE type out":
        "una venta de exportación es una factura de exportación (DTE 11): no indique el tipo de DTE",
    "a comprobante de crédito fiscal (03) is issued to a registered taxpayer: set the customer's nrc or choose 01":
        "un comprobante de crédito fiscal (03) se emite a un contribuyente inscrito: indique el NRC (nrc) del "
        "cliente o elija factura (01)",
    # issue 38: paystatus
    "a list filtered by payment status is paged by page number, not by cursor":
        "una lista filtrada por estado de pago se pagina por número de página, no por cursor",
    "page * limit may not exceed {} in a list filtered by payment status":
        "página × límite no puede superar {0} en una lista filtrada por estado de pago",
    # issue 38: hnids
    "No active CAI range for document type {} (series {}) at branch {}, emission point {}: register an authorized "
    "range (POST /cai) before issuing it.":
        "No hay un rango CAI activo para el tipo de documento {0} (serie {1}) en la sucursal {2}, punto de emisión "
        "{3}: registre un rango autorizado (POST /cai) antes de emitirlo.",
    "No active CAI range for document type {} (series {}) at branch {}, at any emission point: register an "
    "authorized range (POST /cai) before issuing it.":
        "No hay un rango CAI activo para el tipo de documento {0} (serie {1}) en la sucursal {2}, en ningún punto de "
        "emisión: registre un rango autorizado (POST /cai) antes de emitirlo.",
    "Business partner {} already has the tax id {}: a customer that is also a supplier is one partner of type both.":
        "El cliente o proveedor {0} ya tiene el número de identificación tributaria {1}: un cliente que también es "
        "proveedor es un solo registro, de tipo ambos.",
    "Another business partner already has the tax id {}: a customer that is also a supplier is one partner of type "
    "both.":
        "Otro cliente o proveedor ya tiene el número de identificación tributaria {0}: un cliente que también es "
        "proveedor es un solo registro, de tipo ambos.",
    "already used by another business partner": "ya lo usa otro cliente o proveedor",
    "must be an RTN of 14 digits or a DNI of 13 digits (dashes and spaces allowed)":
        "debe ser un RTN de 14 dígitos o un DNI de 13 dígitos (se admiten guiones y espacios)",
    "must be a NIT of 14 digits or a DUI of 9 digits, with its check digit (dashes and spaces allowed)":
        "debe ser un NIT de 14 dígitos o un DUI de 9 dígitos, con su dígito verificador (se admiten guiones y espacios)",
    "the check digit does not match the other digits of the {}":
        "el dígito verificador no corresponde a los demás dígitos del {0}",
    # issue 38: labels (a purchase's DTE names the seller as its receptor)
    "set the supplier's NIT": "indique el NIT del proveedor",
    "set the supplier's NIT or DUI": "indique el NIT o DUI del proveedor",
    "set the supplier's NRC": "indique el NRC del proveedor",
    "set the supplier's economic activity code": "indique el código de actividad económica del proveedor",
    "set the supplier's economic activity": "indique la actividad económica del proveedor",
    "set the supplier's department, municipality and address":
        "indique el departamento, el municipio y la dirección del proveedor",
    "set the supplier's phone": "indique el teléfono del proveedor",
    "set the supplier's email": "indique el correo del proveedor",
    "set the supplier's address": "indique la dirección del proveedor",
    "set the supplier's person type": "indique el tipo de persona (natural o jurídica) del proveedor",
    # issue 39: fixed
    "cannot change once the company has posted to its books or moved stock":
        "no se puede cambiar una vez que la empresa tiene registros en su contabilidad o movimientos de inventario",
    # issue 39: gatelogin
    "Too many failed logins for this e-mail from this address; retry later.":
        "Demasiados intentos fallidos de inicio de sesión con este correo electrónico desde esta dirección; "
        "intente más tarde.",
    "retry in {} s": "reintente en {0} s",
    # issue 39: years
    "The fiscal year {} has not ended: it can be closed from {} (today is {}).":
        "El ejercicio fiscal {0} no ha terminado: se puede cerrar a partir del {1} (hoy es {2}).",
    "Earlier years with postings are still open: {}. Close them first, oldest first.":
        "Hay ejercicios anteriores con movimientos aún abiertos: {0}. Ciérrelos primero, del más antiguo al más "
        "reciente.",
    "{} falls on or before the last day of a closed fiscal year.":
        "{0} cae en o antes del último día de un ejercicio fiscal cerrado.",
    "falls on or before the last day of a closed fiscal year": "cae en o antes del último día de un ejercicio fiscal cerrado",
    "Another fiscal year was closed or reopened meanwhile: try again.":
        "Otro ejercicio fiscal se cerró o se reabrió mientras tanto: inténtelo de nuevo.",
    # issue 39: rates
    "no exchange rate of {} is recorded on or before {}: only a user with the accounting permission may send one "
    "(or record it with POST /exchange-rates)":
        "no hay tipo de cambio de {0} registrado en o antes del {1}: solo un usuario con permiso de contabilidad "
        "puede enviarlo (o registrarlo con POST /exchange-rates)",
    "must be between {} and {}: within {} % of the company's rate {} of {} on {}; only a user with the accounting "
    "permission may send another":
        "debe estar entre {0} y {1}: dentro del {2} % del tipo de cambio de la empresa, {3}, de {4} al {5}; solo un "
        "usuario con permiso de contabilidad puede enviar otro",
    "at this rate the amount in the company's currency ({}) would exceed {}":
        "a este tipo de cambio el importe en la moneda de la empresa ({0}) superaría {1}",
    "at this rate {} comes to 0.00 in the company's currency":
        "a este tipo de cambio {0} equivale a 0.00 en la moneda de la empresa",
    # issue 39: stock
    "Not enough stock of product {} ({}) in warehouse {} on {}: taking {} away on {} leaves {} then.":
        "No hay existencias suficientes del producto {0} ({1}) en la bodega {2} el {3}: sacar {4} el {5} deja {6} "
        "ese día.",
    # issue 39: control (the subledgers a control account stands behind, and what refuses an account)
    "the customers' advances": "los anticipos de los clientes",
    "the advances paid to suppliers": "los anticipos pagados a los proveedores",
    "the tax charged on sales (the sales tax book)": "el impuesto cobrado en las ventas (el libro de ventas)",
    "the tax paid on purchases (the purchase tax book)": "el impuesto pagado en las compras (el libro de compras)",
    "the tax withheld (the withholding certificates)": "los impuestos retenidos (los comprobantes de retención)",
    "the bank account's transactions": "los movimientos de la cuenta bancaria",
    "is a control account behind {}: a bank account needs a ledger account of its own":
        "es una cuenta de control de {0}: una cuenta bancaria necesita una cuenta contable propia",
    "has postings: a bank account's ledger account starts empty, so that it equals the bank account's transactions":
        "tiene movimientos contabilizados: la cuenta contable de una cuenta bancaria empieza vacía, para que sea igual "
        "a los movimientos de la cuenta bancaria",
    "is a control account behind {}: the account of {} stands behind nothing else":
        "es una cuenta de control de {0}: la cuenta de {1} no respalda nada más",
    "has postings: the account of {} starts empty, so that it equals its subledger":
        "tiene movimientos contabilizados: la cuenta de {0} empieza vacía, para que sea igual a su auxiliar",
    "account {} still holds {}": "la cuenta {0} todavía tiene un saldo de {1}",
    "Account {} still holds {} of {}; it can be left only once nothing is left on it.":
        "La cuenta {0} todavía tiene {1} de {2}; solo se puede dejar cuando ya no le quede nada.",
    "the account was deactivated or received postings meanwhile":
        "la cuenta se desactivó o recibió movimientos mientras tanto",
    "is a control account behind {}: what the {} rule posts would move it without its subledger":
        "es una cuenta de control de {0}: lo que contabiliza la regla {1} la movería sin su auxiliar",
    "is the account of the {} rule: what that rule posts would move a control account without its subledger":
        "es la cuenta de la regla {0}: lo que esa regla contabiliza movería una cuenta de control sin su auxiliar",
    # issue 39: settle
    "must not be before the period's end ({})": "no puede ser anterior al fin del período ({0})",
    "The previous tax settlement is dated {}: a settlement's period ends on or after it, so that nothing is settled "
    "twice.":
        "La liquidación de impuestos anterior tiene fecha {0}: el período de una liquidación termina en esa fecha o "
        "después, para que nada se liquide dos veces.",
    "must be on or after {}, the previous settlement's date":
        "debe ser igual o posterior al {0}, la fecha de la liquidación anterior",
    "On {} the tax accounts hold nothing to settle: no output tax is owed.":
        "Al {0} las cuentas de impuestos no tienen nada que liquidar: no se debe impuesto sobre ventas.",
    "On {} the tax accounts hold nothing to settle: no output tax is owed and no withholding is owed.":
        "Al {0} las cuentas de impuestos no tienen nada que liquidar: no se debe impuesto sobre ventas ni "
        "retenciones.",
    "no tax is owed at this date": "a esta fecha no se debe ningún impuesto",
    "Another tax settlement was recorded meanwhile; send this one again.":
        "Mientras tanto se registró otra liquidación de impuestos; envíe esta de nuevo.",
    "another settlement was recorded meanwhile": "mientras tanto se registró otra liquidación",
    "required: {} is to be paid": "obligatorio: hay {0} por pagar",
    "must be in the company's own currency {}, not {}": "debe estar en la moneda de la empresa, {0}, no en {1}",
    "no such bank account": "la cuenta bancaria no existe",
    "Tax settlement not found.": "No se encontró la liquidación de impuestos.",
    # issue 40: returns
    "a return event applies to a DTE the tax authority has sealed: wait for its seal":
        "el evento de retorno se aplica a un DTE que Hacienda ya selló: espere su sello de recepción",
    "a return event is issued within {} months of its DTE's generation date: the last day was {}":
        "el evento de retorno se emite dentro de los {0} meses siguientes a la fecha de generación de su DTE: el "
        "último día fue el {1}",
    "a return event returns lines of its DTE: this product is not on it":
        "el evento de retorno devuelve líneas de su DTE: este producto no está en él",
    "a return is at most the DTE's price and tax rate: {}":
        "un retorno vale como máximo el precio del DTE, con su misma tasa de impuesto: {0}",
    "the returns would exceed the DTE's line: {} left to return":
        "los retornos excederían la línea del DTE: quedan {0} por retornar",
    "the returns would exceed the amount of the DTE's line, tax included: {} left to return":
        "los retornos excederían el monto de la línea del DTE, impuesto incluido: quedan {0} por retornar",
    "a refund on a return event is of a line of its DTE with the same tax treatment and rate: none has them":
        "un reembolso en un evento de retorno corresponde a una línea de su DTE con el mismo tratamiento y tasa de "
        "impuesto: ninguna los tiene",
    # issue 39: opening
    "no determination rule for `opening_balance_equity`: set one (the equity account the opening balance is brought "
    "against) or open the account at 0":
        "no hay regla de determinación para `opening_balance_equity`: defina una (la cuenta de patrimonio contra la "
        "que se registra el saldo inicial) o abra la cuenta con saldo 0",
    # issue 40: invalidation
    "Motive {} invalidates a DTE of type {} only once the document that replaces it is issued and accepted: name "
    "that document.":
        "El tipo de invalidación {0} invalida un DTE de tipo {1} solo después de emitir el documento que lo "
        "reemplaza y de que Hacienda lo acepte: indique ese documento.",
    "required: issue the replacement first": "requerido: emita primero el documento que lo reemplaza",
    "A rescinded operation (motive 2) is invalidated without a replacing document.":
        "Una operación rescindida (tipo 2) se invalida sin documento que la reemplace.",
    "must be null for motive 2": "debe quedar vacío en el tipo 2",
    "A DTE of type {} is invalidated first and issued again after: its invalidation names no replacing document.":
        "Un DTE de tipo {0} se invalida primero y se emite de nuevo después: su invalidación no lleva documento que "
        "lo reemplace.",
    "must be null for a DTE of type {}": "debe quedar vacío en un DTE de tipo {0}",
    "Documents the tax authority validated against this DTE must be invalidated first: {}.":
        "Hay documentos validados por Hacienda contra este DTE que deben invalidarse primero: {0}.",
    "invalidate DTE {} {} first": "invalide primero el DTE {0} {1}",
    "sealed {}: the last moment was {}": "sellado el {0}: el plazo terminó el {1}",
    "A DTE of type {} is invalidated within three months of its seal: the time ended {} at 23:59:59.":
        "Un DTE de tipo {0} se invalida dentro de los tres meses siguientes a su sello: el plazo terminó el {1} a "
        "las 23:59:59.",
    "A DTE of type {} is invalidated by the 10th business day of the month after its seal: the time ended {} at "
    "23:59:59.":
        "Un DTE de tipo {0} se invalida a más tardar el décimo día hábil del mes siguiente a su sello: el plazo "
        "terminó el {1} a las 23:59:59.",
    "must be a DTE of type {}, as the one it replaces": "debe ser un DTE de tipo {0}, como el que reemplaza",
    # issue 40: sales
    "{} is not a version of the authority's formats for {}": "{0} no es una versión de los formatos de Hacienda para {1}",
    "each establishment is listed once: its code is repeated":
        "cada establecimiento se indica una sola vez: su código está repetido",
    "set the company's district": "indique el distrito de la empresa",
    "set the customer's district": "indique el distrito del cliente",
    "set the supplier's district": "indique el distrito del proveedor",
    "the 2026 DTE formats name an establishment head office (02), branch (01), warehouse (04) or yard (07): set this "
    "establishment's type":
        "los formatos DTE 2026 nombran un establecimiento casa matriz (02), sucursal (01), bodega (04) o patio (07): "
        "indique el tipo de este establecimiento",
    # issue 40: catalogues
    "{} is not in the authority's catalogue CAT-008 for municipio {} of department {}":
        "{0} no está en el catálogo CAT-008 de Hacienda para el municipio {1} del departamento {2}",
    # issue 40: fixb
    "{} debit note(s) the tax authority validated against this DTE must be invalidated first.":
        "Hay {0} nota(s) de débito validadas por Hacienda contra este DTE que deben invalidarse primero.",
    "invalidate its debit notes first": "invalide primero sus notas de débito",
    "at most {} characters in the 2026 formats": "como máximo {0} caracteres en los formatos 2026",
    "required for motive 3 (another reason)": "requerido en el tipo 3 (otro motivo)",
    # issue 40: district (one field names the place)
    "send the district or the municipality, not both: the district names its municipio":
        "envíe el distrito o el municipio, no ambos: el distrito nombra su municipio",
    "send the district with its department": "envíe el distrito con su departamento",
    "send the department with its municipality or its district": "envíe el departamento con su municipio o su distrito",
    "{} is not in the authority's catalogue CAT-008 for department {}":
        "{0} no está en el catálogo CAT-008 de Hacienda para el departamento {1}",
    # issue 41: jobs
    "is required for this kind of import (the changeover date)":
        "es obligatoria en este tipo de importación (la fecha de corte)",
    "must be the file's content in base64": "debe ser el contenido del archivo en base64",
    "the file is empty": "el archivo está vacío",
    "The file is larger than {} MB; split it into smaller files.":
        "El archivo supera los {0} MB; divídalo en archivos más pequeños.",
    "Import not found.": "No se encontró la importación.",
    "The import's status is {}: only a dry run that found no problem (ready), or an import stopped by a fault, can "
    "be run.":
        "El estado de la importación es {0}: solo se ejecuta una prueba que no encontró problemas (lista) o una "
        "importación detenida por una falla.",
    "No import template of that kind: the kinds are {}.": "No hay plantilla de importación de ese tipo: los tipos son {0}.",
    "The uploaded file is no longer kept (files are kept 7 days): upload it again.":
        "El archivo subido ya no se conserva (se conservan 7 días): súbalo de nuevo.",
    "The import stopped before it finished: it failed {} times in a row. Run it again to finish it: the rows that "
    "landed are not written twice.":
        "La importación se detuvo antes de terminar: falló {0} veces seguidas. Ejecútela de nuevo para terminarla: "
        "las filas que ya se guardaron no se escriben dos veces.",
    # issue 41: files (reading an imported CSV or XLSX: domain/import_files.py)
    "the file is a PDF, not a table: save the data as CSV UTF-8 or XLSX":
        "el archivo es un PDF, no una tabla: guarde los datos como CSV UTF-8 o XLSX",
    "the file is an Excel 97-2003 workbook (.xls) or a workbook protected with a password: save it as XLSX "
    "without a password, or as CSV UTF-8":
        "el archivo es un libro de Excel 97-2003 (.xls) o un libro protegido con contraseña: guárdelo como XLSX sin "
        "contraseña, o como CSV UTF-8",
    "the file is neither text nor an XLSX workbook: save it as CSV UTF-8 or XLSX":
        "el archivo no es texto ni un libro XLSX: guárdelo como CSV UTF-8 o XLSX",
    "the file is a web page or XML, not a table: save it as CSV UTF-8 or XLSX":
        "el archivo es una página web o XML, no una tabla: guárdelo como CSV UTF-8 o XLSX",
    "the file starts as UTF-16 or UTF-32 text but is cut or damaged: save it again as CSV UTF-8":
        "el archivo empieza como texto UTF-16 o UTF-32 pero está cortado o dañado: guárdelo de nuevo como CSV UTF-8",
    "the line has bytes that are not UTF-8 text: save the file as CSV UTF-8":
        "la línea tiene bytes que no son texto UTF-8: guarde el archivo como CSV UTF-8",
    "the line has bytes that are not text: save the file as CSV UTF-8":
        "la línea tiene bytes que no son texto: guarde el archivo como CSV UTF-8",
    "the file is a ZIP archive, not an XLSX workbook: save it as CSV UTF-8 or XLSX":
        "el archivo es un ZIP, no un libro XLSX: guárdelo como CSV UTF-8 o XLSX",
    "the XLSX workbook cannot be read (it is damaged): save it again as XLSX or CSV UTF-8":
        "el libro XLSX no se puede leer (está dañado): guárdelo de nuevo como XLSX o CSV UTF-8",
    "the file has no heading line: line 1 names the columns":
        "el archivo no tiene línea de encabezados: la línea 1 nombra las columnas",
    "the file has more than {} rows: split it into files of at most {}":
        "el archivo tiene más de {0} filas: divídalo en archivos de {1} filas como máximo",
    "a value in column {} has no heading: name the column in the heading line or leave its cells blank":
        "un valor de la columna {0} no tiene encabezado: nombre la columna en la línea de encabezados o deje sus "
        "celdas vacías",
    "required: the cell is blank": "obligatorio: la celda está vacía",
    "the heading {} is written twice": "el encabezado {0} está escrito dos veces",
    "the mapping gives {} to {}, which is not a column of this import: {}":
        "la correspondencia asigna {0} a {1}, que no es una columna de esta importación: {2}",
    "unknown column {}: the columns are {} (map it to one, or to nothing to leave it out)":
        "columna desconocida {0}: las columnas son {1} (asígnela a una, o a ninguna para omitirla)",
    "{} and {} both fill the column {}: keep one": "{0} y {1} llenan ambos la columna {2}: conserve uno",
    "the required column {} ({}) is missing": "falta la columna obligatoria {0} ({1})",
    "a quote opened on this line is not closed, or text follows a closing quote: write a quote inside a quoted "
    "cell as two quotes":
        "unas comillas abiertas en esta línea no se cierran, o hay texto después de las comillas de cierre: escriba "
        "unas comillas dentro de una celda entre comillas como dos comillas",
    # issue 41: masters
    "repeats the value of row {}": "repite el valor de la fila {0}",
    "an existing account keeps its place in the chart: move it there":
        "una cuenta existente conserva su lugar en el catálogo: muévala allí",
    # issue 41: archive
    "Export not found.": "Exportación no encontrada.",
    # issue 41: phrases (the opening kinds' cells and rules, a company archive's restore)
    "required": "obligatorio",
    "is not a number: {}": "no es un número: {0}",
    "has more than two decimals: {}": "tiene más de dos decimales: {0}",
    "is not a date (YYYY-MM-DD or DD/MM/YYYY): {}": "no es una fecha (AAAA-MM-DD o DD/MM/AAAA): {0}",
    "must be greater than zero": "debe ser mayor que cero",
    "is after the changeover date {}": "es posterior a la fecha de corte {0}",
    "is before the document's date": "es anterior a la fecha del documento",
    "the changeover date (date) is required for this kind":
        "la fecha de corte (date) es obligatoria en este tipo de importación",
    "must be customer or supplier (cliente or proveedor)":
        "debe ser cliente o proveedor (también se aceptan customer y supplier)",
    "no business partner has the tax id {}": "ningún cliente o proveedor tiene la identificación fiscal {0}",
    "the tax id is a supplier's, not a customer's: it has no invoices to collect":
        "la identificación fiscal es de un proveedor, no de un cliente: no tiene facturas por cobrar",
    "the tax id is a customer's, not a supplier's: it has no invoices to pay":
        "la identificación fiscal es de un cliente, no de un proveedor: no tiene facturas por pagar",
    "required for a document in {}: how many {} one {} was worth":
        "obligatorio en un documento en {0}: cuántos {1} valía 1 {2}",
    "repeats the open item of line {}": "repite el documento pendiente de la fila {0}",
    "the partner already has the opening document {}":
        "el cliente o proveedor ya tiene el documento de saldo inicial {0}",
    "no account has the code {}": "ninguna cuenta tiene el código {0}",
    "account {} has sub-accounts: give the balances of those":
        "la cuenta {0} tiene subcuentas: indique los saldos de estas",
    "repeats the account of line {}": "repite la cuenta de la fila {0}",
    "account {} is the opening balance equity account, which the import balances: leave it out":
        "la cuenta {0} es la de patrimonio de saldos iniciales, que la importación cuadra: omítala",
    "the trial balance does not balance: debits {}, credits {}":
        "la balanza de comprobación no cuadra: debe {0}, haber {1}",
    "account {} {}: the file says {}, the books hold {} from the open items, the opening stock and the bank "
    "accounts (import those first)":
        "cuenta {0} {1}: el archivo dice {2}, los libros tienen {3} por los documentos pendientes, el inventario "
        "inicial y las cuentas bancarias (impórtelos primero)",
    "account {} {}: the file says 0.00, the books hold {}": "cuenta {0} {1}: el archivo dice 0.00, los libros tienen {2}",
    "account {} already holds {} at the changeover date": "la cuenta {0} ya tiene un saldo de {1} a la fecha de corte",
    "no product has the code {}": "ningún producto tiene el código {0}",
    "the product {} is inactive": "el producto {0} está inactivo",
    "the product {} does not keep stock: it is a service or does not track inventory":
        "el producto {0} no lleva existencias: es un servicio o no controla inventario",
    "no such warehouse: {}": "la bodega no existe: {0}",
    "the warehouse {} is inactive": "la bodega {0} está inactiva",
    "repeats the product and warehouse of line {}": "repite el producto y la bodega de la fila {0}",
    "the warehouse already holds {} of the product": "la bodega ya tiene existencias del producto: {0}",
    "a company archive is restored from its ZIP file": "el respaldo de una empresa se restaura desde su archivo ZIP",
    "items/{}.jsonl: an item that is not one of company {}'s records":
        "items/{0}.jsonl: un registro que no es de la empresa {1}",
    "the archive is of a company of {}, this company is of {}":
        "el respaldo es de una empresa del país {0}; esta empresa es del país {1}",
    "this company already has records: an archive is restored into a new, empty company":
        "esta empresa ya tiene registros: un respaldo se restaura en una empresa nueva y vacía",
    "not a company archive (a ZIP with {})": "no es un respaldo de empresa (un ZIP con {0})",
    "not a company archive of format {}": "no es un respaldo de empresa del formato {0}",
    "the manifest's checksum does not match its files":
        "la suma de verificación del manifiesto no coincide con sus archivos",
    "the archive's files are not those its manifest lists": "los archivos del respaldo no son los que lista su manifiesto",
    "{}: its checksum does not match the manifest": "{0}: su suma de verificación no coincide con el manifiesto",
    "{}: {} items, the manifest says {}": "{0}: {1} registros, el manifiesto dice {2}",
    "{}: not JSON Lines of typed items": "{0}: no son líneas JSON de registros con tipo",
    "the balances' debits {} differ from their credits {}": "el debe de los saldos, {0}, difiere de su haber, {1}",
    "account {}: its postings (debit {}, credit {}) differ from its balances (debit {}, credit {})":
        "cuenta {0}: sus movimientos (debe {1}, haber {2}) difieren de sus saldos (debe {3}, haber {4})",
    # issue 41: fixopen
    "is not one of the currencies {}: {}": "no es una de las monedas {0}: {1}",
    "the changeover date {} falls in a closed accounting period or fiscal year":
        "la fecha de corte {0} cae en un período contable o ejercicio fiscal cerrado",
    "the changeover date {} falls on or before the last day of a closed fiscal year":
        "la fecha de corte {0} cae en o antes del último día de un ejercicio fiscal cerrado",
    "The import stopped at rows a rule refused after the check: someone changed the records meanwhile. The {} "
    "rows before them landed and stay: import the others in a new file.":
        "La importación se detuvo en filas que una regla rechazó después de la revisión: alguien modificó los "
        "registros mientras tanto. Las {0} filas anteriores se guardaron y se conservan: importe las demás en un "
        "archivo nuevo.",
    # issue 41: fixarch
    "the counter {} is at {}, behind the archive's records, which used {}: the archive was taken while the company "
    "was writing: export it again":
        "el contador {0} está en {1}, por detrás de los registros del archivo, que usaron {2}: el archivo se tomó "
        "mientras la empresa registraba operaciones: expórtela de nuevo",
    "items/{}.jsonl: the item {} / {} would be written outside this company ({})":
        "items/{0}.jsonl: el elemento {1} / {2} se escribiría fuera de esta empresa ({3})",
    "another restore (import {}) is running or ran into this company: an archive is restored into a new, empty "
    "company":
        "otra restauración (importación {0}) está en curso o ya se hizo en esta empresa: un archivo se restaura en "
        "una empresa nueva y vacía",
    "The company already holds a record the archive restores: an archive is restored into a new, empty company.":
        "La empresa ya tiene un registro que el archivo restaura: un archivo se restaura en una empresa nueva y vacía.",
    "Another restore is running or ran into this company: an archive is restored into a new, empty company.":
        "Otra restauración está en curso o ya se hizo en esta empresa: un archivo se restaura en una empresa nueva y "
        "vacía.",
    # issue 41: fixjobs
    "the XLSX workbook expands to more than {} MB: keep only the sheet to import, or save it as CSV UTF-8":
        "el libro XLSX ocupa más de {0} MB descomprimido: deje solo la hoja que importa, o guárdelo como CSV UTF-8",
    "the sheet has more than {} rows, blank ones counted: delete the rows below the data, or split it into files of "
    "at most {} rows":
        "la hoja tiene más de {0} filas, contando las vacías: elimine las filas debajo de los datos, o divídala en "
        "archivos de {1} filas como máximo",
    "the line has values past column {}: a table has at most {} columns":
        "la línea tiene valores más allá de la columna {0}: una tabla tiene como máximo {1} columnas",
    "the cell in column {} has more than {} characters": "la celda de la columna {0} tiene más de {1} caracteres",
    "a cell on this line has more than {} characters": "una celda de esta línea tiene más de {0} caracteres",
    "the archive expands to more than {} MB: a restore reads at most that":
        "el respaldo ocupa más de {0} MB descomprimido: una restauración lee como máximo eso",
    "The file cannot be imported: each problem is named by its row and column.":
        "El archivo no se puede importar: cada problema indica su fila y su columna.",
    "This company already has records: a company archive is restored into a new, empty company.":
        "Esta empresa ya tiene registros: el respaldo de una empresa se restaura en una empresa nueva y vacía.",
    "is only taken by the opening kinds (the changeover date)":
        "solo la admiten las importaciones de apertura (la fecha de corte)",
    **BANK_STATEMENT_PHRASES,
    **GATEWAY_PHRASES,
    **MONTH_END_PHRASES,
}

# issue 38: lang2
# An API value a sentence places (a status; the action a refusal names), in Spanish agreeing with
# the noun it speaks of: a phrase's "{0:m}" after a masculine one (documento, pago, ejercicio, DTE),
# "{0:f}" after a feminine one (partida, conciliación). The console's status labels say the same.
VALUES: dict[str, tuple[str, str]] = {  # value: (masculine, feminine)
    "draft": ("en borrador", "en borrador"),
    "posted": ("contabilizado", "contabilizada"),
    "reversed": ("revertido", "revertida"),
    "confirmed": ("confirmado", "confirmada"),
    "unconfirmed": ("devuelto a borrador", "devuelta a borrador"),
    "cancelled": ("anulado", "anulada"),
    "pending": ("pendiente", "pendiente"),
    "completed": ("completado", "completada"),
    "changed": ("modificado", "modificada"),
    "deleted": ("eliminado", "eliminada"),
    "open": ("abierto", "abierta"),
    "closing": ("en cierre", "en cierre"),
    "closed": ("cerrado", "cerrada"),
    "reopening": ("en reapertura", "en reapertura"),
    "accepted": ("aceptado", "aceptada"),
    "rejected": ("rechazado", "rechazada"),
    "invalidated": ("invalidado", "invalidada"),
    "pendingInvalidation": ("en proceso de invalidación", "en proceso de invalidación"),
    "paid": ("pagado", "pagada"),
}
