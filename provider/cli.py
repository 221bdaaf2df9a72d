"""The ``knowledge-provider`` command. Thin: each command calls library functions and
turns their errors into one clear message with the next step."""

from __future__ import annotations

import json
import logging
import os
import ssl
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from helpthread_kit.conformance_cli import CONFORMANCE_SECRET_ENV, EXIT_CANNOT_CHECK, conformance, tls_hint
from helpthread_kit.registrations import ConfigurationError, Exposure, Registration

from . import __version__
from .config import SECRET_ENV, SETTINGS, ProviderConfig, load_config, registrations_from_env
from .logsetup import setup_logging
from .startup import (
    SERVING_STATE,
    StartupError,
    announcer,
    live_indexer,
    open_indexer,
    progress,
)

# The server stack (Litestar, uvicorn, Whoosh) is imported by the commands that need it,
# so `query`, `check` and --help start quickly.
if TYPE_CHECKING:
    from .devmode import DevState
    from .indexing import Indexer, SyncReport
    from .wiki.check import CheckReport, Failure

log = logging.getLogger("provider")
_Command = TypeVar("_Command", bound=Callable[..., Any])

_config_option = click.option(
    "--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
    help="YAML configuration file (default: $KNOWLEDGE_PROVIDER_CONFIG, else ./knowledge-provider.yaml if present).",
)


class SettingOption(click.Option):
    """An option that overrides a setting of the configuration file (its name, with
    dashes); the configuration reference page lists it with the setting."""


def _setting_option(key: str, *, more: str = "") -> Callable[[_Command], _Command]:
    """The option ``--key-name`` that overrides the configuration's ``key``: its type,
    bounds and help come from the setting's declaration (:data:`provider.config.SETTINGS`)."""
    item = SETTINGS[key]
    text = f"{item.help[0].upper()}{item.help[1:]}{more}"
    kwargs: dict[str, Any] = {"cls": SettingOption}
    if item.kind is bool:
        kwargs["is_flag"] = True
        text += f"; also ${item.env}=1." if item.env else "."
    else:
        text += f" (default: {item.default_text})."
    if item.choices:
        kwargs["type"] = click.Choice(item.choices)
    elif item.kind is int:
        kwargs["type"] = click.IntRange(int(item.meta.ge or 0), None if item.meta.le is None else int(item.meta.le))
    elif item.path:
        kwargs["type"] = click.Path(file_okay=item.path == "file", dir_okay=item.path == "folder", path_type=Path)
    return click.option(f"--{key.replace('_', '-')}", help=text, **kwargs)


@contextmanager
def _startup_errors() -> Iterator[None]:
    """An unusable setting exits 2, anything else that stops a start exits 1, each with
    its message and no traceback."""
    try:
        yield
    except ConfigurationError as exc:
        raise ConfigError(str(exc)) from None
    except StartupError as exc:
        raise click.ClickException(str(exc)) from None


#: Exit status of every command when the configuration is unusable (as `check`'s 2);
#: 1 is for other failures (a busy port, an unreachable provider).
EXIT_CONFIGURATION = 2


class ConfigError(click.ClickException):
    """An unusable configuration or option: the message, and exit status 2."""

    exit_code = EXIT_CONFIGURATION


def _load(config_path: Path | None, **overrides: Any) -> ProviderConfig:
    try:
        config = load_config(config_path)
        cwd = Path.cwd()
        paths = {k: (cwd / v).resolve() for k, v in overrides.items() if isinstance(v, Path)}
        others = {k: v for k, v in overrides.items() if not isinstance(v, Path)}
        return config.with_overrides(**paths, **others)
    except ConfigurationError as exc:
        raise ConfigError(str(exc)) from None


def format_report(report: SyncReport, *, detail_limit: int = 25) -> str:
    """A short human summary of a sync: documents by audience and locale, skipped files
    with reasons, files with warnings."""
    from .wiki.reasons import describe_withheld

    lines = []
    what = "built" if report.rebuilt else ("updated" if report.changed else "up to date")
    served = sum(report.by_audience.values())
    audiences = ", ".join(f"{n} {a}" for a, n in sorted(report.by_audience.items())) or "none"
    locales = ", ".join(f"{n} {loc}" for loc, n in sorted(report.by_locale.items())) or "none"
    lines.append(
        f"Index {what} in {report.duration_s:.2f}s: {served} documents served ({audiences}; by locale: {locales})"
        + (f", {report.drafts} withheld ({describe_withheld(report.withheld_by) or 'see check'})"
           if report.drafts else "")
    )
    flagged = {**{k: list(v) for k, v in report.warnings.items()}}
    for relpath, problems in report.problems.items():
        flagged.setdefault(relpath, []).extend(problems)
    # The same groups and counts as `knowledge-provider check`: quarantined files with
    # their reasons, then skipped ones, then the other files with warnings.
    quarantined = sorted(report.quarantined)
    if quarantined:
        lines.append(f"Quarantined {len(quarantined)} files (served as internal or withheld because of an error):")
        lines += [f"  {relpath}: {'; '.join(flagged.get(relpath, []))}" for relpath in quarantined[:detail_limit]]
        if len(quarantined) > detail_limit:
            lines.append(f"  … and {len(quarantined) - detail_limit} more: run `knowledge-provider check`")
    if report.skipped:
        lines.append(f"Skipped {len(report.skipped)} files:")
        lines += [f"  {s.relpath}: {s.reason}" for s in report.skipped[:detail_limit]]
        if len(report.skipped) > detail_limit:
            lines.append(f"  … and {len(report.skipped) - detail_limit} more")
    warned = sorted(set(flagged) - set(quarantined))
    if warned:
        lines.append(f"Warnings in {len(warned)} files:")
        for relpath in warned[:detail_limit]:
            lines.append(f"  {relpath}: {'; '.join(flagged[relpath])}")
        if len(warned) > detail_limit:
            lines.append(f"  … and {len(warned) - detail_limit} more")
    return "\n".join(lines)


