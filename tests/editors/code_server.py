"""A real VS Code for the extension's end-to-end test: code-server on a
loopback port, with a private user-data and extensions folder, driven by
Playwright in Debian's chromium.

``CodeServer`` installs a .vsix and serves one folder; ``Workbench`` does
what a user does in the page (open a file, go to a position, hover, open
the Problems panel, pick a code action from the lightbulb, type and save)
and reads what a user sees (squiggles, Problems entries, code lenses,
hovers). Selectors are Monaco's and the workbench's CSS classes.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from tests.editors.conftest import REPO

CODE_SERVER = REPO / "editors" / "code-server" / "node_modules" / ".bin" / "code-server"
# Debian's /usr/bin/chromium is a shell wrapper around this binary.
CHROMIUM = next((p for p in ("/usr/lib/chromium/chromium", "/usr/bin/chromium") if Path(p).exists()), None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CodeServer:
    """code-server serving ``folder`` on 127.0.0.1 with ``settings`` as the
    user settings and ``vsix`` installed; everything it writes stays under
    ``root``. Use as a context manager; the server is stopped on exit."""

    def __init__(self, root: Path, folder: Path, vsix: Path, settings: dict):
        self.root, self.folder = root, folder
        self.user_data, self.extensions = root / "user-data", root / "extensions"
        (self.user_data / "User").mkdir(parents=True, exist_ok=True)
        self.extensions.mkdir(parents=True, exist_ok=True)
        (self.user_data / "User" / "settings.json").write_text(json.dumps(settings, indent=1))
        (root / "config.yaml").write_text("auth: none\n")
        self.log_path = root / "code-server.log"
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self._install(vsix)

    def _common(self) -> list[str]:
        return ["--config", str(self.root / "config.yaml"), "--user-data-dir", str(self.user_data),
                "--extensions-dir", str(self.extensions)]

    def _install(self, vsix: Path) -> None:
        proc = subprocess.run([str(CODE_SERVER), *self._common(), "--install-extension", str(vsix)],
                              capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0 and "successfully installed" in proc.stdout, proc.stdout + proc.stderr

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?folder={self.folder}"

    def __enter__(self) -> CodeServer:
        self.proc = subprocess.Popen(
            [str(CODE_SERVER), *self._common(), "--bind-addr", f"127.0.0.1:{self.port}", "--auth", "none",
             "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust",
             "--disable-getting-started-override", str(self.folder)],
            stdout=self.log_path.open("w"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, self.log()
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                assert time.monotonic() < deadline, "code-server did not listen within 60 s\n" + self.log()
                time.sleep(0.2)

    def __exit__(self, *exc) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def extension_log(self) -> str:
        """The distaff output channel as the extension host wrote it; with
        ``distaff.trace.server`` set, only the messages' names and times."""
        logs = sorted((self.user_data / "logs").glob("*/exthost*/output_logging_*/*distaff*.log"))
        text = "\n".join(p.read_text(errors="replace") for p in logs)
        trace = re.findall(r"^\[Trace - ([^\]]*)\] ((?:Sending|Received) \w+ '[^']*')", text, re.M)
        # The requests an editor repeats on every cursor move say nothing.
        trace = [(when, what) for when, what in trace if not re.search(r"'textDocument/code(Lens|Action)", what)]
        last_lenses = text[text.rfind("Received response 'textDocument/codeLens"):]
        lenses = re.findall(r'"title": "([^"]*)"', last_lenses.split("[Trace")[0])
        return "\n".join(f"{when} {what}" for when, what in trace) + f"\nlast code lenses received: {lenses}"


@dataclass
class Box:
    top: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return self.top < other.bottom and other.top < self.bottom


