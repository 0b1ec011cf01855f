# The Hexodic move-legality checker, served by gunicorn as `make run` serves it.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000

WORKDIR /app

# Dependencies first (from pyproject.toml), so code changes reuse this layer.
COPY pyproject.toml README.md ./
COPY checker ./checker
COPY schemas ./schemas
COPY gunicorn.conf.py ./
RUN pip install --no-cache-dir . \
    && useradd --system --no-create-home --uid 10001 checker

USER 10001
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '8000') + '/healthz', timeout=2)"]

CMD ["gunicorn", "--config", "gunicorn.conf.py"]
