"""``knowledge-provider dev-cert``: a self-signed certificate for local TLS testing.

The Helpthread core only calls ``https`` URLs (CONTRACT O1). In production, terminate
TLS with a real certificate (in the provider, or in a reverse proxy); this is for
trying the provider's own TLS on a workstation and for the end-to-end tests.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
from collections.abc import Iterable
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

__all__ = ["write_dev_certificate"]


def _names(hosts: Iterable[str]) -> list[x509.GeneralName]:
    names: list[x509.GeneralName] = []
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    return names


def write_dev_certificate(folder: Path, *, hosts: Iterable[str] = ("localhost", "127.0.0.1", "::1"),
                          days: int = 30) -> tuple[Path, Path]:
    """Write ``cert.pem`` and ``key.pem`` (mode 0600) into ``folder``.

    Args:
        folder: created if missing.
        hosts: DNS names and IP addresses the certificate is valid for.
        days: validity in days, from now.

    Returns:
        (certificate path, key path).
    """
    hosts = list(hosts)
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hosts[0] if hosts else "localhost"),
                         x509.NameAttribute(NameOID.ORGANIZATION_NAME, "knowledge-provider dev-cert")])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=days))
        .add_extension(x509.SubjectAlternativeName(_names(hosts)), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    return cert_path, key_path
