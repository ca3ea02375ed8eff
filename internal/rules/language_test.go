package rules

import (
	"strings"
	"testing"
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
