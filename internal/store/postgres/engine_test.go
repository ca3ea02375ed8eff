package postgres

import "testing"

// TestNumbered: statements written once with ? run on PostgreSQL with
// its $1, $2, ...: in order, or as numbered; a ? in a string, a quoted
// name or a comment is left alone.
func TestNumbered(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`UPDATE t SET a = ?, b = ? WHERE k = ?`, `UPDATE t SET a = $1, b = $2 WHERE k = $3`},
		{`SELECT * FROM unnest(?::text[], ?::int8[])`, `SELECT * FROM unnest($1::text[], $2::int8[])`},
		{`DELETE FROM h WHERE day < ?1 AND n.day < ?1 AND mac = ?2`, `DELETE FROM h WHERE day < $1 AND n.day < $1 AND mac = $2`},
		{`SELECT '?', "a?b", x FROM t WHERE y LIKE ? ESCAPE '\'`, `SELECT '?', "a?b", x FROM t WHERE y LIKE $1 ESCAPE '\'`},
		{"SELECT a -- is it? it's\nFROM t WHERE b = ?", "SELECT a -- is it? it's\nFROM t WHERE b = $1"},
		{`SELECT 'it''s?' WHERE a = ?`, `SELECT 'it''s?' WHERE a = $1`},
	} {
		if got := numbered(c.in); got != c.want {
			t.Errorf("numbered(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
