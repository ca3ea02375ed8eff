package notify

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	gomail "github.com/wneessen/go-mail"
	gomailsmtp "github.com/wneessen/go-mail/smtp"

	"washboard/internal/clock"
	"washboard/internal/i18n"
)

// TLSMode is how the connection to the mail server is encrypted.
type TLSMode string

// The TLS modes.
const (
	// StartTLS connects in plain text and upgrades with STARTTLS before
	// anything else; a server that does not offer it is refused. The usual
	// mode of a submission port (587).
	StartTLS TLSMode = "starttls"
	// ImplicitTLS speaks TLS from the first byte (smtps, port 465).
	ImplicitTLS TLSMode = "tls"
	// NoTLS does not encrypt: for a relay on the same machine or network
	// that takes mail without a password. A password is refused with it.
	NoTLS TLSMode = "none"
)

// SMTPSettings are the mail server and the addresses of an e-mail channel.
// String and LogValue leave the password out.
type SMTPSettings struct {
	Host     string
	Port     int     // 587 for StartTLS, 465 for ImplicitTLS, 25 for NoTLS when zero
	TLS      TLSMode // StartTLS when empty
	User     string  // signs in when not empty, with the mechanism the server offers
	Password string
	From     string   // "Washboard <alerts@example.com>" or an address alone
	To       []string // the recipients, each as From
	// Timeout bounds connecting and each exchange with the server;
	// DefaultTimeout when zero.
	Timeout time.Duration
	// TLSConfig is the TLS configuration to verify the server with (its
	// ServerName is set to Host); the system's roots when nil.
	TLSConfig *tls.Config
}

// String names the server without the password: "smtp://alerts@mail.example.com:587 (STARTTLS)".
func (s SMTPSettings) String() string {
	scheme := "smtp"
	if s.TLS == ImplicitTLS {
		scheme = "smtps"
	}
	u := url.URL{Scheme: scheme, Host: net.JoinHostPort(s.Host, strconv.Itoa(s.port()))}
	if s.User != "" {
		u.User = url.User(s.User)
	}
	return fmt.Sprintf("%s (%s)", u.String(), s.tlsMode().label())
}

// GoString leaves the password out of %#v.
func (s SMTPSettings) GoString() string { return "notify.SMTPSettings{" + s.String() + "}" }

// LogValue leaves the password out of slog.
func (s SMTPSettings) LogValue() slog.Value { return slog.StringValue(s.String()) }

func (s SMTPSettings) tlsMode() TLSMode { return cmp.Or(s.TLS, StartTLS) }

func (m TLSMode) label() string {
	switch m {
	case ImplicitTLS:
		return "TLS"
	case NoTLS:
		return "unencrypted"
	}
	return "STARTTLS"
}

func (s SMTPSettings) port() int {
	if s.Port != 0 {
		return s.Port
	}
	switch s.tlsMode() {
	case ImplicitTLS:
		return 465
	case NoTLS:
		return 25
	}
	return 587
}

