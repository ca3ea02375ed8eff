package web

import "strings"

// maxFormBody is the largest request body any form of Washboard needs:
// the longest, sign-in, is two credentials of at most 8 KB.
const maxFormBody = 64 << 10

// bodyLimit is the largest body a request to path may have: an event of
// the service at /hooks/, a form anywhere else (httpkit.LimitBody).
func bodyLimit(path string) int64 {
	if isHookPath(path) {
		return maxEventBody
	}
	if isPlanUpload(path) {
		return maxPlanBody
	}
	if isPlacements(path) {
		return maxPlacementsBody
	}
	return maxFormBody
}

// isHookPath says whether path is a receiver's address, where the service
// sends its events.
func isHookPath(path string) bool { return strings.HasPrefix(path, "/hooks/") }
