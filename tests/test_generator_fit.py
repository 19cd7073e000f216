"""What client generators and caches read in the schema: `@specifiedBy` on the date
scalars, and an argument's error kept on its own field (a refused `level` nulls
`branches`, not the model that holds it)."""

from conftest import Api


def test_date_scalars_say_their_format(tiny: Api) -> None:
    data = tiny.query(
        """{
          date: __type(name: "Date") { specifiedByURL }
          dateTime: __type(name: "DateTime") { specifiedByURL }
          model(slug: "newest") { releaseDate }
          taxonomy { loadedAt }
        }"""
    )
    rfc_3339 = "https://datatracker.ietf.org/doc/html/rfc3339#section-5.6"
    assert data["date"]["specifiedByURL"] == data["dateTime"]["specifiedByURL"] == rfc_3339
    assert data["model"]["releaseDate"] == "2025-06-01"
    assert data["taxonomy"]["loadedAt"].endswith("+00:00")
    dated = tiny.query(
        "query($d: Date) { models(filter: {releasedAfter: $d}) { nodes { slug } } }",
        {"d": "2025-01-01"},
    )
    assert dated["models"]["nodes"] == [{"slug": "newest"}]
    errors = tiny.errors(
        "query($d: Date) { models(filter: {releasedAfter: $d}) { totalCount } }",
        {"d": "01/02/2025"},
    )
    assert "Date" in errors[0]["message"]


PROFILE = """
query($level: Int = 1) {
  model(slug: "newest") {
    name
    branches(level: $level) { node { slug } }
  }
}
"""


def test_a_refused_level_errors_on_branches_alone(tiny: Api) -> None:
    body = tiny.post(PROFILE, {"level": 0})
    assert body["data"] == {"model": {"name": "Newest", "branches": None}}
    assert [(e["message"], e["path"], e["extensions"]["code"]) for e in body["errors"]] == [
        (
            "`level` must be at least 1 (the roots), got 0",
            ["model", "branches"],
            "BAD_USER_INPUT",
        )
    ]


def test_level_is_optional_and_null_means_the_roots(tiny: Api) -> None:
    roots = tiny.query(PROFILE)["model"]["branches"]
    assert roots == [{"node": {"slug": "alpha"}}]
    assert tiny.query(PROFILE, {"level": None})["model"]["branches"] == roots
    assert tiny.query(PROFILE, {"level": 3})["model"]["branches"] == [{"node": {"slug": "gamma"}}]


def test_a_refused_max_depth_errors_on_descendants_alone(tiny: Api) -> None:
    body = tiny.post('{ node(slug: "alpha") { slug descendants(maxDepth: 0) { slug } } }')
    assert body["data"] == {"node": {"slug": "alpha", "descendants": None}}
    assert [(e["path"], e["extensions"]["code"]) for e in body["errors"]] == [
        (["node", "descendants"], "BAD_USER_INPUT")
    ]
