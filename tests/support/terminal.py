"""A controlling terminal for a child process, with someone at it (code_memory.caller.confirm_on_terminal).

``TypingUser(answer)`` opens a pseudo-terminal the child takes as its controlling terminal and a
thread that reads what the child writes there. ``answer="y"`` stands for a user who agrees: it
types the code the prompt shows once the prompt appeared; any other answer is typed as it is.
``typed_ahead=True`` writes the answer before the child starts and ends the input once a prompt
shows (Ctrl-D) — what ``echo y | script -qc CMD /dev/null`` does; the prompt must discard it.

    user = TypingUser("y")
    subprocess.run(cmd, **user.popen_kwargs())
    user.close()           # after the child has ended; user.screen holds what it printed
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import termios
import threading

CODE = re.compile(rb"Type ([a-z0-9]{4,12}) to allow")


class TypingUser:
    def __init__(self, answer: str, typed_ahead: bool = False):
        self.answer = answer
        self.master, self.slave = pty.openpty()
        self.screen = b""
        self._stop = threading.Event()
        self.typed_ahead = typed_ahead
        if typed_ahead:
            os.write(self.master, (answer + "\n").encode())
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        """Owns the master side: closes it when the terminal is gone (every slave closed: EIO)."""
        try:
            self._answer_prompts()
        finally:
            os.close(self.master)

    def _answer_prompts(self) -> None:
        answered = 0
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self.master], [], [], 0.05)
                if not ready:
                    continue
                chunk = os.read(self.master, 4096)
            except OSError:
                return
            if not chunk:
                return
            self.screen += chunk
            codes = CODE.findall(self.screen)
            while answered < len(codes):           # one answer per prompt
                if self.typed_ahead:
                    os.write(self.master, b"\x04")        # the pipe ended: end of input
                else:
                    typed = codes[answered].decode() if self.answer == "y" else self.answer
                    os.write(self.master, (typed + "\n").encode())
                answered += 1

    def popen_kwargs(self) -> dict:
        slave = self.slave

        def take_terminal():
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

        return {"preexec_fn": take_terminal, "pass_fds": (slave,)}

    def child_started(self) -> None:
        """Close the parent's copy of the terminal's slave side (the child has its own)."""
        if self.slave is not None:
            os.close(self.slave)
            self.slave = None

    def close(self) -> None:
        self.child_started()
        self._stop.set()
        self._thread.join(5)
