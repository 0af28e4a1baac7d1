"""What TF's ``python/platform`` gives simdist: the "tensorflow" logger (tf_logging)."""
