package views

import (
	"testing"
	"time"
)

func TestAgo(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-time.Minute, "just now"},
		{30 * time.Second, "just now"},
		{5 * time.Minute, "5 min ago"},
		{59 * time.Minute, "59 min ago"},
		{3*time.Hour + 59*time.Minute, "3 h ago"},
		{30 * time.Hour, "1 day ago"},
		{50 * time.Hour, "2 days ago"},
	}
	for _, tt := range tests {
		if got := ago(now.Add(-tt.d), now); got != tt.want {
			t.Errorf("ago(%s) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{20 * time.Second, "under 1 min"},
		{45 * time.Minute, "45 min"},
		{80 * time.Minute, "1 h 20 min"},
		{2 * time.Hour, "2 h"},
		{51 * time.Hour, "2 days 3 h"},
		{24 * time.Hour, "1 day"},
	}
	for _, tt := range tests {
		if got := duration(tt.d); got != tt.want {
			t.Errorf("duration(%s) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestNumberAndClock(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1200: "-1,200"} {
		if got := number(n); got != want {
			t.Errorf("number(%d) = %q, want %q", n, got, want)
		}
	}
	if got := clock(now, cet); got != "14:02" {
		t.Errorf("clock in CET = %q", got)
	}
	if got := clock(now, nil); got != "13:02" {
		t.Errorf("clock in nil zone = %q, want UTC", got)
	}
}
