"""Honduras' models: an exonerated buyer's registers, which the core's document models embed through
chalicelib/countries/models.py, and the answers of its own routes (the sales and purchase books, the
ISV summary)."""
from decimal import Decimal
from typing import Annotated, List, Optional

from pydantic import ConfigDict, Field, StringConstraints

from chalicelib.models.base import RequestModel, ResponseModel
from chalicelib.models.statements import BookPeriod

ExonerationRegister = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40,
                                                          pattern=r"^[A-Za-z0-9][A-Za-z0-9 ./-]*$")]


class Exoneration(RequestModel):
    """Honduras: the registers of an exonerated buyer, printed on the invoice and in the sales book
    (Acuerdo 481-2017 Art. 10 num. 8). Each is optional, as the exoneration at hand calls for; at
    least one is given. With it, every line carries no ISV (its lines are `exonerated`)."""
    model_config = ConfigDict(json_schema_extra={"minProperties": 1})

    purchase_order_number: Optional[ExonerationRegister] = Field(
        None, description="No. correlativo de la orden de compra exenta (OCE)")
    registry_number: Optional[ExonerationRegister] = Field(
        None, description="No. correlativo de la constancia de registro de exonerados")
    sag_number: Optional[ExonerationRegister] = Field(
        None, description="No. identificativo del registro de la SAG (Secretaría de Agricultura y Ganadería)")


EXONERATION_DESCRIPTION = ("Honduran sales documents to an exonerated buyer: its registers; every line is then "
                           "exonerated (no ISV): a line without taxTreatment becomes `exonerated`, a taxed one is "
                           "refused; `exempt` lines stay exempt. null removes it from a draft. A credit or debit "
                           "note (06, 07) without its own (or null) takes its invoice's")


class ExonerationInfo(ResponseModel):
    purchase_order_number: Optional[str] = None
    registry_number: Optional[str] = None
    sag_number: Optional[str] = None


class BookRow(ResponseModel):
    """One fiscal document; a credit note's amounts are negative, a cancelled document's zero."""
    document_id: int
    date: str
    type: str
    type_name: str
    number: Optional[str] = Field(None, description="the fiscal number: a purchase's is the supplier's when recorded")
    internal_number: Optional[str] = Field(None, description="this service's number of the document")
    cai: Optional[str] = Field(None, description="a purchase's is the supplier's CAI when recorded")
    business_partner_id: int
    partner_tax_id: Optional[str] = Field(None, description="the partner's RTN")
    partner_name: str
    status: str = Field(description="`confirmed`; `cancelled` (cancelled within its month: kept with no amounts); "
                                    "`reversal` (a document of an earlier month cancelled or unconfirmed in this "
                                    "one: its amounts count against this month, the earlier month's book unchanged)")
    exempt: Decimal
    exonerated: Decimal = Field(description="lines whose taxTreatment is exonerated")
    purchase_order_number: Optional[str] = Field(None, description="sales to an exonerated buyer: the orden de "
                                                                   "compra exenta (document's `exoneration`)")
    registry_number: Optional[str] = Field(None, description="the constancia de registro de exonerados")
    sag_number: Optional[str] = Field(None, description="the registro de la SAG")
    taxed15: Decimal
    taxed18: Decimal
    isv15: Decimal
    isv18: Decimal
    total: Decimal


class BookTotals(ResponseModel):
    exempt: Decimal
    exonerated: Decimal
    taxed15: Decimal
    taxed18: Decimal
    isv15: Decimal
    isv18: Decimal
    total: Decimal


class TaxBook(BookPeriod):
    rows: List[BookRow]
    totals: BookTotals


class IsvSummaryQuery(RequestModel):
    month: Annotated[str, StringConstraints(pattern=r"^(19|2\d)\d{2}-(0[1-9]|1[0-2])$")] = Field(
        description="YYYY-MM")


class IsvSummary(ResponseModel):
    month: str
    sales: BookTotals = Field(description="the sales book's totals")
    purchases: BookTotals = Field(description="the purchase book's totals")
    output_tax: Decimal = Field(description="ISV charged on sales (débito fiscal)")
    input_tax: Decimal = Field(description="ISV paid on purchases (crédito fiscal)")
    credit_brought_forward: Decimal = Field(description="the ISV accounts' credit at the end of the previous month")
    withholdings_received: Decimal = Field(description="ISV our customers withheld (the month's certificates, "
                                                       "withholding tax isv, side sales): they pay part of the tax due")
    tax_payable: Decimal = Field(description="output less input tax, credit brought forward and withholdings received")
    withholdings_unapplied: Decimal = Field(description="withholdings received beyond the tax due: a claim kept on "
                                                        "the withholding account, not ISV credit")
    credit_carried_forward: Decimal = Field(description="input tax and credit brought forward beyond the output tax")
    withholdings_made: Decimal = Field(description="ISV we withheld from suppliers (certificates side purchases): "
                                                   "owed to the authority on their own")