def _sync(indexer: Indexer, config: ProviderConfig, *, rebuild: bool = False) -> SyncReport:
    report = indexer.sync(rebuild=rebuild, progress=progress(config)("Indexing"))
    click.echo(format_report(report), err=True)
    return report


class _Group(click.Group):
    """The command group: each command's summary is its help's first sentence, whole
    (click cuts it to the terminal's width with "…", which left operators guessing)."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=sys.maxsize)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="knowledge-provider")
def main() -> None:
    """Reference knowledge provider (Helpthread Knowledge Provider Interface v1) over a
    folder of markdown files.

    \b
    Quick start:
      knowledge-provider serve --dev          # index ./content and serve on 127.0.0.1:8080
      knowledge-provider query "reset password"
      knowledge-provider check                # lint the wiki (for the docs repo's CI)
    """


@main.command()
@_config_option
@_setting_option("content")
@_setting_option("index")
@_setting_option("capabilities", more=", comma-separated, as `serve` will declare them (with chunking the index "
                 "holds passages)")
@click.option("--rebuild", is_flag=True, help="Build a fresh index aside and swap it in.")
@click.option("--watch", is_flag=True, help="Keep following the content folder after indexing (no server).")
@_setting_option("poll")
def index(config_path: Path | None, rebuild: bool, watch: bool, poll: bool, **settings: Any) -> None:
    """Build or update the index, then exit (or, with --watch, keep it up to date).

    \b
    Exit status: 0 done (with --watch: stopped by SIGTERM or Ctrl-C); 2 unusable
    configuration or option; 128 + the signal number when a one-shot run is interrupted;
    1 other failures (the index is locked by another process).
    """
    from .search.backend import WhooshBackend

    config = _load(config_path, **settings)
    with _startup_errors():
        config.declared_capabilities(WhooshBackend.implemented_capabilities)
        setup_logging(config.log_level, config.log_format)
        _index(config, rebuild=rebuild, watch=watch, poll=poll)


def _index(config: ProviderConfig, *, rebuild: bool, watch: bool, poll: bool) -> None:
    with open_indexer(config, long_running=watch) as indexer:
        if rebuild:
            _sync(indexer, config, rebuild=True)
        if not watch:
            if not rebuild:
                _sync(indexer, config)
            return
        live = live_indexer(indexer, config, describe=format_report, poll=poll)
        announcer(config)(f"Watching {config.content} for changes (Ctrl-C to stop)")
        # The watcher runs in a thread, as under `serve`: in the main thread, watchfiles
        # would take Ctrl-C and SIGTERM for itself and the loop would start again.
        live.start()
        try:
            while live.running():
                time.sleep(0.5)
        finally:
            live.stop()  # also when Ctrl-C or SIGTERM unwinds (see provider.startup)


def _serving_registrations(dev: bool, url: str, content: Path | None = None) -> list[Registration]:
    if dev:
        from .devmode import create_dev_registrations, dev_state_path

        previous = dev_state_path(url)
        if previous.exists() and (other := _running_state(previous)) is not None:
            click.echo(f"note: another `serve --dev` (pid {other.pid}, {_shown(other.url)}) wrote "
                       f"{previous} and is still running; its secrets are replaced", err=True)
        registrations, values, path = create_dev_registrations(url, content=content)
        # The secrets go to the state file only, never to the log (a terminal's
        # scrollback, a CI log, a screen share): `query` reads them there.
        click.echo(f"Development mode: random secrets for this run are in {path} (mode 0600); "
                   "`knowledge-provider query` signs with them", err=True)
        for name, value in values.items():
            variable = SECRET_ENV[Exposure(name)]
            # Worker processes read their secrets from the environment.
            os.environ[variable] = value
            os.environ.pop(f"{variable}_FILE", None)
        return registrations
    try:
        registrations = registrations_from_env()
    except ConfigurationError as exc:
        raise ConfigError(str(exc)) from None
    if not registrations:
        names = " or ".join(SECRET_ENV.values())
        raise ConfigError(
            f"no secret is set: export {names} (at least 32 characters, e.g. from "
            "`python3 -c 'import secrets; print(secrets.token_urlsafe(48))'`), "
            "or run `knowledge-provider serve --dev` for throwaway local secrets"
        )
    return registrations


def _running_state(path: Path) -> DevState | None:
    from .devmode import dev_states

    return next((s for s in dev_states() if s.path == path and s.running()), None)


def _loopback_only(config: ProviderConfig) -> ProviderConfig:
    """``--dev``: the API and metrics on loopback, whatever the configuration says."""
    loopback = ("127.0.0.1", "localhost", "::1")
    if config.host in loopback and config.metrics_host in loopback:
        return config
    click.echo("--dev listens on loopback only (the API and metrics)", err=True)
    return config.with_overrides(host="127.0.0.1", metrics_host="127.0.0.1")


@main.command()
@_config_option
@_setting_option("content")
@_setting_option("index")
@_setting_option("host")
@_setting_option("port")
@_setting_option("capabilities", more=", comma-separated")
@_setting_option("workers")
@_setting_option("replay_store")
@_setting_option("metrics_port", more="; loopback unless metrics_host says otherwise")
@_setting_option("ssl_certfile")
@_setting_option("ssl_keyfile")
@_setting_option("log_format")
@click.option("--dev", is_flag=True,
              help="Generate throwaway secrets into a state file (mode 0600, its path logged, removed when the "
                   "server stops; `query` signs with them; the secrets are never printed), listen on loopback only.")
@click.option("--rebuild", is_flag=True,
              help="Rebuild the index from scratch aside while the current build keeps answering (kept up to "
                   "date meanwhile, reclassifications included), then swap it in atomically. Without a usable "
                   "current build: not ready until the build is done.")
@_setting_option("poll")
def serve(config_path: Path | None, dev: bool, rebuild: bool, poll: bool, **settings: Any) -> None:
    """Serve POST /retrieve and GET /capabilities, keeping the index equal to the wiki.

    The server listens at once; /readyz and /retrieve answer 503 until the startup
    sync has brought the index up to date. File changes are then indexed as they happen.

    \b
    Exit status: 0 after a stop by SIGTERM or Ctrl-C (one log line says so);
    2 unusable configuration or option; 1 other failures (port taken, index locked).
    """
    from . import startup

    config = _load(config_path, **settings)
    if dev:
        config = _loopback_only(config)
    with _startup_errors():
        startup.prepare_serving(config)
        registrations = _serving_registrations(dev, startup.serving_url(config), config.content.resolve())
        try:
            startup.serve(config, registrations, describe=format_report, poll=poll, rebuild=rebuild, dev=dev)
        finally:
            if dev:  # this run's secrets: no use once it stops (docs/how-to/run.md)
                from .devmode import forget_dev_state

                forget_dev_state(startup.serving_url(config))


def _serving_address(config: ProviderConfig) -> tuple[str, str, int, str]:
    """(scheme, host, port, where it was learnt) of the local server: from the state a
    running ``serve`` wrote, else from the configuration."""
    try:
        state = json.loads((config.state_dir / SERVING_STATE).read_text("utf-8"))
        pid = int(state["pid"])
        os.kill(pid, 0)
        return str(state["scheme"]), str(state["host"]), int(state["port"]), f"serve (pid {pid})"
    except PermissionError:
        return str(state["scheme"]), str(state["host"]), int(state["port"]), "serve"
    except (OSError, ValueError, KeyError, TypeError):
        scheme = "https" if config.ssl_certfile else "http"
        return scheme, config.host, config.port, "the configuration"


@main.command()
@_config_option
@_setting_option("index")
@click.option("--timeout", "timeout_s", type=click.FloatRange(0.1, 60), default=2.0, show_default=True,
              help="Seconds to wait for the answer.")
def healthcheck(config_path: Path | None, index: Path | None, timeout_s: float) -> None:
    """Exit 0 if the local `serve` answers GET /healthz with 200, else 1 (a container
    HEALTHCHECK, a systemd or cron probe).

    It probes where the running server says it listens (index/state/serving.json: its
    port and http or https, whatever options started it), else where the configuration
    says; 0.0.0.0 and :: are probed on loopback. The certificate is not verified: this
    checks that this machine's server is alive, not who it is. Exit status 1 on every
    failure, a bad configuration included (Docker reserves 2).
    """
    import urllib.error
    import urllib.request

    try:
        config = load_config(config_path)
        if index is not None:
            config = config.with_overrides(index=(Path.cwd() / index).resolve())
    except ConfigurationError as exc:
        click.echo(f"unhealthy: {exc}", err=True)
        sys.exit(1)
    scheme, host, port, learnt = _serving_address(config)
    host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)  # noqa: S104 - mapped to loopback
    url = f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}/healthz"
    context = None
    if scheme == "https":
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    try:
        with urllib.request.urlopen(url, timeout=timeout_s, context=context) as answer:  # noqa: S310 - our URL
            status = answer.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except (OSError, ValueError) as exc:
        click.echo(f"unhealthy: {url} (from {learnt}): {getattr(exc, 'reason', exc)}", err=True)
        sys.exit(1)
    if status != 200:
        click.echo(f"unhealthy: {url} (from {learnt}) answered {status}", err=True)
        sys.exit(1)
    click.echo(f"healthy: {url} (from {learnt})")


@main.command("dev-cert")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("dev-cert"), show_default=True,
              help="Folder to write cert.pem and key.pem into.")
@click.option("--host", "hosts", multiple=True, default=("localhost", "127.0.0.1", "::1"), show_default=True,
              help="Names and addresses the certificate is valid for (repeatable).")
@click.option("--days", type=click.IntRange(1, 3650), default=30, show_default=True)
def dev_cert(out: Path, hosts: tuple[str, ...], days: int) -> None:
    """Write a self-signed certificate and key for local TLS testing (never for production)."""
    from .devcert import write_dev_certificate

    cert, key = write_dev_certificate(out, hosts=hosts, days=days)
    click.echo(f"Wrote {cert} and {key} (key mode 0600), valid {days} days for {', '.join(hosts)}.\n"
               f"Serve with: knowledge-provider serve --ssl-certfile {cert} --ssl-keyfile {key}\n"
               f"Query with: knowledge-provider query TEXT --url https://127.0.0.1:8080 --cacert {cert}")


_CHECK_COLUMNS = ("STATUS", "CUSTOMER_SAFE", "AUDIENCE", "WHY", "LOCALE", "WHERE", "GROUP", "PATH")


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def format_check(report: CheckReport, *, problems_only: bool = False, urls: bool = False,
                 strict_failures: Sequence[str] = (), wide: bool = False,
                 failures: Sequence[Failure] | None = None) -> str:
    """The human form of ``check``: settings, a table of files, problems, a summary
    (``urls``: and each document's citation URL), and one verdict: ``FAILED``, the
    ``STRICT`` failures, or ``OK``, then the failures counted by class (``failures``,
    :meth:`CheckReport.classified_failures`; default: a plain check's). ``wide``: table
    cells are never cut short."""
    lines = _format_settings(report) + _format_table(report, problems_only=problems_only, wide=wide)
    for pattern in report.unused_rules:
        lines.append(f"Warning: audience rule {pattern!r} matches no file (a typo leaves those pages internal)")
    if report.unused_rules:
        lines.append("")
    lines += _format_findings(report)
    quarantined = [e for e in report.files if e.quarantined]
    if quarantined:
        lines.append(f"Quarantined ({len(quarantined)}):")
        lines += [f"  {e.path}: {'; '.join(e.reasons)}" for e in quarantined]
        lines.append("")
    flagged = [e for e in report.files if e.warnings]
    if flagged:
        lines.append(f"Warnings ({len(flagged)} files):")
        lines += [f"  {e.path}: {'; '.join(e.warnings)}" for e in flagged]
        lines.append("")
    lines += _format_site(report, urls=urls)
    summary = report.summary()
    lines += _format_summary(summary)
    if failures is None:
        failures = report.classified_failures()
    classes = {f.message: f.failure_class for f in failures}
    shown = [f"[{classes[f]}] {f}" if f in classes else f for f in strict_failures]
    return "\n".join(lines + _format_verdict(report, summary["quarantined"], shown) + _format_classes(failures))


def _format_classes(failures: Sequence[Failure]) -> list[str]:
    """One line per class of failure (:data:`~provider.wiki.check.FAILURE_CLASSES`),
    nothing when there is none: a heading finding on an internal page does not read like a
    leak to someone who sees only that ``check`` failed."""
    from .wiki.check import FAILURE_CLASSES

    if not failures:
        return []
    counts = _class_counts(failures)
    return ["Failures by class (`check --json` lists each under failures[]):",
            *(f"  {name:<12}{counts[name]:>5}  {_CLASS_MEANING[name]}" for name in FAILURE_CLASSES)]


def _class_counts(failures: Sequence[Failure]) -> dict[str, int]:
    """Failures counted by class, every class present (``failureClasses`` in ``--json``)."""
    from .wiki.check import FAILURE_CLASSES

    counts = Counter(f.failure_class for f in failures)
    return {name: counts.get(name, 0) for name in FAILURE_CLASSES}


#: What each class of failure means to the operator, for ``check``'s last lines.
_CLASS_MEANING = {
    "leak-risk": "text that looks internal in a page its rules publish, or a withholding rule matching nothing",
    "withheld": "a page its rules publish kept from customers (sitemap, copy, twin, unclosed section, rule typo)",
    "quarantined": "failed closed on an error: fix the file or the configuration",
    "notice": "nothing changes for customers (translations, URLs, findings on internal pages, stale acceptances)",
}


def _format_settings(report: CheckReport) -> list[str]:
    """``check``'s first lines: the settings the wiki was read with."""
    settings = report.settings
    patterns = ", ".join(p if isinstance(p, str) else f"{next(iter(p))} (source {next(iter(p.values()))})"
                         for p in settings["locale_patterns"])
    rules = ", ".join(f"{k} → {v}" for rule in settings["audience_rules"] for k, v in rule.items()) or "none"
    return [
        f"Content: {settings['root']}  (layout {settings['layout']}; default locale {settings['default_locale']}; "
        f"locales {', '.join(settings['locales'])})",
        f"Locale patterns: {patterns}",
        f"Audience rules: {rules}",
        *([f"Site configuration ({report.site.tool}): {', '.join(report.site.sources)}"]
          if report.site.sources else []),
        *(f"Site configuration not understood: {f.message}" for f in report.open_site_findings),
        *(f"Site configuration not understood, settled by the sitemap (it decides what is published): "
          f"{f.source}" for f in report.site.findings if report.settled(f)),
        *([] if report.sitemap is not None else [
            "Sitemap: none given, so what is public follows these rules and the docs tool's settings alone; "
            "the built site's sitemap proves what it publishes (`sitemap:`, docs/how-to/sitemap.md)"]),
        "",
    ]


#: Widest a table cell is shown (characters) unless ``check --wide``.
_CELL_MAX = 48


def _format_table(report: CheckReport, *, problems_only: bool, wide: bool = False) -> list[str]:
    """``check``'s table: one row per file (``problems_only``: per file with a problem;
    ``wide``: cells at full length, else cut at :data:`_CELL_MAX` characters with "…")."""
    rows = []
    for entry in report.files:
        if problems_only and not (entry.quarantined or entry.warnings):
            continue
        item = entry.resolved
        if item is None:
            rows.append(("skipped" + ("!" if entry.quarantined else ""), entry.customer_safe, "-",
                         entry.skipped or "", "-", "-", "-", entry.path))
            continue
        status = "served" if item.served else "withheld"
        if item.served and item.audience == "public" and not item.public:
            status = "served*"  # public, but no text outside internal sections
        why = item.audience_source if item.served else f"withheld: {item.withheld}"
        # A withheld page keeps the audience its rules gave; CUSTOMER_SAFE says it is not
        # published, so "public" there is not read as "customers get it" (issue 24).
        rows.append((status + ("!" if entry.quarantined else ""), entry.customer_safe, item.audience, why,
                     item.meta.locale, item.meta.sources.get("locale", ""), item.meta.translation_group, entry.path))
    if not rows:
        return []
    columns = len(_CHECK_COLUMNS) - 1  # PATH, last, is never padded or cut
    longest = [max(len(str(row[i])) for row in [_CHECK_COLUMNS, *rows]) for i in range(columns)]
    widths = longest if wide else [min(width, _CELL_MAX) for width in longest]
    lines = ["  ".join(c.ljust(w) for c, w in zip(_CHECK_COLUMNS, widths, strict=False)) + "  PATH"]
    for row in rows:
        cells = [_clip(str(c), w).ljust(w) for c, w in zip(row, widths, strict=False)]
        lines.append("  ".join(cells) + "  " + row[-1])
    lines.append("(CUSTOMER_SAFE: what a customer_safe credential gets: yes, part (the text outside internal "
                 "sections) or no. AUDIENCE: what the rules decided; a withheld page is served to nobody "
                 "whatever it says)")
    lines.append("(! quarantined; served* public but no text outside internal sections, so not in the public index)")
    if widths != longest:
        lines.append(f"(cells cut at {_CELL_MAX} characters end in …: `check --wide` or `--json` shows them in full)")
    lines.append("")
    return lines


def _format_summary(summary: dict[str, Any]) -> list[str]:
    """``check``'s summary (:meth:`CheckReport.summary`): counts, locales, drift and the
    sitemap's figures."""
    lines = ["Summary"]
    for key, label in (("files", "files and skipped folders"), ("served", "served"),
                       ("publicIndex", "  in the public index"), ("internal", "  internal"),
                       ("withheld", "withheld (served to nobody)"), ("skipped", "skipped"),
                       ("quarantined", "quarantined"), ("withWarnings", "with warnings"),
                       ("withInternalSections", "with internal sections"), ("translationGroups", "translation groups")):
        lines.append(f"  {label:<28}{summary[key]:>7}")
        if key == "withheld":  # by reason: the one kind an operator must act on shows
            lines += [f"    {count:>5}  {kind}" for kind, count in summary.get("withheldByReason", {}).items()]
    lines.append(f"  {'served by locale':<28}" + ", ".join(f"{k} {v}" for k, v in summary["byLocale"].items()))
    lines.append(f"  {'translation drift':<28}" + ", ".join(f"{k} {v}" for k, v in summary["drift"].items()))
    if "sitemap" in summary:
        site = summary["sitemap"]
        lines.append(f"  {'sitemap URLs':<28}{site['urls']:>7}")
        lines.append(f"  {'public by rules, not on site':<28}{site['publicByRulesNotOnSite']:>7}")
        for reason, count in site["byReason"].items():
            if count:
                lines.append(f"    {count:>5}  {reason}")
        lines.append(f"  {'site URLs without document':<28}{site['siteUrlsWithoutDocument']:>7}")
    return lines


def _format_verdict(report: CheckReport, quarantined: int, strict_failures: Sequence[str]) -> list[str]:
    """``check``'s last lines: ``FAILED`` with why, the ``STRICT`` failures, or ``OK``."""
    failures = [f"{quarantined} quarantined"] if quarantined else []
    if report.open_site_findings:
        failures.append(f"{len(report.open_site_findings)} site configuration file(s) not understood")
    if (sitemap_failure := report.sitemap_failure()) is not None:
        failures.append(sitemap_failure)
    lines = []
    if report.exit_code:
        lines.append(f"FAILED: {'; '.join(failures)} (exit 1)")
    elif not strict_failures:
        lines.append("OK: nothing quarantined (exit 0)")
    if strict_failures:
        lines.append(f"STRICT: {len(strict_failures)} failure(s) (exit 1):")
        lines += [f"  {f}" for f in strict_failures]
    return lines


def _format_site(report: CheckReport, *, urls: bool) -> list[str]:
    """``check``'s citation URLs (``urls``) and sitemap findings."""
    from .wiki.check import SITE_ONLY_SHOWN

    lines: list[str] = []
    if report.url_notes:
        lines.append(f"Citation URL problems ({len(report.url_notes)}):")
        lines += [f"  {note}" for note in report.url_notes]
        lines.append("")
    if urls:
        lines += _format_urls(report)
    if report.sitemap is None:
        return lines
    site = report.sitemap
    if site["error"]:
        lines.append(f"Sitemap: cannot be read: {site['error']}")
    else:
        lines.append(f"Sitemap: {site['urls']} published URLs from {len(site['files'])} file(s) "
                     f"({', '.join(site['sources'])})")
    off = [e for e in report.files if e.resolved is not None and e.resolved.off_site]
    if off:
        lines.append(f"Withheld from customer_safe by the sitemap ({len(off)}; agents keep them):")
        lines += [f"  {e.path}: {e.resolved.audience_source}" for e in off if e.resolved is not None]
    if report.site_only:
        lines.append(f"Sitemap URLs no document produces ({len(report.site_only)}; many mean the citation URL "
                     "pattern is wrong):")
        lines += [f"  {url}" for url in report.site_only[:SITE_ONLY_SHOWN]]
        if len(report.site_only) > SITE_ONLY_SHOWN:
            lines.append(f"  … and {len(report.site_only) - SITE_ONLY_SHOWN} more (--json lists them all)")
    lines.append("")
    return lines


def _format_urls(report: CheckReport) -> list[str]:
    """``check --urls``: each served document's citation URL; where there is none, a
    numbered note says why and what to set, once per cause."""
    causes: dict[str, int] = {}
    rows = []
    for entry in report.files:
        if entry.resolved is None or not entry.resolved.served:
            continue
        if entry.url is not None:
            rows.append(f"  {entry.path}  {entry.url}")
            continue
        number = causes.setdefault(entry.url_missing or "unknown", len(causes) + 1)
        rows.append(f"  {entry.path}  (none) [{number}]")
    lines = ["Citation URLs:", *(rows or ["  (no document is served)"])]
    if causes:
        lines.append("Why some have none:" if any(e.url for e in report.files) else "Why none has one:")
        lines += [f"  [{number}] {cause}" for cause, number in causes.items()]
    lines.append("")
    return lines


def _format_findings(report: CheckReport) -> list[str]:
    """Heuristic findings (open, then accepted) and stale acceptances, for ``check``."""
    from .wiki.check import heuristic_findings

    open_lines: list[str] = []
    accepted_lines: list[str] = []
    for entry in report.files:
        if entry.resolved is None:
            continue
        findings = heuristic_findings(entry.resolved)
        for finding in findings:
            where = f"{entry.path}:{finding['line']}" if finding["line"] else entry.path
            line = f"  {finding['finding']}  {where}  {finding['text']}"
            (accepted_lines if finding["accepted"] else open_lines).append(line)
        if any(not f["accepted"] for f in findings):
            open_lines.append(f"    digest {entry.resolved.meta.revision} (to accept: accepted_findings)")
    lines: list[str] = []
    for title, shown in (("Heuristic findings", open_lines), ("Accepted findings", accepted_lines),
                         ("Stale acceptances", [f"  {s}" for s in report.stale_acceptances])):
        if shown:
            lines += [f"{title}:", *shown, ""]
    return lines


@main.command()
@_config_option
@_setting_option("content")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (shape: docs/how-to/check.md).")
@click.option("--urls", "show_urls", is_flag=True,
              help="Also list each served document's citation URL, and why some have none.")
@click.option("--problems", "problems_only", is_flag=True, help="List only files with problems (plus the summary).")
@click.option("--wide", is_flag=True, help="Show table cells (the WHY column above all) in full, not cut short.")
@click.option("--strict", is_flag=True, help="Also fail on rules that match no file, and on --fail-on warnings.")
@click.option("--fail-on", "fail_on", multiple=True, metavar="KIND",
              help="Fail on warnings of this kind (repeatable), e.g. orphan-translation, unplaced-translation.")
@click.pass_context
def check(ctx: click.Context, config_path: Path | None, content: Path | None, as_json: bool, show_urls: bool,
          problems_only: bool, wide: bool, strict: bool, fail_on: tuple[str, ...]) -> None:
    """Lint the wiki as the index would see it, without serving or writing anything.

    \b
    Exit status: 0 nothing quarantined; 1 something quarantined (see docs/how-to/check.md), or with
    --strict an unused rule, a heuristic finding or a --fail-on warning; 2 the check could not run
    (bad configuration, no content folder, unknown --fail-on kind). Each failure has a class
    (leak-risk, withheld, quarantined, notice): counted at the end, listed in --json's failures.
    """
    kinds = tuple(k.strip() for value in fail_on for k in value.split(",") if k.strip())
    try:
        config = load_config(config_path)
        if content is not None:
            config = config.with_overrides(content=(Path.cwd() / content).resolve())
        if not config.content.is_dir():
            raise ConfigurationError(f"content folder {config.content} does not exist; set `content:` in the "
                                     "configuration or pass --content")
        from .search.backend import WhooshBackend
        from .wiki.check import check_wiki

        # Every setting `serve` would refuse is refused here too (exit 2), not only the wiki's.
        config.declared_capabilities(WhooshBackend.implemented_capabilities)
        report = check_wiki(config.wiki_settings())
        classified = report.classified_failures(kinds, strict=strict or bool(kinds))
        failures = report.strict_failures(kinds) if strict or kinds else []
    except (ConfigurationError, ValueError) as exc:
        click.echo(f"Error: {exc}", err=True)
        ctx.exit(2)
    if as_json:
        click.echo(json.dumps({**report.to_json(), **({"strictFailures": failures} if strict or kinds else {}),
                               "failureClasses": _class_counts(classified),
                               "failures": [f.to_json() for f in classified]},
                              ensure_ascii=False, indent=2))
    else:
        click.echo(format_check(report, problems_only=problems_only, urls=show_urls, strict_failures=failures,
                                wide=wide, failures=classified))
    ctx.exit(report.exit_code or (1 if failures else 0))


#: Where ``query`` sends its request when neither --url nor a running ``serve --dev`` says.
DEFAULT_QUERY_URL = "http://127.0.0.1:8080"


@dataclass(frozen=True)
class _QueryTarget:
    """Where ``query`` sends its request and what signs it.

    Attributes:
        base: the provider's base URL.
        secret: the secret to sign with.
        source: where the secret came from, for messages (a variable or the state file).
        from_dev: whether the secret came from the ``--dev`` state file.
        note: a remark on the choice, printed with it, or ``""``.
    """

    base: str
    secret: str
    source: str
    from_dev: bool
    note: str = ""


def _configured_url(config_path: Path | None) -> tuple[str, str]:
    """``(base URL, where it was learnt)`` of the ``serve`` that the configuration ``serve``
    would read (``config_path``, else ``$KNOWLEDGE_PROVIDER_CONFIG``, else
    ``./knowledge-provider.yaml``) runs at: its running state, else the file's host, port
    and TLS settings; an address of every interface is asked on loopback.

    Raises:
        ConfigError: the configuration is unusable (exit status 2, as ``serve``'s).
    """
    try:
        config = load_config(config_path)
    except ConfigurationError as exc:
        raise ConfigError(str(exc)) from None
    scheme, host, port, learnt = _serving_address(config)
    host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)  # noqa: S104 - mapped to loopback
    where = f"{learnt} {config.source}" if learnt == "the configuration" and config.source else learnt
    return f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}", where


