"""The books: the posting engine, chart of accounts and its determination rules (and the standard charts),
manual entries, periods and fiscal years, control accounts, book corrections, ledgers, statements, aging."""
