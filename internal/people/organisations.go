package people

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Organisations: a service company groups the accounts of its clients
// (docs/portfolio.md). Its people have a role in it that applies to every
// account of the organisation, or to the ones listed, and never limits to
// buildings: a role limited to buildings is a membership of the account.
// What a person may do in an account is the higher of their membership
// of it and their organisation's role in it (Effective).

// Limits of organisations.
const (
	MaxOrganisationAccounts = MaxConnected // accounts of an organisation
	MaxOrganisationPeople   = MaxPeople    // people of an organisation
)

// Effective is a person's membership of an account, from their membership
// of it (direct; Role NoRole when none) and their role in the account's
// organisation (org; Role NoRole when none): the higher role of the two.
// The organisation's role covers every building; a direct membership as
// high or higher keeps its own buildings.
func Effective(direct domain.Membership, org domain.OrganisationMember, account string) domain.Membership {
	if !org.Covers(account) || org.Role <= direct.Role {
		return direct
	}
	return domain.Membership{PersonID: org.PersonID, Account: account, Role: org.Role, Created: org.Created}
}

// Member returns a person's membership of an account with what others see
// of them: the value a signed-in request carries, their role the higher
// of their own in the account and their organisation's (Effective).
// domain.ErrNotFound when they have neither.
func (s *Service) Member(ctx context.Context, account, personID string) (domain.Member, error) {
	direct, err := s.store.Membership(ctx, account, personID)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return domain.Member{}, err
	}
	g, gerr := s.store.OrganisationGrant(ctx, account, personID)
	if gerr != nil && !errors.Is(gerr, domain.ErrNotFound) {
		return domain.Member{}, gerr
	}
	m := Effective(direct, g, account)
	if m.Role == domain.NoRole {
		return domain.Member{}, cmp.Or(err, gerr, error(domain.ErrNotFound))
	}
	p, err := s.store.Person(ctx, personID)
	return domain.Member{Membership: m, Name: p.Name, Email: p.Email, LastSeen: p.LastSeen}, err
}

// EffectiveMembership is a membership of an account raised to the role
// the person's organisation gives them there, if higher (Effective): what
// a session started by any way in holds.
func (s *Service) EffectiveMembership(ctx context.Context, m domain.Membership) (domain.Membership, error) {
	g, err := s.store.OrganisationGrant(ctx, m.Account, m.PersonID)
	if errors.Is(err, domain.ErrNotFound) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	return Effective(m, g, m.Account), nil
}

// DirectMember is a person's own membership of an account, without their
// organisation's role: what an admin of the account changes or removes.
func (s *Service) DirectMember(ctx context.Context, account, personID string) (domain.Member, error) {
	m, err := s.store.Membership(ctx, account, personID)
	if err != nil {
		return domain.Member{}, err
	}
	p, err := s.store.Person(ctx, personID)
	return domain.Member{Membership: m, Name: p.Name, Email: p.Email, LastSeen: p.LastSeen}, err
}

// AccountsOf lists a person's accounts with their names, by account id:
// those they belong to and those their organisation's role covers, each
// with their effective membership; those they may switch between.
func (s *Service) AccountsOf(ctx context.Context, personID string) ([]AccountOf, error) {
	ms, err := s.store.MembershipsOf(ctx, personID)
	if err != nil {
		return nil, err
	}
	byAccount := map[string]domain.Membership{}
	for _, m := range ms {
		byAccount[m.Account] = m
	}
	names, byOrganisation := map[string]string{}, map[string]bool{}
	if g, err := s.store.OrganisationOf(ctx, personID); err == nil {
		all, err := s.store.OrganisationAccounts(ctx, g.Organisation)
		if err != nil {
			return nil, err
		}
		for _, a := range all {
			own := byAccount[a.Account]
			if m := Effective(own, g, a.Account); m.Role > domain.NoRole {
				byAccount[a.Account], names[a.Account], byOrganisation[a.Account] = m, a.Name, m.Role > own.Role
			}
		}
	} else if !errors.Is(err, domain.ErrNotFound) {
		return nil, err
	}
	out := make([]AccountOf, 0, len(byAccount))
	for id, m := range byAccount {
		name, ok := names[id]
		if !ok {
			a, err := s.store.Account(ctx, id)
			if err != nil && !errors.Is(err, domain.ErrNotFound) {
				return nil, err
			}
			name = a.Name
		}
		out = append(out, AccountOf{Membership: m, Name: cmp.Or(name, id), ByOrganisation: byOrganisation[id]})
	}
	slices.SortFunc(out, func(a, b AccountOf) int { return cmp.Compare(a.Account, b.Account) })
	return out, nil
}

