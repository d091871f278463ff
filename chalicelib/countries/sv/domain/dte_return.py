"""The return event (evento de retorno, CAT-002 18, fe-eret-v1 of the 2026 package), no I/O: goods
returned or money refunded on a factura (01), factura de exportación (11) or factura de sujeto
excluido (14) issued in the 2026 edition (Manual Funcional V2.0, section XI).

Here a sales credit note (06) whose source is a 2026 FE or FEX, or a purchase credit note (105) whose
source is a 2026 FSE, is that event: the note moves the stock and the partner's balance as any credit
note does, and what the authority receives is the event, naming the source by its generation code
and date. The manual's conditions:

- only on a DTE that obtained its seal (condition 6), within 3 months of its generation date (page
  27; condition 5 names the seal, which is never earlier: the generation date is the stricter, and
  the one a DTE sealed late in contingency must keep to);
- "n" events on one DTE while their sum never exceeds it (condition 4): kept per source line, as
  quantity and amount, so that no line is returned twice over; a refund of money without goods (a
  line without a product, is_refund) takes amount only;
- up to 50 documents of one type, each related once (condition 2): a note has one source, so one.

A factura's amounts include IVA (precioUni, ventaGravada; ivaItem says the IVA inside), as on the
factura itself; an export's carry none."""
from __future__ import annotations

import datetime as _dt
from decimal import Decimal
from typing import Any, Mapping

from chalicelib.countries.sv.domain.dte import EXPORTACION, FACTURA, SUJETO_EXCLUIDO, item_price
from chalicelib.countries.sv.domain.dte_formats import EDITION_2026, RETORNO, dte_edition, version_of
from chalicelib.domain import taxes
from chalicelib.domain.amount_words import amount_in_words
from chalicelib.domain.schedules import add_months
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase

RETURNABLE = (FACTURA, EXPORTACION, SUJETO_EXCLUIDO)
# Which of our credit notes returns which DTEs: a sales credit note (06) the FE and FEX we issued; a
# purchase credit note (105) the factura de sujeto excluido we issued as the buyer (a purchase from a
# supplier without an NRC): goods given back to the supplier, or money it refunds.
RETURNED_BY = {"06": (FACTURA, EXPORTACION), "105": (SUJETO_EXCLUIDO,)}
MAX_DOCUMENTS = 50
WINDOW_MONTHS = 3
# The manual (page 27): an FE or FEX whose issuer names one of these economic activities (CAT-019)
# may be returned within 2 years of its generation instead.
LONG_WINDOW_ACTIVITIES = frozenset({"01282", "21001", "46484", "47721"})
LONG_WINDOW_MONTHS = 24
UNIT = 59  # CAT-014
_CENTS = Decimal("0.01")
WINDOW_CLOSED = "DTE_RETURN_WINDOW_CLOSED"
EXCEEDS_DOCUMENT = "DTE_RETURN_EXCEEDS_DOCUMENT"


def is_return(source: Mapping[str, Any] | None, note_type: str = "06") -> bool:
    """Whether a credit note of `source` is a return event: a sales note (06) of an FE or FEX, a
    purchase note (105) of an FSE, issued in the 2026 edition (a legacy one keeps today's rule: a
    note of a factura is no DTE)."""
    dte = (source or {}).get("dte") or {}
    return dte.get("tipoDte") in RETURNED_BY.get(note_type, ()) and dte_edition(dte) == EDITION_2026


def window_end(start: _dt.date, months: int = WINDOW_MONTHS) -> _dt.date:
    """The last day an event may be dated: `months` after `start` (the same day of the month, or the
    month's last day when it is shorter)."""
    return add_months(start, months)


def window_months(source: Mapping[str, Any]) -> int:
    """3 months; 2 years for an FE or FEX whose issuer names one of the manual's activities."""
    dte = source.get("dte") or {}
    activity = str((dte.get("emisor") or {}).get("codActividad") or "")
    long = dte.get("tipoDte") in (FACTURA, EXPORTACION) and activity in LONG_WINDOW_ACTIVITIES
    return LONG_WINDOW_MONTHS if long else WINDOW_MONTHS


def check_window(source: Mapping[str, Any], sealed_on: _dt.date | None, date: str) -> None:
    """Refuses a return of a DTE without its seal, or dated past its window. The window counts from
    the DTE's generation date (its fecEmi, the document's date; the manual, page 27), which is never
    later than its seal: a DTE sealed days after it was generated (in contingency) has the days
    between already spent. The earlier of the two, so that what is accepted here the authority accepts."""
    if sealed_on is None:
        raise ValidationFailed.for_field("sourceDocumentId", "a return event applies to a DTE the tax authority has "
                                                             "sealed: wait for its seal", code=WINDOW_CLOSED)
    months = window_months(source)
    last = window_end(min(sealed_on, _dt.date.fromisoformat(str(source["date"]))), months)
    if _dt.date.fromisoformat(date) > last:
        raise ValidationFailed.for_field("sourceDocumentId",
                Phrase("a return event is issued within {} months of its DTE's generation date: the last day was {}",
                       months, last.isoformat()), code=WINDOW_CLOSED)


