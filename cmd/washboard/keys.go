package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"washboard/internal/keyring"
	"washboard/internal/people"
	"washboard/internal/push"
	"washboard/internal/store"
)

// loadKeys builds the key ring from WASHBOARD_SECRET_KEY (or the key file
// in dir) and, during a rotation, WASHBOARD_SECRET_KEY_OLD.
func loadKeys(dir string) (*keyring.Ring, error) {
	current, err := keyring.LoadKey("WASHBOARD_SECRET_KEY", os.Getenv("WASHBOARD_SECRET_KEY"), dir)
	if err != nil {
		return nil, err
	}
	var old [][]byte
	if v := os.Getenv("WASHBOARD_SECRET_KEY_OLD"); v != "" {
		k, err := keyring.ParseKey("WASHBOARD_SECRET_KEY_OLD", v)
		if err != nil {
			return nil, err
		}
		old = append(old, k)
	}
	return keyring.New(current, old...)
}

// checkKeys compares the key with the one that sealed the data at rest. In
// a rotation it first seals again, with the new key, every session and
// every screen's credentials that an old key sealed, so that nobody is
// signed out and no screen needs a new link. A key that sealed nothing
// here is warned about, saying what it means and how to undo it.
func checkKeys(ctx context.Context, keys *keyring.Ring, st store.Store, log *slog.Logger) error {
	if keys.Rotating() {
		sessions, err := st.ResealSessions(ctx, func(b []byte) ([]byte, bool, error) {
			return keys.Reseal(keyring.Sessions, b, nil)
		})
		if err != nil {
			return fmt.Errorf("sealing sessions with the new key: %w", err)
		}
		creds, err := st.ScreenCredentials(ctx, "")
		if err != nil {
			return err
		}
		screens, err := st.ResealScreenCredentials(ctx, resealed(keys, keyring.ScreenCredentials, creds))
		if err != nil {
			return fmt.Errorf("sealing screens' credentials with the new key: %w", err)
		}
		secrets, err := st.ReceiverSecrets(ctx)
		if err != nil {
			return err
		}
		receivers, err := st.ResealReceiverSecrets(ctx, resealed(keys, keyring.WebhookSecrets, secrets))
		if err != nil {
			return fmt.Errorf("sealing webhook secrets with the new key: %w", err)
		}
		settings, err := st.AllNotificationSettings(ctx)
		if err != nil {
			return err
		}
		notifications, err := st.ResealNotificationSettings(ctx, resealed(keys, keyring.NotificationSettings, settings))
		if err != nil {
			return fmt.Errorf("sealing notification settings with the new key: %w", err)
		}
		accounts, err := people.New(st, keys, nil, people.Config{}).ResealCredentials(ctx)
		if err != nil {
			return err
		}
		devices, err := push.Reseal(ctx, st, keys) // the push keys are sealed again as they are loaded
		if err != nil {
			return fmt.Errorf("sealing push subscriptions with the new key: %w", err)
		}
		seals, err := st.RoomCodeSeals(ctx)
		if err != nil {
			return err
		}
		codes, err := st.ResealRoomCodes(ctx, resealed(keys, keyring.RoomCodes, seals))
		if err != nil {
			return fmt.Errorf("sealing room codes with the new key: %w", err)
		}
		log.Info("secret key rotated: sealed again with the new key", "sessions", sessions, "screens", screens, "webhook_receivers", receivers,
			"notification_settings", notifications, "connected_accounts", accounts, "push_subscriptions", devices, "room_codes", codes)
	}
	recorded, err := st.KeyCheck(ctx)
	if err != nil {
		return err
	}
	current, old := keys.Recognize(recorded)
	if recorded != "" && !current && !old {
		creds, err := st.ScreenCredentials(ctx, "")
		if err != nil {
			return err
		}
		lost := 0
		for id, b := range creds {
			if _, _, err := keys.Open(keyring.ScreenCredentials, b, []byte(id)); err != nil {
				lost++
			}
		}
		log.Warn("the secret key is not the one the data here was sealed with: signed-in users must sign in again, "+
			"and wall screens need new links (the Screens page names them). If the key changed by mistake, restart with the "+
			"old key; to change keys without signing anyone out, set WASHBOARD_SECRET_KEY to the new key and "+
			"WASHBOARD_SECRET_KEY_OLD to the old one", "screens_needing_a_new_link", lost)
	}
	if !current {
		return st.SetKeyCheck(ctx, keys.Check())
	}
	return nil
}

// resealed seals again with the current key the values, by id (their
// associated data), that an old key sealed.
func resealed(keys *keyring.Ring, p keyring.Purpose, sealed map[string][]byte) map[string]store.Reseal {
	out := map[string]store.Reseal{}
	for id, b := range sealed {
		if nb, changed, err := keys.Reseal(p, b, []byte(id)); err == nil && changed {
			out[id] = store.Reseal{Old: b, New: nb}
		}
	}
	return out
}
