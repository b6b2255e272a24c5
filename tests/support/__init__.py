"""What the tests share: every helper, client, process runner and fixture that more than one test
module uses lives in this package, in a module named for what it holds.

Test modules (test_*.py) and conftest.py files are never imported by another file: a test imports
its tools from here, and asks for shared fixtures by name. The fixture modules (see
tests/conftest.py's `pytest_plugins`) are registered once for the whole suite.
tests/invariants/test_test_layout.py keeps it so.
"""
