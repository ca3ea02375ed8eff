package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestCrashSafety starts the real binary, kills it with SIGKILL twenty
// times at random moments while it syncs, and after each kill finds the
// database intact, the session still signed in, and the cache consistent:
// every refresh committed whole or not at all.
func TestCrashSafety(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and kills the binary twenty times")
	}
	bin := buildBinary(t)
	up := newUpstreamSimOf(t, 600)
	data := t.TempDir()
	var logs syncBuffer
	defer func() {
		if t.Failed() {
			t.Logf("the binary's log:\n%s", logs.String())
		}
	}()
	start := func() (*exec.Cmd, string) {
		return startBinary(t, bin, &logs, "serve", "--listen", "127.0.0.1:0", "--data", data, "--upstream", up.srv.URL, "--log-format", "json")
	}

	cmd, base := start()
	c := signIn(t, base, up.cred)
	// Every request to the service takes a while, so that a sync lasts
	// about a second.
	up.delay.Store(int64(30 * time.Millisecond))
	up.delayAll.Store(true)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20; i++ {
		cmd, base = start()
		// The session's first request after the restart starts the sync;
		// the kill comes while it runs.
		before := up.requests.Load()
		resp, err := c.Get(base + "/alerts")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || strings.Contains(resp.Request.URL.Path, "signin") {
			t.Errorf("restart %d: the session is no longer signed in (status %d at %s)", i, resp.StatusCode, resp.Request.URL.Path)
		}
		for deadline := time.Now().Add(10 * time.Second); up.requests.Load() == before && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(time.Duration(rng.IntN(600)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if err := checkDatabase(filepath.Join(data, "washboard.db")); err != nil {
			t.Fatalf("after kill %d: %v", i+1, err)
		}
	}
}

// checkDatabase checks a cache left by a killed process: integrity, and
// counts that only whole refreshes leave in agreement.
func checkDatabase(path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	var integrity string
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&integrity); err != nil || integrity != "ok" {
		return fmt.Errorf("integrity check: %q, %v", integrity, err)
	}
	var sessions int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE expiry > julianday('now')`).Scan(&sessions); err != nil || sessions == 0 {
		return fmt.Errorf("sessions: %d, %v; want the signed-in one", sessions, err)
	}
	rows, err := db.QueryContext(ctx, `SELECT a.key,
		(SELECT count(*) FROM locations l WHERE l.account_id = a.key),
		(SELECT count(*) FROM alerts x WHERE x.account_id = a.key AND x.status = 'OPEN'),
		(SELECT count(*) FROM devices d WHERE d.account_id = a.key),
		coalesce(r.ok + r.attention + r.action + r.offline, -1), coalesce(r.open_alerts, -1)
		FROM accounts a LEFT JOIN rollups r ON r.account_id = a.key AND r.scope = 'account'`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var key int64
		var locations, open, devices, counted, rolledOpen int
		if err := rows.Scan(&key, &locations, &open, &devices, &counted, &rolledOpen); err != nil {
			return err
		}
		if counted == -1 && locations == 0 {
			continue // the layout has not arrived yet
		}
		if counted != locations || rolledOpen != open {
			return fmt.Errorf("account %d: the rollup counts %d locations and %d open alerts; the cache holds %d and %d: a half refresh",
				key, counted, rolledOpen, locations, open)
		}
		if devices != 0 && devices < locations {
			return fmt.Errorf("account %d: %d devices for %d locations: a half refresh of devices", key, devices, locations)
		}
	}
	return rows.Err()
}

// washboardBinary is the washboard binary that the tests which run it
// share: built once, by the first of them, and removed by TestMain.
var washboardBinary struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// buildBinary returns the washboard binary. It is built with the settings
// of the test binary (with the race detector when it has it), so that it
// reuses the packages that go test has just compiled: a few seconds, where
// a build with other settings compiles everything again (over a minute on
// a machine with nothing built yet, and three under the race detector's
// test run, which compiled everything with it). What these tests check
// does not depend on cgo (the database is pure Go, addresses are loopback
// IP addresses, not names); .ci/run checks the build without cgo on its
// own.
func buildBinary(t *testing.T) string {
	t.Helper()
	washboardBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "washboard-binary-")
		if err != nil {
			washboardBinary.err = err
			return
		}
		washboardBinary.dir = dir
		bin := filepath.Join(dir, "washboard")
		build := exec.Command("go", append([]string{"build", "-o", bin}, testBuildFlags()...)...)
		build.Args = append(build.Args, ".")
		if out, err := build.CombinedOutput(); err != nil {
			washboardBinary.err = fmt.Errorf("%v\n%s", err, out)
			return
		}
		washboardBinary.path = bin
	})
	if washboardBinary.err != nil {
		t.Fatalf("building the binary: %v", washboardBinary.err)
	}
	return washboardBinary.path
}

// testBuildFlags are the flags of go build that give a binary the
// settings this test binary was built with: -race when it was, and its
// -gcflags (.ci/run leaves the SQLite engine out of the race detector's
// watch), so that the build reuses the packages the test compiled.
func testBuildFlags() []string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	var flags []string
	for _, s := range info.Settings {
		switch {
		case s.Key == "-race" && s.Value == "true":
			flags = append(flags, "-race")
		case s.Key == "-gcflags":
			flags = append(flags, "-gcflags="+s.Value)
		}
	}
	return flags
}

// startBinary runs the binary with args, its log going to logs, and
// returns it with the address it prints once it listens.
func startBinary(t *testing.T, bin string, logs *syncBuffer, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	var printed string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); {
		n, err := out.Read(buf)
		printed += string(buf[:n])
		if m := regexp.MustCompile(`running on (http://\S+)`).FindStringSubmatch(printed); m != nil {
			return cmd, m[1]
		}
		if err != nil {
			break
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	t.Fatalf("the binary printed no address: %q", printed)
	return nil, ""
}
