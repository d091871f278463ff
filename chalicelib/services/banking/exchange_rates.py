"""Exchange rates: what one unit of a foreign currency is worth in the company's currency from
a date on (the rate a bank or the central bank published). A document, payment or bank
transaction in a foreign currency takes the rate it names, else the newest rate on or before its
date; with neither, it is refused naming the field. A rate sent stays within the company's
tolerance of its recorded one unless the sender has the accounting permission
(domain/currency.check_sent_rate)."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from chalicelib import clock, countries
from chalicelib.auth.principal import Principal
from chalicelib.domain import currency as currency_rules
from chalicelib.domain.roles import ACCOUNTING, may
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.commands import Command, Existing, shown
from chalicelib.services.identity import accounts
from chalicelib.store import keys
from chalicelib.store.repositories import exchange_rates as exchange_rate_store
from chalicelib.store.table import Table

ONE = Decimal("1")


def company_currency(company: Mapping[str, Any]) -> str:
    return company.get("currency") or countries.pack_of(company).currency


def record_rate(command: Command, fields: dict[str, Any]) -> dict[str, Any] | Existing[dict[str, Any]]:
    """Upsert: a second rate for the same currency and date replaces the first (200)."""
    table, company_id = command.table, command.company_id
    own = company_currency(table.get(keys.company(company_id)) or {})
    if fields["currency"] == own:
        raise ValidationFailed.for_field("currency", Phrase("{} is the company's own currency: its rate is always 1",
                                                            own))
    key = keys.exchange_rate(company_id, fields["currency"], fields["date"])
    existing = table.get(key)
    now = clock.now_iso()
    item = {**key, "itemType": "EXCHANGE_RATE", "currency": fields["currency"], "date": fields["date"],
            "rate": fields["rate"], "companyCurrency": own, "createdAt": (existing or {}).get("createdAt", now),
            "updatedAt": now, "version": int((existing or {}).get("version", 0)) + 1}
    transaction = command.transaction()
    if existing is None:
        transaction.put_new(item)
    else:
        exchange_rate_store.replace(transaction, item, int(existing["version"]))
    return shown(command.commit(transaction, item if existing is None else Existing(item)), exchange_rate_view)


def list_rates(table: Table, company_id: int, currency: str | None, start_date: str | None,
               end_date: str | None) -> list[dict[str, Any]]:
    """Newest first."""
    if start_date and end_date and start_date > end_date:
        raise ValidationFailed.for_field("startDate", "must not be after the end date")
    items = exchange_rate_store.all_of_company(table, company_id)
    chosen = [item for item in items if (currency is None or item["currency"] == currency)
              and (start_date is None or item["date"] >= start_date) and (end_date is None or item["date"] <= end_date)]
    return [exchange_rate_view(item) for item in sorted(chosen, key=lambda item: (item["date"], item["currency"]), reverse=True)]


def exchange_rate_view(item: dict[str, Any]) -> dict[str, Any]:
    return {name: item.get(name) for name in ("currency", "date", "rate", "companyCurrency", "createdAt", "updatedAt")}


def rate_on(table: Table, company_id: int, currency: str, date: str) -> Decimal | None:
    """The newest rate of `currency` on or before `date` (one Query), None without one."""
    found = exchange_rate_store.newest_through(table, company_id, currency, date)
    return Decimal(found["rate"]) if found else None


def rate_for(table: Table, company: dict[str, Any], currency: str | None, date: str, given: Decimal | None,
             field: str = "exchangeRate", *, sender: Principal | None) -> Decimal:
    """The rate an operation in `currency` dated `date` converts at: 1 in the company's own
    currency (a different rate sent is refused), `given` when sent, else the company's rate.
    `sender` is who sent `given`, checked against the company's rate and tolerance; None when
    `given` is a rate the operation already carries (a draft's, checked when it was sent)."""
    own = company_currency(company)
    if currency is None or currency == own:
        if given is not None and Decimal(given) != ONE:
            raise ValidationFailed.for_field(field, Phrase("must be 1 (or left out) for the company's own currency {}",
                                                           own))
        return ONE
    if given is not None:
        if sender is not None:
            keeps_books = may(sender.role, ACCOUNTING)  # and then needs no recorded rate read
            recorded = None if keeps_books else rate_on(table, company["id"], currency, date)
            currency_rules.check_sent_rate(Decimal(given), recorded, currency_rules.tolerance_percent(company),
                                           keeps_books=keeps_books, currency=currency, date=date, field=field)
        return Decimal(given)
    found = rate_on(table, company["id"], currency, date)
    if found is None:
        raise ValidationFailed.for_field(field, Phrase("required: no exchange rate of {} on or before {}; send it, or "
                                                       "record one with POST /exchange-rates", currency, date))
    return found


def company_of(table: Table, company_id: int) -> dict[str, Any]:
    return table.get(keys.company(company_id)) or {"id": company_id, "country": accounts.company_country(table, company_id)}
