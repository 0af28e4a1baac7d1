"""tf.data.experimental.CsvDataset and make_csv_dataset as TF 2.21 gives them, recorded by
record_tf_data_guide.py into fixtures/tf_csv.json and replayed by
test_data_guide_tf_conformance.py: fields, quotes, defaults, NA values, selected and excluded
columns, headers, column names and types inferred, labels, and TF's errors (paths printed
relative to the files' temporary directory). Snippets as in tests/tf_snippets.py."""

FILES = """
import os, re, tempfile
tf.random.set_seed(None)
d = tempfile.mkdtemp()

def write(name, text):
    path = os.path.join(d, name)
    with open(path, "w", newline="") as f:
        f.write(text)
    return path

def rel(x):
    x = x.decode() if isinstance(x, bytes) else x
    return x.replace(d, "D") if isinstance(x, str) else x

def error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        text = rel(str(e)).split("}} ")[-1].split(" [Op:")[0]
        return [type(e).__name__, re.sub(r"<class '[^']*'>", "<class>", text)]
    return None

def rows(ds):
    return [[rel(v) for v in r] if isinstance(r, tuple) else rel(r)
            for r in ds.as_numpy_iterator()]

MISSING = write("missing.csv", "1,2,3,4\\n,2,3,4\\n1,,3,4\\n1,2,,4\\n1,2,3,\\n,,,\\n")
MIXED = write("mixed.csv", 'abcdefg,4.28E10,5.55E6,12\\nhijklmn,-5.3E14,,2\\n')
"""

TITANIC = FILES + """
TEXT = ("survived,sex,age,n_siblings_spouses,parch,fare,class,deck,embark_town,alone\\n"
        "0,male,22.0,1,0,7.25,Third,unknown,Southampton,n\\n"
        "1,female,38.0,1,0,71.2833,First,C,Cherbourg,n\\n"
        "1,female,26.0,0,0,7.925,Third,unknown,Southampton,y\\n"
        "1,female,35.0,1,0,53.1,First,C,Southampton,n\\n"
        "0,male,28.0,0,0,8.4583,Third,unknown,Queenstown,y\\n"
        "0,male,2.0,3,1,21.075,Third,unknown,Southampton,n\\n"
        "1,female,27.0,0,2,11.1333,Third,unknown,Southampton,n\\n")
TITANIC = write("titanic.csv", TEXT)

def batches(ds, n):
    out = []
    for element in ds.take(n):
        features, *label = element if isinstance(element, tuple) else (element,)
        out.append([[k, rel(v.numpy())] for k, v in features.items()] +
                   [x.numpy() for x in label])
    return out
"""

