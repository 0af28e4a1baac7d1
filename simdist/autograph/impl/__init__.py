"""AutoGraph's entry points (tensorflow/python/autograph/impl)."""
