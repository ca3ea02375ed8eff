package people

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"washboard/internal/domain"
	"washboard/internal/store"
)

func member(person string, r domain.Role, buildings ...string) domain.Membership {
	return domain.Membership{PersonID: person, Account: "acc", Role: r, Buildings: buildings}
}

// Each role includes the ones below it; no membership holds none.
func TestAtLeast(t *testing.T) {
	for _, have := range domain.Roles() {
		for _, want := range domain.Roles() {
			if got := AtLeast(member("p", have), want); got != (have >= want) {
				t.Errorf("AtLeast(%s, %s) = %v", have, want, got)
			}
		}
	}
	if AtLeast(member("p", domain.NoRole), domain.NoRole) {
		t.Error("no membership counts as a role")
	}
}

// A membership sees every building unless it is limited to some.
func TestSeesBuilding(t *testing.T) {
	for _, c := range []struct {
		m        domain.Membership
		building string
		want     bool
	}{
		{member("p", domain.Viewer), "b1", true},
		{member("p", domain.Owner, "b1", "b2"), "b2", true},
		{member("p", domain.Admin, "b1"), "b2", false},
		{member("p", domain.NoRole), "b1", false},
	} {
		if got := SeesBuilding(c.m, c.building); got != c.want {
			t.Errorf("SeesBuilding(%+v, %s) = %v; want %v", c.m, c.building, got, c.want)
		}
	}
}

// A maker grants no role above their own, no buildings beyond theirs, and
// only owners make owners; below admin, nobody grants.
func TestMayGrant(t *testing.T) {
	for _, c := range []struct {
		maker     domain.Membership
		r         domain.Role
		buildings []string
		why       string // "" when allowed
	}{
		{member("m", domain.Admin), domain.Admin, nil, ""},
		{member("m", domain.Admin), domain.Staff, []string{"b1"}, ""},
		{member("m", domain.Owner), domain.Owner, nil, ""},
		{member("m", domain.Admin), domain.Owner, nil, "Only an owner can make someone an owner."},
		{member("m", domain.Supervisor), domain.Viewer, nil, "Only admins and owners can invite people or change their roles."},
		{member("m", domain.Admin, "b1"), domain.Staff, []string{"b1"}, ""},
		{member("m", domain.Admin, "b1"), domain.Staff, []string{"b1", "b2"}, "You can only give a role in the buildings your own role covers."},
		{member("m", domain.Admin, "b1"), domain.Staff, nil, "Your role is limited to some buildings: choose among them."},
		{member("m", domain.Admin), domain.NoRole, nil, "Choose a role: viewer, staff, supervisor, admin or owner."},
	} {
		err := MayGrant(c.maker, c.r, c.buildings)
		if c.why == "" && err != nil || c.why != "" && (err == nil || err.Error() != c.why || !errors.Is(err, domain.ErrForbidden)) {
			t.Errorf("%s of %v granting %s over %v: %v; want %q", c.maker.Role, c.maker.Buildings, c.r, c.buildings, err, c.why)
		}
	}
}

// Changing or removing someone takes holding as much as they do; anyone
// may lower their own role or leave.
func TestMayChangeAndRemove(t *testing.T) {
	for _, c := range []struct {
		name          string
		maker, target domain.Membership
		r             domain.Role
		buildings     []string
		change, leave bool
	}{
		{"an admin demotes staff", member("m", domain.Admin), member("t", domain.Staff), domain.Viewer, nil, true, true},
		{"an admin demotes an owner", member("m", domain.Admin), member("t", domain.Owner), domain.Admin, nil, false, false},
		{"an owner demotes an owner", member("m", domain.Owner), member("t", domain.Owner), domain.Admin, nil, true, true},
		{"an admin of b1 changes one of every building", member("m", domain.Admin, "b1"), member("t", domain.Staff), domain.Staff, []string{"b1"}, false, false},
		{"an admin of b1 changes one of b1", member("m", domain.Admin, "b1"), member("t", domain.Staff, "b1"), domain.Viewer, []string{"b1"}, true, true},
		{"a supervisor changes staff", member("m", domain.Supervisor), member("t", domain.Staff), domain.Viewer, nil, false, false},
		{"staff lowers their own role", member("m", domain.Staff), member("m", domain.Staff), domain.Viewer, nil, true, true},
		{"staff raises their own role", member("m", domain.Staff), member("m", domain.Staff), domain.Admin, nil, false, true},
		{"an admin makes themself owner", member("m", domain.Admin), member("m", domain.Admin), domain.Owner, nil, false, true},
	} {
		if err := MayChange(c.maker, c.target, c.r, c.buildings); (err == nil) != c.change {
			t.Errorf("%s: MayChange = %v; want allowed %v", c.name, err, c.change)
		}
		if err := MayRemove(c.maker, c.target); (err == nil) != c.leave {
			t.Errorf("%s: MayRemove = %v; want allowed %v", c.name, err, c.leave)
		}
	}
}