def returned_lines(lines: list[Mapping[str, Any]], source_lines: list[Mapping[str, Any]],
                   already: Mapping[str, Mapping[str, Any]]) -> list[int]:
    """Per line of the note, the source line it returns: the first with the same product (or, a
    line without one, the same description) and treatment whose quantity and amount are not used
    up by earlier returns (`already`: per source line index, the quantity and total returned) and
    this note's lines before it. A refund (is_refund) takes only amount, of the first line of the
    same treatment and tax rate with enough left. Refuses a line that returns what is not left."""
    used = {int(index): (Decimal(seen["quantity"]), Decimal(seen["total"])) for index, seen in already.items()}
    matched = []
    for position, line in enumerate(lines):
        refund = is_refund(line, source_lines)
        quantity, total = Decimal(0) if refund else Decimal(line["quantity"]), Decimal(line["total"])
        if refund:
            candidates = [index for index, source in enumerate(source_lines) if _same_tax(line, source)]
            if not candidates:
                raise ValidationFailed.for_field(f"lines[{position}]", "a refund on a return event is of a line of its "
                                                                       "DTE with the same tax treatment and rate: "
                                                                       "none has them", code=EXCEEDS_DOCUMENT)
        else:
            candidates = _priced(position, line, source_lines)
        left = {index: (Decimal(source_lines[index]["quantity"]) - used.get(index, (0, 0))[0],
                        Decimal(source_lines[index]["total"]) - used.get(index, (0, 0))[1]) for index in candidates}
        fits = next((index for index in candidates if quantity <= left[index][0] and total <= left[index][1]), None)
        if fits is None:
            raise _exceeds(position, quantity, [left[index] for index in candidates])
        before = used.get(fits, (Decimal(0), Decimal(0)))
        used[fits] = (before[0] + quantity, before[1] + total)
        matched.append(fits)
    return matched


def is_refund(line: Mapping[str, Any], source_lines: list[Mapping[str, Any]]) -> bool:
    """A line without a product that is none of the DTE's own free-text lines (by description and
    treatment): money given back on what the DTE sold (the manual's "reembolsos"), no goods
    returned, so no stock moves and no quantity of the DTE is used up, only its amount."""
    return line.get("productId") is None and not any(
        source.get("productId") is None and _same_item(line, source) for source in source_lines)


def _priced(position: int, line: Mapping[str, Any], source_lines: list[Mapping[str, Any]]) -> list[int]:
    """The source lines of the same item a line of goods may return: at most their price, at their rate."""
    candidates = [index for index, source in enumerate(source_lines) if _same_item(line, source)]
    if not candidates:
        raise ValidationFailed.for_field(f"lines[{position}]", "a return event returns lines of its DTE: this "
                                                               "product is not on it", code=EXCEEDS_DOCUMENT)
    priced = [index for index in candidates
              if Decimal(line["unitPrice"]) <= Decimal(source_lines[index]["unitPrice"])
              and _same_tax(line, source_lines[index])]
    if not priced:  # a unit returned is worth at most what it was sold at, with the same tax
        highest = max(Decimal(source_lines[index]["unitPrice"]) for index in candidates)
        raise ValidationFailed.for_field(f"lines[{position}].unitPrice",
                Phrase("a return is at most the DTE's price and tax rate: {}", highest),
                                         code=EXCEEDS_DOCUMENT)
    return priced


def _same_tax(line: Mapping[str, Any], source: Mapping[str, Any]) -> bool:
    return taxes.treatment_of(line) == taxes.treatment_of(source) and \
        Decimal(line["taxRate"]) == Decimal(source["taxRate"])


def _exceeds(position: int, quantity: Decimal, left: list[tuple[Decimal, Decimal]]) -> ValidationFailed:
    """The refusal of a line that does not fit what its candidates have left: by quantity when no
    line has the units left, else by value (the units are there but each return's IVA, rounded per
    note, has used up the cents: 3 x 0.35 + 13 % = 1.19 sold, returned one at a time 0.40 each)."""
    most = max(units for units, _ in left)
    if quantity > most:
        return ValidationFailed.for_field(f"lines[{position}].quantity",
                Phrase("the returns would exceed the DTE's line: {} left to return", most),
                                          code=EXCEEDS_DOCUMENT)
    value = max(amount for units, amount in left if units >= quantity)
    return ValidationFailed.for_field(f"lines[{position}].unitPrice",
            Phrase("the returns would exceed the amount of the DTE's line, tax included: {} left to return", value),
                                      code=EXCEEDS_DOCUMENT)


