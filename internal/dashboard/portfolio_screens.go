package dashboard

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Portfolio screens are the wall screens of an organisation: each shows
// its clients, one line each, as the person who made it sees them (see
// docs/wall-screens.md). Their links work as an account screen's; they
// keep no credentials, since the organisation's accounts are kept current
// by their own connections.

// MaxPortfolioScreens is how many wall screens an organisation keeps at
// most, revoked ones included until they are removed.
const MaxPortfolioScreens = 200

// maxScreenAccounts bounds the accounts a portfolio screen is limited to:
// as many as an organisation has at most.
const maxScreenAccounts = 1000

// portfolioScreenStore keeps the organisations' wall screens.
type portfolioScreenStore interface {
	store.OrganisationScreens
	OrganisationAccounts(ctx context.Context, org string) ([]domain.OrganisationAccount, error)
}

// MayKeepPortfolioScreens says whether a person's role in their
// organisation lets them make and change its wall screens: supervisors
// and above, as for an account's screens. A *domain.ForbiddenError in
// words when not.
func MayKeepPortfolioScreens(actor domain.OrganisationMember) error {
	if actor.Role < domain.Supervisor {
		return ErrMayNotKeepScreens
	}
	return nil
}

// ErrMayNotKeepScreens refuses a portfolio screen's change to a role
// below supervisor in the organisation.
var ErrMayNotKeepScreens = &domain.ForbiddenError{Why: "Only supervisors, admins and owners of the organisation make and change its wall screens."}

// CreatePortfolioScreen makes a wall screen of the actor's organisation,
// showing the accounts of sc.Accounts (none: every account) as the actor
// sees them, and returns it with its link token, which is never stored.
func (s *Service) CreatePortfolioScreen(ctx context.Context, actor domain.OrganisationMember, sc domain.Screen) (domain.Screen, string, error) {
	if err := MayKeepPortfolioScreens(actor); err != nil {
		return sc, "", err
	}
	accounts, err := s.screenAccounts(ctx, actor, sc.Accounts)
	if err != nil {
		return sc, "", err
	}
	id := make([]byte, 8)
	if _, err := rand.Read(id); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	sc.ID, sc.Created, sc.Account, sc.Healths = hex.EncodeToString(id), s.clock.Now(), "", nil
	sc.Organisation, sc.Maker, sc.Accounts = actor.Organisation, actor.PersonID, accounts
	sc.Scope = domain.ScreenScope{Kind: domain.ScreenOrganisation, ID: actor.Organisation}
	token, hash := newToken()
	switch err := s.store.CreatePortfolioScreen(ctx, sc, hash, MaxPortfolioScreens); {
	case errors.Is(err, domain.ErrLimit):
		return sc, "", &domain.LimitError{Holder: "An organisation", What: "wall screens", Max: MaxPortfolioScreens,
			Advice: "Revoked screens can be removed to make room: use Remove beside one in the list. Or reuse a screen no longer used (New link gives it a new link, Edit a new name and clients) rather than adding one."}
	case err != nil:
		return sc, "", err
	}
	return sc, token, nil
}

// ScreenClientsError says what is wrong with the clients chosen for a
// portfolio screen, as values the web layer says in the person's
// language (Error says it in English).
type ScreenClientsError struct {
	Chosen, Max int    // more than Max were chosen, when Chosen > 0
	None        bool   // none was chosen by a role that covers some of the clients only
	NotClient   string // an id that is not a client the role covers
}

func (e *ScreenClientsError) Error() string {
	switch {
	case e.Chosen > 0:
		return fmt.Sprintf("A screen can show at most %d chosen clients; %d were chosen.", e.Max, e.Chosen)
	case e.None:
		return "Your role in the organisation covers some of its clients: choose which of them the screen shows."
	}
	return fmt.Sprintf("%q is not a client of the organisation your role covers.", e.NotClient)
}

