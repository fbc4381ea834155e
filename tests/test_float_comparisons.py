"""No test or docstring example compares floats from two code paths exactly: AVX-512 BLAS
kernels (and SIMD loops) round differently.

An exact comparison passes only with a ``# exact: <reason>`` pragma on the statement that holds
it (any of its lines) or on a comment line right above that statement; in a docstring example, on
its ``>>>`` line. The reason says why equality is structural: both sides from one code path on
one input (a seed, a copy, a file round trip), integer counts or labels, a value clipped to a
bound or set by construction, one correctly rounded operation. Values from two paths get a
tolerance chosen from the computation instead (its comment says which).

What the check flags (:func:`exact_comparisons`), in ``tests/`` and in the examples of the four
packages' docstrings:

- the exact calls: ``np.array_equal``/``array_equiv``, ``np.testing.assert_array_equal``/
  ``assert_equal``, ``.eq(``, ``.equals(``; ``pd.testing.assert_frame_equal``/
  ``assert_series_equal``/``assert_index_equal`` without ``check_exact``/``rtol``/``atol`` (their
  default exactness differs between pandas versions, so the test says which it means);
  ``assert_allclose``/``allclose``/``isclose``/``pytest.approx`` whose tolerances are all 0;
- ``==``/``!=`` where a side holds a float literal (``0.3``, ``-0.054``, ``2 / 3``, ``[1.0, 0.5]``,
  ``{"a": 0.5}``, ``1.0 if c else 0.0``, ``np.float32(x)``), unless ``pytest.approx`` is on it;
- an elementwise ``==``/``!=`` of two computed arrays reduced to one truth (``(a == b).all()``,
  ``np.all(a == b)``), unless a side is plainly not a float (a string, int or bool literal);
- in an example's expected output, a float written with more than :data:`MAX_DIGITS` decimals:
  doctest's NUMBER option compares a float to the precision written, so 17 digits of a computed
  float leave no room for a last-bit difference.

What it cannot see: ``a == b`` of two computed scalars, which may as well be two counts or two
strings; those were audited by hand (issue 35) and are left to review.
"""

from __future__ import annotations

import ast
import doctest
import re
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).parent
ROOT = TESTS.parent
PACKAGES = ("regression", "ensemble", "repair", "jurycal")

EXACT_CALLS = {"array_equal", "array_equiv", "assert_array_equal", "assert_equal", "eq", "equals"}
FRAME_CALLS = {"assert_frame_equal", "assert_series_equal", "assert_index_equal"}
FRAME_TOLERANCES = {"check_exact", "rtol", "atol"}
#: each tolerant call's tolerance keywords and the defaults they take when left out
CLOSE_CALLS = {
    "assert_allclose": {"rtol": 1e-7, "atol": 0.0},
    "allclose": {"rtol": 1e-5, "atol": 1e-8},
    "isclose": {"rtol": 1e-5, "atol": 1e-8},
}
REDUCTIONS = {"all", "any"}
#: calls that make no float: each element's truth, a length, a cast to int or str
NOT_FLOAT_CALLS = set("isna notna isnull notnull isnan isfinite isin len int str".split())
FLOAT_CASTS = {"float", "float64", "float32", "float16", "longdouble", "double"}
#: Decimals of a float in an example's expected output beyond which the NUMBER option's tolerance
#: (10 ** -decimals) falls below the rounding of a computation of a few thousand terms (~1e-13).
MAX_DIGITS = 12
LONG_FLOAT = re.compile(rf"(?<![\w.])\d*\.\d{{{MAX_DIGITS + 1},}}")
PRAGMA = re.compile(r"#\s*exact:(.*)$")


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _is_zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


