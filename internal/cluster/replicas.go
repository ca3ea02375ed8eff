package cluster

import (
	"context"
	"fmt"
	"log/slog"
)

// Replicas is what a replica shares with the others on one PostgreSQL
// database: the leases of the accounts' syncs and the announcements of
// their changes, each on a connection of its own.
type Replicas struct {
	leases      *Leases
	broadcaster *Broadcaster
}

// OpenReplicas connects the leases and the announcements to the database
// at connString.
func OpenReplicas(ctx context.Context, connString string, log *slog.Logger) (*Replicas, error) {
	leases, err := OpenLeases(ctx, connString, LeasesConfig{Log: log})
	if err != nil {
		return nil, fmt.Errorf("connecting for the syncs' leases: %w", err)
	}
	broadcaster, err := OpenBroadcaster(ctx, connString, BroadcasterConfig{Log: log})
	if err != nil {
		leases.Close()
		return nil, fmt.Errorf("connecting for the announcements between replicas: %w", err)
	}
	return &Replicas{leases: leases, broadcaster: broadcaster}, nil
}

// Acquire takes the lease named key, as Leases.Acquire does.
func (r *Replicas) Acquire(ctx context.Context, key string) (Lease, bool, error) {
	return r.leases.Acquire(ctx, key)
}

// ReplicasUp counts the replicas up, as Leases.ReplicasUp does.
func (r *Replicas) ReplicasUp(ctx context.Context) (int, error) {
	return r.leases.ReplicasUp(ctx)
}

// Publish announces to every replica, as Broadcaster.Publish does.
func (r *Replicas) Publish(ctx context.Context, channel, payload string) error {
	return r.broadcaster.Publish(ctx, channel, payload)
}

// Subscribe receives the announcements of a channel, as
// Broadcaster.Subscribe does.
func (r *Replicas) Subscribe(channel string) (<-chan string, func()) {
	return r.broadcaster.Subscribe(channel)
}

// Close releases the leases and stops listening.
func (r *Replicas) Close() {
	r.broadcaster.Close()
	r.leases.Close()
}
