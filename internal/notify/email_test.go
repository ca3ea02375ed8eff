package notify

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/emersion/go-smtp"

	"washboard/internal/clock"
	"washboard/internal/notify/mailtest"
)

// settingsOf are a channel's settings for the server ms, in mode.
func settingsOf(ms *mailtest.Server, mode TLSMode) SMTPSettings {
	return SMTPSettings{
		Host: ms.Host, Port: ms.Port, TLS: mode, User: ms.User, Password: ms.Pass,
		From: "Washboard <alerts@washboard.example.com>", To: []string{"facilities@example.com", "Night Shift <night@example.com>"},
		Timeout: 5 * time.Second, TLSConfig: &tls.Config{RootCAs: ms.Roots},
	}
}

// newTestEmail is a channel to a mail server that may be on loopback.
func newTestEmail(t *testing.T, set SMTPSettings) *Email {
	t.Helper()
	e, err := NewEmail(EmailConfig{SMTP: set, Guard: Guard{AllowPrivate: true}, Clock: clock.NewFake(decided), Link: "https://washboard.example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Over STARTTLS, signed in with AUTH PLAIN, the server receives one
// message for both recipients, encrypted, with the headers and parts a
// mail client shows, and HTML that loads nothing.
func TestEmailIsDeliveredOverSTARTTLSWithSignIn(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{})
	e := newTestEmail(t, settingsOf(ms, StartTLS))
	if err := e.Send(context.Background(), productOut()); err != nil {
		t.Fatal(err)
	}
	mails := ms.Received()
	if len(mails) != 1 {
		t.Fatalf("the server received %d messages, want 1", len(mails))
	}
	m := mails[0]
	if !m.TLS || m.From != "alerts@washboard.example.com" || strings.Join(m.To, ",") != "facilities@example.com,night@example.com" {
		t.Errorf("envelope from %q to %v, TLS %v", m.From, m.To, m.TLS)
	}
	parts := readEmail(t, m.Data)
	for name, want := range map[string]string{
		"Message-Id": "<ntf_01JDQ7Z3K4M5N6P7Q8R9S0T1V2@washboard.example.com>",
		"Subject":    "Product out: Stall 2, Men's Restroom 3.12",
		"From":       `"Washboard" <alerts@washboard.example.com>`,
		"To":         `<facilities@example.com>, "Night Shift" <night@example.com>`,
		"Date":       "Sun, 22 Nov 2026 09:17:30 +0000",
	} {
		if got := parts.header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if !strings.Contains(parts.text, "Bring:       2 tissue rolls") {
		t.Errorf("text part:\n%s", parts.text)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(parts.html))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Find("img, script, link, style, iframe").Length() > 0 || doc.Find("[src]").Length() > 0 {
		t.Errorf("the HTML part loads something")
	}
	if href, _ := doc.Find("a").Attr("href"); href != "https://washboard.example.com/locations/1042" {
		t.Errorf("the HTML links to %q", href)
	}
	// The received bytes are those EmailMessage writes.
	want, _ := emailBytes(productOut())
	if !bytes.Equal(bytes.ReplaceAll(m.Data, []byte("\r\n"), []byte("\n")), bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n"))) {
		t.Errorf("the server received other bytes than EmailMessage writes")
	}
}

// With implicit TLS (smtps) the message arrives encrypted too.
func TestEmailIsDeliveredOverImplicitTLS(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{Implicit: true})
	e := newTestEmail(t, settingsOf(ms, ImplicitTLS))
	if err := e.Send(context.Background(), digest()); err != nil {
		t.Fatal(err)
	}
	if mails := ms.Received(); len(mails) != 1 || !mails[0].TLS {
		t.Errorf("received %d messages (TLS %v)", len(mails), len(mails) == 1 && mails[0].TLS)
	}
}

// A wrong password is a permanent failure that says so, with the
// server's reply, and does not repeat the password.
func TestEmailWrongPasswordIsPermanent(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{})
	set := settingsOf(ms, StartTLS)
	set.Password = "Tr0ub4dor&3"
	e := asError(t, newTestEmail(t, set).Send(context.Background(), productOut()))
	want := "the mail server " + ms.Addr + " refused the user name or password: 535 5.7.8 Authentication failed"
	if !e.Permanent || e.Code != 535 || e.Error() != want {
		t.Errorf("error %q (permanent %v, code %d), want permanent %q", e, e.Permanent, e.Code, want)
	}
	if strings.Contains(e.Error(), "Tr0ub4dor") || len(ms.Received()) != 0 {
		t.Errorf("error %q; %d messages received", e, len(ms.Received()))
	}
}

// A recipient the server refuses for good is a permanent failure naming
// the recipient; nobody gets the message, so that a resend after the
// address is fixed sends no one a second copy. A recipient refused for now
// is transient.
func TestEmailRefusedRecipient(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		reply     *smtp.SMTPError
		permanent bool
		words     string
	}{
		{&smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"}, true,
			"refused the recipient night@example.com: 550 5.1.1 No such user"},
		{&smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Mailbox busy, try later"}, false,
			"turned the recipient night@example.com away for now: 451 4.3.0 Mailbox busy, try later"},
	} {
		ms := mailtest.Start(t, mailtest.Options{})
		ms.Refuse["night@example.com"] = c.reply
		e := asError(t, newTestEmail(t, settingsOf(ms, StartTLS)).Send(context.Background(), productOut()))
		if e.Permanent != c.permanent || e.Code != c.reply.Code || !strings.HasSuffix(e.Error(), c.words) {
			t.Errorf("error %q (permanent %v, code %d), want permanent %v and %q", e, e.Permanent, e.Code, c.permanent, c.words)
		}
		if n := len(ms.Received()); n != 0 {
			t.Errorf("%d messages received; want none when a recipient is refused", n)
		}
	}
}

