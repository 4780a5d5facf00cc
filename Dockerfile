# A container image of the scrabble command, for runs spread over many
# machines (docs/distributed.md): a static binary and nothing else. Word
# lists are licensed: they are never baked in. Mount a data directory
# holding the compiled lexica (scrabble lexicon add, run once) at /data.
#
#   docker build -t scrabble .
#   docker run --rm -v "$PWD/data:/data" scrabble --lexicon NWL23 selfplay \
#       --games 100000 --pairs --seed 7 --shard 3/8 --out /data/runs/a/part3
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# CGO off: a static binary; GOAMD64 v1: any x86-64 the cluster has.
RUN CGO_ENABLED=0 GOAMD64=v1 go build -trimpath -o /scrabble ./cmd/scrabble

FROM scratch
COPY --from=build /scrabble /scrabble
ENV SCRABBLE_DATA_DIR=/data HOME=/data
VOLUME /data
ENTRYPOINT ["/scrabble"]
