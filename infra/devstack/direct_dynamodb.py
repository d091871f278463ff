"""A DynamoDB client that hands its item calls to the emulator in this process, without the wire.

In the tests and the local stack every DynamoDB call went through botocore into moto: botocore
resolved the endpoint, validated and serialized the request, signed it and parsed the answer by
walking the service's shapes, and moto parsed the request again by the same shapes (a third of a
call's CPU). Here the item calls (`DIRECT_OPERATIONS`) keep botocore's contract and skip the wire:

- the client's events are emitted as botocore emits them (provide-client-params and
  before-parameter-build, which fill the idempotency token of a transaction; before-call, which
  may answer instead; after-call), on the real client's emitter, so that a test's or a benchmark's
  counting handler sees every call;
- the parameters are validated by botocore's validator (the same ParamValidationError), then sent as
  the JSON body botocore would send, which moto reads as its parser would (binary values decoded);
- moto's DynamoDB handler answers it through the faithful layer (locks, transactions in flight,
  injected faults, index lag, numbers trimmed and maps shuffled: infra/devstack/faithful_dynamodb.py);
- the answer is parsed by botocore's own JSON parser (the attribute values, most of the walk, by a
  shortcut giving what it gives), errors raised as the same modeled ClientError (code, message,
  CancellationReasons), and botocore's retry handler decides the retries as it does.

Every other method (tables, streams, waiters, paginators) is the real botocore client's. Used
only where the emulator runs in this process and `chalicelib.store.table.serve_in_process` was
told so: tests/conftest.py (never with --dynamodb=local) and infra/devstack/local.py; production
never imports this module. tests/test_direct_dynamodb.py compares both paths call by call."""
from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable
from email.utils import formatdate
from typing import Any

from botocore.awsrequest import AWSResponse, HeadersDict
from botocore.exceptions import ParamValidationError
from botocore.parsers import JSONParser
from botocore.validate import ParamValidator

# botocore's method name -> the operation
DIRECT_OPERATIONS = {
    "get_item": "GetItem", "put_item": "PutItem", "update_item": "UpdateItem", "delete_item": "DeleteItem",
    "query": "Query", "scan": "Scan", "batch_get_item": "BatchGetItem", "batch_write_item": "BatchWriteItem",
    "transact_write_items": "TransactWriteItems", "transact_get_items": "TransactGetItems",
}
WRITES = frozenset({"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"})


