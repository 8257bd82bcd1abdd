"""A warm process for `compilelint check`: `compilelint daemon start`. Nothing heavy is
imported here: the command line imports `daemon.client` before click."""
