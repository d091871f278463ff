"""A stand-in for El Salvador's tax authority (the Ministerio de Hacienda's DTE API), run by the
local stack (`make run`) and by the tests: the service's transmitter speaks HTTP to it exactly as
to the authority's test environment. It answers in the authority's formats and enforces what the
authority is observed to enforce:

- `/seguridad/auth` (a form: user = NIT, pwd): a token for 24 hours; every other call needs it;
- `/fesv/recepciondte`: the JWS verified with the public key registered for the NIT, the signed
  JSON checked against the authority's schema for its tipoDte in the version it declares (legacy
  or 2026, a version the type has), the request's fields against the signed ones, the issuer
  against the logged-in NIT, the control number's format in that edition (2026:
  DTE-tt-XnnnPnnn-...), the return event (18, fe-eret-v1: `tipoEvento`, no control number), the dates (not
  after today; a DTE issued normally (tipoModelo 1) is received within 24 hours of its issue, one
  issued in contingency (tipoModelo 2) only once a contingency event reported it), and a
  generation code it has registered is refused as already registered (codigoMsg 004);
- `/fesv/recepcion/consultadte/`: the answer a registered DTE got;
- `/fesv/anulardte`: an invalidation event, checked the same way, of a DTE it registered, in that
  DTE's edition (anulacion v2 of a legacy DTE, invalidacion v3 of a 2026 one);
- `/fesv/contingencia`: a contingency event (v3 or v4), checked the same way; the DTEs it lists may then be
  received under tipoModelo 2. The same event again gets its first answer; another under its
  code is refused;
- `/fesv/recepcionlote/`: up to 100 signed DTEs of the logged-in issuer, queued as a lot and
  answered with its code (`codigoLote`) only; the same sending (`idEnvio`) again gets its first
  answer;
- `GET /fesv/recepcion/consultadtelote/{codigoLote}`: the lot's answers, `procesados` and
  `rechazados`, each DTE checked as `recepciondte` checks it when the lot is first consulted.

The taxpayers it knows are registered through `/_standin/taxpayers` (at the authority, the
certificate and the API password are set up in its portal), and `/_standin/faults` makes it
unavailable, drop its answers (the call processed, the connection closed unanswered) or answer
late (processed, answered after `delaySeconds`), answer the next `lotsInProcess` lot consultations
with nothing yet (in process), or reject the DTEs of the generation codes in `rejectCodes`, for the
tests and to try the retry locally. Run alone: `python -m infra.devstack.dte_authority --port 8002`."""
from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import json
import secrets
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from chalicelib import clock, countries
from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_formats
from infra.devstack.dte_authority_checks import (
    contingency_problems,
    invalidation_version_problem,
    is_version_of,
    numero_control_problem,
)
from infra.devstack.dte_authority_lots import LOT_CONSULTATION, LOT_RECEPTION, LotReception, document_type

TOKEN_HOURS = 24
SV_OFFSET = _dt.timedelta(hours=countries.pack(dte_rules.DTE_COUNTRY).utc_offset_hours)


