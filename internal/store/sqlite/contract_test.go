package sqlite

import (
	"testing"

	"washboard/internal/store"
	"washboard/internal/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, _ := openTest(t)
		return s
	})
}

func BenchmarkFirstRefresh(b *testing.B) {
	storetest.BenchFirstRefresh(b, func(b *testing.B) store.Store {
		s, _ := openTest(b)
		return s
	})
}
