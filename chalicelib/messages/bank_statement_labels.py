"""The labels of bank statements' fields (issue 42: the import and its column mapping, bank rules,
a line's match), in each language: messages/field_labels.py takes them into its catalogues."""
from __future__ import annotations

BANK_STATEMENTS_EN: dict[str, str] = {
    # the import and its column mapping
    'format': 'File format',
    'statementId': 'Statement',
    'encoding': 'Encoding',
    'delimiter': 'Delimiter',
    'skipRows': 'Rows before the headings',
    'dateColumn': 'Date column',
    'dateFormat': 'Date format',
    'descriptionColumn': 'Description column',
    'referenceColumn': 'Reference column',
    'amountColumn': 'Amount column',
    'debitColumn': 'Debit column',
    'creditColumn': 'Credit column',
    'balanceColumn': 'Balance column',
    'decimalSeparator': 'Decimal separator',
    'thousandsSeparator': 'Thousands separator',
    # bank rules
    'action': 'What the rule creates',
    'autoCreate': 'Create without asking',
    'conditions': 'Conditions',
    'conditions[]': 'Condition',
    'field': 'Field compared',
    'match': 'How the conditions combine',
    'operator': 'Comparison',
    'priority': 'Priority',
    'value': 'Value compared',
    # a line's match
    'create': 'New bank transaction',
    'documents': 'Documents paid',
    'documents[]': 'Document paid',
    'ruleId': 'Bank rule',
    'transferToAccountId': 'Other bank account of the transfer',
}

BANK_STATEMENTS_ES: dict[str, str] = {
    # the import and its column mapping
    'format': 'Formato del archivo',
    'statementId': 'Estado de cuenta',
    'encoding': 'Codificación',
    'delimiter': 'Separador de columnas',
    'skipRows': 'Filas antes de los encabezados',
    'dateColumn': 'Columna de fecha',
    'dateFormat': 'Formato de fecha',
    'descriptionColumn': 'Columna de descripción',
    'referenceColumn': 'Columna de referencia',
    'amountColumn': 'Columna de monto',
    'debitColumn': 'Columna de débito',
    'creditColumn': 'Columna de crédito',
    'balanceColumn': 'Columna de saldo',
    'decimalSeparator': 'Separador decimal',
    'thousandsSeparator': 'Separador de miles',
    # bank rules
    'action': 'Lo que crea la regla',
    'autoCreate': 'Crear sin preguntar',
    'conditions': 'Condiciones',
    'conditions[]': 'Condición',
    'field': 'Campo comparado',
    'match': 'Cómo se combinan las condiciones',
    'operator': 'Comparación',
    'priority': 'Prioridad',
    'value': 'Valor comparado',
    # a line's match
    'create': 'Nueva transacción bancaria',
    'documents': 'Documentos pagados',
    'documents[]': 'Documento pagado',
    'ruleId': 'Regla bancaria',
    'transferToAccountId': 'Otra cuenta bancaria de la transferencia',
}
