"""El Salvador's models: the issuer block of a company (DteIssuer), the address and activity rules
its catalogues set (CAT-012, 013, 008, 019), a document's export terms and DTE, which the core's company,
partner and document models embed through chalicelib/countries/models.py; the models of its own
routes (the signing key, the authority's credentials, a DTE as transmitted, the invalidation; the
IVA books' are in book_models.py)."""
from typing import Annotated, Any, Dict, List, Literal, Optional

from pydantic import ConfigDict, Field, StringConstraints, ValidationInfo, field_validator, model_validator

from chalicelib.countries.sv.domain import dte_catalogues, dte_formats
from chalicelib.messages.phrases import Phrase
from chalicelib.models.base import Date, EntityId, RequestModel, ResponseModel

Department = Annotated[str, StringConstraints(pattern=r"^(0[1-9]|1[0-4])$"), Field(
    description="El Salvador's department (CAT-012), two digits 01-14")]
Municipality = Annotated[str, StringConstraints(pattern=r"^[0-9]{2}$"), Field(
    description="the municipio within the department under the 2024 division (CAT-013, e.g. 06/23 San Salvador "
                "Centro); a code from before 2024 names the distrito it became (06/14 San Salvador): it is kept as "
                "`district` and the municipality becomes the municipio it is in. Send it or `district` (both only when "
                "they name the same place, as an address read back does)")]
District = Optional[Annotated[str, StringConstraints(pattern=r"^[0-9]{2}$"), Field(
    description="the distrito within the department (CAT-008: the code it had as a municipio before 2024, two "
                "digits, e.g. 06/14 San Salvador), sent with the department INSTEAD of the municipality: it names the "
                "place, and the municipality becomes the 2024 municipio it lies in (06/23 San Salvador Centro). "
                "Beside a municipality it is not in, 400. The 2026 formats require it in the issuer's and the receiver's "
                "address")]]
# A pattern here, not the catalogue's 774 codes as an enum (a generated client would make them a class of
# VALUE_0 ... VALUE_773): the service checks the code against CAT-019 (checked_activity)
EconomicActivityCode = Annotated[str, StringConstraints(pattern=r"^[0-9]{5,6}$"), Field(
    description="the economic activity's code in the authority's catalogue CAT-019 (5 or 6 digits, e.g. 46510); "
                "a code outside the catalogue answers 400 naming this field")]
ADDRESS_RULES = ConfigDict(json_schema_extra=dte_catalogues.address_schema())
IdDocumentType = Annotated[Literal["36", "13", "02", "03", "37"], Field(
    json_schema_extra={"x-enum-varnames": ["NIT", "DUI", "RESIDENT_CARD", "PASSPORT", "OTHER"]})]


class PersonId(RequestModel):
    """A person named in an invalidation (CAT-022: 36 NIT, 13 DUI, 02 carné de residente, 03 passport, 37 other)."""
    name: Annotated[str, StringConstraints(min_length=5, max_length=100)]
    document_type: IdDocumentType
    document_number: Annotated[str, StringConstraints(min_length=3, max_length=20)]


def checked_municipality(municipality: Any, info: ValidationInfo) -> Any:
    """The municipality against CAT-013 for the department sent beside it, refused on its own field
    (the pair's other rules are checked_sv_address's)."""
    department = info.data.get("department")
    if municipality is not None and department is not None:
        dte_catalogues.address(department, municipality)
    return municipality


def checked_district(district: Any, info: ValidationInfo) -> Any:
    """The district against CAT-008 for the department sent beside it, refused on its own field: it
    names the place instead of the municipality (a department the catalogues refuse is refused on its
    field)."""
    if district is None or "department" not in info.data:
        return district
    if info.data["department"] is None:
        raise ValueError("send the district with its department")
    department = info.data["department"]
    if dte_catalogues.district_municipio(department, district) is None:
        raise ValueError(Phrase("{} is not in the authority's catalogue CAT-008 for department {}",
                                repr(district), department))
    # an address read back (its municipio and district) may be sent again as it was
    municipality = info.data.get("municipality")
    if municipality is not None and not dte_catalogues.names_place(department, municipality, district):
        raise ValueError("send the district or the municipality, not both: the district names its municipio")
    return district


def checked_activity(code: Any) -> Any:
    """The economic activity's code against CAT-019, refused on its own field."""
    return code if code is None else dte_catalogues.check_code("CAT-019", code)