// ParseSMTPURL reads settings written as a URL:
//
//	smtp://user:password@mail.example.com:587?from=alerts@example.com&to=a@example.com,b@example.com
//	smtps://user:password@mail.example.com?from=…&to=…
//	smtp://127.0.0.1:25?starttls=0&from=…&to=…
//
// smtp uses STARTTLS (port 587 unless given) unless starttls=0, which
// sends unencrypted (port 25); smtps speaks TLS from the start (port
// 465). The user name and password are percent-decoded. The parameters
// are from, to (comma-separated or repeated), starttls (1 or 0) and
// timeout (a duration such as 10s). Errors name the part at fault and
// never repeat the password.
func ParseSMTPURL(s string) (SMTPSettings, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		var ue *url.Error
		msg := "it is not a URL"
		if errors.As(err, &ue) {
			msg = ue.Err.Error()
		}
		return SMTPSettings{}, fmt.Errorf("the SMTP URL could not be read: %s", redactUserinfo(msg, s))
	}
	var set SMTPSettings
	switch u.Scheme {
	case "smtp":
		set.TLS = StartTLS
	case "smtps":
		set.TLS = ImplicitTLS
	case "":
		return SMTPSettings{}, errors.New("the SMTP URL must begin with smtp:// or smtps://")
	default:
		return SMTPSettings{}, fmt.Errorf("the SMTP URL's scheme %q is not smtp or smtps", u.Scheme)
	}
	set.Host = u.Hostname()
	if set.Host == "" {
		return SMTPSettings{}, errors.New("the SMTP URL has no host")
	}
	if p := u.Port(); p != "" {
		port, err := strconv.Atoi(p)
		if err != nil || port < 1 || port > 65535 {
			return SMTPSettings{}, fmt.Errorf("the SMTP URL's port %q is not a number from 1 to 65535", p)
		}
		set.Port = port
	}
	if u.User != nil {
		set.User = u.User.Username()
		set.Password, _ = u.User.Password()
		if set.User == "" {
			return SMTPSettings{}, errors.New("the SMTP URL has a password but no user name")
		}
	}
	if u.Path != "" && u.Path != "/" {
		return SMTPSettings{}, errors.New("the SMTP URL must have no path after the host")
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return SMTPSettings{}, errors.New("the SMTP URL's parameters (after ?) could not be read")
	}
	for name, values := range q {
		last := values[len(values)-1]
		switch name {
		case "from":
			set.From = last
		case "to":
			for _, v := range values {
				for _, addr := range strings.Split(v, ",") {
					if addr = strings.TrimSpace(addr); addr != "" {
						set.To = append(set.To, addr)
					}
				}
			}
		case "starttls":
			switch strings.ToLower(last) {
			case "1", "true", "yes":
				if set.TLS == ImplicitTLS {
					return SMTPSettings{}, errors.New("the SMTP URL's starttls parameter does not apply to smtps, which speaks TLS from the start")
				}
			case "0", "false", "no":
				if set.TLS == ImplicitTLS {
					return SMTPSettings{}, errors.New("the SMTP URL's starttls parameter does not apply to smtps, which speaks TLS from the start")
				}
				set.TLS = NoTLS
			default:
				return SMTPSettings{}, fmt.Errorf("the SMTP URL's starttls=%q is not 1 or 0", last)
			}
		case "timeout":
			d, err := time.ParseDuration(last)
			if err != nil || d <= 0 {
				return SMTPSettings{}, fmt.Errorf("the SMTP URL's timeout=%q is not a duration such as 10s", last)
			}
			set.Timeout = d
		default:
			return SMTPSettings{}, fmt.Errorf("the SMTP URL's parameter %q is not one of from, to, starttls, timeout", name)
		}
	}
	if err := set.Validate(); err != nil {
		return SMTPSettings{}, err
	}
	return set, nil
}

// redactUserinfo takes the user name and password of raw, a URL that
// could not be parsed, out of msg.
func redactUserinfo(msg, raw string) string {
	rest := raw
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if at := strings.LastIndexByte(rest, '@'); at > 0 {
		userinfo := rest[:at]
		msg = strings.ReplaceAll(msg, userinfo, "…")
		if _, pass, ok := strings.Cut(userinfo, ":"); ok && pass != "" {
			msg = strings.ReplaceAll(msg, pass, "…")
		}
	}
	return msg
}

