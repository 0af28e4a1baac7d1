# TF's "Classify structured data using Keras preprocessing layers" tutorial
# (site/en/tutorials/structured_data/preprocessing_layers.ipynb): its code cells in order, for
# tests/tutorials. Edits are marked "simdist test:": a synthetic PetFinder-mini table of 60
# rows (tutorial_data.py) as a dict of NumPy columns instead of the download read by pandas
# (pandas is not a dependency: the DataFrame's head is left out, and its column selections,
# drop, shuffle and split are written with NumPy), seeded, 2 epochs instead of 10, the cells'
# last expressions printed, plot_model left out (pydot and graphviz).
import numpy as np
import tensorflow as tf

from tensorflow.keras import layers

from tutorial_data import synthetic_petfinder  # simdist test: not the download

tf.keras.utils.set_random_seed(0)  # simdist test: seeded

# simdist test: was tf.keras.utils.get_file('petfinder_mini.zip', dataset_url, extract=True,
# cache_dir='.') and dataframe = pd.read_csv(csv_file)
dataframe = synthetic_petfinder()

# In the original dataset, `'AdoptionSpeed'` of `4` indicates
# a pet was not adopted.
dataframe['target'] = np.where(dataframe['AdoptionSpeed']==4, 0, 1)

# Drop unused features.
# simdist test: was dataframe.drop(columns=['AdoptionSpeed', 'Description'])
dataframe = {k: v for k, v in dataframe.items() if k not in ('AdoptionSpeed', 'Description')}

# simdist test: was np.split(dataframe.sample(frac=1), [int(0.8*len(dataframe)),
# int(0.9*len(dataframe))]) (an unseeded shuffle)
n = len(dataframe['target'])
order = np.random.RandomState(7).permutation(n)
train, val, test = ({k: v[part] for k, v in dataframe.items()}
                    for part in np.split(order, [int(0.8 * n), int(0.9 * n)]))

print(len(train['target']), 'training examples')  # simdist test: len of a column
print(len(val['target']), 'validation examples')
print(len(test['target']), 'test examples')

def df_to_dataset(dataframe, shuffle=True, batch_size=32):
  df = dict(dataframe)  # simdist test: was dataframe.copy()
  labels = df.pop('target')
  df = {key: value[:,tf.newaxis] for key, value in dataframe.items()}  # simdist test: no .to_numpy()
  ds = tf.data.Dataset.from_tensor_slices((dict(df), labels))
  if shuffle:
    ds = ds.shuffle(buffer_size=len(labels))  # simdist test: was len(dataframe)
  ds = ds.batch(batch_size)
  ds = ds.prefetch(batch_size)
  return ds

batch_size = 5
train_ds = df_to_dataset(train, batch_size=batch_size)

[(train_features, label_batch)] = train_ds.take(1)
print('Every feature:', list(train_features.keys()))
print('A batch of ages:', train_features['Age'])
print('A batch of targets:', label_batch )

def get_normalization_layer(name, dataset):
  # Create a Normalization layer for the feature.
  normalizer = layers.Normalization(axis=None)

  # Prepare a Dataset that only yields the feature.
  feature_ds = dataset.map(lambda x, y: x[name])

  # Learn the statistics of the data.
  normalizer.adapt(feature_ds)

  return normalizer

photo_count_col = train_features['PhotoAmt']
layer = get_normalization_layer('PhotoAmt', train_ds)
print(layer(photo_count_col))  # simdist test: printed

def get_category_encoding_layer(name, dataset, dtype, max_tokens=None):
  # Create a layer that turns strings into integer indices.
  if dtype == 'string':
    index = layers.StringLookup(max_tokens=max_tokens)
  # Otherwise, create a layer that turns integer values into integer indices.
  else:
    index = layers.IntegerLookup(max_tokens=max_tokens)

  # Prepare a `tf.data.Dataset` that only yields the feature.
  feature_ds = dataset.map(lambda x, y: x[name])

  # Learn the set of possible values and assign them a fixed integer index.
  index.adapt(feature_ds)

  # Encode the integer indices.
  encoder = layers.CategoryEncoding(num_tokens=index.vocabulary_size())

  # Apply multi-hot encoding to the indices. The lambda function captures the
  # layer, so you can use them, or include them in the Keras Functional model later.
  return lambda feature: encoder(index(feature))

