package visitors

import (
	"context"
	"errors"
	"fmt"

	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/store"
)

// Sheet is a floor's rooms with their codes, for printing.
type Sheet struct {
	Building domain.Building
	Floor    domain.Floor
	Codes    []RoomCode
}

// RoomCode is a room and the token of its current code: "" when this
// server's keys cannot open the sealed token (the secret key changed),
// and the code must be replaced to be printed.
type RoomCode struct {
	Room  domain.Room
	Token string
}

// FloorSheet returns a floor's rooms with their current codes, making a
// code for each room that has none yet. The floor must be of a building
// the scope sees (domain.ErrNotFound otherwise).
func (s *Service) FloorSheet(ctx context.Context, account string, sc domain.BuildingScope, floorID string) (Sheet, error) {
	f, err := s.store.Floor(ctx, account, floorID)
	if err != nil {
		return Sheet{}, err
	}
	if !sc.Sees(f.BuildingID) {
		return Sheet{}, fmt.Errorf("floor %q: %w", floorID, domain.ErrNotFound)
	}
	sheet := Sheet{Floor: f}
	if sheet.Building, err = s.store.Building(ctx, account, f.BuildingID); err != nil {
		return Sheet{}, err
	}
	rooms, err := s.store.Rooms(ctx, account, f.ID)
	if err != nil {
		return Sheet{}, err
	}
	codes, err := s.codesOf(ctx, account, rooms)
	if err != nil {
		return Sheet{}, err
	}
	for _, r := range rooms {
		sheet.Codes = append(sheet.Codes, RoomCode{Room: r, Token: s.unseal(codes[r.ID])})
	}
	return sheet, nil
}

// codesOf returns the current codes of the rooms, made for those that
// had none.
func (s *Service) codesOf(ctx context.Context, account string, rooms []domain.Room) (map[string]store.RoomCode, error) {
	ids := make([]string, len(rooms))
	for i, r := range rooms {
		ids[i] = r.ID
	}
	codes, err := s.store.RoomCodes(ctx, account, ids)
	if err != nil {
		return nil, err
	}
	var missing []store.RoomCode
	for _, id := range ids {
		if _, ok := codes[id]; !ok {
			missing = append(missing, s.newCode(account, id))
		}
	}
	if len(missing) == 0 {
		return codes, nil
	}
	if err := s.store.AddRoomCodes(ctx, account, missing); err != nil {
		return nil, err
	}
	return s.store.RoomCodes(ctx, account, ids)
}

// newCode is a new random code of a room, its token sealed for the
// account and room.
func (s *Service) newCode(account, roomID string) store.RoomCode {
	token, hash := newToken()
	return store.RoomCode{Account: account, RoomID: roomID, Hash: hash, Created: s.clock.Now(),
		Sealed: s.keys.Seal(keyring.RoomCodes, []byte(token), sealedFor(account, roomID))}
}

// sealedFor binds a sealed token to its account and room: moved to
// another row, it does not open.
func sealedFor(account, roomID string) []byte { return []byte(account + "\x00" + roomID) }

// unseal opens a code's sealed token; "" when no key of the ring opens it.
func (s *Service) unseal(c store.RoomCode) string {
	plain, _, err := s.keys.Open(keyring.RoomCodes, c.Sealed, sealedFor(c.Account, c.RoomID))
	if err != nil {
		return ""
	}
	return string(plain)
}

// ReplaceCode gives a room a new code: the old one then says it was
// replaced. The room must be of a building the scope sees
// (domain.ErrNotFound otherwise).
func (s *Service) ReplaceCode(ctx context.Context, account string, sc domain.BuildingScope, roomID string) (domain.Room, error) {
	r, err := s.store.Room(ctx, account, roomID)
	if err != nil {
		return domain.Room{}, err
	}
	f, err := s.store.Floor(ctx, account, r.FloorID)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return domain.Room{}, err
	}
	if !sc.Sees(f.BuildingID) {
		return domain.Room{}, fmt.Errorf("room %q: %w", roomID, domain.ErrNotFound)
	}
	return r, s.store.ReplaceRoomCode(ctx, account, s.newCode(account, roomID))
}
