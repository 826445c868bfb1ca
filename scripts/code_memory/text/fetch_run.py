"""Text that fetches code from the network and runs it (docs/security.md § Review): ``curl … | sh``,
``wget -O- | bash``, ``bash <(curl …)``, ``sh -c "$(wget -qO- …)"``, ``eval "$(curl …)"``,
``iex (iwr …)``, ``iwr … | iex``, ``Invoke-Expression (New-Object Net.WebClient).DownloadString(…)``,
``curl -o x.sh … && sh x.sh`` — in shell, PowerShell, or inside Markdown code spans.

A line learned from a conversation (a rule, a pitfall, a decision, a to-do, a fact) that does
this is never written or shown to the next session on the summarizer's word: it goes to the
review queue, unverified. Pure; ``re`` only (not for the hooks' hot path).
"""

from __future__ import annotations

import re

_FETCH = r"(?:curl|wget|http(?:ie)?|aria2c|iwr|irm|invoke-webrequest|invoke-restmethod|" \
         r"(?:new-object\s+(?:system\.)?net\.webclient\)?\s*\.\s*download(?:string|file|data)))"
# a shell runs what it reads; an interpreter only when it reads the program from stdin (``python -``),
# not ``python -m json.tool`` or ``python -c "…"``, which read the download as data
_SHELL = r"(?:sudo(?:\s+-\S+)*\s+)?(?:env\s+\S+=\S*\s+)*" \
         r"(?:(?:ba|z|k|da|fi|c|tc)?sh|pwsh|powershell|source|iex|invoke-expression|" \
         r"(?:python[\d.]*|perl|ruby|node|php)(?=\s*(?:$|[;&|)`]|-(?:\s|$))))"
_PATTERNS = [
    # fetch … | shell   (also through tee, sudo, env)
    rf"\b{_FETCH}\b[^|\n]{{0,300}}\|\s*(?:tee\s+\S+\s*\|\s*)?(?:{_SHELL})\b",
    # shell <(fetch …)  /  source <(fetch …)  /  . <(fetch …)
    rf"(?:\b(?:{_SHELL})|(?:^|[\s;&|`(])\.)\s+<\(\s*{_FETCH}\b",
    # shell -c "$(fetch …)"  /  eval "$(fetch …)"  /  backticks
    rf"\b(?:{_SHELL}|eval|exec)\b[^\n]{{0,40}}?(?:\$\(|`)\s*{_FETCH}\b",
    # iex (iwr …) / Invoke-Expression (New-Object Net.WebClient).DownloadString(…)
    rf"\b(?:iex|invoke-expression)\b\s*\(?\s*(?:\(\s*)?{_FETCH}",
    # download to a file, then run it in the same command line
    rf"\b{_FETCH}\b[^\n]{{0,300}}?(?:-o|-O|--output|>)\s*(\S+)[^\n]{{0,300}}?(?:&&|;|\|\|)\s*"
    rf"(?:chmod\s+\+x\s+\S+\s*(?:&&|;)\s*)?"
    rf"(?:(?:{_SHELL})\s+)?(?:\./)?\S*\1",
]
_ANY = re.compile("|".join(f"(?:{p})" for p in _PATTERNS), re.IGNORECASE | re.MULTILINE)


def fetches_and_runs(text) -> bool:
    """Whether ``text`` holds a command that downloads code and runs it."""
    if not isinstance(text, str) or not text:
        return False
    flat = text.replace("`", " ` ").replace("\\\n", " ")
    return bool(_ANY.search(flat))
