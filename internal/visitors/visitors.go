// Package visitors holds the rooms' codes and what is done with them
// (docs/visitors.md): a random code per room, printed as a QR code (or
// written on an NFC tag) at the room's door; a person of the account who
// opens it records that they were there (a presence scan); anyone else
// may say what is wrong in the washroom and rate it, without signing in
// and without anything about them being kept. Throttles in memory keep
// what one address, and what one room, may send.
package visitors

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/store"
)

// Store is what the service reads and writes of the cache.
type Store interface {
	Room(ctx context.Context, account, id string) (domain.Room, error)
	Floor(ctx context.Context, account, id string) (domain.Floor, error)
	Building(ctx context.Context, account, id string) (domain.Building, error)
	Rooms(ctx context.Context, account, floor string) ([]domain.Room, error)
	RoomCodes(ctx context.Context, account string, rooms []string) (map[string]store.RoomCode, error)
	AddRoomCodes(ctx context.Context, account string, codes []store.RoomCode) error
	ReplaceRoomCode(ctx context.Context, account string, c store.RoomCode) error
	RoomCodeByHash(ctx context.Context, hash []byte) (store.RoomCode, error)
	AddPresenceScan(ctx context.Context, account string, sc domain.PresenceScan, max int) (bool, error)
	AddVisitorReport(ctx context.Context, account string, r domain.VisitorReport, max int) (int64, error)
	AddVisitorFlood(ctx context.Context, account, room string, at, since time.Time, max int) (bool, error)
	VisitorReports(ctx context.Context, account string, f store.VisitorReportFilter) ([]domain.VisitorReport, error)
}

// The bounds of what an account keeps (besides store.VisitorRecordsKept):
// its newest MaxReports visitors' reports (flood markers included) and
// MaxScans presence scans.
const (
	MaxReports = 20_000
	MaxScans   = 100_000
)

// Service keeps the rooms' codes and records what is done with them.
type Service struct {
	store    Store
	keys     *keyring.Ring
	clock    clock.Clock
	throttle *throttle
	// reported, when set, is told of each report or flood marker kept
	// that is an alert (OnReport).
	reported func(account string)
}

// OnReport has f told of each report kept that is an alert, and of each
// flood marker, once it is committed: the pages that list alerts and the
// notifier look again at once.
func (s *Service) OnReport(f func(account string)) { s.reported = f }

// tell tells OnReport's function of a change to the account's reports.
func (s *Service) tell(account string) {
	if s.reported != nil {
		s.reported(account)
	}
}

// New returns the service.
func New(st Store, keys *keyring.Ring, c clock.Clock) *Service {
	if c == nil {
		c = clock.Real{}
	}
	return &Service{store: st, keys: keys, clock: c, throttle: newThrottle(DefaultLimits)}
}

// Why a code does not open a room.
var (
	// ErrUnknownCode: no room has, or had lately, a code of this token.
	ErrUnknownCode = fmt.Errorf("no room has this code: %w", domain.ErrNotFound)
	// ErrReplaced: the code was the room's, and a supervisor replaced it.
	ErrReplaced = errors.New("this room's code was replaced")
	// ErrRoomGone: the code's room is no longer in the account's layout.
	ErrRoomGone = errors.New("this code's room is no longer in the account's layout")
)

// tokenBytes is the length of a code's random token: 128 bits, which no
// one guesses, in 22 characters that keep the QR code coarse enough for
// a phone's camera across a washroom.
const tokenBytes = 16

var tokenLen = base64.RawURLEncoding.EncodedLen(tokenBytes)

// newToken returns a random token and its hash.
func newToken() (string, []byte) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	h, _ := hashOf(token)
	return token, h
}

// hashOf is the hash of a token as the store keeps it; false when token
// is not one as handed out (its length, its alphabet).
func hashOf(token string) ([]byte, bool) {
	if len(token) != tokenLen {
		return nil, false
	}
	if _, err := base64.RawURLEncoding.DecodeString(token); err != nil {
		return nil, false
	}
	h := sha256.Sum256([]byte("room-code\x00" + token))
	return h[:], true
}

// Place is the room a code opens, where it is, and whose it is.
type Place struct {
	Account  string
	Building domain.Building
	Floor    domain.Floor
	Room     domain.Room
	// Token is the code's token, as opened.
	Token string
}

// Open finds the room of a code: ErrUnknownCode, ErrReplaced or
// ErrRoomGone when the code opens none.
func (s *Service) Open(ctx context.Context, token string) (Place, error) {
	h, ok := hashOf(token)
	if !ok {
		return Place{}, ErrUnknownCode
	}
	c, err := s.store.RoomCodeByHash(ctx, h)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return Place{}, ErrUnknownCode
	case err != nil:
		return Place{}, err
	case !c.Replaced.IsZero():
		return Place{}, ErrReplaced
	}
	p := Place{Account: c.Account, Token: token}
	if p.Room, err = s.store.Room(ctx, c.Account, c.RoomID); errors.Is(err, domain.ErrNotFound) {
		return Place{}, ErrRoomGone
	} else if err != nil {
		return Place{}, err
	}
	if p.Floor, err = s.store.Floor(ctx, c.Account, p.Room.FloorID); err != nil && !errors.Is(err, domain.ErrNotFound) {
		return Place{}, err
	}
	if p.Building, err = s.store.Building(ctx, c.Account, p.Floor.BuildingID); err != nil && !errors.Is(err, domain.ErrNotFound) {
		return Place{}, err
	}
	return p, nil
}