def _query_target(url: str | None, profile: Exposure,
                  configured: Callable[[], tuple[str, str]] = lambda: (DEFAULT_QUERY_URL, "the default"),
                  ) -> _QueryTarget:
    """Pick one consistent URL and secret: the running ``serve --dev``'s URL with its own
    secrets, or an explicit ``--url`` with the secret from the environment — never the
    state file's URL with an unrelated secret from the environment, and never the state
    file's secrets with another server's ``--url``.

    ``configured``: the base URL (and where it was learnt) asked without ``--url`` and a
    running ``serve --dev``, when the environment holds the secret.

    Raises:
        ConfigError: the environment's secret is unusable.
        click.ClickException: no secret for ``profile`` anywhere, or only the ``--dev``
            state file's for another URL than ``url``.
    """
    from .devmode import dev_state_dir, dev_state_for, dev_states, running_dev_servers

    variable = SECRET_ENV[profile]
    try:
        env_secret = next((r.secrets[0].key.decode("utf-8") for r in registrations_from_env()
                           if r.exposure is profile), None)
    except ConfigurationError as exc:
        raise ConfigError(str(exc)) from None
    # Name the variable the secret was read from: with only …_SECRET_FILE set, "$…_SECRET"
    # sent the operator looking for a variable that does not exist.
    from_env = f"${variable}_FILE" if variable not in os.environ and f"{variable}_FILE" in os.environ \
        else f"${variable}"
    if url is not None:
        base = url.rstrip("/")
        if env_secret is not None:
            return _QueryTarget(base, env_secret, from_env, False)
        state = dev_state_for(base)
        if state is not None and profile.value in state.secrets:
            return _QueryTarget(base, state.secrets[profile.value], f"the --dev state file {state.path}", True)
        others = [s.url for s in dev_states() if s.url and profile.value in s.secrets]
        if others:
            # A secret goes only to the server it was made for: another server signing
            # requests with it would be handed a valid credential of the --dev one.
            raise click.ClickException(
                f"no {profile.value} secret for {base}: export {variable}; the --dev state files in "
                f"{dev_state_dir()} hold the secrets of {', '.join(others)} only")
    else:
        running = [s for s in running_dev_servers() if s.url and profile.value in s.secrets]
        if len(running) > 1:
            listed = "; ".join(f"{s.url} ({_shown(s.content)})" for s in running)
            raise click.ClickException(
                f"{len(running)} `serve --dev` servers are running: {listed}; pass --url to pick one")
        if running:
            state = running[0]
            # The state files are per user, not per folder: say whose wiki answers, so a
            # `serve --dev` started elsewhere (another checkout, a colleague's shell on a
            # shared account) is not taken for this one.
            notes = [f"the --dev server of {_shown(state.content)}"] if state.content is not None else []
            if env_secret is not None:
                notes.append(f"${variable} is ignored: pass --url to use it")
            return _QueryTarget(state.url, state.secrets[profile.value], f"the --dev state file {state.path}",
                                True, "; ".join(notes))
        if env_secret is not None:
            base, learnt = configured()
            return _QueryTarget(base, env_secret, from_env, False, f"the address from {learnt}")
        stopped = next((s for s in dev_states() if s.url and profile.value in s.secrets), None)
        if stopped is not None:
            return _QueryTarget(stopped.url, stopped.secrets[profile.value], f"the --dev state file {stopped.path}",
                                True, "the `serve --dev` that wrote it has stopped")
    raise click.ClickException(
        f"no {profile.value} secret: export {variable} (and pass --url), or start `knowledge-provider serve --dev`"
    )


