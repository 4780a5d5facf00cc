# Sourced by abtest.sh and abselfplay.sh: abcopy REF DIR copies every
# package of commit REF (no tests, no commands) into DIR (the module's
# zzold/), its imports rewritten from scrabble/X to scrabble/zzold/X, so
# the old build is whole and compiles whatever the working tree has moved
# or renamed since (the redesign of issue 24 moved rules, movegen, sim
# and gcg apart). Embedded data (eval/data, benchmarks/testdata) comes too.
abcopy() {
	local ref=$1 dir=$2
	mkdir "$dir"
	git archive "$ref" | tar -x -C "$dir"
	rm -rf "$dir/go.mod" "$dir/go.sum" "$dir/cmd" "$dir/scripts"
	find "$dir" -name '*_test.go' -delete
	find "$dir" -name '*.go' -exec sed -i -e 's#"scrabble/#"scrabble/zzold/#' {} +
}
