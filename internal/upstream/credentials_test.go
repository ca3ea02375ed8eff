package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestCredentialsNeverPrint(t *testing.T) {
	t.Parallel()
	c := Credentials{APIKey: "key-5ecret", Authorization: "Bearer tok-5ecret", ClientID: "id-5ecret", ClientSecret: "sec-5ecret"}
	holder := struct {
		Account string
		Cred    Credentials
		Ptr     *Credentials
	}{"a", c, &c}

	var texts []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.3v"} {
		texts = append(texts,
			fmt.Sprintf(verb, c), fmt.Sprintf(verb, &c), fmt.Sprintf(verb, holder), fmt.Sprintf(verb, []Credentials{c}))
	}
	texts = append(texts, fmt.Sprint(c), fmt.Sprintln(c), c.String(), c.GoString())

	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewTextHandler(&buf, nil), slog.NewJSONHandler(&buf, nil)} {
		slog.New(h).Info("call", "cred", c, "ptr", &c, "holder", holder, slog.Any("any", c), slog.Group("g", "cred", c))
	}
	texts = append(texts, buf.String())
	js, err := json.Marshal(holder)
	if err != nil {
		t.Fatal(err)
	}
	texts = append(texts, string(js))

	for _, text := range texts {
		if strings.Contains(text, "5ecret") || !strings.Contains(text, redacted) {
			t.Errorf("shows a credential or no REDACTED: %s", text)
		}
	}
}

func TestRedactorHidesClientSecretsAndTokens(t *testing.T) {
	t.Parallel()
	c := Credentials{APIKey: "key-5ecret", ClientID: "id 5ecret", ClientSecret: "p@ss 5ecret/+"}
	text := "key key-5ecret, client id 5ecret (id+5ecret), secret p@ss 5ecret/+ (p%40ss+5ecret%2F%2B), Bearer tok-5ecret"
	got := c.Redactor("tok-5ecret").Replace(text)
	if strings.Contains(got, "5ecret") {
		t.Errorf("redacted text %q still shows a secret", got)
	}
	if n := strings.Count(got, redacted); n != 6 {
		t.Errorf("redacted text %q has %d REDACTED, want 6", got, n)
	}
}
