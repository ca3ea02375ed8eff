package notify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"net/mail"
	"strings"
	"unicode/utf8"

	gomail "github.com/wneessen/go-mail"
)

// EmailContent is what an e-mail says: its subject, and its body as plain
// text and as HTML.
type EmailContent struct {
	Subject string
	Text    string
	HTML    string
}

// emailItems is how many items of a digest an e-mail lists; the rest are
// counted.
const emailItems = 200

// fact is a line of a message: "Since", "22 Nov 2026 09:15 UTC".
type fact struct {
	Title string
	Value string
}

// facts are the lines of an item: where (when withWhere), since, what to
// bring, what to do and its alert.
func facts(it Item, n Notification, withWhere bool) []fact {
	w := wordsIn(n.Lang)
	var fs []fact
	if full := it.Where.Full(); withWhere && full != "" {
		fs = append(fs, fact{w.where(), full})
	}
	if !it.Since.IsZero() {
		fs = append(fs, fact{w.since(), w.when(it.Since, n.Zone)})
	}
	if b := w.bring(it.Bring); b != "" {
		fs = append(fs, fact{w.bringTitle(), b})
	}
	if todo := w.todo(it); todo != "" {
		fs = append(fs, fact{w.todoTitle(), todo})
	}
	if it.Alert != nil {
		fs = append(fs, fact{w.alertTitle(), w.alertLine(*it.Alert, n.Zone)})
	}
	return fs
}

// emailView is what the HTML template shows.
type emailView struct {
	Lang    string // the language's code, for <html lang>
	Subject string
	Heading string
	Accent  template.CSS // the colour of the bar above the heading
	Lead    string
	Items   []emailItem
	Link    string
	Label   string
	Footer  string
}

type emailItem struct {
	Heading string // a digest's item; empty for a single notification
	Link    string
	Facts   []fact
}

// The accents: red for what needs action, amber for what needs attention,
// grey for offline and blue for the rest.
const (
	accentAction    template.CSS = "#b91c1c"
	accentAttention template.CSS = "#b45309"
	accentOffline   template.CSS = "#4b5563"
	accentInfo      template.CSS = "#1d4ed8"
)

func accent(k Kind) template.CSS {
	switch k {
	case AlertOpened, AlertOverdue, AlertUnclaimed, AlertAtRisk, ProductOut, VisitorReport:
		return accentAction
	case BatteryLow:
		return accentAttention
	case DeviceOffline:
		return accentOffline
	}
	return accentInfo
}

// FormatEmail is the e-mail of n. The subject says what and where
// ("Product out: Stall 2, Men's Restroom 3.12"); the text and HTML bodies
// say the same: where, since, what to bring, what to do, the alert, and a
// link to the location's page. The HTML uses inline styles and a table
// layout, with no images, scripts, style sheets or other references but
// the links, so that it reads the same in every client and with remote
// content blocked.
func FormatEmail(n Notification) (EmailContent, error) {
	w := wordsIn(n.Lang)
	v := emailView{Lang: w.l.Lang(), Subject: n.Subject(), Heading: n.Subject(), Accent: accent(n.Kind), Link: n.URL}
	var text strings.Builder
	text.WriteString(n.Subject() + "\n\n")
	switch n.Kind {
	case KindTest:
		v.Lead, v.Label = w.testText(), w.l.T("mail.open_washboard")
		text.WriteString(v.Lead + "\n")
	case KindDigest:
		v.Label = w.l.T("mail.open_list")
		for i, it := range n.Items {
			if i == emailItems {
				more := w.more(len(n.Items) - emailItems)
				v.Items = append(v.Items, emailItem{Heading: more})
				text.WriteString("\n" + more + "\n")
				break
			}
			fs := facts(it, n, true)
			v.Items = append(v.Items, emailItem{Heading: w.summary(it), Link: it.URL, Facts: fs})
			if i > 0 {
				text.WriteString("\n")
			}
			fmt.Fprintf(&text, "%d. %s\n", i+1, w.summary(it))
			writeFacts(&text, w, fs, "   ")
			if it.URL != "" {
				text.WriteString("   " + it.URL + "\n")
			}
		}
	default:
		v.Heading, v.Lead, v.Label = w.headline(n.Item), n.Where.Full(), w.l.T("mail.open_location")
		v.Items = []emailItem{{Facts: facts(n.Item, n, false)}} // the lead says where
		writeFacts(&text, w, facts(n.Item, n, true), "")
	}
	if n.URL != "" {
		fmt.Fprintf(&text, "\n%s\n%s\n", w.titled(v.Label), n.URL)
	}
	v.Footer = footer(w, n)
	text.WriteString("\n-- \n" + v.Footer + "\n")

	var html bytes.Buffer
	if err := emailHTML.Execute(&html, v); err != nil {
		return EmailContent{}, err
	}
	return EmailContent{Subject: n.Subject(), Text: text.String(), HTML: html.String()}, nil
}

func footer(w words, n Notification) string {
	if n.Kind == KindTest {
		return w.l.T("mail.footer_test")
	}
	return w.l.T("mail.footer", "kind", string(n.Kind), "id", n.ID)
}

