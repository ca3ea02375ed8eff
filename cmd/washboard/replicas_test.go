package main

import (
	"bufio"
	"context"
	"io"
	"math"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"washboard/internal/store/postgres/pgtest"
)

// replicaProc is one replica: the real binary, serving on PostgreSQL.
type replicaProc struct {
	cmd  *exec.Cmd
	base string
	logs *syncBuffer
}

// startReplica starts the binary as one replica of the dashboard on the
// database at dbURL, with the simulator at upstream.
func startReplica(t *testing.T, bin, dbURL, upstream string) *replicaProc {
	t.Helper()
	r := &replicaProc{logs: &syncBuffer{}}
	r.cmd = exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--database", dbURL, "--upstream", upstream,
		"--data", t.TempDir(), "--log-format", "json")
	r.cmd.Env = append(os.Environ(), "WASHBOARD_SECRET_KEY=cmVwbGljYXMtc2hhcmUtdGhpcy1rZXktMzItYnl0ZXM=")
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r.cmd.Stderr = r.logs
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		r.cmd.Wait()
		if t.Failed() {
			t.Logf("the log of the replica at %s:\n%s", r.base, r.logs.String())
		}
	})
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if m := regexp.MustCompile(`running on (http://\S+)`).FindStringSubmatch(lines.Text()); m != nil {
			go io.Copy(io.Discard, out)
			r.base = m[1]
			return r
		}
	}
	t.Fatalf("a replica printed no address; its log:\n%s", r.logs.String())
	return nil
}

// upstreamRequests is what the replica's /metrics says it asked the
// service.
func (r *replicaProc) upstreamRequests(t *testing.T) int {
	t.Helper()
	return r.metric(t, "washboard_upstream_requests_total")
}

// metric is the sum of the values of the replica's metric name, over its
// labels.
func (r *replicaProc) metric(t *testing.T, name string) int {
	t.Helper()
	resp, err := http.Get(r.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	n := 0
	for _, m := range regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(name)+`(?:\{[^}]*\})? (\S+)$`).FindAllStringSubmatch(string(b), -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		n += int(math.Round(v))
	}
	return n
}

// leasesHeld is each replica's count of the accounts whose sync it holds.
func leasesHeld(t *testing.T, replicas []*replicaProc, skip int) []int {
	t.Helper()
	held := make([]int, len(replicas))
	for i, r := range replicas {
		if i != skip {
			held[i] = r.metric(t, "washboard_sync_leases_held")
		}
	}
	return held
}

