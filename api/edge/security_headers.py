"""Headers that tell browsers what a response may do, on every response.

No response of this API is meant to be framed, sniffed into another media type, or to run
anything but the GraphiQL page's own script: so by default nothing may load (`default-src
'none'`), a page that needs more says so in its own Content-Security-Policy (the GraphiQL
page: api.endpoint.graphiql.PAGE_POLICY), and that one is kept."""

from api.edge.middleware import ASGIApp, Headers, Receive, Scope, Send, with_headers

CONTENT_SECURITY_POLICY = b"content-security-policy"
# Anything but the GraphiQL page: JSON, the page's assets, errors. Nothing to load or run,
# and not to be framed (frame-ancestors; X-Frame-Options for browsers without CSP 2).
DEFAULT_POLICY = b"default-src 'none'; frame-ancestors 'none'; base-uri 'none'"
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # The GraphiQL page links nowhere else; no other site learns a URL of this one.
    (b"referrer-policy", b"no-referrer"),
)


def security_headers(given: Headers) -> Headers:
    """``given`` headers with the security headers added, a policy already given kept."""
    names = {name.lower() for name, _ in given}
    added = [(name, value) for name, value in SECURITY_HEADERS if name not in names]
    if CONTENT_SECURITY_POLICY not in names:
        added.append((CONTENT_SECURITY_POLICY, DEFAULT_POLICY))
    return [*given, *added]


def secured(app: ASGIApp) -> ASGIApp:
    """``app``, its every answer with the security headers (a Starlette middleware)."""

    async def secured_app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            send = with_headers(send, security_headers)
        await app(scope, receive, send)

    return secured_app
