"""The authority's 0.01 per line (its holgura, Manual Funcional V2.0 pp. 53-54) on the 2026 factura
(fe-f-v2) and the return event (fe-eret-v1): cantidad x precioUni - montoDescu is the line's sale
within 0.01 whatever the 4-decimal price, quantity and discount. The price with its IVA rounded on
its own drifts past it (1 x 3.805: 3.81 + 0.50 IVA = 4.31 sold, 3.805 x 1.13 = 4.29965 sent); the
legacy factura keeps the price it always sent (its DTEs are rebuilt and signed to the same bytes)."""
from __future__ import annotations

from decimal import Decimal

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chalicelib.countries.sv.domain import dte_formats, dte_json, dte_return
from chalicelib.domain.documents import line_amounts
from tests.unit.dte_fixtures import CONSUMER, factura
from tests.unit.test_dte_2026_purchases_json import stored
from tests.unit.test_dte_return import EVENT_CODE, fe_v2

HOLGURA = Decimal("0.01")


def sold(product: int, quantity: Decimal, price: Decimal, discount: Decimal, rate: Decimal = Decimal("0.13")) -> dict:
    """A line as the service stores it (documents.line_amounts: quantity x price half up to cents,
    less the discount; the IVA half up on that)."""
    amounts = line_amounts(quantity, price, discount, rate, "lines[0]")
    return {"productId": product, "description": f"Artículo {product}", "quantity": quantity, "unitPrice": price,
            "discount": discount, "taxRate": rate, "taxTreatment": "taxed" if rate else "exempt",
            "subtotal": amounts.subtotal, "tax": amounts.tax, "total": amounts.total}


def drift(item: dict) -> Decimal:
    sale = item["ventaGravada"] + item["ventaExenta"] + item["ventaNoSuj"]
    return abs(item["cantidad"] * item["precioUni"] - item["montoDescu"] - sale)


@st.composite
def lines(draw) -> list[dict]:
    drawn = []
    for product in range(1, draw(st.integers(1, 3)) + 1):
        price = Decimal(draw(st.integers(1, 10_000_000))) / 10_000  # 0.0001 .. 1000.0000
        quantity = Decimal(draw(st.integers(1, 50_000))) / 100  # 0.01 .. 500.00
        gross = line_amounts(quantity, price, Decimal(0), Decimal(0), "lines[0]").subtotal
        discount = Decimal(draw(st.integers(0, int(gross * 100)))) / 100
        rate = draw(st.sampled_from([Decimal("0.13"), Decimal("0.13"), Decimal(0)]))
        drawn.append(sold(product, quantity, price, discount, rate))
    return drawn


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(lines())
@example([sold(1, Decimal(1), Decimal("3.805"), Decimal(0))])  # 4.31 sold, 4.29965 by the gross-up
@example([sold(1, Decimal(3), Decimal("0.3333"), Decimal("0.07"))])
def test_every_line_of_an_fe_v2_and_of_its_return_event_is_within_the_authoritys_cent(drawn):
    invoice = stored("01", CONSUMER, drawn)
    sent = dte_json.authority_document(invoice)
    assert sent["identificacion"]["version"] == 2
    assert dte_formats.schema_problems(sent) == []
    for item in sent["cuerpoDocumento"]:
        assert drift(item) <= HOLGURA, item

    source = fe_v2()
    source["lines"] = drawn
    source["dte"]["items"] = [{"codigo": f"P-{line['productId']}", "tipoItem": 1} for line in drawn]
    matched = dte_return.returned_lines(drawn, drawn, {})
    note = {"id": 8, "type": "06", "date": "2026-11-20", "currency": "USD", "lines": drawn,
            "dte": dte_return.pending(EVENT_CODE, source, matched, "10:15:00", drawn)}
    event = dte_return.event(note)
    assert dte_formats.schema_problems(event, dte_formats.RETORNO) == []
    for item in event["cuerpoDocumento"]:
        assert drift(item) <= HOLGURA, item


def test_one_cup_at_3_805_is_sent_at_4_31_in_2026_and_as_always_in_the_legacy_edition():
    cup = sold(1, Decimal(1), Decimal("3.805"), Decimal(0))
    # 1 x 3.805 = 3.805 -> 3.81 (half up), IVA 3.81 x 0.13 = 0.4953 -> 0.50: 4.31 sold
    assert (cup["subtotal"], cup["tax"]) == (Decimal("3.81"), Decimal("0.50"))
    [item] = dte_json.authority_document(stored("01", CONSUMER, [cup]))["cuerpoDocumento"]
    assert (item["precioUni"], item["ventaGravada"]) == (Decimal("4.31000000"), Decimal("4.31"))
    # the legacy fe-fc-v1 as before: 3.805 x 1.13 = 4.29965 (its schema's tolerance, its DTEs' bytes)
    [legacy] = dte_json.authority_document(factura(lines=[cup]))["cuerpoDocumento"]
    assert legacy["precioUni"] == Decimal("4.29965000") and legacy["ventaGravada"] == Decimal("4.31")
    # its return event (fe-eret-v1, 2026 only) sends the same 4.31 per cup
    source = fe_v2()
    source["lines"], source["dte"]["items"] = [cup], [{"codigo": "P-1", "tipoItem": 1}]
    note = {"id": 8, "type": "06", "date": "2026-11-20", "currency": "USD", "lines": [cup],
            "dte": dte_return.pending(EVENT_CODE, source, [0], "10:15:00", [cup])}
    [returned] = dte_return.event(note)["cuerpoDocumento"]
    assert (returned["precioUni"], returned["ventaGravada"]) == (Decimal("4.31000000"), Decimal("4.31"))