_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _shown(value: object, max_chars: int = 300) -> str:
    """A server-supplied value for a terminal: characters of every script as they are —
    joiners such as U+200C (ZWNJ, Persian) and U+200D included — with what could forge
    or reorder the terminal's output escaped: control characters (C0, DEL, C1), line and
    paragraph separators, bidirectional embeddings, overrides and isolates, and lone
    surrogates. Bounded to ``max_chars`` characters."""
    import unicodedata

    if value is None:
        return "-"
    out = []
    for ch in str(value):
        category = unicodedata.category(ch)
        if category in ("Cc", "Zl", "Zp", "Cs") or ch in _BIDI_CONTROLS:
            out.append(ch.encode("unicode_escape", "backslashreplace").decode("ascii"))
        else:
            out.append(ch)
    text = "".join(out)
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"


@main.command()
@click.argument("text")
@click.option("--profile", type=click.Choice([e.value for e in Exposure]), default=Exposure.CUSTOMER_SAFE.value,
              show_default=True, help="Which registration's secret signs the request.")
@click.option("--limit", type=click.IntRange(1, 50), default=5, show_default=True)
@click.option("--url", help="Provider base URL (default: the running --dev server, else where the configuration's "
                            "`serve` listens: its running state, else host and port of the configuration file).")
