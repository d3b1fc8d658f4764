# Bindery in a container: build with the Swift toolchain, run on slim Debian.
#   docker build -t bindery . && docker run --rm -p 8080:8080 bindery
# The server listens on every address inside the container (--all-interfaces);
# publish it to 127.0.0.1 only if the host should not expose it:
#   docker run --rm -p 127.0.0.1:8080:8080 bindery

ARG SWIFT_VERSION=6.1
FROM swift:${SWIFT_VERSION}-bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd-dev pkg-config \
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
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd12 libstdc++6 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/ /usr/local/bin/
COPY Public /app/Public
WORKDIR /app
USER nobody
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/bindery", "serve", "--all-interfaces", "--port", "8080", "--public-directory", "/app/Public"]
