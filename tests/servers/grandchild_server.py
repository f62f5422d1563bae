"""A server that leaves a grandchild behind, as `sleep 1000 & exec server` in a shell would.

It starts `sleep 1000` in the background sharing its stdio pipes, writes the sleeper's pid to argv[1], then
becomes the mock server for the manifest argv[2] (exec: same process, same pid, same process group).
"""

import os
import subprocess
import sys
from pathlib import Path

sleeper = subprocess.Popen(["sleep", "1000"])
Path(sys.argv[1]).write_text(str(sleeper.pid))
os.execv(sys.executable, [sys.executable, "-m", "mcptest", "mock", "--tools-from", sys.argv[2]])
