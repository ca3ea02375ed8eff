package sim

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"testing"
)

// metadataWire is the metadata resource as a client decodes it.
type metadataWire struct {
	TotalCount  int        `json:"total_count"`
	Next        *string    `json:"next"`
	Prev        *string    `json:"prev"`
	AccountName string     `json:"account_name"`
	AccountID   string     `json:"account_id"`
	Metadata    []roomWire `json:"metadata"`
}

type roomWire struct {
	BuildingID      string `json:"building_id"`
	BuildingName    string `json:"building_name"`
	FloorID         string `json:"floor_id"`
	FloorName       string `json:"floor_name"`
	RoomID          string `json:"room_id"`
	RoomName        string `json:"room_name"`
	DeviceLocations []struct {
		LocationID   string `json:"location_id"`
		LocationName string `json:"location_name"`
		Type         string `json:"type"`
	} `json:"device_locations"`
}

func getMetadata(t *testing.T, h http.Handler, path, key, auth string) metadataWire {
	t.Helper()
	return decodeJSON[metadataWire](t, getOK(t, h, path, key, auth))
}

func roomIDs(m metadataWire) []string {
	ids := make([]string, len(m.Metadata))
	for i, r := range m.Metadata {
		ids[i] = r.RoomID
	}
	return ids
}

