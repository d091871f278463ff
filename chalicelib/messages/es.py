"""The API's Spanish catalogue (Honduras, El Salvador): the same codes and validation kinds as
en.py, and PHRASES: each English phrase the service writes (a template: `{}` is a part filled in
at run time) with its Spanish, where `{0}`, `{1}`... place those parts, kept in the gettext
catalogue locale/es/LC_MESSAGES/api.po (messages/catalogues.py reads it compiled). The wording follows the
console's Spanish (cliente o proveedor, partida, catálogo de cuentas, ejercicio fiscal, bodega,
método de pago, rango CAI, anular); DTE matters speak of Hacienda (El Salvador's tax authority)."""
from __future__ import annotations

from chalicelib.messages.catalogues import translations

# catalogue(lang).FIELD_LABELS: both languages' labels live side by side in field_labels.py
from chalicelib.messages.field_labels import ES as FIELD_LABELS  # noqa: F401
from chalicelib.messages.languages import SPANISH

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

# the service's own phrases (a template whose {} are the parts filled in, with its Spanish placing them
# as {0}, {1}...): the gettext catalogue locale/es/LC_MESSAGES/api.po, compiled at build time
PHRASES: dict[str, str] = translations(SPANISH)

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
