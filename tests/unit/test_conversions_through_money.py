"""Two currencies meet only through `Money.at` (domain/money.py): no module multiplies or divides an
amount by an exchange rate on bare Decimals. An exchange rate is what the code names one: `rate`,
`exchange_rate`, `exchangeRate`, or what `rate_of`/`rate_on`/`rate_for` answer. A rate of another
kind says so in its name (`taxRate`, a withholding `share`, a `fraction`)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "chalicelib"
THE_ONE_CONVERSION = ROOT / "domain" / "money.py"
EXCHANGE_RATE = re.compile(r"^(rate|exchange_?rate|exchangeRate|rate_of|rate_on|rate_for)$", re.IGNORECASE)


def _names(node: ast.AST) -> list[str]:
    found = []
    for each in ast.walk(node):
        if isinstance(each, ast.Name):
            found.append(each.id)
        elif isinstance(each, ast.Attribute):
            found.append(each.attr)
        elif isinstance(each, ast.Constant) and isinstance(each.value, str):
            found.append(each.value)   # document["exchangeRate"]
    return found


def conversions_on_bare_numbers(source: str) -> list[tuple[int, str]]:
    """(line, expression) of each product or quotient with an exchange rate on either side."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)) and \
                any(EXCHANGE_RATE.match(name) for side in (node.left, node.right) for name in _names(side)):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_no_module_converts_an_amount_but_money():
    places = [f"{path.relative_to(ROOT.parent)}:{line}: {expression}"
              for path in sorted(ROOT.rglob("*.py")) if path != THE_ONE_CONVERSION
              for line, expression in conversions_on_bare_numbers(path.read_text(encoding="utf-8"))]
    assert places == []


def test_the_check_hears_each_way_of_converting():
    for written in ("amount * rate", "Decimal(document['total']) * Decimal(document['exchangeRate'])",
                    "round_money(total * currency.rate_of(document))", "amount / exchange_rate",
                    "x = base * self.exchangeRate"):
        assert conversions_on_bare_numbers(written), written
    for written in ("subtotal * Decimal(line['taxRate'])", "base * share", "Money(a, 'USD').at(rate, 'HNL')",
                    "Decimal(fraction) * 100"):
        assert not conversions_on_bare_numbers(written), written