@_config_option
@click.option("--json", "as_json", is_flag=True, help="Print the response body exactly as received.")
@click.option("--cacert", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="CA or self-signed certificate to trust for https (e.g. from dev-cert).")
@click.option("--locale", "locale", metavar="TAG", help="Send this BCP 47 locale (needs the locale capability).")
@click.option("--fallback", "locale_fallback", is_flag=True,
              help="Send localeFallback: true (needs the localeFallback capability).")
def query(text: str, profile: str, limit: int, url: str | None, config_path: Path | None, as_json: bool,
          cacert: Path | None, locale: str | None, locale_fallback: bool) -> None:
    """Send a signed retrieval request, exactly as the Helpthread core would, and print the results.

    \b
    URL and secret are taken as a consistent pair, and named on stderr:
      without --url: a running `serve --dev`'s URL with its secrets (from its state
        file), else where `serve` with the same configuration listens (--config,
        $KNOWLEDGE_PROVIDER_CONFIG or ./knowledge-provider.yaml: the port a running
        serve wrote, else host and port of that file; 127.0.0.1:8080 by default)
        with KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET;
      with --url: KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET, else the --dev secrets if
        --url is that server's URL (they are never sent to another server).
    (_AGENT_ONLY_SECRET with --profile agent_only; the first of several.) --json prints
    the answer's bytes as received. Answers are read within the core's limits (10 s, 1 MiB).
    """
    import httpx

    from helpthread_kit.testing import signed_headers

    if url is not None and not url.startswith(("http://", "https://")):
        raise click.ClickException(f"--url {url!r} must start with http:// or https://")
    exposure = Exposure(profile)
    target = _query_target(url, exposure, lambda: _configured_url(config_path))
    base, secret = target.base, target.secret
    if base.endswith(("/retrieve", "/capabilities")):
        raise click.ClickException("--url is the provider's base URL: leave out /retrieve")
    click.echo(f"query: {base}/retrieve, signed with the {profile} secret from {target.source}"
               + (f" ({target.note})" if target.note else ""), err=True)
    request: dict[str, Any] = {"query": text, "limit": limit}
    if locale:
        request["locale"] = locale
    if locale_fallback:
        request["localeFallback"] = True
    body = json.dumps(request, ensure_ascii=False).encode("utf-8")
    verify: ssl.SSLContext | bool = ssl.create_default_context(cafile=str(cacert)) if cacert else True
    try:
        status, raw = _post_bounded(f"{base}/retrieve", body, signed_headers(body, secret), verify)
    except httpx.HTTPError as exc:
        raise click.ClickException(_connection_hint(base, exc)) from None
    if as_json:
        # The answer's bytes as received: what the core parses, escapes and all.
        sys.stdout.buffer.write(raw)
        if sys.stdout.isatty() and not raw.endswith(b"\n"):
            sys.stdout.buffer.write(b"\n")
        sys.stdout.flush()
    try:
        payload = json.loads(raw)
    except ValueError:
        raise click.ClickException(f"{base} answered {status} without JSON: is it a knowledge provider?") from None
    if not isinstance(payload, dict):
        raise click.ClickException(f"{base} answered {status} with JSON that is not an object")
    if status != 200:
        raise click.ClickException(_refusal(status, payload, target))
    results = payload.get("results")
    if (locale or locale_fallback) and not any(isinstance(r, dict) and "locale" in r for r in results or ()):
        _note_undeclared_locale(base, secret, verify)
    if as_json:
        return
    if not isinstance(results, list):
        raise click.ClickException(f"{base} answered without a results list")
    _print_results(results)