// A server that is not there, or that does not answer, is a transient
// failure: it may be back later.
func TestEmailUnreachableServerIsTransient(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	port, _ := strconv.Atoi(addr[strings.LastIndexByte(addr, ':')+1:])
	set := SMTPSettings{Host: "127.0.0.1", Port: port, From: "alerts@example.com", To: []string{"a@example.com"}, User: "u", Password: "secret-pass"}
	e := asError(t, newTestEmail(t, set).Send(context.Background(), productOut()))
	if e.Permanent || e.Error() != "could not connect to the mail server "+addr+": connection refused" {
		t.Errorf("error %q (permanent %v)", e, e.Permanent)
	}

	// A server that accepts the connection and never greets.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	set.Port = silent.Addr().(*net.TCPAddr).Port
	set.Timeout = 200 * time.Millisecond
	e = asError(t, newTestEmail(t, set).Send(context.Background(), productOut()))
	if e.Permanent || !strings.Contains(e.Error(), "did not answer within 200ms") {
		t.Errorf("error %q (permanent %v)", e, e.Permanent)
	}
}

// A server that offers no STARTTLS is refused before the password is
// sent: the connection would not be encrypted.
func TestEmailWithoutSTARTTLSIsRefused(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{NoTLS: true})
	e := asError(t, newTestEmail(t, settingsOf(ms, StartTLS)).Send(context.Background(), productOut()))
	if !e.Permanent || !strings.Contains(e.Error(), "does not offer STARTTLS") {
		t.Errorf("error %q (permanent %v)", e, e.Permanent)
	}
}

// Implicit TLS to a server that starts in plain text is a permanent
// failure that says which mode to use.
func TestEmailImplicitTLSToAPlainServerIsPermanent(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{})
	e := asError(t, newTestEmail(t, settingsOf(ms, ImplicitTLS)).Send(context.Background(), productOut()))
	if !e.Permanent || !strings.Contains(e.Error(), "does not speak TLS from the start; use smtp:// (STARTTLS)") {
		t.Errorf("error %q (permanent %v)", e, e.Permanent)
	}
}

// A certificate the channel does not trust is a permanent failure that
// says why in words.
func TestEmailUntrustedCertificateIsPermanent(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{})
	set := settingsOf(ms, StartTLS)
	set.TLSConfig = nil // the system's roots, which do not know the test's certificate
	e := asError(t, newTestEmail(t, set).Send(context.Background(), productOut()))
	want := "the mail server " + ms.Addr + "'s certificate is not valid: it is signed by an authority Washboard does not trust"
	if !e.Permanent || e.Error() != want || len(ms.Received()) != 0 {
		t.Errorf("error %q (permanent %v); want %q", e, e.Permanent, want)
	}
}

