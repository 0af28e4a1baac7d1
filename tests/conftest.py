"""Shared test set-up: hypothesis profiles (loaded once) and a fresh simulated world per test."""

import os

# One BLAS thread (set before NumPy loads its BLAS): simdist's replicas already run in
# threads, and a many-threaded BLAS on a shared machine made small matmuls ~15x slower.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

# The simulated machine must not depend on the real one's GPUs: CUDA_VISIBLE_DEVICES hides
# simulated GPUs as it hides real ones (tests that need it set it themselves).
os.environ.pop("CUDA_VISIBLE_DEVICES", None)

import pytest  # noqa: E402 - after the BLAS threads are set
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "default", max_examples=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile(
    "ci", max_examples=40, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile(
    "thorough", max_examples=500, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)


@pytest.fixture(autouse=True)
def fresh_world():
    """Every test starts on a new default machine with no strategy and no tapes."""
    from simdist.testing import reset_world

    reset_world()
    yield
    reset_world()
