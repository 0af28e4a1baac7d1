"""``tf.train.Example`` and its parts: protocol buffers of named lists of bytes, floats or
int64s, the records of TFRecord files that ``tf.io.parse_example`` reads.

Glossary:
  BytesList / FloatList / Int64List -- ``value``: a repeated bytes / float / int64 field.
  Feature          -- one of them (the oneof ``kind``: bytes_list 1, float_list 2,
                      int64_list 3).
  Features         -- ``feature``: map<string, Feature> (1).
  Example          -- ``features`` (1).
  FeatureList / FeatureLists / SequenceExample -- a repeated Feature (1); a
                      map<string, FeatureList> (1); ``context`` Features (1) and
                      ``feature_lists`` (2).
Messages as proto_message builds them (wire and text formats as TF's upb protobuf).

Mirrors tensorflow/core/example/feature.proto and example.proto.
"""

from simdist.framework.proto_message import Field, Message


class BytesList(Message):
    """A list of byte strings."""

    FULL_NAME = "tensorflow.BytesList"
    FIELDS = (Field("value", 1, "bytes", "repeated"),)


class FloatList(Message):
    """A list of floats (float32)."""

    FULL_NAME = "tensorflow.FloatList"
    FIELDS = (Field("value", 1, "float", "repeated"),)


class Int64List(Message):
    """A list of int64s."""

    FULL_NAME = "tensorflow.Int64List"
    FIELDS = (Field("value", 1, "int64", "repeated"),)


class Feature(Message):
    """One of a BytesList, a FloatList or an Int64List."""

    FULL_NAME = "tensorflow.Feature"
    FIELDS = (Field("bytes_list", 1, "message", message="tensorflow.BytesList", oneof="kind"),
              Field("float_list", 2, "message", message="tensorflow.FloatList", oneof="kind"),
              Field("int64_list", 3, "message", message="tensorflow.Int64List", oneof="kind"))


class Features(Message):
    """Named Features."""

    FULL_NAME = "tensorflow.Features"
    FIELDS = (Field("feature", 1, "message", "map", message="tensorflow.Feature"),)


class FeatureList(Message):
    """A sequence of Features."""

    FULL_NAME = "tensorflow.FeatureList"
    FIELDS = (Field("feature", 1, "message", "repeated", message="tensorflow.Feature"),)


class FeatureLists(Message):
    """Named FeatureLists."""

    FULL_NAME = "tensorflow.FeatureLists"
    FIELDS = (Field("feature_list", 1, "message", "map", message="tensorflow.FeatureList"),)


class Example(Message):
    """An example: its Features."""

    FULL_NAME = "tensorflow.Example"
    FIELDS = (Field("features", 1, "message", message="tensorflow.Features"),)


class SequenceExample(Message):
    """Context Features and FeatureLists of a sequence."""

    FULL_NAME = "tensorflow.SequenceExample"
    FIELDS = (Field("context", 1, "message", message="tensorflow.Features"),
              Field("feature_lists", 2, "message", message="tensorflow.FeatureLists"))
