"""Symbolic planning over the one world domain: PDDL export, grounding, search."""
