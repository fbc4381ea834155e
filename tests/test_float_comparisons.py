"""No test compares floats from two code paths exactly: AVX-512 BLAS kernels round differently.

An exact comparison (``np.array_equal``, ``np.testing.assert_array_equal`` or
``assert_equal``, ``.eq(``, ``pd.testing.assert_*_equal`` without
``check_exact``/``rtol``/``atol``, ``==``/``!=`` against a float literal) passes
only with a ``# exact: <reason>`` pragma on the line its statement starts: both
sides from one code path on one input (a seed, a copy, a file round trip,
counts, labels, a value set by construction). Values from two paths get a
tolerance chosen from the computation instead.
"""

import ast
import re
from pathlib import Path

EXACT_CALLS = {"array_equal", "assert_array_equal", "assert_equal", "eq"}
FRAME_CALLS = {"assert_frame_equal", "assert_series_equal", "assert_index_equal"}
TOLERANCES = {"check_exact", "rtol", "atol"}
PRAGMA = re.compile(r"#\s*exact:(.*)$")
TESTS = Path(__file__).parent


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _is_exact(node: ast.AST) -> bool:
    if isinstance(node, ast.Call):
        name = _called(node.func)
        if name in EXACT_CALLS:
            return True
        return name in FRAME_CALLS and not {k.arg for k in node.keywords} & TOLERANCES
    if isinstance(node, ast.Compare) and any(isinstance(o, ast.Eq | ast.NotEq) for o in node.ops):
        sides = [node.left, *node.comparators]
        return any(isinstance(s, ast.Constant) and isinstance(s.value, float) for s in sides)
    return False


def unexplained_exact_comparisons(source: str) -> list[str]:
    """Lines of ``source`` with an exact float comparison and no ``# exact: <reason>`` pragma."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if _is_exact(node):
            line = lines[node.lineno - 1]
            pragma = PRAGMA.search(line)
            if pragma is None or not pragma.group(1).strip():
                found.append(f"{node.lineno}: {line.strip()}")
    return sorted(set(found))


def test_every_exact_comparison_in_the_tests_says_why_it_is_exact() -> None:
    found = {
        f"{path.relative_to(TESTS)}:{hit}"
        for path in sorted(TESTS.rglob("*.py"))
        for hit in unexplained_exact_comparisons(path.read_text())
    }
    assert not found, "exact comparisons without '# exact: <reason>':\n" + "\n".join(sorted(found))


def test_the_checker_flags_exact_comparisons_and_passes_them_with_a_reason() -> None:
    flagged = [
        "assert x.eq(0).all()",
        "pd.testing.assert_frame_equal(a, b)",
        "assert np.array_equal(a, b)",
        "assert a == 0.3",
    ]
    for statement in flagged:
        assert unexplained_exact_comparisons(statement), statement
        assert not unexplained_exact_comparisons(statement + "  # exact: set by construction")
        assert unexplained_exact_comparisons(statement + "  # exact:"), "an empty reason"
    assert not unexplained_exact_comparisons("assert n == 3")
    assert not unexplained_exact_comparisons("pd.testing.assert_frame_equal(a, b, rtol=1e-12)")