// Portfolio is a person's organisation as they see it: the organisation,
// their role in it, its people, and the accounts they may see.
type Portfolio struct {
	Organisation domain.Organisation
	Role         domain.OrganisationMember
	People       []domain.OrganisationMember
	// Accounts are those of the organisation the person may see (their
	// organisation's role covers it, or they belong to it), by client
	// name, each with the person's effective membership.
	Accounts []PortfolioAccount
	// Hidden is how many accounts of the organisation they may not see.
	Hidden int
}

// PortfolioAccount is an account of a portfolio.
type PortfolioAccount struct {
	domain.OrganisationAccount
	Membership domain.Membership
}

// PortfolioOf returns a person's organisation as they see it;
// domain.ErrNotFound when they belong to none.
func (s *Service) PortfolioOf(ctx context.Context, personID string) (Portfolio, error) {
	g, err := s.store.OrganisationOf(ctx, personID)
	if err != nil {
		return Portfolio{}, err
	}
	p := Portfolio{Role: g}
	if p.Organisation, err = s.store.Organisation(ctx, g.Organisation); err != nil {
		return p, err
	}
	if p.People, err = s.store.OrganisationMembers(ctx, g.Organisation); err != nil {
		return p, err
	}
	all, err := s.store.OrganisationAccounts(ctx, g.Organisation)
	if err != nil {
		return p, err
	}
	own, err := s.store.MembershipsOf(ctx, personID)
	if err != nil {
		return p, err
	}
	direct := map[string]domain.Membership{}
	for _, m := range own {
		direct[m.Account] = m
	}
	for _, a := range all {
		m := Effective(direct[a.Account], g, a.Account)
		if m.Role == domain.NoRole {
			p.Hidden++
			continue
		}
		p.Accounts = append(p.Accounts, PortfolioAccount{OrganisationAccount: a, Membership: m})
	}
	slices.SortFunc(p.Accounts, func(a, b PortfolioAccount) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.ClientName()), strings.ToLower(b.ClientName())), cmp.Compare(a.Account, b.Account))
	})
	return p, nil
}

// CreateOrganisation makes an organisation of the actor's account, which
// they own (a membership of their own, not through an organisation): they
// become the organisation's owner, and the account its first.
func (s *Service) CreateOrganisation(ctx context.Context, actor domain.Member, name string) (domain.Organisation, error) {
	var o domain.Organisation
	n, err := checkText(OrganisationName, name, domain.MaxOrganisationName, true)
	if err != nil {
		return o, err
	}
	if err := s.ownsAccount(ctx, actor.Account, actor.PersonID); err != nil {
		return o, err
	}
	now := s.clock.Now()
	o = domain.Organisation{ID: newID(8), Name: n, Created: now}
	err = s.store.CreateOrganisation(ctx, o, domain.OrganisationMember{PersonID: actor.PersonID, Role: domain.Owner, Created: now},
		domain.OrganisationAccount{Account: actor.Account, Added: now}, s.auditBy(actor, domain.AuditOrganisationJoined, o.Name+" (made now)"))
	if errors.Is(err, domain.ErrPersonInOrganisation) {
		return o, ErrInOrganisation
	}
	return o, err
}

// ownsAccount says whether a person owns an account by a membership of
// their own: a forbidden error in words when not.
func (s *Service) ownsAccount(ctx context.Context, account, personID string) error {
	m, err := s.store.Membership(ctx, account, personID)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return err
	}
	if !AtLeast(m, domain.Owner) {
		return ErrOwnAccountOnly
	}
	return nil
}

