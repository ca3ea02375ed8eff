package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
)

// Every format of every kind of notification is the golden file's, byte
// for byte (the JSON indented, so that a person can read the file).
func TestFormatsMatchTheGoldenFiles(t *testing.T) {
	t.Parallel()
	for name, n := range map[string]Notification{"alert": productOut(), "digest": digest(), "test": testNotification()} {
		for _, f := range Formats() {
			body, err := f.Body(n)
			if err != nil {
				t.Fatalf("%s %s: %v", f, name, err)
			}
			golden(t, fmt.Sprintf("%s_%s.json", f, name), indent(t, body))
		}
		content, err := FormatEmail(n)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "email_"+name+".txt", []byte(content.Text))
		golden(t, "email_"+name+".html", []byte(content.HTML))
		msg, err := emailBytes(n)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "email_"+name+".eml", msg)
	}
}

func emailBytes(n Notification) ([]byte, error) {
	m, err := EmailMessage(n, mail.Address{Name: "Washboard", Address: "alerts@washboard.example.com"},
		[]mail.Address{{Address: "facilities@example.com"}, {Name: "Night Shift", Address: "night@example.com"}})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// genericBody mirrors the documented JSON body.
type genericBody struct {
	ID    string          `json:"id"`
	Event string          `json:"event"`
	At    string          `json:"at"`
	Title string          `json:"title"`
	Text  string          `json:"text"`
	Alert json.RawMessage `json:"alert"`
	Where *genericWhere   `json:"where"`
	Since string          `json:"since"`
	Bring *struct {
		Refills     int    `json:"refills"`
		BatterySets int    `json:"battery_sets"`
		Text        string `json:"text"`
	} `json:"bring"`
	Action string        `json:"action"`
	URL    string        `json:"url"`
	Items  []genericBody `json:"items"`
}

type genericWhere struct {
	Building, Floor, Room, Location struct{ ID, Name, Type string }
}

// A receiver of the generic body finds the alert exactly as GET /alerts
// returned it (fields Washboard does not know included), where it is, what
// to bring and do, and the location's page.
func TestGenericBodyCarriesTheAlertAsTheServiceRendersIt(t *testing.T) {
	t.Parallel()
	body, err := FormatJSONBody(productOut())
	if err != nil {
		t.Fatal(err)
	}
	var b genericBody
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	json.Compact(&compact, []byte(alertJSONText))
	if string(b.Alert) != compact.String() {
		t.Errorf("alert = %s\nwant the service's JSON %s", b.Alert, compact.String())
	}
	checks := []struct{ field, got, want string }{
		{"id", b.ID, "ntf_01JDQ7Z3K4M5N6P7Q8R9S0T1V2"},
		{"event", b.Event, "alert.opened"},
		{"at", b.At, "2026-11-22T09:17:30.000Z"},
		{"title", b.Title, "Product out: Stall 2, Men's Restroom 3.12"},
		{"where.building.name", b.Where.Building.Name, "North Tower"},
		{"where.floor.id", b.Where.Floor.ID, "f3"},
		{"where.room.name", b.Where.Room.Name, "Men's Restroom 3.12"},
		{"where.location.id", b.Where.Location.ID, "1042"},
		{"where.location.name", b.Where.Location.Name, "Stall 2"},
		{"where.location.type", b.Where.Location.Type, "tissue"},
		{"since", b.Since, "2026-11-22T09:15:00.123Z"},
		{"bring.text", b.Bring.Text, "2 tissue rolls"},
		{"action", b.Action, domain.AlertConsumableOut.Action()},
		{"url", b.URL, "https://washboard.example.com/locations/1042"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.field, c.got, c.want)
		}
	}
	if b.Bring.Refills != 2 || b.Bring.BatterySets != 0 {
		t.Errorf("bring = %+v, want 2 refills and no battery set", *b.Bring)
	}
	if b.Items != nil {
		t.Errorf("a single notification has items: %v", b.Items)
	}
}

