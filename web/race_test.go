//go:build race

package web

// raceDetector says whether the race detector watches the tests: it
// multiplies what each request costs several times over.
const raceDetector = true
