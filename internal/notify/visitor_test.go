package notify

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
)

// A visitor's report says what and where in the channel's language, in
// the JSON body with the report, in an e-mail's subject; a flood names
// its room once.
func TestVisitorReportsSpeakTheChannelsLanguage(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	n := Notification{ID: "n1", At: at, Item: Item{Kind: VisitorReport, Where: Where{Room: domain.Room{ID: "r1", Name: "Raum 2.14"}}, Since: at,
		Visitor: &Visitor{AlertID: "v-7", Kind: domain.VisitorNoSoap}, URL: "https://washboard.example.com/rooms/r1"}}
	for _, tc := range []struct{ lang, want string }{
		{"en", "Out of soap, reported by a visitor: Raum 2.14"},
		{"de", "Keine Seife, von Besuchern gemeldet: Raum 2.14"},
		{"fr", "Plus de savon, signalé par un visiteur\u00a0: Raum 2.14"},
	} {
		n.Lang = tc.lang
		body, err := FormatJSONBody(n)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Event   string
			Title   string
			Action  string
			Visitor struct{ AlertID, Kind string } `json:"visitor"`
		}
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		if got.Event != "visitor.report" || got.Title != tc.want || got.Visitor.Kind != "soap" || got.Action == "" {
			t.Errorf("in %s: %s", tc.lang, body)
		}
	}
	n.Lang, n.Visitor = "es", &Visitor{AlertID: "v-8", Kind: domain.VisitorFlood}
	if got := wordsIn("es").summary(n.Item); got != "Muchos avisos de Raum 2.14 en un minuto" || strings.Count(got, "Raum") != 1 {
		t.Errorf("a flood in Spanish: %q", got)
	}
}