CASES = {
    "CsvDataset of the guide's missing values": FILES + """
ds = tf.data.experimental.CsvDataset(MISSING, [999, 999, 999, 999])
sel = tf.data.experimental.CsvDataset(MISSING, [999, 999], select_cols=[1, 3])
out = [rows(ds), repr(ds.element_spec), ds.cardinality(),
       rows(ds.map(lambda *items: tf.stack(items))), rows(sel)]
""",
    "CsvDataset types and required fields": FILES + """
ds = tf.data.experimental.CsvDataset(
    MIXED, [tf.float32, tf.constant([0.0], dtype=tf.float32), tf.int32], select_cols=[1, 2, 3])
full = tf.data.experimental.CsvDataset(
    MIXED, [tf.string, tf.float64, tf.constant(-1.5, tf.float64), tf.int64])
out = [rows(ds), repr(ds.element_spec), rows(full), repr(full.element_spec)]
""",
    "CsvDataset a required field missing": FILES + """
out = error_of(lambda: rows(tf.data.experimental.CsvDataset(MISSING, [tf.int32] * 4)))
""",
    "CsvDataset quotes": FILES + '''
path = write("q.csv", '"a,b",1\\n"he said ""hi""",2\\n"two\\nlines",3\\n"",4\\nplain"q,5\\n')
ds = tf.data.experimental.CsvDataset(path, ["", tf.int32])
out = [rows(ds.take(4)), error_of(lambda: rows(ds))]
''',
    "CsvDataset without quote handling": FILES + """
path = write("q.csv", '"a",1\\nx"y,2\\n')
out = rows(tf.data.experimental.CsvDataset(path, [tf.string, tf.int32], use_quote_delim=False))
""",
    "CsvDataset a bad quote": FILES + """
path = write("q.csv", '"a"b,1\\n')
out = error_of(lambda: rows(tf.data.experimental.CsvDataset(path, [tf.string, tf.int32])))
""",
    "CsvDataset an unclosed quote": FILES + """
path = write("q.csv", '"ab,1\\n')
out = error_of(lambda: rows(tf.data.experimental.CsvDataset(path, [tf.string, tf.int32])))
""",
    "CsvDataset header, delimiters, line endings, NA": FILES + """
path = write("h.csv", "a;b;c\\r\\n1;NA;x\\r\\n2; 3 ;y\\r4;5;\\r\\n")
ds = tf.data.experimental.CsvDataset(path, [0, tf.constant(7), tf.constant("z")], header=True,
                                     field_delim=";", na_value="NA")
last = write("last.csv", "1,2\\n3,4")
blank = write("blank.csv", "1,2\\n\\n3,4\\n")
out = [rows(ds), rows(tf.data.experimental.CsvDataset(last, [0, 0])),
       error_of(lambda: rows(tf.data.experimental.CsvDataset(blank, [0, 0])))]
""",
    "CsvDataset numbers": FILES + """
path = write("n.csv", " 12 , 1.5 ,1e3,-0\\n+7,.5,inf,-nan\\n2147483647,-3.,1E-2,0x10\\n"
                     "-07,1e50,Infinity,x\\n\\t3,0x1p3,NaN,y\\n")
ds = tf.data.experimental.CsvDataset(path, [tf.int32, tf.float32, tf.float64, tf.string])
big = write("big.csv", "9223372036854775807,1e-50,-1e400\\n")
out = [rows(ds), rows(tf.data.experimental.CsvDataset(big, [tf.int64, tf.float32, 0.0]))]
""",
    "CsvDataset an int field that is a float": FILES + """
path = write("n.csv", "1.5\\n")
out = error_of(lambda: rows(tf.data.experimental.CsvDataset(path, [tf.int32])))
""",
    "CsvDataset an int32 field out of range": FILES + """
path = write("n.csv", "2147483648\\n")
out = error_of(lambda: rows(tf.data.experimental.CsvDataset(path, [tf.int32])))
""",
    "CsvDataset a float field that is text": FILES + """
path = write("n.csv", "abc\\n")
out = error_of(lambda: rows(tf.data.experimental.CsvDataset(path, [tf.float32])))
""",
    "CsvDataset too few fields": FILES + """
out = [error_of(lambda: rows(tf.data.experimental.CsvDataset(MIXED, [0, 0, 0]))),
       error_of(lambda: rows(tf.data.experimental.CsvDataset(MISSING, [0, 0, 0])))]
""",
    "CsvDataset too many fields": FILES + """
out = [error_of(lambda: rows(tf.data.experimental.CsvDataset(MIXED, [0.0] * 5))),
       error_of(lambda: rows(tf.data.experimental.CsvDataset(MISSING, [0.0] * 5)))]
""",
    "CsvDataset exclude_cols and several files": FILES + """
ds = tf.data.experimental.CsvDataset([MISSING, MISSING], [0, 0], exclude_cols=[0, 2])
out = [rows(ds), rows(tf.data.experimental.CsvDataset(tf.constant([MIXED]), ["", 0.0],
                                                      select_cols=[0, 2]))]
""",
    "CsvDataset select_cols unsorted": FILES + """
out = error_of(lambda: rows(tf.data.experimental.CsvDataset(MISSING, [0, 0],
                                                            select_cols=[3, 1])))
""",
    "CsvDataset select_cols and exclude_cols": FILES + """
out = [error_of(lambda: tf.data.experimental.CsvDataset(MISSING, [0, 0], select_cols=[0, 1],
                                                       exclude_cols=[2])),
       error_of(lambda: tf.data.experimental.CsvDataset(MISSING, [0, 0], select_cols=[-1, 0])),
       error_of(lambda: tf.data.experimental.CsvDataset(MISSING, [0, 0], exclude_cols=[1, 1])),
       error_of(lambda: tf.data.experimental.CsvDataset(MISSING, [0], field_delim="ab")),
       error_of(lambda: tf.data.experimental.CsvDataset(MISSING, [tf.constant([1, 2])])),
       error_of(lambda: tf.data.experimental.CsvDataset(MISSING, [tf.constant([[1]])]))]
""",
    "CsvDataset select_cols of another length": FILES + """
out = error_of(lambda: rows(tf.data.experimental.CsvDataset(MISSING, [0, 0],
                                                            select_cols=[0, 1, 2])))
""",
    "CsvDataset select_cols past the last column": FILES + """
out = error_of(lambda: rows(tf.data.experimental.CsvDataset(MISSING, [0, 0],
                                                            select_cols=[1, 7])))
""",
    "CsvDataset errors name the output field": FILES + """
path = write("s.csv", "1,x,3\\n4,5,\\n")
out = [error_of(lambda: rows(tf.data.experimental.CsvDataset(path, [0, 0], select_cols=[1, 2]))),
       error_of(lambda: rows(tf.data.experimental.CsvDataset(path, [0, tf.int32],
                                                            select_cols=[0, 2]).skip(1)))]
""",
    "CsvDataset a quote inside a quoted field": FILES + """
path = write("q.csv", '"a"b",1\\n')
out = error_of(lambda: rows(tf.data.experimental.CsvDataset(path, ["", 0])))
""",
    "CsvDataset a record default of another type": FILES + """
out = error_of(lambda: tf.data.experimental.CsvDataset(MISSING, [tf.bool]))
""",
    "CsvDataset a missing file": FILES + """
out = error_of(lambda: rows(tf.data.experimental.CsvDataset(os.path.join(d, "no.csv"), [0])))
""",
    "make_csv_dataset infers names and types": TITANIC + """
ds = tf.data.experimental.make_csv_dataset(TITANIC, batch_size=3, label_name="survived",
                                           shuffle=False, num_epochs=1)
out = [repr(ds.element_spec), batches(ds, 3), ds.cardinality()]
""",
    "make_csv_dataset select_columns": TITANIC + """
ds = tf.data.experimental.make_csv_dataset(TITANIC, batch_size=4, label_name="survived",
                                           select_columns=['class', 'fare', 'survived'],
                                           shuffle=False)
out = [repr(ds.element_spec), batches(ds, 3), ds.cardinality()]
""",
    "make_csv_dataset shuffled with a seed": TITANIC + """
ds = tf.data.experimental.make_csv_dataset(TITANIC, batch_size=2, shuffle_seed=5,
                                           select_columns=[0, 2])
out = batches(ds, 6)
""",
    "make_csv_dataset column defaults, no header": TITANIC + """
path = write("nh.csv", "1,2.5,a\\n,3.5,b\\n3,,c\\n")
ds = tf.data.experimental.make_csv_dataset(
    path, batch_size=2, column_names=["i", "f", "s"], column_defaults=[-1, tf.float64, "?"],
    header=False, shuffle=False, num_epochs=1, label_name="s")
ok = tf.data.experimental.make_csv_dataset(
    path, batch_size=2, column_names=["i", "f", "s"], column_defaults=[-1, 0.0, "?"],
    header=False, shuffle=False, num_epochs=2)
out = error_of(lambda: batches(ds, 2)), repr(ds.element_spec), batches(ok, 3)
""",
    "make_csv_dataset several files": TITANIC + """
for i in range(3):
    write(f"part{i}.csv", "a,b\\n" + "".join(f"{i}{j},{j}.5\\n" for j in range(3)))
ds = tf.data.experimental.make_csv_dataset(os.path.join(d, "part*.csv"), batch_size=4,
                                           shuffle=False, num_epochs=1)
par = tf.data.experimental.make_csv_dataset(os.path.join(d, "part*.csv"), batch_size=4,
                                            shuffle=False, num_epochs=1, num_parallel_reads=2)
out = [batches(ds, 3), batches(par, 3), repr(ds.element_spec)]
""",
    "make_csv_dataset type inference": TITANIC + """
path = write("t.csv", "a,b,c,d,e,f\\n1,1,1,,x,3000000000\\n2,2.5,1e300,,1,1\\n,3,2,,2,2\\n")
ds = tf.data.experimental.make_csv_dataset(path, batch_size=3, shuffle=False, num_epochs=1)
few = tf.data.experimental.make_csv_dataset(path, batch_size=3, shuffle=False, num_epochs=1,
                                            num_rows_for_inference=1)
out = [repr(ds.element_spec), batches(ds, 1), repr(few.element_spec)]
""",
    "make_csv_dataset no files": TITANIC + """
out = error_of(lambda: tf.data.experimental.make_csv_dataset(os.path.join(d, "*.zzz"), 2))
""",
    "make_csv_dataset an unknown label": TITANIC + """
out = error_of(lambda: tf.data.experimental.make_csv_dataset(TITANIC, 2, label_name="x"))
""",
    "make_csv_dataset an unknown column": TITANIC + """
out = error_of(lambda: tf.data.experimental.make_csv_dataset(TITANIC, 2,
                                                             select_columns=["age", "x"]))
""",
    "make_csv_dataset duplicate columns": TITANIC + """
out = [error_of(lambda: tf.data.experimental.make_csv_dataset(
           TITANIC, 2, select_columns=["age", "age"])),
       error_of(lambda: tf.data.experimental.make_csv_dataset(
           TITANIC, 2, column_names=["a", "a"] + [str(i) for i in range(8)]))]
""",
    "make_csv_dataset no header and no names": TITANIC + """
out = error_of(lambda: tf.data.experimental.make_csv_dataset(TITANIC, 2, header=False))
""",
    "make_csv_dataset defaults of another length": TITANIC + """
out = error_of(lambda: tf.data.experimental.make_csv_dataset(
    TITANIC, 2, select_columns=["age", "fare"], column_defaults=[0.0]))
""",
    "make_csv_dataset a row of another length": TITANIC + """
path = write("bad.csv", "a,b\\n1,2\\n3\\n")
out = error_of(lambda: tf.data.experimental.make_csv_dataset(path, 2))
""",
}
