// Package pushtest is a push service for tests: it takes pushes as a
// browser vendor's does (RFC 8030), checks each one's VAPID signature and
// claims (RFC 8292), decrypts it with the keys of the device it is for
// (RFC 8291), and answers as the test says: 201, or 429, 500, 410, or not
// at all.
package pushtest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/push"
)

// Hang is an answer that never comes: the push service holds the request
// until the pusher gives up.
const Hang = -1

// Push is a push the service took: decrypted, its signature checked.
type Push struct {
	Device  string // the device's name in NewDevice
	Plain   []byte // what the pusher encrypted
	TTL     string
	Urgency string
	Topic   string
	// Subject is the VAPID "sub" claim: who to write to.
	Subject string
	// At is when the push service took it.
	At time.Time
}

// Server is a push service on loopback, over TLS.
type Server struct {
	*httptest.Server
	// Key is the VAPID public key pushes must be signed with (base64url);
	// any key is taken when empty.
	Key string

	mu      sync.Mutex
	devices map[string]*Device // by path
	answers []int              // the next answers, in order; then 201
	pushes  []Push
	refused []string // why pushes were refused: a signature, a claim, a decryption
	hang    chan struct{}
}

// Device is a browser's subscription, with the private keys that only the
// browser holds.
type Device struct {
	Name string
	Sub  push.Subscription
	priv *ecdh.PrivateKey
	auth []byte
}

// New starts a push service, closed when the test ends.
func New(t testing.TB) *Server {
	s := &Server{devices: map[string]*Device{}, hang: make(chan struct{})}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		close(s.hang)
		s.Close()
	})
	return s
}

// TLS is the client configuration that trusts the service's certificate.
func (s *Server) TLS() *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(s.Certificate())
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

// NewDevice makes a device's keys and its subscription at the service.
func (s *Server) NewDevice(t testing.TB, name string) *Device {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	path := "/push/" + rand.Text()
	d := &Device{Name: name, priv: priv, auth: auth, Sub: push.Subscription{
		Endpoint: s.URL + path,
		P256dh:   base64.RawURLEncoding.EncodeToString(priv.PublicKey().Bytes()),
		Auth:     base64.RawURLEncoding.EncodeToString(auth),
	}}
	s.mu.Lock()
	s.devices[path] = d
	s.mu.Unlock()
	return d
}

// Answer makes the next pushes be answered with these statuses, in
// order (Hang for none); then 201 again.
func (s *Server) Answer(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers = append(s.answers, statuses...)
}

// Pushes returns the pushes taken so far.
func (s *Server) Pushes() []Push {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Push(nil), s.pushes...)
}

// Refused returns why pushes were refused: a bad signature, claim or
// encryption. A test expects none.
func (s *Server) Refused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refused...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	d := s.devices[r.URL.Path]
	s.mu.Unlock()
	if r.Method != http.MethodPost || d == nil {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 8<<10))
	if err != nil {
		return
	}
	p, err := s.check(r, d, body)
	s.mu.Lock()
	if err != nil {
		s.refused = append(s.refused, err.Error())
		s.mu.Unlock()
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	status := http.StatusCreated
	if len(s.answers) > 0 {
		status, s.answers = s.answers[0], s.answers[1:]
	}
	if status == http.StatusCreated {
		p.At = time.Now()
		s.pushes = append(s.pushes, p)
	}
	s.mu.Unlock()
	if status == Hang {
		select {
		case <-r.Context().Done():
		case <-s.hang:
		}
		return
	}
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "120")
	}
	w.WriteHeader(status)
}

// check verifies a push's VAPID header and decrypts its body.
func (s *Server) check(r *http.Request, d *Device, body []byte) (Push, error) {
	sub, err := s.checkVAPID(r.Header.Get("Authorization"), d.Sub.Endpoint)
	if err != nil {
		return Push{}, fmt.Errorf("VAPID: %w", err)
	}
	if r.Header.Get("Content-Encoding") != "aes128gcm" {
		return Push{}, errors.New("the Content-Encoding is not aes128gcm")
	}
	plain, err := Decrypt(body, d.priv, d.auth)
	if err != nil {
		return Push{}, fmt.Errorf("decrypting: %w", err)
	}
	return Push{Device: d.Name, Plain: plain, TTL: r.Header.Get("TTL"), Urgency: r.Header.Get("Urgency"),
		Topic: r.Header.Get("Topic"), Subject: sub}, nil
}

