"""Combining many judges' votes: majority, supermajority and minority veto (agreeableness paper, section 4)."""

__all__: list[str] = []
