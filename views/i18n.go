package views

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
)

// Words on pages come from the message catalogs (internal/i18n) in the
// request's language, which the web layer puts in the context the page is
// rendered with: a component says tr(ctx, "id") wherever it shows words,
// without a parameter threaded through every model.

// tr is the message id in the page's language; args are name, value
// pairs for its {name} placeholders.
func tr(ctx context.Context, id string, args ...any) string {
	return i18n.From(ctx).T(id, args...)
}

// trn is the message id in the plural form n takes in the page's
// language.
func trn(ctx context.Context, id string, n int, args ...any) string {
	return i18n.From(ctx).N(id, n, args...)
}

// dateTimeIn is t in zone as the page's language writes a day and a time.
func dateTimeIn(ctx context.Context, t time.Time, zone *time.Location) string {
	return i18n.From(ctx).DateTime(t, zone)
}

// roleName is a role's word in the page's language: "Admin", "Aufsicht".
func roleName(ctx context.Context, r domain.Role) string {
	switch r {
	case domain.Viewer:
		return tr(ctx, "role.viewer")
	case domain.Staff:
		return tr(ctx, "role.staff")
	case domain.Supervisor:
		return tr(ctx, "role.supervisor")
	case domain.Admin:
		return tr(ctx, "role.admin")
	case domain.Owner:
		return tr(ctx, "role.owner")
	}
	return r.String()
}

// lang is the page's language code, for <html lang>.
func lang(ctx context.Context) string { return i18n.From(ctx).Lang() }

// dateIn is t's day in zone as the page's language writes it.
func dateIn(ctx context.Context, t time.Time, zone *time.Location) string {
	return i18n.From(ctx).Date(t, zone)
}

// timeIn is t's time of day in zone: "14:05".
func timeIn(ctx context.Context, t time.Time, zone *time.Location) string {
	return i18n.From(ctx).Time(t, zone)
}

// weekdayIn is the day's name in the page's language.
func weekdayIn(ctx context.Context, d time.Weekday) string { return i18n.From(ctx).Weekday(d) }

// numberIn is n as the page's language writes it: 1,234 or 1.234.
func numberIn(ctx context.Context, n int) string { return i18n.From(ctx).Number(n) }

// decimalIn is x with digits after the point as the page's language writes it.
func decimalIn(ctx context.Context, x float64, digits int) string {
	return i18n.From(ctx).Decimal(x, digits)
}
