package domain

import "testing"

// TestSyncFailureReadsBackWhatItWrote: the English a sync state keeps
// reads back as the same failure, so that a page can say it in its
// reader's language; other words stay as they are.
func TestSyncFailureReadsBackWhatItWrote(t *testing.T) {
	for k := SyncNoCredential; k <= SyncTimedOut; k++ {
		f := SyncFailure{Kind: k}
		if k.partWay() {
			f.Detail = "/v1/alerts: records (a) and (b) unreadable"
		}
		if got := ReadSyncFailure(f.String()); got != f {
			t.Errorf("%q reads back as %+v; want %+v", f.String(), got, f)
		}
	}
	if got := ReadSyncFailure("the service answered 418"); got != (SyncFailure{Detail: "the service answered 418"}) {
		t.Errorf("words of its own read as %+v", got)
	}
	if got := (SyncFailure{Kind: SyncServerError}).String(); got != "the service answered with a server error" {
		t.Errorf("a server error reads %q in English", got)
	}
}
