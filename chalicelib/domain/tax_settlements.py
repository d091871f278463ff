"""A tax settlement's figures, no I/O: the output tax owed (the sales tax account's credit
balance) is offset by the input tax credit (the purchase tax account's debit balance); what the
credit does not cover is paid, what exceeds the output stays as credit carried forward."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from chalicelib.domain.accounting import ZERO, round_money


@dataclass(frozen=True)
class SettlementFigures:
    output_tax: Decimal        # debited to the sales tax account: it is owed no more
    input_tax: Decimal         # the credit there was at the period's end
    offset: Decimal            # credited to the purchase tax account: the credit used
    tax_paid: Decimal          # credited to the bank: output less the credit
    credit_carried_forward: Decimal   # left on the purchase tax account
    withholdings_paid: Decimal        # debited to the withholding account, paid beside the tax

    @property
    def payment(self) -> Decimal:
        return self.tax_paid + self.withholdings_paid

    @property
    def settles_anything(self) -> bool:
        return self.output_tax > 0 or self.withholdings_paid > 0


def settlement_figures(output_balance: Decimal, input_balance: Decimal,
                       withholding_balance: Decimal = ZERO) -> SettlementFigures:
    """From the accounts' balances on their normal sides at the period's end. A balance on the
    wrong side (more tax credited back on sales than charged, say) settles nothing of that account:
    it stays for the next period. `withholding_balance`: the withholding account's credit balance
    to pay (0 when the settlement leaves withholdings out)."""
    output = max(round_money(output_balance), ZERO)
    input_tax = max(round_money(input_balance), ZERO)
    offset = min(output, input_tax)
    return SettlementFigures(output_tax=output, input_tax=input_tax, offset=offset, tax_paid=output - offset,
                             credit_carried_forward=input_tax - offset,
                             withholdings_paid=max(round_money(withholding_balance), ZERO))
