# A container image of the scrabble command, for runs spread over many
# machines (docs/distributed.md): a static binary and nothing else. Word
# lists are licensed: they are never baked in. Mount a data directory at
# /data; compile the lexica into it once with the image itself.
#
# Build it with `make image` (docker where a Docker engine runs, else
# podman): make builds the static binary (CGO off, GOAMD64=v1, the commit
# stamped in) into build/image/ and hands that directory to the container
# build as its whole context, so no base image or network is needed.
#
#   make image
#   docker run --rm -v "$PWD/data:/data" -v /srv/lexica:/lexica:ro scrabble \
#       lexicon add NWL23 /lexica/NWL23.txt
#   docker run --rm -v "$PWD/data:/data" scrabble --lexicon NWL23 selfplay \
#       --games 100000 --pairs --seed 7 --shard 3/8 --out /data/runs/a/part3
FROM scratch
COPY scrabble /scrabble
# The worker plays an item's games in a directory of its own, under /dev/shm
# where there is one (a container has), else the system's temporary
# directory, which an empty image lacks: TMPDIR points at the volume.
ENV SCRABBLE_DATA_DIR=/data HOME=/data TMPDIR=/data
VOLUME /data
ENTRYPOINT ["/scrabble"]
