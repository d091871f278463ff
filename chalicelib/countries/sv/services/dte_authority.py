"""El Salvador's tax authority (Ministerio de Hacienda) over HTTP, as its API is published: log in
with the company's NIT and API password (`/seguridad/auth`, a form; the token answered lasts 24
hours and is kept until shortly before), then send a signed DTE (`/fesv/recepciondte`), an
invalidation (`/fesv/anulardte`) or a contingency event (`/fesv/contingencia`), and read the
answer; or send DTEs together as a lot (`/fesv/recepcionlote/`, answered with the lot's code only)
and ask later for the answers to its documents (`/fesv/recepcion/consultadtelote/{codigoLote}`). A call that got no answer (connection refused or reset, timeout, a 5xx) is made again
with backoff; a DTE is always sent again under its own generation code, so the authority keeps
one document however many times it arrived: when it answers that the code is already
registered, the first answer is asked for (`/fesv/recepcion/consultadte/`).

The base URL is configuration (`DTE_AUTHORITY_URL`): the authority's test or production
environment, or the stand-in the local stack and the tests run (infra/devstack/dte_authority.py)."""
from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from chalicelib import clock
from chalicelib.countries.sv.domain.dte import DteResult

AUTH, RECEPTION, INVALIDATION, CONTINGENCY, CONSULTATION = (
    "/seguridad/auth", "/fesv/recepciondte", "/fesv/anulardte", "/fesv/contingencia", "/fesv/recepcion/consultadte/")
LOT_RECEPTION, LOT_CONSULTATION = "/fesv/recepcionlote/", "/fesv/recepcion/consultadtelote/"
# The version of the lot's own request (its JSON schema is not published beside the DTEs'; the
# public clients send 1), not its DTEs': each declares its own in its signed identificacion, and a
# DTE or event sent alone goes with the version it declares (`Submission.version`).
LOT_VERSION = 1
# The authority's tokens last 24 hours (48 in its test environment): renewed an hour before.
TOKEN_SECONDS = 23 * 3600
PROCESSED, RECEIVED = "PROCESADO", "RECIBIDO"
# The authority's answer to a generation code it has already registered.
ALREADY_REGISTERED = "004"


@dataclass(frozen=True)
class Submission:
    """What the authority's reception service receives: the signed DTE (or event) and what the
    request names beside it. `company_id` is ours: the password is the company's."""
    company_id: int
    nit: str
    ambiente: str
    tipo_dte: str
    version: int
    codigo_generacion: str
    documento: str  # the signed JSON, a compact JWS


@dataclass(frozen=True)
class Lot:
    """What the authority's lot reception receives: signed DTEs (compact JWS) sent together under
    the id we gave the sending (`idEnvio`, an uppercase UUID)."""
    company_id: int
    nit: str
    ambiente: str
    id_envio: str
    documentos: tuple[str, ...]
    version: int = LOT_VERSION


@dataclass(frozen=True)
class LotAnswer:
    """The authority's answer to one DTE of a lot."""
    codigo_generacion: str
    result: DteResult


class LotRefused(Exception):
    """The authority answered, refusing the lot as a whole (none of its DTEs was received)."""

    def __init__(self, observations: list[str]) -> None:
        super().__init__("; ".join(observations))
        self.observations = observations


class DteTransmitter(Protocol):
    def transmit(self, submission: Submission) -> DteResult:
        """Sends a signed DTE and returns the authority's answer; raises TransmissionFailed when
        none came."""
        ...

    def invalidate(self, submission: Submission) -> DteResult:
        """Sends a signed invalidation event; the same answers."""
        ...

    def report_contingency(self, submission: Submission) -> DteResult:
        """Sends a signed contingency event; the same answers."""
        ...

    def send_lot(self, lot: Lot) -> str:
        """Sends a lot and returns the authority's code for it (`codigoLote`); raises
        TransmissionFailed when no answer came, LotRefused when the lot was refused."""
        ...

    def lot_answers(self, lot: Lot, codigo_lote: str, tipos: dict[str, str]) -> list[LotAnswer]:
        """The answers given so far to a lot's DTEs (`tipos`: each one's tipoDte by its generation
        code); those still in process are not among them. Raises TransmissionFailed when no
        answer came."""
        ...


class TransmissionFailed(Exception):
    """The tax authority did not answer (after the retries)."""


class _NoAnswer(Exception):
    pass


