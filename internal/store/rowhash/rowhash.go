// Package rowhash hashes the content of a cached row, so that a refresh
// writes only the rows whose content changed.
package rowhash

import (
	"fmt"
	"math"
	"time"
)

// Sum hashes a row's values with 64-bit FNV-1a: equal values give an equal
// sum. It takes nil, strings, integers, booleans, float64s, times (to the
// microsecond) and lists of strings, and panics on other types.
func Sum(vals []any) int64 {
	h := offset
	for _, v := range vals {
		switch v := v.(type) {
		case nil:
			h = h.byte(0)
		case string:
			h = h.byte(1).string(v).byte(0)
		case int64:
			h = h.byte(2).uint64(uint64(v))
		case int:
			h = h.byte(2).uint64(uint64(v))
		case bool:
			h = h.byte(3)
			if v {
				h = h.byte(1)
			} else {
				h = h.byte(0)
			}
		case float64:
			h = h.byte(4).uint64(math.Float64bits(v))
		case time.Time:
			h = h.byte(5).uint64(uint64(v.UnixMicro()))
		case []string:
			h = h.byte(6).uint64(uint64(len(v)))
			for _, s := range v {
				h = h.string(s).byte(0)
			}
		default:
			panic(fmt.Sprintf("rowhash: cannot hash %T", v))
		}
	}
	return int64(h)
}

// fnv is a 64-bit FNV-1a hash being computed. It gives the sums of
// hash/fnv's New64a without allocating.
type fnv uint64

const (
	offset fnv = 14695981039346656037
	prime  fnv = 1099511628211
)

func (h fnv) byte(b byte) fnv { return (h ^ fnv(b)) * prime }

func (h fnv) string(s string) fnv {
	for i := 0; i < len(s); i++ {
		h = h.byte(s[i])
	}
	return h
}

// uint64 hashes v's bytes in little-endian order.
func (h fnv) uint64(v uint64) fnv {
	for i := 0; i < 8; i++ {
		h = h.byte(byte(v >> (8 * i)))
	}
	return h
}
