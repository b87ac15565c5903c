"""Bot tournaments: line-ups rotated through the seats on mirrored deals (schedule), played in
worker processes or on a Dask cluster (play), measured per bot kind (stats) and written as JSON and
Markdown (report).  ``stammtisch tournament`` is its command; docs/tournament.md describes it."""
