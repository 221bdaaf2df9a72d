# Reference knowledge provider — container image.
#
#   docker build -t knowledge-provider .
#   docker run --rm -p 8080:8080 -p 9464:9464 \
#     -v "$PWD/content:/srv/content:ro" -v kp-index:/srv/index \
#     -e KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET_FILE=/run/secrets/customer_safe \
#     -v "$PWD/secrets/customer_safe:/run/secrets/customer_safe:ro" \
#     knowledge-provider
#
# The configuration is /srv/knowledge-provider.yaml (container/knowledge-provider.yaml);
# mount your own over it. Options after the image name are appended to `serve`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    KNOWLEDGE_PROVIDER_CONFIG=/srv/knowledge-provider.yaml \
    KNOWLEDGE_PROVIDER_IN_CONTAINER=1

# git: translation staleness (default_lang_commit) asks git about the mounted checkout,
# which belongs to another user than the provider's: mark every folder safe for git.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git \
 && rm -rf /var/lib/apt/lists/* \
 && git config --system --add safe.directory '*'

WORKDIR /app
COPY constraints.txt pyproject.toml README.md ./
COPY provider ./provider
COPY kit ./kit
# Every dependency at the version in constraints.txt: two builds a week apart are the same.
RUN python -m pip install --constraint constraints.txt ./kit . \
 && useradd --system --uid 10001 --home-dir /srv --shell /usr/sbin/nologin provider \
 && mkdir -p /srv/content /srv/index \
 && chown -R provider:provider /srv/index

# The sample wiki and the image's configuration, used when nothing is mounted over them.
COPY --chown=provider:provider content /srv/content
COPY --chown=provider:provider container/knowledge-provider.yaml /srv/knowledge-provider.yaml

USER provider
WORKDIR /srv
VOLUME ["/srv/content", "/srv/index"]
# The API and the Prometheus /metrics listener.
EXPOSE 8080 9464

# Probes where the running server listens (its port, http or https), whatever set them.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["knowledge-provider", "healthcheck"]

ENTRYPOINT ["knowledge-provider", "serve"]
