package people

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"washboard/internal/domain"
)

// ScreenPortfolio is what a portfolio wall screen shows: its organisation
// as the person who made it sees it now (PortfolioOf), limited to the
// screen's accounts when it has some. Accounts that left the organisation,
// or that the maker may no longer see, are not in it; the screen never
// shows more than its maker may see. domain.ErrScreenMakerLeft when the
// maker belongs to the screen's organisation no more.
func (s *Service) ScreenPortfolio(ctx context.Context, sc domain.Screen) (Portfolio, error) {
	p, err := s.PortfolioOf(ctx, sc.Maker)
	if errors.Is(err, domain.ErrNotFound) || err == nil && p.Organisation.ID != sc.Organisation {
		return Portfolio{}, fmt.Errorf("portfolio screen %s: %w", sc.ID, domain.ErrScreenMakerLeft)
	}
	if err != nil {
		return p, err
	}
	if len(sc.Accounts) > 0 {
		p.Accounts = slices.DeleteFunc(p.Accounts, func(a PortfolioAccount) bool { return !slices.Contains(sc.Accounts, a.Account) })
	}
	p.People = nil
	return p, nil
}
