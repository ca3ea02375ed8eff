package store

import (
	"context"
	"time"
)

// PushSubscription is a device of a person that receives Web Push
// messages, as the store keeps it: the push service's address and the
// device's keys sealed (internal/push seals and opens them), with a MAC of
// the address that tells the same device subscribed again.
type PushSubscription struct {
	ID           string
	PersonID     string
	EndpointHash []byte
	Sealed       []byte
	// Device is the device in words, "Firefox on Android", for the person
	// to tell their devices apart.
	Device  string
	Created time.Time
	// Language is the code of the language the person chose
	// (people.language), which their pushes are in; "" when they chose
	// none. PushSubscriptions reads it; AddPushSubscription ignores it.
	Language string
}

// Push keeps the people's push subscriptions and the server's push keys.
type Push interface {
	// AddPushSubscription keeps a subscription. One of the same person
	// with the same EndpointHash is replaced by it; otherwise a person
	// with max subscriptions (<= 0: no bound) already gets
	// domain.ErrLimit. The count and the insert are one step.
	AddPushSubscription(ctx context.Context, sub PushSubscription, max int) error
	// PushSubscriptions lists the subscriptions of the people, by person
	// and then oldest first.
	PushSubscriptions(ctx context.Context, people []string) ([]PushSubscription, error)
	// RemovePushSubscription removes a person's subscription;
	// domain.ErrNotFound when the person has none of the id.
	RemovePushSubscription(ctx context.Context, person, id string) error
	// PushSubscriptionSecrets returns every subscription's sealed part,
	// by id, for a rotation of the secret key.
	PushSubscriptionSecrets(ctx context.Context) (map[string][]byte, error)
	// ResealPushSubscriptions replaces subscriptions' sealed parts, by
	// id, where they are still Old; it returns how many it replaced.
	ResealPushSubscriptions(ctx context.Context, byID map[string]Reseal) (int, error)
	// ReplaceSetting replaces the value under name with value, if it is
	// still old; false when it is not.
	ReplaceSetting(ctx context.Context, name, old, value string) (bool, error)
	// KeepSetting keeps value under name unless a value is kept there
	// already, and returns the value kept: of several replicas that
	// start at once, each gets the first one's.
	KeepSetting(ctx context.Context, name, value string) (string, error)
}
