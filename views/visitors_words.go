package views

import (
	"context"
	"strings"

	"washboard/internal/domain"
)

// visitorKindName is what a visitor chooses, in words.
func visitorKindName(ctx context.Context, k domain.VisitorKind) string {
	switch k {
	case domain.VisitorNoPaper:
		return tr(ctx, "visitor.kind_paper")
	case domain.VisitorNoSoap:
		return tr(ctx, "visitor.kind_soap")
	case domain.VisitorNoTowels:
		return tr(ctx, "visitor.kind_towels")
	case domain.VisitorDirty:
		return tr(ctx, "visitor.kind_dirty")
	case domain.VisitorBroken:
		return tr(ctx, "visitor.kind_broken")
	case domain.VisitorOther:
		return tr(ctx, "visitor.kind_other")
	case domain.VisitorRatingOnly:
		return tr(ctx, "visitor.kind_rating")
	case domain.VisitorFlood:
		return tr(ctx, "visitor.kind_flood")
	}
	return string(k)
}

// VisitorKindName is a kind of visitors' report in the words of the
// context's language, for the pages that list reports.
func VisitorKindName(ctx context.Context, k domain.VisitorKind) string {
	return visitorKindName(ctx, k)
}

// ratingName is a rating of 1 to 5 in words.
func ratingName(ctx context.Context, n int) string {
	switch n {
	case 1:
		return tr(ctx, "visitor.rating_1")
	case 2:
		return tr(ctx, "visitor.rating_2")
	case 3:
		return tr(ctx, "visitor.rating_3")
	case 4:
		return tr(ctx, "visitor.rating_4")
	case 5:
		return tr(ctx, "visitor.rating_5")
	}
	return ""
}

// stars draws a rating as five stars, n of them full: beside its words,
// never instead of them.
func stars(n int) string { return strings.Repeat("★", n) + strings.Repeat("☆", 5-n) }

func visitorNoticeTitle(ctx context.Context, k VisitorNoticeKind) string {
	switch k {
	case NoticeThanks, NoticeTooMany:
		return tr(ctx, "visitor.thanks_title")
	case NoticeUnknownCode:
		return tr(ctx, "visitor.unknown_title")
	case NoticeReplaced:
		return tr(ctx, "visitor.replaced_title")
	case NoticeRoomGone:
		return tr(ctx, "visitor.gone_title")
	}
	return ""
}

func visitorNoticeText(ctx context.Context, k VisitorNoticeKind) string {
	switch k {
	case NoticeThanks:
		return tr(ctx, "visitor.thanks")
	case NoticeTooMany:
		return tr(ctx, "visitor.too_many")
	case NoticeUnknownCode:
		return tr(ctx, "visitor.unknown")
	case NoticeReplaced:
		return tr(ctx, "visitor.replaced")
	case NoticeRoomGone:
		return tr(ctx, "visitor.gone")
	}
	return ""
}
