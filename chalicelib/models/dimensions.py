"""Cost centres (issue 44): a company's dimensions (branch, project, department...) and their
values. A line carries them as models.accounting.LineDimensions."""
from __future__ import annotations

from typing import Annotated, Any, List, Optional

from pydantic import Field, StringConstraints, model_serializer

from chalicelib.models.base import NOT_BLANK_PATTERN, RequestModel, ResponseModel

MAX_VALUES_AT_CREATION = 20  # each value is three writes of the creating transaction (item, name, code)
DimensionName = Annotated[str, StringConstraints(min_length=1, max_length=100),
                          Field(json_schema_extra={"pattern": NOT_BLANK_PATTERN})]
ValueCode = Annotated[str, StringConstraints(min_length=1, max_length=20),
                      Field(json_schema_extra={"pattern": NOT_BLANK_PATTERN})]


class DimensionValueCreate(RequestModel):
    name: DimensionName = Field(description="unique within the dimension (case-blind)")
    code: Optional[ValueCode] = Field(None, description="unique within the dimension (case-blind)")
    is_active: bool = True


class DimensionValueUpdate(RequestModel):
    """Sparse; `code: null` removes the code. No DELETE: `isActive: false` (postings keep the value)."""
    name: DimensionName = None  # type: ignore[assignment]
    code: Optional[ValueCode] = None
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class DimensionCreate(RequestModel):
    name: DimensionName = Field(description="unique within the company (case-blind); at most 5 dimensions")
    is_active: bool = True
    values: List[DimensionValueCreate] = Field(default_factory=list, max_length=MAX_VALUES_AT_CREATION,
                                               description="values made with it (more: POST /dimensions/{id}/values)")


class DimensionUpdate(RequestModel):
    """Sparse. No DELETE: `isActive: false` (lines can no longer take its values; reports still show them)."""
    name: DimensionName = None  # type: ignore[assignment]
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class DimensionValue(ResponseModel):
    id: int = Field(description="unique across the company's dimensions: what postings carry (dimensionValueIds)")
    dimension_id: int
    code: Optional[str] = None
    name: str
    is_active: bool
    version: int
    created_at: str
    updated_at: str


class Dimension(ResponseModel):
    id: int
    name: str
    is_active: bool
    values: List[DimensionValue]
    version: int
    created_at: str
    updated_at: str


class DimensionList(ResponseModel):
    dimensions: List[Dimension]
    total: int


# --- reports by cost centre (the income statement, the trial balance) ------------------------------

DIMENSION_VALUE_FILTER = "Only the postings carrying this dimension value (GET /dimensions)."
GROUP_BY_DIMENSION = ("Besides the whole, a column per value of this dimension and a last one for the postings "
                      "carrying none of its values (`dimensionColumns`), adding up to the whole.")


class DimensionColumn(ResponseModel):
    """A column of a report by cost centre: a value of the dimension grouped by, or (valueId null,
    the last) the postings carrying none of its values."""
    value_id: Optional[int] = None
    code: Optional[str] = None
    name: Optional[str] = None
    is_active: bool


class ByDimension(ResponseModel):
    """A report's figures by cost centre (`…ByDimension`, in `dimensionColumns`' order) and what it was
    asked: present only when the report was asked by a dimension (the default answers stay as they were)."""
    @model_serializer(mode="wrap")
    def _without_dimensions_unasked(self, handler: Any):  # (no return type: the schema stays the model's)
        data = handler(self)
        for name, field in type(self).model_fields.items():
            if (name in DIMENSION_FIELDS or name.endswith("_by_dimension")) and getattr(self, name) is None:
                data.pop(field.alias or name, None)
                data.pop(name, None)
        return data


DIMENSION_FIELDS = ("dimension_value_id", "dimension_value_name", "group_by_dimension_id", "group_by_dimension_name",
                    "dimension_columns")


