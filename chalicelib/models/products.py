from decimal import Decimal
from typing import Annotated, List, Literal, Optional

from pydantic import AfterValidator, Field, StringConstraints

from chalicelib.domain.taxes import ALL_RATES, check_tax_rate
from chalicelib.models.base import (
    ListEnvelope,
    ListQuery,
    LongText,
    Money,
    Name,
    RequestModel,
    ResponseModel,
    SearchText,
)

ProductType = Literal["product", "service"]
ProductCode = Annotated[str, StringConstraints(min_length=1, max_length=50, pattern=r"^[^#\s][^#]*$")]
TaxRate = Annotated[Decimal, AfterValidator(check_tax_rate),
                    Field(description="Honduras: 0, 0.15 or 0.18; El Salvador: 0 or 0.13",
                          json_schema_extra={"enum": [float(rate) for rate in ALL_RATES]})]


class ProductCreate(RequestModel):
    code: ProductCode
    name: Name
    type: ProductType = "product"
    description: Optional[LongText] = None
    unit_price: Money = Decimal("0.00")
    cost: Money = Decimal("0.00")
    tax_rate: TaxRate = Field(None, description="default: the country's general rate (0.15 HN, 0.13 SV)")  # type: ignore[assignment]
    track_inventory: Optional[bool] = None
    is_active: bool = True


class ProductUpdate(RequestModel):
    code: ProductCode = None  # type: ignore[assignment]
    name: Name = None  # type: ignore[assignment]
    type: ProductType = None  # type: ignore[assignment]
    description: Optional[LongText] = None
    unit_price: Money = None  # type: ignore[assignment]
    cost: Money = None  # type: ignore[assignment]
    tax_rate: TaxRate = None  # type: ignore[assignment]
    track_inventory: bool = None  # type: ignore[assignment]
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class Product(ResponseModel):
    id: int
    code: str
    name: str
    type: str
    description: Optional[str] = None
    unit_price: Decimal
    cost: Decimal = Field(description="a reference cost; stocked goods are costed at their average cost")
    average_cost: Decimal = Field(Decimal("0.0000"), description="read-only: the weighted average cost of the "
                                  "stock across the company's warehouses (the last one when none is on hand)")
    stock_quantity: Decimal = Field(Decimal("0"), description="read-only: on hand across the warehouses")
    stock_value: Decimal = Field(Decimal("0.00"), description="read-only: what the books carry for it")
    tax_rate: Decimal
    track_inventory: bool
    is_active: bool
    version: int
    created_at: str
    updated_at: str


class ProductList(ListEnvelope):
    products: List[Product]


class ProductListQuery(ListQuery):
    q: Optional[SearchText] = None
