package people

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// A device, for the audit log, is a browser: at its first sign-in it is
// given a random value it keeps (a cookie, see web), and the people
// service keeps only that value's hash with each person who signs in
// with it. A sign-in from a device a person has not signed in from
// before is recorded in the account's audit log (signin.new_device).

// MaxSignInDevices is how many devices a person's sign-ins are compared
// with: past it, those seen longest ago are forgotten (and a sign-in from
// one of them counts as new again).
const MaxSignInDevices = 50

// deviceIDLen is the length of a device's value: 32 random bytes, in hex.
const deviceIDLen = 64

// NewDeviceID returns a random value for a browser to keep: its identity
// as a device.
func NewDeviceID() string { return newID(deviceIDLen / 2) }

// ValidDeviceID reports whether a value a browser sent is one NewDeviceID
// makes: anything else counts as no value, and the browser gets a new one.
func ValidDeviceID(id string) bool {
	if len(id) != deviceIDLen {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

// SignedIn records that a member signed in, the way said in words
// ("with an e-mailed link"), from the device whose value is device, and
// reports whether the device is new for them: then the account's audit
// log records signin.new_device. Every way in calls it when a person's
// session starts.
func (s *Service) SignedIn(ctx context.Context, m domain.Member, device, way string) (bool, error) {
	if !ValidDeviceID(device) {
		return false, problem("A device's value is not one Washboard makes.")
	}
	h := sha256.Sum256([]byte("signin-device\x00" + device))
	subject := m.Name + " signed in " + way + " from a device not seen before"
	return s.store.SeeSignInDevice(ctx, m.PersonID, m.Account, h[:], s.clock.Now(), MaxSignInDevices,
		store.Audit{At: s.clock.Now(), ActorID: m.PersonID, ActorName: m.Name, Action: domain.AuditSignInNewDevice, Subject: subject})
}
