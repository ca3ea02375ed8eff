package sqlite_test

import (
	"testing"

	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
	"washboard/internal/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, _ := sqlitetest.Open(t)
		return s
	})
}
