package upstream

import (
	"slices"
	"testing"
	"time"
)

func TestReadTime(t *testing.T) {
	t.Parallel()
	want := time.Date(2026, 11, 22, 9, 15, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
		bad  bool
	}{
		{in: `"2026-11-22T09:15:00.000Z"`, want: want},
		{in: `"2026-11-22T09:15:00Z"`, want: want},
		{in: `"2026-11-22T09:15:00.123456Z"`, want: want.Add(123456 * time.Microsecond)},
		{in: `"2026-11-22T10:15:00+01:00"`, want: want},
		{in: `"2026-11-22T10:15:00.000+0100"`, want: want},
		{in: `"2026-11-22T04:15:00-05"`, want: want},
		{in: `"2026-11-22T09:15:00"`, want: want},
		{in: `"2026-11-22 09:15:00Z"`, want: want},
		{in: `"2026-11-22T09:15Z"`, want: want},
		{in: `"2026-11-22"`, want: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)},
		{in: `1795338900000`, want: want},
		{in: `1795338900000.0`, want: want},
		{in: `"1795338900000"`, want: want},
		{in: `1795338900`, want: want}, // seconds
		{in: `["2026-11-22T09:15:00Z"]`, want: want},
		{in: `null`},
		{in: `""`},
		{in: `"  "`},
		{in: `0`},
		{in: `[]`},
		{in: `"yesterday"`, bad: true},
		{in: `"2026-13-40T09:15:00Z"`, bad: true},
		{in: `true`, bad: true},
		{in: `{}`, bad: true},
		{in: `1e300`, bad: true},
		{in: `"NaN"`, bad: true},
		{in: `["a","b"]`, bad: true},
		{in: ``, bad: true},
	}
	for _, tt := range tests {
		got, err := readTime(raw(tt.in))
		if (err != nil) != tt.bad || !got.Equal(tt.want) || (err == nil && got.Location() != time.UTC) {
			t.Errorf("readTime(%s) = %v, %v; want %v (error: %v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestReadInt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		want  int
		known bool
		bad   bool
	}{
		{in: `59`, want: 59, known: true},
		{in: `"59"`, want: 59, known: true},
		{in: `" 59 "`, want: 59, known: true},
		{in: `["59"]`, want: 59, known: true},
		{in: `[59]`, want: 59, known: true},
		{in: `59.6`, want: 60, known: true},
		{in: `"0"`, want: 0, known: true},
		{in: `null`},
		{in: `""`},
		{in: `[]`},
		{in: `[null]`},
		{in: `"full"`, bad: true},
		{in: `[1,2]`, bad: true},
		{in: `[[1]]`, bad: true},
		{in: `true`, bad: true},
		{in: `{"v":1}`, bad: true},
		{in: `"Infinity"`, bad: true},
		{in: `1e20`, bad: true},
	}
	for _, tt := range tests {
		got, known, err := readInt(raw(tt.in))
		if (err != nil) != tt.bad || got != tt.want || known != tt.known {
			t.Errorf("readInt(%s) = %d, %v, %v; want %d, %v (error: %v)", tt.in, got, known, err, tt.want, tt.known, tt.bad)
		}
	}
}

func TestReadBools(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []bool
		bad  bool
	}{
		{in: `[false]`, want: []bool{false}},
		{in: `[true,false]`, want: []bool{true, false}},
		{in: `true`, want: []bool{true}},
		{in: `"TRUE"`, want: []bool{true}},
		{in: `["false", 1, 0, null]`, want: []bool{false, true, false, false}},
		{in: `[]`, want: []bool{}},
		{in: `null`},
		{in: `2`, bad: true},
		{in: `["maybe"]`, bad: true},
		{in: `[[true]]`, bad: true},
		{in: `{}`, bad: true},
	}
	for _, tt := range tests {
		got, err := readBools(raw(tt.in))
		if (err != nil) != tt.bad || !slices.Equal(got, tt.want) || (tt.want != nil) != (got != nil) {
			t.Errorf("readBools(%s) = %v, %v; want %v (error: %v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestReadInts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []int
		bad  bool
	}{
		{in: `[77,63,75,69]`, want: []int{77, 63, 75, 69}},
		{in: `["77","63"]`, want: []int{77, 63}},
		{in: `[77,"63",75.4]`, want: []int{77, 63, 75}},
		{in: `[]`, want: []int{}},
		{in: `"40"`, want: []int{40}},
		{in: `40`, want: []int{40}},
		{in: `null`},
		{in: `""`},
		{in: `[null]`, bad: true},
		{in: `["x"]`, bad: true},
		{in: `[[1]]`, bad: true},
		{in: `{}`, bad: true},
	}
	for _, tt := range tests {
		got, err := readInts(raw(tt.in))
		if (err != nil) != tt.bad || !slices.Equal(got, tt.want) || (tt.want != nil) != (got != nil) {
			t.Errorf("readInts(%s) = %v, %v; want %v (error: %v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestReadStrings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
		bad  bool
	}{
		{in: `["CCAEC73590CF"]`, want: []string{"CCAEC73590CF"}},
		{in: `"CCAEC73590CF"`, want: []string{"CCAEC73590CF"}},
		{in: `["A","B"]`, want: []string{"A", "B"}},
		{in: `["A",""]`, want: []string{"A"}},
		{in: `[123]`, want: []string{"123"}},
		{in: `null`},
		{in: `""`},
		{in: `[]`},
		{in: `[["A"]]`, bad: true},
		{in: `[{}]`, bad: true},
		{in: `true`, bad: true},
	}
	for _, tt := range tests {
		got, err := readStrings(raw(tt.in))
		if (err != nil) != tt.bad || !slices.Equal(got, tt.want) {
			t.Errorf("readStrings(%s) = %q, %v; want %q (error: %v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestReadString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string
		bad  bool
	}{
		{in: `"10000336"`, want: "10000336"},
		{in: `10000336`, want: "10000336"},
		{in: `2.0`, want: "2.0"},
		{in: `" main "`, want: "main"},
		{in: `["main"]`, want: "main"},
		{in: `null`},
		{in: `true`, bad: true},
		{in: `{}`, bad: true},
		{in: `["a","b"]`, bad: true},
	}
	for _, tt := range tests {
		got, err := readString(raw(tt.in))
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("readString(%s) = %q, %v; want %q (error: %v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
}

func TestSkipReasonsAreBounded(t *testing.T) {
	t.Parallel()
	body := `{"alerts":[1,2,3,4,5,6,7,8,{"alert_id":"ok"}]}`
	page, err := decodeAlertPage([]byte(body), DefaultMaxPageRecords)
	if err != nil {
		t.Fatal(err)
	}
	if page.Skipped != 8 || len(page.SkipReasons) != maxSkipReasons || len(page.Alerts) != 1 || page.SkipReasons[0] != "alerts[0]: want an object, got \"1\"" {
		t.Errorf("skipped %d with reasons %q, kept %d", page.Skipped, page.SkipReasons, len(page.Alerts))
	}
}
