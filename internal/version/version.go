// Package version tells which build of Washboard is running.
package version

import "runtime/debug"

// Version is set at build time with
//
//	-ldflags "-X washboard/internal/version.Version=v1.2.3"
//
// and otherwise read from the module's build information.
var Version = ""

// String returns the running version: the one set at build time, the VCS
// revision the binary was built from, or "dev".
func String() string {
	if Version != "" {
		return Version
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			return v
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return "dev-" + s.Value[:12]
			}
		}
	}
	return "dev"
}
