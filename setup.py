"""Build step: ship the shell side inside the wheel.

A plain ``pip install .`` or ``uv tool install .`` leaves no checkout behind, yet the hook commands
``code-memory hooks install`` writes and the weekly job ``code-memory cron install`` registers run
shell files: the hook shims (``hooks/*.sh``, with their fast paths in ``hooks/lib.sh``), the hook
runner and ``weekly-consolidate.sh``. They are copied into the package as ``code_memory/_shell/``,
in the checkout's own layout (``hooks/``, ``scripts/``), so every relative path between them holds
in both places; ``code_memory.paths.shell_dir`` says which copy this installation uses. An editable
install runs the checkout's files and copies nothing. Everything else is in pyproject.toml.
"""

import glob
import os

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
SHELL_FILES = ("hooks/*.sh", "scripts/code-memory-hook.py", "scripts/weekly-consolidate.sh")


class BuildPyWithShell(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = os.path.join(self.build_lib, "code_memory", "_shell")
        for pattern in SHELL_FILES:
            for source in sorted(glob.glob(os.path.join(HERE, pattern))):
                dest = os.path.join(target, os.path.relpath(source, HERE))
                self.mkpath(os.path.dirname(dest))
                self.copy_file(source, dest)  # the mode too: the shims are run as programs


setup(cmdclass={"build_py": BuildPyWithShell})