// Validate reports what makes the settings unusable, naming the setting.
func (s SMTPSettings) Validate() error {
	switch {
	case s.Host == "":
		return errors.New("the mail server's host is missing")
	case net.ParseIP(s.Host) == nil && strings.ContainsAny(s.Host, "/:[] \t"):
		return fmt.Errorf("the mail server's host %q is not a host name or address", s.Host)
	case s.Port < 0 || s.Port > 65535:
		return fmt.Errorf("the mail server's port %d is not from 1 to 65535", s.Port)
	case s.TLS != "" && s.TLS != StartTLS && s.TLS != ImplicitTLS && s.TLS != NoTLS:
		return fmt.Errorf("the TLS mode %q is not starttls, tls or none", s.TLS)
	case s.tlsMode() == NoTLS && (s.User != "" || s.Password != ""):
		return errors.New("the mail server's password would travel unencrypted: use STARTTLS (smtp://) or TLS (smtps://)")
	case s.Password != "" && s.User == "":
		return errors.New("the mail server's password is set without a user name")
	case s.From == "":
		return errors.New("the sender's address (from) is missing")
	case len(s.To) == 0:
		return errors.New("there is no recipient (to)")
	}
	if _, err := mail.ParseAddress(s.From); err != nil {
		return fmt.Errorf("the sender's address (from) %q is not an e-mail address", s.From)
	}
	for _, to := range s.To {
		if _, err := mail.ParseAddress(to); err != nil {
			return fmt.Errorf("the recipient's address (to) %q is not an e-mail address", to)
		}
	}
	return nil
}

// EmailConfig is an e-mail channel's settings.
type EmailConfig struct {
	SMTP SMTPSettings
	// Guard says which addresses the mail server may be at, checked for
	// each address connected to, as for webhooks: a channel's own mail
	// server is typed in by whoever made the channel.
	Guard Guard
	// Trusted lets the mail server be at any address: the server the
	// operator gave on the command line (--smtp-url), which is often a
	// relay on the same network.
	Trusted bool
	Clock   clock.Clock // clock.Real when nil
	// Link is the dashboard's address, the link of a test notification.
	Link string
	// Lang is the language of the channel's test notification; English
	// when empty.
	Lang string
}

// Email sends notifications as e-mails through an SMTP server, one
// connection per message, to every recipient of the settings or to none:
// when the server refuses a recipient nothing is sent, so that trying
// again sends no one a second copy.
type Email struct {
	set    SMTPSettings
	dialer *net.Dialer
	from   mail.Address
	to     []mail.Address
	clock  clock.Clock
	link   string
	lang   string
	redact *strings.Replacer
}

// NewEmail checks the settings, and the mail server's address against the
// guard unless it is trusted, and returns the channel.
func NewEmail(cfg EmailConfig) (*Email, error) {
	if err := cfg.SMTP.Validate(); err != nil {
		return nil, err
	}
	timeout := cmp.Or(cfg.SMTP.Timeout, DefaultTimeout)
	dialer := &net.Dialer{Timeout: timeout, KeepAlive: -1}
	if !cfg.Trusted {
		if err := cfg.Guard.checkHost(cfg.SMTP.Host, strconv.Itoa(cfg.SMTP.port())); err != nil {
			return nil, mailServerTarget.refusal(cfg.SMTP.Host, err)
		}
		dialer = cfg.Guard.dialer(timeout)
	}
	e := &Email{set: cfg.SMTP, dialer: dialer, clock: cmp.Or[clock.Clock](cfg.Clock, clock.Real{}), link: cfg.Link, lang: cfg.Lang}
	from, _ := mail.ParseAddress(cfg.SMTP.From)
	e.from = *from
	for _, to := range cfg.SMTP.To {
		addr, _ := mail.ParseAddress(to)
		e.to = append(e.to, *addr)
	}
	var pairs []string
	if len(e.set.Password) >= 3 { // shorter would blank out letters everywhere; no server echoes it anyway
		pairs = append(pairs, e.set.Password, "…")
	}
	e.redact = strings.NewReplacer(pairs...)
	return e, nil
}

// Send makes one attempt to mail n to the recipients.
func (e *Email) Send(ctx context.Context, n Notification) error {
	return e.send(ctx, n)
}

