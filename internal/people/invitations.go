package people

import (
	"context"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Invite is what an invitation offers.
type Invite struct {
	Role      domain.Role
	Buildings []string // empty: every building
	Email     string   // who it is sent to; "" for a link handed over
}

// Invite makes an invitation of the actor's account, as the actor may
// grant (MayGrant), working for the configured time. It returns the
// invitation and its token, shown once (the link /invitations/{token});
// only the token's hash is kept.
func (s *Service) Invite(ctx context.Context, actor domain.Member, in Invite) (domain.Invitation, string, error) {
	var inv domain.Invitation
	buildings, err := CheckBuildings(in.Buildings)
	if err != nil {
		return inv, "", err
	}
	email, err := CheckEmail(in.Email)
	if err != nil {
		return inv, "", err
	}
	if err := MayGrant(actor.Membership, in.Role, buildings); err != nil {
		return inv, "", err
	}
	now := s.clock.Now()
	inv = domain.Invitation{ID: newID(8), Account: actor.Account, Role: in.Role, Buildings: buildings, Email: email,
		MadeBy: actor.PersonID, MadeByName: actor.Name, Created: now, Expires: now.Add(s.cfg.InvitationTTL)}
	to := "a link"
	if email != "" {
		to = email
	}
	token, hash := newToken(invitationToken)
	if err := limited(s.store.CreateInvitation(ctx, inv, hash, MaxInvitations, s.auditBy(actor, domain.AuditPersonInvited, to+" as "+grantWords(in.Role, buildings))),
		ErrInvitationsFull); err != nil {
		return inv, "", err
	}
	return inv, token, nil
}

// Invitations lists the account's open invitations, newest first.
func (s *Service) Invitations(ctx context.Context, account string) ([]domain.Invitation, error) {
	return s.store.Invitations(ctx, account, s.clock.Now())
}

// Invitation returns the invitation a link's token opens, for the page
// that offers to accept it: domain.ErrInvitationUnknown, Used, Expired or
// Withdrawn when it opens none.
func (s *Service) Invitation(ctx context.Context, token string) (domain.Invitation, error) {
	hash, ok := hashOf(invitationToken, token)
	if !ok {
		return domain.Invitation{}, domain.ErrInvitationUnknown
	}
	return s.store.InvitationByToken(ctx, hash, s.clock.Now())
}

// WithdrawInvitation withdraws an open invitation of the actor's account:
// admins and owners.
func (s *Service) WithdrawInvitation(ctx context.Context, actor domain.Member, id string) error {
	if !AtLeast(actor.Membership, domain.Admin) {
		return forbidden("Only admins and owners can withdraw invitations.")
	}
	return s.store.WithdrawInvitation(ctx, actor.Account, id, s.auditBy(actor, domain.AuditInvitationWithdrawn, "invitation "+id))
}

// Acceptance is who accepts an invitation: a person signed in already
// (PersonID), or a new one with a name, and an e-mail address (the
// invitation's when it was sent to one and none is given).
type Acceptance struct {
	PersonID    string
	Name, Email string
}

// AcceptInvitation uses an invitation's token and makes the person a
// member, with the invitation's role and buildings, in one step: the
// token works once, also when two accept it at once (the second is told
// domain.ErrInvitationUsed). It returns the person and the membership.
func (s *Service) AcceptInvitation(ctx context.Context, token string, a Acceptance) (domain.Person, domain.Membership, error) {
	inv, err := s.Invitation(ctx, token)
	if err != nil {
		return domain.Person{}, domain.Membership{}, err
	}
	hash, _ := hashOf(invitationToken, token)
	acc := store.Acceptance{TokenHash: hash, At: s.clock.Now(), Person: domain.Person{ID: a.PersonID}, MaxPeople: MaxPeople, MaxAccounts: MaxAccounts}
	if a.PersonID == "" {
		if a.Email == "" {
			a.Email = inv.Email
		}
		if acc.Person, err = s.newPerson(a.Name, a.Email); err != nil {
			return domain.Person{}, domain.Membership{}, err
		}
		acc.NewPerson = true
	}
	return s.store.AcceptInvitation(ctx, acc)
}
