package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// txn is the transaction of a refresh, which copies rows into a table in
// the background while the refresh prepares the next ones: one COPY at a
// time, and whatever else uses the transaction first waits for it, and
// fails with it.
type txn struct {
	tx      pgx.Tx
	copying chan error // the COPY under way; nil when none is
}

func beginTxn(ctx context.Context, begin func(context.Context) (pgx.Tx, error)) (*txn, error) {
	tx, err := begin(ctx)
	if err != nil {
		return nil, err
	}
	return &txn{tx: tx}, nil
}

// copyInBackground starts copying rows into a table once the COPY under way
// has ended, and returns: the rows are the COPY's until it ends. The COPY
// runs to its end even if ctx is cancelled meanwhile, which the next use
// of the transaction sees; it is a few thousand rows at most.
func (t *txn) copyInBackground(ctx context.Context, table string, cols []string, rows [][]any) error {
	if err := t.wait(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	done := make(chan error, 1)
	t.copying = done
	ctx = context.WithoutCancel(ctx)
	go func() {
		_, err := t.tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows))
		if err != nil {
			err = fmt.Errorf("writing %d rows of %s: %w", len(rows), table, err)
		}
		done <- err
	}()
	return nil
}

// wait waits for the COPY under way, if any, and returns its error.
func (t *txn) wait() error {
	if t.copying == nil {
		return nil
	}
	err := <-t.copying
	t.copying = nil
	return err
}

func (t *txn) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if err := t.wait(); err != nil {
		return pgconn.CommandTag{}, err
	}
	return t.tx.Exec(ctx, sql, args...)
}

func (t *txn) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if err := t.wait(); err != nil {
		return nil, err
	}
	return t.tx.Query(ctx, sql, args...)
}

func (t *txn) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if err := t.wait(); err != nil {
		return errRow{err}
	}
	return t.tx.QueryRow(ctx, sql, args...)
}

func (t *txn) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	if err := t.wait(); err != nil {
		return 0, err
	}
	return t.tx.CopyFrom(ctx, table, cols, src)
}

// SendBatch sends a batch of statements and reads their results.
func (t *txn) SendBatch(ctx context.Context, b *pgx.Batch) error {
	if err := t.wait(); err != nil {
		return err
	}
	return t.tx.SendBatch(ctx, b).Close()
}

// Commit commits once the COPY under way has ended well.
func (t *txn) Commit(ctx context.Context) error {
	if err := t.wait(); err != nil {
		t.tx.Rollback(ctx)
		return err
	}
	return t.tx.Commit(ctx)
}

// Rollback rolls back once the COPY under way has ended, however it ended.
func (t *txn) Rollback(ctx context.Context) error {
	t.wait()
	return t.tx.Rollback(ctx)
}

// rollback ends a refresh's transaction if it is still open. It does not
// wait on a context the caller may have cancelled: the connection goes
// back to the pool either way.
func rollback(tx *txn) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tx.Rollback(ctx)
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
