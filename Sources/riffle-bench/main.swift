print("riffle-bench: not wired yet")
