package people

import (
	"fmt"
	"slices"
	"strings"

	"washboard/internal/domain"
)

// GroupMapping says that the members of a group, as an OpenID provider
// names its groups, have a role in an account, limited to some buildings
// or not.
type GroupMapping struct {
	Group     string
	Account   string
	Role      domain.Role
	Buildings []string // empty: every building
}

// String is the mapping as ParseGroupMapping reads it.
func (g GroupMapping) String() string {
	s := g.Group + "=" + g.Account + ":" + g.Role.String()
	if len(g.Buildings) > 0 {
		s += ":" + strings.Join(g.Buildings, ",")
	}
	return s
}

// ParseGroupMapping reads a mapping written GROUP=ACCOUNT:ROLE, or
// GROUP=ACCOUNT:ROLE:BUILDING,BUILDING to limit the role to buildings. A
// group's name may hold "=" (an LDAP name): the last one ends it. Its
// error names what is wrong.
func ParseGroupMapping(s string) (GroupMapping, error) {
	i := strings.LastIndex(s, "=")
	if i <= 0 {
		return GroupMapping{}, fmt.Errorf("%q maps no group: write GROUP=ACCOUNT:ROLE, or GROUP=ACCOUNT:ROLE:BUILDING,BUILDING", cut(s, 80))
	}
	g := GroupMapping{Group: strings.TrimSpace(s[:i])}
	parts := strings.Split(s[i+1:], ":")
	if len(parts) < 2 || len(parts) > 3 || strings.TrimSpace(parts[0]) == "" {
		return g, fmt.Errorf("%q: after the group, write ACCOUNT:ROLE, or ACCOUNT:ROLE:BUILDING,BUILDING", cut(s, 80))
	}
	g.Account = strings.TrimSpace(parts[0])
	r, err := domain.ParseRole(parts[1])
	if err != nil {
		return g, fmt.Errorf("group %q: %w", g.Group, err)
	}
	g.Role = r
	if len(parts) == 3 {
		if g.Buildings, err = CheckBuildings(strings.Split(parts[2], ",")); err != nil {
			return g, fmt.Errorf("group %q: %w", g.Group, err)
		}
	}
	return g, nil
}

// MembershipsFromGroups returns the memberships the groups of a sign-in
// give, by the mappings: one per account, of the highest role the groups
// give in it; groups that give the same role there add their buildings
// together, and one of them without buildings gives every building. A
// group that maps to nothing gives nothing; at most MaxGroups groups are
// read, and at most MaxAccounts memberships made.
func MembershipsFromGroups(mappings []GroupMapping, groups []string) []domain.Membership {
	groups = groups[:min(len(groups), MaxGroups)]
	var out []domain.Membership
	for _, g := range mappings {
		if !slices.Contains(groups, g.Group) {
			continue
		}
		i := slices.IndexFunc(out, func(m domain.Membership) bool { return m.Account == g.Account })
		switch {
		case i < 0 && len(out) < MaxAccounts:
			out = append(out, domain.Membership{Account: g.Account, Role: g.Role, Buildings: slices.Clone(g.Buildings), FromGroups: true})
		case i < 0:
		case g.Role > out[i].Role:
			out[i].Role, out[i].Buildings = g.Role, slices.Clone(g.Buildings)
		case g.Role == out[i].Role:
			out[i].Buildings = unite(out[i].Buildings, g.Buildings)
		}
	}
	return out
}

// unite is the buildings of both (empty: every building).
func unite(a, b []string) []string {
	if len(a) == 0 || len(b) == 0 {
		return nil
	}
	for _, x := range b {
		if !slices.Contains(a, x) && len(a) < MaxBuildings {
			a = append(a, x)
		}
	}
	return a
}