// "Send a test" says in words what happened, either way.
func TestEmailTestSaysWhatHappened(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{})
	said, err := newTestEmail(t, settingsOf(ms, StartTLS)).Test(context.Background())
	want := ms.Addr + " accepted the test e-mail for facilities@example.com, night@example.com (STARTTLS, signed in as washboard)."
	if err != nil || said != want {
		t.Errorf("Test() = %q, %v; want %q", said, err, want)
	}
	if mails := ms.Received(); len(mails) != 1 || !bytes.Contains(mails[0].Data, []byte("Subject: Test notification from Washboard")) {
		t.Errorf("the test message did not arrive")
	}

	set := settingsOf(ms, StartTLS)
	set.Password = "wrong password"
	said, err = newTestEmail(t, set).Test(context.Background())
	if err == nil || !strings.HasPrefix(said, "The test was not delivered: the mail server "+ms.Addr+" refused the user name or password") {
		t.Errorf("Test() = %q, %v", said, err)
	}
}

// The URL form of the settings reads as documented, and its errors name
// the part at fault without repeating the password.
func TestParseSMTPURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url  string
		want SMTPSettings
	}{
		{"smtp://alerts%40example.com:p%40ss%2Fw0rd@mail.example.com:587?starttls=1&from=alerts@example.com&to=a@example.com,b@example.com",
			SMTPSettings{Host: "mail.example.com", Port: 587, TLS: StartTLS, User: "alerts@example.com", Password: "p@ss/w0rd",
				From: "alerts@example.com", To: []string{"a@example.com", "b@example.com"}}},
		{"smtps://u:pw@mail.example.com?from=Washboard%20%3Calerts@example.com%3E&to=a@example.com&to=b@example.com&timeout=30s",
			SMTPSettings{Host: "mail.example.com", TLS: ImplicitTLS, User: "u", Password: "pw", From: "Washboard <alerts@example.com>",
				To: []string{"a@example.com", "b@example.com"}, Timeout: 30 * time.Second}},
		{"smtp://127.0.0.1:2525?starttls=0&from=a@example.com&to=b@example.com",
			SMTPSettings{Host: "127.0.0.1", Port: 2525, TLS: NoTLS, From: "a@example.com", To: []string{"b@example.com"}}},
		{"smtp://[::1]?from=a@example.com&to=b@example.com",
			SMTPSettings{Host: "::1", TLS: StartTLS, From: "a@example.com", To: []string{"b@example.com"}}},
	} {
		got, err := ParseSMTPURL(c.url)
		if err != nil {
			t.Errorf("ParseSMTPURL(%q): %v", c.url, err)
			continue
		}
		if fmt.Sprint(got.To) != fmt.Sprint(c.want.To) || got.Host != c.want.Host || got.Port != c.want.Port || got.TLS != c.want.TLS ||
			got.User != c.want.User || got.Password != c.want.Password || got.From != c.want.From || got.Timeout != c.want.Timeout {
			t.Errorf("ParseSMTPURL(%q) = %#v (password %q), want %#v", c.url, got, got.Password, c.want)
		}
	}
	const q = "?from=a@example.com&to=b@example.com"
	for _, c := range []struct{ url, words string }{
		{"mail.example.com" + q, "must begin with smtp:// or smtps://"},
		{"imap://u:hunter22@mail.example.com" + q, `scheme "imap" is not smtp or smtps`},
		{"smtp://u:hunter22@" + q, "has no host"},
		{"smtp://u:hunter22@mail.example.com:0" + q, `port "0" is not a number from 1 to 65535`},
		{"smtp://u:hunter22@mail.example.com:smtp" + q, "could not be read"},
		{"smtp://:hunter22@mail.example.com" + q, "has a password but no user name"},
		{"smtp://u:hunter22@mail.example.com/inbox" + q, "no path after the host"},
		{"smtp://u:hunter22@mail.example.com" + q + "&starttls=maybe", `starttls="maybe" is not 1 or 0`},
		{"smtps://u:hunter22@mail.example.com" + q + "&starttls=1", "does not apply to smtps"},
		{"smtp://u:hunter22@mail.example.com" + q + "&starttls=0", "password would travel unencrypted"},
		{"smtp://u:hunter22@mail.example.com" + q + "&timeout=soon", `timeout="soon" is not a duration`},
		{"smtp://u:hunter22@mail.example.com" + q + "&cc=c@example.com", `parameter "cc" is not one of`},
		{"smtp://u:hunter22@mail.example.com?to=b@example.com", "sender's address (from) is missing"},
		{"smtp://u:hunter22@mail.example.com?from=a@example.com", "no recipient"},
		{"smtp://u:hunter22@mail.example.com?from=alerts&to=b@example.com", `(from) "alerts" is not an e-mail address`},
		{"smtp://u:hunter22@mail.example.com?from=a@example.com&to=b@example.com,nobody", `(to) "nobody" is not an e-mail address`},
	} {
		_, err := ParseSMTPURL(c.url)
		if err == nil || !strings.Contains(err.Error(), c.words) {
			t.Errorf("ParseSMTPURL(%q): %v; want an error saying %q", c.url, err, c.words)
		} else if strings.Contains(err.Error(), "hunter22") {
			t.Errorf("ParseSMTPURL(%q): %q repeats the password", c.url, err)
		}
	}
}

