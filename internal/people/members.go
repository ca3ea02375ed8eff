package people

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"washboard/internal/domain"
	"washboard/internal/i18n"
)

// Members lists an account's members, by name.
func (s *Service) Members(ctx context.Context, account string) ([]domain.Member, error) {
	return s.store.Members(ctx, account)
}

// Memberships lists a person's memberships, by account: the accounts they
// may switch between.
func (s *Service) Memberships(ctx context.Context, personID string) ([]domain.Membership, error) {
	return s.store.MembershipsOf(ctx, personID)
}

// Person returns a person.
func (s *Service) Person(ctx context.Context, id string) (domain.Person, error) {
	return s.store.Person(ctx, id)
}

// UpdatePerson changes a person's own name and e-mail address.
func (s *Service) UpdatePerson(ctx context.Context, personID, name, email string) (domain.Person, error) {
	p, err := s.store.Person(ctx, personID)
	if err != nil {
		return p, err
	}
	if p.Name, err = CheckName(name); err != nil {
		return p, err
	}
	if p.Email, err = CheckEmail(email); err != nil {
		return p, err
	}
	return p, s.store.UpdatePerson(ctx, p)
}

// SetLanguage records the language a person chose for Washboard's pages:
// a code Washboard speaks (i18n.Languages), or "" to leave it to their
// browser.
func (s *Service) SetLanguage(ctx context.Context, personID, code string) error {
	if code != "" && !i18n.Known(code) {
		return domain.Problem(fmt.Sprintf("Washboard does not speak %q: choose one of %s.", code, strings.Join(i18n.Codes(), ", ")))
	}
	return s.store.SetPersonLanguage(ctx, personID, code)
}

// ChangeRole changes a member's role and buildings, as the actor may (see
// MayChange); an account keeps an owner. It ends the member's sessions in
// the account, and returns their token hashes for the caller to drop and
// announce.
func (s *Service) ChangeRole(ctx context.Context, actor domain.Member, personID string, r domain.Role, buildings []string) ([]string, error) {
	buildings, err := CheckBuildings(buildings)
	if err != nil {
		return nil, err
	}
	member, err := s.DirectMember(ctx, actor.Account, personID)
	if err != nil {
		return nil, err
	}
	if err := MayChange(actor.Membership, member.Membership, r, buildings); err != nil {
		return nil, err
	}
	m := member.Membership
	m.Role, m.Buildings = r, buildings
	return s.store.ChangeMembership(ctx, m, s.auditBy(actor, domain.AuditRoleChanged,
		fmt.Sprintf("%s from %s to %s", member.Name, grantWords(member.Role, member.Buildings), grantWords(r, buildings))))
}

// RemoveMember removes a person from the actor's account, as the actor
// may (see MayRemove): their sessions there end, and their devices
// enrolled there are revoked. It returns the sessions' token hashes.
func (s *Service) RemoveMember(ctx context.Context, actor domain.Member, personID string) ([]string, error) {
	member, err := s.DirectMember(ctx, actor.Account, personID)
	if err != nil {
		return nil, err
	}
	if err := MayRemove(actor.Membership, member.Membership); err != nil {
		return nil, err
	}
	return s.store.RemoveMember(ctx, actor.Account, personID, s.auditBy(actor, domain.AuditPersonRemoved,
		fmt.Sprintf("%s (%s)", member.Name, grantWords(member.Role, member.Buildings))))
}

// grantWords says a role and its buildings: "staff", "staff in 2
// buildings".
func grantWords(r domain.Role, buildings []string) string {
	if len(buildings) == 0 {
		return r.String()
	}
	return r.String() + " in " + domain.Count(len(buildings), "building", "buildings")
}

// RecordSession records that a session (its token hash, as the session
// store keys it) is a person's in an account, so that EndSessions can end
// it.
func (s *Service) RecordSession(ctx context.Context, token, personID, account string) error {
	return s.store.RecordSessionPerson(ctx, token, personID, account)
}

// EndSessions ends every session of a person (in one account when it is
// set) and returns their token hashes, for the caller to drop and
// announce to the other replicas.
func (s *Service) EndSessions(ctx context.Context, personID, account string) ([]string, error) {
	return s.store.EndSessions(ctx, personID, account)
}

// Record appends an entry to the actor's account's audit log, for a change
// made elsewhere (a screen, a webhook, a channel, a rule, a sign-in from a
// new device).
func (s *Service) Record(ctx context.Context, actor domain.Member, action domain.AuditAction, subject string) error {
	if _, err := domain.ParseAuditAction(string(action)); err != nil {
		return err
	}
	return s.store.RecordAudit(ctx, actor.Account, s.auditBy(actor, action, strings.TrimSpace(subject)))
}

// AccountOf is one of a person's accounts: their membership and the
// account's name.
type AccountOf struct {
	domain.Membership
	Name string // the account's id when the cache has no name for it
	// ByOrganisation says that the role is the person's organisation's,
	// higher than any of their own in the account.
	ByOrganisation bool
}

// AccountName is an account's name as the cache knows it; its id when it
// knows none.
func (s *Service) AccountName(ctx context.Context, account string) (string, error) {
	a, err := s.store.Account(ctx, account)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return "", err
	}
	return cmp.Or(a.Name, account), nil
}
