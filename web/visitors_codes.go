package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"washboard/views"
	"washboard/web/httpkit"
)

// showFloorCodes shows a floor's sheet of room codes, to print: a code is
// made for each room that has none yet.
func (s *Server) showFloorCodes(c echo.Context) error {
	return s.renderFloorCodes(c, "")
}

// replaceRoomCode gives a room of the floor a new code, from its sheet;
// the old code then says it was replaced.
func (s *Server) replaceRoomCode(c echo.Context) error {
	values, err := httpkit.FormValues(c)
	if err != nil {
		return err
	}
	room := values.Get("room")
	if room == "" {
		return httpkit.BadParam("room", "is missing: say which room's code to replace")
	}
	r, err := s.dash.Visitors().ReplaceCode(c.Request().Context(), sessionOf(c).Account, s.scopeOf(c), room)
	if err != nil {
		return err
	}
	return s.renderFloorCodes(c, r.Name)
}

// renderFloorCodes renders the floor's sheet, saying that the code of the
// room named replaced was just replaced.
func (s *Server) renderFloorCodes(c echo.Context, replaced string) error {
	ctx, id := c.Request().Context(), c.Param("id")
	sheet, err := s.dash.Visitors().FloorSheet(ctx, sessionOf(c).Account, s.scopeOf(c), id)
	if err != nil {
		return err
	}
	b, f := sheet.Building, sheet.Floor
	m := views.FloorCodes{Page: s.page(c, tr(c, "roomcode.title", "floor", f.Name+", "+b.Name), ""), Building: b.Name, Floor: f.Name,
		Action: "/floors/" + f.ID + "/codes", Replaced: replaced}
	m.Page.Still = true
	m.Crumbs = []views.Crumb{{Label: tr(c, "nav.overview"), Href: "/"}, {Label: b.Name, Href: "/buildings/" + b.ID},
		{Label: f.Name, Href: "/floors/" + f.ID}, {Label: tr(c, "roomcode.heading")}}
	for _, code := range sheet.Codes {
		card := views.RoomCodeCard{RoomID: code.Room.ID, Room: code.Room.Name}
		if code.Token != "" {
			card.Link = s.publicURL(c, "/r/"+code.Token)
			if card.QR, err = qrCode(card.Link); err != nil {
				return err
			}
		}
		m.Codes = append(m.Codes, card)
	}
	return render(c, http.StatusOK, views.FloorCodesPage(m))
}
