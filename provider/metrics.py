"""Prometheus metrics, served on a separate port (loopback by default).

Every serving worker and the index writer are separate processes, so the metrics use
``prometheus_client``'s multiprocess mode: each process writes its values to memory-
mapped files in a shared folder, and the ``/metrics`` endpoint (run by the writer
process) adds them up. :func:`prepare` must run before ``prometheus_client`` is first
imported in a process — the CLI does it, and workers inherit the environment.

Exported:

==========================================  =============================================
``knowledge_provider_requests_total``        requests by route and status
``knowledge_provider_request_seconds``       latency histogram by route
``knowledge_provider_auth_refusals_total``   authentication refusals by code (replays
                                             are ``code="replayed_nonce"``)
``knowledge_provider_backend_repairs_total`` answers the contract layer had to repair, by
                                             the duty the backend broke (``duty="X6"``…;
                                             a backend bug: should stay 0)
``knowledge_provider_index_generation``      the number of index commits made so far
``knowledge_provider_last_scan_timestamp``   Unix time of the last completed full scan
``knowledge_provider_documents``             servable documents by audience
==========================================  =============================================

Labels never carry a query, a nonce or a registration secret.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from helpthread_kit.records import RequestRecord

__all__ = ["MULTIPROC_ENV", "Metrics", "prepare"]

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
_KNOWN_ROUTES = frozenset({"/retrieve", "/capabilities", "/healthz", "/readyz"})


def prepare(folder: Path) -> None:
    """Empty ``folder`` and point this process (and its children) at it.

    Call once, in the parent process, before anything imports ``prometheus_client``.
    """
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    os.environ[MULTIPROC_ENV] = str(folder)


class Metrics:
    """The provider's metrics in this process (see the module docstring)."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Gauge, Histogram

        self.requests = Counter("knowledge_provider_requests_total", "Requests by route and status.",
                                ["route", "status"])
        self.latency = Histogram(
            "knowledge_provider_request_seconds", "Request latency by route, in seconds.", ["route"],
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
        )
        self.auth_refusals = Counter("knowledge_provider_auth_refusals_total",
                                     "Authentication refusals by error code.", ["code"])
        self.repairs = Counter("knowledge_provider_backend_repairs_total",
                               "Answers the contract layer had to repair, by the CONTRACT duty the backend broke.",
                               ["duty"])
        self.generation = Gauge("knowledge_provider_index_generation", "Index commits made so far.",
                                multiprocess_mode="max")
        self.last_scan = Gauge("knowledge_provider_last_scan_timestamp",
                               "Unix time of the last completed full scan of the content folder.",
                               multiprocess_mode="max")
        self.documents = Gauge("knowledge_provider_documents", "Servable documents by audience.", ["audience"],
                               multiprocess_mode="mostrecent")

    def observe_request(self, record: RequestRecord) -> None:
        """Count one answered request (the contract app's observer hook)."""
        route = record.path if record.path in _KNOWN_ROUTES else "other"
        self.requests.labels(route=route, status=str(record.status)).inc()
        self.latency.labels(route=route).observe(record.duration_s)
        if record.status == 401 and record.error_code:
            self.auth_refusals.labels(code=record.error_code).inc()
        for duty in record.repairs:
            self.repairs.labels(duty=duty).inc()

    def observe_index(self, *, generation: int, by_audience: dict[str, int], last_scan: float | None) -> None:
        """Record the writer's view of the index after a sync."""
        self.generation.set(generation)
        for audience in ("public", "internal"):
            self.documents.labels(audience=audience).set(by_audience.get(audience, 0))
        if last_scan:
            self.last_scan.set(last_scan)


def start_server(host: str, port: int) -> Any:
    """Serve ``/metrics`` (Prometheus text format) for every process, in a daemon thread.

    Returns:
        the HTTP server object (``shutdown()`` stops it).
    """
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    server, _thread = start_http_server(port, addr=host, registry=registry)
    return server
