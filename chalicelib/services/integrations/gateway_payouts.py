"""A card gateway's payout (issue 43): what the provider collected, net of its fees
(gateway_books.py), moved days later from the gateway's CLEARING bank account to the company's
bank. In the books a transfer between two own bank accounts (bank_transactions.transfer_into):

    Dr the bank's ledger account        payout
        Cr the clearing account's ledger    payout

Entered here (POST /payments/gateways/{id}/payouts), or matched from the bank's statement line
with `{transferToAccountId: <clearing account>}` (services/statements/match_kinds.to_transfer);
the statement suggestions propose that match (clearing_accounts). A payout never takes more than
the clearing account holds; an inactive gateway still pays out (the money is already collected)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from chalicelib.errors import ValidationFailed
from chalicelib.messages.books import book_text, with_reference
from chalicelib.messages.phrases import Phrase
from chalicelib.services import records
from chalicelib.services.accounting.posting import JournalWrites
from chalicelib.services.banking import bank_transactions, banking
from chalicelib.services.commands import Command
from chalicelib.services.integrations import gateway_config
from chalicelib.services.payments import payment_setup
from chalicelib.store import keys
from chalicelib.store.repositories import bank_accounts
from chalicelib.store.repositories import gateways as stored_gateways
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction

# how a bank's statement names each provider's payouts (compared with case and accents folded)
PROVIDER_NAMES = {"pixelpay": ("PixelPay", "Pixel Pay"), "wompi": ("Wompi",)}


def clearing_accounts(table: Table, company_id: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each gateway of the company with its clearing bank account (gateway, account), one per
    clearing account: one Query of the gateways, one BatchGetItem of their payment methods, one
    of the accounts."""
    gateways = records.small_records(table, company_id, keys.PAYMENT_GATEWAY)
    if not gateways:
        return []
    method_ids = sorted({int(each["paymentMethodId"]) for each in gateways if each.get("paymentMethodId") is not None})
    methods = {int(item["id"]): item for item in table.batch_get(
        [payment_setup.method_key(company_id, each) for each in method_ids]).values()} if method_ids else {}
    by_account: dict[int, dict[str, Any]] = {}
    for gateway in sorted(gateways, key=lambda each: int(each["id"])):
        account_id = methods.get(int(gateway.get("paymentMethodId") or 0), {}).get("bankAccountId")
        if account_id is not None:
            by_account.setdefault(int(account_id), gateway)
    if not by_account:
        return []
    accounts = {int(item["id"]): item for item in table.batch_get(
        [bank_accounts.account_key(company_id, each) for each in sorted(by_account)]).values()}
    return [(gateway, accounts[account_id]) for account_id, gateway in by_account.items() if account_id in accounts]


def record_payout(command: Command, gateway_id: int, fields: dict[str, Any]) -> dict[str, Any]:
    """The payout as a transfer from the clearing account to `bankAccountId`, conditioned in its
    transaction on the clearing account still holding the amount (two payouts at once never take
    more than it holds)."""
    table, company_id = command.table, command.company_id
    gateway = gateway_config.stored(table, company_id, gateway_id)   # another company's: 404
    clearing = gateway_config.clearing_account(table, company_id, gateway)
    if clearing is None:
        raise ValidationFailed.for_field("gatewayId", "the gateway's payment method moves no bank account")
    clearing_id = int(clearing["id"])
    target = banking.get_bank_account(table, company_id, fields["bankAccountId"])  # another company's: 404
    if target["id"] == clearing_id:
        raise ValidationFailed.for_field("bankAccountId", "must differ from the gateway's clearing account")
    amount = Decimal(fields["amount"])
    transaction, writes = command.transaction(), JournalWrites(company_id)
    hold_clearing_balance(transaction, company_id, clearing, amount, "amount")
    reference = fields.get("reference")
    built = bank_transactions.transfer_into(
        command, transaction, writes,
        {"fromAccountId": clearing_id, "toAccountId": target["id"], "amount": amount,
         "transactionDate": fields["payoutDate"], "reference": reference},
        from_field="gatewayId", to_field="bankAccountId",
        description=with_reference(book_text("gateway_payout", gateway=gateway.get("name") or gateway["provider"]),
                                   reference))
    writes.apply(transaction)
    return command.commit(transaction, {
        "gatewayId": gateway["id"], "fromAccountId": clearing_id, "toAccountId": target["id"], "amount": amount,
        "payoutDate": fields["payoutDate"], "reference": reference, "journalEntryId": built["journalEntryId"],
        "outgoingTransactionId": built["outgoing"]["id"], "incomingTransactionId": built["incoming"]["id"]})


def clearing_gateway(table: Table, company_id: int, account_id: int) -> dict[str, Any] | None:
    """The gateway whose clearing account `account_id` is, or None (an ordinary bank account)."""
    return next((gateway for gateway, account in clearing_accounts(table, company_id)
                 if int(account["id"]) == int(account_id)), None)


def hold_clearing_balance(transaction: Transaction, company_id: int, clearing: dict[str, Any], amount: Decimal,
                          field: str) -> None:
    """A payout of `amount` out of the `clearing` account (as read): refused above its balance
    (400 naming `field`), and conditioned in `transaction` on the account still holding it (two
    payouts at once never take more than it holds). Called before the transfer is built: the
    account's one update (the transfer's side merges into it) carries this condition."""
    held = Decimal(str(clearing.get("balance", 0)))
    if amount > held:
        raise _above_balance(field, held)
    stored_gateways.hold_for_payout(transaction, bank_accounts.account_key(company_id, int(clearing["id"])), amount,
                                    _above_balance(field, None))


def _above_balance(field: str, held: Decimal | None) -> ValidationFailed:
    if held is None:
        return ValidationFailed.for_field(field, "more than the gateway's clearing account holds")
    return ValidationFailed.for_field(field, Phrase("at most {}, what the gateway's clearing account holds", held))
