"""What every benchmark does with its result: print it as JSON and, with ``--json OUT``, keep a copy."""

from __future__ import annotations

import json


def emit(result: dict, path: str | None = None) -> None:
    text = json.dumps(result, ensure_ascii=False, indent=2)
    print(text)
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
