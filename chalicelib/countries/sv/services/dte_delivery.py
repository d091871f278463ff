"""What the receiver of an El Salvador DTE is handed: the DTE as it was transmitted, with the
authority's answer. The transmission that got an answer keeps what was sent (the compact JWS, its
payload compressed: DynamoDB's 400 KB item limit and one write unit per KB) and the answer; from
them come the JSON file (the signed JSON, byte for byte, with the signature and the seal appended,
as Salvadoran issuers hand it over) and the JWS itself."""
from __future__ import annotations

import base64
import datetime as _dt
import zlib
from dataclasses import dataclass
from typing import Any, Mapping

from chalicelib import countries, jsoncodec
from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_formats, dte_json
from chalicelib.countries.sv.services import dte_signing
from chalicelib.errors import ApiError, NotFound
from chalicelib.store import keys
from chalicelib.store.table import Table

JSON = "application/json"


class NotTransmitted(ApiError):
    code = "DTE_NOT_TRANSMITTED"


@dataclass(frozen=True)
class Delivery:
    codigo_generacion: str
    jws: str  # the compact JWS, exactly as sent
    json: bytes  # the receiver's file

    @property
    def json_filename(self) -> str:
        return f"{self.codigo_generacion}.json"


def kept(jws: str, answer: dict[str, Any]) -> dict[str, Any]:
    """What the transmission keeps of a DTE sent and answered: the JWS's three parts, its payload
    decoded and compressed (a JWS is the JSON once more in base64), and the answer."""
    protected, payload, signature = jws.split(".")
    return {"protected": protected, "payload": zlib.compress(_decoded(payload), 9), "signature": signature,
            "answer": answer}


def delivery(table: Table, company_id: int, document_id: int) -> Delivery:
    """The document's DTE as transmitted: 404 when the document is none (or another company's),
    400 DTE_NOT_TRANSMITTED while the authority has not answered it."""
    from chalicelib.services.sales_purchases import (
        documents,  # which issues DTEs (countries/sv/services/dte.py keeps what was sent)
    )

    return _delivery_of(table, company_id, documents.get_document(table, company_id, document_id))


def delivered_if_any(table: Table, company_id: int, document: Mapping[str, Any]) -> Delivery | None:
    """The DTE to hand over with the document (an e-mail), None while there is none to hand."""
    if not document.get("dte"):
        return None
    try:
        return _delivery_of(table, company_id, document)
    except ApiError:  # not answered yet, never sent (issued before the formats), or its key gone
        return None


def _delivery_of(table: Table, company_id: int, document: Mapping[str, Any]) -> Delivery:
    dte = document.get("dte")
    if not dte:
        raise NotFound("This document is not an El Salvador DTE.")
    if dte.get("status") == dte_rules.PENDING:
        raise NotTransmitted("The tax authority has not answered this DTE yet: it is sent again every hour; "
                               "ask again once it is accepted.")
    sent = (table.get(keys.dte_transmission(company_id, document["id"])) or {}).get("sent")
    if sent is not None:
        payload = zlib.decompress(bytes(getattr(sent["payload"], "value", sent["payload"])))
        jws = ".".join((sent["protected"], _encoded(payload), sent["signature"]))
        return Delivery(dte["codigoGeneracion"], jws, receiver_file(payload, jws, sent.get("answer") or {}))
    return _rebuilt(table, company_id, document)


def receiver_file(payload: bytes, jws: str, answer: dict[str, Any]) -> bytes:
    """The signed JSON as it is, its closing brace moved after the signature (`firmaElectronica`),
    the seal (`selloRecibido`) and the whole answer (`respuestaHacienda`): the first bytes are the
    signed ones, so what the receiver reads is what the authority received."""
    appended = jsoncodec.dumps({"firmaElectronica": jws, "selloRecibido": answer.get("selloRecibido"),
                                "respuestaHacienda": answer})
    return payload.rstrip()[:-1] + b"," + appended[1:].encode("utf-8")


def _rebuilt(table: Table, company_id: int, document: Mapping[str, Any]) -> Delivery:
    """A DTE answered before what was sent was kept: built again from what was issued (kept on the
    document) and signed again (the signature is deterministic: the same key gives the same bytes).
    Its issuer and receiver were kept as maps, which DynamoDB gives back in an order of its own:
    they are put back in the order they were built in, the format's (`_in_built_order`)."""
    dte = document["dte"]
    if "emisor" not in dte:  # issued before the authority's formats: it was never sent
        raise NotTransmitted("This DTE was issued before the tax authority's formats and was never sent to it.")
    company = table.get(keys.company(company_id)) or {}
    sent = _in_built_order(dte_json.authority_document(document, dte_json.ambiente(company)))
    jws = dte_signing.sign(table, company_id, sent)
    answer = {"estado": "PROCESADO" if dte.get("selloRecepcion") else "RECHAZADO",
              "codigoGeneracion": dte["codigoGeneracion"], "selloRecibido": dte.get("selloRecepcion"),
              "fhProcesamiento": _processed_at(dte.get("transmittedAt")),
              "observaciones": list(dte.get("observations") or [])}
    return Delivery(dte["codigoGeneracion"], jws, receiver_file(jsoncodec.dumps(sent).encode("utf-8"), jws, answer))


# the parts of a DTE that come from maps kept on the document, not built again
_KEPT_PARTS = ("emisor", "receptor", "documentoRelacionado")


def _in_built_order(sent: dict[str, Any]) -> dict[str, Any]:
    """`sent` with the fields of its kept maps in the order of its format's schema, the order the
    issuer and receiver are built in (dte_json): the bytes signed again are the bytes signed once."""
    identification = sent.get("identificacion") or {}
    version = identification.get("version")
    try:
        declared = dte_formats.schema(identification["tipoDte"], None if version is None else int(version))
    except (KeyError, TypeError, ValueError):
        return sent
    properties = declared.get("properties") or {}
    return {name: _ordered(value, properties.get(name) or {}) if name in _KEPT_PARTS else value
            for name, value in sent.items()}


def _ordered(value: Any, declared: dict[str, Any]) -> Any:
    """A JSON value with each object's fields in the order its schema declares them (undeclared
    ones after, by name)."""
    for variant in (declared, *declared.get("anyOf", ()), *declared.get("oneOf", ())):
        if isinstance(value, dict) and variant.get("properties"):
            order = list(variant["properties"])
            rank = {name: position for position, name in enumerate(order)}
            return {name: _ordered(value[name], variant["properties"].get(name) or {})
                    for name in sorted(value, key=lambda name: (rank.get(name, len(order)), name))}
        if isinstance(value, list) and isinstance(variant.get("items"), dict):
            return [_ordered(item, variant["items"]) for item in value]
    return value


def _processed_at(moment: str | None) -> str | None:
    """The authority's way of writing it: dd/mm/yyyy hh:mm:ss, El Salvador's time."""
    if not moment:
        return None
    local = _dt.datetime.fromisoformat(moment.replace("Z", "+00:00")) + _dt.timedelta(
        hours=countries.pack(dte_rules.DTE_COUNTRY).utc_offset_hours)
    return local.strftime("%d/%m/%Y %H:%M:%S")


def _decoded(segment: str) -> bytes:
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def _encoded(payload: bytes) -> str:
    return base64.urlsafe_b64encode(payload).rstrip(b"=").decode("ascii")
