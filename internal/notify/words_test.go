package notify

import (
	"encoding/json"
	"strings"
	"testing"
)

// A notification for a channel in another language says everything a
// person reads in it: the JSON's title, action and bring text (its field
// names and event stay as they are), Slack's and Teams' headlines, facts
// and button, a digest's count; English when it has no language.
func TestFormatsSpeakTheNotificationsLanguage(t *testing.T) {
	t.Parallel()
	de := productOut()
	de.Lang = "de"
	body, err := FormatJSONBody(de)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Event  string `json:"event"`
		Title  string `json:"title"`
		Action string `json:"action"`
		Bring  struct {
			Refills int    `json:"refills"`
			Text    string `json:"text"`
		} `json:"bring"`
	}
	if err := json.Unmarshal(body, &j); err != nil {
		t.Fatal(err)
	}
	if j.Event != "alert.opened" || j.Title != "Produkt leer: Stall 2, Men's Restroom 3.12" || j.Action != "Durch eine volle Nachfüllung ersetzen." ||
		j.Bring.Refills != 2 || j.Bring.Text != "2 Toilettenpapierrollen" {
		t.Errorf("the German JSON: %s", body)
	}

	fr := productOut()
	fr.Lang = "fr"
	slack, err := FormatSlackBody(fr)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\"text\":\"Produit épuisé\u00a0: Stall 2, Men's Restroom 3.12\"", "*Depuis\u00a0:* ", "*À apporter\u00a0:* 2 rouleaux de papier", `"text":"Ouvrir"`} {
		if !strings.Contains(string(slack), want) {
			t.Errorf("the French Slack message lacks %q:\n%s", want, slack)
		}
	}

	es := digest()
	es.Lang = "es"
	teams, err := FormatTeamsBody(es)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"North Tower restrooms: 3 notificaciones", "**Batería baja**", `"title":"Desde"`, `"title":"Llevar"`, "1 juego de baterías", `"title":"Abrir"`} {
		if !strings.Contains(string(teams), want) {
			t.Errorf("the Spanish Teams card lacks %q:\n%s", want, teams)
		}
	}

	if en, _ := FormatSlackBody(productOut()); !strings.Contains(string(en), "*Bring:* 2 tissue rolls") {
		t.Errorf("a notification without a language is not in English:\n%s", en)
	}
}

// An e-mail in German says its subject, facts, button and footer in
// German, and is marked as German.
func TestEmailSpeaksTheNotificationsLanguage(t *testing.T) {
	t.Parallel()
	n := productOut()
	n.Lang = "de"
	c, err := FormatEmail(n)
	if err != nil {
		t.Fatal(err)
	}
	if c.Subject != "Produkt leer: Stall 2, Men's Restroom 3.12" {
		t.Errorf("subject %q", c.Subject)
	}
	for _, want := range []string{"Mitbringen:", "2 Toilettenpapierrollen", "Was zu tun ist:", "Standort öffnen:", "Washboard hat dies gesendet"} {
		if !strings.Contains(c.Text, want) {
			t.Errorf("the German text lacks %q:\n%s", want, c.Text)
		}
	}
	if !strings.Contains(c.HTML, `<html lang="de">`) || !strings.Contains(c.HTML, "Standort öffnen</a>") {
		t.Errorf("the German HTML is not marked German or lacks its button:\n%s", c.HTML)
	}
}
