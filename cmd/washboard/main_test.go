package main

import (
	"os"
	"testing"
)

// TestMain runs the package's tests, then removes the binary that the
// tests which run it shared.
func TestMain(m *testing.M) {
	m.Run()
	if washboardBinary.dir != "" {
		os.RemoveAll(washboardBinary.dir)
	}
}
