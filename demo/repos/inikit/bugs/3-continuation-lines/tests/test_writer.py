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


def test_dump_booleans_and_lists():
    text = dump({"app": {"debug": False, "hosts": ["a", "b"]}})
    assert text == "[app]\ndebug = false\nhosts = a, b\n"


def test_roundtrip_typed_values():
    data = {"app": {"debug": True, "hosts": ["a", "b"], "motd": "hi ; there", "retries": 3}}
    cfg = parse(dump(data))
    assert cfg.getbool("app", "debug") is True
    assert cfg.getlist("app", "hosts") == ["a", "b"]
    assert cfg.get("app", "motd") == "hi ; there"
    assert cfg.getint("app", "retries") == 3


def test_roundtrip_multiline_value():
    data = {"motd": {"text": "Welcome\nto the server", "tags": ["news", "ops"]}}
    cfg = parse(dump(data))
    assert cfg.get("motd", "text") == "Welcome\nto the server"
    assert cfg.getlist("motd", "tags") == ["news", "ops"]
