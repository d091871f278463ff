"""The plan of a document command: its writes gathered (the journal's, the stock's, the day
counts) and then added to its one transaction, which commits them all or none. The document
command (documents.py) builds it; the partner's side (document_partners.py) adds to it."""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from chalicelib.domain.records import DocumentRecord
from chalicelib.services.accounting.posting import JournalWrites
from chalicelib.services.commands import Command
from chalicelib.services.inventory.stock_moves import StockWrites
from chalicelib.services.sales_purchases.document_content import Context
from chalicelib.store import keys
from chalicelib.store.transaction import Transaction


@dataclass
class Plan:
    """One command's writes, gathered and then added to its one transaction."""
    context: Context
    transaction: Transaction
    journal: JournalWrites
    stock: StockWrites
    counts: dict[tuple[str, int], Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    warnings: list[str] = field(default_factory=list)
    # the confirmation issued the document electronically (it can be invalidated: undone)
    issued_electronically: bool = False

    @classmethod
    def start(cls, command: Command, context: Context, *, rehearsal: bool = False) -> "Plan":
        stock = StockWrites(command.company_id, bool(context.company.get("allowNegativeStock")), command.table)
        stock.know(context.positions.keys() | context.products.keys(), context.positions, context.products)
        return cls(context, command.transaction(), JournalWrites(command.company_id, rehearsal=rehearsal), stock)

    @classmethod
    def rehearsal(cls, command: Command, context: Context) -> "Plan":
        """A plan built only to be counted, never submitted: its entries take provisional ids (no
        number of the journal's counter); fiscal and control numbers are taken only at commit."""
        return cls.start(command, context, rehearsal=True)

    def count(self, document: DocumentRecord, delta: int) -> None:
        self.counts[(document["date"], document["businessPartnerId"])][f"{document['status']}_{document['type']}"] += delta

    def finish(self) -> Transaction:
        self.journal.apply(self.transaction)
        self.stock.apply(self.transaction)
        company_id = self.context.company_id
        # per day, for the company and for the partner (no count of all days: it would be 2 more
        # items in every transaction; a list without dates sums the days, as the journal's does)
        for (date, partner_id), counts in self.counts.items():
            self.transaction.add_counts(keys.day_counts(company_id, date), counts)
            self.transaction.add_counts(keys.day_counts(company_id, date, partner_id), counts)
        return self.transaction