class _Unauthorized(Exception):
    pass


# (authority URL, company, NIT) -> (token, when to renew it, monotonic)
_tokens: dict[tuple[str, int, str], tuple[str, float]] = {}
_tokens_lock = threading.Lock()


def forget_authority_tokens(company_id: int | None = None) -> None:
    """Forgets the tokens kept (of one company: its password changed)."""
    with _tokens_lock:
        for key in [key for key in _tokens if company_id is None or key[1] == company_id]:
            del _tokens[key]


class HttpDteTransmitter:
    def __init__(self, base_url: str, password_of: Callable[[int], str], *, timeout: float = 8.0,
                 attempts: int = 3, backoff: float = 0.5, sleep: Callable[[float], None] = time.sleep) -> None:
        self.base_url = base_url.rstrip("/")
        self.password_of = password_of
        self.timeout, self.attempts, self.backoff, self.sleep = timeout, max(1, attempts), backoff, sleep

    def transmit(self, submission: Submission) -> DteResult:
        answer = self._call(submission, RECEPTION, {
            "ambiente": submission.ambiente, "idEnvio": 1, "version": submission.version,
            "tipoDte": submission.tipo_dte, "documento": submission.documento,
            "codigoGeneracion": submission.codigo_generacion})
        if answer.get("estado") != PROCESSED and answer.get("codigoMsg") == ALREADY_REGISTERED:
            # an earlier attempt arrived though its answer was lost: that attempt's answer
            answer = self._first_answer(submission, submission.tipo_dte, submission.codigo_generacion)
        return _result(answer, PROCESSED)

    def _first_answer(self, issuer: Submission | Lot, tipo_dte: str, codigo: str) -> dict[str, Any]:
        answer = self._call(issuer, CONSULTATION, {"nitEmisor": issuer.nit, "tdte": tipo_dte,
                                                   "codigoGeneracion": codigo})
        if answer.get("estado") != PROCESSED or not answer.get("selloRecibido"):
            # registered there, yet not found or not accepted: no answer to record, ask again later
            raise TransmissionFailed(f"the authority holds the DTE but its consultation answered "
                                     f"{answer.get('estado')!r}")
        return answer

    def invalidate(self, submission: Submission) -> DteResult:
        return _result(self._call(submission, INVALIDATION, {
            "ambiente": submission.ambiente, "idEnvio": 1, "version": submission.version,
            "documento": submission.documento}), PROCESSED)

    def report_contingency(self, submission: Submission) -> DteResult:
        return _result(self._call(submission, CONTINGENCY, {"nit": submission.nit, "documento": submission.documento}),
                       RECEIVED)

    def send_lot(self, lot: Lot) -> str:
        answer = self._call(lot, LOT_RECEPTION, {
            "ambiente": lot.ambiente, "idEnvio": lot.id_envio, "version": lot.version, "nitEmisor": lot.nit,
            "documentos": list(lot.documentos)})
        if answer.get("estado") != RECEIVED or not answer.get("codigoLote"):
            raise LotRefused(_result(answer, RECEIVED).observations)
        return str(answer["codigoLote"])

    def lot_answers(self, lot: Lot, codigo_lote: str, tipos: dict[str, str]) -> list[LotAnswer]:
        # answered {procesados: [...], rechazados: [...]}, each as recepciondte answers one DTE; an
        # empty answer while the lot is in process
        answer = self._call(lot, LOT_CONSULTATION + urllib.parse.quote(codigo_lote, safe=""), None,
                            answered_by=("procesados", "rechazados"))
        answers = []
        for entry in [*(answer.get("procesados") or []), *(answer.get("rechazados") or [])]:
            codigo = str(entry.get("codigoGeneracion")) if isinstance(entry, dict) else ""
            if codigo not in tipos:
                continue  # not one of ours: nothing to record it on
            if entry.get("estado") != PROCESSED and entry.get("codigoMsg") == ALREADY_REGISTERED:
                try:  # it had arrived before (an earlier sending): the answer it got then
                    entry = self._first_answer(lot, tipos[codigo], codigo)
                except TransmissionFailed:
                    continue  # asked again at the next poll
            answers.append(LotAnswer(codigo, _result(entry, PROCESSED)))
        return answers

    # --- the calls ---------------------------------------------------------------------------

    def _call(self, issuer: Submission | Lot, path: str, body: dict[str, Any] | None, *,
              answered_by: tuple[str, ...] = ("estado",)) -> dict[str, Any]:
        """POSTs the body (GETs without one) with the company's token, logging in again once when
        the authority no longer takes it; calls that got no answer are made again, up to
        `attempts` in all."""
        for attempt in range(self.attempts):
            try:
                try:
                    return self._post_json(path, body, self._token(issuer), answered_by)
                except _Unauthorized:
                    self._drop_token(issuer)
                    return self._post_json(path, body, self._token(issuer), answered_by)
            except _Unauthorized:
                raise TransmissionFailed("the tax authority did not take a fresh token") from None
            except _NoAnswer as error:
                if attempt + 1 == self.attempts:
                    raise TransmissionFailed(f"the tax authority did not answer: {error}") from None
                self.sleep(self.backoff * 2 ** attempt)
        raise AssertionError("unreachable")

    def _token(self, submission: Submission | Lot) -> str:
        key = (self.base_url, submission.company_id, submission.nit)
        with _tokens_lock:
            cached = _tokens.get(key)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        form = urllib.parse.urlencode({"user": submission.nit, "pwd": self.password_of(submission.company_id)})
        status, answer = self._post(AUTH, form.encode(), {"Content-Type": "application/x-www-form-urlencoded"})
        answer = answer if isinstance(answer, dict) else {}
        token = (answer.get("body") or {}).get("token") if isinstance(answer.get("body"), dict) else None
        if status != 200 or answer.get("status") != "OK" or not isinstance(token, str) or not token:
            # a wrong password is no reason to wait: every DTE stays pending until it is set right
            raise TransmissionFailed(f"the tax authority refused the log-in ({status})")
        with _tokens_lock:
            _tokens[key] = (token, time.monotonic() + TOKEN_SECONDS)
        return token

    def _drop_token(self, submission: Submission | Lot) -> None:
        with _tokens_lock:
            _tokens.pop((self.base_url, submission.company_id, submission.nit), None)

    def _post_json(self, path: str, body: dict[str, Any] | None, token: str,
                   answered_by: tuple[str, ...]) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        status, answer = self._post(path, data, {"Content-Type": "application/json", "Authorization": token})
        if status in (401, 403):
            raise _Unauthorized()
        if body is None and status == 200 and answer is None:
            return {}  # a consultation answered, with nothing in it yet
        if not isinstance(answer, dict) or not any(key in answer for key in answered_by):
            raise _NoAnswer(f"{status} without the authority's answer")
        return answer

    def _post(self, path: str, data: bytes | None, headers: dict[str, str]) -> tuple[int, Any]:
        request = urllib.request.Request(self.base_url + path, data=data, method="GET" if data is None else "POST",
                                         headers={**headers, "User-Agent": "business-api"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310 (configured URL)
                status, raw = response.status, response.read(1 << 20)
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read(1 << 20)
        except (urllib.error.URLError, http.client.HTTPException, OSError) as error:  # refused, reset, timeout
            raise _NoAnswer(repr(error)) from None
        if status >= 500:
            raise _NoAnswer(f"{status} from the authority")
        try:
            return status, json.loads(raw or b"null")
        except ValueError:
            return status, None


# The fields of the reception service's answer, as published: what is kept of it.
ANSWER_FIELDS = ("version", "ambiente", "versionApp", "estado", "codigoGeneracion", "selloRecibido",
                 "fhProcesamiento", "clasificaMsg", "codigoMsg", "descripcionMsg", "observaciones")


def _result(answer: dict[str, Any], accepted_state: str) -> DteResult:
    kept = {name: _plain(answer[name]) for name in ANSWER_FIELDS if name in answer}
    if answer.get("estado") == accepted_state and answer.get("selloRecibido"):
        return DteResult(accepted=True, received_at=clock.now_iso(), sello_recepcion=answer["selloRecibido"],
                         answer=kept)
    observations = [str(text) for text in answer.get("observaciones") or []]
    message = answer.get("descripcionMsg") or answer.get("mensaje")
    return DteResult(accepted=False, received_at=clock.now_iso(),
                     observations=([str(message)] if message else []) + observations, answer=kept)


def _plain(value: Any) -> Any:
    """A value DynamoDB keeps as it came: text, integers, lists of them (a float as its text)."""
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value if value is None or isinstance(value, (str, int)) else str(value)
