"""Hand-written El Salvador documents as the service stores them once confirmed (their `dte`
holding the issuer, receiver and line kinds as issuing keeps them), for the DTE format tests."""
from __future__ import annotations

from decimal import Decimal

from joserfc.jwk import RSAKey

from chalicelib.countries.sv.domain import dte, dte_json
from chalicelib.countries.sv.services import dte_signing
from chalicelib.countries.sv.services.dte import Submission
from tests.dte_keys import SIGNING_KEY

CODIGO = "5B4A3C2D-1E0F-4A9B-8C7D-6E5F4A3B2C1D"
OTHER_CODIGO = "0A1B2C3D-4E5F-4061-8A7B-9C8D7E6F5A4B"
SV = {"id": 7, "country": "SV", "name": "Alfa S.A. de C.V.", "taxId": "0614-010190-101-3",
      "address": "Calle Arce 123, San Salvador", "phone": "2222-3333", "email": "facturas@alfa.example",
      "dteIssuer": {"nrc": "123456-7", "economicActivityCode": "46510",
                    "economicActivity": "Venta al por mayor de computadoras", "department": "06",
                    "municipality": "23"}}
CONSUMER = {"name": "Ana López", "taxId": "01234567-8"}
TAXPAYER = {"name": "Empresa Beta S.A. de C.V.", "taxId": "0614-020202-102-4", "nrc": "765432-1",
            "economicActivityCode": "62010", "economicActivity": "Programación informática",
            "department": "06", "municipality": "23", "address": "Colonia Escalón, San Salvador",
            "email": "compras@beta.example", "phone": "2555-0000"}


def line(quantity: str, price: str, rate: str, treatment: str | None = None, discount: str = "0") -> dict:
    quantity_, price_, rate_, discount_ = Decimal(quantity), Decimal(price), Decimal(rate), Decimal(discount)
    subtotal = (quantity_ * price_).quantize(Decimal("0.01")) - discount_
    tax = (subtotal * rate_).quantize(Decimal("0.01"))
    return {"productId": None, "description": "Artículo", "quantity": quantity_, "unitPrice": price_,
            "discount": discount_, "taxRate": rate_, "taxTreatment": treatment or ("taxed" if rate_ else "exempt"),
            "subtotal": subtotal, "tax": tax, "total": subtotal + tax}


OUR_TYPE = {"01": "01", "03": "01", "05": "06", "06": "07", "14": "11"}  # the authority's type -> ours
# a supplier who is not a registered taxpayer (no NRC): we issue the factura de sujeto excluido
EXCLUDED_SUPPLIER = {"name": "Juan Pérez", "taxId": "01234567-8", "economicActivityCode": "01460",
                     "economicActivity": "Cría de aves de corral", "department": "05", "municipality": "28",
                     "address": "Cantón El Sauce, Santa Tecla", "phone": "7000-1234", "email": "juan@example.com"}


def confirmed(tipo: str, partner: dict, lines: list[dict], corrects: dict | None = None, **fields) -> dict:
    """A confirmed document issued as DTE `tipo`; a note names the crédito fiscal it corrects."""
    document_type = OUR_TYPE[tipo]
    numero = f"DTE-{tipo}-00010001-000000000000001"
    assert dte.tipo_dte(document_type, partner, corrects) == tipo
    state = dte.pending_dte(tipo, CODIGO if corrects is None else OTHER_CODIGO, numero)
    state.update(emisor=dte_json.issuer(SV, "001-001-01-00000001", tipo), receptor=dte_json.receiver(tipo, partner),
                 horEmi="10:15:00", items=dte_json.item_kinds(lines, {}))
    if corrects is not None:
        state["related"] = dte_json.related(corrects)
    total = sum((item["total"] for item in lines), Decimal(0))
    return {"id": 3, "type": document_type, "number": "001-001-01-00000001", "date": "2026-11-02",
            "dueDate": "2026-11-02", "currency": "USD", "lines": lines, "total": total, "dte": state, **fields}


def factura(**fields) -> dict:
    document = confirmed("01", CONSUMER, fields.pop("lines", [line("2", "50", "0.13")]))
    return {**document, **fields}


PUBLIC_KEY = RSAKey.import_key(SIGNING_KEY).as_pem(private=False).decode()


def submitted(document: dict, key: str = SIGNING_KEY, company: dict = SV) -> Submission:
    """The document's DTE as the service sends it: in the authority's format, signed with `key`."""
    sent = dte_json.authority_document(document)
    return Submission(company_id=int(company["id"]), nit=dte_json.digits(company["taxId"]), ambiente="00",
                      tipo_dte=sent["identificacion"]["tipoDte"], version=sent["identificacion"]["version"],
                      codigo_generacion=sent["identificacion"]["codigoGeneracion"],
                      documento=dte_signing.sign_with(key, sent))