// Printing or logging the settings never shows the password.
func TestSMTPSettingsHideThePassword(t *testing.T) {
	t.Parallel()
	set, err := ParseSMTPURL("smtp://alerts:hunter22@mail.example.com?from=a@example.com&to=b@example.com")
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	slog.New(slog.NewTextHandler(&logged, nil)).Info("smtp", "settings", set)
	for _, s := range []string{set.String(), fmt.Sprintf("%v", set), fmt.Sprintf("%+v", set), fmt.Sprintf("%#v", set), logged.String()} {
		if strings.Contains(s, "hunter22") {
			t.Errorf("%q shows the password", s)
		}
	}
	if want := "smtp://alerts@mail.example.com:587 (STARTTLS)"; set.String() != want {
		t.Errorf("String() = %q, want %q", set.String(), want)
	}
}

// Settings that cannot work are refused when the channel is made.
func TestNewEmailRefusesUnusableSettings(t *testing.T) {
	t.Parallel()
	ok := SMTPSettings{Host: "mail.example.com", From: "a@example.com", To: []string{"b@example.com"}}
	for _, c := range []struct {
		change func(*SMTPSettings)
		words  string
	}{
		{func(s *SMTPSettings) { s.Host = "" }, "host is missing"},
		{func(s *SMTPSettings) { s.Host = "unix:///var/run/smtp" }, "is not a host name or address"},
		{func(s *SMTPSettings) { s.TLS = "ssl" }, `TLS mode "ssl" is not starttls, tls or none`},
		{func(s *SMTPSettings) { s.TLS, s.User, s.Password = NoTLS, "u", "p" }, "password would travel unencrypted"},
		{func(s *SMTPSettings) { s.Password = "p" }, "without a user name"},
	} {
		set := ok
		c.change(&set)
		if _, err := NewEmail(EmailConfig{SMTP: set}); err == nil || !strings.Contains(err.Error(), c.words) {
			t.Errorf("NewEmail: %v; want %q", err, c.words)
		}
	}
	if _, err := NewEmail(EmailConfig{SMTP: ok}); err != nil {
		t.Errorf("NewEmail(%v): %v", ok, err)
	}
}

