"""El Salvador's electronic tax documents (DTE), issued: a document of an SV company that is one
becomes a DTE in its confirming transaction, built in the edition the company issues in at its
date and checked against that version's schema and the catalogues (a refusal is a 400 naming the
field, before any number is taken), with its generation code, its control number (gap-free per
type and point of sale) and a pending transmission; countries/sv/services/dte.py sends it once the
transaction committed."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from chalicelib import clock
from chalicelib.countries.sv.domain import dte as dte_rules
from chalicelib.countries.sv.domain import dte_fex, dte_formats, dte_json
from chalicelib.countries.sv.domain.dte import PENDING
from chalicelib.countries.sv.services import dte_return, dte_signing
from chalicelib.domain.records import DocumentChanges
from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.store import keys
from chalicelib.store.repositories import fiscal_ranges
from chalicelib.store.table import Table
from chalicelib.store.transaction import Transaction


def issue_dte(transaction: Transaction, table: Table, company: Mapping[str, Any], partner: Mapping[str, Any] | None,
          document: Mapping[str, Any], products: Mapping[int, Mapping[str, Any]] | None = None,
          source: Mapping[str, Any] | None = None) -> DocumentChanges:
    """Makes a numbered document being confirmed a DTE when it is one: returns the document's new
    fields (none otherwise) and adds the pending transmission and the control number to its
    transaction. The DTE is built in the authority's format and checked against its schema
    first: a document the authority's schema refuses is a 400 naming the field (`dte.<path>`),
    and nothing is stored."""
    if source is not None and dte_return.applies(document, source):  # issue 40: returns (a note of a 2026 FE or FEX is event 18)
        return dte_return.issue_return(transaction, table, company, document, source)
    partner = _receiver(partner)
    tipo_dte = _tipo(company, partner, document, source)
    if tipo_dte is None:
        return {}
    company_id, document_id = company["id"], document["id"]
    today = clock.today_in(dte_rules.DTE_COUNTRY)
    if document["date"] != today:  # the authority receives a DTE dated the day it is issued, and no other
        raise ValidationFailed.for_field("date", Phrase("an El Salvador DTE is dated the day it is issued: {}, not {}",
                                                        today, document['date']))
    dte_signing.require_credentials(table, company_id)
    # the establishment's letter first: a type the 2026 formats cannot name is refused before a number is taken
    kind = _establishment_type_2026(company, document)
    numero = dte_rules.numero_control(tipo_dte, document["number"], _next_control_number(
        transaction, table, company_id, tipo_dte, dte_rules.point_of_sale(document["number"])), kind)
    dte = _checked(company, partner, document, products, source, tipo_dte, dte_rules.new_codigo_generacion(), numero)
    codigo, now = dte["codigoGeneracion"], clock.now_iso()
    transaction.put_new({**keys.dte_transmission(company_id, document_id),
                         **keys.dte_pending_index(company_id, document_id, now), "itemType": "DTE",
                         "companyId": company_id, "documentId": document_id, "status": PENDING,
                         "codigoGeneracion": codigo, "attempts": 0, "createdAt": now})
    return {"codigoGeneracion": codigo, "dte": dte}


def _receiver(partner: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """The partner a DTE names (every document has one: document_content loads it)."""
    if partner is None:
        raise ValueError("a document issued as a DTE names its partner")
    return partner


def check_format(table: Table, company: Mapping[str, Any], partner: Mapping[str, Any] | None,
                 document: Mapping[str, Any], products: Mapping[int, Mapping[str, Any]] | None = None) -> None:
    """What issuing the document as a DTE would refuse (the credentials, the authority's format),
    writing nothing and taking no number: for what makes documents later (a scheduled invoice)."""
    partner = _receiver(partner)
    tipo_dte = _tipo(company, partner, document, None)
    if tipo_dte is None:
        return
    dte_signing.require_credentials(table, company["id"])
    number = document.get("number") or "001-001-01-00000001"
    document = {**document, "number": number}
    _checked(company, partner, document, products, None, tipo_dte, dte_rules.new_codigo_generacion(),
             dte_rules.numero_control(tipo_dte, number, 1, _establishment_type_2026(company, document)))


def _establishment_type_2026(company: Mapping[str, Any], document: Mapping[str, Any]) -> str | None:
    """The type of the establishment issuing the document when the company issues it in the 2026
    formats (their numeroControl carries its letter), refused when they have none for it; None in
    the legacy edition."""
    if dte_formats.edition_for(company, document["date"]) != dte_formats.EDITION_2026:
        return None
    return dte_rules.checked_establishment_type(company.get("dteIssuer"), document["number"])


def _tipo(company: Mapping[str, Any], partner: Mapping[str, Any], document: Mapping[str, Any],
          source: Mapping[str, Any] | None) -> str | None:
    if not dte_rules.issues_dte(company, document["type"]):
        return None
    if document["type"] in dte_rules.DTE_TYPES:
        dte_rules.check_export(partner, document["lines"])
    tipo_dte = dte_rules.tipo_dte(document["type"], partner, source, document.get("withholding"), document["lines"],
                                  document.get("dteType"))
    if tipo_dte == dte_rules.RETENCION and source is None:
        raise ValidationFailed.for_field("sourceDocumentId", "required: an El Salvador comprobante de retención names "
                                                             "the purchase (103 or 11) the IVA was withheld from")
    return tipo_dte


def _checked(company: Mapping[str, Any], partner: Mapping[str, Any], document: Mapping[str, Any],
             products: Mapping[int, Mapping[str, Any]] | None, source: Mapping[str, Any] | None, tipo_dte: str, codigo: str,
             numero: str) -> dict[str, Any]:
    """The document's `dte` (its codes, the issuer and receiver as they are now, the time of issue,
    what each line is), once its DTE passed the authority's schema; else a 400 naming each field."""
    version = dte_formats.version_of(tipo_dte, dte_formats.edition_for(company, document["date"]))
    dte = dte_rules.pending_dte(tipo_dte, codigo, numero, version)
    dte.update(emisor=dte_json.issuer(company, document["number"], tipo_dte, version),
               receptor=dte_json.receiver(tipo_dte, partner, document.get("export"), version),
               horEmi=clock.local_time_in(company.get("country", "SV")),
               items=dte_json.item_kinds(document["lines"], products or {}))
    if tipo_dte == dte_rules.EXPORTACION:
        dte_fex.add_export_terms(dte, document.get("export") or {}, partner)
    if source is not None and tipo_dte in dte_rules.NOTE_TYPES.values():
        dte["related"] = dte_json.related(source)
    elif tipo_dte == dte_rules.RETENCION:
        assert source is not None  # a certificate is issued on the purchase it withholds from (_tipo)
        dte["related"] = dte_json.withheld(source, document)
    problems = dte_formats.schema_problems(dte_json.authority_document({**document, "dte": dte}, dte_json.ambiente(company)))
    if tipo_dte == dte_rules.SUJETO_EXCLUIDO:
        if Decimal(document.get("taxTotal") or 0) != 0:  # whoever is not registered for IVA charges none
            problems.insert(0, {"field": "taxTotal", "message": "a purchase from a supplier without an NRC is a factura "
                                                                "de sujeto excluido, which carries no IVA: set the lines' "
                                                                "IVA to 0, or register the supplier's NRC"})
        problems = [{**problem, "message": dte_formats.for_supplier(problem["message"])} for problem in problems]
    if problems:
        details = [{"field": f"dte.{problem['field']}", "message": problem["message"]} for problem in problems]
        raise ValidationFailed(Phrase("The tax authority's format refuses this document: {}: {}",
                                      details[0]['field'], details[0]['message']), details=details)
    return dte


def _next_control_number(transaction: Transaction, table: Table, company_id: int, tipo_dte: str, point: str) -> int:
    """Gap-free per type and point of sale, taken in the confirming transaction under a condition
    on the number read: a concurrent confirmation makes this one run again and take the next."""
    key = keys.dte_control_sequence(company_id, tipo_dte, point)
    sequence = table.get(key)
    if sequence is None:
        # every point starts after the company-wide sequence kept before there was one per point,
        # whose numbers any point may have carried
        legacy = table.get(keys.dte_control_sequence(company_id, tipo_dte))
        number = int(legacy["nextNumber"]) if legacy else 1
        fiscal_ranges.take_sequence_number(transaction, key, number, first=True)
        return number
    number = int(sequence["nextNumber"])
    fiscal_ranges.take_sequence_number(transaction, key, number, first=False)
    return number
