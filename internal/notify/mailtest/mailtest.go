// Package mailtest is a real SMTP server for tests: go-smtp with STARTTLS
// (or TLS from the first byte) on a certificate made for the test, and
// AUTH PLAIN, which keeps every message it is sent.
package mailtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Server is a mail server listening on 127.0.0.1.
type Server struct {
	Addr  string
	Host  string
	Port  int
	Roots *x509.CertPool // trusts the server's certificate
	User  string         // the user name and password AUTH PLAIN accepts
	Pass  string
	// Refuse holds the recipients the server refuses, and how.
	Refuse map[string]*smtp.SMTPError

	mu    sync.Mutex
	mails []Mail
	wake  chan struct{}
}

// Mail is a message the server received.
type Mail struct {
	From string
	To   []string
	Data []byte
	TLS  bool // whether it came over an encrypted connection
}

// Options change the server.
type Options struct {
	NoTLS    bool // offer no STARTTLS
	Implicit bool // speak TLS from the first byte
}

// Start starts a server that stops when the test ends.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	cert, roots := selfSigned(t)
	ms := &Server{User: "washboard", Pass: "correct horse battery", Refuse: map[string]*smtp.SMTPError{}, Roots: roots, wake: make(chan struct{})}
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &session{ms: ms, conn: c}, nil }))
	s.Domain = "localhost"
	s.ReadTimeout, s.WriteTimeout = 10*time.Second, 10*time.Second
	s.ErrorLog = log.New(io.Discard, "", 0) // a client that gives up mid-TLS is expected here
	if !o.NoTLS {
		s.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if o.Implicit {
		ln = tls.NewListener(ln, s.TLSConfig)
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	ms.Addr = ln.Addr().String()
	ms.Host = "127.0.0.1"
	ms.Port = ln.Addr().(*net.TCPAddr).Port
	return ms
}

// Received returns the messages received so far.
func (ms *Server) Received() []Mail {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]Mail(nil), ms.mails...)
}

// Wait returns the messages received once there are at least n, or
// what there is when timeout passes first.
func (ms *Server) Wait(n int, timeout time.Duration) []Mail {
	deadline := time.After(timeout)
	for {
		ms.mu.Lock()
		got, wake := len(ms.mails), ms.wake
		ms.mu.Unlock()
		if got >= n {
			return ms.Received()
		}
		select {
		case <-wake:
		case <-deadline:
			return ms.Received()
		}
	}
}

type session struct {
	ms     *Server
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != s.ms.User || pass != s.ms.Pass {
			return smtp.ErrAuthFailed
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if err := s.ms.Refuse[to]; err != nil {
		return err
	}
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, isTLS := s.conn.TLSConnectionState()
	s.ms.mu.Lock()
	s.ms.mails = append(s.ms.mails, Mail{s.from, s.to, data, isTLS})
	close(s.ms.wake)
	s.ms.wake = make(chan struct{})
	s.ms.mu.Unlock()
	return nil
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

// Impostor is a service on 127.0.0.1 that is not a mail server, such as a
// database or an SSH server a mail server's address could be pointed at:
// it writes its banner to each connection, and reads what comes until
// the other end closes.
type Impostor struct {
	Addr  string
	Host  string
	Port  int
	Roots *x509.CertPool // trusts its certificate, when it speaks TLS
}

// StartImpostor starts an impostor that writes banner, over TLS from the
// first byte when tlsToo, and stops when the test ends.
func StartImpostor(t testing.TB, banner string, tlsToo bool) *Impostor {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	im := &Impostor{Addr: ln.Addr().String(), Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port}
	if tlsToo {
		var cert tls.Certificate
		cert, im.Roots = selfSigned(t)
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}})
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				io.WriteString(c, banner)
				io.Copy(io.Discard, c) // closed after the other end, which then reads the banner whole
			}()
		}
	}()
	return im
}

// selfSigned makes a certificate for 127.0.0.1 and localhost, and a pool
// that trusts it.
func selfSigned(t testing.TB) (tls.Certificate, *x509.CertPool) {
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
