package web

import (
	"flag"
	"runtime"
	"strconv"
	"testing"
)

// TestMain runs the package's tests, then stops the browser that the
// browser tests share.
//
// Most tests here wait far more than they compute: on the simulator, on a
// browser, on a page's timers. So more of them run at once than the
// machine has cores: -parallel is 12 unless the command line gives it (the
// browser tests have a bound of their own, browserSlots).
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(max(12, runtime.GOMAXPROCS(0))))
	}
	m.Run()
	stopChromium()
}
