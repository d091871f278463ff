"""Webhook URL guard (pure, no I/O): which URLs a company may register and which addresses a
delivery may contact (DESIGN.md section 5, "URL guard").

`check_url` judges the URL text: scheme, userinfo, fragment, port, length, special host names and
literal IP hosts in every form a browser, curl or inet_aton accepts (decimal `2130706433`, octal
`0177.0.0.1`, hex `0x7f.0.0.1`, short `127.1`, bracketed IPv6 with or without a zone id).
`blocked_address` judges one IP address; the services layer applies it again to every address a
host name resolves to at send time (chalicelib/services/integrations/webhook_http.py).

`allow_insecure` (ALLOW_INSECURE_WEBHOOKS, local and tests only) allows http and loopback
(127/8, ::1, localhost); every other blocked range stays refused.
"""
from __future__ import annotations

import ipaddress
import re
import string
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from chalicelib.errors import ValidationFailed
from chalicelib.messages.phrases import Phrase

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

MAX_URL_LENGTH = 2048
DEFAULT_PORTS = {"https": 443, "http": 80}

_V4 = ipaddress.IPv4Network
_V6 = ipaddress.IPv6Network

# Checked in order; the first match gives the reason. Loopback is handled before this list.
_BLOCKED_V4: tuple[tuple[ipaddress.IPv4Network, str], ...] = (
    (_V4("255.255.255.255/32"), "broadcast"),
    (_V4("0.0.0.0/8"), "unspecified"),
    (_V4("10.0.0.0/8"), "private"),
    (_V4("100.64.0.0/10"), "shared address space (CGNAT)"),
    (_V4("169.254.169.254/32"), "link-local (cloud metadata)"),
    (_V4("169.254.0.0/16"), "link-local"),
    (_V4("172.16.0.0/12"), "private"),
    (_V4("192.0.0.0/24"), "IETF protocol assignment"),
    (_V4("192.0.2.0/24"), "documentation"),
    (_V4("192.31.196.0/24"), "AS112"),
    (_V4("192.52.193.0/24"), "AMT"),
    (_V4("192.88.99.0/24"), "6to4 relay anycast"),
    (_V4("192.168.0.0/16"), "private"),
    (_V4("192.175.48.0/24"), "AS112"),
    (_V4("198.18.0.0/15"), "benchmarking"),
    (_V4("198.51.100.0/24"), "documentation"),
    (_V4("203.0.113.0/24"), "documentation"),
    (_V4("224.0.0.0/4"), "multicast"),
    (_V4("240.0.0.0/4"), "reserved"),
)

_BLOCKED_V6: tuple[tuple[ipaddress.IPv6Network, str], ...] = (
    (_V6("64:ff9b:1::/48"), "local-use NAT64"),
    (_V6("100::/64"), "discard-only"),
    (_V6("2001::/32"), "Teredo"),
    (_V6("2001::/23"), "IETF protocol assignment"),
    (_V6("2001:db8::/32"), "documentation"),
    (_V6("3fff::/20"), "documentation"),
    (_V6("5f00::/16"), "SRv6 SID"),
    (_V6("fc00::/7"), "unique-local"),
    (_V6("fe80::/10"), "link-local"),
    (_V6("fec0::/10"), "site-local"),
    (_V6("ff00::/8"), "multicast"),
)

_LOOPBACK_V4 = _V4("127.0.0.0/8")
_MAPPED = _V6("::ffff:0:0/96")
_COMPATIBLE = _V6("::/96")
_NAT64 = _V6("64:ff9b::/96")
_SIX_TO_FOUR = _V6("2002::/16")
_GLOBAL_UNICAST = _V6("2000::/3")

# A URL check_url accepts, for the OpenAPI document: https, a public host name of 2 or 3 labels
# (check_url takes more: public IP literals, longer names, http locally), a port, a path.
WEBHOOK_URL_PATTERN = (r"^[Hh][Tt][Tt][Pp][Ss]://(?![^/:?]*\.([Ii][Nn][Tt][Ee][Rr][Nn][Aa][Ll]|[Ll][Oo][Cc][Aa][Ll]"
                       r"|[Ll][Oo][Cc][Aa][Ll][Dd][Oo][Mm][Aa][Ii][Nn]|[Aa][Rr][Pp][Aa])([/:?]|$))"
                       r"([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,2}[A-Za-z]{2,63}"
                       r"(:[1-9][0-9]{0,3})?(/[!$%-;=?-~]*)?$")
# Special-use and private-use names that never reach a public receiver.
_BLOCKED_NAME_SUFFIXES = ("internal", "local", "localdomain", "home.arpa")
_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\Z")
_PORT = re.compile(r"[0-9]+\Z")
_HEX = re.compile(r"[0-9a-f]*\Z")
_OCT = re.compile(r"[0-7]+\Z")
_DEC = re.compile(r"[0-9]+\Z")
# Everything printable stays as sent; only non-ASCII in path and query is percent-encoded.
_TARGET_SAFE = string.punctuation


