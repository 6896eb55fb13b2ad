"""Runtime: turn handler, job runner, extraction scheduler, activity feed."""
