package store

import (
	"context"

	"washboard/internal/domain"
)

// Organisations are the service companies that group accounts (see
// docs/portfolio.md): an account belongs to one organisation at most, and
// a person too.
type Organisations interface {
	// CreateOrganisation stores a new organisation with its first person
	// (owner) and its first account, in one transaction:
	// domain.ErrPersonInOrganisation or domain.ErrAccountInOrganisation
	// when either belongs to one already. It records audit in the
	// account's log.
	CreateOrganisation(ctx context.Context, o domain.Organisation, owner domain.OrganisationMember, first domain.OrganisationAccount, audit Audit) error
	// Organisation returns an organisation; domain.ErrNotFound when there
	// is none of the id.
	Organisation(ctx context.Context, id string) (domain.Organisation, error)
	// OrganisationOf returns a person's role in their organisation;
	// domain.ErrNotFound when they belong to none.
	OrganisationOf(ctx context.Context, person string) (domain.OrganisationMember, error)
	// OrganisationGrant returns a person's role in the organisation an
	// account belongs to, whether it covers the account or not;
	// domain.ErrNotFound when the account belongs to no organisation of
	// theirs.
	OrganisationGrant(ctx context.Context, account, person string) (domain.OrganisationMember, error)
	// OrganisationMembers lists an organisation's people, by name.
	OrganisationMembers(ctx context.Context, org string) ([]domain.OrganisationMember, error)
	// AccountOrganisationMembers lists the people of the organisation an
	// account belongs to, by name, whether their role covers the account
	// or not; none when it belongs to none.
	AccountOrganisationMembers(ctx context.Context, account string) ([]domain.OrganisationMember, error)
	// OrganisationAccounts lists an organisation's accounts, by account
	// id, with each account's name.
	OrganisationAccounts(ctx context.Context, org string) ([]domain.OrganisationAccount, error)
	// AddOrganisationAccount adds an account to an organisation, unless it
	// has max accounts (<= 0: no bound): a *domain.LimitError;
	// domain.ErrAccountInOrganisation when the account belongs to one. It
	// records audit in the account's log.
	AddOrganisationAccount(ctx context.Context, a domain.OrganisationAccount, max int, audit Audit) error
	// UpdateOrganisationAccount changes an account's client name and
	// region; domain.ErrNotFound when it is not one of the organisation's.
	UpdateOrganisationAccount(ctx context.Context, a domain.OrganisationAccount) error
	// PutOrganisationMember adds a person to an organisation (unless it
	// has max people, <= 0: no bound) or changes their role in it; a
	// change ends their sessions in its accounts (an addition takes no
	// role away, and ends none): it returns their token hashes
	// (see EndSessions). domain.ErrPersonInOrganisation when the person
	// belongs to another; domain.ErrLastOrganisationOwner when it would
	// leave the organisation without an owner, whatever other changes run
	// at once. It records audit in the log of each of the organisation's
	// accounts.
	PutOrganisationMember(ctx context.Context, m domain.OrganisationMember, max int, audit Audit) ([]string, error)
	// RemoveOrganisationMember ends a person's role in an organisation and
	// their sessions in its accounts (their memberships of accounts stay);
	// domain.ErrLastOrganisationOwner as for PutOrganisationMember. It
	// records audit as PutOrganisationMember does.
	RemoveOrganisationMember(ctx context.Context, org, person string, audit Audit) ([]string, error)
}
