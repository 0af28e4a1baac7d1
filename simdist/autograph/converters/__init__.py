"""AutoGraph's source transformations, applied in TF's order by simdist.autograph.impl."""
