"""The one bounded reader: regular files only, a size limit, UTF-8, nesting and digits."""

from __future__ import annotations

import os
import time

import pytest

from sceneplan import textinput
from sceneplan.errors import BadInputError
from sceneplan.textinput import BodyLimit, parse_json, parse_toml, parse_yaml, read_bytes, read_text


def test_a_named_pipe_nobody_writes_to_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(BadInputError, match=r"pipe: it is a named pipe, not a regular file"):
        read_text(fifo, "the task file")


@pytest.mark.parametrize(
    ("path", "why"), [("/dev/zero", "it is a device"), ("/dev/null", "it is a device")]
)
def test_a_device_is_refused_before_a_byte_is_read(path, why):
    with pytest.raises(BadInputError, match=f"cannot read the graph {path}: {why}"):
        read_bytes(path, "the graph")


def test_a_folder_is_named_a_folder(tmp_path):
    with pytest.raises(BadInputError, match="it is a directory, not a file"):
        read_text(tmp_path, "the config file")


def test_a_file_over_the_limit_is_refused_by_its_size(tmp_path):
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(10_000)  # sparse: the size says it, nothing is read
    with pytest.raises(BadInputError, match=r"big.json is larger than 0.00\d+ MiB"):
        read_bytes(big, limit=1000)
    assert read_bytes(big, limit=10_000) == b"\0" * 10_000


def test_text_that_is_not_utf8_names_the_byte(tmp_path):
    (tmp_path / "x.yaml").write_bytes(b"ok: \xff")
    with pytest.raises(BadInputError, match=r"not UTF-8 text \(byte 4\)"):
        read_text(tmp_path / "x.yaml")


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (parse_json, "[" + "9" * 5000 + "]"),
        (parse_yaml, "n: " + "9" * 5000),
        (parse_toml, "n = " + "9" * 5000),
    ],
)
def test_a_number_of_5000_digits_is_a_clear_error(parse, text):
    with pytest.raises(BadInputError, match=r"src: a number of more than 4,300 digits"):
        parse(text, "src")


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (parse_json, "[" * 100_000),
        (parse_yaml, "[" * 100_000),
        (parse_toml, "a = " + "[" * 50_000),
    ],
)
@pytest.mark.slow
def test_nesting_beyond_the_limit_is_a_clear_error(parse, text):
    with pytest.raises(BadInputError, match=r"src: nested too deeply"):
        parse(text, "src")


def test_a_body_limit_stops_on_bytes_and_on_time():
    bound = BodyLimit("the server", 10, 60)
    assert bound.add(b"x" * 10) == b"x" * 10
    with pytest.raises(BadInputError, match="the server sent a body of more than"):
        bound.add(b"x")
    slow = BodyLimit("the server", 1000, 0.05)
    slow.add(b"x")
    time.sleep(0.06)
    with pytest.raises(BadInputError, match=r"still sending its body after 0.05 s \(2 bytes\)"):
        slow.add(b"x")


def test_a_file_that_grows_past_the_limit_while_read_is_refused(tmp_path, monkeypatch):
    grows = tmp_path / "grows"
    grows.write_bytes(b"x" * 100)
    monkeypatch.setattr(textinput, "_CHUNK", 10)
    real_read = os.read

    def read_and_grow(fd, n):
        with grows.open("ab") as f:
            f.write(b"y" * 50)
        return real_read(fd, n)

    monkeypatch.setattr(textinput.os, "read", read_and_grow)
    with pytest.raises(BadInputError, match="larger than"):
        read_bytes(grows, limit=200)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "src: empty; expected one (...) expression"),
        ("  ; only a comment\n", "src: empty; expected one (...) expression"),
        (")", "src: the ')' at line 1, column 1 closes nothing"),
        ("(a (b)", "src: 1 '(' never closed; close each with ')'"),
        ("(a)\n (b)", "src: text after the expression, at line 2, column 2"),
        ("atom", "src: expected '(' at line 1, column 1, not 'atom'"),
        ("(" * 101 + ")" * 101, "src: nested too deeply (more than about 100 levels"),
        ("(" * 200_000, "src: nested too deeply"),  # no RecursionError, however deep
    ],
)
def test_a_malformed_s_expression_is_one_message_naming_the_place(text, message):
    with pytest.raises(BadInputError) as caught:
        textinput.parse_sexp(text, "src")
    assert str(caught.value).startswith(message)


def test_an_s_expression_keeps_its_tokens_and_drops_comments():
    text = "(define (problem p-1) ; a comment\n (:init (on a b)) (n " + "9" * 5000 + "))"
    sexp = textinput.parse_sexp(text)
    assert sexp[:2] == ["define", ["problem", "p-1"]] and sexp[3] == ["n", "9" * 5000]
    assert textinput.parse_sexp(textinput.show_sexp(sexp)) == sexp


@pytest.mark.parametrize(
    ("read", "text", "message"),
    [
        (
            textinput.read_json,
            '{\n "a": ]}',
            "x: not valid JSON (line 2, column 7: Expecting value)",
        ),
        (textinput.read_yaml, "a: [1, 2", "x: not valid YAML (while parsing a flow sequence"),
        (textinput.read_toml, "[llm\n", "x: not valid TOML (Expected ']' at the end of a table"),
    ],
)
def test_a_syntax_error_in_a_users_file_is_worded_once(tmp_path, read, text, message):
    path = tmp_path / "x"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInputError) as caught:
        read(path, "the file")
    assert str(caught.value).startswith(message.replace("x:", f"{path}:"))
    with pytest.raises(BadInputError, match=r"cannot read the file .*: No such file"):
        read(tmp_path / "missing", "the file")
