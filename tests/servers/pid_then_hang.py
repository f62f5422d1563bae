"""A server that records its pid (argv[1]) and then never completes the handshake."""

import os
import sys
from pathlib import Path

Path(sys.argv[1]).write_text(str(os.getpid()))
sys.stderr.write("pid-then-hang: waiting forever\n")
sys.stderr.flush()
for _line in sys.stdin:  # swallow requests and never answer
    pass
