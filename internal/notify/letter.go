package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/textproto"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// MaxAttachments bounds the bytes of a letter's attachments together,
// before they are encoded (base64 makes them a third larger): most mail
// servers take messages of 10 MB or more.
const MaxAttachments = 5 << 20

// Attachment is a file attached to a letter.
type Attachment struct {
	Name string // the file's name, "client-report-2026-11.pdf"
	Type string // its media type, "application/pdf"
	Data []byte
}

// Letter is a message of plain text, with files attached, for several
// addresses: a client report.
type Letter struct {
	To          []string
	Subject     string
	Text        string
	Attachments []Attachment
	// ID is the message's Message-ID without its angle brackets, the same
	// on every attempt, so that a mail client can tell a second copy.
	ID string
	At time.Time
}

// Refusal is an address the mail server refused, and why in words.
type Refusal struct {
	Address string
	Err     *Error
}

// LetterMessage is the letter as it is mailed from from: multipart/mixed,
// its text first, then each attachment in base64. A letter whose
// attachments are larger than MaxAttachments is refused.
func LetterMessage(l Letter, from string) (*gomail.Msg, error) {
	size := 0
	for _, a := range l.Attachments {
		size += len(a.Data)
	}
	if size > MaxAttachments {
		return nil, fmt.Errorf("the attachments are %d KB, more than the %d KB a letter carries", size>>10, MaxAttachments>>10)
	}
	m := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := m.From(from); err != nil {
		return nil, fmt.Errorf("the sender %q is not an e-mail address", from)
	}
	if err := m.To(l.To...); err != nil {
		return nil, errors.New("a recipient is not an e-mail address")
	}
	m.Subject(l.Subject)
	m.SetDateWithValue(l.At)
	if l.ID != "" {
		m.SetMessageIDWithValue(l.ID)
	} else {
		m.SetMessageID()
	}
	m.SetGenHeader("Auto-Submitted", "auto-generated")
	m.SetBodyString(gomail.TypeTextPlain, l.Text)
	for _, a := range l.Attachments {
		if err := m.AttachReader(a.Name, bytes.NewReader(a.Data), gomail.WithFileContentType(gomail.ContentType(a.Type)),
			gomail.WithFileEncoding(gomail.EncodingB64)); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// MailLetter makes one attempt to mail l through the mail server of set,
// whatever its recipients, to each address of l.To the server takes. It
// returns the addresses that took it and those the server refused, each
// with its reply; the error is for the attempt as a whole (the server
// unreachable, the sender or the message refused), when nobody took it.
// An attempt where the server refused every address takes no message.
func MailLetter(ctx context.Context, set SMTPSettings, l Letter) (took []string, refused []Refusal, err error) {
	set.To = l.To
	e, err := NewEmail(EmailConfig{SMTP: set, Trusted: true})
	if err != nil {
		return nil, nil, permanent(0, err, err.Error())
	}
	msg, err := LetterMessage(l, e.from.String())
	if err != nil {
		return nil, nil, permanent(0, err, err.Error())
	}
	sc, done, err := e.connect(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	if err := sc.Mail(e.from.Address); err != nil {
		return nil, nil, e.refusal(ctx, err, "the sender "+e.from.Address)
	}
	for _, to := range e.to {
		err := sc.Rcpt(to.Address)
		var tpErr *textproto.Error
		switch {
		case err == nil:
			took = append(took, to.Address)
		case errors.As(err, &tpErr):
			refused = append(refused, Refusal{to.Address, e.refusal(ctx, err, "the recipient "+to.Address)})
		default: // the connection broke: nobody took it
			return nil, nil, e.refusal(ctx, err, "the recipient "+to.Address)
		}
	}
	if len(took) == 0 {
		_ = sc.Reset()
		return nil, refused, nil
	}
	w, err := sc.Data()
	if err != nil {
		return nil, nil, e.refusal(ctx, err, "the message")
	}
	if _, err := msg.WriteTo(w); err != nil {
		_ = w.Close()
		return nil, nil, e.refusal(ctx, err, "the message")
	}
	if err := w.Close(); err != nil {
		return nil, nil, e.refusal(ctx, err, "the message")
	}
	return took, refused, nil
}
