package notify

import (
	"context"
	"errors"
	"testing"
)

type pusherFunc func(ctx context.Context, account string, to PushTarget, n Notification) (string, error)

func (f pusherFunc) Push(ctx context.Context, account string, to PushTarget, n Notification) (string, error) {
	return f(ctx, account, to, n)
}

// A push channel names whom it pushes to; another target is refused in
// words; a server that sends no pushes says so; the channel pushes
// through the server's Pusher for its own account.
func TestPushChannel(t *testing.T) {
	t.Parallel()
	k, ok := FindChannelKind("push")
	if !ok {
		t.Fatal("no push kind")
	}
	s, err := k.Load([]byte(`{"to":"supervisors"}`))
	if err != nil || s.Validate() != nil || s.String() != "push to the supervisors of the building" {
		t.Fatalf("loaded %v, %v", s, err)
	}
	bad := PushSettings{To: "everyone"}
	var fe *FieldError
	if err := bad.Validate(); !errors.As(err, &fe) || fe.Field != "to" || fe.Msg != `"to" must be "staff", "claim" or "supervisors", not "everyone"` {
		t.Errorf("to everyone: %v", err)
	}
	if err := s.Ready(Env{}); err == nil || err.Error() != "pushes to phones, and this server sends no pushes" {
		t.Errorf("without a Pusher: %v", err)
	}
	var got string
	ch, err := s.Open(Env{Account: "acme", Pusher: pusherFunc(func(_ context.Context, account string, to PushTarget, n Notification) (string, error) {
		got = account + " " + string(to) + " " + n.ID
		return "pushed", nil
	})})
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.Send(t.Context(), Notification{ID: "n-1", Item: Item{Kind: AlertOpened}}); err != nil || got != "acme supervisors n-1" {
		t.Errorf("Send: %v, pushed %q", err, got)
	}
}
