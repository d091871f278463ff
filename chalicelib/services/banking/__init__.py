"""Bank accounts and their transactions, bank reconciliations, and the exchange rates foreign amounts
are converted at."""
