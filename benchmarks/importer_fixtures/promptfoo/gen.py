"""promptfoo generating provider for the fixtures: echoes the prompt, or shouts it (style=loud)."""

__all__ = ["call_api"]


def call_api(prompt, options, context):  # noqa: ANN001, ANN201 (promptfoo's provider signature)
    """The prompt itself, or upper-cased with ' !!' when the config's style is 'loud'."""
    style = (options or {}).get("config", {}).get("style", "echo")
    return {"output": prompt.upper() + " !!" if style == "loud" else prompt}
