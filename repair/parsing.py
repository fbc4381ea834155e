"""Reading a validator's response: strict JSON, or a tolerant parser that recovers what it can.

The validator prompt (agreeableness paper, App. A.2) asks for one JSON object::

    {"mistakes": [], "fixes": [],
     "feedback_lines": [{"line_number": <integer>, "feedback": <string>,
                         "analysis": <string>, "classification": "valid" | "invalid"}]}

:func:`parse_strict` reads exactly that (inside a `````json`` fence or not).
:func:`parse_tolerant` reads what validators actually write: JSON inside prose
or a fence, trailing commas, single quotes, Python literals (``True``,
``None``), unquoted keys, output cut off mid-answer (the complete entries are
kept, the cut one is dropped), a top-level list instead of the object, and
variants of the list's key (``feedbackLines``, ``Feedback Lines``, ``results``).
It tokenises with one regular expression and parses the tokens by recursive
descent with a depth limit, so it never raises on any string.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ENTRY_LIST_KEYS",
    "PARSE_FAILED",
    "PARSE_STRICT",
    "PARSE_TOLERANT",
    "ParsedOutput",
    "normalise_key",
    "parse_strict",
    "parse_tolerant",
    "parse_validator_output",
]

#: Parse status: strict JSON as asked, recovered by the tolerant parser, nothing found.
PARSE_STRICT, PARSE_TOLERANT, PARSE_FAILED = "strict", "tolerant", "failed"

#: Keys (after :func:`normalise_key`) under which a response may hold its list of entries.
ENTRY_LIST_KEYS = (
    "feedbacklines",
    "feedbackline",
    "feedbacklist",
    "feedbackitems",
    "feedbacks",
    "feedback",
    "lines",
    "items",
    "entries",
    "results",
    "evaluations",
    "validations",
    "classifications",
)
# Keys whose presence makes a dict look like one entry (after normalise_key).
_ENTRY_HINT_KEYS = frozenset(
    {"feedback", "classification", "linenumber", "label", "verdict", "linenum", "line"}
)

_ANY_FENCE = re.compile(r"```[A-Za-z]*[ \t]*\r?\n?(.*?)(?:```|\Z)", re.DOTALL)
_JSON_START = re.compile(r"[\{\[]\s*[\"'\{\[\]\}A-Za-z_]")
_TOKEN = re.compile(
    r"""(?P<dq>"(?:[^"\\]|\\.)*(?:"|\Z))
      |(?P<sq>'(?:[^'\\]|\\.)*(?:'|\Z))
      |(?P<num>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
      |(?P<word>[A-Za-z_][A-Za-z0-9_]*)
      |(?P<punct>[{}\[\]:,])
    """,
    re.VERBOSE | re.DOTALL,
)
_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    "/": "/",
    "\\": "\\",
    '"': '"',
    "'": "'",
}
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_LITERALS: dict[str, Any] = {
    "true": True,
    "false": False,
    "null": None,
    "True": True,
    "False": False,
    "None": None,
}
_DECODE_STRING = json.JSONDecoder(strict=False).decode  # allows raw newlines inside strings
_MAX_DEPTH = 40
_MAX_CANDIDATES = 4
_KEY_JUNK = re.compile(r"[^a-z0-9]")


def normalise_key(key: object) -> str:
    """A dict key for comparison: lower case, letters and digits only.

    Examples
    --------
    >>> normalise_key("Line Number"), normalise_key("lineNumber"), normalise_key("line_number")
    ('linenumber', 'linenumber', 'linenumber')
    """
    return _KEY_JUNK.sub("", str(key).lower())


@dataclass(frozen=True)
class ParsedOutput:
    """What was read from one response.

    Attributes
    ----------
    status : str
        ``'strict'``, ``'tolerant'`` or ``'failed'``.
    entries : list
        The response's feedback entries in order (dicts, or whatever the list
        held); empty when ``status == 'failed'``.
    truncated : bool
        The response was cut off; entries after the cut are lost.
    """

    status: str
    entries: list[Any]
    truncated: bool = False


class _PartialDict(dict[Any, Any]):
    """A JSON object cut off before its closing brace."""


class _PartialList(list[Any]):
    """A JSON array cut off before its closing bracket."""


def parse_strict(raw: str) -> list[Any] | None:
    """The ``feedback_lines`` list of a response that is exactly the asked JSON, else ``None``.

    The JSON may sit inside a `````json`` fence (the first fence is read);
    anything else (prose around bare JSON, trailing commas, single quotes, a
    cut-off answer, another key) fails.

    Examples
    --------
    >>> parse_strict('{"feedback_lines": [{"line_number": 1, "feedback": "x", "classification": "valid"}]}')
    [{'line_number': 1, 'feedback': 'x', 'classification': 'valid'}]
    >>> parse_strict("Here it is: {'feedback_lines': []}") is None
    True
    """
    text = raw
    start = raw.find("```")
    if start >= 0:  # the first fence, if it is a ```json (or bare) fence closed later on
        newline = raw.find("\n", start)
        end = raw.find("```", newline + 1) if newline >= 0 else -1
        if end >= 0 and raw[start + 3 : newline].strip() in ("", "json"):
            text = raw[newline + 1 : end]
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(document, dict):
        entries = document.get("feedback_lines")
        if isinstance(entries, list):
            return entries
    return None


def _unescape(body: str) -> str:
    def replace(match: re.Match[str]) -> str:
        code = match.group(1)
        if len(code) == 5:
            return chr(int(code[1:], 16))
        return _ESCAPES.get(code, "\\" + code)

    return _ESCAPE.sub(replace, body)


def _decode_string(token: str) -> tuple[str, bool]:
    """A quoted token's text and whether it was closed."""
    quote = token[0]
    closed = len(token) >= 2 and token.endswith(quote) and not _odd_backslashes(token[1:-1])
    body = token[1:-1] if closed else token[1:]
    if quote == '"' and closed:
        try:
            return _DECODE_STRING(token), True
        except ValueError:
            pass
    return _unescape(body), closed


def _odd_backslashes(body: str) -> bool:
    """Whether ``body`` ends in an odd run of backslashes (so its last quote is escaped)."""
    run = len(body) - len(body.rstrip("\\"))
    return run % 2 == 1


class _Parser:
    """Recursive descent over regex tokens; lenient about commas, colons and closers."""

    def __init__(self, text: str) -> None:
        self.kinds: list[str] = []
        self.texts: list[str] = []
        for match in _TOKEN.finditer(text):
            kind = match.lastgroup or "punct"
            self.kinds.append(kind)
            self.texts.append(match.group())
        self.pos = 0
        self.truncated = False

    def _at_end(self) -> bool:
        return self.pos >= len(self.kinds)

    def value(self, depth: int) -> tuple[Any, bool, bool]:
        """Parse one value at ``pos``: (value, present, complete)."""
        kind, text = self.kinds[self.pos], self.texts[self.pos]
        if kind == "punct" and text in "{[":
            if depth >= _MAX_DEPTH:
                self.pos += 1
                return None, False, True
            if text == "{":
                return self._object(depth)
            return self._array(depth)
        self.pos += 1
        if kind in ("dq", "sq"):
            decoded, closed = _decode_string(text)
            if not closed:
                self.truncated = True
            return decoded, closed, closed
        if kind == "num":
            try:
                return (float(text) if any(c in text for c in ".eE") else int(text)), True, True
            except ValueError:  # pragma: no cover - the token pattern only matches numbers
                return None, False, True
        if kind == "word":
            return _LITERALS.get(text, text), True, True
        return None, False, True  # a stray ':' ',' '}' or ']'

    def _object(self, depth: int) -> tuple[Any, bool, bool]:
        self.pos += 1  # '{'
        obj: dict[Any, Any] = {}
        while True:
            if self._at_end():
                self.truncated = True
                return _PartialDict(obj), True, False
            kind, text = self.kinds[self.pos], self.texts[self.pos]
            if kind == "punct":
                if text == "}":
                    self.pos += 1
                    return obj, True, True
                if text == "]":  # mismatched closer: close this object, leave ']' to the parent
                    return obj, True, True
                if text in ",:":
                    self.pos += 1
                    continue
                self.value(depth + 1)  # a value where a key belongs: skip it
                continue
            key, present, complete = self.value(depth + 1)
            if not complete:
                self.truncated = True
                return _PartialDict(obj), True, False
            if self._at_end():
                self.truncated = True
                return _PartialDict(obj), True, False
            if self.texts[self.pos] != ":" or self.kinds[self.pos] != "punct":
                continue  # a key without a colon: junk
            self.pos += 1
            if self._at_end():
                self.truncated = True
                return _PartialDict(obj), True, False
            if self.kinds[self.pos] == "punct" and self.texts[self.pos] in ",}]":
                continue  # a key with no value
            item, present, complete = self.value(depth + 1)
            if present and (complete or isinstance(item, (_PartialDict, _PartialList))):
                obj[key if isinstance(key, str) else str(key)] = item
            if not complete:
                return _PartialDict(obj), True, False

    def _array(self, depth: int) -> tuple[Any, bool, bool]:
        self.pos += 1  # '['
        arr: list[Any] = []
        while True:
            if self._at_end():
                self.truncated = True
                return _PartialList(arr), True, False
            kind, text = self.kinds[self.pos], self.texts[self.pos]
            if kind == "punct":
                if text == "]":
                    self.pos += 1
                    return arr, True, True
                if text == "}":  # mismatched closer
                    return arr, True, True
                if text in ",:":
                    self.pos += 1
                    continue
            item, present, complete = self.value(depth + 1)
            if present and (complete or isinstance(item, (_PartialDict, _PartialList))):
                arr.append(item)
            if not complete:
                return _PartialList(arr), True, False

    def documents(self) -> list[Any]:
        """Every top-level object or array in the token stream."""
        found = []
        while not self._at_end():
            if self.kinds[self.pos] == "punct" and self.texts[self.pos] in "{[":
                value, present, _ = self.value(0)
                if present:
                    found.append(value)
            else:
                self.pos += 1
        return found


def _looks_like_entry(value: Any) -> bool:
    return isinstance(value, dict) and any(normalise_key(k) in _ENTRY_HINT_KEYS for k in value)


def _find_entries(document: Any, depth: int = 0) -> list[Any] | None:
    """The list of entries inside a parsed document, or ``None``."""
    if depth > 6:
        return None
    if isinstance(document, list):
        if any(_looks_like_entry(e) for e in document):
            return document
        for element in document:
            if isinstance(element, (dict, list)):
                found = _find_entries(element, depth + 1)
                if found is not None:
                    return found
        return None
    if not isinstance(document, dict):
        return None
    keys = {normalise_key(k): k for k in document}
    for name in ENTRY_LIST_KEYS:
        value = document[keys[name]] if name in keys else None
        if isinstance(value, list) and (
            name == ENTRY_LIST_KEYS[0] or not value or any(isinstance(e, dict) for e in value)
        ):
            return list(value)  # (a list of numbers under "lines" is an entry's line range)
    if _looks_like_entry(document):
        return [document]
    for value in document.values():
        if isinstance(value, (dict, list)):
            found = _find_entries(value, depth + 1)
            if found is not None:
                return found
    return None


def _regions(raw: str) -> list[str]:
    """Candidate stretches of text that may hold the JSON, most likely first."""
    regions = [m.group(1) for m in _ANY_FENCE.finditer(raw)][:_MAX_CANDIDATES]
    start = _JSON_START.search(raw)
    if start is not None:
        regions.append(raw[start.start() :])
    first = min((i for i in (raw.find("{"), raw.find("[")) if i >= 0), default=-1)
    if first >= 0 and (start is None or first != start.start()):
        regions.append(raw[first:])
    return regions


def parse_tolerant(raw: str) -> ParsedOutput:
    """Recover the feedback entries of a messy response; never raises.

    Parameters
    ----------
    raw : str
        The validator's whole response.

    Returns
    -------
    ParsedOutput
        ``status='tolerant'`` with the complete entries found (the response's
        fenced blocks and its first JSON-looking stretch are tried; the one
        giving the most entries wins), or ``status='failed'`` with none.

    Notes
    -----
    Agreeableness paper §3 and App. B.2: 9.4 % of validator outputs were
    unusable "due to missing or mismatched fields in the JSON output"; this is
    the parsing half of jurycal's repair (the paper's repairs, App. B.3, start
    after parsing).

    Examples
    --------
    >>> text = '''Sure! Here is my analysis:
    ... {'feedback_lines': [{'line_number': 2, 'feedback': "Use 'int()'", 'classification': 'valid',},
    ...                     {'line_number': 5, 'feedback': 'Remove the lo'''
    >>> parsed = parse_tolerant(text)
    >>> parsed.status, parsed.truncated, parsed.entries
    ('tolerant', True, [{'line_number': 2, 'feedback': "Use 'int()'", 'classification': 'valid'}])
    >>> parse_tolerant('[{"lineNumber": 3, "feedback": "ok", "verdict": True}]').entries
    [{'lineNumber': 3, 'feedback': 'ok', 'verdict': True}]
    >>> parse_tolerant("I cannot evaluate this feedback.").status
    'failed'
    """
    best: list[Any] | None = None
    best_truncated = False
    for region in _regions(raw):
        parser = _Parser(region)
        for document in parser.documents():
            entries = _find_entries(document)
            if entries is None:
                continue
            complete = [e for e in entries if not isinstance(e, _PartialDict)]
            cut = parser.truncated or len(complete) < len(entries)
            if best is None or len(complete) > len(best):
                best, best_truncated = complete, cut
        if best:
            break
    if best is None:
        return ParsedOutput(PARSE_FAILED, [], False)
    return ParsedOutput(PARSE_TOLERANT, [_closed(e) for e in best], best_truncated)


def _closed(value: Any) -> Any:
    """``value`` with the parser's cut-off objects and arrays as plain dicts and lists."""
    if isinstance(value, dict):
        return {k: _closed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_closed(v) for v in value]
    return value


def parse_validator_output(raw: str, *, tolerant: bool = True) -> ParsedOutput:
    """Parse one response: strict JSON first, then (if ``tolerant``) the tolerant parser.

    Examples
    --------
    >>> parse_validator_output('```json\\n{"feedback_lines": []}\\n```').status
    'strict'
    >>> parse_validator_output('{"feedback_lines": [],}', tolerant=False).status
    'failed'
    >>> parse_validator_output('{"feedback_lines": [],}').status
    'tolerant'
    """
    entries = parse_strict(raw)
    if entries is not None:
        return ParsedOutput(PARSE_STRICT, entries, False)
    if not tolerant:
        return ParsedOutput(PARSE_FAILED, [], False)
    return parse_tolerant(raw)