def _holds_float_literal(node: ast.expr) -> bool:
    """A float literal, or an expression of literals that makes a float, or a literal container
    or choice holding one; NaN and infinity are left out (no rounding reaches them)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, float) and abs(node.value) != float("inf")
    if isinstance(node, ast.UnaryOp):
        return _holds_float_literal(node.operand)
    if isinstance(node, ast.BinOp):
        constants = all(
            isinstance(s.operand if isinstance(s, ast.UnaryOp) else s, ast.Constant)
            for s in (node.left, node.right)
        )
        return (constants and isinstance(node.op, ast.Div)) or any(
            _holds_float_literal(s) for s in (node.left, node.right)
        )
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return any(_holds_float_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return any(_holds_float_literal(v) for v in node.values)
    if isinstance(node, ast.IfExp):
        return _holds_float_literal(node.body) or _holds_float_literal(node.orelse)
    if isinstance(node, ast.Call) and _called(node.func) in FLOAT_CASTS:
        spelled = [a.value for a in node.args if isinstance(a, ast.Constant)]
        return not any(
            isinstance(s, str) and s.strip("+-").lower() in {"inf", "nan"} for s in spelled
        )
    return False


def _has_approx(node: ast.expr) -> bool:
    return any(isinstance(n, ast.Call) and _called(n.func) == "approx" for n in ast.walk(node))


def _plainly_not_float(node: ast.expr) -> bool:
    """A string, int or bool literal, or a call that makes no float (``isna``, ``len``)."""
    if isinstance(node, ast.Call):
        return _called(node.func) in NOT_FLOAT_CALLS
    return isinstance(node, ast.Constant) and not isinstance(node.value, float)


def _elementwise(node: ast.AST) -> ast.Compare | None:
    """The ``a == b`` inside ``(a == b).all()`` or ``np.all(a == b)``, if that is ``node``."""
    if not isinstance(node, ast.Call) or _called(node.func) not in REDUCTIONS:
        return None
    reduced = [node.func.value] if isinstance(node.func, ast.Attribute) else []
    for inner in [*reduced, *node.args[:1]]:
        if isinstance(inner, ast.Compare) and isinstance(inner.ops[0], ast.Eq | ast.NotEq):
            return inner
    return None


def _is_exact(node: ast.AST) -> bool:
    if isinstance(node, ast.Call):
        name = _called(node.func)
        keywords = {k.arg: k.value for k in node.keywords}
        if name in EXACT_CALLS:
            return True
        if name in FRAME_CALLS:
            return not set(keywords) & FRAME_TOLERANCES
        if name in CLOSE_CALLS:
            given = {k: v for k, v in keywords.items() if k in CLOSE_CALLS[name]}
            defaults = {k: d for k, d in CLOSE_CALLS[name].items() if k not in given}
            return all(_is_zero(v) for v in given.values()) and not any(defaults.values())
        if name == "approx":
            return (
                "abs" in keywords
                and _is_zero(keywords["abs"])
                and _is_zero(keywords.get("rel", ast.Constant(0)))
            )
        pair = _elementwise(node)
        if pair is not None:
            sides = [pair.left, *pair.comparators]
            return not any(_plainly_not_float(s) or _has_approx(s) for s in sides)
        return False
    if isinstance(node, ast.Compare) and any(isinstance(o, ast.Eq | ast.NotEq) for o in node.ops):
        sides = [node.left, *node.comparators]
        return not any(_has_approx(s) for s in sides) and any(map(_holds_float_literal, sides))
    return False


def _reason(line: str) -> bool:
    pragma = PRAGMA.search(line)
    return pragma is not None and bool(pragma.group(1).strip())


def _pragma_lines(tree: ast.AST) -> dict[int, range]:
    """Each exact comparison's first line and the lines of the statement that holds it (a simple
    one: an ``assert``, a call; in a compound statement's header, the comparison's own lines)."""
    found: dict[int, range] = {}

    def visit(node: ast.AST, statement: range | None) -> None:
        if isinstance(node, ast.stmt):
            compound = any(hasattr(node, field) for field in ("body", "cases"))
            end = node.end_lineno or node.lineno
            statement = None if compound else range(node.lineno, end + 1)
        if _is_exact(node):
            line = node.lineno  # type: ignore[attr-defined]
            own = range(line, (node.end_lineno or line) + 1)  # type: ignore[attr-defined]
            found.setdefault(line, own if statement is None else statement)
        for child in ast.iter_child_nodes(node):
            visit(child, statement)

    visit(tree, None)
    return found


def _explained(lines: list[str], allowed: range) -> bool:
    """A pragma on one of the ``allowed`` lines or on the comment lines right above them."""
    above = allowed.start - 1
    while above >= 1 and lines[above - 1].lstrip().startswith("#"):
        above -= 1
    return any(_reason(lines[n - 1]) for n in range(above + 1, allowed.stop))


def exact_comparisons(source: str) -> list[int]:
    """The lines (1-based) of ``source`` where an exact float comparison starts."""
    return sorted(_pragma_lines(ast.parse(source)))


def unexplained_exact_comparisons(source: str) -> list[str]:
    """Lines of ``source`` with an exact float comparison and no ``# exact: <reason>`` pragma on
    the statement that holds it or on the comment lines right above that statement."""
    lines = source.splitlines()
    return [
        f"{line}: {lines[line - 1].strip()}"
        for line, allowed in sorted(_pragma_lines(ast.parse(source)).items())
        if not _explained(lines, allowed)
    ]


def _docstrings(source: str) -> Iterator[tuple[int, str]]:
    """Each docstring of ``source`` with the line its text starts on."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                yield first.lineno, first.value.value


