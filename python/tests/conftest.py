"""The suite's markers."""


def pytest_configure(config):
    # A camera streams in real time, and what a busy machine makes it lose
    # is more than such a test can leave out: `-m "not realtime"` leaves
    # them out where the machine is busy with other tests.
    config.addinivalue_line(
        "markers", "realtime: streams a camera in real time (wants a machine not busy)")