class StandInAuthority(LotReception):
    def __init__(self, state_file: Path | None = None) -> None:
        self.lock = threading.RLock()
        self.state_file = state_file
        self.taxpayers: dict[str, dict[str, str]] = {}
        self.tokens: dict[str, tuple[str, float]] = {}
        self.registered: dict[str, dict[str, Any]] = {}  # generation code -> {nit, tipoDte, document, answer}
        self.invalidations: dict[str, dict[str, Any]] = {}  # the invalidated DTE's code -> the event's answer
        self.reported: dict[str, set[str]] = {}  # NIT -> codes its contingency events listed
        self.events: dict[str, dict[str, Any]] = {}  # contingency event code -> {digest, answer, document}
        # codigoLote -> {nit, idEnvio, ambiente, documentos, answer, results (None until processed)}
        self.lots: dict[str, dict[str, Any]] = {}
        self.sendings: dict[str, str] = {}  # "{nit}|{idEnvio}" -> codigoLote
        self.calls: Counter[str] = Counter()
        self.unavailable = False
        self.answers_to_drop = 0
        self.answers_to_delay, self.answer_delay = 0, 0.0
        self.lots_in_process = 0
        self.reject_codes: set[str] = set()
        if state_file is not None and state_file.exists():
            self._load(json.loads(state_file.read_text()))

    # --- what the tests and the local stack set up -------------------------------------------

    def register(self, nit: str, password: str, public_key: str) -> None:
        with self.lock:
            self.taxpayers[nit] = {"password": password, "publicKey": public_key}
            self._save()

    def faults(self, unavailable: bool | None = None, drop_answers: int | None = None,
               delay_answers: int | None = None, delay_seconds: float | None = None,
               lots_in_process: int | None = None, reject_codes: list[str] | None = None) -> None:
        with self.lock:
            if lots_in_process is not None:
                self.lots_in_process = lots_in_process
            if reject_codes is not None:
                self.reject_codes = set(reject_codes)
            if unavailable is not None:
                self.unavailable = unavailable
            if drop_answers is not None:
                self.answers_to_drop = drop_answers
            if delay_answers is not None:
                self.answers_to_delay = delay_answers
            if delay_seconds is not None:
                self.answer_delay = delay_seconds

    def reset_faults(self) -> None:
        self.faults(unavailable=False, drop_answers=0, delay_answers=0, delay_seconds=0.0, lots_in_process=0,
                    reject_codes=[])

    # --- the API ------------------------------------------------------------------------------

    def handle(self, path: str, headers: dict[str, str], body: bytes, method: str = "POST") -> tuple[int, Any] | None:
        """The status and JSON answer to a request, or None when the answer is to be dropped."""
        path = path.split("?")[0]
        if path.startswith("/_standin/"):
            return self._admin(path, body)
        with self.lock:
            self.calls[LOT_CONSULTATION if path.startswith(LOT_CONSULTATION) else path] += 1
            if self.unavailable:
                return 503, {"status": 503, "error": "Service Unavailable"}
            if path == "/seguridad/auth":
                return self._auth(urllib.parse.parse_qs(body.decode("utf-8", "replace")))
            nit = self._logged_in(headers.get("authorization", ""))
            if nit is None:
                return 401, {"status": 401, "error": "Unauthorized"}
            if method == "GET":
                if not path.startswith(LOT_CONSULTATION):
                    return 404, {"status": 404, "error": "Not Found"}
                answer = self._lot_consultation(nit, urllib.parse.unquote(path[len(LOT_CONSULTATION):]))
            else:
                try:
                    request = json.loads(body or b"null", parse_float=Decimal)
                except ValueError:
                    return 400, {"status": 400, "error": "Bad Request"}
                if not isinstance(request, dict):
                    return 400, {"status": 400, "error": "Bad Request"}
                routes = {"/fesv/recepciondte": self._reception, "/fesv/recepcion/consultadte/": self._consultation,
                          "/fesv/anulardte": self._invalidation, "/fesv/contingencia": self._contingency,
                          **{lot_path: self._lot_reception for lot_path in LOT_RECEPTION}}
                if path not in routes:
                    return 404, {"status": 404, "error": "Not Found"}
                answer = routes[path](nit, request)
            self._save()
            if self.answers_to_drop > 0:
                self.answers_to_drop -= 1
                return None
            delay = 0.0
            if self.answers_to_delay > 0:
                self.answers_to_delay -= 1
                delay = self.answer_delay
        if delay:  # processed; the answer comes after the caller stopped waiting (outside the lock)
            time.sleep(delay)
        return answer

    def _auth(self, form: dict[str, list[str]]) -> tuple[int, Any]:
        user, password = (form.get("user") or [""])[0], (form.get("pwd") or [""])[0]
        taxpayer = self.taxpayers.get(user)
        if taxpayer is None or not secrets.compare_digest(taxpayer["password"], password):
            return 401, {"status": "ERROR", "error": "Unauthorized", "message": "Usuario o contraseña incorrectos"}
        token = "Bearer " + secrets.token_urlsafe(32)
        self.tokens[token] = (user, clock.now().timestamp() + TOKEN_HOURS * 3600)
        return 200, {"status": "OK", "body": {"user": user, "token": token, "tokenType": "Bearer",
                                              "roles": ["ROLE_USER"]}}

    def _logged_in(self, authorization: str) -> str | None:
        nit, expires = self.tokens.get(authorization, (None, 0.0))
        return nit if nit is not None and expires > clock.now().timestamp() else None

    def _reception(self, nit: str, request: dict[str, Any]) -> tuple[int, Any]:
        codigo = str(request.get("codigoGeneracion"))
        if codigo in self.registered:
            return self._rejected(request, codigo, "004", "[identificacion.codigoGeneracion] YA EXISTE UN REGISTRO "
                                                          "CON ESE VALOR")
        sent = self._verified(nit, request.get("documento"))
        if sent is None:
            return self._rejected(request, codigo, "005", "[documento] FIRMA INVALIDA: NO CORRESPONDE AL CERTIFICADO "
                                                          "DEL EMISOR")
        observations = self._document_problems(nit, request, sent)
        if codigo in self.reject_codes:  # the fault asked for: a rejection as the authority words one
            observations = observations or ["[cuerpoDocumento] DOCUMENTO RECHAZADO POR VALIDACION DEL MINISTERIO"]
        if observations:
            return self._rejected(request, codigo, "005", "DOCUMENTO RECHAZADO", observations)
        identification = sent["identificacion"]
        # the return event (18) has no control number: sealed by its code and type
        answer = self._processed(request, codigo,
                                 f"{codigo}|{identification.get('numeroControl') or document_type(identification)}")
        self.registered[codigo] = {"nit": nit, "tipoDte": document_type(identification), "document": sent,
                                   "documento": request["documento"], "answer": answer}
        return 200, answer

    def _document_problems(self, nit: str, request: dict[str, Any], sent: dict[str, Any]) -> list[str]:
        identification = sent.get("identificacion") or {}
        tipo, version = document_type(identification), identification.get("version")
        if not dte_formats.is_format(tipo):
            return [f"[identificacion.tipoDte] TIPO DE DOCUMENTO NO SOPORTADO: {tipo}"]
        if not is_version_of(tipo, version):
            return [f"[identificacion.version] LA VERSION {version} NO CORRESPONDE AL TIPO DE DOCUMENTO {tipo}"]
        found = [f"[{problem['field']}] {problem['message']}"
                 for problem in dte_formats.schema_problems(sent, None if tipo != dte_formats.RETORNO else tipo)]
        control = numero_control_problem(identification, tipo)
        if found:  # the control number's own check beside the schema's (the 2026 schemas leave rules to it)
            return found + ([control] if control else [])
        checks = (
            (request.get("tipoDte") == tipo and request.get("version") == identification["version"]
             and request.get("ambiente") == identification["ambiente"],
             "[tipoDte, version, ambiente] NO CORRESPONDEN AL DOCUMENTO FIRMADO"),
            (request.get("codigoGeneracion") == identification["codigoGeneracion"],
             "[codigoGeneracion] NO CORRESPONDE AL DOCUMENTO FIRMADO"),
            (dte_rules.is_codigo_generacion(identification["codigoGeneracion"]),
             "[identificacion.codigoGeneracion] DEBE SER UN UUID V4 EN MAYUSCULAS"),
            (control is None, control),
            (sent["emisor"]["nit"] == nit, "[emisor.nit] NO CORRESPONDE AL USUARIO AUTENTICADO"),
            (_total(sent["resumen"]) > 0,
             "[resumen.totalPagar] DEBE SER MAYOR QUE CERO"),
        )
        return [message for passed, message in checks if not passed] + self._date_problems(nit, identification)

    def _date_problems(self, nit: str, identification: dict[str, Any]) -> list[str]:
        issued = _dt.datetime.fromisoformat(f"{identification['fecEmi']}T{identification['horEmi']}")
        now_there = (clock.now() + SV_OFFSET).replace(tzinfo=None)
        if issued.date() > now_there.date():
            return ["[identificacion.fecEmi] LA FECHA DE EMISION NO PUEDE SER POSTERIOR A LA FECHA ACTUAL"]
        if identification["tipoModelo"] == 2:
            if identification["codigoGeneracion"] not in self.reported.get(nit, set()):
                return ["[identificacion.tipoModelo] DOCUMENTO EN CONTINGENCIA NO REPORTADO EN UN EVENTO DE CONTINGENCIA"]
        elif now_there - issued > dte_rules.AUTHORITY_WINDOW:
            return ["[identificacion.fecEmi] FUERA DEL PLAZO DE TRANSMISION: TRANSMITA EN CONTINGENCIA"]
        return []

    def _consultation(self, nit: str, request: dict[str, Any]) -> tuple[int, Any]:
        found = self.registered.get(str(request.get("codigoGeneracion")))
        if found is None or found["nit"] != nit or found["tipoDte"] != request.get("tdte"):
            return 404, {"estado": "RECHAZADO", "descripcionMsg": "NO SE ENCONTRO EL DOCUMENTO", "observaciones": []}
        return 200, found["answer"]

    def _invalidation(self, nit: str, request: dict[str, Any]) -> tuple[int, Any]:
        sent = self._verified(nit, request.get("documento"))
        if sent is None:
            return self._rejected(request, None, "005", "[documento] FIRMA INVALIDA: NO CORRESPONDE AL CERTIFICADO "
                                                        "DEL EMISOR")
        codigo = (sent.get("identificacion") or {}).get("codigoGeneracion")
        problems = [f"[{problem['field']}] {problem['message']}"
                    for problem in dte_formats.schema_problems(sent, dte_formats.INVALIDATION)]
        if not problems:
            invalidated = self.registered.get(sent["documento"]["codigoGeneracion"])
            if sent["emisor"]["nit"] != nit:
                problems.append("[emisor.nit] NO CORRESPONDE AL USUARIO AUTENTICADO")
            elif invalidated is None or invalidated["nit"] != nit:
                problems.append("[documento.codigoGeneracion] EL DOCUMENTO NO EXISTE")
            elif (version_problem := invalidation_version_problem(request, sent, invalidated)) is not None:
                problems.append(version_problem)
            elif sent["documento"]["codigoGeneracion"] in self.invalidations:
                earlier = self.invalidations[sent["documento"]["codigoGeneracion"]]
                if earlier["codigoGeneracion"] == codigo:  # the same event again: its answer again
                    return 200, earlier
                problems.append("[documento.codigoGeneracion] EL DOCUMENTO YA FUE INVALIDADO")
        if problems:
            return self._rejected(request, codigo, "005", "EVENTO RECHAZADO", problems)
        answer = self._processed(request, codigo, f"{codigo}|anulacion")
        self.invalidations[sent["documento"]["codigoGeneracion"]] = answer
        return 200, answer

    def _contingency(self, nit: str, request: dict[str, Any]) -> tuple[int, Any]:
        sent = self._verified(nit, request.get("documento"))
        problems = ["[documento] FIRMA INVALIDA: NO CORRESPONDE AL CERTIFICADO DEL EMISOR"] if sent is None else [
            f"[{problem['field']}] {problem['message']}"
            for problem in dte_formats.schema_problems(sent, dte_formats.CONTINGENCY)]
        if not problems and (sent["emisor"]["nit"] != nit or request.get("nit") != nit):
            problems.append("[emisor.nit] NO CORRESPONDE AL USUARIO AUTENTICADO")
        if not problems:
            problems = contingency_problems(sent)
        at = (clock.now() + SV_OFFSET).strftime("%d/%m/%Y %H:%M:%S")
        if problems:
            return 400, {"estado": "RECHAZADO", "fechaHora": at, "mensaje": "EVENTO RECHAZADO", "selloRecibido": None,
                         "observaciones": problems}
        event = sent["identificacion"]["codigoGeneracion"]
        earlier = self.events.get(event)
        if earlier is not None:  # the same event again: its answer again; another under its code: refused
            if earlier["digest"] == _digest(sent):
                return 200, earlier["answer"]
            return 400, {"estado": "RECHAZADO", "fechaHora": at, "mensaje": "EVENTO RECHAZADO", "selloRecibido": None,
                         "observaciones": ["[identificacion.codigoGeneracion] YA EXISTE UN REGISTRO CON ESE VALOR"]}
        codes = {item["codigoGeneracion"] for item in sent["detalleDTE"]}
        self.reported.setdefault(nit, set()).update(codes)
        answer = {"estado": "RECIBIDO", "fechaHora": at, "mensaje": "EVENTO RECIBIDO",
                  "selloRecibido": _seal(event + "|contingencia"), "observaciones": []}
        self.events[event] = {"digest": _digest(sent), "answer": answer, "document": sent}
        return 200, answer

    def _verified(self, nit: str, documento: Any) -> dict[str, Any] | None:
        """The signed JSON when the JWS is RS512 with the NIT's registered key, else None."""
        from joserfc import jws
        from joserfc.jwk import RSAKey

        taxpayer = self.taxpayers.get(nit)
        if taxpayer is None or not isinstance(documento, str):
            return None
        try:
            signed = jws.deserialize_compact(documento, RSAKey.import_key(taxpayer["publicKey"]), algorithms=["RS512"])
            payload = json.loads(signed.payload, parse_float=Decimal)
        except Exception:  # a forged, altered or malformed signature: all the same answer
            return None
        return payload if signed.protected.get("alg") == "RS512" and isinstance(payload, dict) else None

    @staticmethod
    def _answer(request: dict[str, Any], codigo: str | None) -> dict[str, Any]:
        return {"version": request.get("version"), "ambiente": request.get("ambiente"), "versionApp": 2,
                "codigoGeneracion": codigo,
                "fhProcesamiento": (clock.now() + SV_OFFSET).strftime("%d/%m/%Y %H:%M:%S")}

    def _processed(self, request: dict[str, Any], codigo: str, sealed: str) -> dict[str, Any]:
        return {**self._answer(request, codigo), "estado": "PROCESADO", "selloRecibido": _seal(sealed),
                "clasificaMsg": "10", "codigoMsg": "001", "descripcionMsg": "RECIBIDO", "observaciones": []}

    def _rejected(self, request: dict[str, Any], codigo: str | None, code: str, description: str,
                  observations: list[str] | None = None) -> tuple[int, Any]:
        return 400, {**self._answer(request, codigo), "estado": "RECHAZADO", "selloRecibido": None,
                     "clasificaMsg": "20", "codigoMsg": code, "descripcionMsg": description,
                     "observaciones": observations or []}

    # --- set-up and state -----------------------------------------------------------------------

    def _admin(self, path: str, body: bytes) -> tuple[int, Any]:
        try:
            fields = json.loads(body or b"{}")
            if path == "/_standin/taxpayers":
                self.register(str(fields["nit"]), str(fields["password"]), str(fields["publicKey"]))
                return 201, {"nit": fields["nit"]}
            if path == "/_standin/faults":
                self.faults(fields.get("unavailable"), fields.get("dropAnswers"), fields.get("delayAnswers"),
                            fields.get("delaySeconds"), fields.get("lotsInProcess"), fields.get("rejectCodes"))
                return 200, {"unavailable": self.unavailable, "dropAnswers": self.answers_to_drop,
                             "delayAnswers": self.answers_to_delay, "delaySeconds": self.answer_delay,
                             "lotsInProcess": self.lots_in_process, "rejectCodes": sorted(self.reject_codes)}
        except (ValueError, KeyError, TypeError) as error:
            return 400, {"error": f"bad request: {error!r}"}
        return 404, {"error": "Not Found"}

    def _save(self) -> None:
        if self.state_file is None:
            return
        state = {"taxpayers": self.taxpayers, "reported": {nit: sorted(codes) for nit, codes in self.reported.items()},
                 "registered": self.registered, "invalidations": self.invalidations, "events": self.events,
                 "lots": self.lots, "sendings": self.sendings}
        self.state_file.write_text(json.dumps(state, default=str))

    def _load(self, state: dict[str, Any]) -> None:
        self.taxpayers = state.get("taxpayers", {})
        self.reported = {nit: set(codes) for nit, codes in state.get("reported", {}).items()}
        self.registered = state.get("registered", {})
        self.invalidations = state.get("invalidations", {})
        self.events = state.get("events", {})
        self.lots = state.get("lots", {})
        self.sendings = state.get("sendings", {})


