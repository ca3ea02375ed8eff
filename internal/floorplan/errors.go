package floorplan

import "washboard/internal/i18n"

// Kind says why an upload was refused.
type Kind string

// The reasons an upload is refused.
const (
	TooLarge     Kind = "too_large"      // more bytes than Limits.MaxBytes
	NotAPlan     Kind = "not_a_plan"     // not an SVG, PNG, JPEG or PDF
	TooBig       Kind = "too_big"        // a side or the pixels past the limits
	Unreadable   Kind = "unreadable"     // damaged, cut short, or not what it starts as
	Entities     Kind = "entities"       // an SVG with a DOCTYPE or entities
	TooComplex   Kind = "too_complex"    // an SVG with too many elements, too deep or drawing too much
	NoSize       Kind = "no_size"        // an SVG without a width, height or viewBox
	Pages        Kind = "pages"          // a PDF of more than one page
	Password     Kind = "password"       // a PDF that opens only with a password
	TooSlow      Kind = "too_slow"       // a PDF that takes too long to draw
	WrongCharset Kind = "wrong_encoding" // an SVG in another encoding than UTF-8
)

// Error is an upload refused for what it is: Msg says why in English, and
// MsgIn in a reader's language, in words a page shows as they are (the
// web answers it with a 4xx status: 413 for TooLarge, 422 otherwise).
// Detail, when not nil, is for the log.
type Error struct {
	Kind   Kind
	Msg    string
	Detail error
	words  func(*i18n.Localizer) string
}

// MsgIn is why the upload is refused, in l's language.
func (e *Error) MsgIn(l *i18n.Localizer) string {
	if e.words == nil {
		return e.Msg
	}
	return e.words(l)
}

func (e *Error) Error() string { return e.Msg }

// LogDetail is the reason and the detail, for the log.
func (e *Error) LogDetail() string {
	if e.Detail == nil {
		return e.Msg
	}
	return e.Msg + " (" + e.Detail.Error() + ")"
}

// refuse is a refusal of kind in words, which it says in English as its
// Msg.
func refuse(kind Kind, words func(l *i18n.Localizer) string) *Error {
	return &Error{Kind: kind, Msg: words(i18n.For(i18n.Default)), words: words}
}

// because adds the detail for the log to a refusal.
func (e *Error) because(detail error) *Error {
	e.Detail = detail
	return e
}

// ToolError says poppler's tools, which draw a PDF, are missing or would
// not start: the server's problem, not the upload's (a 503). Msg says how
// to install them, in English; MsgIn in a reader's language.
type ToolError struct {
	Msg  string
	Err  error
	tool string
}

// MsgIn is how to install the tool, in l's language.
func (e *ToolError) MsgIn(l *i18n.Localizer) string {
	return l.T("floorplan.no_tool", "tool", e.tool)
}

func (e *ToolError) Error() string { return e.Msg + " (" + e.Err.Error() + ")" }

// Unwrap lets errors.Is find why the tool would not start.
func (e *ToolError) Unwrap() error { return e.Err }
