package notify

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"washboard/internal/clock"
)

// mailServer is a real SMTP server in the test: go-smtp with STARTTLS (a
// certificate made for the test) and AUTH PLAIN, which keeps what it is
// sent.
type mailServer struct {
	addr   string
	host   string
	port   int
	roots  *x509.CertPool // trusts the server's certificate
	user   string
	pass   string
	refuse map[string]*smtp.SMTPError // by recipient

	mu    sync.Mutex
	mails []receivedMail
}

type receivedMail struct {
	from string
	to   []string
	data []byte
	tls  bool
}

type serverOptions struct {
	noTLS    bool // offer no STARTTLS
	implicit bool // speak TLS from the first byte
}

func newMailServer(t *testing.T, o serverOptions) *mailServer {
	t.Helper()
	cert, roots := selfSigned(t)
	ms := &mailServer{user: "washboard", pass: "correct horse battery", refuse: map[string]*smtp.SMTPError{}, roots: roots}
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &mailSession{ms: ms, conn: c}, nil }))
	s.Domain = "localhost"
	s.ReadTimeout, s.WriteTimeout = 10*time.Second, 10*time.Second
	s.ErrorLog = log.New(io.Discard, "", 0) // a client that gives up mid-TLS is expected here
	if !o.noTLS {
		s.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if o.implicit {
		ln = tls.NewListener(ln, s.TLSConfig)
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	ms.addr = ln.Addr().String()
	ms.host = "127.0.0.1"
	ms.port = ln.Addr().(*net.TCPAddr).Port
	return ms
}

func (ms *mailServer) received() []receivedMail {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]receivedMail(nil), ms.mails...)
}

// settings are a channel's settings for the server, in mode.
func (ms *mailServer) settings(mode TLSMode) SMTPSettings {
	return SMTPSettings{
		Host: ms.host, Port: ms.port, TLS: mode, User: ms.user, Password: ms.pass,
		From: "Washboard <alerts@washboard.example.com>", To: []string{"facilities@example.com", "Night Shift <night@example.com>"},
		Timeout: 5 * time.Second, TLSConfig: &tls.Config{RootCAs: ms.roots},
	}
}

type mailSession struct {
	ms     *mailServer
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (s *mailSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *mailSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != s.ms.user || pass != s.ms.pass {
			return smtp.ErrAuthFailed
		}
		s.authed = true
		return nil
	}), nil
}

func (s *mailSession) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if err := s.ms.refuse[to]; err != nil {
		return err
	}
	s.to = append(s.to, to)
	return nil
}

func (s *mailSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, isTLS := s.conn.TLSConnectionState()
	s.ms.mu.Lock()
	s.ms.mails = append(s.ms.mails, receivedMail{s.from, s.to, data, isTLS})
	s.ms.mu.Unlock()
	return nil
}

func (s *mailSession) Reset()        { s.from, s.to = "", nil }
func (s *mailSession) Logout() error { return nil }

// selfSigned makes a certificate for 127.0.0.1 and localhost, and a pool
// that trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test mail server"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, roots
}

