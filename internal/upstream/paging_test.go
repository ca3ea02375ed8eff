package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// endlessHandler answers every request with the same full page, whatever
// its offset or cursor: a proxy that drops the query string, or a service
// that does not page.
func endlessHandler(per int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var rooms, devices, alerts []string
		for i := range per {
			rooms = append(rooms, fmt.Sprintf(`{"room_id":"r%d","device_locations":[]}`, i))
			devices = append(devices, fmt.Sprintf(`{"device_location_id":"%d","device_state":[]}`, i))
			alerts = append(alerts, fmt.Sprintf(`{"alert_id":"a%d","alert_status":"OPEN"}`, i))
		}
		switch r.URL.Path {
		case "/metadata": // no total_count, and a next URL that moves on
			fmt.Fprintf(w, `{"account_id":"acc","next":"/metadata?offset=%d&n=%s","metadata":[%s]}`, per, r.URL.Query().Get("offset"), strings.Join(rooms, ","))
		case "/devices":
			fmt.Fprintf(w, `[%s]`, strings.Join(devices, ","))
		case "/alerts": // a new cursor every time
			fmt.Fprintf(w, `{"alerts":[%s],"next":"c%s"}`, strings.Join(alerts, ","), r.URL.Query().Get("next")+"x")
		}
	})
}

func TestWalksStopWhenThePagesDoNotMoveOn(t *testing.T) {
	t.Parallel()
	srv, rec := serve(t, endlessHandler(50))
	c, _ := newClient(t, srv.URL, nil)
	ctx := context.Background()
	walks := map[string]func(fn func()) error{
		"devices by offset": func(fn func()) error {
			return c.WalkDevices(ctx, cred1, DeviceQuery{Limit: 50}, func(DevicePage) error { fn(); return nil })
		},
		"metadata by offset": func(fn func()) error {
			return c.WalkMetadata(ctx, cred1, MetadataQuery{Limit: 50}, func(MetadataPage) error { fn(); return nil })
		},
		"metadata by next URL": func(fn func()) error {
			return c.WalkMetadataByNext(ctx, cred1, MetadataQuery{Limit: 50}, func(MetadataPage) error { fn(); return nil })
		},
		"alerts by cursor": func(fn func()) error {
			return c.WalkAlerts(ctx, cred1, AlertQuery{PageSize: 50}, func(AlertPage) error { fn(); return nil })
		},
	}
	for name, walk := range walks {
		t.Run(name, func(t *testing.T) {
			before := rec.count()
			pages := 0
			err := walk(func() { pages++ })
			if !errors.Is(err, ErrRepeatedPage) || !errors.Is(err, ErrEndlessPaging) {
				t.Fatalf("walk = %v, want a repeated page", err)
			}
			if !strings.Contains(err.Error(), "page 2 holds the same records as page 1") {
				t.Errorf("the error does not say what happened: %v", err)
			}
			if pages != 1 || rec.count()-before != 2 {
				t.Errorf("%d pages handed on and %d requests sent; want 1 and 2", pages, rec.count()-before)
			}
		})
	}
}

func TestNextURLsThatPointBackStopTheWalk(t *testing.T) {
	t.Parallel()
	srv, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("offset") {
		case "":
			fmt.Fprint(w, `{"next":"/metadata?offset=2","metadata":[{"room_id":"r0"},{"room_id":"r1"}]}`)
		case "2":
			fmt.Fprint(w, `{"next":"/metadata?offset=1","metadata":[{"room_id":"r2"},{"room_id":"r3"}]}`)
		default:
			fmt.Fprint(w, `{"next":null,"metadata":[{"room_id":"r1"}]}`)
		}
	}))
	c, _ := newClient(t, srv.URL, nil)
	rooms := 0
	err := c.WalkMetadataByNext(context.Background(), cred1, MetadataQuery{}, func(p MetadataPage) error {
		rooms += len(p.Rooms)
		return nil
	})
	if !errors.Is(err, ErrCursorLoop) || !errors.Is(err, ErrEndlessPaging) || !strings.Contains(err.Error(), "back to offset 1") {
		t.Fatalf("walk = %v, want a next URL back to offset 1", err)
	}
	if rooms != 4 || rec.count() != 2 {
		t.Errorf("%d rooms from %d requests, want 4 from 2", rooms, rec.count())
	}
}

func TestAWalkNeverFetchesMoreThanItsPageLimit(t *testing.T) {
	t.Parallel()
	n := 0
	srv, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++ // a fresh page every time, that never ends
		fmt.Fprintf(w, `[{"device_location_id":"%d","device_state":[]}]`, n)
	}))
	c, _ := newClient(t, srv.URL, func(cfg *Config) { cfg.MaxPages = 25 })
	err := c.WalkDevices(context.Background(), cred1, DeviceQuery{}, func(DevicePage) error { return nil })
	if !errors.Is(err, ErrPageLimit) || !errors.Is(err, ErrEndlessPaging) {
		t.Fatalf("walk = %v, want the page limit", err)
	}
	if rec.count() != 25 {
		t.Errorf("%d requests, want 25", rec.count())
	}
}
