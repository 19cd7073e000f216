"""URL-friendly lookups: a node by its slug path or names path (a root's names path is its
name), and every `branch` argument and filter taking a `NodeRef` (exactly one of `id`,
`slug`, `slugPath`, `path`, declared `@oneOf`) beside the deprecated `within: ID`."""

from collections.abc import Callable

import pytest

from schema.ids import encode_id

from conftest import Api

NODE = "query($path: String!) { node(path: $path) { slug slugPath path } }"


@pytest.mark.parametrize(
    ("dataset", "path", "slug"),
    [
        ("pwc", "Computer Vision", "computer-vision"),  # a root: its name is not its slug
        ("pwc", "computer vision", "computer-vision"),
        ("pwc", "  Computer Vision ", "computer-vision"),
        ("pwc", "Computer Vision :: Generative Models", "generative-models"),
        ("pwc", "computer-vision", "computer-vision"),
        ("pwc", "computer-vision/generative-models", "generative-models"),
        ("go", "biological_process", "go-0008150"),
        ("go", "molecular_function", "go-0003674"),
        ("go", "biological_process :: biological regulation", "go-0065007"),
        ("go", "go-0008150/go-0065007", "go-0065007"),
    ],
)
def test_node_by_a_names_path_or_a_slug_path(
    api_for: Callable[[str, str], Api], backend: str, dataset: str, path: str, slug: str
) -> None:
    served = api_for(backend, dataset)
    node = served.query(NODE, {"path": path})["node"]
    assert node is not None, f"{path!r} found nothing"
    assert node["slug"] == slug
    # What the node shows as its paths finds it again.
    for shown in (node["path"], node["slugPath"]):
        assert served.query(NODE, {"path": shown})["node"]["slug"] == slug


def test_a_roots_name_through_the_schema(api_for: Callable[[str, str], Api], backend: str) -> None:
    """The same lookups through `schema.execute`, without HTTP."""
    for dataset, path, slug in (
        ("pwc", "Computer Vision", "computer-vision"),
        ("go", "biological_process", "go-0008150"),
    ):
        result = api_for(backend, dataset).execute(NODE, {"path": path})
        assert result.errors is None
        assert result.data["node"]["slug"] == slug


def test_an_unknown_path_is_null(api_for: Callable[[str, str], Api], backend: str) -> None:
    served = api_for(backend, "pwc")
    for path in ("Computer Visoin", "computer-vision/nope", "Computer Vision :: nope"):
        assert served.query(NODE, {"path": path}) == {"node": None}


BRANCH_COUNTS = """
query($branch: NodeRef!, $within: ID) {
  byBranch: methods(filter: {branch: $branch}) { totalCount }
  byWithin: methods(filter: {within: $within}) { totalCount }
}
"""


@pytest.mark.parametrize(
    ("dataset", "slug", "names_path"),
    [
        ("pwc", "computer-vision", "Computer Vision"),
        ("pwc", "generative-models", "computer vision :: generative models"),
        ("go", "go-0008150", "biological_process"),
    ],
)
def test_a_branch_filter_takes_any_reference_to_a_node(
    api_for: Callable[[str, str], Api],
    backend: str,
    dataset: str,
    slug: str,
    names_path: str,
) -> None:
    served = api_for(backend, dataset)
    node = served.query(
        "query($s: String!) { node(slug: $s) { id slugPath counts { methodsInBranch } } }",
        {"s": slug},
    )["node"]
    expected = node["counts"]["methodsInBranch"]
    assert expected > 0
    references = [
        {"id": node["id"]},
        {"slug": slug},
        {"slugPath": node["slugPath"]},
        {"path": names_path},
        {"path": node["slugPath"]},
    ]
    for reference in references:
        data = served.query(BRANCH_COUNTS, {"branch": reference, "within": node["id"]})
        assert data["byBranch"]["totalCount"] == expected, reference
        # The deprecated `within: ID` answers the same.
        assert data["byWithin"]["totalCount"] == expected


