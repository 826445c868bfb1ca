#!/usr/bin/env python3
"""Entry point of the hook shims in hooks/: ``code-memory-hook.py HOOK-NAME < payload``.

Run with ``-S`` by the shims (standard library only, fast start), so the package is found by path:
beside this script in a checkout, or — for the copy an installed wheel ships in
``code_memory/_shell/scripts/`` (setup.py) — three levels up, in site-packages. Always exits 0
(fail open); see docs/hooks.md.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE if os.path.isdir(os.path.join(HERE, "code_memory")) else
                os.path.dirname(os.path.dirname(os.path.dirname(HERE))))

if __name__ == "__main__":
    try:    # a shim may exec this script (hooks/lib.sh cm_exec): even a broken install exits 0
        from code_memory.hooks.runtime import main
    except BaseException:  # noqa: BLE001 — fail open
        sys.exit(0)
    sys.exit(main())