// screenAccounts checks the accounts a portfolio screen is limited to:
// accounts of the organisation that the actor's role covers, each once.
// None is every account, which only a role over every account chooses.
func (s *Service) screenAccounts(ctx context.Context, actor domain.OrganisationMember, ids []string) ([]string, error) {
	if len(ids) > maxScreenAccounts {
		return nil, &ScreenClientsError{Chosen: len(ids), Max: maxScreenAccounts}
	}
	if len(ids) == 0 {
		if !actor.CoversAll(nil) {
			return nil, &ScreenClientsError{None: true}
		}
		return nil, nil
	}
	all, err := s.store.OrganisationAccounts(ctx, actor.Organisation)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range ids {
		if !slices.ContainsFunc(all, func(a domain.OrganisationAccount) bool { return a.Account == id }) || !actor.Covers(id) {
			return nil, &ScreenClientsError{NotClient: clip(id)}
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

func clip(s string) string {
	if r := []rune(strings.Map(func(r rune) rune {
		if r < ' ' {
			return -1
		}
		return r
	}, s)); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// PortfolioScreens lists the wall screens of the actor's organisation
// that show no client beyond those the actor's role covers, newest first.
func (s *Service) PortfolioScreens(ctx context.Context, actor domain.OrganisationMember) ([]domain.Screen, error) {
	all, err := s.store.PortfolioScreens(ctx, actor.Organisation)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(sc domain.Screen) bool { return !actor.CoversAll(sc.Accounts) }), nil
}

// PortfolioScreen reads a wall screen of the actor's organisation that
// shows no client beyond those the actor's role covers: domain.ErrNotFound
// for any other, as for one of another organisation.
func (s *Service) PortfolioScreen(ctx context.Context, actor domain.OrganisationMember, id string) (domain.Screen, error) {
	sc, err := s.store.PortfolioScreen(ctx, actor.Organisation, id)
	if err != nil {
		return sc, err
	}
	if !actor.CoversAll(sc.Accounts) {
		return domain.Screen{}, notSeen("portfolio screen", id)
	}
	return sc, nil
}

// keptPortfolioScreen is a screen the actor sees (PortfolioScreen) and
// may change (MayKeepPortfolioScreens).
func (s *Service) keptPortfolioScreen(ctx context.Context, actor domain.OrganisationMember, id string) (domain.Screen, error) {
	sc, err := s.PortfolioScreen(ctx, actor, id)
	if err != nil {
		return sc, err
	}
	return sc, MayKeepPortfolioScreens(actor)
}

// UpdatePortfolioScreen renames and re-configures a wall screen of the
// actor's organisation, and chooses its clients anew: it then shows them
// as the actor sees them.
func (s *Service) UpdatePortfolioScreen(ctx context.Context, actor domain.OrganisationMember, sc domain.Screen) error {
	if _, err := s.keptPortfolioScreen(ctx, actor, sc.ID); err != nil {
		return err
	}
	accounts, err := s.screenAccounts(ctx, actor, sc.Accounts)
	if err != nil {
		return err
	}
	sc.Organisation, sc.Maker, sc.Accounts = actor.Organisation, actor.PersonID, accounts
	return s.store.UpdatePortfolioScreen(ctx, sc)
}

// RelinkPortfolioScreen gives a wall screen of the actor's organisation a
// new link; it then shows its clients as the actor sees them. The old link,
// and the browser opened with it, stop working.
func (s *Service) RelinkPortfolioScreen(ctx context.Context, actor domain.OrganisationMember, id string) (domain.Screen, string, error) {
	sc, err := s.keptPortfolioScreen(ctx, actor, id)
	if err != nil {
		return sc, "", err
	}
	token, hash := newToken()
	if err := s.store.RelinkPortfolioScreen(ctx, actor.Organisation, id, actor.PersonID, hash); err != nil {
		return sc, "", err
	}
	return sc, token, nil
}

// RevokePortfolioScreen unlinks a wall screen of the actor's organisation.
func (s *Service) RevokePortfolioScreen(ctx context.Context, actor domain.OrganisationMember, id string) error {
	if _, err := s.keptPortfolioScreen(ctx, actor, id); err != nil {
		return err
	}
	return s.store.RevokePortfolioScreen(ctx, actor.Organisation, id, s.clock.Now())
}

// RemovePortfolioScreen removes a revoked wall screen of the actor's
// organisation for good: domain.ErrScreenLinked when it is still linked.
func (s *Service) RemovePortfolioScreen(ctx context.Context, actor domain.OrganisationMember, id string) error {
	sc, err := s.keptPortfolioScreen(ctx, actor, id)
	if err != nil {
		return err
	}
	if !ScreenRemovable(sc) {
		return fmt.Errorf("portfolio screen %q: %w", id, domain.ErrScreenLinked)
	}
	return s.store.RemovePortfolioScreen(ctx, actor.Organisation, id)
}

// OpenLevels counts the open alerts of an account, as the scope sees it,
// that are at risk of missing their targets or have missed them: what a
// portfolio screen says of each client besides the week's closed alerts.
func (s *Service) OpenLevels(ctx context.Context, account string, sc domain.BuildingScope) (LevelCounts, error) {
	var o Overview
	err := s.overviewLevels(ctx, account, sc, &o)
	return o.Levels, err
}

// FreshnessOf is how fresh the data of several accounts is, together: as
// of the oldest of theirs, stale or failed when one is (the reason names
// it, by names[account]), still syncing for the first time when one is.
func (s *Service) FreshnessOf(ctx context.Context, accounts []string, names map[string]string) domain.Freshness {
	var out domain.Freshness
	for _, a := range accounts {
		f := s.Freshness(ctx, a, domain.Credentials{})
		out.FirstSync = out.FirstSync || f.FirstSync
		if !f.AsOf.IsZero() && (out.AsOf.IsZero() || f.AsOf.Before(out.AsOf)) {
			out.AsOf = f.AsOf
		}
		if (f.Stale || f.Failed) && !out.Stale && !out.Failed {
			out.Stale, out.Failed, out.Reason = f.Stale, f.Failed, names[a]+": "+f.Reason
		}
	}
	return out
}
