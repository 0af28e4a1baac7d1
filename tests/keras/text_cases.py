"""``tf.keras.layers.TextVectorization`` and ``tf.keras.utils.text_dataset_from_directory``
as TF 2.21 (tf-keras) runs them (record_tf_layers.py text records,
test_layers_tf_conformance.py replays): standardization (TF's punctuation regex, a custom
callable), whitespace and character splits, the adapted vocabulary's order (frequency, ties
by the larger token) and ``max_tokens``, OOV and mask indices, ``output_sequence_length``
padding and cutting, (batch, 1) and rank-1 inputs, a dataset ``map``, a Sequential starting
with the layer, its config and errors; a directory of class folders read as (text, label)
batches with a seeded validation split, its messages, class names and label modes."""

from rnn_layer_cases import COMMON

TEXT = COMMON + """
import re
import string
texts = ["The cat sat on the mat.", "A dog!  A DOG, the end", "zz yy <br />xx, the cat's",
         "\\tTabs\\nand new-lines ", "", "dog cat mat sat"]
v = tf.keras.layers.TextVectorization(max_tokens=12, output_sequence_length=6)
v.adapt(texts)
full = tf.keras.layers.TextVectorization()
full.adapt(tf.data.Dataset.from_tensor_slices(texts).batch(4))
def custom_standardization(input_data):
    lowercase = tf.strings.lower(input_data)
    stripped_html = tf.strings.regex_replace(lowercase, '<br />', ' ')
    return tf.strings.regex_replace(stripped_html, '[%s]' % re.escape(string.punctuation), '')
custom = tf.keras.layers.TextVectorization(standardize=custom_standardization,
                                           output_sequence_length=4)
custom.adapt(texts)
chars = tf.keras.layers.TextVectorization(split="character", standardize="lower")
chars.adapt(["abca", "Bd"])
nosplit = tf.keras.layers.TextVectorization(split=None, standardize=None)
nosplit.adapt(["x y", "x y", "z"])
ds = tf.data.Dataset.from_tensor_slices(texts).batch(3)
mapped = ds.map(lambda x: v(tf.expand_dims(x, -1)))
model = tf.keras.Sequential([v, tf.keras.layers.Embedding(12, 2)])
model.layers[1].set_weights([np.arange(24, dtype=np.float32).reshape(12, 2)])
given = tf.keras.layers.TextVectorization(vocabulary=["b", "a"], output_sequence_length=3)
config = v.get_config()
out = [list(v.get_vocabulary()), v.vocabulary_size(), v(texts),
       v(tf.constant([[t] for t in texts])),
       v(tf.constant("the cat")), list(full.get_vocabulary()), full(texts),
       list(full.get_vocabulary(include_special_tokens=False)), list(custom.get_vocabulary()),
       custom(texts), list(chars.get_vocabulary()), chars(["abz", "a"]),
       list(nosplit.get_vocabulary()), nosplit(["x y", "q"]), [m for m in mapped],
       model(tf.constant(["the dog sat", "cat"])),
       model.predict(tf.constant(["the dog"]), verbose=0),
       given(["a b c a"]), list(given.get_vocabulary()),
       sorted(config), [(k, config[k]) for k in ("max_tokens", "standardize", "split",
                                                  "output_mode", "output_sequence_length",
                                                  "vocabulary_size")],
       error(lambda: v(tf.constant([["a", "b"]]))),
       error(lambda: tf.keras.layers.TextVectorization(standardize="upper")),
       error(lambda: tf.keras.layers.TextVectorization(output_mode="count",
                                                       output_sequence_length=3))]
"""

DIRECTORY = """
import os
import tempfile
root = tempfile.mkdtemp()
rng = np.random.RandomState(3)
words = ["good", "bad", "film", "plot", "great", "awful"]
for cls, n in (("pos", 7), ("neg", 6), (".hidden", 1), ("unsup", 2)):
    os.makedirs(os.path.join(root, "train", cls))
    for i in range(n):
        with open(os.path.join(root, "train", cls, f"{i}_{i % 4}.txt"), "w") as f:
            f.write(" ".join(rng.choice(words, 5)) + f" #{cls}{i}")
    with open(os.path.join(root, "train", cls, "notes.md"), "w") as f:
        f.write("not a review")
import shutil
shutil.rmtree(os.path.join(root, "train", "unsup"))
train = tf.keras.utils.text_dataset_from_directory(os.path.join(root, "train"), batch_size=4,
                                                   validation_split=0.3, subset="training",
                                                   seed=42)
val = tf.keras.utils.text_dataset_from_directory(os.path.join(root, "train"), batch_size=4,
                                                 validation_split=0.3, subset="validation",
                                                 seed=42)
plain = tf.keras.utils.text_dataset_from_directory(os.path.join(root, "train"), batch_size=5,
                                                   shuffle=False, label_mode="binary")
unlabelled = tf.keras.utils.text_dataset_from_directory(os.path.join(root, "train"),
                                                        labels=None, seed=1, max_length=9)
epochs = [[(t.numpy().tolist(), l.numpy().tolist()) for t, l in train] for _ in range(2)]
out = [epochs, [(t.numpy().tolist(), l.numpy().tolist()) for t, l in val],
       [(t.numpy().tolist(), l.numpy().tolist()) for t, l in plain],
       [t.numpy().tolist() for t in unlabelled], train.class_names, val.class_names,
       str(train.element_spec),
       error(lambda: tf.keras.utils.text_dataset_from_directory(root + "/train",
                                                                validation_split=0.2)),
       error(lambda: tf.keras.utils.text_dataset_from_directory(
           root + "/train", validation_split=0.2, subset="training")),
       error(lambda: tf.keras.utils.text_dataset_from_directory(root + "/train",
                                                                label_mode="sparse")),
       error(lambda: tf.keras.utils.text_dataset_from_directory(
           root + "/train", class_names=["a", "b"]))]
shutil.rmtree(root)
"""

CASES = {
    "TextVectorization: standardize, split, adapted vocabulary order, padding, in a map and "
    "a Sequential, config, errors": TEXT,
    "text_dataset_from_directory: classes, seeded split and shuffles, label modes, errors":
        TEXT.split("out = [")[0] + DIRECTORY,
}
