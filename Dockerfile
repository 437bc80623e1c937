# syntax=docker/dockerfile:1
# The Catan server. Built by docker-compose.yml; see docs/deploy.md.

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# The migrations (migrations/) are embedded into the binary at compile time.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p catan-server --bin catan-server \
    && cp target/release/catan-server /usr/local/bin/catan-server

FROM debian:bookworm-slim
# curl: the compose healthcheck (GET /healthz).
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --create-home catan
COPY --from=build /usr/local/bin/catan-server /usr/local/bin/catan-server
USER catan
# Without DATABASE_URL the server keeps a SQLite file (catan.db) in its working directory.
WORKDIR /data
ENV LISTEN=0.0.0.0:8080
EXPOSE 8080
CMD ["catan-server"]
