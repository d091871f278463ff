from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.api.routing import Call, endpoint, page_body
from chalicelib.services.sales_purchases import products

blueprint = Blueprint(__name__)
M = "chalicelib.models.products:"
TAG = "Products"


@endpoint(blueprint, "GET", "/products", summary="List products; `q` finds them by code or name (an index: one "
          "Query per word)", tag=TAG, query=M + "ProductListQuery",
          response=M + "ProductList")
def list_products(call: Call) -> Any:
    page = products.list_products(call.command.table, call.principal.company_id, call.query.page,
                                  call.query.limit, call.query.cursor, call.query.q)
    return page_body("products", page)


@endpoint(blueprint, "GET", "/products/{id}", summary="One product", tag=TAG, response=M + "Product")
def get_product(call: Call) -> Any:
    return products.get_product(call.command.table, call.principal.company_id,
                                                       call.ids["id"])


@endpoint(blueprint, "POST", "/products", summary="Create a product or service", tag=TAG,
          body=M + "ProductCreate", response=M + "Product")
def create_product(call: Call) -> Any:
    return products.create_product(call.command, call.body.model_dump(by_alias=True))


@endpoint(blueprint, "PUT", "/products/{id}", summary="Update a product (sparse)", tag=TAG,
          body=M + "ProductUpdate", response=M + "Product", versioned=True)
def update_product(call: Call) -> Any:
    return products.update_product(call.command, call.ids["id"], call.changes(),
                                                          call.expected_version())
