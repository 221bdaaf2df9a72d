"""Run the Dockerfile's steps outside Docker, to check them where no Docker engine exists.

    python scripts/check_dockerfile.py [--keep]

Each instruction is replayed in a scratch folder that stands in for the image's
filesystem (absolute paths such as /app and /srv are mapped into it) with a fresh
virtual environment standing in for the base image's Python:

* FROM     the base image's Python version must match this interpreter's;
* ENV      set for every later step;
* WORKDIR  becomes the working folder;
* COPY     copies from the repository (``--chown`` is noted, not applied);
* RUN      each ``&&`` part runs; ``pip install`` uses the fresh environment and must be
           pinned (``--constraint FILE``: afterwards every installed distribution must
           be in FILE at that exact version); commands that need root and change the
           system (apt-get, useradd, chown, ``git config --system``, removing apt's
           lists) are not applied — a package apt-get installs must exist here instead;
* EXPOSE   must include the API port and the metrics port of the image's configuration;
* ENTRYPOINT must pass no options: they would silently override a mounted configuration;
* the container, twice, with the customer-safe secret in a ``…_FILE`` variable as the
  docs/how-to/container.md shows and the configuration's ports remapped to free ones (the container's own
  network stands in for by the host's):

  1. the image as built: the HEALTHCHECK command (unchanged) must pass, a signed query
     must return results, and the metrics listener must listen on every interface;
  2. a mounted configuration with TLS and other ports: the HEALTHCHECK command
     (unchanged) must pass over https and a signed https query must return results.

Exit code 0 when every step worked; the failing step is printed otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECRET = "dockerfile-check-secret-" + "s" * 24


class StepFailed(RuntimeError):
    pass


def instructions(dockerfile: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, with line continuations joined and comments dropped."""
    text = re.sub(r"\\\n", " ", dockerfile.read_text("utf-8"))
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Emulator:
    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self.image = scratch / "image"
        self.image.mkdir()
        self.venv = scratch / "python"
        self.env: dict[str, str] = {}
        self.cwd = "/"
        self.entrypoint: list[str] = []
        self.healthcheck: list[str] = []
        self.exposed: list[str] = []
        self.packages: list[str] = []
        #: Top-level folders the Dockerfile creates for itself, e.g. {"app", "srv"}.
        self.roots: set[str] = set()

    def learn_roots(self, dockerfile_text: str) -> None:
        system = {"usr", "bin", "sbin", "etc", "lib", "lib64", "tmp", "dev", "proc", "sys", "var", "run", "root",
                  "home", "opt"}
        found = set(re.findall(r"(?<![\w/.:-])/([A-Za-z0-9_.-]+)", dockerfile_text))
        self.roots = {top for top in found if top not in system}

    def path(self, inside: str) -> Path:
        """Where a path of the image lives in the scratch folder."""
        absolute = inside if inside.startswith("/") else f"{self.cwd.rstrip('/')}/{inside}"
        return self.image / absolute.lstrip("/")

    def rewrite(self, text: str) -> str:
        """Map the image's own absolute folders (not the system's) into the scratch folder."""
        for top in sorted(self.roots, key=len, reverse=True):
            text = re.sub(rf"(?<![\w/.-]){re.escape('/' + top)}(?=/|\b)", str(self.image / top), text)
        return text

    def process_env(self) -> dict[str, str]:
        return {**os.environ, **self.env, "PATH": f"{self.venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}

    # -- instructions --------------------------------------------------------------------

    def FROM(self, args: str) -> None:
        match = re.match(r"python:(\d+\.\d+)", args)
        if not match:
            raise StepFailed(f"unexpected base image {args!r}")
        mine = f"{sys.version_info.major}.{sys.version_info.minor}"
        if match.group(1) != mine:
            raise StepFailed(f"base image has Python {match.group(1)}, this check runs {mine}")
        subprocess.run([sys.executable, "-m", "venv", str(self.venv)], check=True)

    def ENV(self, args: str) -> None:
        for item in shlex.split(args):
            key, _, value = item.partition("=")
            self.env[key] = self.rewrite(value)

    def WORKDIR(self, args: str) -> None:
        self.cwd = args if args.startswith("/") else f"{self.cwd.rstrip('/')}/{args}"
        self.path(self.cwd).mkdir(parents=True, exist_ok=True)

    def COPY(self, args: str) -> None:
        parts = [p for p in shlex.split(args) if not p.startswith("--")]
        *sources, dest = parts
        target = self.path(dest)
        for source in sources:
            origin = ROOT / source
            if not origin.exists():
                raise StepFailed(f"COPY source {source} does not exist in the repository")
            if origin.is_dir():
                shutil.copytree(origin, target if not dest.endswith("/") else target / origin.name,
                                dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
            else:
                folder = target if dest.endswith("/") or len(sources) > 1 else target.parent
                folder.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, folder / origin.name if folder == target else target)

    def RUN(self, args: str) -> None:
        for command in (part.strip() for part in args.split("&&")):
            words = shlex.split(command)
            if self._system_step(words):
                print(f"    (needs root; not applied) {command}")
                continue
            constraints = None
            if words[:4] == ["python", "-m", "pip", "install"]:
                constraints = _constraint_file(words)
                if constraints is None:
                    raise StepFailed(f"RUN {command!r}: pip install is not pinned (give --constraint FILE)")
                words = [str(self.venv / "bin" / "python"), *words[1:]]
            result = subprocess.run(self.rewrite(shlex.join(words)), shell=True, cwd=self.path(self.cwd),  # noqa: S602
                                    env=self.process_env(), capture_output=True, text=True)
            if result.returncode != 0:
                raise StepFailed(f"RUN {command!r} failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
            if constraints is not None:
                self._check_pinned(self.path(self.cwd) / constraints)

    def _system_step(self, words: list[str]) -> bool:
        """Whether a command changes the system (needs root); a package it installs must
        exist here instead."""
        if words[0] in ("useradd", "chown", "groupadd"):
            return True
        if words[:3] == ["git", "config", "--system"]:
            return True
        if words[0] == "rm" and all(w.startswith("-") or w.startswith("/var/lib/apt/") for w in words[1:]):
            return True
        if words[0] == "apt-get":
            if "install" in words:
                for package in (w for w in words[words.index("install") + 1:] if not w.startswith("-")):
                    self.packages.append(package)
                    if shutil.which(package) is None:
                        raise StepFailed(f"apt-get installs {package}, which is not installed here to stand in")
            return True
        return False

    def _check_pinned(self, constraints: Path) -> None:
        """Every distribution installed in the image is pinned, at that exact version."""
        pins: dict[str, str] = {}
        for line in constraints.read_text("utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if "==" in line:
                name, _, version = line.partition("==")
                pins[_canonical(name)] = version.strip()
        freeze = subprocess.run([str(self.venv / "bin" / "python"), "-m", "pip", "list", "--format", "json",
                                 "--exclude-editable"], capture_output=True, text=True, check=True)
        installed = {_canonical(d["name"]): d["version"] for d in json.loads(freeze.stdout)}
        # This repository's own two distributions (the provider and its kit, kit/) are built from the checkout.
        own = (_canonical("helpthread-knowledge-provider"), _canonical("helpthread-kit"))
        unpinned = sorted(f"{name} {version} (pinned: {pins.get(name, 'no')})" for name, version in installed.items()
                          if name not in (*own, "pip", "setuptools", "wheel") and pins.get(name) != version)
        if unpinned:
            raise StepFailed(f"installed but not pinned at that version in {constraints.name}: {', '.join(unpinned)}")
        print(f"    every one of {len(installed) - 1} installed distributions is pinned in {constraints.name}")

    def USER(self, args: str) -> None:
        print(f"    (runs as {args} in the image)")

    def VOLUME(self, args: str) -> None:
        for folder in json.loads(args):
            if not self.path(folder).is_dir():
                raise StepFailed(f"VOLUME {folder} does not exist in the image")

    def EXPOSE(self, args: str) -> None:
        self.exposed = args.split()

    def HEALTHCHECK(self, args: str) -> None:
        self.healthcheck = json.loads(args[args.index("CMD") + 3:].strip())

    def ENTRYPOINT(self, args: str) -> None:
        self.entrypoint = json.loads(args)
        options = [word for word in self.entrypoint if word.startswith("-")]
        if options:
            raise StepFailed(f"ENTRYPOINT passes {' '.join(options)}: they would silently override a mounted "
                             "configuration's keys (set them in the image's configuration file instead)")

    # -- running the image ---------------------------------------------------------------

    def config_file(self) -> Path:
        return Path(self.env["KNOWLEDGE_PROVIDER_CONFIG"])

    def run_containers(self) -> None:
        import yaml

        image_config = yaml.safe_load(self.config_file().read_text("utf-8"))
        wanted = {str(image_config.get("port", 8080)), str(image_config.get("metrics_port", 9464))}
        if not wanted <= set(self.exposed):
            raise StepFailed(f"EXPOSE {' '.join(self.exposed)} misses {' '.join(sorted(wanted - set(self.exposed)))}")
        for key in ("host", "metrics_host"):
            if image_config.get(key) != "0.0.0.0":  # noqa: S104 - a container's own interfaces
                raise StepFailed(f"the image's configuration must set {key}: 0.0.0.0 (loopback is unreachable)")
        # 1. The image as built; its ports remapped (the host's network stands in for the container's).
        metrics_port = free_port()
        self.mount_config({**image_config, "port": free_port(), "metrics_port": metrics_port})
        print("(container) the image as built")
        self.run_container(scheme="http", metrics_port=metrics_port)
        # 2. A mounted configuration with TLS and other ports: used as written.
        tls = self.scratch / "tls"
        subprocess.run([str(self.venv / "bin" / "knowledge-provider"), "dev-cert", "--out", str(tls)], check=True,
                       capture_output=True)
        port = free_port()
        self.mount_config({**image_config, "port": port, "metrics_port": free_port(),
                           "ssl_certfile": str(tls / "cert.pem"), "ssl_keyfile": str(tls / "key.pem")})
        print(f"(container) a mounted configuration: TLS on port {port}")
        self.run_container(scheme="https", cacert=tls / "cert.pem")

    def mount_config(self, settings: dict[str, object]) -> None:
        import yaml

        self.config_file().write_text(yaml.safe_dump(settings, sort_keys=False), "utf-8")

    def run_container(self, *, scheme: str, metrics_port: int | None = None, cacert: Path | None = None) -> None:
        import yaml

        port = int(yaml.safe_load(self.config_file().read_text("utf-8"))["port"])
        command = [str(self.venv / "bin" / self.entrypoint[0]), *self.entrypoint[1:]]
        secret_file = self.scratch / "customer_safe.secret"
        secret_file.write_text(SECRET + "\n")
        env = {**self.process_env(), "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET_FILE": str(secret_file)}
        for key in ("KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET", "KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET"):
            env.pop(key, None)
        log_path = self.scratch / f"container-{port}.log"
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(command, cwd=self.path(self.cwd), env=env, stdout=log, stderr=subprocess.STDOUT)
            try:
                self._wait_healthy(env, proc, log_path)
                self._query(f"{scheme}://127.0.0.1:{port}", cacert)
                if metrics_port is not None:
                    self._check_metrics(metrics_port)
            finally:
                proc.terminate()
                proc.wait(timeout=20)

    def _wait_healthy(self, env: dict[str, str], proc: subprocess.Popen[bytes], log: Path) -> None:
        # The command as written: it must find the port and the scheme by itself.
        check = [str(self.venv / "bin" / self.healthcheck[0]), *self.healthcheck[1:]]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise StepFailed(f"ENTRYPOINT exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            result = subprocess.run(check, env=env, cwd=self.path(self.cwd), capture_output=True, text=True)
            if result.returncode == 0:
                print(f"    HEALTHCHECK passed: {result.stdout.strip()}")
                return
            time.sleep(0.5)
        raise StepFailed(f"HEALTHCHECK never passed ({result.stderr.strip()}):\n{log.read_text()[-3000:]}")

    def _query(self, base: str, cacert: Path | None) -> None:
        tool = self.venv / "bin" / "knowledge-provider"
        env = {**self.process_env(), "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET": SECRET,
               "XDG_STATE_HOME": str(self.scratch / "state")}
        extra = ["--cacert", str(cacert)] if cacert else []
        deadline = time.monotonic() + 60
        while True:
            result = subprocess.run([str(tool), "query", "reset password", "--url", base, *extra],
                                    env=env, capture_output=True, text=True)
            if result.returncode == 0 and "[public]" in result.stdout:
                print(f"    signed query answered at {base}:", result.stdout.splitlines()[0])
                return
            if time.monotonic() > deadline:
                raise StepFailed(f"query failed: {result.stdout}{result.stderr}")
            time.sleep(0.5)

    def _check_metrics(self, port: int) -> None:
        """The metrics listener answers and listens on every interface (reachable from
        outside the container through the EXPOSEd port)."""
        import urllib.request

        addresses = listening_addresses(port)
        if not addresses & {"0.0.0.0", "::"}:  # noqa: S104 - a container's own interfaces
            raise StepFailed(f"metrics listen on {addresses or 'nothing'} only: unreachable from outside")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
            if b"knowledge_provider_" not in answer.read():
                raise StepFailed("metrics answered without the provider's metrics")
        print(f"    metrics reachable on {', '.join(sorted(addresses))}:{port}")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _constraint_file(words: list[str]) -> str | None:
    for index, word in enumerate(words):
        if word in ("-c", "--constraint") and index + 1 < len(words):
            return words[index + 1]
        if word.startswith("--constraint="):
            return word.split("=", 1)[1]
    return None


def listening_addresses(port: int) -> set[str]:
    """Addresses a TCP socket listens on at ``port`` (from /proc/net/tcp and tcp6)."""
    found = set()
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, _, hexport = local.partition(":")
            if state != "0A" or int(hexport, 16) != port:
                continue
            if address == "0" * width:
                found.add("0.0.0.0" if width == 8 else "::")  # noqa: S104 - a reading, not a bind
            elif width == 8:
                found.add(".".join(str(int(address[i:i + 2], 16)) for i in (6, 4, 2, 0)))
            else:
                found.add(address)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="dockerfile-check-"))
    emulator = Emulator(scratch)
    emulator.learn_roots((ROOT / "Dockerfile").read_text("utf-8"))
    try:
        for word, rest in instructions(ROOT / "Dockerfile"):
            print(f"{word} {rest[:100]}")
            handler = getattr(emulator, word, None)
            if handler is None:
                raise StepFailed(f"instruction {word} is not known to this check")
            handler(rest)
        emulator.run_containers()
    except StepFailed as exc:
        print(f"FAILED: {exc}")
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    print("Dockerfile check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
