package rowhash

import (
	stdfnv "hash/fnv"
	"testing"
	"time"
)

// TestSumIsFNV1a: a row of one string hashes as FNV-1a of its tagged bytes.
func TestSumIsFNV1a(t *testing.T) {
	h := stdfnv.New64a()
	h.Write([]byte{1, 'a', 'b', 0})
	if got, want := Sum([]any{"ab"}), int64(h.Sum64()); got != want {
		t.Errorf("Sum = %x, want %x", got, want)
	}
}

// TestSumTellsRowsApart: rows that differ in any value, its type, or
// where a boundary falls hash differently; equal rows alike.
func TestSumTellsRowsApart(t *testing.T) {
	at := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	rows := [][]any{
		{nil}, {""}, {"a", "b"}, {"ab", ""}, {int64(1)}, {int64(2)}, {true}, {false}, {1.5},
		{at}, {at.Add(time.Microsecond)}, {[]string{"a", "b"}}, {[]string{"ab"}}, {[]string{}}, {"a", nil}, {nil, "a"},
	}
	seen := map[int64]int{}
	for i, r := range rows {
		if j, ok := seen[Sum(r)]; ok {
			t.Errorf("rows %v and %v hash alike", rows[j], r)
		}
		seen[Sum(r)] = i
	}
	if Sum([]any{int64(7), "x", at}) != Sum([]any{7, "x", at.In(time.FixedZone("X", 3600))}) {
		t.Error("equal rows hash differently")
	}
}
