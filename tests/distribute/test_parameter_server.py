"""ParameterServerStrategy, ClusterCoordinator and the tutorial's in-process cluster against
TF 2.21's recording (fixtures/tf_parameter_server.json, record_tf_parameter_server.py): the
same programs (ps_programs/scenarios.py) run under simdist must give what TF gave.

Where TF's text is its runtime's (a graph-execution error, gRPC cancellation) only the
exception type is compared; TF's own Python messages are compared word for word.
"""

import numpy as np
import pytest
from ps_helpers import TF, load_scenarios

from simdist.hardware import machine

# Keys whose recorded error message is TF's runtime text, not a message of the Python API.
RUNTIME_MESSAGES = {"join after a failure", "cancelled fetch", "past the end: join",
                    "iter inside tf.function", "dataset without steps_per_epoch",
                    "evaluate dataset"}
# fit shuffles arrays (shuffle=True, no seed): TF's numbers are one random order of many.
RANDOM_VALUES = {"arrays": {"loss", "kernel"}}
# simdist's eager tensor type has another name than TF's EagerTensor.
TYPE_NAMES = {"get type": {"EagerTensor": "Tensor"}}


def _compare(got, want, key=""):
    if key in TYPE_NAMES:
        assert got == TYPE_NAMES[key].get(want, want), key
    elif isinstance(want, dict) and set(want) == {"error", "message"}:
        assert isinstance(got, dict) and got.get("error") == want["error"], (key, got)
        if key not in RUNTIME_MESSAGES:
            assert got["message"] == want["message"], key
    elif isinstance(want, dict):
        assert set(got) == set(want), (key, sorted(got), sorted(want))
        for k in want:
            if k not in RANDOM_VALUES.get(key, ()):
                _compare(got[k], want[k], key if k == "value" else k)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (key, got, want)
        for g, w in zip(got, want):
            _compare(g, w, key)
    elif isinstance(want, float):
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7, err_msg=key)
    else:
        assert got == want, (key, got, want)


@pytest.fixture
def scenarios():
    machine.set_machine("cpu")  # TF recorded on a CPU-only host
    return load_scenarios()


@pytest.mark.parametrize("name", sorted(k for k in TF if k != "tf_version"))
def test_scenario_gives_what_tf_gave(scenarios, name):
    _compare(scenarios.SCENARIOS[name](), TF[name], name)


def test_recording_is_of_tf_2_21():
    assert TF["tf_version"] == "2.21.0"


def test_a_worker_with_one_gpu_runs_its_replica_there(scenarios):
    machine.set_machine("gpus=1")
    resolver, _ = scenarios.create_in_process_cluster(2, 1)
    strategy = scenarios.tf.distribute.ParameterServerStrategy(resolver)
    assert strategy.extended.worker_devices == ("/device:GPU:0",)
    coordinator = scenarios.tf.distribute.coordinator.ClusterCoordinator(strategy)

    @scenarios.tf.function
    def where():
        return strategy.run(lambda: scenarios.tf.constant(1.0) * 2.0)

    remote = coordinator.schedule(where)
    coordinator.join()
    assert remote.get().device.endswith("/device:GPU:0")
    assert remote.get().device.startswith("/job:worker/replica:0/task:")


def test_workers_with_several_gpus_are_refused_with_a_way_out(scenarios):
    machine.set_machine("gpus=4")
    resolver, _ = scenarios.create_in_process_cluster(2, 1)
    with pytest.raises(NotImplementedError, match="SIMDIST_MACHINE=cpu"):
        scenarios.tf.distribute.ParameterServerStrategy(resolver)
