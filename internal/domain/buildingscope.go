package domain

import (
	"slices"
	"strings"
)

// BuildingScope is the buildings of an account a person sees: every one
// (the zero value), or only some, when their role is limited to them. A
// person sees, and is told, nothing of a building outside their scope: an
// id of one answers as an unknown id does.
type BuildingScope struct {
	limited bool
	ids     []string
}

// EveryBuilding is the scope of a role limited to no building.
func EveryBuilding() BuildingScope { return BuildingScope{} }

// OnlyBuildings is the scope of a role limited to the buildings of these
// ids; with none, it sees no building.
func OnlyBuildings(ids ...string) BuildingScope {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return BuildingScope{limited: true, ids: out}
}

// ScopeOf is the scope of a membership: its buildings, or every building
// when it is limited to none.
func ScopeOf(m Membership) BuildingScope {
	if len(m.Buildings) == 0 {
		return EveryBuilding()
	}
	return OnlyBuildings(m.Buildings...)
}

// Limited reports whether the scope leaves some buildings out.
func (s BuildingScope) Limited() bool { return s.limited }

// Sees reports whether the scope holds the building of this id.
func (s BuildingScope) Sees(building string) bool {
	return !s.limited || slices.Contains(s.ids, building)
}

// IDs are the ids of the scope's buildings: nil for every building, a
// list (empty when it sees none) otherwise. The caller does not change it.
func (s BuildingScope) IDs() []string {
	if !s.limited {
		return nil
	}
	if s.ids == nil {
		return []string{}
	}
	return s.ids
}

// Covers reports whether the scope holds every building the other holds.
func (s BuildingScope) Covers(other BuildingScope) bool {
	if !s.limited {
		return true
	}
	if !other.limited {
		return false
	}
	for _, id := range other.ids {
		if !s.Sees(id) {
			return false
		}
	}
	return true
}

// Key names the scope for the caches of what it sees: "" for every
// building; two scopes of the same buildings have the same key.
func (s BuildingScope) Key() string {
	if !s.limited {
		return ""
	}
	ids := slices.Clone(s.ids)
	slices.Sort(ids)
	return "only:" + strings.Join(ids, "\x00")
}
