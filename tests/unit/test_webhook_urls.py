"""Webhook URL guard, no I/O: which URLs may be registered and which addresses may be contacted,
including every textual form of a literal IPv4 host that browsers, curl and inet_aton accept."""
from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chalicelib.domain.webhook_urls import (
    AddressNotAllowed,
    ParsedUrl,
    blocked_address,
    check_url,
    parse_ipv4_host,
)
from chalicelib.errors import ValidationFailed

ip = ipaddress.ip_address


def refused(url: str, allow_insecure: bool = False) -> str:
    with pytest.raises(ValidationFailed) as raised:
        check_url(url, allow_insecure)
    assert raised.value.code == "VALIDATION_ERROR"
    assert raised.value.details[0]["field"] == "url"
    return raised.value.details[0]["message"]


# --- blocked_address ----------------------------------------------------------------------

@pytest.mark.parametrize("address, reason", [
    ("127.0.0.1", "loopback"),
    ("127.255.255.254", "loopback"),
    ("::1", "loopback"),
    ("10.0.0.1", "private"),
    ("10.255.255.255", "private"),
    ("172.16.0.1", "private"),
    ("172.31.255.255", "private"),
    ("192.168.0.1", "private"),
    ("192.168.255.255", "private"),
    ("169.254.169.254", "metadata"),
    ("169.254.1.1", "link-local"),
    ("100.64.0.1", "CGNAT"),
    ("100.127.255.255", "CGNAT"),
    ("0.0.0.0", "unspecified"),
    ("0.1.2.3", "unspecified"),
    ("::", "unspecified"),
    ("255.255.255.255", "broadcast"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("240.0.0.1", "reserved"),
    ("192.0.0.170", "IETF"),
    ("192.0.2.1", "documentation"),
    ("198.51.100.7", "documentation"),
    ("203.0.113.9", "documentation"),
    ("198.18.0.1", "benchmarking"),
    ("198.19.255.255", "benchmarking"),
    ("fc00::1", "unique-local"),
    ("fd12:3456:789a::1", "unique-local"),
    ("fe80::1", "link-local"),
    ("febf::1", "link-local"),
    ("fec0::1", "site-local"),
    ("ff02::1", "multicast"),
    ("2001:db8::1", "documentation"),
    ("2001::1", "Teredo"),
    ("100::1", "discard"),
    ("::ffff:127.0.0.1", "loopback (IPv4-mapped 127.0.0.1)"),
    ("::ffff:10.0.0.1", "private (IPv4-mapped 10.0.0.1)"),
    ("::ffff:169.254.169.254", "metadata"),
    ("::127.0.0.1", "loopback (IPv4-compatible 127.0.0.1)"),
    ("::93.184.216.34", "IPv4-compatible"),            # deprecated form: refused whatever it embeds
    ("64:ff9b::127.0.0.1", "loopback (NAT64 127.0.0.1)"),
    ("64:ff9b::10.1.2.3", "private (NAT64 10.1.2.3)"),
    ("64:ff9b:1::1", "NAT64"),
    ("2002:7f00:1::1", "loopback (6to4 127.0.0.1)"),
    ("2002:a9fe:a9fe::1", "metadata"),
    ("2002:c0a8:101::", "private (6to4 192.168.1.1)"),
    ("4000::1", "reserved"),
])
def test_blocked_addresses_have_a_reason(address, reason):
    found = blocked_address(ip(address), allow_loopback=False)
    assert found is not None and reason in found


@pytest.mark.parametrize("address", [
    "93.184.216.34", "8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.1", "100.63.255.255",
    "100.128.0.1", "192.169.0.1", "169.253.255.255", "11.0.0.1", "223.255.255.254",
    "2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:93.184.216.34", "64:ff9b::93.184.216.34",
    "2002:5db8:d822::1",
])
def test_public_addresses_are_allowed(address):
    assert blocked_address(ip(address), allow_loopback=False) is None


@pytest.mark.parametrize("address", ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"])
def test_loopback_is_allowed_only_when_asked(address):
    assert blocked_address(ip(address), allow_loopback=False)
    assert blocked_address(ip(address), allow_loopback=True) is None


@pytest.mark.parametrize("address", ["10.0.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::",
                                     "fc00::1", "fe80::1", "::ffff:10.0.0.1", "192.168.1.1"])
def test_allowing_loopback_allows_nothing_else(address):
    assert blocked_address(ip(address), allow_loopback=True)


def test_a_zone_id_does_not_hide_the_address():
    assert blocked_address(ipaddress.IPv6Address("fe80::1%eth0"), allow_loopback=True) == "link-local"


@given(st.integers(min_value=0, max_value=2 ** 32 - 1))
def test_a_mapped_address_is_judged_like_the_ipv4_it_maps(value):
    v4 = ipaddress.IPv4Address(value)
    mapped = ipaddress.IPv6Address(0xFFFF << 32 | value)
    assert (blocked_address(mapped, False) is None) == (blocked_address(v4, False) is None)
    nat64 = ipaddress.IPv6Address(0x64FF9B << 96 | value)
    assert (blocked_address(nat64, False) is None) == (blocked_address(v4, False) is None)


@given(st.integers(min_value=0, max_value=2 ** 32 - 1))
def test_every_non_global_ipv4_is_blocked(value):
    v4 = ipaddress.IPv4Address(value)
    if not v4.is_global or v4.is_private or v4.is_multicast or v4.is_reserved:
        assert blocked_address(v4, allow_loopback=False)


# --- literal IPv4 forms ---------------------------------------------------------------------

@pytest.mark.parametrize("host, address", [
    ("127.0.0.1", "127.0.0.1"),
    ("2130706433", "127.0.0.1"),
    ("0177.0.0.1", "127.0.0.1"),
    ("0x7f.0.0.1", "127.0.0.1"),
    ("0X7F.0.0.1", "127.0.0.1"),
    ("0x7f000001", "127.0.0.1"),
    ("017700000001", "127.0.0.1"),
    ("127.1", "127.0.0.1"),
    ("127.0.1", "127.0.0.1"),
    ("10.1", "10.0.0.1"),
    ("0x0a.0.0.01", "10.0.0.1"),
    ("127.0.0.1.", "127.0.0.1"),
    ("0", "0.0.0.0"),
    ("0x", "0.0.0.0"),
    ("1572395042", "93.184.216.34"),
])
def test_ipv4_forms_are_parsed_like_inet_aton(host, address):
    assert parse_ipv4_host(host) == ipaddress.IPv4Address(address)


@pytest.mark.parametrize("host", ["example.com", "hooks.example.com", "1.2.3.example", "1e100.net", "a.b-1"])
def test_names_are_not_ipv4(host):
    assert parse_ipv4_host(host) is None


@pytest.mark.parametrize("host", ["1.2.3.4.5", "256.0.0.1", "1.2.3.256", "1.2.65536", "4294967296", "0x1ffffffff",
                                  "08.0.0.1", "0xg.1", "1..1", "foo.1"])
def test_malformed_ipv4_hosts_are_errors(host):
    with pytest.raises(ValueError):
        parse_ipv4_host(host)


def _ipv4_forms(value: int) -> list[str]:
    a, b, c, d = ipaddress.IPv4Address(value).packed
    return [
        f"{a}.{b}.{c}.{d}", str(value), hex(value), "0" + oct(value)[2:],
        f"{a:#o}.{b}.{c}.{d}".replace("0o", "0"), f"{a:#x}.{b:#x}.{c:#x}.{d:#x}",
        f"{a}.{(b << 16) | (c << 8) | d}", f"{a}.{b}.{(c << 8) | d}",
    ]


@given(st.integers(min_value=0, max_value=2 ** 32 - 1))
def test_every_form_of_an_address_parses_to_it(value):
    for form in _ipv4_forms(value):
        assert parse_ipv4_host(form) == ipaddress.IPv4Address(value), form


@given(st.sampled_from(["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16",
                        "100.64.0.0/10", "0.0.0.0/8"]), st.integers(min_value=0, max_value=2 ** 24 - 1))
def test_no_form_of_a_blocked_address_gets_through(network, offset):
    net = ipaddress.IPv4Network(network)
    value = int(net.network_address) + offset % net.num_addresses
    for form in _ipv4_forms(value):
        refused(f"https://{form}/hook")


# --- check_url ------------------------------------------------------------------------------

@pytest.mark.parametrize("url, message", [
    ("https://127.0.0.1/", "loopback"),
    ("https://127.0.0.1:8443/hook", "loopback"),
    ("https://[::1]/", "loopback"),
    ("https://10.0.0.1/", "private"),
    ("https://10.255.0.9/", "private"),
    ("https://172.16.0.1/", "private"),
    ("https://172.31.255.255/", "private"),
    ("https://192.168.1.10/", "private"),
    ("https://169.254.169.254/latest/meta-data/", "metadata"),
    ("https://100.64.0.1/", "CGNAT"),
    ("https://[fc00::1]/", "unique-local"),
    ("https://[fd00::1]/", "unique-local"),
    ("https://[fe80::1]/", "link-local"),
    ("https://[fe80::1%25eth0]/", "link-local"),
    ("https://[fe80::1%eth0]/", "link-local"),
    ("https://[::ffff:127.0.0.1]/", "loopback"),
    ("https://[::ffff:7f00:1]/", "loopback"),
    ("https://[::ffff:10.0.0.1]/", "private"),
    ("https://[64:ff9b::a9fe:a9fe]/", "metadata"),
    ("https://[2002:7f00:1::1]/", "loopback"),
    ("https://2130706433/", "loopback"),
    ("https://0177.0.0.1/", "loopback"),
    ("https://0x7f.0.0.1/", "loopback"),
    ("https://0x7f000001/", "loopback"),
    ("https://127.1/", "loopback"),
    ("https://10.1/", "private"),
    ("https://127.0.0.1./", "loopback"),
    ("https://0.0.0.0/", "unspecified"),
    ("https://0/", "unspecified"),
    ("https://[::]/", "unspecified"),
    ("https://255.255.255.255/", "broadcast"),
    ("https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/", "loopback"),     # full-width digits (IDNA maps them)
    ("https://127\u30020\u30020\u30021/", "loopback"),                    # ideographic full stops
])
def test_blocked_literal_hosts_are_refused(url, message):
    assert message in refused(url)


@pytest.mark.parametrize("url, message", [
    ("http://hooks.example.com/x", "https"),
    ("ftp://hooks.example.com/x", "https"),
    ("javascript:alert(1)", "https"),
    ("hooks.example.com/x", "https"),
    ("https:hooks.example.com/x", "host"),
    ("https:///x", "host"),
    ("https://:443/x", "host"),
    ("https://user:pass@hooks.example.com/x", "user name"),
    ("https://user@hooks.example.com/x", "user name"),
    ("https://hooks.example.com@127.0.0.1/x", "user name"),
    ("https://hooks.example.com\\@127.0.0.1/x", "user name"),
    ("https://hooks.example.com/x#frag", "fragment"),
    ("https://hooks.example.com/x#", "fragment"),
    ("https://hooks.example.com:0/x", "port"),
    ("https://hooks.example.com:65536/x", "port"),
    ("https://hooks.example.com:99999999/x", "port"),
    ("https://hooks.example.com:-1/x", "port"),
    ("https://hooks.example.com:+443/x", "port"),
    ("https://hooks.example.com:44a/x", "port"),
    ("https://hooks.example.com/" + "a" * 2030, "2048"),
    ("https://hooks.example.com/a b", "spaces"),
    ("https://hooks.example.com/a\nb", "control"),
    ("https://hooks.example.com/a\tb", "control"),
    (" https://hooks.example.com/", "spaces"),
    ("https://hooks.exa_mple.com%2f/", "not valid"),
    ("https://hooks..example.com/", "not valid"),
    ("https://-hooks.example.com/", "not valid"),
    ("https://127.0.0.1\\.example.com/", "not valid"),
    ("https://" + "a" * 64 + ".com/", "not valid"),
    ("https://1.2.3.4.5/", "IPv4"),
    ("https://256.1.1.1/", "IPv4"),
    ("https://example.0x7f/", "IPv4"),
    ("https://example.123/", "IPv4"),
    ("https://[::1/", "URL"),
    ("https://[v1.x]/", "IPv6"),
    ("https://[::1]x/", "IPv6"),
    ("https://[2606:4700::1%25eth0]/", "zone"),
    ("https://localhost/", "localhost"),
    ("https://LOCALHOST./", "localhost"),
    ("https://api.localhost/", "localhost"),
    ("https://metadata.google.internal/computeMetadata/v1/", "public name"),
    ("https://foo.internal/", "public name"),
    ("https://printer.local/", "public name"),
    ("https://router.home.arpa/", "public name"),
    ("https://intranet/", "fully qualified"),
    ("", "URL"),
])
def test_invalid_urls_are_refused(url, message):
    assert message in refused(url)


def test_a_url_that_is_not_a_string_is_refused():
    assert "URL" in refused(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("url, expected", [
    ("https://hooks.example.com/x", ParsedUrl("https", "hooks.example.com", 443, "/x", None)),
    ("https://hooks.example.com", ParsedUrl("https", "hooks.example.com", 443, "/", None)),
    ("HTTPS://Hooks.Example.COM:8443/a/b?c=1&d=%20", ParsedUrl("https", "hooks.example.com", 8443, "/a/b?c=1&d=%20", None)),
    ("https://hooks.example.com.:443/x?", ParsedUrl("https", "hooks.example.com", 443, "/x", None)),
    ("https://hooks.example.com:/x", ParsedUrl("https", "hooks.example.com", 443, "/x", None)),
    ("https://93.184.216.34/", ParsedUrl("https", "93.184.216.34", 443, "/", ip("93.184.216.34"))),
    ("https://1572395042/", ParsedUrl("https", "93.184.216.34", 443, "/", ip("93.184.216.34"))),
    ("https://172.32.0.1/", ParsedUrl("https", "172.32.0.1", 443, "/", ip("172.32.0.1"))),
    ("https://[2606:4700:4700::1111]:8443/h", ParsedUrl("https", "2606:4700:4700::1111", 8443, "/h",
                                                       ip("2606:4700:4700::1111"))),
    ("https://hooks.example.com/caf\u00e9?q=\u00f1", ParsedUrl("https", "hooks.example.com", 443, "/caf%C3%A9?q=%C3%B1",
                                                             None)),
    ("https://b\u00fccher.example/", ParsedUrl("https", "xn--bcher-kva.example", 443, "/", None)),
    ("https://my_hooks.example.com/", ParsedUrl("https", "my_hooks.example.com", 443, "/", None)),
])
def test_public_https_urls_are_accepted_and_normalized(url, expected):
    assert check_url(url, allow_insecure=False) == expected


def test_the_host_header_and_url_of_a_parsed_url():
    assert check_url("https://hooks.example.com/x", False).host_header == "hooks.example.com"
    assert check_url("https://hooks.example.com:8443/x", False).host_header == "hooks.example.com:8443"
    v6 = check_url("https://[2606:4700::1]:8443/x?y=1", False)
    assert v6.host_header == "[2606:4700::1]:8443" and v6.url == "https://[2606:4700::1]:8443/x?y=1"
    assert check_url("http://127.0.0.1:80/", True).url == "http://127.0.0.1/"


@pytest.mark.parametrize("url, expected", [
    ("http://127.0.0.1:8123/", ParsedUrl("http", "127.0.0.1", 8123, "/", ip("127.0.0.1"))),
    ("http://hooks.example.com/x", ParsedUrl("http", "hooks.example.com", 80, "/x", None)),
    ("http://localhost:8000/hook", ParsedUrl("http", "localhost", 8000, "/hook", None)),
    ("http://[::1]:9000/", ParsedUrl("http", "::1", 9000, "/", ip("::1"))),
    ("http://2130706433:9000/", ParsedUrl("http", "127.0.0.1", 9000, "/", ip("127.0.0.1"))),
    ("https://127.0.0.1/", ParsedUrl("https", "127.0.0.1", 443, "/", ip("127.0.0.1"))),
    ("http://receiver:9000/", ParsedUrl("http", "receiver", 9000, "/", None)),
])
def test_allow_insecure_allows_http_and_loopback(url, expected):
    assert check_url(url, allow_insecure=True) == expected


@pytest.mark.parametrize("url", [
    "http://10.0.0.1/", "http://172.16.0.1/", "http://192.168.0.1/", "http://169.254.169.254/",
    "http://100.64.0.1/", "http://0.0.0.0:8000/", "http://[fe80::1]/", "http://[fc00::1]/", "http://[::]/",
    "http://[::ffff:10.0.0.1]/", "http://metadata.google.internal/", "http://user:pw@127.0.0.1/",
    "http://127.0.0.1/#x", "ftp://127.0.0.1/",
])
def test_allow_insecure_refuses_everything_else(url):
    refused(url, allow_insecure=True)


def test_a_blocked_literal_host_is_an_address_not_allowed_with_its_reason():
    with pytest.raises(AddressNotAllowed) as raised:
        check_url("https://[::ffff:169.254.169.254]/", allow_insecure=True)
    assert raised.value.reason == "link-local (cloud metadata) (IPv4-mapped 169.254.169.254)"
    assert isinstance(raised.value, ValidationFailed) and raised.value.status == 400
    with pytest.raises(ValidationFailed) as other:
        check_url("https://localhost/", allow_insecure=False)
    assert not isinstance(other.value, AddressNotAllowed)