class Workbench:
    """What a user does and sees in one code-server page (a Playwright
    ``Page``). Waits are bounded; a timeout raises Playwright's error."""

    def __init__(self, page):
        self.page = page

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.page.wait_for_selector(".monaco-workbench .part.editor", timeout=90_000)

    def open_file(self, name: str) -> None:
        """Quick Open (Ctrl+P), the file's name, Enter."""
        self.page.keyboard.press("Control+P")
        self.page.wait_for_selector(".quick-input-widget input", state="visible")
        self.page.keyboard.type(name)
        self.page.wait_for_selector(f".quick-input-list .monaco-list-row[aria-label*='{name}']", timeout=30_000)
        self.page.keyboard.press("Enter")
        self.page.wait_for_selector(f".tab.active[aria-label*='{name}']", timeout=30_000)
        self.page.wait_for_selector(".monaco-editor .view-lines .view-line", timeout=30_000)

    def goto(self, line: int, column: int) -> None:
        """Go to Line (Ctrl+G) ``line:column``, 1-based as the status bar shows."""
        self.editor().click()
        self.page.keyboard.press("Control+G")
        self.page.wait_for_selector(".quick-input-widget input", state="visible")
        self.page.keyboard.type(f"{line}:{column}")
        self.page.keyboard.press("Enter")
        self.page.wait_for_selector(f".statusbar-item[id$='status.editor.selection'] >> text=Ln {line}, Col {column}",
                                    timeout=10_000)

    def editor(self):
        return self.page.locator(".editor-instance .monaco-editor").first

    def line_box(self, line: int) -> Box:
        """Where line ``line`` (1-based) is drawn, after scrolling it into
        view; found by its number in the gutter (Monaco draws only the
        lines in view)."""
        self.page.keyboard.press("Escape")
        self.goto(line, 1)
        return self._drawn(line)

    def _drawn(self, line: int) -> Box:
        number = self.page.locator(".editor-instance .margin-view-overlays .line-numbers",
                                   has_text=re.compile(rf"^\s*{line}\s*$")).first
        return self.box(number)

    def box(self, locator) -> Box:
        b = locator.bounding_box()
        assert b is not None, f"{locator} is not visible"
        return Box(b["y"], b["y"] + b["height"])

    def squiggles(self, severity: str = "error") -> list[Box]:
        """The rendered squiggles of a severity (error, warning, info)."""
        return [self.box(s) for s in self.page.locator(f".editor-instance .squiggly-{severity}").all()]

    def wait_for_squiggle_on(self, line: int, severity: str = "error", timeout_s: float = 240) -> None:
        self.line_box(line)
        # Code lenses arriving meanwhile move the line down: look again each time.
        self._until(lambda: any(s.overlaps(self._drawn(line)) for s in self.squiggles(severity)),
                    f"a {severity} squiggle on line {line}", timeout_s)

    def lenses(self) -> list[str]:
        return [t.strip() for t in self.page.locator(".editor-instance .codelens-decoration").all_inner_texts()]

    def lenses_of(self, line: int) -> list[str]:
        """The code lenses drawn just above line ``line`` (which is in view)."""
        where = self._drawn(line)
        out = []
        for lens in self.page.locator(".editor-instance .codelens-decoration").all():
            b = self.box(lens)
            if where.top - 2 * (b.bottom - b.top) <= b.top < where.top:
                out.append(lens.inner_text().strip())
        return out

    def status(self, item: str) -> str:
        """The accessible label of a status bar item: ``status.problems``
        (for example "Errors: 1, Infos: 1"), ``distaff.distaff``."""
        return self.page.locator(f".statusbar-item[id='{item}']").get_attribute("aria-label") or ""

    def wait_for_status(self, item: str, ready, what: str, timeout_s: float = 240) -> str:
        self._until(lambda: ready(self.status(item)), f"{item} to show {what}", timeout_s,
                    lambda: f"{item} now: {self.status(item)!r}")
        return self.status(item)

    def wait_for_lens(self, line: int, prefix: str, timeout_s: float = 240) -> None:
        """Scrolls line ``line`` into view once, then watches (without
        moving the cursor) for a lens over it that starts with ``prefix``."""
        self.line_box(line)
        self._until(lambda: any(t.startswith(prefix) for t in self.lenses_of(line)),
                    f"a code lens starting {prefix!r} over line {line}", timeout_s,
                    lambda: f"lenses now: {self.lenses()}")

    def hover(self, line: int, column: int) -> str:
        """Puts the cursor at ``line:column`` and shows the hover there
        (Show or Focus Hover, Ctrl+K Ctrl+I); the hover's text."""
        self.goto(line, column)
        self.page.keyboard.press("Control+K")
        self.page.keyboard.press("Control+I")
        widget = self.page.locator(".monaco-hover:not(.hidden) .monaco-hover-content").first
        widget.wait_for(state="visible", timeout=30_000)
        self.page.wait_for_timeout(500)
        return widget.inner_text()

    def problems(self) -> list[str]:
        """Every row of the Problems panel (opened with Ctrl+Shift+M), as
        its accessible label: severity, message, file, line and column."""
        panel = self.page.locator(".markers-panel")
        if not panel.is_visible():
            self.page.keyboard.press("Control+Shift+M")
            panel.wait_for(state="visible", timeout=10_000)
        self.page.wait_for_timeout(300)
        return [r.get_attribute("aria-label") or r.inner_text()
                for r in panel.locator(".monaco-list-row").all()]

    def wait_for_problem(self, *parts: str, timeout_s: float = 240) -> list[str]:
        """Waits until a Problems row contains every one of ``parts``; the rows then."""
        self._until(lambda: any(all(p in row for p in parts) for row in self.problems()),
                    f"a Problems row with {parts}", timeout_s,
                    lambda: "rows now:\n" + "\n".join(self.problems()))
        return self.problems()

    def code_action_from_lightbulb(self, line: int, column: int, title: str) -> list[str]:
        """Puts the cursor at ``line:column``, clicks the lightbulb once it
        stands on that line, then picks the action ``title``; the titles
        the menu offered."""
        self.line_box(line)
        self.goto(line, column)
        bulb = self.page.locator(".lightBulbWidget").first
        self._until(lambda: bulb.is_visible() and self.box(bulb).overlaps(self._drawn(line)),
                    f"the lightbulb on line {line}", 30)
        bulb.click()
        menu = self.page.locator(".action-widget")
        menu.wait_for(state="visible", timeout=10_000)
        rows = menu.locator(".monaco-list-row.action")
        titles = [r.get_attribute("aria-label") for r in rows.all()]
        assert title in titles, titles
        # The menu takes the keyboard (a pointer block lies over it). On a
        # loaded machine the focus moves a while after the key press, so
        # each press waits for it to move before reading it again: reading
        # it early pressed past the title or Enter on the row before it.
        focused = menu.locator(".monaco-list-row.focused")

        def label() -> str | None:
            return focused.first.get_attribute("aria-label") if focused.count() else None

        self._until(lambda: label() is not None, "a focused row in the code action menu", 10)
        for _ in titles:
            now = label()
            if now == title:
                break
            self.page.keyboard.press("ArrowDown")
            self._until(lambda: label() not in (None, now), f"the focus to move past {now!r}", 10)
        assert label() == title, (label(), titles)
        self.page.keyboard.press("Enter")
        menu.wait_for(state="hidden", timeout=10_000)
        return titles

    def replace_at(self, line: int, column: int, old: str, new: str) -> None:
        """Selects ``old`` at ``line:column`` with the keyboard and types ``new``."""
        self.goto(line, column)
        for _ in old:
            self.page.keyboard.press("Shift+ArrowRight")
        self.page.keyboard.type(new)
        self.page.keyboard.press("Escape")

    def save(self) -> None:
        self.page.keyboard.press("Control+S")
        self.page.wait_for_selector(".tab.active:not(.dirty)", timeout=10_000)

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path))

    def _until(self, ready, what: str, timeout_s: float, describe=lambda: "") -> None:
        deadline = time.monotonic() + timeout_s
        while not ready():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout_s:.0f} s waiting for {what}\n{describe()}")
            self.page.wait_for_timeout(250)


def chromium_path() -> str:
    assert CHROMIUM is not None, "Debian's chromium is not installed: run `bash editors/ci-setup.sh`"
    return CHROMIUM