// Test mails a test notification and says what happened, in the
// language of ctx's localizer (the page's that asked for it).
func (e *Email) Test(ctx context.Context) (string, error) {
	l := i18n.From(ctx)
	test := NewTest(e.clock.Now(), e.link)
	test.Lang = e.lang
	if err := e.send(ctx, test); err != nil {
		return l.T("notif.test_not_delivered", "reason", NoteIn(l, err.Error())), err
	}
	to := make([]string, len(e.to))
	for i, a := range e.to {
		to[i] = a.Address
	}
	how := e.set.tlsMode().label()
	if e.set.User != "" {
		how = l.T("mail.signed_in_as", "how", how, "user", e.set.User)
	}
	return l.T("mail.test_accepted", "server", e.server(), "to", strings.Join(to, ", "), "how", how), nil
}

func (e *Email) server() string { return net.JoinHostPort(e.set.Host, strconv.Itoa(e.set.port())) }

// encryptedAuth are the sign-in mechanisms to choose from, the first the
// server offers, over a connection encrypted from the start: go-mail's
// choice over an encrypted connection. go-mail counts a connection it did
// not encrypt itself as unencrypted, and would not choose PLAIN or LOGIN
// on its own.
var encryptedAuth = []gomail.SMTPAuthType{
	gomail.SMTPAuthSCRAMSHA256PLUS, gomail.SMTPAuthSCRAMSHA256, gomail.SMTPAuthSCRAMSHA1PLUS, gomail.SMTPAuthSCRAMSHA1,
	gomail.SMTPAuthNTLM, gomail.SMTPAuthCramMD5, gomail.SMTPAuthPlain, gomail.SMTPAuthLogin,
}

// client makes the mail client. Its connections are dialled through the
// channel's dialer (the guard's, unless the server is trusted) and kept
// in conn, so that send can close one the client gives up on after a
// failed STARTTLS or greeting without closing it; greeted learns whether
// the server greeted as a mail server.
func (e *Email) client(conn *net.Conn, greeted *greeting) (*gomail.Client, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if e.set.TLSConfig != nil {
		tc = e.set.TLSConfig.Clone()
	}
	tc.ServerName = e.set.Host
	dial := e.dialer.DialContext
	opts := []gomail.Option{
		gomail.WithPort(e.set.port()),
		gomail.WithTimeout(cmp.Or(e.set.Timeout, DefaultTimeout)),
		gomail.WithTLSConfig(tc),
	}
	switch e.set.tlsMode() {
	case ImplicitTLS:
		// Encrypted here, before go-mail sees the connection, so that it
		// too goes through the guard.
		dial = (&tls.Dialer{NetDialer: e.dialer, Config: tc}).DialContext
		opts = append(opts, gomail.WithSSL())
	case NoTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	opts = append(opts, gomail.WithDialContextFunc(func(ctx context.Context, network, address string) (net.Conn, error) {
		c, err := dial(ctx, network, address)
		if err != nil {
			return nil, err
		}
		*conn = c
		return greeted.watch(c), nil
	}))
	if e.set.User != "" {
		auth := gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover)
		if e.set.tlsMode() == ImplicitTLS {
			auth = gomail.WithOpportunisticSMTPAuth(encryptedAuth...)
		}
		opts = append(opts, auth, gomail.WithUsername(e.set.User), gomail.WithPassword(e.set.Password))
	}
	return gomail.NewClient(e.set.Host, opts...)
}

// greeting learns whether the server greeted as a mail server: whether
// the first bytes it sent on the connection, after TLS for implicit TLS,
// were "220", the code of an SMTP greeting. Nothing it sent is kept.
type greeting struct {
	seen []byte // the first bytes read, up to 3
	done atomic.Bool
}

// watch returns conn, reading through g.
func (g *greeting) watch(conn net.Conn) net.Conn { return &greetedConn{Conn: conn, g: g} }

// greetedConn is a connection whose first bytes read are noted.
type greetedConn struct {
	net.Conn
	g *greeting
}

func (c *greetedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if g := c.g; len(g.seen) < 3 {
		g.seen = append(g.seen, p[:min(n, 3-len(g.seen))]...)
		if string(g.seen) == "220" {
			g.done.Store(true)
		}
	}
	return n, err
}

