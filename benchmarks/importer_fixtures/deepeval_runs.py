"""Run DeepEval offline with a stub judge and keep its test runs as fixtures.

Usage: ``DEEPEVAL_TELEMETRY_OPT_OUT=YES python deepeval_runs.py OUT_DIR`` with
``deepeval`` installed, run in a scratch directory (DeepEval writes
``.deepeval/.latest_test_run.json`` under the working directory). Writes
``deepeval_echo-gen.json`` and ``deepeval_loud-gen.json`` (the run logged
``hyperparameters={"model": ...}``) and ``deepeval_unrecorded.json`` (no
hyperparameters: the generator must be named on import). Two GEval metrics
share the name "Correctness" and differ in their judge.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

__all__ = ["main"]


def main(out: Path) -> None:
    """Run the three test runs and copy each ``.latest_test_run.json`` to ``out``."""
    from deepeval import evaluate
    from deepeval.metrics import GEval
    from deepeval.models import DeepEvalBaseLLM
    from deepeval.test_case import LLMTestCase, LLMTestCaseParams

    class StubJudge(DeepEvalBaseLLM):  # type: ignore[misc]
        """A judge that passes unshouted answers (the strict one also wants a 4 in the prompt)."""

        def __init__(self, name: str, strict: bool) -> None:
            self.name, self.strict = name, strict

        def load_model(self) -> Any:
            return self

        def _reply(self, prompt: str) -> str:
            if '"steps"' in prompt[-600:] and '"score"' not in prompt[-600:]:
                return json.dumps(
                    {"steps": ["Check the answer is correct.", "Check it is concise."]}
                )
            ok = "!!" not in prompt and (not self.strict or "4" in prompt)
            reason = f"{self.name}: {'correct and concise' if ok else 'shouted or wrong'}"
            return json.dumps({"score": 9 if ok else 3, "reason": reason})

        def generate(self, prompt: str, schema: Any = None) -> Any:
            text = self._reply(prompt)
            return schema(**json.loads(text)) if schema is not None else text

        async def a_generate(self, prompt: str, schema: Any = None) -> Any:
            return self.generate(prompt, schema)

        def get_model_name(self) -> str:
            return self.name

    def metric(judge: str, strict: bool) -> Any:
        return GEval(
            name="Correctness",
            criteria="Is the answer correct?",
            evaluation_params=[LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT],
            model=StubJudge(judge, strict),
            threshold=0.5,
            async_mode=False,
        )

    questions = ["What is 2+2?", "Name a colour.", "What is 3+3?"]
    runs = [
        ("echo-gen", ["4", "Blue", "6"], True),
        ("loud-gen", ["4 !!", "BLUE !!", "5"], True),
        ("unrecorded", ["four", "red", "six"], False),
    ]
    out.mkdir(parents=True, exist_ok=True)
    for generator, answers, record in runs:
        cases = [
            LLMTestCase(name=f"q{i}", input=q, actual_output=a)
            for i, (q, a) in enumerate(zip(questions, answers, strict=True))
        ]
        evaluate(
            test_cases=cases,
            metrics=[metric("stub-judge-lenient", False), metric("stub-judge-strict", True)],
            hyperparameters={"model": generator} if record else None,
        )
        shutil.copy(".deepeval/.latest_test_run.json", out / f"deepeval_{generator}.json")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
