"""promptfoo grading provider for the fixtures: a scripted judge, lenient or strict by config."""

import json

__all__ = ["call_api"]


def call_api(prompt, options, context):  # noqa: ANN001, ANN201 (promptfoo's provider signature)
    """Pass unshouted outputs (lenient: shouted ones too when about dogs; strict: only 'sleep')."""
    cfg = (options or {}).get("config", {})
    strict = cfg.get("strictness", "lenient")
    text = prompt if isinstance(prompt, str) else json.dumps(prompt)
    loud = "!!" in text
    if strict == "strict":
        ok = not loud and "sleep" in text
    else:
        ok = True if not loud else ("dogs" in text)
    reason = f"{strict} grader: {'meets' if ok else 'fails'} the rubric"
    return {"output": json.dumps({"pass": ok, "score": 1.0 if ok else 0.2, "reason": reason})}