def _refusal(status: int, payload: dict[str, Any], target: _QueryTarget) -> str:
    """What ``query`` says when the provider refused: its error, and the likely cause."""
    found = payload.get("error")
    error: dict[str, Any] = found if isinstance(found, dict) else {}
    message = f"{status} {_shown(error.get('code'))}: {_shown(error.get('message'))}"
    if status == 401:
        message += (f" (signed with the secret from {target.source}: is it this server's? "
                    + ("Otherwise export the server's secret and pass --url)" if target.from_dev else
                       "Otherwise export the secret the server was started with)"))
    if status == 404:
        message += " (is --url the provider's base URL?)"
    return message


def _print_results(results: list[Any]) -> None:
    """``query``'s answer for a terminal: one block per result, every server value escaped."""
    if not results:
        click.echo("No results.")
    for rank, result in enumerate(results, start=1):
        result = result if isinstance(result, dict) else {}
        extras = [f"{key} {_shown(result[key])}" for key in ("locale", "score", "freshness", "chunkId")
                  if key in result]
        click.echo(f"{rank}. {_shown(result.get('title'))}  [{_shown(result.get('audience'))}] "
                   f"{_shown(result.get('documentId'))}" + (f"  ({', '.join(extras)})" if extras else ""))
        if "url" in result:
            click.echo(f"   {_shown(result['url'], 2000)}")
        click.echo(click.wrap_text(_shown(result.get("snippet"), 2000), width=96, initial_indent="   ",
                                   subsequent_indent="   "))
        click.echo()


