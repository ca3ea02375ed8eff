package upstream

import (
	"errors"
	"fmt"
	"slices"
)

// A walked page says what it holds: its PageInfo, and the identifiers of
// the records read from it, by which a page that repeats the one before
// it is known.
type walkedPage interface {
	pageInfo() *PageInfo
	recordIDs() []string
}

func (p *DevicePage) pageInfo() *PageInfo   { return &p.PageInfo }
func (p *MetadataPage) pageInfo() *PageInfo { return &p.PageInfo }
func (p *AlertPage) pageInfo() *PageInfo    { return &p.PageInfo }

func (p *DevicePage) recordIDs() []string {
	ids := make([]string, len(p.Devices))
	for i, d := range p.Devices {
		ids[i] = d.LocationID
	}
	return ids
}

func (p *MetadataPage) recordIDs() []string {
	ids := make([]string, len(p.Rooms))
	for i, r := range p.Rooms {
		ids[i] = r.RoomID
	}
	return ids
}

func (p *AlertPage) recordIDs() []string {
	ids := make([]string, len(p.Alerts))
	for i, a := range p.Alerts {
		ids[i] = a.ID
	}
	return ids
}

// walkByOffset fetches pages from offset on, each asked for at the offset
// of the last plus the records it held (the service may serve fewer than
// asked for), and calls fn with each page that has any. The walk ends at
// an empty page, or when last says the page was the last. It stops with
// fn's error; with an ErrRepeatedPage error when a page holds the records
// of the page before it (a service that ignores the offset would
// otherwise be walked until the disk fills); and with an ErrPageLimit
// error when Config.MaxPages pages were not enough.
func walkByOffset[P any, PP interface {
	*P
	walkedPage
}](c *Client, op string, offset int, fetch func(offset int) (P, error), last func(page *P, next int) bool, fn func(P) error) error {
	var prev []string
	for n := 1; ; n++ {
		if n > c.maxPages {
			return pageLimit(op, c.maxPages)
		}
		page, err := fetch(offset)
		if err != nil {
			return onPage(err, n)
		}
		info := PP(&page).pageInfo()
		if info.received == 0 {
			return nil
		}
		ids := PP(&page).recordIDs()
		if repeats(prev, ids) {
			return repeatedPage(op, n)
		}
		prev = ids
		info.Number = n
		if err := fn(page); err != nil {
			return err
		}
		offset += info.received
		if last != nil && last(&page, offset) {
			return nil
		}
	}
}

// repeats reports whether a page's records are those of the page before.
func repeats(prev, ids []string) bool {
	return len(ids) > 0 && slices.Equal(prev, ids)
}

// onPage names page n of a walk in the error of a page refused for what
// it holds.
func onPage(err error, n int) error {
	var e *Error
	if errors.As(err, &e) && (e.Kind == KindTooLarge || e.Kind == KindUnreadable) {
		e.Message = fmt.Sprintf("page %d: %s", n, e.Message)
	}
	return err
}

func repeatedPage(op string, n int) *Error {
	return &Error{Kind: KindRepeatedPage, Op: op,
		Message: fmt.Sprintf("page %d holds the same records as page %d: the service is not moving on", n, n-1)}
}

func pageLimit(op string, n int) *Error {
	return &Error{Kind: KindPageLimit, Op: op, Message: fmt.Sprintf("more than %d pages", n)}
}
