"""Predicate summaries for assertion-guided pruning (mode ``dpor-ag``)."""
