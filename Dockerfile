# Reference knowledge provider — container image.
#
#   docker build -t knowledge-provider .
#   docker run --rm -p 8080:8080 \
#     -v "$PWD/content:/srv/content:ro" -v kp-index:/srv/index \
#     -e KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET_FILE=/run/secrets/customer_safe \
#     -v "$PWD/secrets/customer_safe:/run/secrets/customer_safe:ro" \
#     knowledge-provider
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY provider ./provider
RUN python -m pip install . \
 && useradd --system --uid 10001 --home-dir /srv --shell /usr/sbin/nologin provider \
 && mkdir -p /srv/content /srv/index \
 && chown -R provider:provider /srv/index

# The sample wiki and its configuration, used when nothing is mounted over them.
COPY --chown=provider:provider content /srv/content
COPY --chown=provider:provider knowledge-provider.yaml /srv/knowledge-provider.yaml

USER provider
WORKDIR /srv
VOLUME ["/srv/content", "/srv/index"]
EXPOSE 8080

HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=2).status == 200 else 1)"]

ENTRYPOINT ["knowledge-provider", "serve", "--content", "/srv/content", "--index", "/srv/index", "--host", "0.0.0.0", "--port", "8080"]