// TestThreeReplicasShareOnePostgreSQL starts three replicas of the real
// binary on one PostgreSQL, with the simulator upstream: a session made on
// one is valid on the others; a person removed on one loses their event
// streams on all within a second; one replica alone polls the account; a
// change it syncs reaches an event stream on another within a second; and
// when it is killed with SIGKILL, another takes the sync over within two
// intervals.
func TestThreeReplicasShareOnePostgreSQL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three replicas for about two minutes")
	}
	_, dbURL, _ := pgtest.NewSchema(t)
	t.Parallel()
	bin := buildBinary(t)

	up := newUpstreamSimOf(t, 60)
	var devicesMu sync.Mutex
	var devicesServed []time.Time // when each page of /devices was sent
	var walkStarts []time.Time    // when the first page of each walk of /devices was sent
	inner := up.srv.Config.Handler
	up.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner.ServeHTTP(w, r)
		if r.URL.Path == "/devices" {
			devicesMu.Lock()
			devicesServed = append(devicesServed, time.Now())
			if off := r.URL.Query().Get("offset"); off == "" || off == "0" {
				walkStarts = append(walkStarts, time.Now())
			}
			devicesMu.Unlock()
		}
	})
	devicesWalks := func() []time.Time {
		devicesMu.Lock()
		defer devicesMu.Unlock()
		return append([]time.Time(nil), walkStarts...)
	}
	lastPage := func() time.Time {
		devicesMu.Lock()
		defer devicesMu.Unlock()
		return devicesServed[len(devicesServed)-1]
	}

	replicas := make([]*replicaProc, 3)
	for i := range replicas {
		replicas[i] = startReplica(t, bin, dbURL, up.srv.URL)
	}
	began := time.Now()
	user := signIn(t, replicas[0].base, up.cred)
	for i, r := range replicas[1:] {
		if !strings.Contains(get(t, user, r.base+"/"), `id="buildings-heading"`) {
			t.Fatalf("the session made on replica 1 is not valid on replica %d", i+2)
		}
	}

	removedPersonsStreamsEnd(t, replicas, user)

	// Each replica now holds the account for the session; one polls it.
	// The others hear of its changes: a stream on each, then a change.
	type heard struct {
		replica int
		at      time.Time
	}
	arrivals := make(chan heard, 16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streams := &http.Client{Jar: user.Jar} // no timeout: streams stay open
	for i, r := range replicas {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.base+"/events", nil)
		resp, err := streams.Do(req)
		if err != nil {
			t.Fatalf("the event stream of replica %d: %v", i+1, err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("the event stream of replica %d: %d", i+1, resp.StatusCode)
		}
		go func() {
			defer resp.Body.Close()
			lines := bufio.NewScanner(resp.Body)
			for lines.Scan() {
				if lines.Text() == "event: devices" {
					arrivals <- heard{i, time.Now()}
				}
			}
		}()
	}
	// Which replica polls: the one whose requests to the service grow
	// from now until the change is heard.
	before := make([]int, len(replicas))
	for i, r := range replicas {
		before[i] = r.upstreamRequests(t)
	}
	mac := up.world.Accounts()[0].Rooms[0].Locations[0].Devices[0].MAC
	if !up.world.Empty(mac) {
		t.Fatalf("the simulator has no device %s", mac)
	}

	// Within an interval and a bit, the change is synced once and heard
	// everywhere.
	seen := map[int]time.Time{}
	for deadline := time.After(90 * time.Second); len(seen) < len(replicas); {
		select {
		case h := <-arrivals:
			if _, ok := seen[h.replica]; !ok {
				seen[h.replica] = h.at
			}
		case <-deadline:
			t.Fatalf("after 90 s, %d of the 3 replicas' streams heard of the change", len(seen))
		}
	}
	walks := devicesWalks()
	synced := lastPage()
	for i, at := range seen {
		if d := at.Sub(synced); d > time.Second {
			t.Errorf("replica %d's stream heard of the change %s after the service answered the sync, want within 1 s", i+1, d.Round(time.Millisecond))
		} else {
			t.Logf("replica %d's stream heard of the change %s after the service answered the sync", i+1, d.Round(time.Millisecond))
		}
	}
	if len(walks) != 2 {
		t.Errorf("the account's devices were read %d times in %s; one replica polling reads them twice (at sign-in and an interval later)",
			len(walks), time.Since(began).Round(time.Second))
	}

	time.Sleep(time.Second) // the round's alerts
	poller := -1
	for i, r := range replicas {
		if r.upstreamRequests(t) > before[i] {
			if poller >= 0 {
				t.Fatalf("replicas %d and %d both polled the account in one interval", poller+1, i+1)
			}
			poller = i
		}
	}
	if poller < 0 {
		t.Fatal("the service was polled, but by no replica's count")
	}
	if held, want := leasesHeld(t, replicas, -1), oneAt(len(replicas), poller); !slices.Equal(held, want) {
		t.Errorf("washboard_sync_leases_held of the three replicas: %v, want %v", held, want)
	}

	// The poller dies without a word; another takes over within two
	// intervals of its last poll.
	last := devicesWalks()
	lastPoll := last[len(last)-1]
	for i, r := range replicas {
		before[i] = r.upstreamRequests(t)
	}
	replicas[poller].cmd.Process.Signal(syscall.SIGKILL)
	replicas[poller].cmd.Wait()
	for len(devicesWalks()) == len(last) {
		if time.Since(lastPoll) > 2*time.Minute {
			t.Fatalf("no replica polled the account within two intervals of replica %d's death", poller+1)
		}
		time.Sleep(200 * time.Millisecond)
	}
	took := devicesWalks()[len(last)].Sub(lastPoll)
	t.Logf("replica %d was killed; another polled %s after its last poll", poller+1, took.Round(time.Millisecond))
	time.Sleep(time.Second)
	polled := 0
	for i, r := range replicas {
		if i != poller && r.upstreamRequests(t) > before[i] {
			polled++
		}
	}
	if polled != 1 {
		t.Errorf("%d surviving replicas polled the account after the takeover, want one", polled)
	}
	if held := leasesHeld(t, replicas, poller); slices.Max(held) != 1 || held[0]+held[1]+held[2] != 1 {
		t.Errorf("washboard_sync_leases_held of the surviving replicas after the takeover: %v, want 1 on one", held)
	}
}

