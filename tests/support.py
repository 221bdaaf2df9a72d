"""Test helpers: a provider subprocess, signed requests, schema validation, markup checks."""

from __future__ import annotations

import http.server
import json
import signal
import ssl
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx
import jsonschema
import yaml

from helpthread_kit.capabilities import FIELDS_BY_CAPABILITY
from helpthread_kit.conformance.plaintext import markup_in  # noqa: F401 - re-exported for the tests
from helpthread_kit.schemas import load_schema
from helpthread_kit.testing import signed_headers

REPO_ROOT = Path(__file__).resolve().parent.parent
#: New connections in a row per worker that must find ``/readyz`` ready (see
#: :meth:`ProviderProcess.wait_until_healthy`).
READY_STREAK_PER_WORKER = 8

_VALIDATORS = {
    name: jsonschema.Draft202012Validator(load_schema(name), format_checker=jsonschema.FormatChecker())
    for name in ("retrieve-response", "capabilities-response", "error-response")
}
KNOWN_RESULT_FIELDS = {"documentId", "title", "snippet", "audience", "revision"} | {
    field for fields in FIELDS_BY_CAPABILITY.values() for field in fields
}

def wait_for(predicate: Callable[[], bool], what: str = "condition", *, timeout_s: float = 30.0,
             every_s: float = 0.05) -> float:
    """Poll ``predicate()`` every ``every_s`` seconds until it is true; return the seconds
    it took.

    Raises:
        AssertionError: not true within ``timeout_s`` seconds (naming ``what``).
    """
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        if predicate():
            return time.monotonic() - started
        time.sleep(every_s)
    raise AssertionError(f"timed out after {timeout_s}s waiting for {what}")


def write_files(root: Path, files: dict[str, str]) -> Path:
    """Write each ``{relative path: text}`` of ``files`` under ``root`` (UTF-8, folders
    made as needed); returns ``root``."""
    for relpath, text in files.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def write_config(path: Path, settings: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(settings, sort_keys=False), "utf-8")
    return path


@dataclass
class Reply:
    status: int
    headers: httpx.Headers
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class ProviderProcess:
    """A running ``knowledge-provider serve`` subprocess."""

    proc: subprocess.Popen[bytes]
    base_url: str
    log_path: Path
    log_file: IO[bytes]
    root: Path
    content: Path
    verify: ssl.SSLContext | bool = True

    def wait_until_healthy(self, timeout_s: float, workers: int = 1) -> None:
        """Wait until ``/readyz`` answers 200; with several ``workers``, until it has
        answered 200 on :data:`READY_STREAK_PER_WORKER` × ``workers`` new connections in a
        row (the kernel spreads connections over the workers by a hash of their
        addresses, so one ready worker alone answers all of them with odds of ~2⁻¹⁶)."""
        try:
            self._wait_until_healthy(timeout_s, READY_STREAK_PER_WORKER * workers if workers > 1 else 1)
        except BaseException:
            self.stop()
            raise

    def _wait_until_healthy(self, timeout_s: float, streak: int) -> None:
        deadline = time.monotonic() + timeout_s
        ready = 0
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"provider exited with {self.proc.returncode}:\n{self.log()}")
            try:
                status = httpx.get(f"{self.base_url}/readyz", timeout=1.0, verify=self.verify).status_code
            except httpx.HTTPError:
                status = 0
            ready = ready + 1 if status == 200 else 0
            if ready >= streak:
                return
            if ready == 0:
                time.sleep(0.1)
        raise RuntimeError(f"provider did not become ready in {timeout_s}s:\n{self.log()}")

    def log(self) -> str:
        if not self.log_file.closed:
            self.log_file.flush()
        return self.log_path.read_text("utf-8", errors="replace")

    def stop(self) -> None:
        if self.log_file.closed:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log_file.close()

    # -- requests ------------------------------------------------------------------------

    def raw(self, method: str, path: str, *, body: bytes = b"", headers: dict[str, str] | None = None) -> Reply:
        response = httpx.request(method, f"{self.base_url}{path}", content=body, headers=headers or {}, timeout=15,
                                 verify=self.verify)
        reply = Reply(response.status_code, response.headers, response.content)
        validate_reply(reply)
        return reply

    def retrieve(self, payload: Any, secret: str, **sign: Any) -> Reply:
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
        return self.raw("POST", "/retrieve", body=body, headers=signed_headers(body, secret, **sign))

    def capabilities(self, secret: str) -> Reply:
        return self.raw("GET", "/capabilities", headers=signed_headers(b"", secret, content_type=None))


def validate_reply(reply: Reply) -> None:
    """Every answer is JSON carrying ``contractVersion: 1`` (W4) and matches its schema."""
    assert reply.headers.get("content-type", "").startswith("application/json"), reply.headers
    data = reply.json()
    assert data.get("contractVersion") == 1, data
    if reply.status >= 400:
        _VALIDATORS["error-response"].validate(data)
        if reply.status in (429, 503):
            assert reply.headers.get("retry-after", "").isdigit(), "503/429 must carry Retry-After (W7)"
    elif "results" in data:
        _VALIDATORS["retrieve-response"].validate(data)
        for result in data["results"]:
            assert set(result) <= KNOWN_RESULT_FIELDS, set(result) - KNOWN_RESULT_FIELDS
    elif "capabilities" in data:
        _VALIDATORS["capabilities-response"].validate(data)


def ram_index(schema: Any) -> Any:
    """A Whoosh index in memory under a name of its own. Whoosh's writers spill to a
    folder named after the index in the system's temporary directory (``/tmp/MAIN.tmp``
    for every index of the default name), so two test runs at once deleted each other's
    files there."""
    from uuid import uuid4

    from whoosh.filedb.filestore import RamStorage

    return RamStorage().create_index(schema, indexname=f"test-{uuid4().hex}")



class StaticSite:
    """A web site on 127.0.0.1 that serves ``pages`` (path → bytes; anything else 404) and
    ``redirects`` (path → Location, a 302), for tests that read a sitemap over HTTP.
    ``pages`` may be replaced while it runs.

    Use as a context manager: ``with StaticSite() as site: site.pages = {...}; site.url``.
    """

    def __init__(self) -> None:
        self.pages: dict[str, bytes] = {}
        #: path → where it redirects (302 with that Location)
        self.redirects: dict[str, str] = {}
        #: every path requested, in order
        self.requested: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                outer.requested.append(self.path)
                if self.path in outer.redirects:
                    self.send_response(302)
                    self.send_header("Location", outer.redirects[self.path])
                    self.end_headers()
                    return
                body = outer.pages.get(self.path)
                self.send_response(200 if body is not None else 404)
                self.end_headers()
                self.wfile.write(body or b"not found")

            def log_message(self, *args: object) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> StaticSite:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def public_index_paths(index: Path) -> set[str]:
    """The ``path`` of every document in the public index (what ``customer_safe`` can
    reach) of the current build in the index folder ``index``."""
    from whoosh import index as whoosh_index

    from provider.search.layout import PUBLIC, IndexLayout

    layout = IndexLayout(index)
    name = layout.current_name()
    assert name is not None
    with whoosh_index.open_dir(str(layout.build_dir(name) / PUBLIC)).searcher() as searcher:
        return {fields["path"] for fields in searcher.all_stored_fields()}