// roomsWhere returns the identifiers of the account's rooms that keep
// accepts, in metadata order.
func roomsWhere(a *Account, keep func(*Room) bool) []string {
	var ids []string
	for _, r := range a.Rooms {
		if keep(r) {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

func TestMetadataLimitOffset(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	all := roomsWhere(a, func(*Room) bool { return true })
	n := len(all)
	if n <= 20 || n > 100 {
		t.Fatalf("the account has %d rooms; the cases assume 21 to 100", n)
	}
	building := a.Buildings[0]
	inBuilding := roomsWhere(a, func(r *Room) bool { return r.Floor.Building == building })
	cases := []struct {
		query          string
		want           []string
		total          int
		hasNext, hasPr bool
	}{
		{"", all, n, false, false},
		{"limit=10", all[:10], n, true, false},
		{"limit=10&offset=10", all[10:20], n, true, true},
		{"offset=5", all[5:], n, false, true},
		{"limit=1000", all, n, false, false},
		{"offset=" + strconv.Itoa(n-3), all[n-3:], n, false, true},
		{"offset=" + strconv.Itoa(n), nil, n, false, true},
		{"limit=3&building_id=" + building.ID, inBuilding[:3], len(inBuilding), true, false},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			m := getMetadata(t, h, "/metadata?"+c.query, apiKeyA, apiAuthA)
			if m.TotalCount != c.total {
				t.Errorf("total_count %d, want %d", m.TotalCount, c.total)
			}
			if got := roomIDs(m); !slices.Equal(got, c.want) {
				t.Errorf("%d rooms %v, want %d %v", len(got), firstFewOf(got), len(c.want), firstFewOf(c.want))
			}
			if m.Metadata == nil {
				t.Error("metadata is null, want an array")
			}
			if (m.Next != nil) != c.hasNext || (m.Prev != nil) != c.hasPr {
				t.Errorf("next %v prev %v, want present: %v, %v", m.Next, m.Prev, c.hasNext, c.hasPr)
			}
		})
	}
}

func TestMetadataAccount(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	for i, creds := range [][2]string{{apiKeyA, apiAuthA}, {apiKeyB, apiAuthB}} {
		a := w.Accounts()[i]
		m := getMetadata(t, h, "/metadata?limit=1", creds[0], creds[1])
		if m.AccountID != a.ID || m.AccountName != a.Name || m.AccountID == "" || m.AccountName == "" {
			t.Errorf("account %d: account_id %q account_name %q, want %q %q", i, m.AccountID, m.AccountName, a.ID, a.Name)
		}
		if m.TotalCount != len(a.Rooms) {
			t.Errorf("account %d: total_count %d, want %d rooms", i, m.TotalCount, len(a.Rooms))
		}
	}
}

// metadataFetcher requests a metadata page by the URL a previous page gave
// (or, for the first page, by path and query).
type metadataFetcher func(t *testing.T, link string) metadataWire

func TestMetadataFollowLinks(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	srv := httptest.NewServer(h)
	defer srv.Close()

	// viaHandler requests the path and query of a link on the same handler.
	viaHandler := func(t *testing.T, link string) metadataWire {
		t.Helper()
		u, err := url.Parse(link)
		if err != nil {
			t.Fatalf("link %q: %v", link, err)
		}
		if u.Path != "/metadata" {
			t.Fatalf("link %q does not lead to /metadata", link)
		}
		return getMetadata(t, h, u.RequestURI(), apiKeyA, apiAuthA)
	}
	// viaServer requests a link as it is from a real server, with the
	// server's address for the first page.
	viaServer := func(t *testing.T, link string) metadataWire {
		t.Helper()
		u, err := url.Parse(link)
		if err != nil {
			t.Fatalf("link %q: %v", link, err)
		}
		if !u.IsAbs() {
			link = srv.URL + link
		}
		req, err := http.NewRequest(http.MethodGet, link, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("x-api-key", apiKeyA)
		req.Header.Set("Authorization", apiAuthA)
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", link, err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: status %d, error %v", link, res.StatusCode, err)
		}
		return decodeJSON[metadataWire](t, body)
	}

	all := func(*Room) bool { return true }
	sanitizers := func(r *Room) bool {
		return slices.ContainsFunc(r.Locations, func(l *Location) bool { return l.Type == Sanitizer })
	}
	cases := []struct {
		name  string
		first string
		fetch metadataFetcher
		want  func(*Room) bool
	}{
		{"limit 1", "/metadata?limit=1", viaHandler, all},
		{"limit 10", "/metadata?limit=10", viaHandler, all},
		{"default limit", "/metadata", viaHandler, all},
		{"limit 7 from a real server", "/metadata?limit=7", viaServer, all},
		{"sanitizers, limit 3", "/metadata?limit=3&device_type=sanitizer", viaHandler, sanitizers},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := roomsWhere(a, c.want)

			pages := []metadataWire{c.fetch(t, c.first)}
			if pages[0].Prev != nil {
				t.Errorf("the first page's prev is %q, want null", *pages[0].Prev)
			}
			for pages[len(pages)-1].Next != nil {
				if len(pages) > 2*len(a.Rooms) {
					t.Fatal("following next does not end")
				}
				pages = append(pages, c.fetch(t, *pages[len(pages)-1].Next))
			}
			var got []string
			for _, p := range pages {
				if p.TotalCount != len(want) {
					t.Errorf("total_count %d, want %d", p.TotalCount, len(want))
				}
				got = append(got, roomIDs(p)...)
			}
			if !slices.Equal(got, want) {
				t.Errorf("following next: %d rooms, want each of %d once in order", len(got), len(want))
			}

			back := []metadataWire{pages[len(pages)-1]}
			for back[len(back)-1].Prev != nil {
				if len(back) > 2*len(a.Rooms) {
					t.Fatal("following prev does not end")
				}
				back = append(back, c.fetch(t, *back[len(back)-1].Prev))
			}
			seen := map[string]int{}
			for _, p := range back {
				for _, id := range roomIDs(p) {
					seen[id]++
				}
			}
			for _, id := range want {
				if seen[id] != 1 {
					t.Errorf("following prev: room %s seen %d times, want once", id, seen[id])
				}
			}
			if len(seen) != len(want) {
				t.Errorf("following prev: %d distinct rooms, want %d", len(seen), len(want))
			}
		})
	}
}