// managerOf returns the actor's role in their organisation, when it is
// admin or owner: they manage its accounts and people. domain.ErrNotFound
// when they belong to none.
func (s *Service) managerOf(ctx context.Context, personID string) (domain.OrganisationMember, error) {
	g, err := s.store.OrganisationOf(ctx, personID)
	if err != nil {
		return g, err // domain.ErrNotFound for a person of none
	}
	if g.Role < domain.Admin {
		return g, ErrOrgManagersOnly
	}
	return g, nil
}

// AddAccount brings the actor's account into their organisation: they
// own the account (ownsAccount) and manage the organisation.
func (s *Service) AddAccount(ctx context.Context, actor domain.Member) error {
	g, err := s.managerOf(ctx, actor.PersonID)
	if err != nil {
		return err
	}
	if err := s.ownsAccount(ctx, actor.Account, actor.PersonID); err != nil {
		return err
	}
	o, err := s.store.Organisation(ctx, g.Organisation)
	if err != nil {
		return err
	}
	err = s.store.AddOrganisationAccount(ctx, domain.OrganisationAccount{Organisation: g.Organisation, Account: actor.Account, Added: s.clock.Now()},
		MaxOrganisationAccounts, s.auditBy(actor, domain.AuditOrganisationJoined, o.Name))
	if errors.Is(err, domain.ErrAccountInOrganisation) {
		return ErrAccountInOrganisation
	}
	return err
}

// LabelAccount sets the client name (blank: the account's name) and the
// region of an account of the actor's organisation.
func (s *Service) LabelAccount(ctx context.Context, personID, account, client, region string) error {
	g, err := s.managerOf(ctx, personID)
	if err != nil {
		return err
	}
	if !g.Covers(account) {
		return ErrOrgAccountNotCovered
	}
	if client, err = checkText(ClientName, client, domain.MaxClientName, false); err != nil {
		return err
	}
	if region, err = checkText(Region, region, domain.MaxRegion, false); err != nil {
		return err
	}
	return s.store.UpdateOrganisationAccount(ctx, domain.OrganisationAccount{Organisation: g.Organisation, Account: account, Client: client, Region: region})
}

// OrganisationOf returns a person's organisation and their role in it;
// false when they belong to none.
func (s *Service) OrganisationOf(ctx context.Context, personID string) (domain.OrganisationMember, bool, error) {
	g, err := s.store.OrganisationOf(ctx, personID)
	if errors.Is(err, domain.ErrNotFound) {
		return g, false, nil
	}
	return g, err == nil, err
}

// PutOrganisationPerson gives the person of an e-mail address (someone
// who signs in here already) a role in the actor's organisation, over
// every account or those listed, or changes theirs; as in an account,
// nobody gives a role above their own, nor accounts beyond theirs, and
// only owners make or change owners. It returns the token hashes of the
// sessions it ended (the person's in the organisation's accounts).
func (s *Service) PutOrganisationPerson(ctx context.Context, actorID, email string, r domain.Role, accounts []string) ([]string, error) {
	g, err := s.managerOf(ctx, actorID)
	if err != nil {
		return nil, err
	}
	email, err = CheckEmail(email)
	if err != nil {
		return nil, err
	}
	if email == "" {
		return nil, problem("Enter the e-mail address of the person to add.")
	}
	p, err := s.store.PersonByEmail(ctx, email)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, &NobodyError{Email: cut(email, 80)}
	}
	if err != nil {
		return nil, err
	}
	if accounts, err = s.checkOrganisationAccounts(ctx, g, accounts); err != nil {
		return nil, err
	}
	if err := mayGrantInOrganisation(g, r, accounts); err != nil {
		return nil, err
	}
	if had, err := s.store.OrganisationOf(ctx, p.ID); err == nil && had.Organisation == g.Organisation && p.ID != actorID {
		if err := mayManageInOrganisation(g, had); err != nil {
			return nil, err
		}
	}
	audit, err := s.organisationAudit(ctx, g, actorID, fmt.Sprintf("%s: %s over %s", p.Name, r, accountWords(len(accounts))))
	if err != nil {
		return nil, err
	}
	ended, err := s.store.PutOrganisationMember(ctx, domain.OrganisationMember{Organisation: g.Organisation, PersonID: p.ID, Role: r,
		Accounts: accounts, Created: s.clock.Now()}, MaxOrganisationPeople, audit)
	if errors.Is(err, domain.ErrLimit) {
		return nil, ErrOrganisationFull
	}
	return ended, err
}