def unexplained_in_examples(source: str) -> list[str]:
    """Lines of ``source`` whose docstring example compares floats exactly, or expects a computed
    float to more than :data:`MAX_DIGITS` decimals, without ``# exact: <reason>`` on its ``>>>``."""
    found = []
    for start, text in _docstrings(source):
        for example in doctest.DocTestParser().get_examples(text):
            first = example.source.splitlines()[0]
            long_float = LONG_FLOAT.search(example.want)
            if not _reason(first) and (exact_comparisons(example.source) or long_float):
                shown = f" -> {long_float.group()}" if long_float else ""
                found.append(f"{start + example.lineno}: >>> {first.strip()}{shown}")
    return found


def test_every_exact_comparison_in_the_tests_says_why_it_is_exact() -> None:
    found = [
        f"{path.relative_to(TESTS)}:{hit}"
        for path in sorted(TESTS.rglob("*.py"))
        for hit in unexplained_exact_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert not found, "exact comparisons without '# exact: <reason>':\n" + "\n".join(found)


def test_every_exact_comparison_in_the_examples_says_why_it_is_exact() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{hit}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for hit in unexplained_in_examples(path.read_text(encoding="utf-8"))
    ]
    assert not found, "examples without '# exact: <reason>':\n" + "\n".join(found)


FLAGGED = [
    "assert x.eq(0).all()",
    "assert x.equals(y)",
    "pd.testing.assert_frame_equal(a, b)",
    "pd.testing.assert_series_equal(a, b, check_names=False)",
    "assert np.array_equal(a, b)",
    "np.testing.assert_array_equal(a, b)",
    "np.testing.assert_allclose(a, b, rtol=0)",
    "assert np.allclose(a, b, rtol=0, atol=0)",
    "assert a == pytest.approx(b, abs=0)",
    "assert a == 0.3",
    "assert a != 0.0",
    "assert round(b, 3) == -0.054",
    "assert r == 2 / 3",
    "assert (t.tpr, t.tnr) == (0.9, 0.7)",
    "assert s.tolist() == [1.0, 0.5]",
    "assert d == {'a': 0.5}",
    "assert lam == (1.0 if spread else 0.0)",
    "assert v == np.float32(w)",
    "assert (a == b).all()",
    "assert np.all(a == b)",
]
PASSED = [
    "assert n == 3",
    "assert len(x) == 3",
    "assert frame.shape == (2, 3)",
    "assert x.dtype == bool",
    "assert kind == 'exact'",
    "assert flag == True",
    "assert code == -1",
    "assert x == -y / 2",
    "assert a == b",  # two computed scalars: out of the check's sight (see the module's note)
    "assert high == np.inf and low == float('-inf')",
    "assert a == pytest.approx(0.3)",
    "assert a.tolist() == pytest.approx([0.5, 1.0], abs=1e-12)",
    "assert (frame['kind'] == 'exact').all()",
    "assert (a == b).sum() == 2",
    "pd.testing.assert_frame_equal(a, b, check_exact=False, rtol=1e-12)",
    "np.testing.assert_allclose(a, b, rtol=0, atol=1e-9)",
    "assert np.isclose(a, b)",
]


def test_the_checker_flags_exact_comparisons_and_passes_them_with_a_reason() -> None:
    for statement in FLAGGED:
        assert unexplained_exact_comparisons(statement), statement
        assert not unexplained_exact_comparisons(statement + "  # exact: set by construction")
        assert not unexplained_exact_comparisons("# exact: set by construction\n" + statement)
        assert unexplained_exact_comparisons(statement + "  # exact:"), "an empty reason"
        assert unexplained_exact_comparisons("# exact: why\nx = 1\n" + statement), "another's"
    for statement in PASSED:
        assert not unexplained_exact_comparisons(statement), statement


def test_the_checker_reads_docstring_examples() -> None:
    def module(example: str, want: str) -> str:
        return f'def f():\n    """Examples\n    --------\n    >>> {example}\n    {want}\n    """\n'

    assert unexplained_in_examples(module("bool(x.eq(0).all())", "True")) == [
        "4: >>> bool(x.eq(0).all())"
    ]
    assert unexplained_in_examples(module("1 / 3", "0.3333333333333333"))
    assert not unexplained_in_examples(module("1 / 3  # exact: one division", "0.3333333333333333"))
    assert not unexplained_in_examples(module("round(1 / 3, 4)", "0.3333"))
    assert not unexplained_in_examples(module("len(x) == 3", "True"))
