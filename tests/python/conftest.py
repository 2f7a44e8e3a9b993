# SPDX-License-Identifier: Apache-2.0
"""What every Python test shares: one seed for the run (printed; set
PORTACL_TEST_SEED to repeat it), a generator from it per test, and one
context per module on the default device (PORTACL_DEVICE)."""
import os

import numpy as np
import pytest

import portacl

SEED = int(os.environ.get("PORTACL_TEST_SEED", np.random.SeedSequence().entropy % 2**32))
SEED_LINE = f"portacl python tests: seed {SEED} (PORTACL_TEST_SEED={SEED} repeats it)"


def pytest_report_header(config):
    return SEED_LINE


@pytest.fixture(scope="module")
def ctx():
    return portacl.Context()


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def pytest_terminal_summary(terminalreporter):
    # The header above is hidden under -q (as ctest runs the suite): the
    # seed is repeated at the end, where every run shows it.
    terminalreporter.write_line(SEED_LINE)
