"""A small Chrome DevTools Protocol client for the browser tests: headless Chromium driven over a pipe.

No dependency beyond the standard library and Debian's ``chromium``. Chromium is
started with ``--remote-debugging-pipe``: it reads the protocol's JSON messages,
each terminated by a NUL byte, from its fd 3 and writes its own to its fd 4. A
page is a target attached with ``flatten=true``, so its commands are sent on
the browser's pipe with the target's ``sessionId``.

    from cdp import Browser, needs_chromium

    with Browser(tmp_path / "profile") as browser:
        page = browser.open(path_or_url, width=1400, height=900)   # waits for data-ready="1"
        page.eval("document.title")
        page.click("nav a")          # real mouse events at the element's centre
        page.hover("svg rect")
        page.key("j")
        page.screenshot(tmp_path / "shot.png", selector="section#stage-7")
        page.close()
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)"
)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """One headless Chromium per test module (``from cdp import browser`` makes it a module's fixture)."""
    if CHROMIUM is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    with Browser(tmp_path_factory.mktemp("profile")) as b:
        yield b

# Keys that are not a single printable character: (key, code, windowsVirtualKeyCode, text).
_SPECIAL_KEYS = {
    "Enter": ("Enter", "Enter", 13, "\r"),
    "Escape": ("Escape", "Escape", 27, ""),
    "Tab": ("Tab", "Tab", 9, ""),
    "Backspace": ("Backspace", "Backspace", 8, ""),
    "ArrowDown": ("ArrowDown", "ArrowDown", 40, ""),
    "ArrowUp": ("ArrowUp", "ArrowUp", 38, ""),
    "Home": ("Home", "Home", 36, ""),
    "End": ("End", "End", 35, ""),
}

_PUNCTUATION_CODES = {" ": 32, ";": 186, "=": 187, ",": 188, "-": 189, ".": 190, "/": 191, "`": 192, "[": 219,
                      "\\": 220, "]": 221, "'": 222}  # fmt: skip


class CDPError(RuntimeError):
    """A protocol error, a JavaScript exception, or a page that never became ready."""


class Browser:
    """Headless Chromium; ``open`` gives a :class:`Page`. Use as a context manager."""

    def __init__(self, profile: Path | str, timeout: float = 30.0):
        if CHROMIUM is None:
            raise CDPError("headless Chromium is not installed (apt-get install chromium)")
        self.timeout = timeout
        self._next_id = 0
        self._lock = threading.Lock()
        self._responses: dict[int, dict] = {}
        self._events: list[dict] = []
        self._inbox: queue.Queue = queue.Queue()
        Path(profile).mkdir(parents=True, exist_ok=True)
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # The browser's ends are moved above fd 9 so that they cannot be fds 3 or 4 already; pass_fds keeps
        # them open in the child, where bash puts them on fds 3 and 4 (Debian's /usr/bin/chromium is itself a
        # shell wrapper, which passes them on to the browser).
        ends = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_browser_r, from_browser_w)]
        os.close(to_browser_r)
        os.close(from_browser_w)
        script = f'exec "$0" "$@" 3<&{ends[0]} 4>&{ends[1]} {ends[0]}<&- {ends[1]}>&-'
        self._proc = subprocess.Popen(
            [shutil.which("bash") or "/bin/bash", "-c", script, CHROMIUM, "--headless", "--no-sandbox",
             "--disable-gpu", "--hide-scrollbars", "--mute-audio", "--no-first-run", "--no-default-browser-check",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", "about:blank"],
            pass_fds=ends,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        for fd in ends:
            os.close(fd)
        self._stderr: list[bytes] = []
        threading.Thread(target=self._read_pipe, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        try:
            self.version = self.send("Browser.getVersion")["product"]
        except CDPError:
            self.close()  # a browser that does not answer is not left running
            raise

    # --- the pipe -------------------------------------------------------------------------------

    def _read_pipe(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                self._inbox.put(None)
                return
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            for message in messages:
                self._inbox.put(json.loads(message))

    def _drain_stderr(self) -> None:
        assert self._proc.stderr is not None
        for line in self._proc.stderr:
            self._stderr.append(line)
            del self._stderr[:-50]

    def _pump(self, deadline: float) -> None:
        """Moves one message from the pipe to the responses or the events."""
        try:
            message = self._inbox.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            return
        if message is None:
            tail = b"".join(self._stderr[-10:]).decode(errors="replace")
            raise CDPError(f"Chromium exited (code {self._proc.poll()}):\n{tail}")
        if "id" in message:
            self._responses[message["id"]] = message
        else:
            self._events.append(message)

    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float | None = None) -> dict:  # fmt: skip
        """Sends one command and returns its result (raises CDPError on a protocol error)."""
        with self._lock:
            self._next_id += 1
            ident = self._next_id
        message: dict = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        while ident not in self._responses:
            if time.monotonic() > deadline:
                raise CDPError(f"no answer to {method} within {timeout or self.timeout} s")
            self._pump(deadline)
        response = self._responses.pop(ident)
        if "error" in response:
            raise CDPError(f"{method}: {response['error'].get('message')} {response['error'].get('data', '')}".strip())
        return response.get("result", {})

    def wait_event(self, method: str, session: str | None, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            for i, event in enumerate(self._events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self._events.pop(i)
            if time.monotonic() > deadline:
                raise CDPError(f"no {method} event within {timeout} s")
            self._pump(deadline)

    # --- pages ----------------------------------------------------------------------------------

    def open(self, path_or_url: Path | str, width: int = 1400, height: int = 900, timeout: float | None = None) -> Page:
        """A new tab at ``path_or_url`` (a file path, optionally with ``#fragment``, or a URL), ready to use.

        Waits until the page's script has set ``data-ready="1"`` on ``<html>``.
        """
        url = _as_url(path_or_url)
        if url.startswith("file://") and not Path(urllib.parse.unquote(url[7:].partition("#")[0])).exists():
            raise CDPError(f"no such file: {path_or_url}")
        target = self.send("Target.createTarget", {"url": "about:blank"})
        session = self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]
        page = Page(self, target["targetId"], session, width, height)
        page.send("Page.enable")
        page.send("Runtime.enable")
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})  # fmt: skip
        self._events.clear()
        page.send("Page.navigate", {"url": url})
        page.wait_ready(timeout or self.timeout)
        return page

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                self.send("Browser.close", timeout=5)
            except CDPError:
                pass
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Page:
    """One tab: evaluate JavaScript, click, hover, type keys, take screenshots."""

    def __init__(self, browser: Browser, target_id: str, session: str, width: int = 1400, height: int = 900):
        self.browser, self.target_id, self.session = browser, target_id, session
        self.width, self.height = width, height

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def close(self) -> None:
        """Closes the tab (a long test module opening many pages keeps the browser small)."""
        self.browser.send("Target.closeTarget", {"targetId": self.target_id})
        # Closing is asynchronous: wait until the browser no longer lists the tab.
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if all(t["targetId"] != self.target_id for t in self.browser.send("Target.getTargets")["targetInfos"]):
                return
            time.sleep(0.02)

    def wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        state: object = None
        while time.monotonic() < deadline:
            try:
                # documentElement is null for a moment while the new document replaces the old one.
                state = self.eval(
                    "[document.readyState, document.documentElement && "
                    "document.documentElement.getAttribute('data-ready'), location.href]"
                )
            except CDPError as err:
                # The old document's context went away under the evaluation: ask the new one.
                state = str(err)
            else:
                if state[1] == "1" and state[0] != "loading":
                    return
            time.sleep(0.05)
        raise CDPError(
            f"the page did not set data-ready=\"1\" on <html> within {timeout} s (readyState, data-ready, url: {state})"
        )

    def eval(self, expression: str):
        """The value of a JavaScript expression (awaited when it is a promise), returned by value."""
        result = self.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text", "")
            raise CDPError(f"JavaScript exception in {expression!r}: {text}")
        return result.get("result", {}).get("value")

    def _centre(self, selector: str) -> tuple[float, float]:
        """The centre of the first element matching ``selector``, scrolled into view, in viewport pixels."""
        rect = self.eval(
            f"(function(){{var e=document.querySelector({json.dumps(selector)});if(!e)return null;"
            "e.scrollIntoView({block:'center',inline:'center'});var r=e.getBoundingClientRect();"
            "return [r.left+r.width/2,r.top+r.height/2,r.width,r.height];})()"
        )
        if rect is None:
            raise CDPError(f"no element matches {selector!r}")
        if rect[2] == 0 and rect[3] == 0:
            raise CDPError(f"{selector!r} is not displayed (its box is empty)")
        return rect[0], rect[1]

    def _mouse(self, kind: str, x: float, y: float, **extra) -> None:
        self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, **extra})

    def click(self, selector: str) -> None:
        x, y = self._centre(selector)
        self._mouse("mouseMoved", x, y)
        self._mouse("mousePressed", x, y, button="left", buttons=1, clickCount=1)
        self._mouse("mouseReleased", x, y, button="left", buttons=0, clickCount=1)

    def hover(self, selector: str) -> None:
        x, y = self._centre(selector)
        self._mouse("mouseMoved", x, y)

    def key(self, key: str) -> None:
        """Presses and releases one key: a printable character, or a name such as "Enter" or "Escape"."""
        if key in _SPECIAL_KEYS:
            name, code, vk, text = _SPECIAL_KEYS[key]
        elif len(key) == 1:
            # Windows key codes are the upper-case letter or digit; other characters have their own
            # (ord('.') is 46, VK_DELETE, which would delete instead of typing).
            name, text = key, key
            vk = ord(key.upper()) if key.isascii() and key.isalnum() else _PUNCTUATION_CODES.get(key, 0)
            code = f"Key{key.upper()}" if key.isalpha() else (f"Digit{key}" if key.isdigit() else "")
        else:
            raise CDPError(f"unknown key {key!r}")
        down = {"type": "keyDown", "key": name, "code": code, "windowsVirtualKeyCode": vk}
        if text:
            down["text"] = text
        self.send("Input.dispatchKeyEvent", down)
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": name, "code": code, "windowsVirtualKeyCode": vk})

    def screenshot(self, path: Path | str, selector: str | None = None) -> Path:
        """A PNG of the viewport, or of the element ``selector`` (scrolled into view) when given.

        An element taller than the viewport is drawn whole: the viewport grows
        to hold it for the capture (a page that scrolls inside an element, not
        the document, draws nothing past its viewport otherwise).
        """
        params: dict = {"format": "png"}
        grown = False
        if selector is not None:
            box = (
                f"(function(scroll){{var e=document.querySelector({json.dumps(selector)});if(!e)return null;"
                "if(scroll)e.scrollIntoView({block:'start'});var r=e.getBoundingClientRect();"
                "return {x:r.left+window.scrollX,y:r.top+window.scrollY,width:r.width,height:r.height,scale:1,"
                "bottom:r.bottom,viewport:innerHeight};})"
            )
            clip = self.eval(f"{box}(true)")
            if clip is None:
                raise CDPError(f"no element matches {selector!r}")
            if clip["bottom"] > clip["viewport"]:
                self.send("Emulation.setDeviceMetricsOverride",
                          {"width": self.width, "height": int(clip["bottom"]) + 1, "deviceScaleFactor": 1,
                           "mobile": False})  # fmt: skip
                grown = True
                clip = self.eval(f"{box}(false)")
            del clip["bottom"], clip["viewport"]
            params.update(clip=clip, captureBeyondViewport=True)
        try:
            data = base64.b64decode(self.send("Page.captureScreenshot", params)["data"])
        finally:
            if grown:
                self.send("Emulation.setDeviceMetricsOverride",
                          {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False})  # fmt: skip
        path = Path(path)
        path.write_bytes(data)
        return path


def _as_url(path_or_url: Path | str) -> str:
    if isinstance(path_or_url, Path):
        return path_or_url.resolve().as_uri()
    text = str(path_or_url)
    if "://" in text or text.startswith(("about:", "data:")):
        return text
    file, _, fragment = text.partition("#")
    return Path(file).resolve().as_uri() + (f"#{fragment}" if fragment else "")
