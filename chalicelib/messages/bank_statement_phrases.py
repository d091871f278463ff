"""The Spanish of the English messages bank statements write (issue 42: the readers of each
format, the import, rules, a line's match and its fixes); messages/es.py takes them into PHRASES."""
from __future__ import annotations

BANK_STATEMENT_PHRASES: dict[str, str] = {
    # issue 42: imports
    "The statement cannot be imported: the problem is named by its line and column.":
        "El estado de cuenta no se puede importar: el detalle indica la línea y la columna del problema.",
    "a CSV or XLSX statement needs the bank account's column mapping: save it first (statement-mapping)":
        "un estado de cuenta CSV o XLSX necesita las columnas del archivo de la cuenta bancaria: guárdelas primero "
        "(statement-mapping)",
    "the file is in {}; the bank account is in {}": "el archivo está en {0}; la cuenta bancaria está en {1}",
    "the file has no statement lines": "el archivo no tiene líneas del estado de cuenta",
    "either a signed amount column or debit and credit columns, not both":
        "o una columna de monto con signo o columnas de débito y crédito, no ambas",
    "name a signed amount column, or both a debit and a credit column":
        "indique una columna de monto con signo, o una columna de débito y una de crédito",
    "must differ from the decimal separator": "debe ser distinto del separador decimal",
    "must be one of {}": "debe ser uno de {0}",
    "The statement kept colliding with another import of the same lines; import it again.":
        "El estado de cuenta chocó repetidamente con otra importación de las mismas líneas; impórtelo de nuevo.",
    "Bank statement not found.": "Estado de cuenta no encontrado.",
    "Statement line not found.": "Línea del estado de cuenta no encontrada.",
    "No statement mapping is saved for this bank account.":
        "No hay columnas del archivo guardadas para esta cuenta bancaria.",
    # issue 42: formats (reading a bank statement file: domain/statement_formats/)
    "unknown format {}: the formats are {}": "formato desconocido {0}: los formatos son {1}",
    "the opening balance {} and the lines add up to {} but the closing balance is {}: a difference of {}":
        "el saldo inicial {0} y las líneas suman {1}, pero el saldo final es {2}: una diferencia de {3}",
    "a CSV or XLSX statement is read with the bank account's column mapping: save it first":
        "un estado de cuenta CSV o XLSX se lee con las columnas del archivo de la cuenta bancaria: guárdelas primero",
    "the XML declares a DOCTYPE: a CAMT.053 statement has none":
        "el XML declara un DOCTYPE: un estado de cuenta CAMT.053 no lo tiene",
    "the XML is not a CAMT.053 bank statement (its namespace is {})":
        "el XML no es un estado de cuenta CAMT.053 (su espacio de nombres es {0})",
    "the date {} is not a date written YYYY-MM-DD": "la fecha {0} no es una fecha escrita AAAA-MM-DD",
    "the XML is not well formed (its line {})": "el XML no está bien formado (su línea {0})",
    "the CAMT.053 file holds {} statements: export one statement per file":
        "el archivo CAMT.053 contiene {0} estados de cuenta: exporte un estado de cuenta por archivo",
    "the entry is in {}, the statement in {}": "el movimiento está en {0} y el estado de cuenta en {1}",
    "the credit or debit mark {} is neither CRDT nor DBIT": "la marca de crédito o débito {0} no es CRDT ni DBIT",
    "the amount {} has more than two decimals": "el monto {0} tiene más de dos decimales",
    "the amount {} is not a number": "el monto {0} no es un número",
    "the date {} is not a date written YYYYMMDD": "la fecha {0} no es una fecha escrita AAAAMMDD",
    "the statement has more than {} lines: split it into files of at most {} lines":
        "el estado de cuenta tiene más de {0} líneas: divídalo en archivos de {1} líneas como máximo",
    "the statement has no lines with an amount": "el estado de cuenta no tiene líneas con un monto",
    "the date {} is not a day of the calendar": "la fecha {0} no es un día del calendario",
    "the bank's id {} of this entry is also entry {}'s":
        "el identificador del banco {0} de este movimiento es también el del movimiento {1}",
    "the MT940 field {} cannot be read: {}": "el campo MT940 {0} no se puede leer: {1}",
    "the :61: line is not a date, a D or C mark, an amount and a transaction type (e.g. 2603100310D85,00NTRF)":
        "la línea :61: no es una fecha, una marca D o C, un monto y un tipo de transacción (p. ej. "
        "2603100310D85,00NTRF)",
    "the MT940 file's :61: lines cannot all be read": "no se pueden leer todas las líneas :61: del archivo MT940",
    "the balance {} is not a D or C mark, a date, a currency and an amount (e.g. C260228HNL10000,00)":
        "el saldo {0} no es una marca D o C, una fecha, una moneda y un monto (p. ej. C260228HNL10000,00)",
    "the MT940 file has a date or an amount that cannot be read":
        "el archivo MT940 tiene una fecha o un monto que no se puede leer",
    "the OFX file holds {} account statements: export one account's statement per file":
        "el archivo OFX contiene {0} estados de cuenta: exporte el estado de una sola cuenta por archivo",
    "the OFX file cannot be read: its header or its tags are damaged":
        "el archivo OFX no se puede leer: su encabezado o sus etiquetas están dañados",
    "the date {} is not a date written {}": "la fecha {0} no es una fecha escrita {1}",
    "the balance {} is not the previous line's balance {} plus this line's amount {}":
        "el saldo {0} no es el saldo de la línea anterior, {1}, más el monto de esta línea, {2}",
    "the file has no heading row after the {} rows skipped":
        "el archivo no tiene fila de encabezados después de las {0} filas omitidas",
    "the mapping names neither an amount column nor both a debit and a credit column":
        "las columnas del archivo no indican una columna de monto ni las columnas de débito y de crédito",
    "the rows to skip must be between 0 and {}": "las filas a omitir deben estar entre 0 y {0}",
    "the decimal separator is a point or a comma": "el separador decimal es un punto o una coma",
    "the thousands separator must differ from the decimal separator":
        "el separador de miles debe ser distinto del separador decimal",
    "the date format {} is not made of DD, MM and YYYY or YY (e.g. DD/MM/YYYY)":
        "el formato de fecha {0} no está hecho de DD, MM y YYYY o YY (p. ej. DD/MM/YYYY)",
    "the amount {} is not a number written {}": "el monto {0} no es un número escrito {1}",
    "unknown encoding {}": "codificación desconocida {0}",
    "the line has bytes that are not {} text": "la línea tiene bytes que no son texto {0}",
    "the date is blank": "la fecha está vacía",
    "the column {} is not in the heading row": "la columna {0} no está en la fila de encabezados",
    # issue 42: fixfmt (amounts and files a reader refuses)
    "the amount {} is past the largest amount {}": "el monto {0} supera el monto máximo {1}",
    "the opening balance {} is past the largest amount {}": "el saldo inicial {0} supera el monto máximo {1}",
    "the closing balance {} is past the largest amount {}": "el saldo final {0} supera el monto máximo {1}",
    "the amount {} is marked {}, money in, in the debit column":
        "el monto {0} está marcado {1}, dinero que entra, en la columna de débito",
    "the amount {} is marked {}, money out, in the credit column":
        "el monto {0} está marcado {1}, dinero que sale, en la columna de crédito",
    "the OFX file cannot be read: it holds no OFX tags":
        "el archivo OFX no se puede leer: no contiene etiquetas OFX",
    "the file is not an MT940 statement: it has no :20: tag":
        "el archivo no es un estado de cuenta MT940: no tiene la etiqueta :20:",
    "the file is not an XLSX workbook: save it as XLSX, or as CSV UTF-8":
        "el archivo no es un libro XLSX: guárdelo como XLSX o como CSV UTF-8",
    # issue 42: rules
    "The reconciliation is being completed: complete it again to finish.":
        "La conciliación se está completando: complétela de nuevo para terminar.",
    "a direction condition is equals in or out":
        "una condición de sentido es «equals» con «in» (entrada) u «out» (salida)",
    "a text condition compares with a text": "una condición de texto se compara con un texto",
    "a text condition is contains or equals": "una condición de texto es «contains» o «equals»",
    "an amount condition compares with a number": "una condición de monto se compara con un número",
    "an amount condition is equals or between": "una condición de monto es «equals» o «between»",
    "between takes [min, max] with min not above max": "«between» toma [mínimo, máximo] con el mínimo no mayor que el máximo",
    "between takes two numbers [min, max]": "«between» toma dos números [mínimo, máximo]",
    "no such statement on this bank account": "el estado de cuenta no existe en esta cuenta bancaria",
    "the statement states no closing balance: send it": "el estado de cuenta no indica el saldo final: envíelo",
    # issue 42: match
    'A bank transaction of the match is reconciled: the line cannot be unmatched.':
        'La línea no se puede desvincular: su transacción bancaria ya está en una conciliación completada.',
    'Bank transaction not found.':
        'No se encontró la transacción bancaria.',
    'Only a matched statement line can be unmatched.':
        'Solo una línea del estado de cuenta vinculada se puede desvincular.',
    'Only an ignored statement line can be restored.':
        'Solo una línea del estado de cuenta ignorada se puede restaurar.',
    'Only an unmatched statement line can be matched or ignored.':
        'Solo una línea del estado de cuenta sin vincular se puede vincular o ignorar.',
    'already named in documents[{}]':
        'ya indicado en documents[{0}]',
    'an advance is registered as a payment of its order, not matched to a line':
        'un anticipo se registra como pago de su pedido, no se vincula a una línea',
    'dated {}, after the line':
        'con fecha {0}, posterior a la línea',
    'it is in {}, the bank account in {}':
        'está en {0}, la cuenta bancaria en {1}',
    'its money does not move through this bank account':
        'su dinero no pasa por esta cuenta bancaria',
    'money in pays sales documents, money out purchase documents: the line goes the other way':
        'el dinero que entra paga documentos de venta, el que sale documentos de compra: la línea va en el otro sentido',
    'must be another bank account':
        'debe ser otra cuenta bancaria',
    'no active payment method moves money through this bank account: create one or name one':
        'ninguna forma de pago activa mueve dinero por esta cuenta bancaria: cree una o indíquela',
    '`paymentMethodId` goes with `documents`':
        '`paymentMethodId` va con `documents`',
    'send exactly one of `transactionId`, `documents`, `create`, `transferToAccountId`':
        'envíe exactamente uno de `transactionId`, `documents`, `create`, `transferToAccountId`',
    'the transaction moves {}, the line {}':
        'la transacción mueve {0}, la línea {1}',
    "the documents' amounts add up to {}, the line to {}":
        'los montos de los documentos suman {0}, la línea {1}',
    'the line moves no money: ignore it instead':
        'la línea no mueve dinero: ignórela',
    "The transfer's other side is matched to a line of the other account: unmatch it there first.":
        'El otro lado de la transferencia está vinculado a una línea de la otra cuenta: desvincule esa línea primero.',
    "The payment's bank transaction is matched to a statement line: unmatch the line instead.":
        'La transacción bancaria del pago está vinculada a una línea del estado de cuenta: desvincule la línea.',
    'The bank transaction is already matched to a statement line.':
        'La transacción bancaria ya está vinculada a una línea del estado de cuenta.',
    # issue 42: fiximport
    "the description has more than {} characters": "la descripción tiene más de {0} caracteres",
    "the reference has more than {} characters": "la referencia tiene más de {0} caracteres",
    "the bank's id has more than {} characters": "el identificador del banco tiene más de {0} caracteres",
    "the line is larger than the {} KB a record holds": "la línea ocupa más de los {0} KB que admite un registro",
    # issue 42: fixmatch
    'the transaction was reversed, or reverses another: the two cancel out in the books':
        'la transacción fue revertida, o revierte otra: en los libros las dos se anulan',
    'no such bank rule': 'la regla bancaria no existe',
    'no longer matched to statement line {}: remove it from the draft or match the line again':
        'ya no está vinculada a la línea {0} del estado de cuenta: quítela del borrador o vincule la línea de nuevo',
    'reversed by transaction {}: clear both or neither':
        'revertida por la transacción {0}: marque ambas como conciliadas o ninguna',
    'the reversal of transaction {}: clear both or neither':
        'es la reversión de la transacción {0}: marque ambas como conciliadas o ninguna',
}
