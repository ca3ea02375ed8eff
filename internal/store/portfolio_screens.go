package store

import (
	"context"
	"time"

	"washboard/internal/domain"
)

// OrganisationScreens are the portfolio wall screens of organisations
// (domain.Screen with Scope.Kind domain.ScreenOrganisation), with the hash
// of their link's token. Each is found by its organisation and id: another
// organisation's id is domain.ErrNotFound.
type OrganisationScreens interface {
	// CreatePortfolioScreen stores a new portfolio screen, unless its
	// organisation has max (<= 0: no bound): domain.ErrLimit. The count
	// and the insert are one step.
	CreatePortfolioScreen(ctx context.Context, sc domain.Screen, tokenHash []byte, max int) error
	// UpdatePortfolioScreen changes a screen's name, accounts, settings
	// and maker.
	UpdatePortfolioScreen(ctx context.Context, sc domain.Screen) error
	// RelinkPortfolioScreen gives a screen a new link token and maker, and
	// makes a revoked one active again.
	RelinkPortfolioScreen(ctx context.Context, org, id, maker string, tokenHash []byte) error
	RevokePortfolioScreen(ctx context.Context, org, id string, at time.Time) error
	// RemovePortfolioScreen removes a revoked screen for good:
	// domain.ErrScreenLinked when it is not revoked.
	RemovePortfolioScreen(ctx context.Context, org, id string) error
	TouchPortfolioScreen(ctx context.Context, id string, at time.Time) error
	// PortfolioScreens lists an organisation's screens, newest first.
	PortfolioScreens(ctx context.Context, org string) ([]domain.Screen, error)
	PortfolioScreen(ctx context.Context, org, id string) (domain.Screen, error)
	// PortfolioScreenByToken finds the screen whose link token has the
	// hash, as just written.
	PortfolioScreenByToken(ctx context.Context, tokenHash []byte) (domain.Screen, error)
}