def _digest(document: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(document, sort_keys=True, default=str).encode()).hexdigest()


def _total(summary: dict[str, Any]) -> Decimal:
    """What the document is worth: a note's operation, a retention's IVA withheld."""
    # issue 40: purchases — fe-cr-v2 names the IVA withheld totalIvaRetenido
    for name in ("totalPagar", "montoTotalOperacion", "totalIVAretenido", "totalIvaRetenido"):
        if name in summary:
            return Decimal(summary[name])
    return Decimal(0)


def _seal(codes: str) -> str:
    """40 characters: the year of reception and a digest, as the authority's seals look."""
    return f"{clock.now().year}{hashlib.sha256(codes.encode()).hexdigest().upper()[:36]}"


def seal_of(codigo: str, numero_control: str) -> str:
    """The seal the stand-in gives a DTE it accepts (for the tests)."""
    return _seal(f"{codigo}|{numero_control}")


def make_server(authority: StandInAuthority, port: int = 0) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            self._serve("POST")

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self._serve("GET")

        def _serve(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            answer = authority.handle(self.path, {k.lower(): v for k, v in self.headers.items()}, body, method)
            if answer is None:  # processed, but the answer is lost on the way back
                self.close_connection = True
                return
            status, payload = answer
            data = json.dumps(payload, default=str).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    return server


def serve(authority: StandInAuthority, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Starts the stand-in on a thread; returns the server and its base URL."""
    server = make_server(authority, port)
    threading.Thread(target=server.serve_forever, daemon=True, name="dte-authority").start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def register_taxpayer(base_url: str, nit: str, password: str, public_key: str) -> None:
    """What a taxpayer does in the authority's portal, done at a stand-in over HTTP."""
    request = urllib.request.Request(f"{base_url}/_standin/taxpayers", method="POST",
                                     data=json.dumps({"nit": nit, "password": password,
                                                      "publicKey": public_key}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 (a local stand-in)
        response.read()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8002)
    parser.add_argument("--state-file", type=Path, default=None)
    args = parser.parse_args(argv)
    server = make_server(StandInAuthority(args.state_file), args.port)
    print(f"DTE authority stand-in on http://127.0.0.1:{args.port}", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
