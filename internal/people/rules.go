package people

import (
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"unicode"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// The rules of roles. Each role includes the ones below it (domain.Role);
// a membership limited to buildings sees, and may hand on, only those.

// AtLeast reports whether a membership holds role r or one above it.
func AtLeast(m domain.Membership, r domain.Role) bool {
	return m.Role >= r && m.Role > domain.NoRole
}

// SeesBuilding reports whether a membership sees the building: every
// building when it is not limited to some.
func SeesBuilding(m domain.Membership, building string) bool {
	return m.Role > domain.NoRole && (len(m.Buildings) == 0 || slices.Contains(m.Buildings, building))
}

// within reports whether the buildings (empty: every one) are all among
// those the membership sees.
func within(m domain.Membership, buildings []string) bool {
	if len(m.Buildings) == 0 {
		return true
	}
	if len(buildings) == 0 {
		return false
	}
	for _, b := range buildings {
		if !slices.Contains(m.Buildings, b) {
			return false
		}
	}
	return true
}

func forbidden(format string, args ...any) error {
	return &domain.ForbiddenError{Why: fmt.Sprintf(format, args...)}
}

// problem is an error in words, for the person who met it.
func problem(format string, args ...any) error {
	return domain.Problem(fmt.Sprintf(format, args...))
}

// MayGrant says whether maker may give someone role r over the buildings
// (empty: every building), by an invitation or a change of role: nil when
// they may, a *domain.ForbiddenError in words when not. Admins and owners
// grant; no one grants a role above their own, or buildings beyond
// theirs; only owners make owners.
func MayGrant(maker domain.Membership, r domain.Role, buildings []string) error {
	switch {
	case !AtLeast(maker, domain.Admin):
		return forbidden("Only admins and owners can invite people or change their roles.")
	case r < domain.Viewer || r > domain.Owner:
		return ErrChooseRole
	case r == domain.Owner && maker.Role != domain.Owner:
		return ErrOwnerMakesOwner
	case r > maker.Role:
		return &RoleAboveError{Own: maker.Role}
	case !within(maker, buildings) && len(buildings) == 0:
		return ErrChooseBuildings
	case !within(maker, buildings):
		return ErrGrantBuildingsBeyond
	}
	return nil
}

// MayChange says whether maker may change member's role to r over the
// buildings: they may grant it (MayGrant), and they hold as much as the
// member holds now. A person may lower their own role; the store keeps
// an account from losing its last owner.
func MayChange(maker, member domain.Membership, r domain.Role, buildings []string) error {
	if maker.PersonID == member.PersonID && maker.Account == member.Account && r <= member.Role && within(member, buildings) {
		return nil
	}
	if err := MayGrant(maker, r, buildings); err != nil {
		return err
	}
	return mayManage(maker, member)
}

// MayRemove says whether maker may remove member from the account: a
// person may leave; admins and owners remove those who hold no more than
// they do.
func MayRemove(maker, member domain.Membership) error {
	if maker.PersonID == member.PersonID && maker.Account == member.Account {
		return nil
	}
	if !AtLeast(maker, domain.Admin) {
		return forbidden("Only admins and owners can remove people.")
	}
	return mayManage(maker, member)
}

// mayManage says whether maker holds as much as member: a role as high,
// and the member's buildings.
func mayManage(maker, member domain.Membership) error {
	switch {
	case member.Role == domain.Owner && maker.Role != domain.Owner:
		return ErrOwnerChangesOwner
	case member.Role > maker.Role:
		return ErrRoleAbove
	case !within(maker, member.Buildings):
		return ErrBuildingsBeyond
	}
	return nil
}

// MayEnrol says whether maker may enrol a device for member: supervisors
// and above, for someone who holds no more than they do. A device signed
// in for a person acts as them.
func MayEnrol(maker, member domain.Membership) error {
	if !AtLeast(maker, domain.Supervisor) {
		return forbidden("Only supervisors, admins and owners can enrol devices.")
	}
	if member.Role > maker.Role || !within(maker, member.Buildings) {
		return ErrEnrolBeyond
	}
	return nil
}

// JoinRole is the role of a person who signs in with an account's
// credentials (store.JoinState): the first connects the account and owns
// it; so does anyone while the account has no owner; a person who was
// signed in before an upgrade connected the account (legacy) becomes an
// owner of it, as they were in effect; anyone else joins as an admin.
func JoinRole(st store.JoinState, legacy bool) domain.Role {
	if !st.Connected || st.Owners == 0 || (st.ByUpgrade && legacy) {
		return domain.Owner
	}
	return domain.Admin
}

// SignCountValid reports whether a passkey's signature counter, as the
// authenticator sent it, may follow the one stored: it grows, or the
// authenticator keeps none (both zero). A counter that goes back says the
// passkey may have been copied.
func SignCountValid(stored, sent uint32) bool {
	return sent > stored || (stored == 0 && sent == 0)
}

// Limits of what people and their ways in hold.
const (
	MaxPeople        = 1000 // members of an account
	MaxAccounts      = 100  // memberships of a person
	MaxInvitations   = 200  // open invitations of an account
	MaxPasskeys      = 20   // passkeys of a person
	MaxDevices       = 50   // enrolled devices of an account, revoked ones until removed
	MaxBuildings     = 100  // buildings a membership is limited to
	MaxConnected     = 1000 // connected accounts
	MaxGroups        = 200  // groups of a sign-in through single sign-on that are read
	MaxCredentialID  = 1023 // bytes of a passkey's credential id (WebAuthn's bound)
	MaxCredential    = 64 << 10
	maxBuildingID    = 200
	maxIdentityField = 255
)

// CheckName returns a person's name as kept: trimmed, at least one
// character and at most domain.MaxPersonName, without control characters;
// an error in words otherwise.
func CheckName(name string) (string, error) {
	return checkText(PersonName, name, domain.MaxPersonName, true)
}

// checkText trims s and checks its length and characters; what names the
// field in the error.
func checkText(what Text, s string, max int, required bool) (string, error) {
	s = strings.TrimSpace(s)
	switch n := len([]rune(s)); {
	case n == 0 && required:
		return "", &TextError{What: what, Problem: TextMissing}
	case n > max:
		return "", &TextError{What: what, Problem: TextTooLong, Len: n, Max: max}
	}
	if strings.ContainsFunc(s, unicode.IsControl) {
		return "", &TextError{What: what, Problem: TextControl}
	}
	return s, nil
}

// CheckEmail returns an e-mail address as kept: trimmed, "" for none; an
// error in words when it is not one address.
func CheckEmail(email string) (string, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return "", nil
	}
	if len(email) > domain.MaxEmail {
		return "", &EmailTooLongError{Len: len(email)}
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || !strings.Contains(email, "@") {
		return "", &EmailError{Value: cut(email, 60)}
	}
	return email, nil
}

// CheckBuildings returns building ids as kept (once each, in the order
// given); an error in words when there are too many or one is not an id.
func CheckBuildings(ids []string) ([]string, error) {
	if len(ids) > MaxBuildings {
		return nil, problem("A role can be limited to at most %d buildings; %d were chosen.", MaxBuildings, len(ids))
	}
	var out []string
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || len(id) > maxBuildingID || strings.ContainsFunc(id, unicode.IsControl) {
			return nil, problem("%q is not a building's id.", cut(id, 60))
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// cut is s cut to n characters, with an ellipsis when it was longer.
func cut(s string, n int) string {
	if c := store.Cut(s, n); c != s {
		return c + "…"
	}
	return s
}