def test_branch_on_treatments_and_evidence(tiny: Api) -> None:
    gamma = encode_id("Node", "gamma")
    document = """
    query($branch: NodeRef, $within: ID) {
      model(slug: "newest") {
        treatments(branch: $branch) { totalCount nodes { method { slug } } }
        old: treatments(within: $within) { totalCount }
        evidence(filter: {branch: $branch}) { totalCount }
        oldEvidence: evidence(filter: {within: $within}) { totalCount }
      }
    }"""
    for reference in ({"path": "Alpha :: beta :: Gamma"}, {"slugPath": "alpha/beta/gamma"}):
        model = tiny.query(document, {"branch": reference, "within": gamma})["model"]
        assert model["treatments"]["totalCount"] == model["old"]["totalCount"] == 2
        assert {n["method"]["slug"] for n in model["treatments"]["nodes"]} == {"alpha", "m-bravo"}
        assert model["evidence"]["totalCount"] == model["oldEvidence"]["totalCount"] == 3
    delta = tiny.query(document, {"branch": {"slug": "delta"}, "within": None})["model"]
    assert delta["treatments"]["totalCount"] == 0


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (
            '{ methods(filter: {branch: {path: "Alpha :: nope"}}) { totalCount } }',
            "`filter.branch.path`: no node has the path 'Alpha :: nope'",
        ),
        (
            '{ methods(filter: {branch: {slugPath: "alpha/nope"}}) { totalCount } }',
            "`filter.branch.slugPath`: no node has the slug path 'alpha/nope'",
        ),
        (
            '{ model(slug: "newest") { treatments(branch: {slug: "nope"}) { totalCount } } }',
            "`branch.slug`: no node has the slug 'nope'",
        ),
        (
            '{ model(slug: "newest") { evidence(filter: {branch: {path: "Zeta :: x"}}) '
            "{ totalCount } } }",
            "`filter.branch.path`: no node has the path 'Zeta :: x'",
        ),
    ],
)
def test_an_unknown_branch_is_not_found_naming_it(tiny: Api, document: str, message: str) -> None:
    """A well-formed key that narrows a list but names nothing: NOT_FOUND, as an unknown
    `within` ID (docs/api-guide.md, "Missing things")."""
    errors = tiny.errors(document)
    assert len(errors) == 1, errors
    assert errors[0]["extensions"]["code"] == "NOT_FOUND"
    assert errors[0]["message"].startswith(message), errors[0]["message"]


def test_within_and_branch_together_are_refused(tiny: Api) -> None:
    gamma = encode_id("Node", "gamma")
    errors = tiny.errors(
        f'{{ methods(filter: {{within: "{gamma}", branch: {{slug: "gamma"}}}}) {{ totalCount }} }}'
    )
    assert [(e["message"], e["extensions"]["code"]) for e in errors] == [
        (
            "give `filter.branch` or `filter.within`, not both (`within` is deprecated)",
            "BAD_USER_INPUT",
        )
    ]


@pytest.mark.parametrize(
    ("document", "variables"),
    [
        ('{ methods(filter: {branch: {slug: "gamma", path: "Alpha"}}) { totalCount } }', None),
        ("{ methods(filter: {branch: {}}) { totalCount } }", None),
        ("{ methods(filter: {branch: {slug: null}}) { totalCount } }", None),
        (
            "query($b: NodeRef) { methods(filter: {branch: $b}) { totalCount } }",
            {"b": {"slug": "gamma", "slugPath": "alpha/beta/gamma"}},
        ),
    ],
)
def test_node_ref_takes_exactly_one_field(
    tiny: Api, document: str, variables: dict[str, object] | None
) -> None:
    errors = tiny.errors(document, variables)
    assert len(errors) == 1, errors
    # Refused before anything runs: graphql-core's @oneOf checks, naming the input.
    assert errors[0]["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED", errors
    assert "NodeRef" in errors[0]["message"], errors


def test_node_ref_is_one_of_and_within_is_deprecated(tiny: Api) -> None:
    data = tiny.query(
        """{
          ref: __type(name: "NodeRef") { isOneOf inputFields { name type { name kind } } }
          filter: __type(name: "MethodFilter") {
            inputFields(includeDeprecated: true) { name isDeprecated deprecationReason }
          }
          model: __type(name: "Model") {
            fields { name args(includeDeprecated: true) { name isDeprecated } }
          }
        }"""
    )
    assert data["ref"]["isOneOf"] is True
    assert [(f["name"], f["type"]["kind"]) for f in data["ref"]["inputFields"]] == [
        ("id", "SCALAR"),
        ("slug", "SCALAR"),
        ("slugPath", "SCALAR"),
        ("path", "SCALAR"),
    ]
    fields = {f["name"]: f for f in data["filter"]["inputFields"]}
    assert fields["within"]["isDeprecated"] is True
    assert "Use `branch`" in fields["within"]["deprecationReason"]
    assert fields["branch"]["isDeprecated"] is False
    treatments = next(f for f in data["model"]["fields"] if f["name"] == "treatments")
    args = {a["name"]: a["isDeprecated"] for a in treatments["args"]}
    assert args["within"] is True
    assert args["branch"] is False
