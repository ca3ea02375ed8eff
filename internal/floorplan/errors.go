package floorplan

import "fmt"

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

// Error is an upload refused for what it is: Msg says why, in words a page
// shows as they are (the web answers it with a 4xx status: 413 for
// TooLarge, 422 otherwise). Detail, when not nil, is for the log.
type Error struct {
	Kind   Kind
	Msg    string
	Detail error
}

func (e *Error) Error() string { return e.Msg }

// LogDetail is the reason and the detail, for the log.
func (e *Error) LogDetail() string {
	if e.Detail == nil {
		return e.Msg
	}
	return e.Msg + " (" + e.Detail.Error() + ")"
}

func refuse(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// ToolError says poppler's tools, which draw a PDF, are missing or would
// not start: the server's problem, not the upload's (a 503). Msg says how
// to install them.
type ToolError struct {
	Msg string
	Err error
}

func (e *ToolError) Error() string { return e.Msg + " (" + e.Err.Error() + ")" }

// Unwrap lets errors.Is find why the tool would not start.
func (e *ToolError) Unwrap() error { return e.Err }
