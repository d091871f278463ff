"""The stand-in authority's lot reception (infra/devstack/dte_authority.py): `/fesv/recepcionlote/` queues up
to `LOT_MAX` signed DTEs and answers the lot's code only; `GET
/fesv/recepcion/consultadtelote/{codigoLote}` answers its DTEs, `procesados` and `rechazados`,
each checked as `/fesv/recepciondte` checks one DTE, when the lot is first consulted (until then,
and while the `lotsInProcess` fault lasts, it is in process: both lists empty)."""
from __future__ import annotations

import base64
import json
import uuid
from decimal import Decimal
from typing import Any, Callable

from chalicelib.countries.sv.domain import dte as dte_rules

LOT_MAX = 100  # DTEs per lot, as the authority's manual gives it
LOT_RECEPTION = ("/fesv/recepcionlote", "/fesv/recepcionlote/")
LOT_CONSULTATION = "/fesv/recepcion/consultadtelote/"


class LotReception:
    """Mixed into StandInAuthority, whose state (`lots`, `sendings`, `lots_in_process`) and
    one-DTE reception (`_reception`, `_answer`) it uses, under its lock."""
    lots: dict[str, dict[str, Any]]
    sendings: dict[str, str]
    lots_in_process: int
    _reception: Callable[[str, dict[str, Any]], tuple[int, Any]]
    _answer: Callable[[dict[str, Any], str | None], dict[str, Any]]

    def _lot_reception(self, nit: str, request: dict[str, Any]) -> tuple[int, Any]:
        id_envio, documents = str(request.get("idEnvio")), request.get("documentos")
        problems = [message for passed, message in (
            (request.get("nitEmisor") == nit, "[nitEmisor] NO CORRESPONDE AL USUARIO AUTENTICADO"),
            (dte_rules.is_codigo_generacion(id_envio), "[idEnvio] DEBE SER UN UUID V4 EN MAYUSCULAS"),
            (isinstance(documents, list) and 1 <= len(documents) <= LOT_MAX
             and all(isinstance(document, str) for document in documents),
             f"[documentos] DEBE CONTENER DE 1 A {LOT_MAX} DOCUMENTOS FIRMADOS"),
        ) if not passed]
        answer = {key: value for key, value in self._answer(request, None).items() if key != "codigoGeneracion"}
        if problems:
            return 400, {**answer, "estado": "RECHAZADO", "idEnvio": id_envio, "codigoLote": None, "clasificaMsg": "20",
                         "codigoMsg": "005", "descripcionMsg": "LOTE RECHAZADO", "observaciones": problems}
        earlier = self.sendings.get(f"{nit}|{id_envio}")
        if earlier is not None:  # the same sending again: its answer again
            return 200, self.lots[earlier]["answer"]
        codigo_lote = str(uuid.uuid4()).upper()
        answer = {**answer, "estado": "RECIBIDO", "idEnvio": id_envio, "codigoLote": codigo_lote, "clasificaMsg": "10",
                  "codigoMsg": "001", "descripcionMsg": "LOTE RECIBIDO, VALIDADO Y EN PROCESO"}
        self.lots[codigo_lote] = {"nit": nit, "idEnvio": id_envio, "ambiente": request.get("ambiente"),
                                  "documentos": documents, "answer": answer, "results": None}
        self.sendings[f"{nit}|{id_envio}"] = codigo_lote
        return 200, answer

    def _lot_consultation(self, nit: str, codigo_lote: str) -> tuple[int, Any]:
        lot = self.lots.get(codigo_lote)
        if lot is None or lot["nit"] != nit:
            return 404, {"estado": "RECHAZADO", "descripcionMsg": "NO SE ENCONTRO EL LOTE", "observaciones": []}
        if lot["results"] is None and self.lots_in_process > 0:  # the fault asked for: still in process
            self.lots_in_process -= 1
            return 200, {"codigoLote": codigo_lote, "procesados": [], "rechazados": []}
        if lot["results"] is None:  # processed now, each DTE as one sent alone
            lot["results"] = {"procesados": [], "rechazados": []}
            for documento in lot["documentos"]:
                # each DTE as it declares itself: its own type and version, whatever the lot's others
                identification = _unverified(documento).get("identificacion") or {}
                status, answer = self._reception(nit, {
                    "ambiente": lot["ambiente"], "idEnvio": lot["idEnvio"], "version": identification.get("version"),
                    "tipoDte": document_type(identification), "documento": documento,
                    "codigoGeneracion": identification.get("codigoGeneracion")})
                lot["results"]["procesados" if answer["estado"] == "PROCESADO" else "rechazados"].append(answer)
        return 200, {"codigoLote": codigo_lote, **lot["results"]}


def document_type(identification: dict[str, Any]) -> Any:
    """What a received document is: a DTE's tipoDte, or the return event's tipoEvento (18)."""
    return identification.get("tipoDte") or identification.get("tipoEvento")


def _unverified(documento: str) -> dict[str, Any]:
    """A JWS's payload read without its signature checked: what a lot's DTE says it is, to answer
    it under its own generation code (its signature is checked when it is received)."""
    try:
        payload = documento.split(".")[1]
        found = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)), parse_float=Decimal)
    except (IndexError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}
