package rules

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// secretInInput finds the secret-looking values of a file.
var secretInInput = regexp.MustCompile(`whsec_[A-Za-z0-9+/=]+`)

// ParseFile never panics, and neither its error nor the file it reads,
// printed, shows a secret-looking value of the input.
func FuzzParseFile(f *testing.F) {
	f.Add(exampleFile)
	f.Add(oneAccount(`{"name": "Out of product", "when": "alert.opened", "channels": ["ops", "opz"]}`))
	f.Add(oneAccount(`{"name": "Night", "when": "battery.low", "quiet_hours": {"from": "22:00", "to": "06:00", "during": "drop"}, "channels": ["ops"]}`))
	f.Add(oneAccount(`{"name": "Gone", "when": "device.offline", "after_minutes": 60, "digest_minutes": 30, "channels": ["desk"]}`))
	f.Add(withChannel(`{"name": "c", "webhook": {"url": "https://hooks.example.com/w", "secret": "whsec_c2hvcnQta2V5"}}`))
	f.Add(withChannel(`{"name": "` + testSecret + `", "webhook": {"url": "https://hooks.example.com/w", "format": "teams", "secret": "short"}}`))
	f.Add(withChannel(`{"name": "c", "email": {"to": ["a@example.com", "bob@"]}}`))
	f.Add(`{"accounts": [{"account_id": "acme-eu"}, {"account_id": "acme-eu"}]}`)
	f.Add(`{"accounts": [{"account_id": "` + testSecret + `", "whsec_abc": 1}]}`)
	f.Add(`{"accounts": [{"account_id": "acme-eu",}]}`)
	f.Add("\xef\xbb\xbf{\"accounts\": []}")
	f.Add(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`)
	f.Fuzz(func(t *testing.T, text string) {
		file, err := ParseFile([]byte(text))
		secrets := secretInInput.FindAllString(text, -1)
		if err != nil {
			for _, s := range secrets {
				if strings.Contains(err.Error(), s) {
					t.Fatalf("the error %q shows the secret-looking %q of the input", err, s)
				}
			}
			return
		}
		if err := file.Validate(); err != nil {
			t.Fatalf("ParseFile read a file that Validate refuses: %v", err)
		}
		printed := fmt.Sprintf("%v %+v %#v", file, file, file)
		for _, s := range secrets {
			// A secret may be an id or a name: those are shown as written.
			if strings.Contains(printed, s) && !inNames(file, s) {
				t.Fatalf("the file, printed, shows the secret-looking %q of the input:\n%s", s, printed)
			}
		}
	})
}

// inNames reports whether s is part of an account id, a name, an id or an
// address of the file, which are printed as they are.
func inNames(f File, s string) bool {
	var texts []string
	for _, a := range f.Accounts {
		texts = append(texts, a.AccountID)
		for _, c := range a.Channels {
			texts = append(texts, c.Name)
			if c.Settings != nil {
				texts = append(texts, c.Settings.String())
			}
		}
		for _, r := range a.Rules {
			texts = append(texts, r.Name, r.BuildingID, r.FloorID)
			texts = append(texts, r.Channels...)
		}
	}
	for _, text := range texts {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}