// Without the service's JSON, the alert is written from its fields in the
// shape GET /alerts has.
func TestGenericBodyWritesAnAlertWithoutItsJSONInTheServiceShape(t *testing.T) {
	t.Parallel()
	n := productOut()
	n.Alert.JSON = nil
	n.Alert.Status, n.Alert.Resolved, n.Alert.Resolution = domain.AlertClosed, opened.Add(time.Hour), domain.ResolvedByUser
	body, err := FormatJSONBody(n)
	if err != nil {
		t.Fatal(err)
	}
	var b genericBody
	json.Unmarshal(body, &b)
	want := `{"alert_id":"7f0c","device_location_id":"1042","device_macid":["A1B2C3D4E5F6"],"alert_status":"CLOSED",` +
		`"alert_type":"consumable_out","created_date":"2026-11-22T09:15:00.123Z","resolved_date":"2026-11-22T10:15:00.123Z",` +
		`"resolution_type":"RESOLVED_BY_USER","overdue":false,"refill_count":2}`
	if string(b.Alert) != want {
		t.Errorf("alert = %s\nwant %s", b.Alert, want)
	}
}

// A digest's body lists its items, each with the fields of a single
// notification; a notification about no alert has no "alert" field.
func TestGenericDigestListsItems(t *testing.T) {
	t.Parallel()
	body, err := FormatJSONBody(digest())
	if err != nil {
		t.Fatal(err)
	}
	var b genericBody
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	if b.Event != "digest" || b.Title != "North Tower restrooms: 3 notifications" || len(b.Items) != 3 || b.Alert != nil || b.Where != nil {
		t.Fatalf("digest body = %s", body)
	}
	battery := b.Items[1]
	if battery.Event != "battery.low" || battery.Alert != nil || battery.Bring.Text != "1 battery set" ||
		battery.Action != domain.AlertBatteryOut.Action() || battery.Where.Location.Name != "Sink Left" {
		t.Errorf("battery item = %+v", battery)
	}
	if off := b.Items[2]; off.Action != domain.AlertDeviceOff.Action() || off.Bring != nil {
		t.Errorf("offline item = %+v", off)
	}
}

// slackBody mirrors Slack's documented incoming webhook message.
type slackBody struct {
	Text   string `json:"text"`
	Blocks []struct {
		Type string `json:"type"`
		Text *struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"text"`
		Elements []struct {
			Type string `json:"type"`
			Text struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"text"`
			URL string `json:"url"`
		} `json:"elements"`
	} `json:"blocks"`
}

// In Slack the message previews what and where, its section says since,
// what to bring and what to do, and a button opens the location's page.
func TestSlackMessageHasASectionAndALinkButton(t *testing.T) {
	t.Parallel()
	body, err := FormatSlackBody(productOut())
	if err != nil {
		t.Fatal(err)
	}
	var m slackBody
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if m.Text != "Product out: Stall 2, Men's Restroom 3.12" {
		t.Errorf("text = %q", m.Text)
	}
	if len(m.Blocks) != 2 {
		t.Fatalf("%d blocks, want a section and an actions block: %s", len(m.Blocks), body)
	}
	section, actions := m.Blocks[0], m.Blocks[1]
	if section.Type != "section" || section.Text == nil || section.Text.Type != "mrkdwn" {
		t.Fatalf("first block = %+v, want a mrkdwn section", section)
	}
	for _, want := range []string{"*Product out*", "Stall 2, Men's Restroom 3.12, Level 3, North Tower", "*Since:* 22 Nov 2026 09:15 UTC",
		"*Bring:* 2 tissue rolls", "*What to do:* Replace with a full refill."} {
		if !strings.Contains(section.Text.Text, want) {
			t.Errorf("section %q lacks %q", section.Text.Text, want)
		}
	}
	if actions.Type != "actions" || len(actions.Elements) != 1 {
		t.Fatalf("second block = %+v, want an actions block with one button", actions)
	}
	button := actions.Elements[0]
	if button.Type != "button" || button.Text.Type != "plain_text" || button.Text.Text != "Open" ||
		button.URL != "https://washboard.example.com/locations/1042" {
		t.Errorf("button = %+v", button)
	}
}

