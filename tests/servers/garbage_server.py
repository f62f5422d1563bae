"""A broken 'server' that writes non-JSON-RPC text to stdout and never answers properly."""

import sys

print("Starting server... listening (this line should have gone to stderr)", flush=True)
print("{not json at all", flush=True)
sys.stderr.write("garbage-server: logging to stdout by mistake\n")
sys.stderr.flush()
for _line in sys.stdin:  # read requests forever, answer none of them; exit when stdin closes
    print("ok, got it", flush=True)
