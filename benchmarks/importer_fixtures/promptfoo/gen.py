def call_api(prompt, options, context):
    style = (options or {}).get("config", {}).get("style", "echo")
    return {"output": prompt.upper() + " !!" if style == "loud" else prompt}
