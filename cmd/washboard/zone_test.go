package main

import (
	"os"
	"path/filepath"
	"testing"
)

// --tz Local, the default, is the machine's zone by its name, so that
// pages name it ("Europe/Berlin") instead of Go's "Local": from TZ when
// set, else from where /etc/localtime links to.
func TestLocalZoneIsLoadedByItsName(t *testing.T) {
	t.Setenv("TZ", ":Asia/Tokyo")
	if z, err := loadZone("Local"); err != nil || z.String() != "Asia/Tokyo" {
		t.Errorf("--tz Local with TZ=:Asia/Tokyo loads %v, %v; want Asia/Tokyo", z, err)
	}
	t.Setenv("TZ", "")
	if z, err := loadZone("Local"); err != nil || z.String() != "UTC" {
		t.Errorf("--tz Local with TZ empty loads %v, %v; want UTC", z, err)
	}
	if z, err := loadZone("Europe/Paris"); err != nil || z.String() != "Europe/Paris" {
		t.Errorf("--tz Europe/Paris loads %v, %v", z, err)
	}

	dir := t.TempDir()
	link := func(name, target string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	copied := filepath.Join(dir, "copied")
	if err := os.WriteFile(copied, []byte("TZif"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		tz        string
		set       bool
		localtime string
		want      string
	}{
		{"", false, link("berlin", "/usr/share/zoneinfo/Europe/Berlin"), "Europe/Berlin"},
		{"", false, link("relative", "../usr/share/zoneinfo/America/New_York"), "America/New_York"},
		{"", false, link("utc", "/usr/share/zoneinfo/Etc/UTC"), "UTC"},
		{"", false, copied, ""},
		{"", false, filepath.Join(dir, "missing"), ""},
		{"/usr/share/zoneinfo/Asia/Kolkata", true, copied, "Asia/Kolkata"},
		{"Europe/Lisbon", true, copied, "Europe/Lisbon"},
		{"", true, copied, "UTC"},
	} {
		if got := localZoneName(tt.tz, tt.set, tt.localtime); got != tt.want {
			t.Errorf("TZ %q (set %v), /etc/localtime %s: %q; want %q", tt.tz, tt.set, tt.localtime, got, tt.want)
		}
	}
}
