"""Solutions to lesson 12's exercises (tests/lessons/test_exercises.py checks them)."""

SOLUTIONS = {
    "12a": 'strategy_12a = "MirroredStrategy"',
    "12b": 'strategy_12b = "MultiWorkerMirroredStrategy"',
    "12c": 'strategy_12c = "OneDeviceStrategy"',
    "12d": 'strategy_12d = "ParameterServerStrategy"',
}

WRONG = {
    "12a": ['strategy_12a = "CentralStorageStrategy"', 'strategy_12a = "OneDeviceStrategy"'],
    "12b": ['strategy_12b = "MirroredStrategy"', 'strategy_12b = "ParameterServerStrategy"'],
    "12c": ['strategy_12c = "MirroredStrategy"', 'strategy_12c = "TPUStrategy"'],
    "12d": ['strategy_12d = "MultiWorkerMirroredStrategy"', 'strategy_12d = "MirroredStrategy"'],
}
