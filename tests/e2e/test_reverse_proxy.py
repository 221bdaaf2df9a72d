"""The reverse-proxy recipe (deploy/nginx/knowledge-provider.conf), started with the real
nginx of the distribution in front of the real provider: the conformance suite passes
through it over TLS (CONTRACT O1) — W4 included for the requests nginx refuses itself,
which never reach the application (issue 25) — and a slow client is cut by the proxy."""

from __future__ import annotations

import os
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from helpthread_kit.conformance import Status, check_url, format_text
from provider.devcert import write_dev_certificate
from tests.conftest import AGENT_SECRET, CUSTOMER_SECRET, free_port
from tests.support import REPO_ROOT, ProviderProcess

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300),
              pytest.mark.skipif(NGINX is None and not os.environ.get("KP_REQUIRE_NGINX"),
                                 reason="nginx is not installed (apt-get install nginx)")]
RECIPE = REPO_ROOT / "deploy" / "nginx" / "knowledge-provider.conf"
#: Phrases of the sample wiki that occur only in internal articles.
CANARIES = ("refund exception ledger", "goodwill credit matrix")


def nginx_config(folder: Path, upstream: str, port: int, cert_dir: Path) -> Path:
    """An nginx.conf for a private prefix that includes the recipe as it is shipped, its
    three placeholders filled in."""
    site = RECIPE.read_text("utf-8")
    for name, value in (("@UPSTREAM@", upstream), ("@LISTEN@", f"127.0.0.1:{port}"), ("@CERT_DIR@", str(cert_dir))):
        site = site.replace(name, value)
    (folder / "knowledge-provider.conf").write_text(site, "utf-8")
    temp = {name: folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir(exist_ok=True)
    main = f"""
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {temp["body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
    include {folder}/knowledge-provider.conf;
}}
"""
    path = folder / "nginx.conf"
    path.write_text(main, "utf-8")
    return path


@pytest.fixture(scope="module")
def proxied(sample_server: ProviderProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The sample provider behind nginx over TLS: (https base URL, the certificate)."""
    folder = tmp_path_factory.mktemp("nginx")
    cert, _ = write_dev_certificate(folder / "tls", hosts=("127.0.0.1", "localhost"))
    port = free_port()
    upstream = urlsplit(sample_server.base_url).netloc
    config = nginx_config(folder, upstream, port, cert.parent)
    assert NGINX is not None
    proc = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(config), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert proc.poll() is None, (folder / "error.log").read_text("utf-8", "replace")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not listen"
                time.sleep(0.1)
        yield f"https://127.0.0.1:{port}", cert
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_the_conformance_suite_passes_through_the_proxy_over_tls(proxied: tuple[str, Path]) -> None:
    url, cert = proxied
    report = check_url(url, customer_safe_secret=CUSTOMER_SECRET, agent_only_secret=AGENT_SECRET,
                       canary_queries=CANARIES, cafile=str(cert))
    assert not report.failed, format_text(report)
    for outcome in report.outcomes:
        if outcome.id in ("W4", "A2", "A5", "O1"):
            assert outcome.status is Status.PASS, (outcome.key, outcome.reason)
    envelope = next(o for o in report.outcomes if "with the envelope" in o.name)
    assert envelope.status is Status.PASS, envelope.reason


def test_a_slow_request_head_is_cut_by_the_proxy(proxied: tuple[str, Path]) -> None:
    """A client that never finishes its request head holds nothing for long (W7): nginx
    closes it after client_header_timeout (10 s), with the envelope or without a word."""
    url, cert = proxied
    parts = urlsplit(url)
    context = ssl.create_default_context(cafile=str(cert))
    started = time.monotonic()
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as plain, \
            context.wrap_socket(plain, server_hostname=parts.hostname) as sock:
        sock.sendall(b"POST /retrieve HTTP/1.1\r\nHost: x\r\n")  # and nothing more
        data = b""
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except (ssl.SSLError, ConnectionError):
            pass
    assert time.monotonic() - started < 20
    assert data == b"" or b'"contractVersion":1' in data, data[:300]