// listenLoopback is a listener on 127.0.0.1 that accepts nothing until
// asked: a connection made to it waits in its backlog.
func listenLoopback(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

// arrivedBefore is how many connections reached ln before now: it
// connects once more and accepts until its own connection comes, which
// the system queues after any made earlier.
func arrivedBefore(t *testing.T, ln net.Listener) int {
	t.Helper()
	probe, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	for n := 0; ; n++ {
		c, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		mine := c.RemoteAddr().String() == probe.LocalAddr().String()
		c.Close()
		if mine {
			return n
		}
	}
}

// A channel's own mail server at an internal address is refused when
// private targets are not allowed, and nothing connects to it: an address
// as written when the channel is made, a name for the address it resolves
// to when connecting. The dashboard's own address is refused even where
// private targets are allowed.
func TestEmailGuardRefusesAChannelsInternalMailServer(t *testing.T) {
	t.Parallel()
	ln := listenLoopback(t)
	port := ln.Addr().(*net.TCPAddr).Port
	const note = ": Washboard does not connect to a channel's mail server at a loopback, private, link-local, unspecified or multicast address"
	for _, c := range []struct {
		host  string
		guard Guard
		words string
	}{
		{"127.0.0.1", Guard{}, "the mail server's address 127.0.0.1 is a loopback address" + note},
		{"10.0.0.1", Guard{}, "the mail server's address 10.0.0.1 is a private address" + note},
		{"169.254.169.254", Guard{}, "the mail server's address 169.254.169.254 is a link-local address" + note},
		{"127.0.0.1", Guard{AllowPrivate: true, Own: []string{ln.Addr().String()}},
			"the mail server's address 127.0.0.1 is Washboard's own address: the dashboard is not a mail server"},
	} {
		set := SMTPSettings{Host: c.host, Port: port, TLS: NoTLS, From: "alerts@example.com", To: []string{"a@example.com"}}
		_, err := NewEmail(EmailConfig{SMTP: set, Guard: c.guard})
		if !errors.Is(err, ErrForbiddenTarget) || !IsPermanent(err) || !strings.HasPrefix(err.Error(), c.words) {
			t.Errorf("%s: %v; want a permanent refusal saying %q", c.host, err, c.words)
		}
	}
	set := SMTPSettings{Host: "localhost", Port: port, TLS: NoTLS, From: "alerts@example.com", To: []string{"a@example.com"}}
	e, err := NewEmail(EmailConfig{SMTP: set})
	if err != nil {
		t.Fatalf("a name is resolved when connecting, not when set: %v", err)
	}
	said, err := e.Test(context.Background())
	if !errors.Is(err, ErrForbiddenTarget) || !strings.HasPrefix(said, "The test was not delivered: the mail server's address localhost resolves to ") ||
		!strings.Contains(said, "a loopback address"+note) {
		t.Errorf("Test() = %q, %v", said, err)
	}
	if n := arrivedBefore(t, ln); n != 0 {
		t.Errorf("%d connections reached the server on loopback", n)
	}
}

// The mail server the operator gave (--smtp-url) is trusted: it is used
// on loopback even where a channel's own could not be.
func TestEmailTrustedServerIsNotGuarded(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{})
	e, err := NewEmail(EmailConfig{SMTP: settingsOf(ms, StartTLS), Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Send(context.Background(), productOut()); err != nil || len(ms.Received()) != 1 {
		t.Errorf("Send: %v; %d received", err, len(ms.Received()))
	}
}

// What answers at a mail server's address but is not a mail server is not
// read out: the result says it did not greet as one and repeats nothing
// it sent, whatever the mode.
func TestEmailRepeatsNothingAServerThatIsNotAMailServerSent(t *testing.T) {
	t.Parallel()
	for _, banner := range []string{
		"500 internal-db-01 banner\r\n",
		"* OK [CAPABILITY IMAP4rev1] internal-db-01 ready\r\n",
		"HTTP/1.1 400 Bad Request\r\nServer: internal-db-01\r\n\r\n",
	} {
		for _, mode := range []TLSMode{NoTLS, StartTLS, ImplicitTLS} {
			im := mailtest.StartImpostor(t, banner, mode == ImplicitTLS)
			set := SMTPSettings{Host: im.Host, Port: im.Port, TLS: mode, From: "alerts@example.com", To: []string{"a@example.com"},
				Timeout: 5 * time.Second, TLSConfig: &tls.Config{RootCAs: im.Roots}}
			said, err := newTestEmail(t, set).Test(context.Background())
			want := "The test was not delivered: the server at " + im.Addr + " did not greet as a mail server does (with 220), so what it sent is not shown."
			if err == nil || said != want {
				t.Errorf("%s, %q: Test() = %q; want %q", mode, banner, said, want)
			}
		}
	}
}

// A mail server's reply is repeated shortened to its code and the start
// of its reason.
func TestEmailRepeatsAShortenedReply(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{})
	ms.Refuse["night@example.com"] = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: strings.Repeat("No such user here. ", 20)}
	e := asError(t, newTestEmail(t, settingsOf(ms, StartTLS)).Send(context.Background(), productOut()))
	_, reply, _ := strings.Cut(e.Error(), "refused the recipient night@example.com: ")
	if !strings.HasPrefix(reply, "550 5.1.1 No such user here.") || !strings.HasSuffix(reply, "…") || len(reply) > 110 {
		t.Errorf("error %q", e)
	}
}
