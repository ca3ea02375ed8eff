package sim

import (
	"net/url"
	"strconv"
)

type metadataJSON struct {
	TotalCount  int        `json:"total_count"`
	Next        *string    `json:"next"`
	Prev        *string    `json:"prev"`
	AccountName string     `json:"account_name"`
	AccountID   string     `json:"account_id"`
	Metadata    []roomJSON `json:"metadata"`
}

type roomJSON struct {
	BuildingID      string             `json:"building_id"`
	BuildingName    string             `json:"building_name"`
	FloorID         string             `json:"floor_id"`
	FloorName       string             `json:"floor_name"`
	RoomID          string             `json:"room_id"`
	RoomName        string             `json:"room_name"`
	DeviceLocations []locationMetaJSON `json:"device_locations"`
}

type locationMetaJSON struct {
	LocationID   string `json:"location_id"`
	LocationName string `json:"location_name"`
	Type         string `json:"type"`
}

// listMetadata answers GET /metadata: one entry per room, limit and offset
// counting rooms. With device_type or device_location_id, a room lists only
// its matching locations and rooms without any are left out. base is the
// URL of this endpoint, for the next and prev links. The caller holds a.mu.
func (a *Account) listMetadata(p params, base url.URL) (*metadataJSON, *apiError) {
	s, err := a.readScope(p, false)
	if err != nil {
		return nil, err
	}
	limit, offset, err := limitOffset(p)
	if err != nil {
		return nil, err
	}
	typ := p.str("device_type")

	out := &metadataJSON{AccountName: a.Name, AccountID: a.ID, Metadata: []roomJSON{}}
	for _, r := range a.Rooms {
		var locs []locationMetaJSON
		for _, l := range r.Locations {
			if s.holds(l) && (typ == "" || string(l.Type) == typ) {
				locs = append(locs, locationMetaJSON{strconv.FormatInt(l.ID, 10), l.Name, string(l.Type)})
			}
		}
		if len(locs) == 0 {
			continue
		}
		out.TotalCount++
		if out.TotalCount <= offset || len(out.Metadata) == limit {
			continue
		}
		f := r.Floor
		out.Metadata = append(out.Metadata, roomJSON{f.Building.ID, f.Building.Name, f.ID, f.Name, r.ID, r.Name, locs})
	}

	link := func(off, limit int) *string {
		q := url.Values{}
		for k, v := range url.Values(p) {
			if k != "offset" && k != "limit" && len(v) > 0 {
				q.Set(k, v[0])
			}
		}
		q.Set("limit", strconv.Itoa(limit))
		q.Set("offset", strconv.Itoa(off))
		u := base
		u.RawQuery = q.Encode()
		s := u.String()
		return &s
	}
	if offset+len(out.Metadata) < out.TotalCount && len(out.Metadata) > 0 {
		out.Next = link(offset+len(out.Metadata), limit)
	}
	if offset > 0 {
		// The page before: never overlapping this one, even when offset is
		// not a multiple of limit.
		out.Prev = link(max(0, offset-limit), min(limit, offset))
	}
	return out, nil
}
