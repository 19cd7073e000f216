"""The HTML around each page this server writes (GraphiQL's, the taxonomy browser's)."""

_DOCUMENT = """\
<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{title}</title>
    <link rel="icon" href="data:,">
{head}
  </head>
  <body>
{body}
  </body>
</html>
"""


def html_page(title: str, head: str, body: str) -> str:
    """A whole page: ``title`` (plain text, already escaped), then ``head`` and ``body``
    (HTML, indented by the caller). The empty icon keeps browsers from asking for
    /favicon.ico, which no page of this server has."""
    return _DOCUMENT.format(title=title, head=head, body=body)
