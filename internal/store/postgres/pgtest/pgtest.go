// Package pgtest gives tests a PostgreSQL database of their own: a schema
// on the server WASHBOARD_TEST_POSTGRES names, dropped when the test ends.
// Without the variable, tests that need it skip, saying how to run them,
// or fail when WASHBOARD_POSTGRES_TESTS is "required" (as .ci/run sets it).
package pgtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// ExampleURL is a test server's URL, as .ci/postgres makes one.
const ExampleURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// how says how to get a test server.
const how = `, such as ` + ExampleURL + ` (eval "$(.ci/postgres)" starts one and sets it)`

// Needed is what every test that needs PostgreSQL says when there is no
// test server: when it skips, or fails because WASHBOARD_POSTGRES_TESTS is
// "required".
const Needed = "needs PostgreSQL: set WASHBOARD_TEST_POSTGRES to a server's URL" + how

// NeededEngine is what the web layer's tests that need the PostgreSQL
// engine say when run on another.
const NeededEngine = "needs PostgreSQL: set WASHBOARD_TEST_ENGINE=postgres and WASHBOARD_TEST_POSTGRES to a server's URL" + how

// Configured reports whether a test server is named.
func Configured() bool { return os.Getenv("WASHBOARD_TEST_POSTGRES") != "" }

// ServerURL is the URL of the PostgreSQL server the tests use, from
// WASHBOARD_TEST_POSTGRES. Without one they skip, or fail when
// WASHBOARD_POSTGRES_TESTS is "required".
func ServerURL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv("WASHBOARD_TEST_POSTGRES")
	if u == "" {
		if os.Getenv("WASHBOARD_POSTGRES_TESTS") == "required" {
			tb.Fatal("WASHBOARD_POSTGRES_TESTS=required, and this test " + Needed)
		}
		tb.Skip(Needed)
	}
	return u
}

// NewSchema makes a schema of the test's own on the test server, dropped
// when the test ends or when drop is called, and returns its name and a
// URL whose connections work in it: tests run side by side without seeing
// each other's tables.
func NewSchema(tb testing.TB) (name, url string, drop func() error) {
	tb.Helper()
	server := ServerURL(tb)
	name = fmt.Sprintf("washboard_test_%016x", rand.Uint64())
	exec := func(sql string) error { return execOn(server, sql) }
	if err := exec(`CREATE SCHEMA ` + name); err != nil {
		tb.Fatal(err)
	}
	var once sync.Once
	drop = func() error {
		var err error
		once.Do(func() { err = exec(`DROP SCHEMA ` + name + ` CASCADE`) })
		return err
	}
	tb.Cleanup(func() {
		if err := drop(); err != nil {
			tb.Error(err)
		}
	})
	return name, withSearchPath(tb, server, name), drop
}

// withSearchPath adds search_path to a connection string, a URL or a list
// of key=value settings; pgx sends it when it connects.
func withSearchPath(tb testing.TB, conn, schema string) string {
	if !strings.HasPrefix(conn, "postgres://") && !strings.HasPrefix(conn, "postgresql://") {
		return conn + " search_path=" + schema
	}
	u, err := url.Parse(conn)
	if err != nil {
		tb.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// NewDatabase makes a database of the test's own on the test server,
// dropped when the test ends, and returns its URL. Unlike a schema, a
// database keeps the test's advisory locks apart from other tests': what
// counts or takes every lock of a kind (the replicas up, the accounts'
// leases) sees only the test's own.
func NewDatabase(tb testing.TB) string {
	tb.Helper()
	server := ServerURL(tb)
	name := fmt.Sprintf("washboard_test_%016x", rand.Uint64())
	exec := func(sql string) error { return execOn(server, sql) }
	if err := exec(`CREATE DATABASE ` + name); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		// FORCE ends the sessions a test left open (PostgreSQL 13 and later).
		if err := exec(`DROP DATABASE ` + name + ` WITH (FORCE)`); err != nil {
			tb.Error(err)
		}
	})
	if !strings.HasPrefix(server, "postgres://") && !strings.HasPrefix(server, "postgresql://") {
		return server + " dbname=" + name
	}
	u, err := url.Parse(server)
	if err != nil {
		tb.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// execOn runs one statement on the server, on a connection of its own.
func execOn(server, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}
