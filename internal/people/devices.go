package people

import (
	"context"
	"fmt"
	"slices"
	"time"

	"washboard/internal/domain"
)

// ErrDeviceRevoked says that a device was enrolled, and signed out since.
var ErrDeviceRevoked = domain.ErrEnrolmentRevoked

// Enrol enrols a shared device for a member of the actor's account, as the
// actor may (MayEnrol): a long-lived sign-in of that person, in that
// account, on that device only. It returns the device and its token,
// shown once (in a QR code); only the token's hash is kept. An account
// keeps at most MaxDevices, revoked ones until they are removed.
func (s *Service) Enrol(ctx context.Context, actor domain.Member, personID, name string) (domain.EnrolledDevice, string, error) {
	var d domain.EnrolledDevice
	name, err := checkText(DeviceName, name, domain.MaxDeviceName, true)
	if err != nil {
		return d, "", err
	}
	member, err := s.Member(ctx, actor.Account, personID)
	if err != nil {
		return d, "", err
	}
	if err := MayEnrol(actor.Membership, member.Membership); err != nil {
		return d, "", err
	}
	d = domain.EnrolledDevice{ID: newID(8), Account: actor.Account, PersonID: personID, PersonName: member.Name, Name: name,
		MadeBy: actor.PersonID, MadeByName: actor.Name, Created: s.clock.Now()}
	token, hash := newToken(deviceToken)
	if err := limited(s.store.EnrolDevice(ctx, d, hash, MaxDevices, s.auditBy(actor, domain.AuditDeviceEnrolled, name+" for "+member.Name)),
		ErrDevicesFull); err != nil {
		return d, "", err
	}
	return d, token, nil
}

// EnrolledDevices lists the account's enrolled devices, newest first.
func (s *Service) EnrolledDevices(ctx context.Context, account string) ([]domain.EnrolledDevice, error) {
	return s.store.EnrolledDevices(ctx, account)
}

// DevicesSeenBy lists the account's enrolled devices a supervisor sees,
// and may revoke and remove, newest first: those of people whose
// buildings are within theirs (all of them for one limited to none).
func (s *Service) DevicesSeenBy(ctx context.Context, actor domain.Member) ([]domain.EnrolledDevice, error) {
	if !AtLeast(actor.Membership, domain.Supervisor) {
		return nil, forbidden("Only supervisors, admins and owners can see the enrolled devices.")
	}
	all, err := s.store.EnrolledDevices(ctx, actor.Account)
	if err != nil || len(actor.Buildings) == 0 {
		return all, err
	}
	members, err := s.store.Members(ctx, actor.Account)
	if err != nil {
		return nil, err
	}
	scope := make(map[string][]string, len(members))
	for _, m := range members {
		scope[m.PersonID] = m.Buildings
	}
	seen := all[:0]
	for _, d := range all {
		if b, ok := scope[d.PersonID]; ok && within(actor.Membership, b) {
			seen = append(seen, d)
		}
	}
	return seen, nil
}

// EnrolmentChoices lists the account's members the actor may enrol a
// device for (MayEnrol), by name.
func (s *Service) EnrolmentChoices(ctx context.Context, actor domain.Member) ([]domain.Member, error) {
	members, err := s.store.Members(ctx, actor.Account)
	if err != nil {
		return nil, err
	}
	var out []domain.Member
	for _, m := range members {
		if MayEnrol(actor.Membership, m.Membership) == nil {
			out = append(out, m)
		}
	}
	return out, nil
}

// deviceSeenBy is one of the devices the actor sees (DevicesSeenBy);
// domain.ErrNotFound when it is none of them.
func (s *Service) deviceSeenBy(ctx context.Context, actor domain.Member, id string) (domain.EnrolledDevice, error) {
	all, err := s.DevicesSeenBy(ctx, actor)
	if err != nil {
		return domain.EnrolledDevice{}, err
	}
	i := slices.IndexFunc(all, func(d domain.EnrolledDevice) bool { return d.ID == id })
	if i < 0 {
		return domain.EnrolledDevice{}, fmt.Errorf("enrolled device %q: %w", id, domain.ErrNotFound)
	}
	return all[i], nil
}

// EnrolledDevicesOf lists a person's enrolled devices, in every account.
func (s *Service) EnrolledDevicesOf(ctx context.Context, personID string) ([]domain.EnrolledDevice, error) {
	return s.store.EnrolledDevicesOf(ctx, personID)
}