// Supervisors and above enrol devices, for people within their role and
// buildings.
func TestMayEnrol(t *testing.T) {
	for _, c := range []struct {
		maker, target domain.Membership
		want          bool
	}{
		{member("m", domain.Supervisor), member("t", domain.Staff), true},
		{member("m", domain.Supervisor, "b1"), member("t", domain.Staff, "b1"), true},
		{member("m", domain.Supervisor, "b1"), member("t", domain.Staff), false},
		{member("m", domain.Supervisor), member("t", domain.Admin), false},
		{member("m", domain.Staff), member("t", domain.Staff), false},
	} {
		if err := MayEnrol(c.maker, c.target); (err == nil) != c.want {
			t.Errorf("%+v enrolling for %+v: %v; want allowed %v", c.maker, c.target, err, c.want)
		}
	}
}

// The first to sign in with an account's credentials owns it; so does
// anyone while it has no owner, and anyone signed in before an upgrade
// connected it; the rest join as admins.
func TestJoinRole(t *testing.T) {
	for _, c := range []struct {
		st     store.JoinState
		legacy bool
		want   domain.Role
	}{
		{store.JoinState{}, false, domain.Owner},
		{store.JoinState{Connected: true, Owners: 1}, false, domain.Admin},
		{store.JoinState{Connected: true, Owners: 1}, true, domain.Admin},
		{store.JoinState{Connected: true, ByUpgrade: true}, false, domain.Owner},
		{store.JoinState{Connected: true, ByUpgrade: true, Owners: 1}, true, domain.Owner},
		{store.JoinState{Connected: true, ByUpgrade: true, Owners: 1}, false, domain.Admin},
	} {
		if got := JoinRole(c.st, c.legacy); got != c.want {
			t.Errorf("JoinRole(%+v, legacy %v) = %s; want %s", c.st, c.legacy, got, c.want)
		}
	}
}

// A passkey's counter must grow, unless its authenticator keeps none.
func TestSignCountValid(t *testing.T) {
	for _, c := range []struct {
		stored, sent uint32
		want         bool
	}{{0, 0, true}, {0, 1, true}, {5, 6, true}, {5, 5, false}, {5, 2, false}, {5, 0, false}} {
		if got := SignCountValid(c.stored, c.sent); got != c.want {
			t.Errorf("SignCountValid(%d, %d) = %v", c.stored, c.sent, got)
		}
	}
}

// Names, addresses and buildings are checked, and their errors name the
// problem.
func TestChecks(t *testing.T) {
	if n, err := CheckName("  Ana Pereira "); err != nil || n != "Ana Pereira" {
		t.Errorf("CheckName = %q, %v", n, err)
	}
	for in, want := range map[string]string{
		"":                      "Enter a name.",
		strings.Repeat("é", 81): "The name is 81 characters long: it can be at most 80.",
		"Ana\nPereira":          "The name contains a character it cannot have (a line break or a control character).",
	} {
		if _, err := CheckName(in); err == nil || err.Error() != want {
			t.Errorf("CheckName(%q): %v; want %q", in, err, want)
		}
	}
	if e, err := CheckEmail(" ana@example.com "); err != nil || e != "ana@example.com" {
		t.Errorf("CheckEmail = %q, %v", e, err)
	}
	if e, err := CheckEmail(""); err != nil || e != "" {
		t.Errorf("no address: %q, %v", e, err)
	}
	for _, in := range []string{"ana", "Ana <ana@example.com>", "ana@example.com, ben@example.com"} {
		if _, err := CheckEmail(in); err == nil || !strings.Contains(err.Error(), "is not an e-mail address") {
			t.Errorf("CheckEmail(%q): %v", in, err)
		}
	}
	if b, err := CheckBuildings([]string{"b1", " b2", "b1"}); err != nil || !reflect.DeepEqual(b, []string{"b1", "b2"}) {
		t.Errorf("CheckBuildings = %v, %v", b, err)
	}
	if _, err := CheckBuildings(make([]string, MaxBuildings+1)); err == nil || !strings.Contains(err.Error(), "at most 100 buildings") {
		t.Errorf("too many buildings: %v", err)
	}
	if _, err := CheckBuildings([]string{""}); err == nil {
		t.Error("an empty building id passed")
	}
}

