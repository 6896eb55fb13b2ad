"""Runtime: the application services of the five systems — turns and their liveness, extraction
scheduling, jobs, imports, graph upkeep, review and learner views, Ask, artifacts and exports,
the activity feed.
"""
