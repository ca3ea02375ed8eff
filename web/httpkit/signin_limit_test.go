package httpkit

import (
	"fmt"
	"testing"
	"time"

	"washboard/internal/clock"
)

// TestTheSignInLimitRemembersABoundedNumber: however many addresses and
// keys fail, the limiter keeps at most its bound of them.
func TestTheSignInLimitRemembersABoundedNumber(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC))
	l := NewFailureLimiter(3, time.Minute, clk)
	l.maxKeys = 100
	for i := range 1000 {
		l.Fail(SignInAttempt(fmt.Sprintf("198.51.100.%d", i%250), fmt.Sprint("key-", i)))
	}
	if n := len(l.failures); n > l.maxKeys {
		t.Errorf("%d addresses, keys and pairs remembered; want at most %d", n, l.maxKeys)
	}
}
