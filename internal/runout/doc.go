// Package runout keeps, for each account Washboard syncs, the estimate of
// when each dispenser will next report a compartment out (internal/forecast),
// from the history the cache keeps of its levels and the account's alerts.
//
// Models are fitted once a day per account, from the last 28 days of
// history and 90 days of consumable_out alerts; estimates are made again
// after each change to the account's cache (Touch), at most once every
// MinInterval per account. Both run on one worker, so that a burst of
// syncs costs one projection, and what it computes is kept in memory:
// every replica computes its own from the shared cache, and reads of it
// cost a map lookup.
//
// A projection reads the account's devices, and the history only of those
// whose state differs from the last reading it read of them: from the fit
// on, it keeps of each dispenser what Forecast reads, its rows since each
// compartment's last refill, the span it has been offline if it is, and
// the refills its alerts list (those resolved since the last projection
// bring new ones). A device whose state changed and changed back between
// two projections shows that only from the next fit.
//
// A dispenser not heard from for more than an hour (its last_seen) is
// projected from what it last sent, its use going on meanwhile. The
// history records a silence only once the device goes offline (after a
// day), so a fit takes a shorter silence as time heard, now as before.
package runout