// writeFacts writes facts as aligned lines, each after indent.
func writeFacts(b *strings.Builder, w words, fs []fact, indent string) {
	width := 0
	for _, f := range fs {
		width = max(width, utf8.RuneCountInString(w.titled(f.Title)))
	}
	for _, f := range fs {
		title := w.titled(f.Title)
		fmt.Fprintf(b, "%s%s%s  %s\n", indent, title, strings.Repeat(" ", width-utf8.RuneCountInString(title)), f.Value)
	}
}

var emailHTML = template.Must(template.New("email").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Subject}}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background-color:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellspacing="0" cellpadding="0" border="0" style="width:100%;max-width:600px;background-color:#ffffff;border:1px solid #d1d5db;border-top:6px solid {{.Accent}};font-family:Arial,Helvetica,sans-serif;color:#111827;text-align:left;">
<tr><td style="padding:20px 24px 8px 24px;">
<h1 style="margin:0;font-size:22px;line-height:28px;font-weight:bold;color:#111827;">{{.Heading}}</h1>
{{- with .Lead}}
<p style="margin:6px 0 0 0;font-size:15px;line-height:22px;color:#374151;">{{.}}</p>
{{- end}}
</td></tr>
{{- range .Items}}
<tr><td style="padding:12px 24px 4px 24px;">
{{- if .Heading}}
<h2 style="margin:0 0 6px 0;font-size:17px;line-height:24px;font-weight:bold;color:#111827;">{{if .Link}}<a href="{{.Link}}" style="color:#1d4ed8;text-decoration:underline;">{{.Heading}}</a>{{else}}{{.Heading}}{{end}}</h2>
{{- end}}
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="font-size:15px;line-height:22px;">
{{- range .Facts}}
<tr><th align="left" valign="top" style="padding:4px 12px 4px 0;width:110px;font-weight:normal;color:#6b7280;white-space:nowrap;">{{.Title}}</th><td valign="top" style="padding:4px 0;color:#111827;">{{.Value}}</td></tr>
{{- end}}
</table>
</td></tr>
{{- end}}
{{- if .Link}}
<tr><td style="padding:12px 24px 24px 24px;">
<a href="{{.Link}}" style="display:inline-block;padding:10px 18px;background-color:#1d4ed8;color:#ffffff;font-size:15px;font-weight:bold;text-decoration:none;border-radius:4px;">{{.Label}}</a>
<p style="margin:12px 0 0 0;font-size:13px;line-height:18px;color:#6b7280;word-break:break-all;">{{.Link}}</p>
</td></tr>
{{- end}}
</table>
<p style="margin:12px 0 0 0;font-size:12px;line-height:18px;color:#6b7280;font-family:Arial,Helvetica,sans-serif;">{{.Footer}}</p>
</td></tr>
</table>
</body>
</html>
`))

// EmailMessage is the MIME message of n from from to to: a
// multipart/alternative of the plain text and the HTML of FormatEmail,
// with From, To, Subject, Date (n.At), and a Message-ID made of the
// idempotency key and the domain of from, so that a message sent twice
// is recognisable as one. It also says it was sent automatically
// (Auto-Submitted), so that out-of-office replies are not sent back.
func EmailMessage(n Notification, from mail.Address, to []mail.Address) (*gomail.Msg, error) {
	content, err := FormatEmail(n)
	if err != nil {
		return nil, err
	}
	m := gomail.NewMsg(gomail.WithNoDefaultUserAgent(), gomail.WithBoundary(boundary(n.ID)))
	m.FromMailAddress(&from)
	rcpts := make([]*mail.Address, len(to))
	for i := range to {
		rcpts[i] = &to[i]
	}
	m.ToMailAddress(rcpts...)
	m.Subject(content.Subject)
	m.SetDateWithValue(n.At)
	m.SetMessageIDWithValue(MessageID(n.ID, from.Address))
	m.SetGenHeader("Auto-Submitted", "auto-generated")
	m.SetGenHeader(gomail.HeaderXAutoResponseSuppress, "All")
	m.SetBodyString(gomail.TypeTextPlain, content.Text)
	m.AddAlternativeString(gomail.TypeTextHTML, content.HTML)
	return m, nil
}

// MessageID is the Message-ID of the notification with key id, without
// its angle brackets: the key, or a hash of it when it holds characters a
// Message-ID cannot, "@" the domain of the sender's address ("washboard"
// when it has none).
func MessageID(id, from string) string {
	domain := "washboard"
	if at := strings.LastIndexByte(from, '@'); at >= 0 && isDotAtom(from[at+1:]) {
		domain = from[at+1:]
	}
	local := id
	if !isDotAtom(id) {
		sum := sha256.Sum256([]byte(id))
		local = "h" + hex.EncodeToString(sum[:16])
	}
	return local + "@" + domain
}

// boundary is the MIME boundary of the notification's e-mail: fixed by
// its key, so that the same notification gives the same bytes.
func boundary(id string) string {
	sum := sha256.Sum256([]byte("boundary " + id))
	return "washboard-" + hex.EncodeToString(sum[:12])
}

// isDotAtom reports whether s is an RFC 5322 dot-atom: atoms of letters,
// digits and !#$%&'*+-/=?^_`{|}~ joined by single dots.
func isDotAtom(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for _, c := range []byte(s) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-/=?^_`{|}~.", c) >= 0:
		default:
			return false
		}
	}
	return true
}
