"""Repair of messy validator outputs into the judgments table (agreeableness paper, section 4, App. B)."""

__all__: list[str] = []
