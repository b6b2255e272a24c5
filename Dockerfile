# One carroca node (`carroca serve`) with the PostgreSQL driver: docker-compose.yml runs two of
# them behind HAProxy. The wheel is built in the full image (a C compiler: the compiled engine,
# see setup.py) and installed in the slim one; every version is pinned by constraints.txt.
FROM python:3.11-bookworm AS build
WORKDIR /src
COPY pyproject.toml setup.py constraints.txt README.md LICENSE ./
COPY src ./src
RUN PIP_CONSTRAINT=/src/constraints.txt \
    pip wheel --no-cache-dir --wheel-dir /wheels '.[postgres]'

FROM python:3.11-slim-bookworm
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-index --find-links /wheels 'carroca[postgres]' && \
    useradd --system --user-group --create-home carroca
USER carroca
WORKDIR /home/carroca
ENV PYTHONUNBUFFERED=1 CARROCA_HOST=0.0.0.0 CARROCA_PORT=8000
EXPOSE 8000
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health', timeout=2)"]
# Settings come from CARROCA_* variables (docs/server.md): CARROCA_DATABASE, CARROCA_REDIS, …
CMD ["carroca", "serve"]