// Group mappings read as GROUP=ACCOUNT:ROLE[:BUILDINGS], and say what is
// wrong with one that does not.
func TestParseGroupMapping(t *testing.T) {
	for in, want := range map[string]GroupMapping{
		"cleaners=acc-1:staff":               {Group: "cleaners", Account: "acc-1", Role: domain.Staff},
		"cn=ops,ou=groups=acc-1:admin:b1,b2": {Group: "cn=ops,ou=groups", Account: "acc-1", Role: domain.Admin, Buildings: []string{"b1", "b2"}},
		" night shift = acc-2 : Supervisor ": {Group: "night shift", Account: "acc-2", Role: domain.Supervisor},
	} {
		got, err := ParseGroupMapping(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseGroupMapping(%q) = %+v, %v; want %+v", in, got, err, want)
		}
		if again, _ := ParseGroupMapping(got.String()); !reflect.DeepEqual(again, got) {
			t.Errorf("%q read again from %q: %+v", in, got.String(), again)
		}
	}
	for in, want := range map[string]string{
		"cleaners":             "maps no group",
		"=acc-1:staff":         "maps no group",
		"cleaners=acc-1":       "after the group, write ACCOUNT:ROLE",
		"cleaners=acc-1:boss":  `"boss" is not a role`,
		"cleaners=:staff":      "after the group, write ACCOUNT:ROLE",
		"cleaners=a:staff:b,,": "is not a building's id",
	} {
		if _, err := ParseGroupMapping(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseGroupMapping(%q): %v; want %q", in, err, want)
		}
	}
}

// The groups of a sign-in give one membership per account, of the
// highest role they give there; a group that maps to nothing gives none.
func TestMembershipsFromGroups(t *testing.T) {
	mappings := []GroupMapping{
		{Group: "cleaners", Account: "a", Role: domain.Staff, Buildings: []string{"b1"}},
		{Group: "night", Account: "a", Role: domain.Staff, Buildings: []string{"b2"}},
		{Group: "leads", Account: "a", Role: domain.Supervisor, Buildings: []string{"b3"}},
		{Group: "ops", Account: "b", Role: domain.Admin},
		{Group: "visitors", Account: "b", Role: domain.Viewer, Buildings: []string{"b9"}},
	}
	for _, c := range []struct {
		groups []string
		want   []domain.Membership
	}{
		{[]string{"cleaners", "night"}, []domain.Membership{{Account: "a", Role: domain.Staff, Buildings: []string{"b1", "b2"}, FromGroups: true}}},
		{[]string{"cleaners", "leads"}, []domain.Membership{{Account: "a", Role: domain.Supervisor, Buildings: []string{"b3"}, FromGroups: true}}},
		{[]string{"visitors", "ops"}, []domain.Membership{{Account: "b", Role: domain.Admin, FromGroups: true}}},
		{[]string{"contractors"}, nil},
		{nil, nil},
	} {
		if got := MembershipsFromGroups(mappings, c.groups); !reflect.DeepEqual(got, c.want) {
			t.Errorf("groups %v give %+v; want %+v", c.groups, got, c.want)
		}
	}
}

// Staff and above, who see the alert's building, are put on alerts; a
// viewer, or someone limited to other buildings, is refused in words.
func TestMayBeOnAlert(t *testing.T) {
	north := domain.Building{ID: "b1", Name: "North Tower"}
	for _, c := range []struct {
		m   domain.Membership
		why string // "" when allowed
	}{
		{member("p", domain.Staff), ""},
		{member("p", domain.Supervisor, "b1"), ""},
		{member("p", domain.Owner, "b2", "b1"), ""},
		{member("p", domain.Viewer), "Pat is a viewer, and viewers are not put on alerts"},
		{member("p", domain.Staff, "b2"), "Pat's role is limited to other buildings than North Tower"},
	} {
		err := MayBeOnAlert(domain.Member{Membership: c.m, Name: "Pat"}, north)
		var p domain.Problem
		switch {
		case c.why == "" && err != nil:
			t.Errorf("MayBeOnAlert(%+v) = %v; want allowed", c.m, err)
		case c.why != "" && (!errors.As(err, &p) || !strings.Contains(string(p), c.why)):
			t.Errorf("MayBeOnAlert(%+v) = %v; want a problem saying %q", c.m, err, c.why)
		}
	}
}
