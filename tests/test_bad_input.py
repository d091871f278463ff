"""Every declared route, fed random JSON (wrong types, missing and unknown fields, huge
values) and random path ids, answers a JSON 4xx or a success, never a 500."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import app  # noqa: F401  (declaring the routes fills ROUTES)
from chalicelib.api.routing import ROUTES
from tests.setup_snapshots import remembered
from tests.support import ORIGIN

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10 ** 30, max_value=10 ** 30),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=300),
                    st.sampled_from(["", "customer", "2026-13-45", "0.15", "HN", "x" * 5000]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) |
                      st.dictionaries(st.text(max_size=10), inner, max_size=3), max_leaves=6)


def field_names(spec):
    if spec.body is None:
        return ["name"]
    return [field.alias or name for name, field in spec.body_model.model_fields.items()] + ["unknown"]


@pytest.mark.parametrize("spec", [s for s in ROUTES if s.path != "/auth/logout"],
                         ids=lambda s: f"{s.method} {s.path}")
def test_route_never_answers_500(api, table, company_a, spec):
    # the same session for every route: logged in (scrypt) once in this process, then restored
    cookie = remembered(table.name, ("session", company_a.email), lambda: api.login(company_a.email))

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=st.dictionaries(st.sampled_from(field_names(spec)), VALUES, max_size=6),
           ident=st.one_of(st.integers(min_value=-5, max_value=10 ** 13).map(str),
                           st.text(alphabet="abc%_-.", min_size=1, max_size=5)),
           query=st.dictionaries(st.sampled_from(["page", "limit", "cursor", "companyId"]),
                                 st.text(alphabet="0123456789-abc", max_size=6), max_size=3))
    def check(body, ident, query):
        path = spec.path
        for name in spec.path_parameters:
            path = path.replace("{" + name + "}", ident)
        if query:
            path += "?" + "&".join(f"{k}={v}" for k, v in query.items())
        reply = api.request(spec.method, path, raw=json.dumps(body).encode(), cookie=cookie, origin=ORIGIN)
        assert reply.status < 500, (spec.method, path, body, reply.text)
        if reply.status >= 400:
            assert reply.json["code"] and reply.json["message"]

    check()
