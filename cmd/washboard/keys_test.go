package main

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/people"
	"washboard/internal/store"
	"washboard/internal/store/sqlite"
)

func ring(t *testing.T, current byte, old ...byte) *keyring.Ring {
	t.Helper()
	var olds [][]byte
	for _, o := range old {
		olds = append(olds, bytes.Repeat([]byte{o}, keyring.KeySize))
	}
	r, err := keyring.New(bytes.Repeat([]byte{current}, keyring.KeySize), olds...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sealedData is a database holding a session and a screen's credentials.
type sealedData struct {
	t   *testing.T
	st  store.Store
	sdb *sql.DB
}

func newSealedData(t *testing.T, keys *keyring.Ring) *sealedData {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "washboard.db")
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sdb, err := sql.Open("sqlite", path) // the table as it is, for the test to look at
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdb.Close() })
	if _, err := sdb.Exec(`INSERT INTO sessions (token, data, expiry) VALUES ('t1', ?, julianday('now') + 1)`,
		keys.Seal(keyring.Sessions, []byte("session values"), nil)); err != nil {
		t.Fatal(err)
	}
	sc := domain.Screen{ID: "screen1", Account: "acc", Name: "Lobby", Scope: domain.ScreenScope{Kind: "account"},
		PageSeconds: 10, DimFrom: -1, DimTo: -1, Created: time.Now()}
	if err := st.CreateScreen(ctx, sc, []byte("hash"), keys.Seal(keyring.ScreenCredentials, []byte("creds"), []byte("screen1")), 0); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateReceiver(ctx, store.Receiver{ID: "rcv_1", Account: "acc", Secret: keys.Seal(keyring.WebhookSecrets, []byte("whsec_x"), []byte("rcv_1")), Created: time.Now()}, 0); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveNotificationSettings(ctx, "acc", nil, keys.Seal(keyring.NotificationSettings, []byte(`{"channels": []}`), []byte("acc")), time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := people.New(st, keys, nil, people.Config{}).SignInWithCredentials(ctx, people.CredentialsSignIn{Account: "acc",
		Cred: domain.Credentials{APIKey: "key", Authorization: "Bearer value"}, Name: "Ann"}); err != nil {
		t.Fatal(err)
	}
	if err := st.AddRoomCodes(ctx, "acc", []store.RoomCode{{RoomID: "room1", Hash: []byte("code-hash"), Created: time.Now(),
		Sealed: keys.Seal(keyring.RoomCodes, []byte("code"), []byte("acc\x00room1"))}}); err != nil {
		t.Fatal(err)
	}
	return &sealedData{t: t, st: st, sdb: sdb}
}

// opensWith reports whether the session opens with keys, and whether the
// screen's credentials, the receiver's secret and the notification
// settings do.
func (d *sealedData) opensWith(keys *keyring.Ring) (session, screen bool) {
	var data []byte
	if err := d.sdb.QueryRow(`SELECT data FROM sessions WHERE token = 't1'`).Scan(&data); err != nil {
		d.t.Fatal(err)
	}
	_, _, serr := keys.Open(keyring.Sessions, data, nil)
	creds, err := d.st.ScreenCredentials(context.Background(), "")
	if err != nil {
		d.t.Fatal(err)
	}
	_, _, cerr := keys.Open(keyring.ScreenCredentials, creds["screen1"], []byte("screen1"))
	secrets, err := d.st.ReceiverSecrets(context.Background())
	if err != nil {
		d.t.Fatal(err)
	}
	_, _, rerr := keys.Open(keyring.WebhookSecrets, secrets["rcv_1"], []byte("rcv_1"))
	settings, err := d.st.NotificationSettings(context.Background(), "acc")
	if err != nil {
		d.t.Fatal(err)
	}
	_, _, nerr := keys.Open(keyring.NotificationSettings, settings, []byte("acc"))
	codes, err := d.st.RoomCodeSeals(context.Background())
	if err != nil {
		d.t.Fatal(err)
	}
	_, _, rcerr := keys.Open(keyring.RoomCodes, codes["acc\x00room1"], []byte("acc\x00room1"))
	connected, err := people.New(d.st, keys, nil, people.Config{}).ConnectedAccounts(context.Background())
	if err != nil || len(connected) != 1 {
		d.t.Fatalf("connected accounts: %d, %v", len(connected), err)
	}
	return serr == nil, cerr == nil && rerr == nil && nerr == nil && rcerr == nil && !connected[0].NeedsCredentials
}

func TestARotationSealsEverythingAgainWithTheNewKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var logs strings.Builder
	log := slog.New(slog.NewTextHandler(&logs, nil))
	d := newSealedData(t, ring(t, 1))
	if err := checkKeys(ctx, ring(t, 1), d.st, log); err != nil {
		t.Fatal(err)
	}
	if logs.Len() != 0 {
		t.Errorf("a first start logged:\n%s", logs.String())
	}

	// The new key, with the old one: nobody is signed out.
	if err := checkKeys(ctx, ring(t, 2, 1), d.st, log); err != nil {
		t.Fatal(err)
	}
	if session, screen := d.opensWith(ring(t, 2)); !session || !screen {
		t.Errorf("after the rotation, with the new key alone: the session opens %v, the screen's credentials %v", session, screen)
	}
	if !strings.Contains(logs.String(), "sessions=1 screens=1 webhook_receivers=1 notification_settings=1 connected_accounts=1") {
		t.Errorf("the rotation does not say what it sealed again:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "room_codes=1") {
		t.Errorf("the rotation does not say it sealed the room codes again:\n%s", logs.String())
	}
	// The next start, with the new key alone, has nothing to say.
	logs.Reset()
	if err := checkKeys(ctx, ring(t, 2), d.st, log); err != nil {
		t.Fatal(err)
	}
	if logs.Len() != 0 {
		t.Errorf("a start after the rotation logged:\n%s", logs.String())
	}
}

func TestAKeyThatSealedNothingHereIsWarnedAbout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var logs strings.Builder
	log := slog.New(slog.NewTextHandler(&logs, nil))
	d := newSealedData(t, ring(t, 1))
	if err := checkKeys(ctx, ring(t, 1), d.st, log); err != nil {
		t.Fatal(err)
	}
	if err := checkKeys(ctx, ring(t, 3), d.st, log); err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	for _, want := range []string{"level=WARN", "not the one the data here was sealed with", "WASHBOARD_SECRET_KEY_OLD", "screens_needing_a_new_link=1"} {
		if !strings.Contains(out, want) {
			t.Errorf("the warning does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, string(bytes.Repeat([]byte{3}, 4))) {
		t.Error("the warning shows the key")
	}
	// The data sealed with the lost key stays as it was: the old key,
	// given back, still opens it.
	if session, screen := d.opensWith(ring(t, 1)); !session || !screen {
		t.Error("the data sealed with the old key was changed")
	}
}
