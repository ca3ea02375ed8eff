package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"washboard/internal/clock"
)

// Passkeys are made for the host name of the dashboard's address; an IP
// address, which browsers refuse passkeys for, offers none and says so in
// the log, and an address that is not one is refused at start.
func TestPasskeysAreForTheDashboardsHostName(t *testing.T) {
	for _, tc := range []struct {
		address string
		offered bool
		logs    string
		err     string
	}{
		{address: "https://washboard.example.com", offered: true},
		{address: "http://localhost:8080", offered: true},
		{address: "http://127.0.0.1:8080", logs: "passkeys are not offered: browsers accept them only for a host name; set --public-url"},
		{address: "http://[::1]:8080", logs: "passkeys are not offered"},
		{address: "ftp://washboard.example.com", err: "--public-url: passkeys need the dashboard's public address, such as https://washboard.example.com"},
	} {
		var logs bytes.Buffer
		k, err := passkeysFor(tc.address, clock.Real{}, slog.New(slog.NewTextHandler(&logs, nil)))
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v; want %q", tc.address, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.address, err)
		case (k != nil) != tc.offered:
			t.Errorf("%s: passkeys offered %t; want %t", tc.address, k != nil, tc.offered)
		case !strings.Contains(logs.String(), tc.logs):
			t.Errorf("%s: the log says %q; want %q", tc.address, logs.String(), tc.logs)
		}
	}
}
