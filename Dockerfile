# The Hexodic move-legality checker, served by gunicorn as `make run` serves it.
FROM python:3.11-slim-trixie

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000

# fonts-dejavu-core: the font the PNG board pictures' text is drawn in (resvg,
# a self-contained wheel, reads the system's font folders; the slim image has none).
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core=2.37-8 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# The dependencies exactly as locked (versions and hashes; the lock `make run`
# installs too), in a layer of their own that code changes reuse.  With
# --build-arg AUDIT=true the image also holds the audit extra (Dask and the
# archive readers): the image of the audit's Dask workers (deploy/audit/).
ARG AUDIT=false
COPY requirements.lock requirements-audit.lock ./
RUN pip install --no-cache-dir --require-hashes -r requirements.lock \
    && if [ "$AUDIT" = "true" ]; then pip install --no-cache-dir --require-hashes -r requirements-audit.lock; fi

# Then the project itself, built into a wheel and installed without resolving
# anything again; its source goes, so the server runs the installed package
# (and a file left out of the package fails here, not in production).
COPY pyproject.toml README.md ./
COPY checker ./checker
COPY schemas ./schemas
RUN pip install --no-cache-dir --no-deps . \
    && rm -rf /src/* \
    && groupadd --system --gid 10001 checker \
    && useradd --system --no-create-home --uid 10001 --gid 10001 checker

WORKDIR /app
COPY gunicorn.conf.py ./

USER 10001:10001
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '8000') + '/healthz', timeout=2)"]

# Settings checked, then exec gunicorn --config gunicorn.conf.py (PID 1, so it gets SIGTERM).
CMD ["hexodic-checker-serve"]