func (e *Email) send(ctx context.Context, n Notification) error {
	if err := n.Validate(); err != nil {
		return permanent(0, err, err.Error())
	}
	if n.At.IsZero() {
		n.At = e.clock.Now()
	}
	msg, err := EmailMessage(n, e.from, e.to)
	if err != nil {
		return permanent(0, err, "the message could not be written: "+err.Error())
	}
	return e.deliver(ctx, msg)
}

// SendLetter mails a letter of plain text to one address through the mail
// server of the settings, whatever their recipients: an invitation, a
// sign-in link. The error says in words what went wrong.
func SendLetter(ctx context.Context, set SMTPSettings, to, subject, text string, at time.Time) error {
	set.To = []string{to}
	e, err := NewEmail(EmailConfig{SMTP: set, Trusted: true})
	if err != nil {
		return err
	}
	m := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	m.FromMailAddress(&e.from)
	m.ToMailAddress(&e.to[0])
	m.Subject(subject)
	m.SetDateWithValue(at)
	m.SetMessageID()
	m.SetGenHeader("Auto-Submitted", "auto-generated")
	m.SetBodyString(gomail.TypeTextPlain, text)
	return e.deliver(ctx, m)
}

// deliver makes one attempt to hand a message to the mail server, for
// every recipient or none.
func (e *Email) deliver(ctx context.Context, msg *gomail.Msg) error {
	sc, done, err := e.connect(ctx)
	if err != nil {
		return err
	}
	defer done()

	if err := sc.Mail(e.from.Address); err != nil {
		return e.refusal(ctx, err, "the sender "+e.from.Address)
	}
	for _, to := range e.to {
		if err := sc.Rcpt(to.Address); err != nil {
			_ = sc.Reset()
			return e.refusal(ctx, err, "the recipient "+to.Address)
		}
	}
	w, err := sc.Data()
	if err != nil {
		return e.refusal(ctx, err, "the message")
	}
	if _, err := msg.WriteTo(w); err != nil {
		_ = w.Close()
		return e.refusal(ctx, err, "the message")
	}
	if err := w.Close(); err != nil {
		return e.refusal(ctx, err, "the message")
	}
	return nil
}

// connect connects to the mail server, greets it, encrypts and signs in
// as the settings say; done closes the connection.
func (e *Email) connect(ctx context.Context) (*gomailsmtp.Client, func(), error) {
	var (
		conn    net.Conn
		greeted greeting
	)
	c, err := e.client(&conn, &greeted)
	if err != nil {
		return nil, nil, permanent(0, err, "the mail client could not be set up: "+e.redact.Replace(err.Error()))
	}
	sc, err := c.DialToSMTPClientWithContext(ctx)
	if err != nil {
		if conn != nil {
			conn.Close()
		}
		return nil, nil, e.dialFailure(ctx, err, greeted.done.Load())
	}
	return sc, func() { c.CloseWithSMTPClient(sc) }, nil
}

