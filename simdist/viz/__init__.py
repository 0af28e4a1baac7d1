"""Pure functions from simdist's runtime objects to plotly figures and frames (the app's
drawing layer; no Streamlit here).

Glossary:
  topology        -- presets sized for n devices, and where to draw their nodes.
  sync            -- one real all-reduce (SyncRun) and its state at any step.
  sync_figures    -- topology with the step's transfers, buffers, step time, totals.
  ulp             -- how far two float results are apart, in units in the last place.
  sharding        -- the distributed dataset's split plan as figures.
  loss, mixed_precision, loss_figures -- compute_average_loss vs the classic mistake;
                     dynamic loss scaling and float16 underflow.
  timeline        -- model.fit under a strategy: loss curve, Gantt chart, scaling.
  scaling         -- nccl-tests style time / busbw curves from the cost model.
  controls        -- every page's controls (ranges, defaults, URL parsing) as data.
"""