def _note_undeclared_locale(base: str, secret: str, verify: ssl.SSLContext | bool) -> None:
    """Say so when --locale/--fallback were ignored because the provider does not
    declare ``locale`` (CONTRACT Q3: then it must ignore the field)."""
    import httpx

    from helpthread_kit.testing import signed_headers

    try:
        answer = httpx.get(f"{base}/capabilities", headers=signed_headers(b"", secret, content_type=None),
                           timeout=_QUERY_DEADLINE_S, verify=verify)
        declared = answer.json().get("capabilities", [])
    except (httpx.HTTPError, ValueError, AttributeError):
        return
    if isinstance(declared, list) and "locale" not in declared:
        click.echo("note: the provider does not declare the `locale` capability, so --locale and --fallback were "
                   "ignored; switch it on with `capabilities:` in its configuration", err=True)


#: The core fails answers larger than this (§4.2); so does ``query``.
_MAX_ANSWER_BYTES = 1024 * 1024
#: Wall-clock limit of one ``query`` request, like the core's (§4.2).
_QUERY_DEADLINE_S = 10.0


def _post_bounded(url: str, body: bytes, headers: dict[str, str], verify: ssl.SSLContext | bool) -> tuple[int, bytes]:
    """POST and read the answer within the core's limits: 10 s in all, 1 MiB at most."""
    import httpx

    deadline = time.monotonic() + _QUERY_DEADLINE_S
    with httpx.Client(timeout=_QUERY_DEADLINE_S, verify=verify) as client, \
            client.stream("POST", url, content=body, headers=headers) as response:
        chunks, size = [], 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > _MAX_ANSWER_BYTES:
                raise click.ClickException(f"the answer exceeds {_MAX_ANSWER_BYTES} bytes; the core would fail it")
            if time.monotonic() > deadline:
                raise click.ClickException(f"no complete answer within {_QUERY_DEADLINE_S:g} s")
            chunks.append(chunk)
        return response.status_code, b"".join(chunks)


def _connection_hint(base: str, exc: Exception) -> str:
    text = str(exc)
    fallback = f"cannot reach {base}: {text}; is `knowledge-provider serve` running there?"
    return tls_hint(base, text, "--url") or fallback


main.add_command(conformance)
__all__ = ["CONFORMANCE_SECRET_ENV", "EXIT_CANNOT_CHECK", "conformance", "main", "run"]


def run() -> None:  # pragma: no cover - console-script shim
    main(prog_name="knowledge-provider")

