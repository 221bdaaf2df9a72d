"""`knowledge-provider query` against a real server: what the tutorial (docs/tutorial.md) shows."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import CUSTOMER_SECRET, start_provider
from tests.support import REPO_ROOT, ProviderProcess


def query(server: ProviderProcess, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET": CUSTOMER_SECRET}
    env.pop("KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET", None)
    return subprocess.run([sys.executable, "-m", "provider", "query", *args, "--url", server.base_url],
                          capture_output=True, text=True, env=env, timeout=60, check=False)


def test_prints_ranked_plain_text_results(sample_server: ProviderProcess) -> None:
    result = query(sample_server, "reset password")
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith("1. ") and "[public]" in first and "reset-password" in first


def test_json_is_the_provider_answer(sample_server: ProviderProcess) -> None:
    result = query(sample_server, "reset password", "--json", "--limit", "2")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["contractVersion"] == 1 and 1 <= len(answer["results"]) <= 2


def test_a_locale_the_provider_ignores_is_pointed_out(sample_server: ProviderProcess) -> None:
    """The sample server declares only `retrieve`, so it ignores `locale` (Q3): say so."""
    result = query(sample_server, "reset password", "--locale", "de")
    assert result.returncode == 0, result.stderr
    assert "does not declare the `locale` capability" in result.stderr
    assert "does not declare" not in query(sample_server, "reset password").stderr


# -- issue 16: one consistent URL + secret pair, named; bytes as received; text as written --

ZWNJ_TITLE = "راهنمای می\u200cخواهم پرداخت"  # Persian: the ZWNJ in "می‌خواهم" is part of the word


@pytest.fixture(scope="module")
def persian_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProviderProcess]:
    root = tmp_path_factory.mktemp("persian")
    wiki = root / "wiki"
    shutil.copytree(REPO_ROOT / "content", wiki)
    (wiki / "en" / "zwnj-probe.md").write_text(
        f"---\ntitle: {ZWNJ_TITLE}\naudience: public\n---\nZwnjprobe: می\u200cخواهم صورتحساب را ببینم.\n", "utf-8")
    server = start_provider(root / "run", content=wiki)
    yield server
    server.stop()


def run_query(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "provider", "query", *args], capture_output=True, env=env,
                          timeout=60, check=False)


def clean_env(state: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KNOWLEDGE_PROVIDER_")}
    return {**env, "XDG_STATE_HOME": str(state), **extra}


def fake_dev_state(state: Path, server: ProviderProcess, content: str | None = None) -> Path:
    """A state file as `serve --dev` writes it, naming a live server process, its secrets
    and the content folder it serves."""
    path = state / "knowledge-provider" / f"dev-{server.base_url.rsplit(':', 1)[1]}.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"url": server.base_url, "pid": server.proc.pid,
                                "secrets": {"customer_safe": CUSTOMER_SECRET}, "content": content}), "utf-8")
    return path


def test_text_view_prints_zwnj_as_it_is(persian_server: ProviderProcess, tmp_path: Path) -> None:
    env = clean_env(tmp_path, KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET=CUSTOMER_SECRET)
    result = run_query(["zwnjprobe", "--url", persian_server.base_url], env)
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode("utf-8")
    assert ZWNJ_TITLE in out and "\\u200c" not in out


def test_json_prints_the_answer_bytes_as_received(persian_server: ProviderProcess, tmp_path: Path) -> None:
    env = clean_env(tmp_path, KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET=CUSTOMER_SECRET)
    result = run_query(["zwnjprobe", "--json", "--limit", "3", "--url", persian_server.base_url], env)
    assert result.returncode == 0, result.stderr
    direct = persian_server.retrieve({"query": "zwnjprobe", "limit": 3}, CUSTOMER_SECRET)
    assert result.stdout == direct.body  # not re-serialised: no \u escapes, no re-indentation
    assert "\u200c".encode() in result.stdout


def test_env_secret_goes_with_the_explicit_url_and_both_are_named(sample_server: ProviderProcess,
                                                                  tmp_path: Path) -> None:
    env = clean_env(tmp_path, KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET=CUSTOMER_SECRET)
    result = run_query(["reset password", "--url", sample_server.base_url], env)
    assert result.returncode == 0, result.stderr
    said = result.stderr.decode()
    assert f"{sample_server.base_url}/retrieve" in said and "$KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET" in said


def test_a_secret_from_a_file_names_the_file_variable(sample_server: ProviderProcess, tmp_path: Path) -> None:
    """Only ``…_SECRET_FILE`` set: the message names that variable (operator trial: it
    named ``$…_SECRET``, which was not set)."""
    secret_file = tmp_path / "cs.secret"
    secret_file.write_text(CUSTOMER_SECRET + "\n", "utf-8")
    env = clean_env(tmp_path, KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET_FILE=str(secret_file))
    result = run_query(["reset password", "--url", sample_server.base_url], env)
    assert result.returncode == 0, result.stderr
    assert "secret from $KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET_FILE" in result.stderr.decode()


def test_without_url_a_running_dev_servers_url_goes_with_its_own_secrets(sample_server: ProviderProcess,
                                                                         tmp_path: Path) -> None:
    """The mismatch the issue met: a state file's URL, a stale secret in the environment.
    The pair from the state file is used (and said), the environment's is ignored."""
    path = fake_dev_state(tmp_path, sample_server)
    env = clean_env(tmp_path, KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET="some-other-servers-secret-0123456789-abcdef")
    result = run_query(["reset password"], env)
    assert result.returncode == 0, result.stderr
    said = result.stderr.decode()
    assert str(path) in said and sample_server.base_url in said and "is ignored: pass --url" in said