test_type_col = train_features['Type']
test_type_layer = get_category_encoding_layer(name='Type',
                                              dataset=train_ds,
                                              dtype='string')
print(test_type_layer(test_type_col))  # simdist test: printed

test_age_col = train_features['Age']
test_age_layer = get_category_encoding_layer(name='Age',
                                             dataset=train_ds,
                                             dtype='int64',
                                             max_tokens=5)
print(test_age_layer(test_age_col))  # simdist test: printed

batch_size = 256
train_ds = df_to_dataset(train, batch_size=batch_size)
val_ds = df_to_dataset(val, shuffle=False, batch_size=batch_size)
test_ds = df_to_dataset(test, shuffle=False, batch_size=batch_size)

all_inputs = {}
encoded_features = []

# Numerical features.
for header in ['PhotoAmt', 'Fee']:
  numeric_col = tf.keras.Input(shape=(1,), name=header)
  normalization_layer = get_normalization_layer(header, train_ds)
  encoded_numeric_col = normalization_layer(numeric_col)
  all_inputs[header] = numeric_col
  encoded_features.append(encoded_numeric_col)

age_col = tf.keras.Input(shape=(1,), name='Age', dtype='int64')

encoding_layer = get_category_encoding_layer(name='Age',
                                             dataset=train_ds,
                                             dtype='int64',
                                             max_tokens=5)
encoded_age_col = encoding_layer(age_col)
all_inputs['Age'] = age_col
encoded_features.append(encoded_age_col)

categorical_cols = ['Type', 'Color1', 'Color2', 'Gender', 'MaturitySize',
                    'FurLength', 'Vaccinated', 'Sterilized', 'Health', 'Breed1']

for header in categorical_cols:
  categorical_col = tf.keras.Input(shape=(1,), name=header, dtype='string')
  encoding_layer = get_category_encoding_layer(name=header,
                                               dataset=train_ds,
                                               dtype='string',
                                               max_tokens=5)
  encoded_categorical_col = encoding_layer(categorical_col)
  all_inputs[header] = categorical_col
  encoded_features.append(encoded_categorical_col)

print([f.shape for f in encoded_features])  # simdist test: the shapes printed

all_features = tf.keras.layers.concatenate(encoded_features)
x = tf.keras.layers.Dense(32, activation="relu")(all_features)
x = tf.keras.layers.Dropout(0.5)(x)
output = tf.keras.layers.Dense(1)(x)

model = tf.keras.Model(all_inputs, output)

model.compile(optimizer='adam',
              loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
              metrics=["accuracy"],
              run_eagerly=True)

model.fit(train_ds, epochs=2, validation_data=val_ds)  # simdist test: was 10 epochs

result = model.evaluate(test_ds, return_dict=True)
print(result)

model.save('my_pet_classifier.keras')
reloaded_model = tf.keras.models.load_model('my_pet_classifier.keras')

sample = {
    'Type': 'Cat',
    'Age': 3,
    'Breed1': 'Tabby',
    'Gender': 'Male',
    'Color1': 'Black',
    'Color2': 'White',
    'MaturitySize': 'Small',
    'FurLength': 'Short',
    'Vaccinated': 'No',
    'Sterilized': 'No',
    'Health': 'Healthy',
    'Fee': 100,
    'PhotoAmt': 2,
}

input_dict = {name: tf.convert_to_tensor([value]) for name, value in sample.items()}
predictions = reloaded_model.predict(input_dict)
prob = tf.nn.sigmoid(predictions[0])

print(
    "This particular pet had a %.1f percent probability "
    "of getting adopted." % (100 * prob[0])  # simdist test: prob[0] (TF 2.21's float()
)                                           # of a [1] tensor raises TypeError)
