print("riffle: not wired yet")
