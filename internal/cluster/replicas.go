package cluster

import (
	"context"
	"fmt"
	"log/slog"
)

// Replicas is what a replica shares with the others on one PostgreSQL
// database: the leases of the accounts' syncs and the notifications of
// their changes, each on a connection of its own.
type Replicas struct {
	leases *Leases
	notes  *Broadcaster
}

// OpenReplicas connects the leases and the notifications to the database
// at connString.
func OpenReplicas(ctx context.Context, connString string, log *slog.Logger) (*Replicas, error) {
	leases, err := OpenLeases(ctx, connString, LeasesConfig{Log: log})
	if err != nil {
		return nil, fmt.Errorf("connecting for the syncs' leases: %w", err)
	}
	notes, err := OpenBroadcaster(ctx, connString, BroadcasterConfig{Log: log})
	if err != nil {
		leases.Close()
		return nil, fmt.Errorf("connecting for the notifications between replicas: %w", err)
	}
	return &Replicas{leases: leases, notes: notes}, nil
}

// Acquire takes the lease named key, as Leases.Acquire does.
func (r *Replicas) Acquire(ctx context.Context, key string) (Lease, bool, error) {
	return r.leases.Acquire(ctx, key)
}

// Publish notifies every replica, as Broadcaster.Publish does.
func (r *Replicas) Publish(ctx context.Context, channel, payload string) error {
	return r.notes.Publish(ctx, channel, payload)
}

// Subscribe receives the notifications of a channel, as
// Broadcaster.Subscribe does.
func (r *Replicas) Subscribe(channel string) (<-chan string, func()) {
	return r.notes.Subscribe(channel)
}

// Close releases the leases and stops listening.
func (r *Replicas) Close() {
	r.notes.Close()
	r.leases.Close()
}
