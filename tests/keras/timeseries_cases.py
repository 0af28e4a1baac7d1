"""tf.keras.utils.timeseries_dataset_from_array as TF 2.21 (tf-keras) gives it, recorded by
record_tf_layers.py (group ``timeseries``) and replayed by test_layers_tf_conformance.py:
windows with strides and sampling rates, targets, start and end indices, seeded shuffles,
unbatched datasets and the argument errors.
Snippets as in tests/tf_snippets.py."""

DATA = "data = np.arange(40, dtype=np.float32).reshape(20, 2)\n"

CASES = {
    "timeseries windows with targets": DATA + """
ds = tf.keras.utils.timeseries_dataset_from_array(
    data, np.arange(100, 120), sequence_length=4, sequence_stride=3, sampling_rate=2,
    batch_size=2)
out = [list(ds), ds.element_spec[0].shape]
""",
    "timeseries windows without targets, indexed": DATA + """
ds = tf.keras.utils.timeseries_dataset_from_array(
    data, None, sequence_length=3, start_index=2, end_index=15, batch_size=None)
out = list(ds)
""",
    "timeseries windows shuffled": DATA + """
ds = tf.keras.utils.timeseries_dataset_from_array(
    data[:, 0], data[:, 1], sequence_length=5, shuffle=True, seed=3, batch_size=4)
out = list(ds)
""",
    "timeseries negative start_index": DATA + """
out = tf.keras.utils.timeseries_dataset_from_array(data, None, 3, start_index=-1)
""",
    "timeseries end_index before start_index": DATA + """
out = tf.keras.utils.timeseries_dataset_from_array(data, None, 3, start_index=5, end_index=4)
""",
    "timeseries sampling_rate of 0": DATA + """
out = tf.keras.utils.timeseries_dataset_from_array(data, None, 3, sampling_rate=0)
""",
    "timeseries stride past the data": DATA + """
out = tf.keras.utils.timeseries_dataset_from_array(data, None, 3, sequence_stride=20)
""",
}
