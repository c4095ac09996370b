#!/bin/sh
# readme: the README's console examples are what pdlc prints. Every ```console block holds a
# command ("$ build/compiler/pdlc ...", continued by lines ending in a backslash) and its exact
# output (standard output and standard error together); the command runs from the source tree
# with the pdlc under test, and the two texts must be byte-identical. This keeps the README true;
# the values themselves are checked elsewhere (table3, the golden tests, the robustness tests).
# usage: readme.sh PDLC SOURCE_DIR
set -u
pdlc=$1
src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pdlreadme.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# Split the blocks: block N's command into $tmp/N.cmd, its output into $tmp/N.want.
awk -v dir="$tmp" '
    /^```console$/ { inblock = 1; n++; cmd = dir "/" n ".cmd"; want = dir "/" n ".want";
                     printf "" > want; incmd = 0; next }
    inblock && /^```$/ { inblock = 0; close(cmd); close(want); next }
    !inblock { next }
    /^\$ / { line = substr($0, 3); incmd = 1 }
    incmd { if (line == "") line = $0
            cont = sub(/\\$/, "", line)
            printf "%s", line > cmd
            line = ""
            if (!cont) { printf "\n" > cmd; incmd = 0 }
            next }
    { print > want }
' "$src/README.md"

count=0
status=0
for c in "$tmp"/*.cmd; do
    [ -e "$c" ] || break
    n=$(basename "$c" .cmd)
    count=$((count + 1))
    case $(cat "$c") in
    build/compiler/pdlc\ *) ;;
    *)
        echo "FAIL: README console block $n does not run build/compiler/pdlc: $(cat "$c")"
        status=1
        continue
        ;;
    esac
    args=$(sed 's|^build/compiler/pdlc ||' "$c")
    # The README's arguments are plain words (no quotes or expansions): split them as the shell does.
    (cd "$src" && eval "set -- $args" && "$pdlc" "$@") >"$tmp/$n.got" 2>&1
    if ! cmp -s "$tmp/$n.want" "$tmp/$n.got"; then
        echo "FAIL: README console block $n: $(cat "$c")"
        diff "$tmp/$n.want" "$tmp/$n.got" | head -20
        status=1
    fi
done
if [ "$count" -lt 3 ]; then
    echo "FAIL: found $count console blocks in README.md, expected at least 3"
    status=1
fi
[ "$status" -eq 0 ] && echo "readme: $count console examples match pdlc's output"
exit $status
