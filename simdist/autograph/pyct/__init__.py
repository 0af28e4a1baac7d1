"""Python-code tools AutoGraph's converters use (tensorflow/python/autograph/pyct)."""