def checked_sv_address(fields: Any) -> Any:
    """A model's Salvadoran address and activity against the authority's catalogues (CAT-012, 013,
    008, 019): the department with ONE field naming the place, its municipality or its district
    (checked_district), stored as the 2024 municipio and its district (dte_catalogues.with_district).
    Also in a sparse update the department comes with one of them, and they replace the place: an
    address sent by its municipality without a pre-2024 code loses the district stored."""
    department, municipality, district, sent = fields.department, fields.municipality, fields.district, \
        fields.model_fields_set
    named = "municipality" in sent or district is not None
    if ("department" in sent) != named or (department is None) != (municipality is None and district is None):
        raise ValueError("send the department with its municipality or its district")
    if department is not None:
        fields.municipality, fields.district = dte_catalogues.with_district(department, municipality, district)
    elif "municipality" in sent:
        fields.district = None  # the address cleared: its district goes with it
    return fields


class SalvadoranAddressRules:
    """The catalogue checks of a model with El Salvador's department, municipality and activity:
    each refused on its field, then the pair stored under the 2024 division."""
    _municipality = field_validator("municipality")(checked_municipality)
    _district = field_validator("district")(checked_district)
    _activity = field_validator("economic_activity_code")(checked_activity)
    _catalogues = model_validator(mode="after")(checked_sv_address)


EstablishmentType = Annotated[Literal["01", "02", "04", "07", "20"], Field(
    description="CAT-009: 01 branch, 02 head office, 04 warehouse, 07 yard, 20 other (the 2026 formats name only "
                "the first four)",
    json_schema_extra={"x-enum-varnames": ["BRANCH", "HEAD_OFFICE", "WAREHOUSE", "YARD", "OTHER"]})]


class DteEstablishment(RequestModel):
    """One of the company's establishments as the DTE formats name it: `code`, the EEE its document
    numbers (EEE-PPP-TT-NNNNNNNN) carry, and its type (the 2026 numeroControl's and codEstable's letter)."""
    code: Annotated[str, StringConstraints(pattern=r"^[0-9]{3}$")] = Field(
        description="the establishment's code, the EEE of its document numbers (e.g. 001)")
    type: EstablishmentType


class DteIssuer(SalvadoranAddressRules, RequestModel):
    """El Salvador: what the tax authority's formats ask of the issuer beyond the company's name, NIT,
    address, phone and e-mail."""
    model_config = ADDRESS_RULES
    nrc: str = Field(pattern=r"^\d{1,7}-?\d$", description="the company's NRC (registro de contribuyente)")
    economic_activity_code: EconomicActivityCode
    economic_activity: Annotated[str, StringConstraints(min_length=5, max_length=150)]
    trade_name: Optional[Annotated[str, StringConstraints(min_length=5, max_length=150)]] = None
    establishment_type: Literal["01", "02", "04", "07", "20"] = Field(
        "02", description="CAT-009: 01 branch, 02 head office, 04 warehouse, 07 yard, 20 other",
        json_schema_extra={"x-enum-varnames": ["BRANCH", "HEAD_OFFICE", "WAREHOUSE", "YARD", "OTHER"]})
    establishments: Optional[List[DteEstablishment]] = Field(
        None, max_length=999, description="each establishment's type by the EEE of its document numbers; one not "
                                          "listed takes establishmentType")
    department: Department
    municipality: Optional[Municipality] = None
    district: District = None
    environment: Literal["00", "01"] = Field("00", description="the authority's environment: 00 test, 01 production",
                                             json_schema_extra={"x-enum-varnames": ["TEST", "PRODUCTION"]})
    responsible: Optional[PersonId] = Field(None, description="who answers for the establishment: the contingency "
                                                              "events that report DTEs the authority could not "
                                                              "receive in time name this person")
    formats_2026_from: Optional[Date] = Field(
        None, description="the date from which the company's DTEs are issued in the formats of the Normativa de "
                          "Cumplimiento V2.0 (Hacienda's 2026 schemas: FE v2, CCF v4, NC/ND v4, FEX v3...); null: "
                          "the earlier formats. Left out: the date already chosen stays, and an issuer set up for "
                          "the first time takes today (a new company issues in the 2026 formats at once). A DTE "
                          "keeps the version it was issued in")

    @field_validator("establishments")
    @classmethod
    def _one_type_per_establishment(cls, establishments: Optional[List[DteEstablishment]]) -> Any:
        codes = [establishment.code for establishment in establishments or []]
        if len(set(codes)) != len(codes):
            raise ValueError("each establishment is listed once: its code is repeated")
        return establishments


