"""Python tooling for wormsim: parameter sweeps, trace comparison and plots.

Modules:
  deps      what the entry points need (checked first, one-line error) and which wormsim binary
  atomicio  atomic file writes (temporary file, fsync, rename)
  spec      sweep spec loading, validation and expansion into points
  runner    running one point with the wormsim binary (executed on Dask workers)
  table     the tidy results table: columns, flattening, resume
  progress  the sweep's progress bar (tqdm; a line at a time in logs)
  outputs   checking that a run folder holds one consistent output set (summary.json "outputs")
  runs      reading a run's output folder; dimension-order routes for per-step link loads
  columns   what each table column means and its unit: every plot's labels and captions
  plotting  matplotlib (Agg) helpers: PNG and SVG outputs, atomic saves

Everything here runs with Debian's python3 packages (/usr/bin/python3), or those of
scripts/requirements.txt.
"""

__all__ = ["deps", "atomicio", "spec", "runner", "table", "progress", "outputs", "runs", "columns", "plotting"]
