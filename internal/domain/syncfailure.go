package domain

import "strings"

// SyncFailureKind is why a refresh of an account's data failed.
type SyncFailureKind int

// The kinds of a failed refresh. SyncFailureOther holds words the
// dashboard did not write (an error of its own, or a stored text it no
// longer recognises): Detail holds them as they are.
const (
	SyncFailureOther  SyncFailureKind = iota
	SyncNoCredential                  // no signed-in person or screen holds valid credentials
	SyncClientRevoked                 // the token endpoint refused the OAuth client
	SyncUnauthorized                  // the Authorization value was refused
	SyncForbidden                     // the API key was refused
	SyncRateLimited                   // the service is limiting requests
	SyncServerError                   // the service answered with a server error
	SyncUnreachable                   // the service could not be reached
	SyncBadResponse                   // an answer that could not be read
	SyncTooLarge                      // a page too large to read; Detail says which
	SyncUnreadable                    // records that could not be read; Detail says which
	SyncEndlessPaging                 // pages that did not come to an end; Detail says which
	SyncTimedOut                      // the service took too long to answer
)

// SyncFailure is why a refresh failed, as a value: the page that shows it
// says it in its reader's language (Words), the log and the stored sync
// state in English (String).
type SyncFailure struct {
	Kind   SyncFailureKind
	Detail string // the endpoint and what went wrong, for the kinds that say it; the whole text for SyncFailureOther
}

// syncFailureWords are the English words of each kind, as the sync state
// has always kept them; ReadSyncFailure reads them back.
var syncFailureWords = map[SyncFailureKind]string{
	SyncNoCredential:  "no signed-in user or screen holds valid credentials for this account",
	SyncClientRevoked: "the service's token endpoint refused the OAuth client: it was revoked, or its id or secret is wrong",
	SyncUnauthorized:  "the service rejected the Authorization value",
	SyncForbidden:     "the service rejected the API key",
	SyncRateLimited:   "the service is limiting our requests (rate limited); slowing down",
	SyncServerError:   "the service answered with a server error",
	SyncUnreachable:   "the service could not be reached",
	SyncBadResponse:   "the service sent an answer that could not be read",
	SyncTooLarge:      "the service sent a page too large to read",
	SyncUnreadable:    "the service sent records that could not be read",
	SyncEndlessPaging: "the service's pages did not come to an end",
	SyncTimedOut:      "the service took too long to answer",
}

// syncNothingKept ends the words of a refresh that failed part way, after
// pages had come: the cache keeps what it had.
const syncNothingKept = "nothing of this refresh was kept, and the next one tries again"

// partWay reports whether a failure of kind k came part way through a
// refresh, and so says which endpoint failed and that nothing was kept.
func (k SyncFailureKind) partWay() bool {
	return k == SyncTooLarge || k == SyncUnreadable || k == SyncEndlessPaging
}

// String says the failure in English, as the log and the stored sync
// state keep it.
func (f SyncFailure) String() string {
	words, ok := syncFailureWords[f.Kind]
	switch {
	case !ok:
		return f.Detail
	case f.Kind.partWay():
		return words + " (" + f.Detail + "); " + syncNothingKept
	}
	return words
}

// ReadSyncFailure reads back the words String wrote (a stored sync state
// keeps them): anything else is a SyncFailureOther that holds text as it
// is.
func ReadSyncFailure(text string) SyncFailure {
	for k, words := range syncFailureWords {
		if !k.partWay() {
			if text == words {
				return SyncFailure{Kind: k}
			}
			continue
		}
		rest, ok := strings.CutPrefix(text, words+" (")
		if !ok {
			continue
		}
		if detail, ok := strings.CutSuffix(rest, "); "+syncNothingKept); ok {
			return SyncFailure{Kind: k, Detail: detail}
		}
	}
	return SyncFailure{Detail: text}
}

// Translator says a message of the catalogs in a language
// (*i18n.Localizer is one).
type Translator interface {
	T(id string, args ...any) string
}

// Words says the failure in l's language: what a page shows as the reason
// of a refresh that failed.
func (f SyncFailure) Words(l Translator) string {
	switch f.Kind {
	case SyncNoCredential:
		return l.T("sync.no_credential")
	case SyncClientRevoked:
		return l.T("sync.client_revoked")
	case SyncUnauthorized:
		return l.T("sync.unauthorized")
	case SyncForbidden:
		return l.T("sync.forbidden")
	case SyncRateLimited:
		return l.T("sync.rate_limited")
	case SyncServerError:
		return l.T("sync.server_error")
	case SyncUnreachable:
		return l.T("sync.unreachable")
	case SyncBadResponse:
		return l.T("sync.bad_response")
	case SyncTooLarge:
		return l.T("sync.too_large", "detail", f.Detail)
	case SyncUnreadable:
		return l.T("sync.unreadable", "detail", f.Detail)
	case SyncEndlessPaging:
		return l.T("sync.endless_paging", "detail", f.Detail)
	case SyncTimedOut:
		return l.T("sync.timed_out")
	}
	return f.Detail
}