// A name with &, < or > shows as written in Slack: mrkdwn would read
// them as markup (a link, a mention) unless escaped.
func TestSlackEscapesNames(t *testing.T) {
	t.Parallel()
	n := productOut()
	n.Where.Location.Name = "Sink <Left> & Right"
	n.Where.Room.Name = "<!channel>"
	body, _ := FormatSlackBody(n)
	var m slackBody
	json.Unmarshal(body, &m)
	if want := "Product out: Sink &lt;Left&gt; &amp; Right, &lt;!channel&gt;"; m.Text != want {
		t.Errorf("text = %q, want %q", m.Text, want)
	}
	if s := m.Blocks[0].Text.Text; strings.ContainsAny(strings.NewReplacer("&amp;", "", "&lt;", "", "&gt;", "").Replace(s), "<>&") {
		t.Errorf("section holds raw markup: %q", s)
	}
}

// A digest in Slack lists 20 items and counts the rest, within Slack's 50
// blocks.
func TestSlackDigestStaysWithinSlackLimits(t *testing.T) {
	t.Parallel()
	items := make([]Item, 45)
	for i := range items {
		items[i] = productOut().Item
	}
	body, _ := FormatSlackBody(NewDigest("d1", decided, "Everything", "https://washboard.example.com/alerts", items))
	var m slackBody
	json.Unmarshal(body, &m)
	if len(m.Blocks) > 50 {
		t.Errorf("%d blocks; Slack takes at most 50", len(m.Blocks))
	}
	if got := m.Blocks[len(m.Blocks)-2].Text.Text; got != "…and 25 more." {
		t.Errorf("the block before the button says %q, want the count of the rest", got)
	}
	for _, b := range m.Blocks {
		if b.Text != nil && len(b.Text.Text) > slackSectionMax {
			t.Errorf("a section of %d characters; Slack takes at most %d", len(b.Text.Text), slackSectionMax)
		}
	}
	if !strings.Contains(m.Blocks[1].Text.Text, "<https://washboard.example.com/locations/1042|Stall 2, Men's Restroom 3.12>") {
		t.Errorf("an item does not link its place: %q", m.Blocks[1].Text.Text)
	}
}

// teamsBody mirrors a Teams Workflows message with an Adaptive Card.
type teamsBody struct {
	Type        string `json:"type"`
	Attachments []struct {
		ContentType string  `json:"contentType"`
		ContentURL  *string `json:"contentUrl"`
		Content     struct {
			Schema  string `json:"$schema"`
			Type    string `json:"type"`
			Version string `json:"version"`
			Body    []struct {
				Type  string `json:"type"`
				Text  string `json:"text"`
				Wrap  bool   `json:"wrap"`
				Facts []struct {
					Title string `json:"title"`
					Value string `json:"value"`
				} `json:"facts"`
			} `json:"body"`
			Actions []struct {
				Type  string `json:"type"`
				Title string `json:"title"`
				URL   string `json:"url"`
			} `json:"actions"`
		} `json:"content"`
	} `json:"attachments"`
}

// In Teams the card shows the headline, where, the facts and an Open
// button to the location's page.
func TestTeamsMessageIsAnAdaptiveCard(t *testing.T) {
	t.Parallel()
	body, err := FormatTeamsBody(productOut())
	if err != nil {
		t.Fatal(err)
	}
	var m teamsBody
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if m.Type != "message" || len(m.Attachments) != 1 {
		t.Fatalf("message = %s", body)
	}
	a := m.Attachments[0]
	card := a.Content
	if a.ContentType != "application/vnd.microsoft.card.adaptive" || card.Schema != "http://adaptivecards.io/schemas/adaptive-card.json" ||
		card.Type != "AdaptiveCard" || card.Version != "1.4" {
		t.Errorf("attachment = %s, %s %s %s", a.ContentType, card.Schema, card.Type, card.Version)
	}
	if len(card.Body) != 3 || card.Body[0].Type != "TextBlock" || card.Body[0].Text != "Product out" ||
		card.Body[1].Text != "Stall 2, Men's Restroom 3.12, Level 3, North Tower" || card.Body[2].Type != "FactSet" {
		t.Fatalf("card body = %+v", card.Body)
	}
	facts := map[string]string{}
	for _, f := range card.Body[2].Facts {
		facts[f.Title] = f.Value
	}
	if facts["Since"] != "22 Nov 2026 09:15 UTC" || facts["Bring"] != "2 tissue rolls" || facts["What to do"] != domain.AlertConsumableOut.Action() ||
		!strings.Contains(facts["Alert"], "7f0c") {
		t.Errorf("facts = %v", facts)
	}
	if len(card.Actions) != 1 || card.Actions[0].Type != "Action.OpenUrl" || card.Actions[0].Title != "Open" ||
		card.Actions[0].URL != "https://washboard.example.com/locations/1042" {
		t.Errorf("actions = %+v", card.Actions)
	}
}