@dataclass(frozen=True)
class ParsedUrl:
    scheme: str            # "https" or "http"
    host: str              # lower-case ASCII host name, or the canonical IP (IPv6 without brackets)
    port: int              # explicit port or the scheme's default
    target: str            # path + "?" + query to send, at least "/"
    ip: IPAddress | None   # the literal address when the host is an IP, else None

    @property
    def host_header(self) -> str:
        """The Host header: `[v6]` bracketed, `:port` only when not the scheme's default."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == DEFAULT_PORTS[self.scheme] else f"{host}:{self.port}"

    @property
    def url(self) -> str:
        """The normalized URL (what is actually contacted)."""
        return f"{self.scheme}://{self.host_header}{self.target}"


class AddressNotAllowed(ValidationFailed):
    """check_url's refusal of a literal IP host that `blocked_address` blocks; `reason` is the
    blocked_address reason (e.g. "loopback")."""

    reason: str = ""


def _refuse(message: str) -> ValidationFailed:
    return ValidationFailed.for_field("url", message)


def blocked_address(ip: IPAddress, allow_loopback: bool) -> str | None:
    """Why `ip` must not be contacted, or None when it may be. Addresses that embed an IPv4
    address (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by
    the embedded address as well; Python's `is_private`/`is_global` are only a last net."""
    if isinstance(ip, ipaddress.IPv4Address):
        return _blocked_v4(ip, allow_loopback)
    if not isinstance(ip, ipaddress.IPv6Address):
        raise TypeError(f"not an IP address: {ip!r}")
    bare = ipaddress.IPv6Address(int(ip))  # drop any zone id
    if bare == ipaddress.IPv6Address("::"):
        return "unspecified"
    if bare == ipaddress.IPv6Address("::1"):
        return None if allow_loopback else "loopback"
    if bare in _MAPPED:
        return _embedded(ipaddress.IPv4Address(int(bare) & 0xFFFFFFFF), "IPv4-mapped", allow_loopback)
    if bare in _COMPATIBLE:
        embedded = ipaddress.IPv4Address(int(bare) & 0xFFFFFFFF)
        # Deprecated (RFC 4291); never a legitimate receiver, whatever it embeds.
        return _embedded(embedded, "IPv4-compatible", allow_loopback) or f"IPv4-compatible ({embedded})"
    if bare in _NAT64:
        return _embedded(ipaddress.IPv4Address(int(bare) & 0xFFFFFFFF), "NAT64", allow_loopback)
    if bare in _SIX_TO_FOUR:
        reason = _embedded(ipaddress.IPv4Address((int(bare) >> 80) & 0xFFFFFFFF), "6to4", allow_loopback)
        if reason:
            return reason
    for network, reason in _BLOCKED_V6:
        if bare in network:
            return reason
    if bare not in _GLOBAL_UNICAST:
        return "reserved"
    if bare.is_private or bare.is_reserved or bare.is_site_local or not bare.is_global:
        return "not a public address"
    return None


def _embedded(v4: ipaddress.IPv4Address, kind: str, allow_loopback: bool) -> str | None:
    reason = _blocked_v4(v4, allow_loopback)
    return f"{reason} ({kind} {v4})" if reason else None


def _blocked_v4(ip: ipaddress.IPv4Address, allow_loopback: bool) -> str | None:
    if ip in _LOOPBACK_V4:
        return None if allow_loopback else "loopback"
    for network, reason in _BLOCKED_V4:
        if ip in network:
            return reason
    if ip.is_private or ip.is_reserved or ip.is_multicast or ip.is_link_local or not ip.is_global:
        return "not a public address"
    return None


def parse_ipv4_host(host: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address a host string means to inet_aton / WHATWG URL parsing (1 to 4 parts,
    each decimal, 0-prefixed octal or 0x-prefixed hex; one trailing dot allowed), None when the
    host is a name. Raises ValueError when it looks like an address (its last part is a number)
    but is not a valid one, e.g. `1.2.3.4.5` or `0x1ffffffff`."""
    parts = host.lower().split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if not parts or _ipv4_number(parts[-1]) is None:
        return None
    read = [_ipv4_number(part) for part in parts]
    numbers = [n for n in read if n is not None]
    if len(read) > 4 or len(numbers) < len(read):
        raise ValueError("invalid IPv4 address")
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(numbers)):
        raise ValueError("invalid IPv4 address")
    value = last
    for index, n in enumerate(head):
        value += n << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


def _ipv4_number(part: str) -> int | None:
    if part.startswith("0x"):
        digits = part[2:]
        return int(digits or "0", 16) if _HEX.match(digits) else None
    if len(part) > 1 and part.startswith("0"):
        return int(part, 8) if _OCT.match(part) else None
    return int(part) if _DEC.match(part) else None


def _parse_ipv6_literal(text: str) -> ipaddress.IPv6Address:
    """`[...]` contents: an IPv6 address with an optional zone id (`%25eth0` as RFC 6874 writes
    it, or a bare `%eth0`)."""
    address, percent, zone = text.partition("%")
    if percent and zone.startswith("25") and len(zone) > 2:
        zone = zone[2:]
    if percent and not zone:
        raise ValueError("empty zone id")
    ip = ipaddress.IPv6Address(address)
    return ipaddress.IPv6Address(f"{address}%{zone}") if percent else ip


def _check_host(host: str, allow_insecure: bool) -> tuple[str, ipaddress.IPv4Address | None]:
    """A non-bracketed host: a literal IPv4 (any form) or a host name, lower-case ASCII."""
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            raise _refuse("the host name is not valid") from None
    host = host.lower()
    try:
        ipv4 = parse_ipv4_host(host)
    except ValueError:
        raise _refuse("the host is not a valid IPv4 address") from None
    if ipv4 is not None:
        return str(ipv4), ipv4
    name = host[:-1] if host.endswith(".") else host
    labels = name.split(".")
    if len(name) > 253 or not all(_LABEL.match(label) for label in labels):
        raise _refuse("the host name is not valid")
    if name == "localhost" or name.endswith(".localhost"):
        if not allow_insecure:
            raise _refuse("the host must not be localhost")
        return name, None
    if any(name == suffix or name.endswith("." + suffix) for suffix in _BLOCKED_NAME_SUFFIXES):
        raise _refuse(Phrase("the host must be a public name (not {})", name))
    if len(labels) < 2 and not allow_insecure:
        raise _refuse("the host must be a fully qualified domain name")
    return name, None


def check_url(url: str, allow_insecure: bool) -> ParsedUrl:
    """Validate a webhook URL; raises `ValidationFailed.for_field("url", ...)`.

    Refused: not a string, longer than 2048 characters, spaces or control characters, a scheme
    other than https (http too with `allow_insecure`), no host, userinfo, a fragment (even an
    empty `#`), a port outside 1..65535, a malformed host, special names (localhost and
    *.localhost unless `allow_insecure`; *.internal, *.local, *.localdomain, *.home.arpa;
    single-label names unless `allow_insecure`) and literal IP hosts that `blocked_address`
    refuses (loopback allowed with `allow_insecure`). Host names are not resolved here."""
    if not isinstance(url, str) or not url:
        raise _refuse("must be a URL")
    if len(url) > MAX_URL_LENGTH:
        raise _refuse(Phrase("must be at most {} characters", MAX_URL_LENGTH))
    if any(ch <= " " or ch == "\x7f" for ch in url):
        raise _refuse("must not contain spaces or control characters")
    if "#" in url:
        raise _refuse("must not contain a fragment (#)")
    try:
        parts = urlsplit(url)
    except ValueError:
        raise _refuse("is not a valid URL") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or (scheme == "http" and not allow_insecure):
        raise _refuse("must use https" if not allow_insecure else "must use https or http")
    if not url[len(parts.scheme) + 1:].startswith("//"):
        raise _refuse("must have a host")
    netloc = parts.netloc
    if "@" in netloc:
        raise _refuse("must not contain a user name or password")

    if netloc.startswith("["):
        literal, bracket, rest = netloc[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise _refuse("the host is not a valid IPv6 address")
        port_text = rest[1:] if rest else ""
        try:
            ip: IPAddress | None = _parse_ipv6_literal(literal)
        except ValueError:
            raise _refuse("the host is not a valid IPv6 address") from None
        host = ""
    else:
        host, colon, port_text = netloc.rpartition(":")
        if not colon:
            host, port_text = netloc, ""
        if not host:
            raise _refuse("must have a host")
        ip = None

    if port_text:
        if not _PORT.match(port_text) or not 1 <= int(port_text) <= 65535:
            raise _refuse("the port must be a number from 1 to 65535")
        port = int(port_text)
    else:
        port = DEFAULT_PORTS[scheme]

    if ip is None:
        host, ip = _check_host(host, allow_insecure)
    if ip is not None:
        reason = blocked_address(ip, allow_loopback=allow_insecure)
        if reason:
            refusal = AddressNotAllowed.for_field("url", Phrase("the address is not allowed ({})", reason))
            refusal.reason = reason
            raise refusal
        if isinstance(ip, ipaddress.IPv6Address) and ip.scope_id:
            raise _refuse("the address must not have a zone id")
        host = str(ip)

    target = quote(parts.path or "/", safe=_TARGET_SAFE)
    if parts.query:
        target += "?" + quote(parts.query, safe=_TARGET_SAFE)
    return ParsedUrl(scheme=scheme, host=host, port=port, target=target, ip=ip)
