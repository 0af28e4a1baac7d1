"""Solutions to lesson 14's exercises (tests/lessons/test_exercises.py checks them)."""

_TF_CONFIG = '''
def tf_config(addresses, index):
    return json.dumps({"cluster": {"worker": list(addresses)},
                       "task": {"type": "worker", "index": INDEX}})
'''

SOLUTIONS = {
    # 3 workers x 2 GPUs: the whole cluster's replicas, the same on every worker.
    "14a": "replicas = 6",
    # Steps 0..4 finish; worker 0 dies as step 5 begins.
    "14b": "steps_finished = 5",
    "14c": _TF_CONFIG.replace("INDEX", "index"),
}

WRONG = {
    "14a": ["replicas = 2", "replicas = 3"],
    "14b": ["steps_finished = 6", "steps_finished = 4", "steps_finished = 8"],
    "14c": [
        _TF_CONFIG.replace("INDEX", "0"),  # every worker claims to be worker 0
        "def tf_config(addresses, index):\n    return json.dumps({'cluster': "
        "{'worker': addresses[:1]}, 'task': {'type': 'worker', 'index': 0}})\n",
    ],
}
