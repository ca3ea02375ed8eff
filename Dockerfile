# syntax=docker/dockerfile:1

# Build a static binary with the time zone database embedded.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -tags timetzdata \
      -ldflags "-s -w -X washboard/internal/version.Version=${VERSION}" \
      -o /out/washboard ./cmd/washboard \
 && mkdir -p /out/data

# Run it as an unprivileged user on a minimal image that also carries CA
# certificates and /usr/share/zoneinfo.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/washboard /washboard
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
ENV TZ=UTC WASHBOARD_DATA=/data WASHBOARD_LISTEN=:8080
VOLUME /data
EXPOSE 8080
ENTRYPOINT ["/washboard"]
# Set WASHBOARD_UPSTREAM to the service's base URL; `demo` runs on a
# simulated fleet instead. The cache is SQLite in /data; for several
# replicas, set WASHBOARD_DATABASE to a PostgreSQL URL and
# WASHBOARD_SECRET_KEY to the key they share (docs/replicas.md), and
# /data holds nothing.
CMD ["serve"]