// oneAt is n zeros but a 1 at i.
func oneAt(n, i int) []int {
	v := make([]int, n)
	v[i] = 1
	return v
}

var (
	invitationLink = regexp.MustCompile(`https?://[^"<\s]+/invitations/([A-Za-z0-9_-]+)`)
	removeForm     = regexp.MustCompile(`action="/people/([^/"]+)/remove">\s*<input[^>]*>\s*<button type="submit">Remove<span class="visually-hidden"> ([^<]+) from the account</span>`)
)

// removedPersonsStreamsEnd has the owner (signed in as owner) invite a
// viewer on the first replica, who accepts and opens an event stream on
// every replica; the owner removes them on the first, and each stream must
// end within a second of the owner's asking.
func removedPersonsStreamsEnd(t *testing.T, replicas []*replicaProc, owner *http.Client) {
	t.Helper()
	first := replicas[0].base
	token := csrfField.FindStringSubmatch(get(t, owner, first+"/people"))
	if token == nil {
		t.Fatal("no form token on the owner's /people page")
	}
	invited := postForm(t, owner, first+"/people/invitations", url.Values{"csrf_token": {token[1]}, "role": {"viewer"}})
	link := invitationLink.FindStringSubmatch(invited)
	if link == nil {
		t.Fatalf("inviting showed no invitation link:\n%s", invited)
	}
	jar, _ := cookiejar.New(nil)
	viewer := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	page := csrfField.FindStringSubmatch(get(t, viewer, replicas[1].base+"/invitations/"+link[1]))
	if page == nil {
		t.Fatal("no form on the invitation's page")
	}
	postForm(t, viewer, replicas[1].base+"/invitations/"+link[1], url.Values{"csrf_token": {page[1]}, "name": {"Vera Lind"}})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streams := &http.Client{Jar: jar} // no timeout: streams stay open
	ended := make(chan int, len(replicas))
	endedAt := make([]time.Time, len(replicas))
	for i, r := range replicas {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.base+"/events", nil)
		resp, err := streams.Do(req)
		if err != nil {
			t.Fatalf("the viewer's event stream on replica %d: %v", i+1, err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("the viewer's event stream on replica %d: %d", i+1, resp.StatusCode)
		}
		go func() {
			defer resp.Body.Close()
			io.Copy(io.Discard, resp.Body)
			endedAt[i] = time.Now()
			ended <- i
		}()
	}

	var id string
	for _, m := range removeForm.FindAllStringSubmatch(get(t, owner, first+"/people"), -1) {
		if m[2] == "Vera Lind" {
			id = m[1]
		}
	}
	if id == "" {
		t.Fatal("the owner's /people page has no way to remove the viewer who accepted")
	}
	removed := time.Now()
	postForm(t, owner, first+"/people/"+id+"/remove", url.Values{"csrf_token": {token[1]}})
	for n := 0; n < len(replicas); n++ {
		select {
		case i := <-ended:
			if d := endedAt[i].Sub(removed); d > time.Second {
				t.Errorf("the removed person's event stream on replica %d ended %s after the owner asked for the removal, want within 1 s", i+1, d.Round(time.Millisecond))
			} else {
				t.Logf("the removed person's event stream on replica %d ended %s after the owner asked for the removal", i+1, d.Round(time.Millisecond))
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("10 s after the removal, %d of the 3 replicas had ended the removed person's event stream", n)
		}
	}
	if strings.Contains(get(t, viewer, replicas[2].base+"/"), `id="buildings-heading"`) {
		t.Error("after the removal, the removed person still sees the overview on replica 3")
	}
}

// postForm posts a form and returns the page it ends on.
func postForm(t *testing.T, c *http.Client, u string, form url.Values) string {
	t.Helper()
	resp, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 400 {
		t.Fatalf("posting to %s: %d\n%s", u, resp.StatusCode, b)
	}
	return string(b)
}
