import pytest

from inikit import ParseError, parse

SAMPLE = """
# application settings
[server]
host = example.org
Port = 8080

[features]
beta = yes
tags = a, b , c
"""


def test_sections_in_order():
    assert parse(SAMPLE).sections() == ["server", "features"]


def test_keys_are_case_insensitive():
    cfg = parse(SAMPLE)
    assert cfg.get("server", "PORT") == "8080"
    assert cfg.has("server", "port")


def test_typed_getters():
    cfg = parse(SAMPLE)
    assert cfg.getint("server", "port") == 8080
    assert cfg.getbool("features", "beta") is True
    assert cfg.getlist("features", "tags") == ["a", "b", "c"]


def test_missing_key_returns_default():
    assert parse(SAMPLE).getint("server", "timeout", 30) == 30


def test_full_line_comments_are_ignored():
    cfg = parse("[a]\n; note\n# other note\nx = 1\n")
    assert cfg.as_dict() == {"a": {"x": "1"}}


def test_key_outside_section_is_error():
    with pytest.raises(ParseError) as info:
        parse("x = 1\n")
    assert info.value.lineno == 1


def test_unterminated_header_is_error():
    with pytest.raises(ParseError):
        parse("[server\nx = 1\n")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param("timeout = 30 ; seconds", "30", id="semicolon comment"),
        pytest.param("timeout = 30    # seconds", "30", id="hash comment"),
        pytest.param('timeout = "30 ; seconds"', "30 ; seconds", id="quoted semicolon"),
        pytest.param("timeout = http://example.org/#top", "http://example.org/#top", id="hash inside url"),
    ],
)
def test_inline_comments(line, expected):
    assert parse(f"[s]\n{line}\n").get("s", "timeout") == expected


def test_getint_ignores_inline_comment():
    assert parse("[s]\nport = 8080 ; default\n").getint("s", "port") == 8080


def test_continuation_lines():
    cfg = parse("[motd]\ntext = Welcome   ; greeting\n    to the server\n  # not part of it\nother = 1\n")
    assert cfg.get("motd", "text") == "Welcome\nto the server"
    assert cfg.getint("motd", "other") == 1


def test_indented_line_before_any_key_is_error():
    with pytest.raises(ParseError):
        parse("[a]\n    orphan\n")
