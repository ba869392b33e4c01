#!/usr/bin/env bash
# Optional: checks test_vectors.json and extra_vectors.json in this folder against a
# second, independent BLAKE3 implementation: the pure-Go lukechampine.com/blake3
# from Debian (apt-get install golang-go golang-lukechampine-blake3-dev). Its
# OutputReader.Seek reaches the offset 2^32+7 directly, without the 4 GiB streams
# generate.sh reads from b3sum. Builds offline from /usr/share/gocode.
#   ./crosscheck_go.sh     # prints a summary; exit 0 only if every output agrees
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v go >/dev/null || { echo "crosscheck_go.sh: go missing" >&2; exit 1; }
[ -d /usr/share/gocode/src/lukechampine.com/blake3 ] || {
    echo "crosscheck_go.sh: apt-get install golang-lukechampine-blake3-dev" >&2; exit 1; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/b3check" "$work/src/lukechampine.com"
# A copy of the package shadows the installed one, plus one file that exports the
# derive_key hasher (blake3.DeriveKey itself gives only a prefix, not an XOF reader).
cp -r /usr/share/gocode/src/lukechampine.com/blake3 "$work/src/lukechampine.com/"
cat > "$work/src/lukechampine.com/blake3/zz_derive_export.go" <<'GO'
package blake3

import "encoding/binary"

// NewDeriveKeyHasher is DeriveKey's material hasher, as in DeriveKey above.
func NewDeriveKeyHasher(ctx string) *Hasher {
	h := newHasher(iv, flagDeriveKeyContext, 32)
	h.Write([]byte(ctx))
	derivationIV := h.Sum(make([]byte, 0, 32))
	var ivWords [8]uint32
	for i := range ivWords {
		ivWords[i] = binary.LittleEndian.Uint32(derivationIV[i*4:])
	}
	return newHasher(ivWords, flagDeriveKeyMaterial, 32)
}
GO
cat > "$work/src/b3check/main.go" <<'GO'
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"lukechampine.com/blake3"
)

func input(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// output returns length bytes of the extended output of mode, starting at offset.
// It seeks to a multiple of 1024 and reads forward from there, so that only
// OutputReader.Read's block-aligned path is relied on.
func output(mode, key, context string, in []byte, offset uint64, length int) []byte {
	var h *blake3.Hasher
	switch mode {
	case "hash":
		h = blake3.New(32, nil)
	case "keyed_hash":
		h = blake3.New(32, []byte(key))
	case "derive_key":
		h = blake3.NewDeriveKeyHasher(context)
	default:
		panic(mode)
	}
	h.Write(in)
	xof := h.XOF()
	base := offset - offset%1024
	if _, err := xof.Seek(int64(base), io.SeekStart); err != nil {
		panic(err)
	}
	buf := make([]byte, int(offset-base)+length)
	if _, err := io.ReadFull(xof, buf); err != nil {
		panic(err)
	}
	return buf[offset-base:]
}

func main() {
	dir := os.Args[1]
	checked, bad := 0, 0
	check := func(what string, got []byte, want string) {
		checked++
		if hex.EncodeToString(got) != want {
			bad++
			fmt.Println("MISMATCH", what)
		}
	}

	var off struct {
		Key     string `json:"key"`
		Context string `json:"context_string"`
		Cases   []map[string]interface{}
	}
	raw, err := os.ReadFile(dir + "/test_vectors.json")
	if err != nil {
		panic(err)
	}
	if err := json.NewDecoder(bytes.NewReader(raw)).Decode(&off); err != nil {
		panic(err)
	}
	for _, c := range off.Cases {
		n := int(c["input_len"].(float64))
		for _, m := range []string{"hash", "keyed_hash", "derive_key"} {
			want := c[m].(string)
			check(fmt.Sprintf("test_vectors.json %s %d", m, n),
				output(m, off.Key, off.Context, input(n), 0, len(want)/2), want)
		}
	}
	fmt.Printf("test_vectors.json: %d outputs checked\n", checked)

	var extra struct {
		Cases []struct {
			Mode     string `json:"mode"`
			InputLen int    `json:"input_len"`
			Key      string `json:"key"`
			Context  string `json:"context"`
			Offset   uint64 `json:"offset"`
			Output   string `json:"output"`
		}
	}
	raw, err = os.ReadFile(dir + "/extra_vectors.json")
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(raw, &extra); err != nil {
		panic(err)
	}
	before := checked
	for _, c := range extra.Cases {
		check(fmt.Sprintf("extra_vectors.json %s %d @%d", c.Mode, c.InputLen, c.Offset),
			output(c.Mode, c.Key, c.Context, input(c.InputLen), c.Offset, len(c.Output)/2), c.Output)
	}
	fmt.Printf("extra_vectors.json: %d outputs checked\n", checked-before)
	fmt.Printf("%d passed, %d failed\n", checked-bad, bad)
	if bad != 0 {
		os.Exit(1)
	}
}
GO
cd "$work/src/b3check"
GO111MODULE=off GOPATH="$work:/usr/share/gocode" GOCACHE="$work/cache" GOFLAGS='' \
    go build -o "$work/b3check" .
"$work/b3check" "${1:-$here}"
