"""Run Inspect AI offline (mockllm generators and graders) and keep its logs as fixtures.

Usage: ``python inspect_runs.py OUT_DIR`` with ``inspect-ai`` installed. Writes
``inspect_echo-gen.eval`` and ``inspect_loud-gen.eval`` (Inspect's default
format: zip members compressed with zstd) and ``inspect_echo-gen.json``
(``log_format="json"``, the first sample only, re-serialised without
indentation to keep it small: the same JSON values). Each run grades three samples with a panel of three
graders (``model_graded_qa(model=[a, b, c])``; grader b's third reply has no
grade) and one single grader (``model_graded_fact(model=d)``).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

__all__ = ["main"]


def main(out: Path) -> None:
    """Run the three evals and copy their logs to ``out`` under stable names."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import Model, ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import model_graded_fact, model_graded_qa

    def model(name: str, replies: list[str]) -> Model:
        outputs = []
        for reply in replies:
            output = ModelOutput.from_content(model=name, content=reply)
            # set usage so mockllm does not count tokens with tiktoken (which downloads)
            output.usage = ModelUsage(input_tokens=10, output_tokens=3, total_tokens=13)
            outputs.append(output)
        return get_model(f"mockllm/{name}", custom_outputs=outputs)

    samples = [Sample(id=i, input=f"What is {i}+{i}?", target=str(2 * i)) for i in (1, 2, 3)]
    runs = {
        "echo-gen": ["2", "5", "6"],
        "loud-gen": ["2 !!", "4 !!", "7 !!"],
    }
    out.mkdir(parents=True, exist_ok=True)
    for generator, answers, log_format in [
        ("echo-gen", runs["echo-gen"], "eval"),
        ("loud-gen", runs["loud-gen"], "eval"),
        ("echo-gen", runs["echo-gen"], "json"),
    ]:
        panel = [
            model("grader-a", ["The sum is right.\nGRADE: C", "Wrong sum.\nGRADE: I", "GRADE: C"]),
            model("grader-b", ["GRADE: C", "GRADE: C", "no verdict here"]),
            model("grader-c", ["GRADE: I", "GRADE: I", "GRADE: C"]),
        ]
        single = model("grader-d", ["GRADE: C", "GRADE: I", "Looks fine.\nGRADE: C"])
        task = Task(
            name="sums",
            dataset=samples if log_format == "eval" else samples[:1],
            scorer=[model_graded_qa(model=panel), model_graded_fact(model=single)],
        )
        with tempfile.TemporaryDirectory() as logs:
            [log] = eval(
                task,
                model=model(generator, answers),
                log_dir=logs,
                log_format=log_format,
                display="none",
                max_samples=1,
            )
            target = out / f"inspect_{generator}.{log_format}"
            if log_format == "json":
                data = json.loads(Path(log.location).read_text(encoding="utf-8"))
                target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            else:
                shutil.copy(log.location, target)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