// checkVAPID verifies "vapid t=<JWT>, k=<key>": the JWT's ES256 signature
// with the key, its aud (the push service's origin), exp (in the future,
// at most 24 hours ahead) and sub (a mailto: or https: contact). It
// returns the sub.
func (s *Server) checkVAPID(h, endpoint string) (string, error) {
	rest, ok := strings.CutPrefix(h, "vapid ")
	if !ok {
		return "", errors.New("the Authorization is not vapid")
	}
	var token, key string
	for part := range strings.SplitSeq(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			token = v
		case "k":
			key = v
		}
	}
	if s.Key != "" && key != s.Key {
		return "", errors.New("signed with another key than the server's")
	}
	rawKey, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil {
		return "", errors.New("the key is not base64url")
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), rawKey)
	if err != nil {
		return "", fmt.Errorf("the key is not a P-256 point: %w", err)
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", errors.New("the token is not a JWT")
	}
	var header struct{ Alg, Typ string }
	if err := decodeJSON(parts[0], &header); err != nil || header.Alg != "ES256" {
		return "", fmt.Errorf("the JWT's header is not ES256: %+v", header)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return "", errors.New("the JWT's signature is not 64 bytes")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return "", errors.New("the JWT's signature does not verify with the key")
	}
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	if err := decodeJSON(parts[1], &claims); err != nil {
		return "", errors.New("the JWT's claims do not read")
	}
	origin := endpoint[:strings.Index(endpoint[len("https://"):], "/")+len("https://")]
	now := time.Now() // the push service's own clock, as a real one's
	switch exp := time.Unix(claims.Exp, 0); {
	case claims.Aud != origin:
		return "", fmt.Errorf("aud is %q, not the push service's origin %q", claims.Aud, origin)
	case !exp.After(now):
		return "", errors.New("exp has passed")
	case exp.After(now.Add(24 * time.Hour)):
		return "", errors.New("exp is more than 24 hours ahead")
	case !strings.HasPrefix(claims.Sub, "mailto:") && !strings.HasPrefix(claims.Sub, "https://"):
		return "", fmt.Errorf("sub %q is not a mailto: or https: contact", claims.Sub)
	}
	return claims.Sub, nil
}

func decodeJSON(part string, v any) error {
	raw, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

// Decrypt opens an aes128gcm body (RFC 8188) encrypted for a device by
// RFC 8291: with the device's private key and authentication secret.
func Decrypt(body []byte, priv *ecdh.PrivateKey, auth []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("the body is shorter than its header")
	}
	salt, rs, idLen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idLen != 65 || len(body) < 21+idLen {
		return nil, fmt.Errorf("the key id is %d bytes, not the sender's 65-byte public key", idLen)
	}
	senderRaw, ciphertext := body[21:21+idLen], body[21+idLen:]
	if rs < 18 || uint32(len(ciphertext)) > rs {
		return nil, fmt.Errorf("the body is %d bytes, more than one record of %d", len(ciphertext), rs)
	}
	sender, err := ecdh.P256().NewPublicKey(senderRaw)
	if err != nil {
		return nil, fmt.Errorf("the sender's key: %w", err)
	}
	secret, err := priv.ECDH(sender)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), priv.PublicKey().Bytes()...), senderRaw...)
	ikm, err := hkdf.Key(sha256.New, secret, auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	padded, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		return nil, errors.New("the body does not open with the device's keys")
	}
	end := len(padded) - 1
	for end >= 0 && padded[end] == 0 {
		end--
	}
	if end < 0 || padded[end] != 2 {
		return nil, errors.New("the last record does not end with the delimiter 2")
	}
	return padded[:end], nil
}
