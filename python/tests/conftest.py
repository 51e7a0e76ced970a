"""The suite's markers."""


def pytest_configure(config):
    # scripts/test.sh runs these after the tool's tests, not beside them:
    # a camera streams in real time, and what a busy machine makes it lose
    # is more than such a test can leave out.
    config.addinivalue_line(
        "markers", "realtime: streams a camera in real time (wants a machine not busy)")