func newTestEmail(t *testing.T, set SMTPSettings) *Email {
	t.Helper()
	e, err := NewEmail(EmailConfig{SMTP: set, Clock: clock.NewFake(decided), Link: "https://washboard.example.com/"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Over STARTTLS, signed in with AUTH PLAIN, the server receives one
// message for both recipients, encrypted, with the headers and parts a
// mail client shows, and HTML that loads nothing.
func TestEmailIsDeliveredOverSTARTTLSWithSignIn(t *testing.T) {
	ms := newMailServer(t, serverOptions{})
	e := newTestEmail(t, ms.settings(StartTLS))
	if err := e.Send(context.Background(), productOut()); err != nil {
		t.Fatal(err)
	}
	mails := ms.received()
	if len(mails) != 1 {
		t.Fatalf("the server received %d messages, want 1", len(mails))
	}
	m := mails[0]
	if !m.tls || m.from != "alerts@washboard.example.com" || strings.Join(m.to, ",") != "facilities@example.com,night@example.com" {
		t.Errorf("envelope from %q to %v, TLS %v", m.from, m.to, m.tls)
	}
	parts := readEmail(t, m.data)
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
	if !bytes.Equal(bytes.ReplaceAll(m.data, []byte("\r\n"), []byte("\n")), bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n"))) {
		t.Errorf("the server received other bytes than EmailMessage writes")
	}
}

// With implicit TLS (smtps) the message arrives encrypted too.
func TestEmailIsDeliveredOverImplicitTLS(t *testing.T) {
	ms := newMailServer(t, serverOptions{implicit: true})
	e := newTestEmail(t, ms.settings(ImplicitTLS))
	if err := e.Send(context.Background(), digest()); err != nil {
		t.Fatal(err)
	}
	if mails := ms.received(); len(mails) != 1 || !mails[0].tls {
		t.Errorf("received %d messages (TLS %v)", len(mails), len(mails) == 1 && mails[0].tls)
	}
}

// A wrong password is a permanent failure that says so, with the
// server's reply, and does not repeat the password.
func TestEmailWrongPasswordIsPermanent(t *testing.T) {
	ms := newMailServer(t, serverOptions{})
	set := ms.settings(StartTLS)
	set.Password = "Tr0ub4dor&3"
	e := asError(t, newTestEmail(t, set).Send(context.Background(), productOut()))
	want := "the mail server " + ms.addr + " refused the user name or password: 535 5.7.8 Authentication failed"
	if !e.Permanent || e.Code != 535 || e.Error() != want {
		t.Errorf("error %q (permanent %v, code %d), want permanent %q", e, e.Permanent, e.Code, want)
	}
	if strings.Contains(e.Error(), "Tr0ub4dor") || len(ms.received()) != 0 {
		t.Errorf("error %q; %d messages received", e, len(ms.received()))
	}
}

// A recipient the server refuses for good is a permanent failure naming
// the recipient; nobody gets the message, so that a resend after the
// address is fixed sends no one a second copy. A recipient refused for now
// is transient.
func TestEmailRefusedRecipient(t *testing.T) {
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
		ms := newMailServer(t, serverOptions{})
		ms.refuse["night@example.com"] = c.reply
		e := asError(t, newTestEmail(t, ms.settings(StartTLS)).Send(context.Background(), productOut()))
		if e.Permanent != c.permanent || e.Code != c.reply.Code || !strings.HasSuffix(e.Error(), c.words) {
			t.Errorf("error %q (permanent %v, code %d), want permanent %v and %q", e, e.Permanent, e.Code, c.permanent, c.words)
		}
		if n := len(ms.received()); n != 0 {
			t.Errorf("%d messages received; want none when a recipient is refused", n)
		}
	}
}

// A server that is not there, or that does not answer, is a transient
// failure: it may be back later.
func TestEmailUnreachableServerIsTransient(t *testing.T) {
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
	ms := newMailServer(t, serverOptions{noTLS: true})
	e := asError(t, newTestEmail(t, ms.settings(StartTLS)).Send(context.Background(), productOut()))
	if !e.Permanent || !strings.Contains(e.Error(), "does not offer STARTTLS") {
		t.Errorf("error %q (permanent %v)", e, e.Permanent)
	}
}

// Implicit TLS to a server that starts in plain text is a permanent
// failure that says which mode to use.
func TestEmailImplicitTLSToAPlainServerIsPermanent(t *testing.T) {
	ms := newMailServer(t, serverOptions{})
	e := asError(t, newTestEmail(t, ms.settings(ImplicitTLS)).Send(context.Background(), productOut()))
	if !e.Permanent || !strings.Contains(e.Error(), "does not speak TLS from the start; use smtp:// (STARTTLS)") {
		t.Errorf("error %q (permanent %v)", e, e.Permanent)
	}
}

// A certificate the channel does not trust is a permanent failure that
// says so.
func TestEmailUntrustedCertificateIsPermanent(t *testing.T) {
	ms := newMailServer(t, serverOptions{})
	set := ms.settings(StartTLS)
	set.TLSConfig = nil // the system's roots, which do not know the test's certificate
	e := asError(t, newTestEmail(t, set).Send(context.Background(), productOut()))
	if !e.Permanent || !strings.Contains(e.Error(), "certificate is not valid") || len(ms.received()) != 0 {
		t.Errorf("error %q (permanent %v)", e, e.Permanent)
	}
}

// "Send a test" says in words what happened, either way.
func TestEmailTestSaysWhatHappened(t *testing.T) {
	ms := newMailServer(t, serverOptions{})
	said, err := newTestEmail(t, ms.settings(StartTLS)).Test(context.Background())
	want := ms.addr + " accepted the test e-mail for facilities@example.com, night@example.com (STARTTLS, signed in as washboard)."
	if err != nil || said != want {
		t.Errorf("Test() = %q, %v; want %q", said, err, want)
	}
	if mails := ms.received(); len(mails) != 1 || !bytes.Contains(mails[0].data, []byte("Subject: Test notification from Washboard")) {
		t.Errorf("the test message did not arrive")
	}

	set := ms.settings(StartTLS)
	set.Password = "wrong password"
	said, err = newTestEmail(t, set).Test(context.Background())
	if err == nil || !strings.HasPrefix(said, "The test was not delivered: the mail server "+ms.addr+" refused the user name or password") {
		t.Errorf("Test() = %q, %v", said, err)
	}
}

// The URL form of the settings reads as documented, and its errors name
// the part at fault without repeating the password.
func TestParseSMTPURL(t *testing.T) {
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
