package domain

import "time"

// Freshness says how old an account's cached data is, and why it may be
// out of date.
type Freshness struct {
	AsOf      time.Time // the end of the last successful refresh; zero before the first
	Stale     bool      // older than two sync intervals
	Failed    bool      // the last refresh failed
	Reason    string    // why, in words, when Stale or Failed
	Rejected  bool      // the service rejected the credentials in use
	Rejection string    // why: "revoked" (the OAuth client), "expired" (a fixed Authorization value), "api-key" or "rejected"
	FirstSync bool      // the first sync of the account is still running
	Live      bool      // the service's events arrive: alerts are fresh within seconds
}

// The reasons of a freshness that Washboard gives itself; the others are
// what a refresh's error said.
const (
	ReasonCacheUnreadable = "the cache could not be read"
	ReasonStale           = "the last refresh is more than two sync intervals old"
)
