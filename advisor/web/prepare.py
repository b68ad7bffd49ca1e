"""The page's kernels compiled once, in a process of their own, most needed
first (``python -m advisor.web.prepare GROUP...``).

For each kernel group named (:data:`advisor.warm.GROUPS`) it prints one JSON
line ``{"group": name, "state": "compiling"}`` when the cache lacks its
machine code and it starts compiling, then ``{"group": name, "state":
"ready", "seconds": s}`` once the code is in the cache (``seconds`` 0 when
it already was).  The server reads these lines (:mod:`advisor.web.ready`);
its workers load the compiled code from the cache, so every kernel is
compiled once, whatever the number of workers, and the server's own process
holds none.  The process ends when every group is ready.
"""

from __future__ import annotations

import json
import sys
import time

from advisor import warm


def _say(**fields) -> None:
    print(json.dumps(fields), flush=True)


def main(names: list[str]) -> int:
    for name in names:
        if not warm.cold_groups([name]):
            _say(group=name, state="ready", seconds=0.0)
            continue
        _say(group=name, state="compiling")
        start = time.perf_counter()
        warm._BY_NAME[name].run()
        _say(group=name, state="ready", seconds=round(time.perf_counter() - start, 2))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (KeyboardInterrupt, BrokenPipeError):  # the server stopped: nothing to say
        sys.exit(0)