// RemoveOrganisationPerson takes a person out of the actor's organisation
// (anyone may leave; admins and owners remove those who hold no more than
// they do). Their memberships of accounts stay. It returns the token
// hashes of the sessions it ended.
func (s *Service) RemoveOrganisationPerson(ctx context.Context, actorID, personID string) ([]string, error) {
	g, err := s.store.OrganisationOf(ctx, actorID)
	if err != nil {
		return nil, err
	}
	if personID != actorID {
		if g, err = s.managerOf(ctx, actorID); err != nil {
			return nil, err
		}
		had, err := s.store.OrganisationOf(ctx, personID)
		if err != nil || had.Organisation != g.Organisation {
			return nil, domain.ErrNotFound
		}
		if err := mayManageInOrganisation(g, had); err != nil {
			return nil, err
		}
	}
	p, err := s.store.Person(ctx, personID)
	if err != nil {
		return nil, err
	}
	what := p.Name + " was removed from the organisation"
	if personID == actorID {
		what = p.Name + " left the organisation"
	}
	audit, err := s.organisationAudit(ctx, g, actorID, what)
	if err != nil {
		return nil, err
	}
	return s.store.RemoveOrganisationMember(ctx, g.Organisation, personID, audit)
}

// organisationAudit is an entry of the audit log of the organisation's
// accounts, made now by the actor: a change of a person's role in it.
func (s *Service) organisationAudit(ctx context.Context, g domain.OrganisationMember, actorID, subject string) (store.Audit, error) {
	actor, err := s.store.Person(ctx, actorID)
	if err != nil {
		return store.Audit{}, err
	}
	return store.Audit{At: s.clock.Now(), ActorID: actorID, ActorName: actor.Name, Action: domain.AuditOrganisationRole, Subject: subject}, nil
}

// accountWords says how many accounts a role covers: "every account", "2
// accounts".
func accountWords(n int) string {
	if n == 0 {
		return "every account"
	}
	return domain.Count(n, "account", "accounts")
}

// checkOrganisationAccounts returns the account ids a role is limited to,
// once each: accounts of the organisation, at most MaxOrganisationAccounts.
func (s *Service) checkOrganisationAccounts(ctx context.Context, g domain.OrganisationMember, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if len(ids) > MaxOrganisationAccounts {
		return nil, problem("A role can be limited to at most %d accounts; %d were chosen.", MaxOrganisationAccounts, len(ids))
	}
	all, err := s.store.OrganisationAccounts(ctx, g.Organisation)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if !slices.ContainsFunc(all, func(a domain.OrganisationAccount) bool { return a.Account == id }) || strings.ContainsFunc(id, unicode.IsControl) {
			return nil, problem("%q is not an account of this organisation.", cut(id, 60))
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// mayGrantInOrganisation: nobody gives a role above their own, or
// accounts beyond theirs; only owners make owners.
func mayGrantInOrganisation(maker domain.OrganisationMember, r domain.Role, accounts []string) error {
	switch {
	case r < domain.Viewer || r > domain.Owner:
		return ErrChooseRole
	case r == domain.Owner && maker.Role != domain.Owner:
		return ErrOrgOwnerMakesOwner
	case r > maker.Role:
		return &RoleAboveError{Own: maker.Role}
	case !accountsWithin(maker, accounts):
		return ErrOrgGrantAccountsBeyond
	}
	return nil
}

// mayManageInOrganisation: the maker holds as much as the member.
func mayManageInOrganisation(maker, member domain.OrganisationMember) error {
	switch {
	case member.Role == domain.Owner && maker.Role != domain.Owner:
		return ErrOrgOwnerChangesOwner
	case member.Role > maker.Role:
		return ErrRoleAbove
	case !accountsWithin(maker, member.Accounts):
		return ErrOrgAccountsBeyond
	}
	return nil
}

// accountsWithin reports whether the accounts (empty: every one) are all
// among those the role covers.
func accountsWithin(m domain.OrganisationMember, accounts []string) bool {
	return m.CoversAll(accounts)
}
