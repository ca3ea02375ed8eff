package keyring

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ParseKey reads a secret key written in base64 or hex. name is what the
// error calls the value (an environment variable).
func ParseKey(name, value string) ([]byte, error) {
	value = strings.TrimSpace(value)
	for _, dec := range []func(string) ([]byte, error){
		base64.StdEncoding.DecodeString, base64.RawStdEncoding.DecodeString, base64.URLEncoding.DecodeString,
		base64.RawURLEncoding.DecodeString, hex.DecodeString,
	} {
		if k, err := dec(value); err == nil && len(k) == KeySize {
			return k, nil
		}
	}
	return nil, fmt.Errorf("%s must hold %d bytes, in base64 or hex (e.g. from `openssl rand -base64 32`)", name, KeySize)
}

// LoadKey returns the secret key: from value (base64 or hex, as the
// environment variable name holds it) when it is set, otherwise from the
// file secret.key in dir, made with mode 0600 on first start.
func LoadKey(name, value, dir string) ([]byte, error) {
	if strings.TrimSpace(value) != "" {
		return ParseKey(name, value)
	}
	path := filepath.Join(dir, "secret.key")
	if b, err := os.ReadFile(path); err == nil {
		k, err := hex.DecodeString(string(bytes.TrimSpace(b)))
		if err != nil || len(k) != KeySize {
			return nil, fmt.Errorf("%s does not hold a %d-byte hex key", path, KeySize)
		}
		return k, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	k := make([]byte, KeySize)
	if _, err := rand.Read(k); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", path, err)
	}
	if _, err := f.WriteString(hex.EncodeToString(k) + "\n"); err != nil {
		f.Close()
		return nil, err
	}
	return k, f.Close()
}