// Device returns the enrolled device a token signs in, with its person's
// membership of the account: the person it acts as. domain.ErrNotFound
// when the token opens none, or its person left the account;
// ErrDeviceRevoked when it was revoked. Its use is recorded, at most once
// a minute.
func (s *Service) Device(ctx context.Context, token string) (domain.EnrolledDevice, domain.Member, error) {
	hash, ok := hashOf(deviceToken, token)
	if !ok {
		return domain.EnrolledDevice{}, domain.Member{}, fmt.Errorf("enrolled device: %w", domain.ErrNotFound)
	}
	d, err := s.store.EnrolledDeviceByToken(ctx, hash)
	if err != nil {
		return d, domain.Member{}, err
	}
	if !d.Revoked.IsZero() {
		return d, domain.Member{}, ErrDeviceRevoked
	}
	m, err := s.Member(ctx, d.Account, d.PersonID)
	if err != nil {
		return d, m, err
	}
	if now := s.clock.Now(); now.Sub(d.LastSeen) >= time.Minute {
		if err := s.store.TouchEnrolledDevice(ctx, d.ID, now); err != nil {
			return d, m, err
		}
		d.LastSeen = now
	}
	return d, m, nil
}

// OpenDevice opens a device's enrolment link (the token Enrol gave), once:
// it returns the device, its person's membership, and the device's key,
// a new token the device keeps (in a cookie) in place of the link's,
// whose hash replaces the link's: the link opens nothing more, and only
// the device that opened it signs in with the key (Device). It is
// domain.ErrNotFound for a token that opens nothing, domain.ErrEnrolmentUsed
// for a link opened already, ErrDeviceRevoked for a device revoked.
func (s *Service) OpenDevice(ctx context.Context, link string) (domain.EnrolledDevice, domain.Member, string, error) {
	linkHash, ok := hashOf(deviceToken, link)
	if !ok {
		return domain.EnrolledDevice{}, domain.Member{}, "", fmt.Errorf("enrolled device: %w", domain.ErrNotFound)
	}
	key, keyHash := newToken(deviceToken)
	d, err := s.store.OpenEnrolledDevice(ctx, linkHash, keyHash, s.clock.Now())
	if err != nil {
		return d, domain.Member{}, "", err
	}
	m, err := s.Member(ctx, d.Account, d.PersonID)
	if err != nil {
		return d, m, "", err
	}
	return d, m, key, nil
}

// RecordDeviceSession records that a session, recorded as its person's
// (RecordSession), is signed in by an enrolled device: revoking the
// device ends it.
func (s *Service) RecordDeviceSession(ctx context.Context, token, device string) error {
	return s.store.RecordSessionDevice(ctx, token, device)
}

// RevokeDevice signs out one of the account's enrolled devices that the
// actor sees (DevicesSeenBy): supervisors and above. It returns the token
// hashes of the sessions the device had, which it ended, for the caller
// to drop and announce to the other replicas.
func (s *Service) RevokeDevice(ctx context.Context, actor domain.Member, id string) ([]string, error) {
	if !AtLeast(actor.Membership, domain.Supervisor) {
		return nil, forbidden("Only supervisors, admins and owners can revoke enrolled devices.")
	}
	d, err := s.deviceSeenBy(ctx, actor, id)
	if err != nil {
		return nil, err
	}
	return s.store.RevokeEnrolledDevice(ctx, actor.Account, id, s.auditBy(actor, domain.AuditDeviceRevoked, d.Name+" for "+d.PersonName))
}

// RevokeOwnDevice signs out one of the devices enrolled for the actor, in
// any account: whatever their role, a person may sign out a device that
// signs in as them (one lost, or no longer shared). It returns the token
// hashes of the sessions it ended, as RevokeDevice does.
func (s *Service) RevokeOwnDevice(ctx context.Context, actor domain.Member, id string) ([]string, error) {
	all, err := s.store.EnrolledDevicesOf(ctx, actor.PersonID)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(all, func(d domain.EnrolledDevice) bool { return d.ID == id })
	if i < 0 {
		return nil, fmt.Errorf("enrolled device %q: %w", id, domain.ErrNotFound)
	}
	return s.store.RevokeEnrolledDevice(ctx, all[i].Account, id, s.auditBy(actor, domain.AuditDeviceRevoked, all[i].Name+" for "+all[i].PersonName))
}

// RemoveDevice removes a revoked device the actor sees (DevicesSeenBy)
// from the account's list: supervisors and above.
func (s *Service) RemoveDevice(ctx context.Context, actor domain.Member, id string) error {
	if !AtLeast(actor.Membership, domain.Supervisor) {
		return forbidden("Only supervisors, admins and owners can remove enrolled devices.")
	}
	if _, err := s.deviceSeenBy(ctx, actor, id); err != nil {
		return err
	}
	return s.store.RemoveEnrolledDevice(ctx, actor.Account, id)
}
