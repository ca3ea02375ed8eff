package store

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"washboard/internal/domain"
)

// EncodeTargets writes targets as a column keeps them: a line per alert
// type, "type claim_minutes resolve_minutes".
func EncodeTargets(ts []ServiceTarget) string {
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "%s %d %d\n", t.Type, t.Claim/time.Minute, t.Resolve/time.Minute)
	}
	return b.String()
}

// DecodeTargets reads what EncodeTargets wrote.
func DecodeTargets(text string) ([]ServiceTarget, error) {
	var out []ServiceTarget
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("a kept target %q is not a type and two times", strings.TrimSpace(line))
		}
		claim, err1 := strconv.ParseInt(f[1], 10, 32)
		resolve, err2 := strconv.ParseInt(f[2], 10, 32)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("a kept target %q has a time that is not a number of minutes", strings.TrimSpace(line))
		}
		out = append(out, ServiceTarget{Type: domain.AlertType(f[0]), Claim: time.Duration(claim) * time.Minute, Resolve: time.Duration(resolve) * time.Minute})
	}
	return out, nil
}
