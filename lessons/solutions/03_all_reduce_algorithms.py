"""Solutions to lesson 3's exercises (tests/lessons/test_exercises.py checks them)."""

SOLUTIONS = {
    "3a": '''
from simdist.collectives import Schedule, Step, Transfer

def build_schedule(p):
    # Phase 1: everyone adds its buffer into device 0. Phase 2: device 0 copies it out.
    return Schedule("all_reduce", "mine", p, 1, [
        Step("reduce", [Transfer(r, 0, 0, True) for r in range(1, p)]),
        Step("broadcast", [Transfer(0, r, 0, False) for r in range(1, p)]),
    ])
''',
    # reduce-scatter p - 1 steps, all-gather p - 1 steps.
    "3b": "ring_steps_on_6 = 10",
    # 2**17 bytes on pcie-tree (tune's sweep in the lesson's style).
    "3c": "crossover_kib = 128",
}

WRONG = {
    "3a": [
        # Forgets the last device's contribution.
        '''
from simdist.collectives import Schedule, Step, Transfer

def build_schedule(p):
    return Schedule("all_reduce", "mine", p, 1, [
        Step("reduce", [Transfer(r, 0, 0, True) for r in range(1, p - 1)]),
        Step("broadcast", [Transfer(0, r, 0, False) for r in range(1, p)]),
    ])
''',
        # Broadcasts by adding: every other device ends with its own value plus the sum.
        '''
from simdist.collectives import Schedule, Step, Transfer

def build_schedule(p):
    return Schedule("all_reduce", "mine", p, 1, [
        Step("reduce", [Transfer(r, 0, 0, True) for r in range(1, p)]),
        Step("broadcast", [Transfer(0, r, 0, True) for r in range(1, p)]),
    ])
''',
    ],
    "3b": ["ring_steps_on_6 = 5", "ring_steps_on_6 = 12", "ring_steps_on_6 = 6"],
    "3c": ["crossover_kib = 64", "crossover_kib = 256", "crossover_kib = 131072"],
}
