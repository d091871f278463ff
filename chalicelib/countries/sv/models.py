"""El Salvador's request-model pieces: the issuer block of a company (DteIssuer) and the address
and activity rules its catalogues set (CAT-012, 013, 019), which the core's company and partner
models embed through chalicelib/countries/models.py; the models of its own routes (the signing key,
the authority's credentials)."""
from typing import Annotated, Any, Dict, Literal, Optional

from pydantic import ConfigDict, Field, StringConstraints, ValidationInfo, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from chalicelib.countries.sv.domain import dte_catalogues
from chalicelib.models.base import RequestModel, ResponseModel
from chalicelib.models.documents import PersonId

Department = Annotated[str, StringConstraints(pattern=r"^(0[1-9]|1[0-4])$"), Field(
    description="El Salvador's department (CAT-012), two digits 01-14")]
Municipality = Annotated[str, StringConstraints(pattern=r"^[0-9]{2}$"), Field(
    description="the municipio within the department under the 2024 division (CAT-013, e.g. 06/23 San Salvador "
                "Centro); a code from before 2024 names the distrito it became (06/14 San Salvador): it is kept as "
                "`district` and the municipality becomes the municipio it is in")]
# Set from a pre-2024 municipality code, never sent: the distrito, by the code it had as a municipio
District = SkipJsonSchema[Optional[str]]
EconomicActivityCode = Annotated[str, StringConstraints(pattern=r"^[0-9]{5,6}$"), Field(
    description="the economic activity's code (CAT-019)",
    json_schema_extra={"enum": list(dte_catalogues.codes("CAT-019"))})]
ADDRESS_RULES = ConfigDict(json_schema_extra=dte_catalogues.address_schema())


def checked_municipality(municipality: Any, info: ValidationInfo) -> Any:
    """The municipality against CAT-013 for the department sent beside it, refused on its own field
    (the pair's other rules are checked_sv_address's)."""
    department = info.data.get("department")
    if municipality is not None and department is not None:
        dte_catalogues.address(department, municipality)
    return municipality


def checked_activity(code: Any) -> Any:
    """The economic activity's code against CAT-019, refused on its own field."""
    return code if code is None else dte_catalogues.check_code("CAT-019", code)


def checked_sv_address(fields: Any) -> Any:
    """A model's Salvadoran address and activity against the authority's catalogues (CAT-012, 013,
    019): the municipio under the 2024 division, a pre-2024 code kept as its `district`. Department
    and municipality go together, also in a sparse update."""
    department, municipality, sent = fields.department, fields.municipality, fields.model_fields_set
    if "district" in sent:
        raise ValueError("district is not sent: a municipality code from before 2024 names it")
    if ("department" in sent) != ("municipality" in sent) or (department is None) != (municipality is None):
        raise ValueError("send department and municipality together")
    if department is not None:
        fields.municipality, fields.district = dte_catalogues.address(department, municipality)
    elif "municipality" in sent:
        fields.district = None  # the address cleared: its district goes with it
    return fields


class SalvadoranAddressRules:
    """The catalogue checks of a model with El Salvador's department, municipality and activity:
    each refused on its field, then the pair stored under the 2024 division."""
    _municipality = field_validator("municipality")(checked_municipality)
    _activity = field_validator("economic_activity_code")(checked_activity)
    _catalogues = model_validator(mode="after")(checked_sv_address)


class DteIssuer(SalvadoranAddressRules, RequestModel):
    """El Salvador: what the tax authority's formats ask of the issuer beyond the company's name, NIT,
    address, phone and e-mail."""
    model_config = ADDRESS_RULES
    nrc: str = Field(pattern=r"^\d{1,7}-?\d$", description="the company's NRC (registro de contribuyente)")
    economic_activity_code: EconomicActivityCode
    economic_activity: Annotated[str, StringConstraints(min_length=5, max_length=150)]
    trade_name: Optional[Annotated[str, StringConstraints(min_length=5, max_length=150)]] = None
    establishment_type: Literal["01", "02", "04", "07", "20"] = Field(
        "02", description="CAT-009: 01 branch, 02 head office, 04 warehouse, 07 yard, 20 other")
    department: Department
    municipality: Municipality
    district: District = None
    environment: Literal["00", "01"] = Field("00", description="the authority's environment: 00 test, 01 production")
    responsible: Optional[PersonId] = Field(None, description="who answers for the establishment: the contingency "
                                                              "events that report DTEs the authority could not "
                                                              "receive in time name this person")


class DteIssuerInfo(ResponseModel):
    nrc: str
    economic_activity_code: str
    economic_activity: str
    trade_name: Optional[str] = None
    establishment_type: str = "02"  # the defaults of DteIssuer (a sparse update stores what was sent)
    department: str
    municipality: str
    district: Optional[str] = Field(None, description="the distrito, by its pre-2024 CAT-013 code")
    environment: str = "00"
    responsible: Optional[Dict[str, Any]] = None


class DteSigningKeyUpload(RequestModel):
    private_key: Annotated[str, StringConstraints(min_length=100, max_length=10000,
                                                  pattern=r"^\s*-----BEGIN [A-Z ]*PRIVATE KEY-----")] = Field(
        description="the RSA private key (PEM, at least 2048 bits) of the certificate the Ministerio de Hacienda "
                    "issued: kept encrypted, never answered")


class DteSigningKey(ResponseModel):
    fingerprint: str = Field(description="SHA-256 of the public key's PEM")
    public_key: str
    bits: int
    updated_at: str


class DteAuthorityCredentialsUpload(RequestModel):
    password: Annotated[str, StringConstraints(min_length=1, max_length=200)] = Field(
        description="the password of the Ministerio de Hacienda's API (its user is the company's NIT): kept "
                    "encrypted, never answered")


class DteAuthorityCredentials(ResponseModel):
    user: str = Field(description="the company's NIT without hyphens, as the authority's auth service takes it")
    updated_at: str
