package visitors

import (
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"washboard/internal/keyring"
)

// A visitor's form carries a token of its own, as no session (and no
// cookie) is made for a visitor: the time the page was shown and a MAC of
// it and the code, with the server's key. A form posted to a room's code
// is taken only with a token of that code, less than FormTokenLife old: a
// page elsewhere cannot post one it did not fetch from Washboard, nor keep
// posting one it fetched once. (The web layer also refuses a post that
// its browser says came from another site.)

// FormTokenLife is how long a visitor's form may wait before it is sent.
const FormTokenLife = 2 * time.Hour

// FormToken is the token of a form shown now for a code's room.
func (s *Service) FormToken(p Place) string {
	at := strconv.FormatInt(s.clock.Now().Unix(), 10)
	return at + "." + hex.EncodeToString(s.keys.MAC(keyring.VisitorForms, p.Token, at))
}

// CheckFormToken reports whether a form's token was made for the code's
// room within FormTokenLife (and not in the future, a minute of clocks'
// drift aside).
func (s *Service) CheckFormToken(p Place, token string) bool {
	at, sum, ok := strings.Cut(token, ".")
	if !ok || len(at) > 20 {
		return false
	}
	unix, err := strconv.ParseInt(at, 10, 64)
	if err != nil {
		return false
	}
	mac, err := hex.DecodeString(sum)
	if err != nil {
		return false
	}
	age := s.clock.Now().Sub(time.Unix(unix, 0))
	return age > -time.Minute && age <= FormTokenLife && s.keys.VerifyMAC(keyring.VisitorForms, mac, p.Token, at)
}
