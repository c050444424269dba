from inikit import dump, parse


def test_dump_mapping():
    text = dump({"server": {"host": "example.org", "port": 8080}})
    assert text == "[server]\nhost = example.org\nport = 8080\n"


def test_sections_are_separated_by_blank_line():
    text = dump({"a": {"x": "1"}, "b": {"y": "2"}})
    assert text == "[a]\nx = 1\n\n[b]\ny = 2\n"


def test_dump_config_roundtrip():
    source = "[a]\nx = 1\n\n[b]\ny = two words\n"
    assert dump(parse(source)) == source
