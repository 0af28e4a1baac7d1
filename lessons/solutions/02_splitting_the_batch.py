"""Solutions to lesson 2's exercises (tests/lessons/test_exercises.py checks them)."""

SOLUTIONS = {
    # ceil(10 / 4) = 3 rows each for replicas 0, 1, 2; one row is left for replica 3.
    "2a": "rows_on_replica_3 = 1",
    "2b": '''
GLOBAL_BATCH_2B = 16

def replica_loss(per_example):
    return tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_2B)
''',
}

WRONG = {
    "2a": ["rows_on_replica_3 = 2", "rows_on_replica_3 = 3", "rows_on_replica_3 = 0"],
    "2b": [
        # The classic mistake: the mean over this replica's rows, summed over R replicas.
        '''
GLOBAL_BATCH_2B = 16

def replica_loss(per_example):
    return tf.reduce_mean(per_example)
''',
        '''
GLOBAL_BATCH_2B = 16

def replica_loss(per_example):
    return tf.reduce_sum(per_example)
''',
    ],
}
