"""Test support shared by the suite: the loopback Messages API stand-in (standin_api)."""
