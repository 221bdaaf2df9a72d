"""Run the Dockerfile's steps outside Docker, to check them where no Docker engine exists.

    python scripts/check_dockerfile.py [--keep]

Each instruction is replayed in a scratch folder that stands in for the image's
filesystem (absolute paths such as /app and /srv are mapped into it) with a fresh
virtual environment standing in for the base image's Python:

* FROM     the base image's Python version must match this interpreter's;
* ENV      set for every later step;
* WORKDIR  becomes the working folder;
* COPY     copies from the repository (``--chown`` is noted, not applied);
* RUN      each ``&&`` part runs; ``pip install`` uses the fresh environment; user and
           ownership commands (useradd, chown) need root and are only checked for syntax;
* ENTRYPOINT and HEALTHCHECK: the entry point is started (port remapped to a free one,
  the customer-safe secret passed as a ``…_FILE`` variable, as the README shows) and the
  health check command must succeed, then a signed query must return results.

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
            self.env[key] = value

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
            if words[0] in ("useradd", "chown", "groupadd"):
                print(f"    (needs root; not applied) {command}")
                continue
            if words[:4] == ["python", "-m", "pip", "install"]:
                words = [str(self.venv / "bin" / "python"), *words[1:]]
            result = subprocess.run(self.rewrite(shlex.join(words)), shell=True, cwd=self.path(self.cwd),  # noqa: S602
                                    env=self.process_env(), capture_output=True, text=True)
            if result.returncode != 0:
                raise StepFailed(f"RUN {command!r} failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")

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

    # -- running the image ---------------------------------------------------------------

    def run_container(self) -> None:
        port = str(free_port())
        exposed = self.exposed[0] if self.exposed else "8080"
        command = [self.rewrite(word).replace(exposed, port) if word == exposed else self.rewrite(word)
                   for word in self.entrypoint]
        command[0] = str(self.venv / "bin" / command[0])
        # Inside a container the metrics port is the container's own; here it is the host's.
        command += ["--metrics-port", str(free_port())]
        secret_file = self.scratch / "customer_safe.secret"
        secret_file.write_text(SECRET + "\n")
        env = {**self.process_env(), "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET_FILE": str(secret_file)}
        for key in ("KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET", "KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET",
                    "KNOWLEDGE_PROVIDER_CONFIG"):
            env.pop(key, None)
        log_path = self.scratch / "container.log"
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(command, cwd=self.path(self.cwd), env=env, stdout=log, stderr=subprocess.STDOUT)
            try:
                self._wait_healthy(port, env, proc, log_path)
                self._query(port)
            finally:
                proc.terminate()
                proc.wait(timeout=20)

    def _wait_healthy(self, port: str, env: dict[str, str], proc: subprocess.Popen[bytes], log: Path) -> None:
        check = [str(self.venv / "bin" / self.healthcheck[0]),
                 *(word.replace(":8080", f":{port}") for word in self.healthcheck[1:])]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise StepFailed(f"ENTRYPOINT exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            if subprocess.run(check, env=env, capture_output=True).returncode == 0:
                print("    HEALTHCHECK passed")
                return
            time.sleep(0.5)
        raise StepFailed(f"HEALTHCHECK never passed:\n{log.read_text()[-3000:]}")

    def _query(self, port: str) -> None:
        tool = self.venv / "bin" / "knowledge-provider"
        env = {**self.process_env(), "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET": SECRET,
               "XDG_STATE_HOME": str(self.scratch / "state")}
        deadline = time.monotonic() + 60
        while True:
            result = subprocess.run([str(tool), "query", "reset password", "--url", f"http://127.0.0.1:{port}"],
                                    env=env, capture_output=True, text=True)
            if result.returncode == 0 and "[public]" in result.stdout:
                print("    signed query answered:", result.stdout.splitlines()[0])
                return
            if time.monotonic() > deadline:
                raise StepFailed(f"query failed: {result.stdout}{result.stderr}")
            time.sleep(0.5)


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
        print("(container) starting the ENTRYPOINT")
        emulator.run_container()
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
