package web

import "testing"

// TestMain runs the package's tests, then stops the browser that the
// browser tests share.
func TestMain(m *testing.M) {
	m.Run()
	stopChromium()
}
