package httpkit

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// gunzipMember is what one gzip member holds; it fails the test unless b
// is that member and nothing more.
func gunzipMember(t *testing.T, b []byte) string {
	t.Helper()
	r := bytes.NewReader(b)
	zr, err := gzip.NewReader(r)
	if err == nil {
		zr.Multistream(false)
		b, err = io.ReadAll(zr)
	}
	if err != nil || r.Len() != 0 {
		t.Fatalf("not one whole gzip member (%d bytes after it): %v", r.Len(), err)
	}
	return string(b)
}

func TestPiecesCompressedApartMakeOneGzipMember(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		var parts [][]byte
		var whole []byte
		for range 1 + rng.IntN(4) {
			p := make([]byte, rng.IntN(70_000))
			for i := range p { // text-like, so that compression has work to do
				p[i] = "<div class=\"card\">ok</div>\n"[rng.IntN(27)]
			}
			parts = append(parts, p)
			whole = append(whole, p...)
		}
		var pieces []DeflatePiece
		for i, p := range parts {
			last := i == len(parts)-1
			if !last && len(p) <= 65_535 && rng.IntN(3) == 0 {
				pieces = append(pieces, StoredPiece(p))
			} else {
				pieces = append(pieces, CompressPiece(p, []int{1, -1}[i%2], last))
			}
		}
		if rng.IntN(2) == 0 { // a stored piece just before the end
			tok := []byte(strings.Repeat("0123456789abcdef", 8))
			pieces = append(pieces[:len(pieces)-1], StoredPiece(tok), pieces[len(pieces)-1])
			whole = append(append(whole[:len(whole)-len(parts[len(parts)-1])], tok...), parts[len(parts)-1]...)
		}
		got := gunzipMember(t, AppendGzip(nil, pieces...))
		if got != string(whole) {
			t.Fatalf("%d pieces of %d bytes: gunzipped to %d bytes", len(parts), len(whole), len(got))
		}
	}
}

func TestCRC32Combine(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 8, 255, 4096, 65_537, 400_000} {
		a, b := make([]byte, rng.IntN(5000)), make([]byte, n)
		for i := range a {
			a[i] = byte(rng.Uint32())
		}
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		want := crc32.ChecksumIEEE(append(bytes.Clone(a), b...))
		if got := crc32Combine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), len(b)); got != want {
			t.Errorf("CRC-32 of %d and %d bytes combined = %08x, want %08x", len(a), len(b), got, want)
		}
	}
}
