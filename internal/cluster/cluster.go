// Package cluster lets several identical replicas of Washboard share one
// PostgreSQL database: leases, so that exactly one replica polls each
// account at a time, and announcements, so that a change written by one
// replica reaches the event streams of every replica.
//
// Each has two implementations with the same methods: Leases and
// Broadcaster over PostgreSQL, for several replicas, and Local, in the
// process, for a single process on SQLite. The caller declares the small
// interfaces it needs and takes either, so that one code path serves both.
//
// # Leases
//
// A lease is a PostgreSQL session-level advisory lock, taken with
// pg_try_advisory_lock on one connection that Leases keeps for itself
// (never a pooled one: a session lock belongs to the connection that took
// it). Session locks rather than a lease table with expiry times, because
// they end with the session that holds them, without a clock to trust:
//
//   - A replica that stops releases its leases (Close).
//   - A replica killed with SIGKILL does not, but the kernel closes its
//     sockets as the process dies; the server reads the end of the
//     connection, ends the session and so releases every lock it held, at
//     once (TestLeaseFreedWhenHolderKilled measures it).
//   - A replica whose host dies or drops off the network sends nothing: the
//     server finds out with TCP keepalives, or by its last answer going
//     unacknowledged. Leases asks the server for keepalives after 30 s of
//     silence, every 10 s, 3 unanswered ones ending the session, and to
//     give up on an answer unacknowledged for 60 s (tcp_user_timeout),
//     unless the connection string sets these itself: the locks are free
//     again about 60 s after the host went silent, within the two sync
//     intervals (2 minutes) a replica may take to take over. Over a Unix
//     socket there are neither, and no host to lose.
//
// The other way round, Leases checks its connection every CheckInterval
// (an empty statement, answered within CheckTimeout). When the check or
// any statement fails, Leases closes the connection, reports every lease
// lost at once (the server has released, or will release, all of them
// with the session) and connects again in the background. Between the moment the server ends the
// session (pg_terminate_backend, a restart) and the next check, another
// replica may already hold a lease this one still takes for its own: the
// holder should stop work on a lease as soon as Lost is closed, and the
// work must stand being done twice now and then (a refresh is one
// transaction, so at worst the account is polled twice).
//
// The lock's key is a 64-bit hash of the lease's name (LockID), not
// hashtext, whose 32 bits collide sooner and which PostgreSQL does not
// promise to keep stable. Which session holds a lease can be read from
// pg_locks (its application_name is "washboard leases"):
//
//	SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1
//	  AND (classid::bigint << 32 | objid::bigint) = <LockID(key)>
//
// # Replicas up
//
// The leases connection also holds, for as long as it lives, an advisory
// lock of two keys: a hash of the schema of the deployment's tables, and
// its backend's pid, unique among the sessions alive. ReplicasUp counts
// these locks: the replicas of the deployment that can hold a lease now.
// A replica killed stops being counted when its session ends, as its
// leases are freed, and one connecting again is counted again: nothing to
// expire, no table to write. The syncer shares the accounts' leases among
// the replicas it counts (internal/syncer, share.go).
//
// A connection pooler in transaction mode between Washboard and the server
// breaks both session locks and LISTEN: Leases and Broadcaster must reach
// PostgreSQL directly or through a pooler in session mode.
//
// # Announcements
//
// An announcement is a payload published on a channel to every replica,
// with PostgreSQL's NOTIFY. A Broadcaster publishes with pg_notify and
// listens on one connection of its own, handing each announcement to the
// local subscribers of its channel. Every subscriber has a bounded buffer and the Broadcaster never
// waits for one: a subscriber that falls behind misses announcements, and
// is told so. The value Gap ("") in place of a payload means "you may have
// missed announcements on this channel: read the state again". A
// subscriber receives it
//
//   - first, once its channel is being listened to: whatever was published
//     before may have been missed;
//   - after the listening connection broke and was made again;
//   - in place of the announcements dropped because its buffer was full.
//
// Gap is the last value in a full buffer, so that a subscriber that reads
// it has read past every announcement it missed.
//
// PostgreSQL delivers an announcement published inside a transaction when
// the transaction commits, and not at all if it rolls back: PublishTx in
// the transaction that writes a change announces it exactly when it
// becomes visible. Publish right after the commit is just as prompt; only
// a process that dies between the two leaves the change unannounced (until
// the next one).
//
// # Tests
//
// The tests of Leases and Broadcaster need a PostgreSQL server: set
// WASHBOARD_TEST_POSTGRES to its URL, for example
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable (eval
// "$(.ci/postgres)" starts one and sets it). Without it they are skipped,
// unless WASHBOARD_POSTGRES_TESTS=required, when they fail.
package cluster

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
)

// Lease is the right to do the work named by a key, held until it is
// released or lost.
//
// It is an alias of an interface literal, not a type of its own, so that
// a caller can declare an interface with the same Acquire method without
// importing this package.
type Lease = interface {
	// Lost returns a channel that is closed when the lease ends: released,
	// or lost with the connection that held it.
	Lost() <-chan struct{}
	// Release gives the lease up. Releasing it again, or after it was lost,
	// does nothing.
	Release()
}

// Gap is the value a subscriber receives in place of a payload when it may
// have missed announcements on its channel. Publish refuses it as a
// payload.
const Gap = ""

// The limits PostgreSQL puts on NOTIFY: a channel is an identifier of at
// most 63 bytes, and a payload must be shorter than 8000 bytes.
const (
	MaxChannel = 63
	MaxPayload = 7999
)

// Sentinel errors, for errors.Is.
var (
	ErrPayloadTooLarge = errors.New("cluster: an announcement's payload must be shorter than 8000 bytes")
	ErrInvalid         = errors.New("cluster: invalid announcement")
	ErrClosed          = errors.New("cluster: closed")
	ErrDisconnected    = errors.New("cluster: not connected to PostgreSQL")
)

// LockID is the advisory lock key of the lease named key: the first 8
// bytes of the SHA-256 of "washboard lease " and the key.
func LockID(key string) int64 {
	h := sha256.Sum256([]byte("washboard lease " + key))
	return int64(binary.BigEndian.Uint64(h[:8]))
}
