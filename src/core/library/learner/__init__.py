"""The learner model: mastery from evidence, spaced review, prerequisite gating."""
