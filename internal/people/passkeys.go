package people

import (
	"context"
	"errors"
	"fmt"

	"washboard/internal/domain"
)

// ErrPasskeyCloned says that a passkey's signature counter went back: it
// may have been copied, and is not accepted.
var ErrPasskeyCloned = domain.Problem("This passkey's counter went backwards, which a copied passkey does: it was not accepted. Sign in another way, and remove it from your page.")

// NewPasskey is a passkey just registered, as the WebAuthn library gives
// it.
type NewPasskey struct {
	CredentialID []byte
	// Credential is the library's record of it (go-webauthn's
	// webauthn.Credential, as JSON).
	Credential []byte
	SignCount  uint32
	Name       string // "" names it "Passkey N"
}

// AddPasskey stores a passkey a person registered, at most MaxPasskeys
// each; domain.ErrPasskeyRegistered when it is registered already. The
// audit log of each of their accounts records it.
func (s *Service) AddPasskey(ctx context.Context, person domain.Person, k NewPasskey) (domain.Passkey, error) {
	var p domain.Passkey
	if err := checkCredential(k.CredentialID, k.Credential); err != nil {
		return p, err
	}
	name, err := checkText(PasskeyName, k.Name, domain.MaxPasskeyName, false)
	if err != nil {
		return p, err
	}
	if name == "" {
		had, err := s.store.Passkeys(ctx, person.ID)
		if err != nil {
			return p, err
		}
		name = fmt.Sprintf("Passkey %d", len(had)+1)
	}
	p = domain.Passkey{CredentialID: k.CredentialID, PersonID: person.ID, Name: name, Credential: k.Credential, SignCount: k.SignCount,
		Created: s.clock.Now()}
	actor := domain.Member{Membership: domain.Membership{PersonID: person.ID}, Name: person.Name}
	return p, s.store.AddPasskey(ctx, p, MaxPasskeys, s.auditBy(actor, domain.AuditPasskeyAdded, name))
}

func checkCredential(id, credential []byte) error {
	switch {
	case len(id) == 0 || len(id) > MaxCredentialID:
		return problem("A passkey's credential id has 1 to %d bytes; this one has %d.", MaxCredentialID, len(id))
	case len(credential) == 0 || len(credential) > MaxCredential:
		return problem("A passkey's record has 1 to %d bytes; this one has %d.", MaxCredential, len(credential))
	}
	return nil
}

// Passkeys lists a person's passkeys, oldest first.
func (s *Service) Passkeys(ctx context.Context, personID string) ([]domain.Passkey, error) {
	return s.store.Passkeys(ctx, personID)
}

// Passkey finds the passkey of a credential id, whoever's it is, to sign
// in with it: domain.ErrNotFound when there is none.
func (s *Service) Passkey(ctx context.Context, credentialID []byte) (domain.Passkey, error) {
	if len(credentialID) == 0 || len(credentialID) > MaxCredentialID {
		return domain.Passkey{}, fmt.Errorf("passkey: %w", domain.ErrNotFound)
	}
	return s.store.PasskeyByCredentialID(ctx, credentialID)
}

// UsePasskey records a sign-in with a passkey: the library's record of it
// after the sign-in and its counter (ErrPasskeyCloned when the counter
// went back), and that its person came.
func (s *Service) UsePasskey(ctx context.Context, credentialID, credential []byte, signCount uint32) error {
	if err := checkCredential(credentialID, credential); err != nil {
		return err
	}
	p, err := s.store.PasskeyByCredentialID(ctx, credentialID)
	if err != nil {
		return err
	}
	if !SignCountValid(p.SignCount, signCount) {
		return ErrPasskeyCloned
	}
	now := s.clock.Now()
	if err := s.store.UsePasskey(ctx, credentialID, credential, signCount, now); err != nil {
		return err
	}
	return s.store.TouchPerson(ctx, p.PersonID, now)
}

// RenamePasskey renames one of a person's passkeys.
func (s *Service) RenamePasskey(ctx context.Context, personID string, credentialID []byte, name string) error {
	name, err := checkText(PasskeyName, name, domain.MaxPasskeyName, true)
	if err != nil {
		return err
	}
	return s.store.RenamePasskey(ctx, personID, credentialID, name)
}

// RemovePasskey removes one of a person's passkeys; the audit log of each
// of their accounts records it.
func (s *Service) RemovePasskey(ctx context.Context, person domain.Person, credentialID []byte) error {
	p, err := s.store.PasskeyByCredentialID(ctx, credentialID)
	if err == nil && p.PersonID != person.ID {
		err = domain.ErrNotFound
	}
	if err != nil {
		if errors.Is(err, domain.ErrNotFound) {
			return fmt.Errorf("passkey of %s: %w", person.ID, domain.ErrNotFound)
		}
		return err
	}
	actor := domain.Member{Membership: domain.Membership{PersonID: person.ID}, Name: person.Name}
	return s.store.RemovePasskey(ctx, person.ID, credentialID, s.auditBy(actor, domain.AuditPasskeyRemoved, p.Name))
}