def lines_returned(lines: list[Mapping[str, Any]], matched: list[int],
                   source_lines: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What one return takes of its source, kept per note: each line's source line, quantity (none
    for a refund) and total."""
    return [{"sourceLine": index, "quantity": Decimal(0) if is_refund(line, source_lines) else Decimal(line["quantity"]),
             "total": Decimal(line["total"])} for line, index in zip(lines, matched, strict=True)]


def returned_so_far(notes: Mapping[str, list[Mapping[str, Any]]], live: set[str]) -> dict[str, dict[str, Decimal]]:
    """Per source line, the quantity and total the live returns took (`notes`: what each return took,
    by its note's id; `live`: the ids of those neither cancelled nor invalidated: an invalidated
    return gives its lines back)."""
    so_far: dict[str, dict[str, Decimal]] = {}
    for note_id, taken in notes.items():
        if note_id not in live:
            continue
        for line in taken:
            seen = so_far.setdefault(str(int(line["sourceLine"])), {"quantity": Decimal(0), "total": Decimal(0)})
            seen["quantity"] += Decimal(line["quantity"])
            seen["total"] += Decimal(line["total"])
    return so_far


def is_live(note: Mapping[str, Any] | None) -> bool:
    """A return that still stands: its note confirmed, its event not invalidated."""
    return note is not None and note.get("status") == "confirmed" and \
        (note.get("dte") or {}).get("status") != "invalidated"


def _same_item(line: Mapping[str, Any], source: Mapping[str, Any]) -> bool:
    if taxes.treatment_of(line) != taxes.treatment_of(source):
        return False
    if line.get("productId") is not None or source.get("productId") is not None:
        return line.get("productId") is not None and source.get("productId") is not None and \
            int(line["productId"]) == int(source["productId"])
    return (line.get("description") or "") == (source.get("description") or "")


def related(source: Mapping[str, Any]) -> dict[str, Any]:
    """documentoRelacionado: the source by its type, generation code and generation date."""
    return {"tipoDocumento": source["dte"]["tipoDte"], "codigoGeneracion": source["dte"]["codigoGeneracion"],
            "fechaEmision": source["date"]}


def issuer(emisor: Mapping[str, Any]) -> dict[str, Any]:
    """The event's emisor from the source DTE's (the event is the same issuer's, of the same
    establishment and point of sale); an export's precinct, regime and item type as on the FEX
    (the manual: they must match)."""
    establishment, point = emisor.get("codEstable"), emisor.get("codPuntoVenta")
    return {"nit": emisor["nit"], "nombre": emisor["nombre"], "codEstableMH": establishment,
            "codEstable": establishment, "codPuntoVentaMH": point, "codPuntoVenta": point,
            "recintoFiscal": emisor.get("recintoFiscal"), "tipoRegimen": emisor.get("tipoRegimen"),
            "regimen": emisor.get("regimen"),
            "tipoItemExpor": None if emisor.get("tipoItemExpor") is None else int(emisor["tipoItemExpor"])}


def receiver(receptor: Mapping[str, Any]) -> dict[str, Any]:
    """The event's documento: the receptor as the source DTE named it (the manual: "la información
    del receptor contenida en el DTE al que aplica el evento")."""
    return {"tipoDocumento": receptor.get("tipoDocumento"), "numDocumento": receptor.get("numDocumento"),
            "nombre": receptor.get("nombre"), "codPais": receptor.get("codPais"),
            "nombrePais": receptor.get("nombrePais"), "telefono": receptor.get("telefono"),
            "correo": receptor.get("correo")}


