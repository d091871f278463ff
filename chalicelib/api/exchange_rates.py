from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import ACCOUNTING, Call, endpoint

blueprint = Blueprint(__name__)
M = "chalicelib.models.exchange_rates:"
TAG = "Exchange rates"


@endpoint(blueprint, "GET", "/exchange-rates", summary="The company's exchange rates, newest first", tag=TAG,
          query=M + "ExchangeRateQuery", response=M + "ExchangeRateList")
def list_rates(call: Call) -> Any:
    from chalicelib.services.banking import exchange_rates

    rates = exchange_rates.list_rates(call.command.table, call.principal.company_id, call.query.currency,
                                      call.query.start_date, call.query.end_date)
    return {"exchangeRates": rates, "total": len(rates)}


@endpoint(blueprint, "POST", "/exchange-rates", summary="Record a currency's rate from a date on (documents and "
          "payments in that currency dated that day or later take it unless they name their own)", tag=TAG,
          body=M + "ExchangeRateCreate", response=M + "ExchangeRate", permission=ACCOUNTING, also_answers=(200,))
def record_rate(call: Call) -> Any:
    from chalicelib.services.banking import exchange_rates

    return exchange_rates.record_rate(call.command, call.body.model_dump(by_alias=True))
