from typing import Annotated, List, Optional

from pydantic import Field, StringConstraints

from chalicelib.models.base import Email, EntityId, ListEnvelope, Name, PageQuery, RequestModel, ResponseModel


class LoginRequest(RequestModel):
    email: Email
    password: Annotated[str, StringConstraints(min_length=1, max_length=200, strip_whitespace=False)]


class SwitchCompanyRequest(RequestModel):
    company_id: EntityId


class CompanyMembership(ResponseModel):
    company_id: int
    name: str
    role: str


class UserView(ResponseModel):
    id: int
    email: str
    name: str


class SessionView(ResponseModel):
    user: UserView
    company_id: int
    role: str
    companies: List[CompanyMembership] = Field(
        description="The session's company and the user's other companies by name, at most "
                    "SESSION_COMPANIES (50); `companiesTotal` says how many there are: "
                    "GET /auth/companies pages and searches them all.")
    companies_total: int
    expires_at: Optional[str] = None


class CompanyMembershipQuery(PageQuery):
    q: Optional[Annotated[str, StringConstraints(strip_whitespace=True, max_length=100)]] = Field(
        None, description="part of the company's name, any case")


class CompanyMembershipList(ListEnvelope):
    companies: List[CompanyMembership]


class LogoutResult(ResponseModel):
    logged_out: bool


class ApiKeyCreate(RequestModel):
    name: Name
    expires_at: Optional[Annotated[str, StringConstraints(
        pattern=r"^(19|2\d)\d{2}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])"
                r"(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)?)?$")]] = Field(
        None, description="Expiry as YYYY-MM-DD (end of that day, UTC) or an ISO 8601 timestamp.")


class ApiKey(ResponseModel):
    id: str
    name: str
    created_at: str
    created_by_user_id: int
    expires_at: Optional[str] = None
    revoked_at: Optional[str] = None
    last_four: str
    status: str


class ApiKeyCreated(ApiKey):
    secret: Optional[str] = Field(description="Shown once; store it now. null in an Idempotency-Key replay.")
    key: Optional[str] = Field(description="KEY_ID:SECRET, ready for Authorization: Bearer or X-API-Key. "
                                           "null in an Idempotency-Key replay.")


class ApiKeyList(ResponseModel):
    api_keys: List[ApiKey]
    total: int