// The e-mail's subject says what and where; an overdue or unclaimed alert
// says so; times are written in the dashboard's zone.
func TestEmailSubjectSaysWhatAndWhere(t *testing.T) {
	t.Parallel()
	n := productOut()
	content, _ := FormatEmail(n)
	if content.Subject != "Product out: Stall 2, Men's Restroom 3.12" {
		t.Errorf("subject = %q", content.Subject)
	}
	n.Kind = AlertOverdue
	n.Alert.Type = domain.AlertJam
	if got := n.Subject(); got != "Jammed, overdue: Stall 2, Men's Restroom 3.12" {
		t.Errorf("overdue subject = %q", got)
	}
	n.Kind = AlertUnclaimed
	if got := n.Subject(); got != "Jammed, unclaimed: Stall 2, Men's Restroom 3.12" {
		t.Errorf("unclaimed subject = %q", got)
	}
	n.Zone = time.FixedZone("CET", 3600)
	content, _ = FormatEmail(n)
	if !strings.Contains(content.Text, "22 Nov 2026 10:15 CET") {
		t.Errorf("the text does not give the time in the dashboard's zone:\n%s", content.Text)
	}
}

// The e-mail is a multipart/alternative of plain text and HTML, with
// From, To, Subject, Date and a Message-ID made from the idempotency key.
func TestEmailMessageHeadersAndParts(t *testing.T) {
	t.Parallel()
	raw, err := emailBytes(productOut())
	if err != nil {
		t.Fatal(err)
	}
	parts := readEmail(t, raw)
	h := parts.header
	checks := []struct{ name, want string }{
		{"Message-Id", "<ntf_01JDQ7Z3K4M5N6P7Q8R9S0T1V2@washboard.example.com>"},
		{"Subject", "Product out: Stall 2, Men's Restroom 3.12"},
		{"From", `"Washboard" <alerts@washboard.example.com>`},
		{"To", `<facilities@example.com>, "Night Shift" <night@example.com>`},
		{"Date", "Sun, 22 Nov 2026 09:17:30 +0000"},
		{"Auto-Submitted", "auto-generated"},
	}
	for _, c := range checks {
		if got := h.Get(c.name); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if !strings.Contains(parts.text, "What to do:  Replace with a full refill.") ||
		!strings.Contains(parts.text, "https://washboard.example.com/locations/1042") {
		t.Errorf("plain text part:\n%s", parts.text)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(parts.html))
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Find("h1").Text(); got != "Product out" {
		t.Errorf("HTML heading %q", got)
	}
	if href, _ := doc.Find("a").First().Attr("href"); href != "https://washboard.example.com/locations/1042" {
		t.Errorf("HTML link %q", href)
	}
	if !strings.Contains(doc.Find("table").Text(), "2 tissue rolls") {
		t.Errorf("the HTML does not say what to bring")
	}
}

// A non-ASCII subject travels encoded and reads back as written.
func TestEmailSubjectWithAccents(t *testing.T) {
	t.Parallel()
	n := productOut()
	n.Where.Room.Name = "Salle d'eau Étage 2"
	raw, _ := emailBytes(n)
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	got, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil || got != "Product out: Stall 2, Salle d'eau Étage 2" {
		t.Errorf("subject reads back as %q (%v)", got, err)
	}
}

// The HTML reads the same with remote content blocked: no image, script,
// style sheet, frame, form or remote reference; styles are inline; every
// link goes to the dashboard; names are escaped.
func TestEmailHTMLHasNoExternalReferences(t *testing.T) {
	t.Parallel()
	for name, n := range map[string]Notification{"alert": productOut(), "digest": digest(), "test": testNotification()} {
		n.Where.Location.Name = `<img src="https://evil.example/x.png"> & "Stall"`
		content, err := FormatEmail(n)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(content.HTML))
		if err != nil {
			t.Fatal(err)
		}
		if s := doc.Find("img, script, link, style, iframe, object, embed, form, video, audio, base"); s.Length() > 0 {
			t.Errorf("%s: the HTML has %d elements that load or run something", name, s.Length())
		}
		doc.Find("*").Each(func(_ int, s *goquery.Selection) {
			for _, attr := range []string{"src", "background", "srcset", "action"} {
				if _, ok := s.Attr(attr); ok {
					t.Errorf("%s: <%s %s>", name, goquery.NodeName(s), attr)
				}
			}
			if style, _ := s.Attr("style"); strings.Contains(style, "url(") || strings.Contains(style, "@import") {
				t.Errorf("%s: a style that loads something: %q", name, style)
			}
			if href, ok := s.Attr("href"); ok && !strings.HasPrefix(href, "https://washboard.example.com/") {
				t.Errorf("%s: a link to %q", name, href)
			}
		})
		if name == "alert" && !strings.Contains(doc.Text(), `<img src="https://evil.example/x.png"> & "Stall"`) {
			t.Errorf("the location's name does not read as written")
		}
	}
}

