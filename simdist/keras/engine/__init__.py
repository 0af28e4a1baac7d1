"""The Keras engine: Layer, Model, Sequential, Input, data adapters, compile containers."""