def test_without_url_the_dev_servers_wiki_is_named(sample_server: ProviderProcess, tmp_path: Path) -> None:
    """The state file is per user, not per folder: a `serve --dev` started from another
    checkout answers `query`, so the folder it serves is said beside its URL."""
    fake_dev_state(tmp_path, sample_server, content="/srv/another-checkout/content")
    result = run_query(["reset password"], clean_env(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "the --dev server of /srv/another-checkout/content" in result.stderr.decode()


def test_a_refused_signature_names_the_secret_source(sample_server: ProviderProcess, tmp_path: Path) -> None:
    env = clean_env(tmp_path, KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET="some-other-servers-secret-0123456789-abcdef")
    result = run_query(["reset password", "--url", sample_server.base_url], env)
    assert result.returncode == 1
    said = result.stderr.decode()
    assert "401" in said and "signed with the secret from $KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET" in said


def test_the_dev_state_files_secret_is_never_sent_to_another_url(sample_server: ProviderProcess,
                                                                 tmp_path: Path) -> None:
    """`query --url` of another server, no secret in the environment: the --dev server's
    secret is not used to sign for it (a credential of one server handed to another);
    the error says which variable to export and whose secrets the state file holds."""
    fake_dev_state(tmp_path, sample_server)
    other = sample_server.base_url.replace("127.0.0.1", "localhost")
    result = run_query(["reset password", "--url", other], clean_env(tmp_path))
    assert result.returncode == 1
    said = result.stderr.decode()
    assert f"for {other}: export KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET" in said
    assert f"hold the secrets of {sample_server.base_url} only" in said
    same = run_query(["reset password", "--url", sample_server.base_url], clean_env(tmp_path))
    assert same.returncode == 0, same.stderr


def test_query_url_finds_the_state_file_of_its_port(sample_server: ProviderProcess, tmp_path: Path) -> None:
    """Several state files (one per `serve --dev` port): `--url` picks the one written
    for that URL, and a URL no state file names gets a message naming those there are."""
    fake_dev_state(tmp_path, sample_server)
    stale = tmp_path / "knowledge-provider" / "dev-1.json"
    stale.write_text(json.dumps({"url": "http://127.0.0.1:1", "pid": 0,
                                 "secrets": {"customer_safe": "x" * 48}}), "utf-8")
    ok = run_query(["reset password", "--url", sample_server.base_url], clean_env(tmp_path))
    assert ok.returncode == 0, ok.stderr
    assert f"dev-{sample_server.base_url.rsplit(':', 1)[1]}.json" in ok.stderr.decode()
    missing = run_query(["reset password", "--url", "http://127.0.0.1:2"], clean_env(tmp_path))
    assert missing.returncode == 1
    said = missing.stderr.decode()
    assert "no customer_safe secret for http://127.0.0.1:2: export KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET" in said
    assert sample_server.base_url in said and "http://127.0.0.1:1" in said


# -- issue 27: what a fresh operator met on the command line --


def test_without_url_query_asks_the_port_of_the_configuration_serve_reads(sample_server: ProviderProcess,
                                                                          tmp_path: Path) -> None:
    """``./knowledge-provider.yaml`` sets the port: ``query`` (no --url, no --dev server)
    asks there, as ``serve`` started from the same folder listens there, and says so; a
    ``--config`` elsewhere is read the same way."""
    port = sample_server.base_url.rsplit(":", 1)[1]
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "knowledge-provider.yaml").write_text(f"content: content\nport: {port}\n", "utf-8")
    env = clean_env(tmp_path / "state", KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET=CUSTOMER_SECRET)
    result = subprocess.run([sys.executable, "-m", "provider", "query", "reset password"], capture_output=True,
                            env=env, cwd=folder, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    said = result.stderr.decode()
    assert f"{sample_server.base_url}/retrieve" in said and "knowledge-provider.yaml" in said, said
    named = run_query(["reset password", "--config", str(folder / "knowledge-provider.yaml")], env)
    assert named.returncode == 0, named.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("port: [1\n", "utf-8")
    refused = run_query(["reset password", "--config", str(bad)], env)
    assert refused.returncode == 2 and b"bad.yaml" in refused.stderr


def test_help_summaries_are_whole_and_serve_dev_names_its_state_file() -> None:
    """The command list showed summaries cut with "…"; ``serve --help`` said ``--dev``
    prints its secrets, which it no longer does (they go to a state file)."""
    env = {**os.environ, "COLUMNS": "80"}
    top = subprocess.run([sys.executable, "-m", "provider", "--help"], capture_output=True, text=True, env=env,
                         timeout=60, check=True).stdout
    commands = top.split("Commands:", 1)[1]
    assert "…" not in commands and "..." not in commands, commands
    flat = " ".join(commands.split())
    assert "Send a signed retrieval request, exactly as the Helpthread core would, and print the results." in flat
    assert "Lint the wiki as the index would see it, without serving or writing anything." in flat
    serve = subprocess.run([sys.executable, "-m", "provider", "serve", "--help"], capture_output=True, text=True,
                           env=env, timeout=60, check=True).stdout
    dev = " ".join(serve.split("--dev", 1)[1].split("--rebuild", 1)[0].split())
    assert "state file" in dev and "print them" not in dev, dev