// The Message-ID is the key at the sender's domain; a key that cannot be
// one is hashed, and the same key always gives the same Message-ID.
func TestMessageIDFromKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ key, from, want string }{
		{"ntf_1", "alerts@example.com", "ntf_1@example.com"},
		{"ntf_1", "", "ntf_1@washboard"},
		{"ntf_1", "alerts@[192.0.2.1]", "ntf_1@washboard"},
	} {
		if got := MessageID(c.key, c.from); got != c.want {
			t.Errorf("MessageID(%q, %q) = %q, want %q", c.key, c.from, got, c.want)
		}
	}
	odd := MessageID("rule 7/alert <7f0c>", "alerts@example.com")
	if odd != MessageID("rule 7/alert <7f0c>", "alerts@example.com") || strings.ContainsAny(odd, " <>") ||
		odd == MessageID("rule 7/alert <7f0d>", "alerts@example.com") {
		t.Errorf("MessageID of a key with spaces and brackets = %q", odd)
	}
	if _, err := mail.ParseAddress("x <" + odd + ">"); err != nil {
		t.Errorf("%q is not an addr-spec: %v", odd, err)
	}
}

// emailParts is a parsed e-mail.
type emailParts struct {
	header     mail.Header
	text, html string
}

// readEmail parses a multipart/alternative e-mail with net/mail and
// mime/multipart, and decodes its parts.
func readEmail(t *testing.T, raw []byte) emailParts {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("not a message: %v", err)
	}
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/alternative" {
		t.Fatalf("Content-Type %q (%v), want multipart/alternative", msg.Header.Get("Content-Type"), err)
	}
	p := emailParts{header: msg.Header}
	r := multipart.NewReader(msg.Body, params["boundary"])
	var types []string
	for {
		part, err := r.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var body io.Reader = part
		if part.Header.Get("Content-Transfer-Encoding") == "quoted-printable" {
			body = quotedprintable.NewReader(part)
		}
		b, err := io.ReadAll(body)
		if err != nil {
			t.Fatal(err)
		}
		ct, ctParams, _ := mime.ParseMediaType(part.Header.Get("Content-Type"))
		if ctParams["charset"] != "UTF-8" && ctParams["charset"] != "utf-8" {
			t.Errorf("part %s has charset %q", ct, ctParams["charset"])
		}
		types = append(types, ct)
		switch ct {
		case "text/plain":
			p.text = string(b)
		case "text/html":
			p.html = string(b)
		}
	}
	if strings.Join(types, ",") != "text/plain,text/html" {
		t.Errorf("parts %v, want text/plain then text/html", types)
	}
	return p
}
