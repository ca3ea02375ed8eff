package push

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"

	"washboard/internal/keyring"
)

// A push about an alert carries "I'm on it" as an action button. The
// service worker that shows it says so to the server without the page's
// form token (there is no page): it sends the push's action token
// instead, made for one person, one account and one alert, signed with
// the server's key, good for ActionTTL. Its random part is the action's
// idempotency key, so that a token does one "I'm on it", however often it
// is sent. It travels in the push, encrypted for the device, and in a
// request header: never in an address or a log.

// ActionTTL is how long a push's "I'm on it" may be used: a shift.
const ActionTTL = 8 * time.Hour

// ActionHeader is the request header the service worker sends the token
// in.
const ActionHeader = "Washboard-Push-Action"

// Why an action token is refused.
var (
	ErrActionExpired = errors.New("this notification's action has expired")
	ErrActionRefused = errors.New("this notification's action is not for this person or alert")
)

// maxActionToken bounds a token read from a request.
const maxActionToken = 200

// ActionToken is a new token of "I'm on it" for the person, on the
// account's alert.
func (s *Service) ActionToken(person, account, alert string) string {
	nonce := strings.ToLower(rand.Text())
	payload := strconv.FormatInt(s.clk.Now().Add(ActionTTL).Unix(), 10) + "." + nonce
	sum := s.ring.MAC(keyring.PushActions, person, account, alert, payload)
	return payload + "." + base64.RawURLEncoding.EncodeToString(sum)
}

// CheckAction checks a token of "I'm on it" sent by the person, on the
// account's alert, and answers the action's idempotency key.
func (s *Service) CheckAction(token, person, account, alert string) (key string, err error) {
	if len(token) > maxActionToken {
		return "", ErrActionRefused
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", ErrActionRefused
	}
	sum, err := base64.RawURLEncoding.DecodeString(parts[2])
	payload := parts[0] + "." + parts[1]
	if err != nil || !s.ring.VerifyMAC(keyring.PushActions, sum, person, account, alert, payload) {
		return "", ErrActionRefused
	}
	expires, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil {
		return "", ErrActionRefused
	}
	if !s.clk.Now().Before(time.Unix(expires, 0)) {
		return "", ErrActionExpired
	}
	return ActionKey(token), nil
}

// ActionKey is the idempotency key of a token's action: "push-" and its
// random part; "" for what is no token.
func ActionKey(token string) string {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return ""
	}
	return "push-" + parts[1]
}
