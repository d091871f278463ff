"""Bank statements: imported (imports.py), their lines listed with suggestions (lines.py,
suggestions.py), matched, unmatched or ignored one command at a time (matching.py), proposed and
created by the company's bank rules (bank_rules.py; applied after an import: auto_rules.py).

A line, as stored (store/keys/statements.py):
    {id, bankAccountId, statementId, date, amount (signed: + is money in), description,
     reference?, bankId?, balance?, identity, status: unmatched|matched|ignored, version, createdAt,
     match?: {kind: transaction|documents|create|transfer, transactionIds: [...], paymentIds?: [...],
              documents?: [{documentId, amount, paymentId}], journalEntryId?, ruleId?,
              transferToAccountId?, otherTransactionId? (a transfer's side on the other account),
              existingTransfer? (true: the transfer was booked by the other account's line),
              confirmedPaymentId? (a pending payment the match confirmed), businessPartnerId?, matchedAt}}
A bank transaction matched to a line carries `statementLineId` (none: not matched); the match
writes both under conditions (the line unmatched at its version, the transaction without
`statementLineId`), so of two racing matches exactly one lands."""
