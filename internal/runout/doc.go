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
// A projection reads the account's device states, and the history only of
// those whose state's sum differs from the one it read with their history
// last (store.DeviceState): from the fit
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
//
// # How good, how cheap
//
// BenchmarkBacktestThroughSync is internal/forecast's BenchmarkBacktest
// through Washboard itself: the simulator (120 locations in two accounts,
// one alerting at out, one at low) served over HTTP and synced every five
// minutes by internal/syncer into a SQLite cache for 28 days; then for
// seven days this service, started at 06:00, fits daily and projects after
// every round, and its estimates at 06:00, 14:00 and 22:00 are compared
// with the first reading in the cache that shows the dispenser out, up to
// three days on (a refill before it leaves the estimate unscored). Of 918
// run-outs, the estimate was off by 0.48 h on average, against 67.8 h for
// a straight line through the last two levels the cache recorded
// (mae/naive 0.007), and 97.6 % fell inside the stated range; from the
// same world recorded straight from the simulator, internal/forecast's
// backtest has 0.42 h and 98.3 % (WASHBOARD_BACKTEST_LOCATIONS=120). It
// takes about two minutes; WASHBOARD_BACKTEST_LOCATIONS=200 takes about
// three and gives 0.56 h and 96.5 %, against 0.53 h and 97.4 % there.
// What differs is what is recorded: the forecast package's recorder opens
// a gap once a device is an hour silent, while the cache records a
// silence only when the device goes offline.
//
//	go test ./internal/runout -run '^$' -bench BacktestThroughSync -benchtime 1x
//
// BenchmarkRefresh costs the work for one account of 10,000 locations
// (9,765 dispensers) with 28 days of history in the cache: a projection
// after a sync round took 36–40 ms, 6.8–6.9 % of the round's 528–586 ms
// in the same run (two runs of 20 rounds, on a 2-core machine shared with
// other work), within the goal of 10 %. It begins with the account's
// device states (store.DeviceStates: 9.9–11.8 ms, states-ms), which tell,
// by the sum of each device's state, which changed since the last read; a
// read of all its devices (FindDevices, ordered, their faults decoded)
// took 44–103 ms and made it 13–17 %. The fit, once a day, took 2.4–3.3 s:
//
//	go test ./internal/runout -run '^$' -bench Refresh -benchtime 20x
package runout
