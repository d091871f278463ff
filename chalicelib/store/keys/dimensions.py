"""Cost centres (issue 44): a company's dimensions and their values, all in one small partition
(at most 5 dimensions), so one strongly consistent Query reads them all."""
from __future__ import annotations

from chalicelib.store.keys.base import Key, sortable_id, unique_value

DIMENSION = "DIM"
DIMENSION_VALUE = "DIMVAL"  # value ids come from one sequence per company: unique across its dimensions
MAX_DIMENSIONS = 5


def dimensions_partition(company_id: int) -> str:
    return f"C#{company_id}#DIMS"


def dimension(company_id: int, dimension_id: int) -> Key:
    return {"PK": dimensions_partition(company_id), "SK": f"D#{sortable_id(dimension_id)}"}


def dimension_value(company_id: int, dimension_id: int, value_id: int) -> Key:
    """Beside its dimension: the dimension's values sort right after it."""
    return {"PK": dimensions_partition(company_id), "SK": f"D#{sortable_id(dimension_id)}#V#{sortable_id(value_id)}"}


def dimension_count(company_id: int) -> Key:
    """How many dimensions the company made (none is ever deleted): its condition keeps them at MAX_DIMENSIONS."""
    return {"PK": dimensions_partition(company_id), "SK": "COUNT"}


# names (values: names and codes, within their dimension) reserved, as given folded (blind to case and spacing)
def dimension_name(company_id: int, folded_name: str) -> Key:
    return unique_value(company_id, "DIMENSION_NAME", folded_name)


def dimension_value_name(company_id: int, dimension_id: int, folded_name: str) -> Key:
    return unique_value(company_id, "DIMENSION_VALUE_NAME", f"{dimension_id}#{folded_name}")


def dimension_value_code(company_id: int, dimension_id: int, folded_code: str) -> Key:
    return unique_value(company_id, "DIMENSION_VALUE_CODE", f"{dimension_id}#{folded_code}")
