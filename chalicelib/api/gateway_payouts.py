"""A card gateway's payouts (issue 43): what the provider collected, net of its fees, moved from
the gateway's clearing bank account to the company's bank. Models and services load on first use."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import Call, endpoint

blueprint = Blueprint(__name__)
TAG = "Payment gateways"


@endpoint(blueprint, "POST", "/payments/gateways/{id}/payouts", summary="Record a gateway's payout: its clearing "
          "account's money transferred to a bank account (at most the clearing balance; an inactive gateway still "
          "pays out)", tag=TAG, body="chalicelib.models.gateways:PayoutCreate",
          response="chalicelib.models.gateways:Payout")
def record_payout(call: Call) -> Any:
    from chalicelib.services.integrations import gateway_payouts

    return gateway_payouts.record_payout(call.command, call.ids["id"], call.body.model_dump(by_alias=True))