class DteIssuerInfo(ResponseModel):
    nrc: str
    economic_activity_code: str
    economic_activity: str
    trade_name: Optional[str] = None
    establishment_type: str = "02"  # the defaults of DteIssuer (a sparse update stores what was sent)
    establishments: Optional[List[Dict[str, str]]] = Field(None, description="each establishment's type (CAT-009) "
                                                                             "by the EEE of its document numbers")
    department: str
    municipality: str
    district: Optional[str] = Field(None, description="the distrito within the municipality (CAT-008: the code it "
                                                      "had as a municipio before 2024)")
    environment: str = "00"
    responsible: Optional[Dict[str, Any]] = None
    formats_2026_from: Optional[str] = Field(None, description="from this date the DTEs are issued in the 2026 "
                                                                "formats (Normativa de Cumplimiento V2.0)")


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


class ExportTerms(RequestModel):
    """El Salvador: what a factura de exportación (DTE 11) says of the export besides its lines and buyer."""
    country_code: Annotated[str, StringConstraints(pattern=r"^(\d{4}|[A-Z]{2})$")] = Field(
        description="the destination country's code in the authority's catalogue CAT-020: the 4 digits fe-fex-v1 "
                    "lists for a DTE in the legacy formats; in the 2026 ones (dteIssuer.formats2026From) its ISO "
                    "3166 alpha-2 code, the customer's country when a 4-digit code is given")
    country_name: Annotated[str, StringConstraints(min_length=3, max_length=50)] = Field(
        description="the destination country's name")
    fiscal_precinct: Optional[Annotated[str, StringConstraints(pattern=r"^\d{2}$")]] = Field(
        None, description="goods: the fiscal precinct (recinto fiscal, CAT-027) they leave through")
    regime: Optional[Annotated[str, StringConstraints(min_length=1, max_length=13)]] = Field(
        None, description="goods: the customs regime (CAT-028, e.g. 1000.000), or its type (CAT-033) and regime "
                           "as EX-1.1000.000; the 2026 formats send the type apart (tipoRegimen), from the regime's "
                           "first digit when not given")
    incoterms: Optional[Annotated[str, StringConstraints(pattern=r"^\d{2}$")]] = Field(
        None, description="the INCOTERMS code (CAT-031)")
    incoterms_description: Optional[Annotated[str, StringConstraints(min_length=3, max_length=150)]] = None


# The DTE a sales invoice (01, 113) is issued as, chosen by the seller (MH catalogue CAT-002)
DteType = Annotated[Literal["01", "03"], Field(
    description="El Salvador sales invoices (01, 113): the DTE to issue, `01` Factura (to a final consumer) or `03` "
                "Comprobante de crédito fiscal (to a registered taxpayer: the customer needs an NRC); left out: `03` "
                "when the customer has an NRC, else `01`",
    json_schema_extra={"x-enum-varnames": ["FACTURA", "CREDITO_FISCAL"]})]


class DocumentInvalidate(RequestModel):
    """El Salvador: the invalidation (anulación) of an accepted DTE, as the authority's event asks.
    Motives 1 and 3 name the DTE that replaces it (issued and accepted first), except for a DTE
    the Manual Funcional V2.0 invalidates first and issues again after (a 2026 credit note 05):
    checked against the DTE (DTE_INVALIDATION_REPLACEMENT_REQUIRED); motive 2 never names one."""
    model_config = ConfigDict(json_schema_extra={"allOf": [
        {"if": {"properties": {"invalidationType": {"const": 2}}},
         "then": {"properties": {"replacementDocumentId": {"type": "null"}}}},
        {"if": {"properties": {"invalidationType": {"const": 3}}},
         "then": {"required": ["reason"], "properties": {"reason": {"type": "string"}}}}]})

    invalidation_type: Literal[1, 2, 3] = Field(
        description="CAT-024. 1: an error in the information; 2: the operation was rescinded (no replacement); "
                    "3: another reason (reason). 1 and 3 name the replacing DTE (replacementDocumentId) unless the "
                    "DTE is invalidated first and issued again after (a credit note of the 2026 formats)",
        json_schema_extra={"x-enum-varnames": ["REPLACED", "RESCINDED", "OTHER"]})
    reason: Optional[Annotated[str, StringConstraints(min_length=5, max_length=250)]] = Field(
        None, validate_default=True,
        description="why; required for motive 3. At most 200 characters for a DTE of the 2026 formats "
                    "(invalidacion-schema-v3), 250 for one of the earlier formats")
    replacement_document_id: Optional[EntityId] = Field(
        None, description="the accepted DTE that replaces this one (motives 1 and 3, when the DTE's rules take one): "
                          "for a DTE of the earlier formats one of the same customer; for one of the 2026 formats "
                          "one of the same type, to the same or another customer (the customer may be the error)")
    responsible: PersonId = Field(description="who invalidates it, for the issuer")
    requester: PersonId = Field(description="who asks for it")
    date: Optional[Date] = Field(None, description="date of the reversal entry and stock movements; default today")

    @field_validator("reason")
    @classmethod
    def _reason_of_motive_3(cls, reason: str | None, info: ValidationInfo) -> str | None:
        """Motive 3, another reason, says which (the published schema's allOf says so too)."""
        if reason is None and info.data.get("invalidation_type") == 3:
            raise ValueError("required for motive 3 (another reason)")
        return reason


