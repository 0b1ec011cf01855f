# The engines here are programs the conformance tests start, not test modules.
collect_ignore_glob = ["*.py"]
