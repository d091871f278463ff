"""El Salvador's printed version (versión legible) of a DTE: the authority's name of the document,
its codes and seal, and the QR code of its public consultation (the core's PDF asks through the
pack's printing hooks)."""
from __future__ import annotations

from typing import Any, Mapping

from chalicelib.countries.sv.domain import dte_json


def title(document: Mapping[str, Any]) -> str | None:
    """The authority's name of a DTE (a crédito fiscal is an invoice here); None: not a DTE."""
    tipo = (document.get("dte") or {}).get("tipoDte")
    return dte_json.TITLES[tipo].upper() if tipo in dte_json.TITLES else None


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
