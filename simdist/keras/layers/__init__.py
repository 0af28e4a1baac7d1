"""``tf.keras.layers`` (names only)."""

from simdist.keras.engine.base_layer import Layer
from simdist.keras.engine.input_layer import Input, InputLayer
from simdist.keras.layers import experimental
from simdist.keras.layers import tf_op_layer as _tf_op_layer  # noqa: F401 - registers op layers
from simdist.keras.layers.activation import LeakyReLU, ReLU, Softmax
from simdist.keras.layers.conv2d_transpose import Conv2DTranspose, Convolution2DTranspose
from simdist.keras.layers.convolutional import Conv1D, Conv2D, Convolution2D
from simdist.keras.layers.core import Activation, Dense, Dropout, Flatten
from simdist.keras.layers.dense_attention import AdditiveAttention, Attention
from simdist.keras.layers.einsum_dense import EinsumDense
from simdist.keras.layers.embedding import Embedding
from simdist.keras.layers.lambda_layer import Lambda
from simdist.keras.layers.layer_normalization import LayerNormalization
from simdist.keras.layers.masking import Masking
from simdist.keras.layers.merging import Add, Concatenate, add, concatenate
from simdist.keras.layers.merging_elementwise import (
    Average,
    Maximum,
    Minimum,
    Multiply,
    Subtract,
    average,
    maximum,
    minimum,
    multiply,
    subtract,
)
from simdist.keras.layers.multi_head_attention import MultiHeadAttention
from simdist.keras.layers.normalization import BatchNormalization
from simdist.keras.layers.pooling import (
    AveragePooling2D,
    AvgPool2D,
    GlobalAveragePooling1D,
    GlobalAveragePooling2D,
    GlobalAvgPool1D,
    GlobalAvgPool2D,
    GlobalMaxPool2D,
    GlobalMaxPooling2D,
    MaxPool2D,
    MaxPooling2D,
)
from simdist.keras.layers.preprocessing.category_encoding import CategoryEncoding
from simdist.keras.layers.preprocessing.discretization import Discretization
from simdist.keras.layers.preprocessing.hashing import Hashing
from simdist.keras.layers.preprocessing.image_preprocessing import (
    CenterCrop,
    RandomContrast,
    RandomCrop,
    RandomFlip,
    Rescaling,
    Resizing,
)
from simdist.keras.layers.preprocessing.image_transforms import (
    RandomRotation,
    RandomTranslation,
    RandomZoom,
)
from simdist.keras.layers.preprocessing.integer_lookup import IntegerLookup
from simdist.keras.layers.preprocessing.normalization import Normalization
from simdist.keras.layers.preprocessing.random_brightness import RandomBrightness
from simdist.keras.layers.preprocessing.random_height_width import RandomHeight, RandomWidth
from simdist.keras.layers.preprocessing.string_lookup import StringLookup
from simdist.keras.layers.preprocessing.text_vectorization import TextVectorization
from simdist.keras.layers.reshaping import Reshape
from simdist.keras.layers.rnn.base_rnn import RNN
from simdist.keras.layers.rnn.bidirectional import Bidirectional
from simdist.keras.layers.rnn.gru import GRU, GRUCell
from simdist.keras.layers.rnn.lstm import LSTM
from simdist.keras.layers.rnn.lstm_cell import LSTMCell
from simdist.keras.layers.rnn.simple_rnn import SimpleRNN, SimpleRNNCell
from simdist.keras.layers.rnn.stacked_rnn_cells import StackedRNNCells
from simdist.keras.layers.rnn.time_distributed import TimeDistributed
from simdist.keras.layers.up_sampling import UpSampling2D
