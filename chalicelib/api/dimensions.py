"""Cost centres (issue 44): the company's dimensions and their values. Read by every role that
reads the books; written with the accounting permission. No DELETE: `isActive: false`.
See services/accounting/dimensions.py."""
from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import ACCOUNTING, Call, endpoint

blueprint = Blueprint(__name__)
TAG = "Cost centres"
M = "chalicelib.models.dimensions:"
BASE = "/dimensions"
ONE = BASE + "/{dimensionId}"


@endpoint(blueprint, "GET", BASE, summary="The company's dimensions (at most 5) with their values", tag=TAG,
          response=M + "DimensionList")
def list_dimensions(call: Call) -> Any:
    from chalicelib.services.accounting import dimensions

    found = dimensions.list_dimensions(call.command.table, call.principal.company_id)
    return {"dimensions": found, "total": len(found)}


@endpoint(blueprint, "GET", ONE, summary="One dimension with its values", tag=TAG, response=M + "Dimension")
def get_dimension(call: Call) -> Any:
    from chalicelib.services.accounting import dimensions

    return dimensions.get_dimension(call.command.table, call.principal.company_id, call.ids["dimensionId"])


@endpoint(blueprint, "POST", BASE, summary="Create a dimension (branch, project, department...), with values if "
          "sent; at most 5 per company", tag=TAG, body=M + "DimensionCreate", response=M + "Dimension",
          permission=ACCOUNTING)
def create_dimension(call: Call) -> Any:
    from chalicelib.services.accounting import dimensions

    return dimensions.create_dimension(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", ONE, summary="Rename a dimension or make it inactive (sparse, versioned)", tag=TAG,
          body=M + "DimensionUpdate", response=M + "Dimension", permission=ACCOUNTING, versioned=True)
def update_dimension(call: Call) -> Any:
    from chalicelib.services.accounting import dimensions

    return dimensions.update_dimension(call.command, call.ids["dimensionId"], call.changes(), call.expected_version())


@endpoint(blueprint, "POST", ONE + "/values", summary="Add a value to a dimension", tag=TAG,
          body=M + "DimensionValueCreate", response=M + "DimensionValue", permission=ACCOUNTING)
def add_value(call: Call) -> Any:
    from chalicelib.services.accounting import dimensions

    return dimensions.add_value(call.command, call.ids["dimensionId"], call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", ONE + "/values/{valueId}", summary="Rename, recode or make inactive a dimension's value "
          "(sparse, versioned)", tag=TAG, body=M + "DimensionValueUpdate", response=M + "DimensionValue",
          permission=ACCOUNTING, versioned=True)
def update_value(call: Call) -> Any:
    from chalicelib.services.accounting import dimensions

    return dimensions.update_value(call.command, call.ids["dimensionId"], call.ids["valueId"], call.changes(),
                                   call.expected_version())
