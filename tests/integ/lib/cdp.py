"""A small Chrome DevTools Protocol client (stdlib only: Debian's
python3-websocket is not installed everywhere), for the browser tests.

    b = Browser(chromium, profile_dir, width, height)  # headless, its own
    page = b.page()                                    # the first tab
    page.navigate(url); page.eval("document.title")
    page.screenshot(path)
    b.close()

WebSocket (RFC 6455) as far as CDP needs it: text frames, client frames
masked, server frames of any length, fragmented messages joined.
"""
import base64
import json
import os
import socket
import struct
import subprocess
import time
import urllib.request


class WS:
    def __init__(self, url, timeout=60):
        assert url.startswith("ws://")
        hostport, path = url[5:].split("/", 1)
        host, port = hostport.rsplit(":", 1)
        self.s = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall(("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
                        "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n"
                        % (path, hostport, key)).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            c = self.s.recv(1)
            if not c:
                raise OSError("websocket handshake: connection closed")
            head += c
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise OSError("websocket handshake: %r" % head[:100])

    def _read(self, n):
        b = b""
        while len(b) < n:
            c = self.s.recv(n - len(b))
            if not c:
                raise OSError("websocket closed")
            b += c
        return b

    def send(self, text):
        data = text.encode()
        n = len(data)
        head = bytes([0x81])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def recv(self):
        msg = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            data = self._read(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            op = b0 & 0x0F
            if op == 8:
                raise OSError("websocket closed by the browser")
            if op == 9:  # ping: pong
                continue
            msg += data
            if b0 & 0x80:
                return msg.decode()


class Page:
    def __init__(self, ws_url):
        self.ws = WS(ws_url)
        self.n = 0

    def call(self, method, **params):
        self.n += 1
        self.ws.send(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            m = json.loads(self.ws.recv())
            if m.get("id") == self.n:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})

    def navigate(self, url):
        self.call("Page.enable")
        self.call("Page.navigate", url=url)

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def wait(self, what, expr, limit=60, every=0.2):
        """Poll expr until it is truthy; its value, or an AssertionError."""
        end = time.monotonic() + limit
        while True:
            v = None
            try:
                v = self.eval(expr)
            except RuntimeError:
                pass
            if v:
                return v
            if time.monotonic() > end:
                raise AssertionError("timed out after %d s waiting for %s" % (limit, what))
            time.sleep(every)

    def screenshot(self, path):
        r = self.call("Page.captureScreenshot", format="png")
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))


class Browser:
    def __init__(self, exe, profile, width=1400, height=1000):
        os.makedirs(profile, exist_ok=True)
        port_file = os.path.join(profile, "DevToolsActivePort")
        if os.path.exists(port_file):
            os.unlink(port_file)
        self.p = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check",
             "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
             "--user-data-dir=" + profile,
             "--window-size=%d,%d" % (width, height), "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 60
        while not (os.path.exists(port_file) and open(port_file).read().count("\n") >= 1):
            if self.p.poll() is not None or time.monotonic() > end:
                raise RuntimeError("chromium did not open its DevTools port")
            time.sleep(0.1)
        self.port = int(open(port_file).read().split("\n")[0])

    def page(self):
        end = time.monotonic() + 30
        while True:
            tabs = json.load(urllib.request.urlopen(
                "http://127.0.0.1:%d/json/list" % self.port, timeout=30))
            pages = [t for t in tabs if t.get("type") == "page"]
            if pages:
                return Page(pages[0]["webSocketDebuggerUrl"])
            if time.monotonic() > end:
                raise RuntimeError("no page in chromium")
            time.sleep(0.1)

    def close(self):
        self.p.terminate()
        try:
            self.p.wait(30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
