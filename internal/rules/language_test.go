package rules

import (
	"errors"
	"strings"
	"testing"

	"washboard/internal/i18n"
)

// A channel of the file may say the language of its messages; one
// Washboard does not speak stops the start, naming it and the languages.
func TestParseFileReadsAChannelsLanguage(t *testing.T) {
	t.Parallel()
	file := func(lang string) []byte {
		return []byte(`{"accounts": [{"account_id": "acme", "channels": [{"name": "Empfang", "language": "` + lang +
			`", "email": {"to": ["empfang@example.com"]}}], "rules": []}]}`)
	}
	f, err := ParseFile(file("de"))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Accounts[0].Channels[0].Language; got != "de" {
		t.Errorf("the channel's language = %q; want de", got)
	}
	_, err = ParseFile(file("xx"))
	if err == nil || !strings.Contains(err.Error(), `"xx" is not a language Washboard speaks; the languages are de, en, es, fr`) {
		t.Errorf("a language Washboard does not speak: %v", err)
	}
}

// A problem a page can show is said in the page's language (MsgIn), the
// file's and the log's words (Msg, Error) staying English.
func TestProblemsSpeakThePagesLanguage(t *testing.T) {
	t.Parallel()
	err := Rule{Name: strings.Repeat("x", 81), When: "alert.opened", Channels: []string{"desk"}}.Validate()
	var re *Error
	if !errors.As(err, &re) {
		t.Fatalf("a name too long: %v", err)
	}
	for lang, want := range map[string]string{
		"en": `"name" is 81 characters long; it may be at most 80`,
		"de": `"name" ist 81 Zeichen lang; erlaubt sind höchstens 80`,
		"fr": "\"name\" fait 81 caractères\u00a0; il peut en avoir au plus 80",
	} {
		if got := re.MsgIn(i18n.For(lang)); got != want {
			t.Errorf("in %s: %q; want %q", lang, got, want)
		}
	}
	if re.Msg != `"name" is 81 characters long; it may be at most 80` {
		t.Errorf("the file's words: %q", re.Msg)
	}
	err = Rule{Name: "Night", When: "alert.opened", Channels: []string{"desk", "desk"}}.Validate()
	if !errors.As(err, &re) || re.MsgIn(i18n.For("es")) != `nombra el canal "desk" dos veces, también como channels[0]` {
		t.Errorf("a channel named twice, in Spanish: %v", err)
	}
}
