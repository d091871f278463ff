from __future__ import annotations

from chalice import Blueprint

from chalicelib.api.routing import Call, endpoint, page_body
from chalicelib.models.products import Product, ProductCreate, ProductList, ProductListQuery, ProductUpdate
from chalicelib.services import products

blueprint = Blueprint(__name__)
TAG = "Products"


@endpoint(blueprint, "GET", "/products", summary="List products", tag=TAG, query=ProductListQuery,
          response=ProductList)
def list_products(call: Call) -> ProductList:
    page = products.list_products(call.command.table, call.principal.company_id, call.query.page,
                                  call.query.limit, call.query.cursor)
    return page_body("products", page)


@endpoint(blueprint, "GET", "/products/{id}", summary="One product", tag=TAG, response=Product)
def get_product(call: Call) -> Product:
    return Product.model_validate(products.get_product(call.command.table, call.principal.company_id,
                                                       call.ids["id"]))


@endpoint(blueprint, "POST", "/products", summary="Create a product or service", tag=TAG,
          body=ProductCreate, response=Product)
def create_product(call: Call) -> Product:
    return Product.model_validate(products.create_product(call.command, call.body.model_dump(by_alias=True)))


@endpoint(blueprint, "PUT", "/products/{id}", summary="Update a product (sparse)", tag=TAG,
          body=ProductUpdate, response=Product)
def update_product(call: Call) -> Product:
    return Product.model_validate(products.update_product(call.command, call.ids["id"], call.changes(),
                                                          call.expected_version()))
