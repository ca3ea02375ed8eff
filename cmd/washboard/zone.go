package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// loadZone loads the time zone --tz names. "Local", the default, is this
// machine's zone, loaded by its name when the machine says it (TZ, or
// where /etc/localtime links to), so that pages can name it: Go calls it
// "Local", which names nothing to a reader.
func loadZone(name string) (*time.Location, error) {
	if name != "Local" {
		return time.LoadLocation(name)
	}
	tz, set := os.LookupEnv("TZ")
	if local := localZoneName(tz, set, "/etc/localtime"); local != "" {
		if z, err := time.LoadLocation(local); err == nil {
			return z, nil
		}
	}
	return time.Local, nil
}

// utcNames are the names of UTC in the zone database.
var utcNames = []string{"Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "UCT", "Universal", "Zulu"}

// localZoneName is the zone database's name of the machine's zone, as Go
// finds the zone: from TZ when it is set (empty: UTC), else from the link
// localtime; "" when neither gives a name (a file of the zone's rules, a
// copy rather than a link).
func localZoneName(tz string, tzSet bool, localtime string) string {
	path := strings.TrimPrefix(tz, ":")
	switch {
	case tzSet && path == "":
		return "UTC"
	case tzSet && !filepath.IsAbs(path):
		return path
	case !tzSet:
		var err error
		if path, err = os.Readlink(localtime); err != nil {
			return ""
		}
	}
	_, name, ok := strings.Cut(path, "zoneinfo/")
	if !ok || name == "" {
		return ""
	}
	if slices.Contains(utcNames, name) {
		return "UTC"
	}
	return name
}
