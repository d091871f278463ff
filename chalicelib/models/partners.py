from decimal import Decimal
from typing import Annotated, List, Literal, Optional

from pydantic import Field, StringConstraints

from chalicelib.countries.models import (
    ADDRESS_RULES,
    Department,
    District,
    EconomicActivityCode,
    Municipality,
    SalvadoranAddressRules,
)
from chalicelib.models.base import (
    FROM_JSON_NUMBER,
    Date,
    Email,
    EntityId,
    ListEnvelope,
    ListQuery,
    LongText,
    Money,
    Name,
    PositiveMoney,
    RequestModel,
    ResponseModel,
    SearchText,
    ShortText,
    WholeNumber,
)

PartnerType = Literal["customer", "supplier", "both"]
CreditBlockDays = Annotated[WholeNumber, Field(ge=0, le=3650), FROM_JSON_NUMBER]
Country = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$"), Field(
    description="ISO 3166-1 alpha-2 code of the partner's country (default: the company's). El Salvador: a "
                "customer abroad (not SV) whose invoice lines are all `export` gets a factura de exportación "
                "(DTE 11)")]
PersonType = Annotated[Literal["natural", "legal"], Field(
    description="a natural person or a legal entity (El Salvador's CAT-029; a factura de exportación names it)")]
Nrc = Annotated[str, StringConstraints(pattern=r"^\d{1,7}-?\d$"), Field(
    description="El Salvador: the taxpayer's registration number (NRC, e.g. 123456-7). A customer with one "
                "gets a comprobante de crédito fiscal (DTE 03) instead of a factura, and the IVA books use it")]


class PartnerCreate(SalvadoranAddressRules, RequestModel):
    model_config = ADDRESS_RULES
    name: Name
    type: PartnerType
    tax_id: Optional[ShortText] = None
    nrc: Optional[Nrc] = None
    economic_activity_code: Optional[EconomicActivityCode] = None
    economic_activity: Optional[Annotated[str, StringConstraints(min_length=5, max_length=150)]] = None
    department: Optional[Department] = None
    municipality: Optional[Municipality] = None
    country: Optional[Country] = None
    person_type: Optional[PersonType] = None
    district: District = None
    email: Optional[Email] = None
    phone: Optional[ShortText] = None
    address: Optional[LongText] = None
    payment_condition_id: Optional[EntityId] = None
    credit_limit: Optional[Money] = Field(None, alias="credit_limit")
    credit_block_days: Optional[CreditBlockDays] = Field(None, alias="credit_block_days")
    is_active: bool = True


class PartnerUpdate(SalvadoranAddressRules, RequestModel):
    """PUT changes only the fields it sends; send null to clear an optional field (the department with
    its municipality or its district, which replace the place; department and municipality null clear it)."""
    model_config = ADDRESS_RULES
    name: Name = None  # type: ignore[assignment]
    type: PartnerType = None  # type: ignore[assignment]
    tax_id: Optional[ShortText] = None
    nrc: Optional[Nrc] = None
    economic_activity_code: Optional[EconomicActivityCode] = None
    economic_activity: Optional[Annotated[str, StringConstraints(min_length=5, max_length=150)]] = None
    department: Optional[Department] = None
    municipality: Optional[Municipality] = None
    country: Optional[Country] = None
    person_type: Optional[PersonType] = None
    district: District = None
    email: Optional[Email] = None
    phone: Optional[ShortText] = None
    address: Optional[LongText] = None
    payment_condition_id: Optional[EntityId] = None
    credit_limit: Optional[Money] = Field(None, alias="credit_limit")
    credit_block_days: Optional[CreditBlockDays] = Field(None, alias="credit_block_days")
    is_active: bool = None  # type: ignore[assignment]
    version: Optional[int] = Field(None, ge=1)


class Partner(ResponseModel):
    id: int
    name: str
    type: str
    tax_id: Optional[str] = None
    nrc: Optional[str] = None
    economic_activity_code: Optional[str] = None
    economic_activity: Optional[str] = None
    department: Optional[str] = None
    municipality: Optional[str] = None
    country: Optional[str] = None
    person_type: Optional[str] = None
    district: Optional[str] = Field(None, description="the distrito within the municipality (CAT-008: the code it "
                                                      "had as a municipio before 2024)")
    email: Optional[str] = None
    phone: Optional[str] = None
    address: Optional[str] = None
    payment_condition_id: Optional[int] = None
    credit_limit: Optional[Decimal] = Field(None, alias="credit_limit")
    credit_block_days: Optional[int] = Field(None, alias="credit_block_days")
    is_active: bool
    receivable_balance: Decimal
    payable_balance: Decimal
    version: int
    created_at: str
    updated_at: str


class PartnerList(ListEnvelope):
    business_partners: List[Partner]


class PartnerListQuery(ListQuery):
    q: Optional[SearchText] = None


class OpeningBalanceCreate(RequestModel):
    """What the partner owed (a customer) or was owed (a supplier) when the company's books started
    here: an open item payments settle, against the opening balance equity account."""
    date: Date = Field(description="the day the balance stood: usually the day before the books start")
    amount: PositiveMoney
    due_date: Optional[Date] = Field(None, description="when it falls due (aging); default `date`")
    reference: Optional[ShortText] = Field(None, description="the invoice or statement it comes from")
    side: Optional[Literal["receivable", "payable"]] = Field(
        None, description="required for a partner that is both customer and supplier")
    notes: Optional[LongText] = None
