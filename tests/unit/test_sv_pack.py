"""El Salvador's pack behind the core's hooks: what is about a document's DTE follows the document
(a company may change country after issuing), what is about the company follows its country."""
from chalicelib import countries
from chalicelib.domain import document_actions
from chalicelib.pdf import content

CODIGO = "0A1B2C3D-4E5F-4A6B-8C7D-8E9F0A1B2C3D"
DTE = {"tipoDte": "03", "codigoGeneracion": CODIGO, "numeroControl": "DTE-03-00010001-000000000000001",
       "status": "accepted", "selloRecepcion": "2024ABCD"}
CREDITO_FISCAL = {"id": 7, "type": "01", "status": "confirmed", "number": "001-001-01-00000001", "dte": DTE,
                  "total": "113.00", "pending": "113.00", "paidTotal": "0"}
NOW_HONDURAN = {"id": 1, "country": "HN", "taxId": "08011999123456"}


def test_a_dte_prints_as_the_authority_names_it_whatever_the_company_is_now():
    # the same document under a company now in Honduras: the DTE's title, codes and seal still print
    assert countries.pack_of_document(CREDITO_FISCAL, NOW_HONDURAN).code == "SV"
    assert content.title(CREDITO_FISCAL, NOW_HONDURAN) == "COMPROBANTE DE CRÉDITO FISCAL"
    assert content.authority_rows(CREDITO_FISCAL, NOW_HONDURAN) == [
        ("Código de generación", CODIGO), ("Número de control", "DTE-03-00010001-000000000000001"),
        ("Sello de recepción", "2024ABCD")]
    # a document without a DTE: the type's name, no codes, no QR
    plain = {**CREDITO_FISCAL, "dte": None}
    assert content.title(plain, NOW_HONDURAN) == "FACTURA"
    assert content.authority_rows(plain, NOW_HONDURAN) == []
    assert content.authority_qr_png(plain, NOW_HONDURAN) is None


def test_the_registers_printed_follow_the_company_s_country():
    salvadoran = {"country": "SV", "taxId": "0614-010190-101-1", "dteIssuer": {"nrc": "12345-6"}}
    assert content.company_rows(salvadoran)[0] == "NIT: 0614-010190-101-1   NRC: 12345-6"
    assert content.company_rows(NOW_HONDURAN)[0] == "RTN: 08011999123456"
    taxpayer = {"taxId": "0614-010190-101-1", "nrc": "7654-3"}
    assert content.partner_id_rows(taxpayer, "SV") == [("NIT/DUI", "0614-010190-101-1"), ("NRC", "7654-3")]
    assert content.partner_id_rows(taxpayer, "HN") == [("RTN", "0614-010190-101-1")]


def test_an_accepted_dte_is_invalidated_not_cancelled():
    refused = document_actions.refusal("cancel", {**CREDITO_FISCAL, "type": "06"})
    assert refused is not None and "invalidated at the tax authority" in refused.message
    assert document_actions.refusal("unconfirm", {**CREDITO_FISCAL, "type": "103"}).code == "DOCUMENT_NOT_UNCONFIRMABLE"
    # a document the authority never received (no DTE) is not invalidated, in any country
    assert "Only a confirmed El Salvador document" in document_actions.refusal(
        "invalidate", {**CREDITO_FISCAL, "dte": None}).message
