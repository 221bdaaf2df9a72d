"""The black-box checker's command line: ``conformance URL …`` (the kit's console
command) and ``knowledge-provider conformance URL …`` (the same command, mounted by the
reference provider's CLI). Contract §8.2.

A module beside the checker's package, not in it: the reference provider's CLI mounts
the command at every start, and the checker itself (httpx, jsonschema, the schemas) is
imported only when the command runs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .registrations import Exposure

__all__ = ["CONFORMANCE_SECRET_ENV", "EXIT_CANNOT_CHECK", "conformance", "run", "tls_hint"]


def tls_hint(base: str, text: str, url_name: str) -> str | None:
    """What to change when a connection failed over a TLS mismatch; ``None`` otherwise."""
    if "CERTIFICATE_VERIFY_FAILED" in text or "certificate verify failed" in text:
        return f"{base}: the server's certificate is not trusted; pass --cacert FILE (e.g. dev-cert/cert.pem)"
    if base.startswith("http://") and ("disconnected" in text.lower() or "reset" in text.lower()):
        return f"{base}: the connection was closed; if the server uses TLS, use https:// in {url_name}"
    if "WRONG_VERSION_NUMBER" in text or "wrong version number" in text:
        return f"{base}: the server does not speak TLS here; use http:// in {url_name}"
    return None


#: Where ``conformance`` reads the secrets when the options are not given. Separate from
#: the ``serve`` variables: those may hold several comma-separated secrets (rotation).
CONFORMANCE_SECRET_ENV: dict[Exposure, str] = {
    Exposure.CUSTOMER_SAFE: "KNOWLEDGE_PROVIDER_CONFORMANCE_CUSTOMER_SAFE_SECRET",
    Exposure.AGENT_ONLY: "KNOWLEDGE_PROVIDER_CONFORMANCE_AGENT_ONLY_SECRET",
}
#: ``conformance`` exit status when no check can run: the provider is unreachable or
#: refuses the secret (1 = a check failed).
EXIT_CANNOT_CHECK = 2


@click.command()
@click.argument("url")
@click.option("--customer-safe-secret", required=True, envvar=CONFORMANCE_SECRET_ENV[Exposure.CUSTOMER_SAFE],
              show_envvar=True, help="Secret of the provider's customer_safe registration (prefer the variable).")
@click.option("--agent-only-secret", envvar=CONFORMANCE_SECRET_ENV[Exposure.AGENT_ONLY], show_envvar=True,
              help="Secret of its agent_only registration, if it has one; checks that need it are skipped without.")
@click.option("--canary-query", "canary_queries", multiple=True, metavar="PHRASE",
              help="A phrase that occurs only in internal documents (repeatable); drives the exposure checks.")
@click.option("--draft-canary-query", "draft_canary_queries", multiple=True, metavar="PHRASE",
              help="A phrase that occurs only in drafts or unpublished documents (repeatable); no registration "
                   "may be served it (X5).")
@click.option("--document-ids", "document_ids_file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Record the documentIds seen in FILE, or compare with it when it exists: run, restart or "
                   "re-index the provider, run again with the same FILE (R2).")
@click.option("--strict-deployment", is_flag=True,
              help="URL runs strict (ContractSettings(strict=True), KNOWLEDGE_PROVIDER_STRICT=1 in the examples): "
                   "drop the report's note that repairs are invisible from outside.")
@click.option("--query", "probe_queries", multiple=True, metavar="TEXT",
              help="A query that finds public documents (repeatable); default: common support words.")
@click.option("--cacert", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Certificate or CA bundle to trust for https (e.g. dev-cert/cert.pem).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--application-only", is_flag=True,
              help="URL serves the application without its reverse proxy (a test): skip the proxy's duties "
                   "(W4 on requests that never reach the application), saying so.")
def conformance(
    url: str,
    customer_safe_secret: str,
    agent_only_secret: str | None,
    canary_queries: tuple[str, ...],
    draft_canary_queries: tuple[str, ...],
    document_ids_file: Path | None,
    strict_deployment: bool,
    probe_queries: tuple[str, ...],
    cacert: Path | None,
    as_json: bool,
    application_only: bool,
) -> None:
    """Check any provider at URL against Knowledge Provider Interface v1, black box.

    Prints one line per check (PASS/FAIL/SKIP, CONTRACT.md id, name, reason), a NOTE
    per thing the run could not see, and a summary; exits 1 if any check failed, 2 if
    none could run (URL unreachable, or a correctly signed request refused: wrong secret).
    """
    from .conformance import ProviderUnreachable, SecretRefused, check_url, format_json, format_text

    if not url.startswith(("http://", "https://")):
        raise click.UsageError(f"URL must start with https:// (or http:// for a local test), not {url!r}")
    if url.startswith("http://") and not as_json:
        click.echo("note: the core only calls https URLs (CONTRACT O1); plain http is fine for a local test", err=True)
    try:
        report = check_url(
            url,
            customer_safe_secret=customer_safe_secret,
            agent_only_secret=agent_only_secret or None,
            canary_queries=canary_queries,
            draft_canary_queries=draft_canary_queries,
            probe_queries=probe_queries,
            cafile=str(cacert) if cacert else None,
            application_only=application_only,
            strict_deployment=strict_deployment,
            document_ids_file=str(document_ids_file) if document_ids_file else None,
        )
    except ProviderUnreachable as exc:
        hint = tls_hint(url, str(exc), "URL") or f"{exc}; is the URL right and the provider running?"
        click.echo(f"Error: {hint}", err=True)
        sys.exit(EXIT_CANNOT_CHECK)
    except SecretRefused as exc:
        click.echo(f"Error: {exc}. Check --customer-safe-secret / --agent-only-secret.", err=True)
        sys.exit(EXIT_CANNOT_CHECK)
    click.echo(format_json(report) if as_json else format_text(report))
    if report.failed:
        sys.exit(1)


def run() -> None:  # pragma: no cover - console-script shim
    conformance(prog_name="conformance")
