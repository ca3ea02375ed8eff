package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"washboard/internal/cluster"
	"washboard/internal/store/postgres/pgtest"
	"washboard/web/httpkit"
)

// TestSignOutOnOneReplicaEndsTheSessionOnTheOthers runs two replicas on
// one PostgreSQL database, each keeping the sessions it reads: a session
// made on one opens on the other without reading the database on every
// request, and signing out on the first ends it on the second within a
// second (the announcement's delay, milliseconds).
func TestSignOutOnOneReplicaEndsTheSessionOnTheOthers(t *testing.T) {
	t.Parallel()
	if testEngine(t) != "postgres" {
		t.Skip(pgtest.NeededEngine)
	}
	a := newApp(t, Config{})
	replica := func(sessions httpkit.SessionStore) *Server {
		replicas, err := cluster.OpenReplicas(context.Background(), a.dbURL, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(replicas.Close)
		deps := a.deps
		deps.Sessions, deps.SessionAnnouncements = sessions, replicas
		s, err := New(a.cfg, deps)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a.handler.Store(replica(a.store))
	counted := &countingSessions{SessionStore: a.store}
	second := httptest.NewServer(replica(counted))
	t.Cleanup(second.Close)

	b := a.browser()
	b.signIn(credA)
	onSecond := func() response {
		req, _ := http.NewRequest(http.MethodGet, second.URL+"/", nil)
		return b.do(req) // the cookie jar sends the session to any port of the host
	}
	// Listening, the second replica keeps the session once read.
	var reads int
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if r := onSecond(); r.StatusCode != http.StatusOK {
			t.Fatalf("the session made on one replica: GET / on the other = %d", r.StatusCode)
		}
		reads = counted.reads()
		onSecond()
		if counted.reads() == reads {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second replica reads the session from the database on every request")
		}
	}

	token := csrfInput.FindStringSubmatch(b.get("/").body)
	if token == nil {
		t.Fatal("no sign-out form with a CSRF token")
	}
	if r := b.post("/signout", url.Values{"csrf_token": {token[1]}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-out = %d", r.StatusCode)
	}
	signedOut := time.Now()
	for {
		r := onSecond()
		if r.StatusCode == http.StatusSeeOther && strings.HasPrefix(r.Header.Get("Location"), "/signin") {
			t.Logf("the other replica refused the session %s after the sign-out", time.Since(signedOut).Round(time.Millisecond))
			break
		}
		if time.Since(signedOut) > time.Second {
			t.Fatalf("a second after signing out on one replica, GET / on the other = %d", r.StatusCode)
		}
		time.Sleep(time.Millisecond)
	}
}
