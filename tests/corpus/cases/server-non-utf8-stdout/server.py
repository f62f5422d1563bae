"""A broken 'server' that writes bytes that are not UTF-8 to stdout and never answers."""

import sys

sys.stdout.buffer.write(b"\x89PNG\r\n\x1a\n\xff\xfe binary, not JSON-RPC\n")
sys.stdout.buffer.flush()
sys.stderr.write("binary-server: wrote a PNG header to stdout\n")
sys.stderr.flush()
for _line in sys.stdin.buffer:  # read requests forever, answer none; exit when stdin closes
    pass