func TestMetadataDeviceType(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	for _, typ := range []DeviceType{Tissue, Towel, Soap, Sanitizer, Collector, "mop"} {
		t.Run(string(typ), func(t *testing.T) {
			m := getMetadata(t, h, "/metadata?limit=1000&device_type="+string(typ), apiKeyA, apiAuthA)
			wantRooms := roomsWhere(a, func(r *Room) bool {
				return slices.ContainsFunc(r.Locations, func(l *Location) bool { return l.Type == typ })
			})
			if typ != "mop" && (len(wantRooms) == 0 || len(wantRooms) == len(a.Rooms)) {
				t.Fatalf("%d of %d rooms hold %s; the test needs some but not all", len(wantRooms), len(a.Rooms), typ)
			}
			if got := roomIDs(m); !slices.Equal(got, wantRooms) {
				t.Errorf("%d rooms, want the %d that hold %s", len(got), len(wantRooms), typ)
			}
			if m.TotalCount != len(wantRooms) {
				t.Errorf("total_count %d, want %d", m.TotalCount, len(wantRooms))
			}
			var got, want []string
			for _, r := range m.Metadata {
				for _, l := range r.DeviceLocations {
					got = append(got, l.LocationID)
					if l.Type != string(typ) {
						t.Errorf("room %s lists location %s of type %q", r.RoomID, l.LocationID, l.Type)
					}
				}
			}
			for _, l := range a.Locations {
				if l.Type == typ {
					want = append(want, strconv.FormatInt(l.ID, 10))
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%d locations listed, want the %d of type %s", len(got), len(want), typ)
			}
		})
	}
}

func TestMetadataFilters(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	l := a.Locations[len(a.Locations)/3]
	room, floor, building := l.Room, l.Room.Floor, l.Room.Floor.Building
	cases := []struct {
		name      string
		kv        []string
		want      func(*Room) bool
		locations func(*Location) bool // the locations listed in each room
	}{
		{"building_id", []string{"building_id", building.ID}, func(r *Room) bool { return r.Floor.Building == building }, nil},
		{"floor_id", []string{"floor_id", floor.ID}, func(r *Room) bool { return r.Floor == floor }, nil},
		{"room_id", []string{"room_id", room.ID}, func(r *Room) bool { return r == room }, nil},
		{"device_location_id", []string{"device_location_id", strconv.FormatInt(l.ID, 10)}, func(r *Room) bool { return r == room },
			func(x *Location) bool { return x == l }},
		{"building and device_type", []string{"building_id", building.ID, "device_type", "soap"},
			func(r *Room) bool {
				return r.Floor.Building == building && slices.ContainsFunc(r.Locations, func(x *Location) bool { return x.Type == Soap })
			},
			func(x *Location) bool { return x.Type == Soap }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := roomsWhere(a, c.want)
			if len(want) == 0 || len(want) == len(a.Rooms) {
				t.Fatalf("%d of %d rooms match; the test needs some but not all", len(want), len(a.Rooms))
			}
			m := getMetadata(t, h, withQuery("/metadata", append(c.kv, "limit", "1000")...), apiKeyA, apiAuthA)
			if got := roomIDs(m); !slices.Equal(got, want) {
				t.Fatalf("rooms %v (%d), want %v (%d)", firstFewOf(got), len(got), firstFewOf(want), len(want))
			}
			if m.TotalCount != len(want) {
				t.Errorf("total_count %d, want %d", m.TotalCount, len(want))
			}
			for _, got := range m.Metadata {
				r := a.rooms[got.RoomID]
				if got.RoomName != r.Name || got.FloorID != r.Floor.ID || got.FloorName != r.Floor.Name ||
					got.BuildingID != r.Floor.Building.ID || got.BuildingName != r.Floor.Building.Name {
					t.Errorf("room %s: %+v does not match the world's layout", got.RoomID, got)
				}
				var gotLocs, wantLocs []string
				for _, x := range got.DeviceLocations {
					gotLocs = append(gotLocs, x.LocationID+" "+x.LocationName+" "+x.Type)
				}
				for _, x := range r.Locations {
					if c.locations == nil || c.locations(x) {
						wantLocs = append(wantLocs, strconv.FormatInt(x.ID, 10)+" "+x.Name+" "+string(x.Type))
					}
				}
				if !slices.Equal(gotLocs, wantLocs) {
					t.Errorf("room %s: locations %v, want %v", got.RoomID, gotLocs, wantLocs)
				}
			}
		})
	}
}

func TestMetadataPrevDoesNotOverlap(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	all := roomsWhere(a, func(*Room) bool { return true })
	cases := []struct{ limit, offset int }{
		{10, 20},
		{10, 5},
		{10, 25},
		{7, 3},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("limit %d offset %d", c.limit, c.offset), func(t *testing.T) {
			// Walk back from the page at offset, as a client that started
			// there and followed next would.
			page := getMetadata(t, h, fmt.Sprintf("/metadata?limit=%d&offset=%d", c.limit, c.offset), apiKeyA, apiAuthA)
			got := roomIDs(page)
			for page.Prev != nil {
				u, err := url.Parse(*page.Prev)
				if err != nil {
					t.Fatal(err)
				}
				page = getMetadata(t, h, u.RequestURI(), apiKeyA, apiAuthA)
				got = append(roomIDs(page), got...)
				if len(got) > 2*len(all) {
					t.Fatal("following prev does not end")
				}
			}
			want := all[:c.offset+c.limit]
			if !slices.Equal(got, want) {
				t.Errorf("walking back from offset %d: %d rooms, want each of the first %d once in order", c.offset, len(got), len(want))
			}
		})
	}
}