class DteInfo(ResponseModel):
    """El Salvador: the document as an electronic tax document (DTE) and its transmission."""
    status: Literal["pending", "accepted", "rejected", "invalidated"]
    codigo_generacion: str
    numero_control: Optional[str] = None
    tipo_dte: Optional[str] = None
    version: Optional[int] = Field(None, description="the version of the authority's format it was issued in (e.g. 2: "
                                                     "fe-f-v2, 4: fe-ccf-v4), kept whatever the company issues in "
                                                     "later; issued before versions were kept: the earlier "
                                                     "formats' (fe-fc-v1: 1, fe-ccf-v3: 3)")
    sello_recepcion: Optional[str] = None
    receptor: Optional[Dict[str, Any]] = Field(None, description="the receiver as issued, in the authority's format")
    observations: List[str] = Field(default_factory=list, description="the tax authority's, when it rejected it")
    attempts: int = 0
    last_attempt_at: Optional[str] = None
    last_error: Optional[str] = Field(None, description="why the last transmission got no answer (still pending)")
    transmitted_at: Optional[str] = None
    accepted_at: Optional[str] = None
    invalidation: Optional[Dict[str, Any]] = Field(None, description="the accepted invalidation event: its codes, "
                                                                     "seal, type and reason; type 1 names the "
                                                                     "replacing document (replacementDocumentId, "
                                                                     "replacementNumeroControl, "
                                                                     "replacementDocumentNumber)")
    contingency: Optional[Dict[str, Any]] = Field(
        None, description="issued while the authority could not receive it in time: the contingency type (CAT-005), "
                          "the event that reports it (eventCodigo) and, once the authority received the event, its "
                          "seal (eventSeal); it is then sent under the deferred model, in a lot (lotId)")
    # issue 40: console (a person sees the format of every DTE, also of one stored before versions were kept)
    @model_validator(mode="before")
    @classmethod
    def _issued_version(cls, stored: Any) -> Any:
        """A DTE stored before versions were kept was issued in the legacy edition's."""
        if isinstance(stored, dict) and stored.get("version") is None and dte_formats.is_format(stored.get("tipoDte")):
            return {**stored, "version": dte_formats.version_of(stored["tipoDte"], dte_formats.LEGACY)}
        return stored


class DteAuthorityAnswer(ResponseModel):
    """The tax authority's answer to the transmission, as it wrote it."""
    model_config = ConfigDict(alias_generator=None, extra="allow", defer_build=True)
    estado: Optional[str] = Field(None, description="`PROCESADO` (accepted) or `RECHAZADO`")
    codigoGeneracion: Optional[str] = None  # noqa: N815 (the authority's names)
    selloRecibido: Optional[str] = None  # noqa: N815
    fhProcesamiento: Optional[str] = Field(None, description="when it was processed: dd/mm/yyyy hh:mm:ss, "  # noqa: N815
                                                             "El Salvador's time")
    observaciones: List[str] = []


class DteAsTransmitted(ResponseModel):
    """El Salvador: the DTE's JSON exactly as signed and transmitted (every member of the authority's
    format, byte for byte), followed by its signature, the authority's seal and answer: the file the
    receiver is handed."""
    model_config = ConfigDict(alias_generator=None, extra="allow", defer_build=True)
    identificacion: Dict[str, Any] = Field(description="tipoDte, numeroControl, codigoGeneracion, fecEmi... as issued")
    firmaElectronica: str = Field(description="the compact JWS (RS512) sent")  # noqa: N815
    selloRecibido: Optional[str] = Field(None, description="the authority's seal; null when it refused the DTE")  # noqa: N815
    respuestaHacienda: DteAuthorityAnswer  # noqa: N815
