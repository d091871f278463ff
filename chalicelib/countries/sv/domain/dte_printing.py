"""El Salvador's printed version (versión legible) of a DTE: the authority's name of the document
(CAT-002), the número de control as its identity, its lines and totals exactly as the DTE sent to
Hacienda carries them (read from the same JSON builder, never worked out again), its codes and
seal, and the QR code of its public consultation (the core's PDF asks through the pack's printing
hooks)."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping, Sequence

from chalicelib.countries.interface import PrintedFigures
from chalicelib.countries.sv.domain import dte_formats, dte_json
from chalicelib.countries.sv.domain.dte import (
    CREDITO_FISCAL,
    DTE_TYPES,
    FACTURA,
    NOTA_CREDITO,
    NOTA_DEBITO,
    TITLES,
    check_export,
    tipo_dte,
)
from chalicelib.domain.documents import DRAFT
from chalicelib.errors import ValidationFailed

# The DTEs whose body is the builder's sales format (cuerpoDocumento with ventaNoSuj, ventaExenta,
# ventaGravada): a factura's prices and sales include the IVA, the others' carry it apart. The
# others (export, sujeto excluido, retención) print the stored lines, which are what they send.
SALES_FORMATS = (FACTURA, CREDITO_FISCAL, NOTA_CREDITO, NOTA_DEBITO)
ZERO = Decimal(0)


def title(document: Mapping[str, Any], partner: Mapping[str, Any] | None = None) -> str | None:
    """The authority's name of a DTE (CAT-002: a 03 is a "Comprobante de crédito fiscal"), or of
    the one a draft will be issued as; None: not a DTE."""
    tipo = (document.get("dte") or {}).get("tipoDte") or draft_tipo(document, partner)
    return TITLES[tipo].upper() if tipo in TITLES else None


def draft_tipo(document: Mapping[str, Any], partner: Mapping[str, Any] | None) -> str | None:
    """The DTE a draft sales invoice will be issued as, by the rule its confirmation follows
    (dte.tipo_dte: its `dteType`, else the customer's NRC); None: no draft sales invoice, or one
    its confirmation would refuse (it prints its stored figures)."""
    if document.get("dte") or document.get("status") != DRAFT or document.get("type") not in DTE_TYPES \
            or partner is None:
        return None
    try:
        check_export(dict(partner), list(document["lines"]))
        return tipo_dte(document["type"], dict(partner), None, document.get("withholding"), list(document["lines"]),
                        document.get("dteType"))
    except ValidationFailed:
        return None


def number(document: Mapping[str, Any]) -> str | None:
    """A DTE is known by its número de control (the internal EEE-PPP-TT-N number is ours only)."""
    return (document.get("dte") or {}).get("numeroControl") or None


def figures(document: Mapping[str, Any], company: Mapping[str, Any]) -> PrintedFigures | None:
    """The lines and totals of the DTE as built for Hacienda (dte_json.authority_document): a
    factura's precioUni and ventaGravada with the IVA inside and the IVA it includes said apart; a
    crédito fiscal's (and its notes') net of IVA, the IVA its tribute 20."""
    dte = document.get("dte") or {}
    tipo = dte.get("tipoDte")
    if tipo not in SALES_FORMATS or "emisor" not in dte or "receptor" not in dte:
        return None
    sent = dte_json.authority_document(document, dte_json.ambiente(company))
    return _printed(tipo, sent["cuerpoDocumento"], sent["resumen"])


def draft_figures(document: Mapping[str, Any], partner: Mapping[str, Any] | None,
                  company: Mapping[str, Any] | None = None) -> PrintedFigures | None:
    """A draft sales invoice's lines and totals as the DTE it will be issued as will carry them
    (dte_json.sales_body, the builder's own body, in the edition the company issues in at its
    date): a factura's with the IVA inside, a crédito fiscal's net with the IVA apart. None: it
    will not be a factura or crédito fiscal."""
    tipo = draft_tipo(document, partner)
    if tipo not in (FACTURA, CREDITO_FISCAL):
        return None
    version = dte_formats.version_of(tipo, dte_formats.edition_for(company or {}, document["date"]))
    items, summary = dte_json.sales_body(document, tipo, version=version)
    return _printed(tipo, items, summary)


def _printed(tipo: str, items: Sequence[Mapping[str, Any]], summary: Mapping[str, Any]) -> PrintedFigures:
    lines = [(str(item.get("descripcion") or ""), Decimal(item["cantidad"]), Decimal(item["precioUni"]),
              Decimal(item.get("montoDescu") or 0),
              sum((Decimal(item.get(column) or 0) for column in ("ventaNoSuj", "ventaExenta", "ventaGravada")), ZERO))
             for item in items]
    rows = [("Descuentos", Decimal(summary.get("totalDescu") or 0)),
            ("Ventas no sujetas", Decimal(summary.get("totalNoSuj") or 0)),
            ("Ventas exentas", Decimal(summary.get("totalExenta") or 0)),
            ("Ventas gravadas" + (" (IVA incluido)" if tipo == FACTURA else ""), Decimal(summary["totalGravada"])),
            # the 2026 notes (fe-nc-v4, fe-nd-v4) have no subTotal: their sum of operations is it
            ("Sub-total", Decimal(summary.get("subTotal", summary["subTotalVentas"])))]
    if tipo == FACTURA:
        rows.append(("IVA 13 % incluido", Decimal(summary.get("totalIva") or 0)))
    elif "totalIva" in summary:  # a 2026 note: its IVA said apart, not as the tribute 20
        rows.append(("IVA 13 %", Decimal(summary["totalIva"])))
    else:
        iva = sum((Decimal(tribute["valor"]) for tribute in summary.get("tributos") or []), ZERO)
        rows.append(("IVA 13 %", iva))
    operation = Decimal(summary["montoTotalOperacion"])
    rows.append(("Monto total de la operación", operation))
    return PrintedFigures(lines=lines, rows=rows, total=Decimal(summary.get("totalPagar", operation)))


def rows(document: Mapping[str, Any]) -> list[tuple[str, str]]:
    dte = document.get("dte")
    if not dte:
        return []
    return [("Código de generación", str(dte["codigoGeneracion"])),
            ("Número de control", str(dte.get("numeroControl") or "")),
            ("Sello de recepción", str(dte.get("selloRecepcion") or f"pendiente ({dte.get('status')})"))]


def qr_png(document: Mapping[str, Any], company: Mapping[str, Any]) -> bytes | None:
    """The QR code of a DTE's printed version: the authority's public consultation of it."""
    if not document.get("dte"):
        return None
    import io

    import segno

    ambiente = dte_json.ambiente(company)
    out = io.BytesIO()
    segno.make(dte_json.consultation_url(document, ambiente), error="m").save(out, kind="png", scale=4, border=2)
    return out.getvalue()
