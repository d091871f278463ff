"""El Salvador's demo company, which `make run` seeds beside the Honduran one (infra/devstack/local.py) so
that a newcomer issues a DTE with one curl: the issuer's NIT, NRC, activity and address, the
Salvadoran chart, a signing key made here and registered at the tax authority (the stand-in) with
the API password the company keeps, a consumer (a factura's buyer, partner 1), a registered
taxpayer (a crédito fiscal's, partner 2) and a service (product 1).

Everything after the company and its key goes through the API itself (in process, as a client
would send it), so the demo holds only what the API accepts."""
from __future__ import annotations

import secrets
from typing import Any, Callable

from infra.devstack.demo_calls import api_caller

COMPANY_NAME = "Demo El Salvador S.A. de C.V."
NIT = "0614-160590-102-6"
# the department and municipality codes (CAT-012, CAT-013) of San Salvador, as the tests write them
DEPARTMENT, MUNICIPALITY = "06", "14"
COMPANY = {
    "taxId": NIT, "currency": "USD", "address": "Avenida La Revolución 45, Colonia San Benito, San Salvador",
    "phone": "2250-1000", "email": "facturas@demo-sv.example",
    "dteIssuer": {"nrc": "234567-8", "economicActivityCode": "46510",
                  "economicActivity": "Venta al por mayor de computadoras, equipo periférico y programas informáticos",
                  "tradeName": "Demo El Salvador", "department": DEPARTMENT, "municipality": MUNICIPALITY,
                  "environment": "00",
                  # who answers for the contingency events of DTEs the authority could not receive in time
                  "responsible": {"name": "Marta Ruiz", "documentType": "13", "documentNumber": "01234567-8"}},
}
CONSUMER = {"name": "María López", "type": "customer", "taxId": "04567890-3", "email": "maria.lopez@example.com",
            "phone": "7000-2000", "department": DEPARTMENT, "municipality": MUNICIPALITY,
            "address": "Colonia Miramonte, San Salvador"}
TAXPAYER = {"name": "Empresa Beta S.A. de C.V.", "type": "customer", "taxId": "0614-020202-102-4", "nrc": "765432-1",
            "economicActivityCode": "62010", "economicActivity": "Programación informática",
            "department": DEPARTMENT, "municipality": MUNICIPALITY, "address": "Colonia Escalón, San Salvador",
            "email": "compras@beta.example", "phone": "2555-0000"}
PRODUCT = {"code": "SOP-1", "name": "Soporte técnico por hora", "type": "service", "unitPrice": 25.00,
           "taxRate": 0.13}

# (NIT's digits, API password, public key in PEM): what the authority's portal registers
Register = Callable[[str, str, str], None]


def seed(app: Any, owner_user_id: int, register: Register) -> dict[str, Any]:
    """Creates the company (owned by the demo user) and answers the credentials' `sv` block."""
    from chalicelib.countries.sv.domain.dte_json import digits
    from chalicelib.services.identity import accounts, api_keys
    from chalicelib.store.table import get_table

    table = get_table()
    company_id = accounts.create_company(table, owner_user_id, {"name": COMPANY_NAME, "country": "SV"})["id"]
    item, secret, transaction = api_keys.issue_key(table, company_id, owner_user_id, "Local demo key (El Salvador)")
    transaction.commit()
    api_key = f"{item['id']}:{secret}"
    call = api_caller(app, api_key, "the El Salvador demo")

    call("PUT", f"/companies/{company_id}", COMPANY)
    call("POST", "/chart-of-accounts/import-default")
    public_key = call("PUT", f"/companies/{company_id}/dte-signing-key", {"privateKey": _new_private_key()})["publicKey"]
    password = secrets.token_urlsafe(16)
    call("PUT", f"/companies/{company_id}/dte-authority-credentials", {"password": password})
    register(digits(NIT), password, public_key)
    for partner in (CONSUMER, TAXPAYER):
        call("POST", "/business-partners", partner)
    call("POST", "/products", PRODUCT)
    return {"companyId": company_id, "apiKey": api_key}


def _new_private_key() -> str:
    """A key of the demo's own: the stand-in accepts any registered RSA key (the authority, the
    one of the certificate it issued)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode("ascii")
