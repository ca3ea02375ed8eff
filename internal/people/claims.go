package people

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	"washboard/internal/domain"
)

// Claims belong to people: a staff member says they are on an alert in
// their own name, and a supervisor puts someone of the account on it.
// Who may be put on an alert is the rule below.

// MayBeOnAlert says whether a member may be put on an alert of the
// building: nil when they may, a domain.Problem in words when not. Staff
// and above take alerts; a member whose role is limited to other
// buildings does not see the alert, and is not put on it.
func MayBeOnAlert(m domain.Member, b domain.Building) error {
	switch {
	case !AtLeast(m.Membership, domain.Staff):
		return &ClaimantError{Name: m.Name, Viewer: true}
	case !SeesBuilding(m.Membership, b.ID):
		return &ClaimantError{Name: m.Name, Building: buildingName(b)}
	}
	return nil
}

// buildingName is a building's name, or its id when the layout has no
// name for it.
func buildingName(b domain.Building) string {
	if b.Name != "" {
		return b.Name
	}
	return "building " + b.ID
}

// Claimants lists the people who may be put on an alert of the building
// (MayBeOnAlert), by name: the account's members and the people whose
// organisation's role covers the account, each with their effective role.
func (s *Service) Claimants(ctx context.Context, account string, b domain.Building) ([]domain.Member, error) {
	direct, err := s.store.Members(ctx, account)
	if err != nil {
		return nil, err
	}
	org, err := s.store.AccountOrganisationMembers(ctx, account)
	if err != nil {
		return nil, err
	}
	all := make(map[string]domain.Member, len(direct)+len(org))
	for _, m := range direct {
		all[m.PersonID] = m
	}
	for _, g := range org {
		m, ok := all[g.PersonID]
		if !ok {
			m = domain.Member{Name: g.Name, Email: g.Email}
		}
		m.Membership = Effective(m.Membership, g, account)
		all[g.PersonID] = m
	}
	var out []domain.Member
	for _, m := range all {
		if m.Role != domain.NoRole && MayBeOnAlert(m, b) == nil {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b domain.Member) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.PersonID, b.PersonID))
	})
	return out, nil
}

// Claimant returns the account's member of the id when they may be put on
// an alert of the building; otherwise a domain.Problem that says why,
// the same for a person of another account as for an id of no one.
func (s *Service) Claimant(ctx context.Context, account, personID string, b domain.Building) (domain.Member, error) {
	if personID == "" {
		return domain.Member{}, ErrChooseClaimant
	}
	m, err := s.Member(ctx, account, personID)
	if errors.Is(err, domain.ErrNotFound) {
		return m, ErrNotAMember
	}
	if err != nil {
		return m, err
	}
	return m, MayBeOnAlert(m, b)
}