def returned_items(source: Mapping[str, Any], matched: list[int],
                   lines: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What the note keeps of each returned line's source item: its code and item type. A refund
    keeps the item type of the line it is counted against (the value of those goods, services or
    both, as CAT-011 classed them on the DTE) and no code: no product comes back."""
    kinds = source["dte"].get("items") or []
    items = []
    for line, index in zip(lines, matched, strict=True):
        kind = {"codigo": kinds[index].get("codigo"), "tipoItem": int(kinds[index]["tipoItem"])} \
            if index < len(kinds) else {"codigo": None, "tipoItem": 3}
        if is_refund(line, source["lines"]):
            kind["codigo"] = None
        items.append({"sourceLine": index, **kind})
    return items


def pending(codigo: str, source: Mapping[str, Any], matched: list[int], time: str,
            lines: list[Mapping[str, Any]]) -> dict[str, Any]:
    """The note's `dte` at confirmation: a pending return event in version 1 of fe-eret-v1, with
    what it names of its source kept (a later transmission sends what was issued): its issuer and
    receiver as the source DTE names them (what the event's invalidation names too), the source by
    code and date, and each returned line's source line, code and item type. No control number:
    an event has none."""
    source_dte = source["dte"]
    return {"status": "pending", "tipoDte": RETORNO, "version": version_of(RETORNO, EDITION_2026),
            "codigoGeneracion": codigo, "numeroControl": None, "observations": [], "attempts": 0, "horEmi": time,
            "sourceTipoDte": source_dte["tipoDte"], "emisor": dict(source_dte["emisor"]),
            "receptor": dict(source_dte.get("receptor") or source_dte.get("sujetoExcluido") or {}),
            "related": [related(source)], "items": returned_items(source, matched, lines)}


def event(document: Mapping[str, Any], ambiente: str = "00") -> dict[str, Any]:
    """The whole event (fe-eret-v1) of a note whose `dte` is a return event."""
    dte = document["dte"]
    deferred = (dte.get("contingency") or {}).get("type")
    factura = dte["sourceTipoDte"] == FACTURA
    excluded = dte["sourceTipoDte"] == SUJETO_EXCLUIDO
    source_code = dte["related"][0]["codigoGeneracion"]
    items, sums = [], dict.fromkeys(("noSuj", "exenta", "gravada", "compra", "iva"), Decimal(0))
    for number, (line, kind) in enumerate(zip(document["lines"], dte["items"], strict=True), start=1):
        rate, quantity = Decimal(line["taxRate"]), Decimal(line["quantity"])
        subtotal, tax = Decimal(line["subtotal"]), Decimal(line["tax"])
        gross_up = 1 + rate if factura else Decimal(1)  # a factura's prices include the IVA
        sale = subtotal + tax if factura else subtotal
        treatment = taxes.treatment_of(line)
        columns = dict.fromkeys(("ventaNoSuj", "ventaExenta", "ventaGravada", "compra"), Decimal(0))
        if excluded:
            columns["compra"], key = sale, "compra"
        else:
            # an export is the FEX's ventaGravada (at 0 %), as the FEX carries it
            column, key = {taxes.TAXED: ("ventaGravada", "gravada"), taxes.EXPORT: ("ventaGravada", "gravada"),
                           taxes.NON_SUBJECT: ("ventaNoSuj", "noSuj")}.get(treatment, ("ventaExenta", "exenta"))
            columns[column] = sale
        iva = tax if factura else Decimal(0)
        discount = (Decimal(line.get("discount") or 0) * gross_up).quantize(_CENTS)
        items.append({"numItem": number, "tipoItem": int(kind["tipoItem"]), "codigoGeneracion": source_code,
                      "cantidad": quantity, "precioUni": item_price(sale, discount, quantity),
                      "descripcion": line.get("description") or "", "codigo": kind.get("codigo"), "uniMedida": UNIT,
                      "montoDescu": discount,
                      "codTributo": None, **columns, "tributos": None, "psv": Decimal(0), "ivaItem": iva,
                      "noGravado": Decimal(0), "seguro": Decimal(0), "flete": Decimal(0), "ivaRete": Decimal(0),
                      "reteRenta": Decimal(0)})
        sums[key] += sale
        sums["iva"] += iva
    sales = sums["noSuj"] + sums["exenta"] + sums["gravada"]
    total = sales + sums["compra"]
    return {
        "identificacion": {"version": int(dte["version"]), "ambiente": ambiente, "tipoModelo": 2 if deferred else 1,
                           "tipoOperacion": 2 if deferred else 1, "tipoEvento": RETORNO,
                           "tipoContingencia": int(deferred) if deferred else None, "motivoContin": None,
                           "codigoGeneracion": dte["codigoGeneracion"], "fecEmi": document["date"],
                           "horEmi": dte["horEmi"], "fusion": None, "tipoMoneda": document.get("currency") or "USD"},
        "documentoRelacionado": [{**related_} for related_ in dte["related"]],
        "emisor": issuer(dte["emisor"]), "documento": receiver(dte["receptor"]), "ventaTercero": None, "compraTercero": None, "cuerpoDocumento": items,
        "resumen": {"totalNoSuj": sums["noSuj"], "totalExenta": sums["exenta"], "totalGravada": sums["gravada"],
                    "totalCompraExcluidos": sums["compra"], "subTotalVentas": sales, "tributos": None,
                    "totalSeguro": Decimal(0), "totalFlete": Decimal(0), "montoTotalOperacion": total,
                    "ivaRete": Decimal(0), "reteRenta": Decimal(0), "totalNoGravado": Decimal(0),
                    "totalPagar": total, "totalLetras": amount_in_words(total, "USD"),
                    "totalNoOnerosas": Decimal(0), "totalIva": sums["iva"], "saldoFavor": Decimal(0)},
        "apendice": None}
