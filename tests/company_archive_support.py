"""A company with a year of activity (issue 41's round trip): documents of every kind the sales and
purchase cycles have, payments, stock moves, a manual entry, a scheduled invoice, a gateway with
its secret, a closed year. Figures worked out by hand in the comments."""
from __future__ import annotations

import re
from typing import Any

from tests.documents_support import Shop
from tests.support import CompanyFixture


def busy_shop(api: Any, company: CompanyFixture) -> Shop:
    shop = Shop(api, company, inventory=True)
    retained = shop.created("/chart-of-accounts", {"code": "3301", "name": "Utilidades retenidas", "type": "equity"})
    shop.books.accounts["3301"] = retained["id"]
    shop.created("/account-determination-rules", {"operationType": "retained_earnings", "chartOfAccountId": retained["id"]})
    cash = shop.created("/payments/methods", {"name": "Efectivo", "isCashMethod": True})
    shop.cash_method = cash["id"]
    # 2025, closed at the end:
    #   opening stock 10 chairs x 50 = 500 (inventory 500 / opening equity 500)
    #   purchase 5 chairs x 60 = 300 + ISV 45: supplier 345; stock 15 at (500 + 300) / 15 = 53.3333
    #   invoice 2 chairs x 100 = 200 + ISV 30: 230, cost 2 x 53.33 = 106.67; collected 100 in cash
    #   expense 80 + ISV 12 = 92; a manual entry: 25 cash to other expenses
    shop.created("/inventory/adjustments", {"warehouseId": 1, "date": "2025-01-02", "reason": "opening",
                                            "lines": [{"productId": shop.product, "quantity": 10, "unitCost": 50}]})
    shop.document("103", [(shop.product, 5, 60)], date="2025-02-01")
    invoice = shop.document("01", [(shop.product, 2, 100)], date="2025-03-10")
    shop.created(f"/payments/documents/{invoice['id']}/payments",
                 {"paymentMethodId": cash["id"], "amount": 100, "paymentDate": "2025-03-15"})
    shop.document("11", [(None, 1, 80)], date="2025-06-01")
    shop.books.entry("2025-09-30", ("6199", 25, 0), ("110101", 0, 25), description="Gastos menores")
    closed = shop.api.post("/fiscal-years/2025/close", {}, key=shop.key)
    assert closed.status == 200, closed.text
    # 2026: a return of one chair (06), a purchase return (105), a service invoice, a transfer to a
    # second warehouse, a scheduled invoice and a gateway with its secret
    shop.document("06", [(shop.product, 1, 100)], date="2026-02-01", sourceDocumentId=invoice["id"])
    purchase = shop.document("103", [(shop.product, 4, 55)], date="2026-03-01")
    shop.document("105", [(shop.product, 1, 55)], date="2026-03-05", sourceDocumentId=purchase["id"])
    shop.document("01", [(shop.service, 3, 50)], date="2026-04-01")
    second = shop.created("/warehouses", {"name": "Bodega 2"})
    shop.created("/inventory/transfers", {"fromWarehouseId": 1, "toWarehouseId": second["id"], "date": "2026-04-02",
                                          "lines": [{"productId": shop.product, "quantity": 3}]})
    shop.created("/scheduled-invoices", {"businessPartnerId": shop.customer, "frequency": "monthly",
                                         "startDate": "2099-01-01",
                                         "lines": [{"productId": shop.service, "quantity": 1, "unitPrice": 50}]})
    from tests.gateway_support import clearing_method

    shop.created("/payments/gateways", {"name": "Cobros en línea", "provider": "pixelpay", "keyId": "1234567890",
                                        "paymentMethodId": clearing_method(shop)["id"],
                                        "secret": "gw-secret-1234567890"})
    return shop


SECRET_LOOKING = re.compile(r"secret|sealed|password|hash|token|private|key|credential|signing", re.IGNORECASE)
# attribute names that look like a secret and are not one (each with why): none so far
HARMLESS: frozenset[str] = frozenset()


def secret_looking_names(items: list[dict]) -> set[str]:
    """Every attribute name, nested ones too (a map's keys), that looks like a secret."""
    found: set[str] = set()

    def visit(name: str, value: dict) -> None:
        if SECRET_LOOKING.search(name) and name not in HARMLESS:
            found.add(name)
        for inner_name, inner in (value.get("M") or {}).items():
            visit(inner_name, inner)
        for inner in value.get("L") or []:
            visit(name, inner)

    for item in items:
        for name, value in item.items():
            visit(name, value)
    return found