// dialFailure classifies an error of connecting, greeting, STARTTLS or
// signing in, in words. A reply of the server is repeated only when it
// greeted as a mail server; before that, what answered may be any
// service, whose answer is not repeated (see Error).
func (e *Email) dialFailure(ctx context.Context, err error, greeted bool) *Error {
	var (
		tpErr  *textproto.Error
		dnsErr *net.DNSError
		netErr net.Error
		record tls.RecordHeaderError
	)
	server := e.server()
	switch {
	case errors.Is(err, ErrForbiddenTarget):
		return mailServerTarget.refusal(e.set.Host, err)
	case ctx.Err() != nil:
		return transient(0, ctx.Err(), "the attempt was cut off before the mail server "+server+" took the message: "+ctxReason(ctx))
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return permanent(0, err, "the mail server's host name "+e.set.Host+" does not exist (DNS)")
	case errors.As(err, &record):
		return permanent(0, err, fmt.Sprintf("the mail server %s does not speak TLS from the start; use smtp:// (STARTTLS) for it", server))
	case isCertificateError(err):
		return permanent(0, err, fmt.Sprintf("the mail server %s's certificate is not valid: %s", server, certificateWords(err)))
	case errors.As(err, &netErr) && netErr.Timeout():
		return transient(0, err, fmt.Sprintf("the mail server %s did not answer within %s", server, cmp.Or(e.set.Timeout, DefaultTimeout)))
	case !greeted && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)):
		return transient(0, err, fmt.Sprintf("the server at %s closed the connection without greeting as a mail server", server))
	case !greeted:
		if words := connectionWords(err); words != "" {
			return transient(0, err, fmt.Sprintf("could not connect to the mail server %s: %s", server, words))
		}
		return transient(0, err, fmt.Sprintf("the server at %s did not greet as a mail server does (with 220), so what it sent is not shown", server))
	case strings.HasPrefix(err.Error(), "SMTP AUTH failed") && errors.As(err, &tpErr):
		if tpErr.Code >= 400 && tpErr.Code < 500 {
			return transient(tpErr.Code, err, fmt.Sprintf("the mail server %s could not check the user name and password for now: %s", server, e.reply(tpErr)))
		}
		return permanent(tpErr.Code, err, fmt.Sprintf("the mail server %s refused the user name or password: %s", server, e.reply(tpErr)))
	case errors.Is(err, gomail.ErrNoSupportedAuthDiscovered), strings.Contains(err.Error(), "does not support SMTP AUTH"):
		return permanent(0, err, fmt.Sprintf("signing in to the mail server %s failed: it offers no way of signing in that Washboard uses", server))
	case strings.HasPrefix(err.Error(), "SMTP AUTH failed"):
		return permanent(0, err, fmt.Sprintf("signing in to the mail server %s failed", server))
	case strings.Contains(err.Error(), "does not support STARTTLS"):
		return permanent(0, err, fmt.Sprintf("the mail server %s does not offer STARTTLS, so the connection cannot be encrypted; use smtps:// if it speaks TLS from the start", server))
	case errors.As(err, &tpErr):
		return e.refusal(ctx, err, "the connection")
	}
	if words := connectionWords(err); words != "" {
		return transient(0, err, fmt.Sprintf("the connection to the mail server %s failed: %s", server, words))
	}
	return transient(0, err, fmt.Sprintf("the mail server %s gave an answer that is not SMTP", server))
}

// refusal classifies an error of the mail transaction, about what: a
// 4xx reply is transient, a 5xx permanent.
func (e *Email) refusal(ctx context.Context, err error, what string) *Error {
	var tpErr *textproto.Error
	server := e.server()
	switch {
	case errors.As(err, &tpErr) && tpErr.Code >= 400 && tpErr.Code < 500:
		return transient(tpErr.Code, err, fmt.Sprintf("the mail server %s turned %s away for now: %s", server, what, e.reply(tpErr)))
	case errors.As(err, &tpErr):
		return permanent(tpErr.Code, err, fmt.Sprintf("the mail server %s refused %s: %s", server, what, e.reply(tpErr)))
	case ctx.Err() != nil:
		return transient(0, ctx.Err(), "the attempt was cut off before the mail server "+server+" took the message: "+ctxReason(ctx))
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return transient(0, err, fmt.Sprintf("the mail server %s stopped answering while taking %s", server, what))
	}
	if words := connectionWords(err); words != "" {
		return transient(0, err, fmt.Sprintf("sending %s to the mail server %s failed: %s", what, server, words))
	}
	return transient(0, err, fmt.Sprintf("sending %s to the mail server %s failed: its answer is not SMTP", what, server))
}

// reply is a server's reply as one line, shortened: "535 5.7.8
// Authentication failed".
func (e *Email) reply(tpErr *textproto.Error) string {
	return smtpReply(tpErr.Code, tpErr.Msg, e.redact)
}