class DirectDynamoDB:
    """The real client (`delegate`) for everything but the item calls, which reach moto's handler
    directly. `after_write(operation)` runs once each write is answered, refused or not (the local
    stack wakes its stream pollers, as it does for a write that reaches it over HTTP)."""

    def __init__(self, delegate: Any, after_write: Callable[[str], None] | None = None) -> None:
        self._delegate = delegate
        self._after_write = after_write
        self._parser = _AttributeValueParser()
        self._endpoint = delegate._endpoint
        self._service_id = delegate.meta.service_model.service_id.hyphenize()
        self._target_prefix = delegate.meta.service_model.metadata["targetPrefix"]
        self._content_type = f"application/x-amz-json-{delegate.meta.service_model.metadata['jsonVersion']}"
        self._url = delegate.meta.endpoint_url.rstrip("/") + "/"
        self.meta = delegate.meta
        self.exceptions = delegate.exceptions

    def __getattr__(self, name: str) -> Any:
        return getattr(self._delegate, name)

    def _call(self, operation_name: str, api_params: dict[str, Any]) -> Any:
        """botocore's BaseClient._make_api_call and Endpoint._send_request, the wire taken out."""
        meta = self._delegate.meta
        operation_model = meta.service_model.operation_model(operation_name)
        request_context: dict[str, Any] = {
            "client_region": meta.region_name, "client_config": meta.config,
            "has_streaming_input": operation_model.has_streaming_input,
            "auth_type": operation_model.resolved_auth_type,
            "unsigned_payload": operation_model.unsigned_payload,
            "auth_options": meta.service_model.metadata.get("auth")}
        api_params = self._delegate._emit_api_params(api_params=api_params, operation_model=operation_model,
                                                     context=request_context)
        validator = _AttributeValueValidator()
        if meta.config.parameter_validation:
            report = validator.validate(api_params, operation_model.input_shape)
            if report.has_errors():
                raise ParamValidationError(report=report.generate_report())
        if validator.unusual or not meta.config.parameter_validation:
            request_dict, binary = self._serialized(operation_model, api_params, request_context), True
        else:
            request_dict, binary = self._request_dict(operation_model, api_params, request_context)
        _, event_response = meta.events.emit_until_response(
            f"before-call.{self._service_id}.{operation_name}", model=operation_model, params=request_dict,
            request_signer=self._delegate._request_signer, context=request_context)
        if event_response is not None:
            http, parsed = event_response
        else:
            http, parsed = self._send(operation_model, request_dict, binary)
        meta.events.emit(f"after-call.{self._service_id}.{operation_name}", http_response=http, parsed=parsed,
                         model=operation_model, context=request_context)
        if self._after_write is not None and operation_name in WRITES:
            self._after_write(operation_name)
        if http.status_code >= 300:
            error_code = request_context.get("error_code_override") or parsed.get("Error", {}).get("Code")
            raise self._delegate.exceptions.from_code(error_code)(parsed, operation_name)
        return parsed

    def _request_dict(self, operation_model: Any, api_params: dict[str, Any],
                      context: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """What botocore's JSON serializer makes of the parameters (binary values in base64), and
        whether any value is binary."""
        binary: list[bool] = []
        body = json.dumps(api_params, separators=(",", ":"), default=lambda value: _base64(value, binary))
        return {"url_path": "/", "query_string": "", "method": "POST",
                "headers": {"X-Amz-Target": f"{self._target_prefix}.{operation_model.name}",
                            "Content-Type": self._content_type},
                "body": body.encode(), "url": self._url, "context": context}, bool(binary)

    def _serialized(self, operation_model: Any, api_params: dict[str, Any],
                    context: dict[str, Any]) -> dict[str, Any]:
        """botocore's own serializer, for values the shortcut does not write (a string or a file given
        as binary, a subclass of str)."""
        serializer = self._delegate._serializer  # (validated already: the validating decorator's inner one)
        request_dict: dict[str, Any] = getattr(serializer, "_serializer", serializer).serialize_to_request(
            api_params, operation_model)
        request_dict.update(url=self._url, context=context)
        return request_dict

    def _send(self, operation_model: Any, request_dict: dict[str, Any], binary: bool) -> tuple[Any, Any]:
        attempts = 1
        context = request_dict["context"]
        self._endpoint._update_retries_context(context, attempts)
        response, exception = self._attempt(operation_model, request_dict, binary)
        while self._endpoint._needs_retry(attempts, operation_model, request_dict, response, exception):
            attempts += 1
            self._endpoint._update_retries_context(context, attempts, response)
            response, exception = self._attempt(operation_model, request_dict, binary)
        if response is not None and "ResponseMetadata" in response[1]:
            response[1]["ResponseMetadata"]["RetryAttempts"] = attempts - 1
        if exception is not None:
            raise exception
        assert response is not None
        return response

    def _attempt(self, operation_model: Any, request_dict: dict[str, Any],
                 binary: bool) -> tuple[Any, Exception | None]:
        try:
            status, headers, body = self._handled(operation_model, request_dict, binary)
        except Exception as error:  # as botocore's endpoint hands a failed send to the retry handler
            return None, error
        content = body.encode() if isinstance(body, str) else body
        http = AWSResponse(self._url, status, HeadersDict(headers), _RawBody(content))
        response_dict = {"headers": http.headers, "status_code": status, "body": content,
                         "context": {"operation_name": operation_model.name}}
        customized: dict[str, Any] = {}
        self._delegate.meta.events.emit(f"before-parse.{self._service_id}.{operation_model.name}",
                                        operation_model=operation_model, response_dict=response_dict,
                                        customized_response_dict=customized)
        parsed = self._parser.parse(response_dict, operation_model.output_shape)
        parsed.update(customized)
        if status >= 300:
            _add_modeled_error_fields(self._parser, response_dict, parsed, operation_model)
        return (http, parsed), None

    def _handled(self, operation_model: Any, request_dict: dict[str, Any],
                 binary: bool) -> tuple[int, dict[str, str], Any]:
        """moto's DynamoDB handler, given the request as its parser reads the body botocore sends."""
        from moto.dynamodb.responses import DynamoHandler

        handler = DynamoHandler()
        if binary:
            handler.params = _moto_parsed(operation_model, request_dict["body"])
        else:  # only strings, numbers, booleans, lists and maps: the parser's walk would copy them alike
            handler.params = json.loads(request_dict["body"])
        handler.body = handler.params
        handler.querystring = {}
        handler.headers = {key.lower(): value for key, value in request_dict["headers"].items()}
        handler.method, handler.uri, handler.path = "POST", request_dict["url"], "/"
        handler.region = self._delegate.meta.region_name
        handler.partition = _partition(handler.region)
        handler.current_account = _account()
        handler.response_headers = {"server": "amazon.com", "date": formatdate(usegmt=True)}
        handler.is_werkzeug_request = False
        status, headers, body = handler.call_action()
        return int(status), {key: str(value) for key, value in headers.items()}, body


def _base64(value: Any, binary: list[bool]) -> str:
    if isinstance(value, (bytes, bytearray)):
        binary.append(True)
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _moto_parsed(operation_model: Any, body: bytes) -> Any:
    from moto.core.parse import PROTOCOL_PARSERS
    from moto.core.utils import get_service_model
    from moto.dynamodb.responses import DynamoHandler

    moto_operation = get_service_model("dynamodb").operation_model(operation_model.name)
    parser = PROTOCOL_PARSERS["json"](moto_operation, map_type=DynamoHandler.PROTOCOL_PARSER_MAP_TYPE)
    return parser.parse({"method": "POST", "values": {}, "headers": {}, "body": body, "url_path": "/",
                         "url_params": {}})


def _partition(region: str) -> str:
    from moto.utilities.utils import get_partition

    return str(get_partition(region))


def _account() -> str:
    """moto's account for this process's requests: MOTO_ACCOUNT_ID, else the default (the tests' and the
    local stack's access keys are no IAM user's)."""
    from moto.core import DEFAULT_ACCOUNT_ID

    return os.environ.get("MOTO_ACCOUNT_ID") or DEFAULT_ACCOUNT_ID


class _RawBody:
    """The answer's bytes as botocore's AWSResponse reads them (moto's stubber answers with the same)."""

    def __init__(self, content: bytes) -> None:
        self._content = content

    def stream(self, **_: Any) -> Any:
        yield self._content


def _add_modeled_error_fields(parser: Any, response_dict: dict[str, Any], parsed: dict[str, Any],
                              operation_model: Any) -> None:
    """botocore's Endpoint._add_modeled_error_fields: an error's own members (CancellationReasons, Item)."""
    error_code = parsed.get("Error", {}).get("Code")
    if error_code is None:
        return
    error_shape = operation_model.service_model.shape_for_error_code(error_code)
    if error_shape is None:
        return
    parsed.update(parser.parse(response_dict, error_shape))


class _AttributeValueValidator(ParamValidator):
    """botocore's validator; an AttributeValue (most of an item's walk) checked by a shortcut where it
    holds only what `_request_dict` writes as botocore's serializer does. Anything else is validated
    by botocore's walk (its errors, word for word) and, if valid, marks the call `unusual`: botocore's
    serializer writes it."""

    def __init__(self) -> None:
        super().__init__()
        self.unusual = False

    def _validate_structure(self, params: Any, shape: Any, errors: Any, name: str) -> None:
        if shape.name == "AttributeValue":
            if _plain_attribute(params):
                return
            self.unusual = True
        super()._validate_structure(params, shape, errors, name)

    def _validate_map(self, param: Any, shape: Any, errors: Any, name: str) -> None:
        if shape.value.name == "AttributeValue" and "min" not in shape.key.metadata:
            if type(param) is dict and all(type(key) is str and _plain_attribute(value)
                                           for key, value in param.items()):
                return
        super()._validate_map(param, shape, errors, name)


def _plain_attribute(value: Any) -> bool:
    """A valid AttributeValue made only of dicts, lists, str, bool and bytes."""
    if type(value) is not dict or len(value) != 1:
        return False
    (tag, inner), = value.items()
    kind = type(inner)
    if tag == "S" or tag == "N":
        return kind is str
    if tag == "M":
        return kind is dict and all(type(key) is str and _plain_attribute(item) for key, item in inner.items())
    if tag == "L":
        return kind is list and all(_plain_attribute(item) for item in inner)
    if tag == "BOOL" or tag == "NULL":
        return kind is bool
    if tag == "SS" or tag == "NS":
        return kind is list and all(type(item) is str for item in inner)
    if tag == "B":
        return kind is bytes
    if tag == "BS":
        return kind is list and all(type(item) is bytes for item in inner)
    return False


class _AttributeValueParser(JSONParser):
    """botocore's JSON parser; an AttributeValue (most of an item answer's walk) parsed by a shortcut
    that gives what botocore's shape walk gives: B and BS decoded from base64, the rest as sent."""

    def _handle_structure(self, shape: Any, value: Any) -> Any:
        if shape.name == "AttributeValue" and isinstance(value, dict) and len(value) == 1:
            parsed = _attribute_value(value)
            if parsed is not None:
                return parsed
        return super()._handle_structure(shape, value)

    def _handle_map(self, shape: Any, value: Any) -> Any:
        if shape.value.name == "AttributeValue" and isinstance(value, dict):
            parsed = _attribute_map(value)
            if parsed is not None:
                return parsed
        return super()._handle_map(shape, value)


def _attribute_map(value: dict[str, Any]) -> dict[str, Any] | None:
    parsed = {}
    for name, attribute in value.items():
        if not isinstance(attribute, dict) or len(attribute) != 1:
            return None
        one = _attribute_value(attribute)
        if one is None:
            return None
        parsed[name] = one
    return parsed


def _attribute_value(value: dict[str, Any]) -> dict[str, Any] | None:
    """One AttributeValue as botocore parses it, or None where the shortcut does not know the case
    (botocore's walk then answers it: an unknown member, a null)."""
    (tag, inner), = value.items()
    if inner is None:
        return None
    if tag in ("S", "N", "BOOL", "NULL"):
        return {tag: inner}
    if tag == "M":
        members = _attribute_map(inner) if isinstance(inner, dict) else None
        return None if members is None else {"M": members}
    if tag == "L":
        items = []
        for item in inner:
            one = _attribute_value(item) if isinstance(item, dict) and len(item) == 1 else None
            if one is None:
                return None
            items.append(one)
        return {"L": items}
    if tag in ("SS", "NS"):
        return {tag: list(inner)}
    if tag == "B":
        return {"B": base64.b64decode(inner)}
    if tag == "BS":
        return {"BS": [base64.b64decode(item) for item in inner]}
    return None


def _direct_method(operation_name: str) -> Callable[..., Any]:
    def call(self: DirectDynamoDB, *args: Any, **kwargs: Any) -> Any:
        if args:
            raise TypeError(f"{method_name}() only accepts keyword arguments.")
        return self._call(operation_name, kwargs)

    method_name = next(name for name, operation in DIRECT_OPERATIONS.items() if operation == operation_name)
    call.__name__ = method_name
    return call


for _method_name, _operation in DIRECT_OPERATIONS.items():
    setattr(DirectDynamoDB, _method_name, _direct_method(_operation))
