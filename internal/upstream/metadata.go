package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
)

// Room is one entry of GET /metadata: a room, where it is, and its device
// locations.
type Room struct {
	BuildingID   string
	BuildingName string
	FloorID      string
	FloorName    string
	RoomID       string
	RoomName     string
	Locations    []Location // device_locations

	// Extra holds the members the client does not know, as sent.
	Extra map[string]json.RawMessage
}

// Location is a device location as metadata lists it.
type Location struct {
	ID   string // location_id, the device_location_id of the other endpoints
	Name string
	Type string // the device type as sent; see the Device constants

	// Extra holds the members the client does not know, as sent.
	Extra map[string]json.RawMessage
}

// MetadataQuery is the query of GET /metadata. Zero fields are not sent.
type MetadataQuery struct {
	BuildingID       string
	FloorID          string
	RoomID           string
	DeviceLocationID string // an integer, as the service sends it
	DeviceType       string // e.g. DeviceTissue
	Limit            int    // rooms per page; the service's default is 100 and it may serve fewer
	Offset           int    // rooms skipped
}

// Values returns the query parameters of q.
func (q MetadataQuery) Values() url.Values {
	v := url.Values{}
	for _, p := range [][2]string{
		{"building_id", q.BuildingID}, {"floor_id", q.FloorID}, {"room_id", q.RoomID},
		{"device_location_id", q.DeviceLocationID}, {"device_type", q.DeviceType},
	} {
		if p[1] != "" {
			v.Set(p[0], p[1])
		}
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	if q.Offset > 0 {
		v.Set("offset", strconv.Itoa(q.Offset))
	}
	return v
}

// MetadataPage is one page of GET /metadata.
type MetadataPage struct {
	PageInfo
	Offset      int  // the offset the page was asked for; -1 when fetched by URL
	TotalCount  int  // rooms in all pages
	HasTotal    bool // whether the service sent total_count
	Next        string
	Prev        string
	AccountName string
	AccountID   string
	Rooms       []Room

	// Extra holds the envelope's members the client does not know.
	Extra map[string]json.RawMessage
}

// Metadata fetches one page of metadata.
func (c *Client) Metadata(ctx context.Context, cred Credentials, q MetadataQuery) (MetadataPage, error) {
	page, err := c.metadataAt(ctx, cred, c.endpoint("metadata", q.Values()))
	if err != nil {
		return MetadataPage{}, err
	}
	page.Offset = q.Offset
	return page, nil
}

// MetadataAt fetches the metadata page at link, a next or prev URL of an
// earlier page. A link to another scheme or host than the base URL's is
// refused with an ErrForeignHost error and no request is sent, so that
// credentials never leave for another host.
func (c *Client) MetadataAt(ctx context.Context, cred Credentials, link string) (MetadataPage, error) {
	u, e := c.sameHost(link)
	if e != nil {
		e.Op = "GET /metadata"
		e.redact(cred)
		return MetadataPage{}, e
	}
	page, err := c.metadataAt(ctx, cred, u)
	if err != nil {
		return MetadataPage{}, err
	}
	page.Offset = -1
	return page, nil
}

func (c *Client) metadataAt(ctx context.Context, cred Credentials, u *url.URL) (MetadataPage, error) {
	var page MetadataPage
	err := c.get(ctx, cred, u, func(body []byte) (err error) {
		page, err = decodeMetadataPage(body, c.maxRecords)
		return err
	})
	if err != nil {
		return MetadataPage{}, err
	}
	page.Number = 1
	return page, nil
}

// WalkMetadata fetches the rooms of q page by page from q.Offset, and calls
// fn with each page that has any. Each page is asked for at the offset of
// the last plus the rooms it held, since the service may serve fewer than
// q.Limit; the walk ends at an empty page or once total_count rooms have
// been passed. It stops with fn's error if fn returns one; with an
// ErrRepeatedPage error when a page holds the same rooms as the page
// before it; and with an ErrPageLimit error when Config.MaxPages pages were
// not enough.
func (c *Client) WalkMetadata(ctx context.Context, cred Credentials, q MetadataQuery, fn func(MetadataPage) error) error {
	return walkByOffset(c, "GET /metadata", q.Offset, func(offset int) (MetadataPage, error) {
		q.Offset = offset
		return c.Metadata(ctx, cred, q)
	}, func(p *MetadataPage, next int) bool {
		return p.HasTotal && next >= p.TotalCount
	}, fn)
}

// WalkMetadataByNext fetches the first page of q and then follows each
// page's next URL (see MetadataAt) until a page has none or no rooms,
// calling fn with each page that has rooms. It stops with fn's error if fn
// returns one; with an ErrForeignHost error for a next URL to another
// host; with an ErrCursorLoop error for a next URL already followed, or
// one whose offset does not move past the page it follows; with an
// ErrRepeatedPage error when a page holds the same rooms as the page
// before it; and with an ErrPageLimit error when Config.MaxPages pages were
// not enough.
func (c *Client) WalkMetadataByNext(ctx context.Context, cred Credentials, q MetadataQuery, fn func(MetadataPage) error) error {
	const op = "GET /metadata"
	page, err := c.Metadata(ctx, cred, q)
	offset := q.Offset // of the page in hand
	seen := map[string]bool{}
	var prev []string
	for n := 1; ; n++ {
		if err != nil {
			return onPage(err, n)
		}
		if page.received == 0 {
			return nil
		}
		ids := page.recordIDs()
		if repeats(prev, ids) {
			return repeatedPage(op, n)
		}
		prev = ids
		page.Number = n
		if err := fn(page); err != nil {
			return err
		}
		next, backwards := nextOffset(page.Next, offset)
		switch {
		case page.Next == "":
			return nil
		case seen[page.Next]:
			return &Error{Kind: KindCursorLoop, Op: op,
				Message: fmt.Sprintf("page %d sent back a next URL already followed", n)}
		case backwards:
			return &Error{Kind: KindCursorLoop, Op: op,
				Message: fmt.Sprintf("page %d, at offset %d, sent a next URL back to offset %d", n, offset, next)}
		case n >= c.maxPages:
			return pageLimit(op, c.maxPages)
		}
		seen[page.Next] = true
		if next >= 0 {
			offset = next
		}
		page, err = c.MetadataAt(ctx, cred, page.Next)
	}
}

// nextOffset reads the offset a next URL asks for (-1 when it names none
// or cannot be read), and whether it does not move past the page at
// offset.
func nextOffset(link string, offset int) (next int, backwards bool) {
	u, err := url.Parse(link)
	if err != nil {
		return -1, false
	}
	v := u.Query().Get("offset")
	if v == "" {
		return -1, false
	}
	next, err = strconv.Atoi(v)
	if err != nil {
		return -1, false
	}
	return next, next <= offset
}

// decodeMetadataPage reads the metadata resource. It refuses a page of
// more than maxRecords rooms (see readRecords), and one whose rooms all
// fail to be read (see skipLog.noneRead).
func decodeMetadataPage(body []byte, maxRecords int) (MetadataPage, error) {
	var page MetadataPage
	o, err := readObject(body)
	if err != nil {
		return page, err
	}
	records, _ := o.take("metadata")
	elems, err := readRecords(body, records, "metadata", maxRecords)
	if err != nil {
		return page, err
	}
	if v, ok := o.take("total_count"); ok {
		if page.TotalCount, page.HasTotal, err = readInt(v); err != nil {
			return page, fieldError("total_count", err)
		}
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{
		{"next", &page.Next}, {"prev", &page.Prev},
		{"account_name", &page.AccountName}, {"account_id", &page.AccountID},
	} {
		if err := takeString(o, f.name, f.dst); err != nil {
			return MetadataPage{}, err
		}
	}
	page.Extra = o.extra()

	var skips skipLog
	for i, e := range elems {
		r, err := decodeRoom(e)
		if err != nil {
			skips.add("metadata", i, err)
			continue
		}
		page.Rooms = append(page.Rooms, r)
	}
	if err := skips.noneRead(len(elems)); err != nil {
		return MetadataPage{}, err
	}
	page.Skipped, page.SkipReasons, page.received = skips.count, skips.reasons, len(elems)
	return page, nil
}

// decodeRoom reads one metadata entry. It fails when the element is not an
// object, has no room_id, or a known member (or one of its locations) holds
// a value no accepted shape fits.
func decodeRoom(raw json.RawMessage) (Room, error) {
	o, err := readObject(raw)
	if err != nil {
		return Room{}, err
	}
	var r Room
	for _, f := range []struct {
		name string
		dst  *string
	}{
		{"building_id", &r.BuildingID}, {"building_name", &r.BuildingName},
		{"floor_id", &r.FloorID}, {"floor_name", &r.FloorName},
		{"room_id", &r.RoomID}, {"room_name", &r.RoomName},
	} {
		if err := takeString(o, f.name, f.dst); err != nil {
			return Room{}, err
		}
	}
	if r.RoomID == "" {
		return Room{}, errors.New("room_id is missing")
	}
	if v, ok := o.take("device_locations"); ok {
		elems, err := readArray(v, maxList)
		if err != nil {
			return Room{}, fieldError("device_locations", err)
		}
		for i, e := range elems {
			l, err := decodeLocation(e)
			if err != nil {
				return Room{}, fmt.Errorf("device_locations[%d]: %w", i, err)
			}
			r.Locations = append(r.Locations, l)
		}
	}
	r.Extra = o.extra()
	return r, nil
}

func decodeLocation(raw json.RawMessage) (Location, error) {
	o, err := readObject(raw)
	if err != nil {
		return Location{}, err
	}
	var l Location
	for _, f := range []struct {
		name string
		dst  *string
	}{{"location_id", &l.ID}, {"location_name", &l.Name}, {"type", &l.Type}} {
		if err := takeString(o, f.name, f.dst); err != nil {
			return Location{}, err
		}
	}
	if l.ID == "" {
		return Location{}, errors.New("location_id is missing")
	}
	l.Extra = o.extra()
	return l, nil
}
