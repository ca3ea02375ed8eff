package report

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"washboard/internal/domain"
)

// resolutionOrder is the order in which the report lists resolutions:
// fixed by a device, by a user, then closed because the device went offline.
func resolutionOrder() []domain.Resolution {
	return []domain.Resolution{domain.ResolvedByDevice, domain.ResolvedByUser, domain.ResolvedByOffline}
}

// compareDeviceTypes orders device types as the pick list lists them, types
// the interface does not name last, by name.
func compareDeviceTypes(a, b domain.DeviceType) int {
	order := []domain.DeviceType{domain.Tissue, domain.Towel, domain.Soap, domain.Sanitizer, domain.Collector}
	return compareListed(order, a, b)
}

// compareListed orders a and b by their place in order, values not in it
// last and by name.
func compareListed[T ~string](order []T, a, b T) int {
	rank := func(v T) int {
		if i := slices.Index(order, v); i >= 0 {
			return i
		}
		return len(order)
	}
	if c := cmp.Compare(rank(a), rank(b)); c != 0 {
		return c
	}
	return strings.Compare(string(a), string(b))
}

// CompareAlertTypes orders alert types as pages list them: those
// Washboard knows in their order, then the others by name.
func CompareAlertTypes(a, b domain.AlertType) int { return compareListed(domain.AlertTypes, a, b) }

// CompareNames orders names as people expect: numbers by value ("Floor 2"
// before "Floor 10"), letters regardless of case, and empty names last.
// Names that differ only in case or leading zeros are ordered bytewise.
func CompareNames(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "":
		return 1
	case b == "":
		return -1
	}
	if c := compareNatural(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func compareNatural(a, b string) int {
	for a != "" && b != "" {
		da, db := digitsPrefix(a), digitsPrefix(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		ra, sa := utf8.DecodeRuneInString(a)
		rb, sb := utf8.DecodeRuneInString(b)
		if c := cmp.Compare(unicode.ToLower(ra), unicode.ToLower(rb)); c != 0 {
			return c
		}
		a, b = a[sa:], b[sb:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitsPrefix is the number of ASCII digits s starts with.
func digitsPrefix(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// comparePlaces orders places by building, floor, room and location name,
// then by location id.
func comparePlaces(a, b Place) int {
	return cmp.Or(
		CompareNames(a.Building, b.Building),
		CompareNames(a.Floor, b.Floor),
		CompareNames(a.Room, b.Room),
		CompareNames(a.Location, b.Location),
		strings.Compare(a.LocationID, b.LocationID),
	)
}
