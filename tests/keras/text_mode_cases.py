"""``tf.keras.layers.TextVectorization``'s other output modes and token options as TF 2.21
(tf-keras) runs them (record_tf_layers.py text_modes records, test_layers_tf_conformance.py
replays): 'multi_hot' ('binary'), 'count' and 'tf_idf' ('tf-idf') outputs of an adapted or
given vocabulary (idf weights learned per document or given), ``pad_to_max_tokens``,
``ngrams`` (an int or a tuple of widths) in the vocabulary and the outputs, a callable
``split``, a model and a dataset ``map`` with a multi-hot layer, configs and errors; the
Python types of ``get_vocabulary()``'s tokens; ``ragged=True`` and ``output_mode=None``."""

from rnn_layer_cases import COMMON

MODES = COMMON + """
texts = ["The cat sat on the mat.", "A dog!  A DOG, the end", "the cat the cat", "",
         "dog cat mat sat"]
out = []
for mode in ("multi_hot", "count", "tf_idf", "binary", "tf-idf"):
    v = tf.keras.layers.TextVectorization(max_tokens=7, output_mode=mode)
    v.adapt(texts)
    out.append([list(v.get_vocabulary()), v(texts), v(tf.constant([[t] for t in texts])),
                v(["cat sat", "zebra"]), v.get_config()["output_mode"]])
padded = tf.keras.layers.TextVectorization(max_tokens=9, output_mode="count",
                                           pad_to_max_tokens=True)
padded.adapt(texts)
given = tf.keras.layers.TextVectorization(vocabulary=["cat", "dog", "the"],
                                          idf_weights=[0.5, 0.25, 2.0], output_mode="tf_idf")
idf_pad = tf.keras.layers.TextVectorization(max_tokens=8, output_mode="tf_idf",
                                            pad_to_max_tokens=True)
idf_pad.adapt(tf.data.Dataset.from_tensor_slices(texts).batch(2))
out += [padded(texts), padded.compute_output_shape((None,)), list(padded.get_vocabulary()),
        given(texts), list(given.get_vocabulary()), idf_pad(texts),
        padded.get_config()["pad_to_max_tokens"],
        error(lambda: tf.keras.layers.TextVectorization(output_mode="count",
                                                        pad_to_max_tokens=True)),
        error(lambda: tf.keras.layers.TextVectorization(output_mode="multi_hot")(texts)),
        error(lambda: tf.keras.layers.TextVectorization(output_mode="count", ragged=True)),
        error(lambda: tf.keras.layers.TextVectorization(output_mode="one_hot"))]
"""

NGRAMS = COMMON + """
texts = ["the cat sat on the mat", "a dog a dog", "cat", "", "the cat sat"]
bigrams = tf.keras.layers.TextVectorization(ngrams=2)
bigrams.adapt(texts)
widths = tf.keras.layers.TextVectorization(ngrams=(1, 3), max_tokens=12,
                                           output_mode="multi_hot")
widths.adapt(texts)
only = tf.keras.layers.TextVectorization(ngrams=(2,), output_sequence_length=4)
only.adapt(texts)
def split_on_commas(text):
    return tf.strings.split(text, sep=",")
commas = tf.keras.layers.TextVectorization(split=split_on_commas, standardize=None,
                                           output_mode="count")
commas.adapt(["red,green,blue", "green,,red", "blue"])
commas_int = tf.keras.layers.TextVectorization(split=split_on_commas, ngrams=2)
commas_int.adapt(["a,b,c", "b,c"])
hot = tf.keras.layers.TextVectorization(max_tokens=6, output_mode="multi_hot")
hot.adapt(texts)
model = tf.keras.Sequential([tf.keras.Input(shape=(1,), dtype=tf.string), hot,
                             tf.keras.layers.Dense(1)])
model.layers[-1].set_weights([np.arange(6, dtype=np.float32).reshape(6, 1) / 10,
                              np.array([0.5], np.float32)])
mapped = tf.data.Dataset.from_tensor_slices(texts).batch(2).map(hot)
config = widths.get_config()
out = [list(bigrams.get_vocabulary()), bigrams(texts), list(widths.get_vocabulary()),
       widths(texts), list(only.get_vocabulary()), only(texts),
       list(commas.get_vocabulary()), commas(["red,red,blue", "purple"]),
       list(commas_int.get_vocabulary()), commas_int(["a,b,c,d"]),
       model(tf.constant([[t] for t in texts])), model.output_shape,
       model.predict(tf.constant([["the cat"], ["dog"]]), verbose=0),
       [m for m in mapped], config["ngrams"], bigrams.get_config()["ngrams"],
       error(lambda: tf.keras.layers.TextVectorization(ngrams="2")),
       error(lambda: tf.keras.layers.TextVectorization(ngrams=[1, 2]))]
"""

VOCABULARY_TYPES = """
def kinds(layer, special=True):
    vocab = layer.get_vocabulary(special)
    return [vocab, [type(t).__name__ for t in vocab]]
texts = ["b a c", "c b", "c"]
out = []
for kw in ({}, {"output_mode": "multi_hot"}, {"max_tokens": 3}):
    layer = tf.keras.layers.TextVectorization(**kw)
    layer.adapt(texts)
    out += [kinds(layer), kinds(layer, False)]
out += [kinds(tf.keras.layers.TextVectorization(vocabulary=["x", "y"])),
        kinds(tf.keras.layers.TextVectorization(vocabulary=np.array(["x", "y"]))),
        kinds(tf.keras.layers.TextVectorization())]
"""

RAGGED = COMMON + """
texts = ["The cat sat on the mat.", "A dog!  A DOG", ""]
v = tf.keras.layers.TextVectorization(ragged=True)
v.adapt(texts)
tokens = tf.keras.layers.TextVectorization(output_mode=None)
chars = tf.keras.layers.TextVectorization(output_mode=None, split="character",
                                          standardize="lower")
ds = tf.data.Dataset.from_tensor_slices(texts).batch(2).map(v)
out = [str(x) for x in [
    v(texts), v(tf.constant([[t] for t in texts])), v("the cat"), tokens(texts),
    tokens("A b"), tf.keras.layers.TextVectorization(output_mode=None, split=None)(texts),
    chars(["Ab", "c"]), list(ds), ds.element_spec, v.get_config()["ragged"]]]
try:
    tf.keras.layers.TextVectorization(ragged=True, output_sequence_length=3)
except ValueError as e:
    out.append(str(e))
"""

CASES = {
    "TextVectorization: ragged=True gives a RaggedTensor of indices, output_mode=None the "
    "standardized strings or their tokens": RAGGED,
    "TextVectorization.get_vocabulary: adapted and given tokens are np.str_, the mask and OOV "
    "tokens str": VOCABULARY_TYPES,
    "TextVectorization: multi_hot, count and tf_idf outputs, pad_to_max_tokens, given idf "
    "weights, errors": MODES,
    "TextVectorization: ngrams, a callable split, a multi-hot layer in a model and a map":
        NGRAMS,
}
