"""The card gateways `make run` configures (issue 43): the Honduran demo company collects through
PixelPay and El Salvador's through Wompi, both in test mode against the stand-ins
(infra/devstack/pixelpay_standin.py, wompi_standin.py). Each gets what a business sets up for it:
a ledger account and a bank account for the money in the gateway (its clearing account), the bank
its payouts reach, a payment method for card payments, and the gateway with its fee terms."""
from __future__ import annotations

import datetime as _dt
from typing import Any

from infra.devstack.demo_calls import Call, api_caller

# PixelPay's public sandbox keys (its SDKs' setupSandbox; docs.pixelpay.app sandbox/installation)
PIXELPAY_SANDBOX = {"keyId": "1234567890", "secret": "@s4ndb0x-abcd-1234-n1l4-p1x3l"}

DEMOS = {
    "pixelpay": {"currency": "HNL", "feeTaxRate": 0.15, "feeAccount": "6302", "name": "PixelPay",
                 "bank": {"name": "Banco Atlántida", "bankName": "Banco Atlántida", "accountNumber": "1200345678"},
                 "userEmail": "pagos@demo.example"},
    "wompi": {"currency": "USD", "feeTaxRate": 0.13, "feeAccount": "430102", "name": "Wompi",
              "bank": {"name": "Banco Agrícola", "bankName": "Banco Agrícola", "accountNumber": "3700123456"}},
}
# ledger accounts of their own under 1101: 110103 Bancos stays free for the bank accounts a person adds
CLEARING_CODE, BANK_CODE, CASH_PARENT = "110104", "110105", "1101"


def seed(app: Any, api_key: str, provider: str, credentials: dict[str, str]) -> dict[str, Any]:
    """The gateway and its accounts for the company of `api_key`; answers their ids."""
    demo = DEMOS[provider]
    call = api_caller(app, api_key, f"the {demo['name']} demo gateway")
    accounts = _accounts_by_code(call)
    clearing_ledger = call("POST", "/chart-of-accounts", {
        "code": CLEARING_CODE, "name": f"Fondos en pasarela {demo['name']}", "type": "asset",
        "parentId": accounts[CASH_PARENT]["id"]})
    bank_ledger = call("POST", "/chart-of-accounts", {
        "code": BANK_CODE, "name": demo["bank"]["name"], "type": "asset", "parentId": accounts[CASH_PARENT]["id"]})
    today = _dt.date.today().isoformat()
    clearing = call("POST", "/bank-accounts", {
        "name": f"{demo['name']} (fondos en tránsito)", "currency": demo["currency"], "openingBalance": 0,
        "openingBalanceDate": today, "chartOfAccountId": clearing_ledger["id"]})
    bank = call("POST", "/bank-accounts", {**demo["bank"], "currency": demo["currency"], "openingBalance": 0,
                                           "openingBalanceDate": today, "chartOfAccountId": bank_ledger["id"]})
    method = call("POST", "/payments/methods", {"name": f"Tarjeta ({demo['name']})", "bankAccountId": clearing["id"]})
    gateway = call("POST", "/payments/gateways", {
        "name": demo["name"], "provider": provider, "mode": "test", **credentials,
        **({"userEmail": demo["userEmail"]} if "userEmail" in demo else {}),
        "paymentMethodId": method["id"], "feePercent": 3.5, "feeFixed": 5.00 if provider == "pixelpay" else 0.25,
        "feeTaxRate": demo["feeTaxRate"], "feeAccountId": accounts[demo["feeAccount"]]["id"]})
    return {"gatewayId": gateway["id"], "clearingBankAccountId": clearing["id"], "bankAccountId": bank["id"],
            "paymentMethodId": method["id"]}


def _accounts_by_code(call: Call) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    page = 1
    while True:
        answer = call("GET", f"/chart-of-accounts?limit=100&page={page}")
        found.update({account["code"]: account for account in answer["accounts"]})
        if page * 100 >= answer["total"]:
            return found
        page += 1
