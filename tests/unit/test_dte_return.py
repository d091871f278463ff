"""The return event's builder and rules (countries/sv/domain/dte_return.py), no I/O: the event of a
return of an FE v2 and of an FEX v3 against fe-eret-v1, the 3 months from the generation date, and the returns
never exceeding the source's lines."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from chalicelib.countries.sv.domain import dte_formats, dte_return
from chalicelib.errors import ValidationFailed

SOURCE_CODE = "0F6D5B1E-3C2A-4B7D-9E8F-1A2B3C4D5E6F"
EVENT_CODE = "7A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"


def fe_v2(**dte) -> dict:
    """An FE v2 of 2 chairs at 10.00 + 13 % IVA (11.30 each, IVA inside): 22.60."""
    return {"id": 7, "type": "01", "date": "2026-11-02", "total": Decimal("22.60"),
            "lines": [{"productId": 1, "description": "Silla", "quantity": Decimal(2), "unitPrice": Decimal("10.00"),
                       "taxRate": Decimal("0.13"), "taxTreatment": "taxed", "subtotal": Decimal("20.00"),
                       "tax": Decimal("2.60"), "total": Decimal("22.60")}],
            "dte": {"status": "accepted", "tipoDte": "01", "version": 2, "codigoGeneracion": SOURCE_CODE,
                    "numeroControl": "DTE-01-M001P001-000000000000001", "acceptedAt": "2026-11-02T18:00:00.000Z",
                    "emisor": {"nit": "06140101001011", "nombre": "Alpha S.A. de C.V.", "codEstable": "M001",
                               "codPuntoVenta": "P001"},
                    "receptor": {"tipoDocumento": "36", "numDocumento": "06142505851022", "nombre": "Cliente con NIT",
                                 "telefono": None, "correo": None},
                    "items": [{"codigo": "P-1", "tipoItem": 1}], **dte}}


def one_chair_back() -> list[dict]:
    return [{"productId": 1, "description": "Silla", "quantity": Decimal(1), "unitPrice": Decimal("10.00"),
             "taxRate": Decimal("0.13"), "taxTreatment": "taxed", "subtotal": Decimal("10.00"),
             "tax": Decimal("1.30"), "total": Decimal("11.30")}]


def note_of(source: dict, lines: list[dict]) -> dict:
    matched = dte_return.returned_lines(lines, source["lines"], {})
    return {"id": 8, "type": "06", "date": "2026-11-20", "currency": "USD", "lines": lines,
            "dte": dte_return.pending(EVENT_CODE, source, matched, "10:15:00", lines)}


def test_a_return_of_one_unit_of_an_fe_v2_is_event_18_with_the_iva_inside_and_valid():
    sent = dte_return.event(note_of(fe_v2(), one_chair_back()))

    assert dte_formats.schema_problems(sent, dte_formats.RETORNO) == []
    identification = sent["identificacion"]
    assert (identification["version"], identification["tipoEvento"], identification["codigoGeneracion"]) == (
        1, "18", EVENT_CODE)
    assert sent["documentoRelacionado"] == [{"tipoDocumento": "01", "codigoGeneracion": SOURCE_CODE,
                                             "fechaEmision": "2026-11-02"}]
    assert sent["emisor"]["codEstable"] == sent["emisor"]["codEstableMH"] == "M001"
    assert sent["documento"]["numDocumento"] == "06142505851022"
    [item] = sent["cuerpoDocumento"]
    # 1 chair at 10.00 + 13 % = 11.30, IVA inside: 10.00 x 0.13 = 1.30
    assert item["codigoGeneracion"] == SOURCE_CODE and item["cantidad"] == 1 and item["codigo"] == "P-1"
    assert item["precioUni"] == Decimal("11.30") and item["ventaGravada"] == Decimal("11.30")
    assert item["ivaItem"] == Decimal("1.30") and item["tipoItem"] == 1
    summary = sent["resumen"]
    assert summary["totalGravada"] == summary["subTotalVentas"] == Decimal("11.30")
    assert summary["montoTotalOperacion"] == summary["totalPagar"] == Decimal("11.30")
    assert summary["totalIva"] == Decimal("1.30") and summary["totalCompraExcluidos"] == 0


def test_a_return_of_an_fex_v3_names_its_export_terms_and_carries_no_iva():
    source = fe_v2(tipoDte="11", version=3)
    # as a 2026 export stores them (dte_fex.add_export_terms): the regime's type apart, the buyer's ISO country
    source["dte"]["emisor"].update(recintoFiscal="01", tipoRegimen="EX-1", regimen="1000.000", tipoItemExpor=1)
    source["dte"]["receptor"] = {"tipoDocumento": "37", "numDocumento": "98-7654321", "nombre": "Importadora",
                                 "codPais": "US", "nombrePais": "Estados Unidos", "telefono": "17135550100",
                                 "correo": "compras@norte.example"}
    source["lines"] = [{**source["lines"][0], "taxTreatment": "export", "taxRate": Decimal(0), "tax": Decimal(0),
                        "total": Decimal("20.00")}]
    lines = [{**one_chair_back()[0], "taxTreatment": "export", "taxRate": Decimal(0), "tax": Decimal(0),
              "total": Decimal("10.00")}]
    sent = dte_return.event(note_of(source, lines))

    assert dte_formats.schema_problems(sent, dte_formats.RETORNO) == []
    assert (sent["emisor"]["recintoFiscal"], sent["emisor"]["tipoItemExpor"]) == ("01", 1)
    # an export line is the ventaGravada of the event, as on the FEX v3 (at 0 %, no IVA): 1 x 10.00
    assert sent["cuerpoDocumento"][0]["ventaGravada"] == Decimal("10.00")
    assert sent["resumen"]["totalPagar"] == Decimal("10.00") and sent["resumen"]["totalIva"] == 0


def test_only_a_2026_fe_or_fex_is_returned_by_an_event():
    assert dte_return.is_return(fe_v2())
    assert dte_return.is_return(fe_v2(tipoDte="11", version=3))
    assert not dte_return.is_return(fe_v2(version=1))  # a legacy factura: its notes are not DTEs
    assert not dte_return.is_return(fe_v2(tipoDte="03", version=4))  # a crédito fiscal has notes (05)
    assert not dte_return.is_return({"dte": None})
    fse = fe_v2(tipoDte="14", version=2)
    assert dte_return.is_return(fse, "105") and not dte_return.is_return(fse, "06")
    assert not dte_return.is_return(fe_v2(), "105")  # a purchase note does not return our FE


def test_three_months_from_the_generation_date_and_no_later():
    sealed = dt.date(2026, 11, 30)
    generated = {"date": "2026-11-30"}  # an FE sealed the day it was generated
    assert dte_return.window_end(sealed) == dt.date(2027, 2, 28)  # February is shorter
    dte_return.check_window(fe_v2() | generated, sealed, "2027-02-28")
    with pytest.raises(ValidationFailed) as refused:
        dte_return.check_window(fe_v2() | generated, sealed, "2027-03-01")
    assert refused.value.code == "DTE_RETURN_WINDOW_CLOSED"
    assert refused.value.details[0]["field"] == "sourceDocumentId"
    with pytest.raises(ValidationFailed):  # no seal yet: nothing to return
        dte_return.check_window(fe_v2(), None, "2026-11-02")
    # an issuer of one of the manual's activities (e.g. 47721) has 2 years
    long = fe_v2() | generated
    long["dte"]["emisor"]["codActividad"] = "47721"
    dte_return.check_window(long, sealed, "2028-11-30")
    with pytest.raises(ValidationFailed) as late:
        dte_return.check_window(long, sealed, "2028-12-01")
    assert "24 months" in late.value.details[0]["message"]
    fse = fe_v2(tipoDte="14", version=2) | generated  # an FSE keeps its 3 months whatever the activity
    fse["dte"]["emisor"]["codActividad"] = "47721"
    with pytest.raises(ValidationFailed):
        dte_return.check_window(fse, sealed, "2027-03-01")


def test_an_fe_sealed_late_in_contingency_counts_its_3_months_from_its_generation_date():
    # generated 2026-08-01, sealed 2026-08-05 (sent in a lot after a contingency): the manual's page 27
    # counts from the generation date, 2026-08-01 + 3 months = 2026-11-01 the last day; counted from
    # the seal it would have been 2026-11-05, and a return of 2026-11-03 one the authority refuses
    source = fe_v2() | {"date": "2026-08-01"}
    sealed = dt.date(2026, 8, 5)
    dte_return.check_window(source, sealed, "2026-11-01")
    with pytest.raises(ValidationFailed) as refused:
        dte_return.check_window(source, sealed, "2026-11-03")
    assert refused.value.code == "DTE_RETURN_WINDOW_CLOSED"
    assert refused.value.details[0] == {
        "field": "sourceDocumentId",
        "message": "a return event is issued within 3 months of its DTE's generation date: the last day was 2026-11-01"}


def test_the_returns_never_exceed_the_source_line():
    source = fe_v2()
    first = dte_return.returned_lines(one_chair_back(), source["lines"], {})
    notes = {"8": dte_return.lines_returned(one_chair_back(), first, source["lines"])}
    already = dte_return.returned_so_far(notes, {"8"})
    # 1 of 2 chairs back: 1 and 11.30 of 22.60 left
    assert already == {"0": {"quantity": Decimal(1), "total": Decimal("11.30")}}
    two = [{**one_chair_back()[0], "quantity": Decimal(2), "subtotal": Decimal("20.00"), "tax": Decimal("2.60"),
            "total": Decimal("22.60")}]
    with pytest.raises(ValidationFailed) as refused:
        dte_return.returned_lines(two, source["lines"], already)
    assert refused.value.code == "DTE_RETURN_EXCEEDS_DOCUMENT"
    assert refused.value.details[0]["field"] == "lines[0].quantity"
    # the second chair still fits, and then nothing does
    second = dte_return.returned_lines(one_chair_back(), source["lines"], already)
    notes["9"] = dte_return.lines_returned(one_chair_back(), second, source["lines"])
    done = dte_return.returned_so_far(notes, {"8", "9"})
    assert done == {"0": {"quantity": Decimal(2), "total": Decimal("22.60")}}
    with pytest.raises(ValidationFailed):
        dte_return.returned_lines(one_chair_back(), source["lines"], done)
    # the first return invalidated: its chair may be returned again
    assert dte_return.returned_so_far(notes, {"9"}) == {"0": {"quantity": Decimal(1), "total": Decimal("11.30")}}
    dearer = [{**one_chair_back()[0], "unitPrice": Decimal("12.00"), "subtotal": Decimal("12.00"),
               "tax": Decimal("1.56"), "total": Decimal("13.56")}]
    with pytest.raises(ValidationFailed) as priced:  # a chair sold at 10.00 is not returned at 12.00
        dte_return.returned_lines(dearer, source["lines"], {})
    assert priced.value.details[0]["field"] == "lines[0].unitPrice"
    cheaper = [{**one_chair_back()[0], "unitPrice": Decimal("5.00"), "subtotal": Decimal("5.00"),
                "tax": Decimal("0.65"), "total": Decimal("5.65")}]
    assert dte_return.returned_lines(cheaper, source["lines"], {}) == [0]  # a partial refund of one chair
    with pytest.raises(ValidationFailed) as other:  # a product the factura does not carry
        dte_return.returned_lines([{**one_chair_back()[0], "productId": 2}], source["lines"], {})
    assert other.value.details[0]["field"] == "lines[0]"


def test_a_return_stands_while_its_note_is_confirmed_and_its_event_not_invalidated():
    assert dte_return.is_live({"status": "confirmed", "dte": {"status": "accepted"}})
    assert dte_return.is_live({"status": "confirmed", "dte": {"status": "pending"}})
    assert not dte_return.is_live({"status": "cancelled", "dte": {"status": "invalidated"}})
    assert not dte_return.is_live(None)


def test_a_last_unit_refused_for_its_value_names_the_amount_left_and_the_price():
    # 3 candies at 0.35 + 13 %: 1.05, IVA 1.05 x 0.13 = 0.1365 -> 0.14, 1.19 sold
    candy = {"productId": 3, "description": "Dulce", "quantity": Decimal(3), "unitPrice": Decimal("0.35"),
             "taxRate": Decimal("0.13"), "taxTreatment": "taxed", "subtotal": Decimal("1.05"),
             "tax": Decimal("0.14"), "total": Decimal("1.19")}
    # one back at a time: 0.35, IVA 0.0455 -> 0.05, 0.40 each
    one = [{**candy, "quantity": Decimal(1), "subtotal": Decimal("0.35"), "tax": Decimal("0.05"),
            "total": Decimal("0.40")}]
    notes: dict = {}
    for note_id in ("8", "9"):
        already = dte_return.returned_so_far(notes, set(notes))
        notes[note_id] = dte_return.lines_returned(one, dte_return.returned_lines(one, [candy], already), [candy])
    already = dte_return.returned_so_far(notes, set(notes))
    # 2 of 3 back, 0.80 of 1.19: 1 candy left but 1.19 - 0.80 = 0.39 of value, and a third 0.40 would make 1.20
    assert already == {"0": {"quantity": Decimal(2), "total": Decimal("0.80")}}
    with pytest.raises(ValidationFailed) as refused:
        dte_return.returned_lines(one, [candy], already)
    assert refused.value.code == "DTE_RETURN_EXCEEDS_DOCUMENT"
    assert refused.value.details == [{"field": "lines[0].unitPrice", "message": (
        "the returns would exceed the amount of the DTE's line, tax included: 0.39 left to return")}]
    # two more candies: the units are not there, so the quantity is named with the 1 left
    with pytest.raises(ValidationFailed) as too_many:
        dte_return.returned_lines([{**one[0], "quantity": Decimal(2)}], [candy], already)
    assert too_many.value.details == [{"field": "lines[0].quantity",
                                       "message": "the returns would exceed the DTE's line: 1 left to return"}]
    # the last candy at 0.34: 0.34 + 0.0442 -> 0.04 = 0.38, within the 0.39 left
    cheaper = [{**one[0], "unitPrice": Decimal("0.34"), "subtotal": Decimal("0.34"), "tax": Decimal("0.04"),
                "total": Decimal("0.38")}]
    assert dte_return.returned_lines(cheaper, [candy], already) == [0]


def test_a_line_without_a_product_is_a_refund_of_value_counted_against_its_line():
    source = fe_v2()  # 2 chairs, 22.60
    # 2 x 2.00 back on the chairs + 13 %: 4.00 + 0.52 = 4.52, no product: a refund, not a return of goods
    refund = [{"productId": None, "description": "Reembolso", "quantity": Decimal(2), "unitPrice": Decimal("2.00"),
               "taxRate": Decimal("0.13"), "taxTreatment": "taxed", "subtotal": Decimal("4.00"),
               "tax": Decimal("0.52"), "total": Decimal("4.52")}]
    assert dte_return.is_refund(refund[0], source["lines"])
    assert not dte_return.is_refund(one_chair_back()[0], source["lines"])
    matched = dte_return.returned_lines(refund, source["lines"], {})
    assert matched == [0]
    # it takes no chair, only 4.52 of the line's 22.60
    taken = dte_return.lines_returned(refund, matched, source["lines"])
    assert taken == [{"sourceLine": 0, "quantity": 0, "total": Decimal("4.52")}]
    sent = dte_return.event(note_of(source, refund))
    assert dte_formats.schema_problems(sent, dte_formats.RETORNO) == []
    [item] = sent["cuerpoDocumento"]
    # 4.52 with its IVA for 2 chairs: 2.26 each, 0.52 IVA; the chairs' item type (1), no code
    assert (item["cantidad"], item["precioUni"], item["ventaGravada"], item["ivaItem"]) == (
        2, Decimal("2.26"), Decimal("4.52"), Decimal("0.52"))
    assert (item["tipoItem"], item["codigo"]) == (1, None)
    already = dte_return.returned_so_far({"8": taken}, {"8"})
    # both chairs may still come back, but for 22.60 - 4.52 = 18.08: at 10.00 (22.60) refused by value
    two = [{**one_chair_back()[0], "quantity": Decimal(2), "subtotal": Decimal("20.00"), "tax": Decimal("2.60"),
            "total": Decimal("22.60")}]
    with pytest.raises(ValidationFailed) as refused:
        dte_return.returned_lines(two, source["lines"], already)
    assert refused.value.details[0] == {"field": "lines[0].unitPrice", "message": (
        "the returns would exceed the amount of the DTE's line, tax included: 18.08 left to return")}
    # a refund beyond the line: 20 x 1.00 + 13 % = 22.60 > 18.08 left
    more = [{**refund[0], "quantity": Decimal(20), "unitPrice": Decimal("1.00"), "subtotal": Decimal("20.00"),
             "tax": Decimal("2.60"), "total": Decimal("22.60")}]
    with pytest.raises(ValidationFailed) as beyond:
        dte_return.returned_lines(more, source["lines"], already)
    assert beyond.value.details[0]["field"] == "lines[0].unitPrice"
    # a refund at a rate the FE does not carry (exempt) is of no line of it
    exempt = [{**refund[0], "taxRate": Decimal(0), "taxTreatment": "exempt", "tax": Decimal(0),
               "total": Decimal("4.00")}]
    with pytest.raises(ValidationFailed) as other:
        dte_return.returned_lines(exempt, source["lines"], {})
    assert other.value.details[0]["field"] == "lines[0]"


def test_a_refund_from_the_farmer_on_our_fse_is_a_line_of_compra_that_takes_no_eggs():
    # 30 eggs at 4.50, no IVA: 135.00 on our FSE v2; the farmer gives back 0.50 on each of 6 broken ones: 3.00
    eggs = {"productId": None, "description": "Huevos", "quantity": Decimal(30), "unitPrice": Decimal("4.50"),
            "taxRate": Decimal(0), "taxTreatment": "exempt", "subtotal": Decimal("135.00"), "tax": Decimal(0),
            "total": Decimal("135.00")}
    source = fe_v2(tipoDte="14", version=2)
    source["lines"], source["dte"]["items"] = [eggs], [{"codigo": None, "tipoItem": 1}]
    refund = [{**eggs, "description": "Reembolso por huevos quebrados", "quantity": Decimal(6),
               "unitPrice": Decimal("0.50"), "subtotal": Decimal("3.00"), "total": Decimal("3.00")}]
    assert dte_return.is_refund(refund[0], [eggs]) and not dte_return.is_refund(eggs, [eggs])
    matched = dte_return.returned_lines(refund, [eggs], {})
    assert dte_return.lines_returned(refund, matched, [eggs]) == [
        {"sourceLine": 0, "quantity": 0, "total": Decimal("3.00")}]
    sent = dte_return.event({**note_of(source, refund), "type": "105"})
    assert dte_formats.schema_problems(sent, dte_formats.RETORNO) == []
    [item] = sent["cuerpoDocumento"]
    # 6 x 0.50 = 3.00 of compra, 0.50 each, no IVA
    assert (item["cantidad"], item["precioUni"], item["compra"], item["ivaItem"]) == (
        6, Decimal("0.5"), Decimal("3.00"), 0)
    assert sent["resumen"]["totalCompraExcluidos"] == sent["resumen"]["totalPagar"] == Decimal("3.00")
