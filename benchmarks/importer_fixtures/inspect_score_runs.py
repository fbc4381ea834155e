"""Run Inspect AI offline with numeric (1-5) graders and keep its logs as score fixtures.

Usage: ``python inspect_score_runs.py OUT_DIR`` with ``inspect-ai`` installed. Writes
``inspect_scores_echo-gen.eval`` and ``inspect_scores_loud-gen.eval``: three samples
each, graded by two Likert scorers (``likert(model=...)``, a custom scorer as Inspect's
docs write them: the grader's reply ``RATING: k`` becomes ``Score(value=k)``, a reply
without a rating ``Score.unscored``), graders ``mockllm/rater-a`` and ``mockllm/rater-b``.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

__all__ = ["main"]


def main(out: Path) -> None:
    """Run the two evals and copy their logs to ``out`` under stable names."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import Model, ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import Score, Target, mean, scorer
    from inspect_ai.solver import TaskState

    def model(name: str, replies: list[str]) -> Model:
        outputs = []
        for reply in replies:
            output = ModelOutput.from_content(model=name, content=reply)
            # set usage so mockllm does not count tokens with tiktoken (which downloads)
            output.usage = ModelUsage(input_tokens=10, output_tokens=3, total_tokens=13)
            outputs.append(output)
        return get_model(f"mockllm/{name}", custom_outputs=outputs)

    graders: dict[str, Model] = {}

    @scorer(metrics=[mean()])
    def likert(model: str):  # type: ignore[no-untyped-def]
        async def score(state: TaskState, target: Target) -> Score:
            reply = await graders[model].generate(
                f"Rate this answer from 1 to 5, ending with RATING: k.\n{state.output.completion}"
            )
            found = re.search(r"RATING:\s*([1-5])", reply.completion)
            if found is None:
                return Score.unscored(reason="grade_parse_failure", explanation=reply.completion)
            return Score(value=float(found.group(1)), explanation=reply.completion)

        return score

    samples = [Sample(id=i, input=f"What is {i}+{i}?", target=str(2 * i)) for i in (1, 2, 3)]
    runs = {
        "echo-gen": (["2", "5", "6"], ["RATING: 5", "RATING: 2", "RATING: 4"], ["RATING: 4"] * 3),
        "loud-gen": (["2 !!", "4 !!", "7 !!"], ["RATING: 3", "no idea", "RATING: 1"],
                     ["RATING: 3", "RATING: 3", "RATING: 2"]),
    }  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    for generator, (answers, replies_a, replies_b) in runs.items():
        graders["mockllm/rater-a"] = model("rater-a", replies_a)
        graders["mockllm/rater-b"] = model("rater-b", replies_b)
        task = Task(
            name="sums_rated",
            dataset=samples,
            scorer=[likert(model="mockllm/rater-a"), likert(model="mockllm/rater-b")],
        )
        with tempfile.TemporaryDirectory() as logs:
            [log] = eval(
                task,
                model=model(generator, answers),
                log_dir=logs,
                display="none",
                max_samples=1,
            )
            shutil.copy(log.location, out / f"inspect_scores_{generator}.eval")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
