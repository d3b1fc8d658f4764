# Bindery in a container: built with the Swift used in development (6.3.1),
# run on slim Debian as an unprivileged user.
#   docker build -t bindery . && docker run --rm -p 127.0.0.1:8080:8080 bindery
# Inside the container the server listens on every address (BINDERY_HOST);
# publish it to 127.0.0.1 only unless the host should expose it. Every serve
# option is an environment variable too: docker run -e BINDERY_MAX_SESSIONS=500 …

ARG SWIFT_VERSION=6.3.1
FROM swift:${SWIFT_VERSION}-bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd-dev libsqlite3-dev libpq-dev libsodium-dev zlib1g-dev libbrotli-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources Sources
# The manifest declares the test targets, so their folders must exist to build.
COPY Tests Tests
RUN swift build -c release -Xswiftc -cross-module-optimization --product bindery --static-swift-stdlib \
 && mkdir -p /out \
 && cp "$(swift build -c release --show-bin-path)/bindery" /out/ \
 && cp -R "$(swift build -c release --show-bin-path)"/*.resources /out/

FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 libpq5 libsodium23 zlib1g libbrotli1 libstdc++6 \
 && rm -rf /var/lib/apt/lists/*
# The executable and, next to it, its resource bundles (the browser client, the examples' data).
COPY --from=build /out/ /usr/local/bin/
COPY Public /app/Public
# The todo list's database lives in /app/data: mount a volume there to keep it.
RUN mkdir -p /app/data && chown nobody /app/data
WORKDIR /app
USER nobody
ENV BINDERY_HOST=0.0.0.0 \
    BINDERY_PORT=8080 \
    BINDERY_PUBLIC_DIRECTORY=/app/Public \
    BINDERY_DATABASE=/app/data/bindery.sqlite
# A cluster's node: -e BINDERY_DATABASE=postgres://user:password@host:5432/bindery
EXPOSE 8080
# /healthz through the server's own client: the image has no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["/usr/local/bin/bindery", "probe"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/bindery", "serve"]
