#!/bin/sh
# Runs a container command (build, run, rmi, ...) with docker where a Docker
# engine answers, else with podman; CONTAINER=docker|podman forces one.
#
# Podman is run as this project's CI machines allow: root without
# CAP_SYS_RESOURCE, so the default ulimits podman asks the runtime to set
# (nofile 1048576) are refused: containers.conf here sets none, and the
# container keeps the caller's; cgroups in hybrid mode, which crun refuses:
# runc, where it is installed, runs them.
set -eu
ctr=${CONTAINER:-}
if [ -z "$ctr" ]; then
	if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
		ctr=docker
	elif command -v podman >/dev/null 2>&1; then
		ctr=podman
	else
		echo "scripts/container.sh: neither a Docker engine (docker info fails or docker is missing) nor podman; install one (Debian: apt-get install podman runc)" >&2
		exit 1
	fi
fi
if [ "$ctr" = podman ]; then
	conf=$(dirname "$0")/containers.conf
	CONTAINERS_CONF=${CONTAINERS_CONF:-$(cd "$(dirname "$conf")" && pwd)/containers.conf}
	export CONTAINERS_CONF
	if command -v runc >/dev/null 2>&1; then
		exec podman --runtime runc "$@"
	fi
	exec podman "$@"
fi
exec "$ctr" "$@"
