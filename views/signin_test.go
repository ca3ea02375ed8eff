package views_test

import (
	"strings"
	"testing"

	. "washboard/views"
)

func TestSignInFormNeverHoldsCredentials(t *testing.T) {
	m := SignIn{Page: Page{Title: "Sign in", CSRFToken: "tok-<&>"}, Next: "/alerts?status=open"}
	doc, _ := render(t, SignInPage(m))
	// Two ways to sign in: an API key with an Authorization value, or with
	// a client ID and secret.
	forms := doc.Find(`form[action="/signin"]`)
	if forms.Length() != 2 {
		t.Fatalf("%d sign-in forms, want 2", forms.Length())
	}
	for i, fields := range [][]string{{"api_key", "authorization"}, {"api_key", "client_id", "client_secret"}} {
		form := forms.Eq(i)
		if form.AttrOr("method", "") != "post" {
			t.Fatalf("sign-in form %d method = %q", i, form.AttrOr("method", ""))
		}
		for _, name := range fields {
			in := form.Find(`input[name="` + name + `"]`)
			if in.Length() != 1 {
				t.Fatalf("form %d: no field %q", i, name)
			}
			if name != "client_id" && in.AttrOr("type", "") != "password" || in.AttrOr("autocomplete", "") != "off" {
				t.Errorf("form %d, %s: type %q autocomplete %q", i, name, in.AttrOr("type", ""), in.AttrOr("autocomplete", ""))
			}
			if v, ok := in.Attr("value"); ok && v != "" {
				t.Errorf("form %d: %s is pre-filled with %q", i, name, v)
			}
			if id := in.AttrOr("id", ""); id == "" || form.Find(`label[for="`+id+`"]`).Length() != 1 {
				t.Errorf("form %d: %s has no label", i, name)
			}
		}
		if got := form.Find(`input[type="hidden"][name="csrf_token"]`).AttrOr("value", ""); got != "tok-<&>" {
			t.Errorf("form %d: csrf_token = %q", i, got)
		}
		if got := form.Find(`input[type="hidden"][name="next"]`).AttrOr("value", ""); got != "/alerts?status=open" {
			t.Errorf("form %d: next = %q", i, got)
		}
	}
	if doc.Find(`[role="alert"]`).Length() != 0 {
		t.Error("an error box without an error")
	}
	if doc.Find(`form[action="/signin/demo"]`).Length() != 0 {
		t.Error("demo form without a demo")
	}
	if !strings.Contains(text(doc.Find("main")), "server-side session, encrypted") {
		t.Error("the page does not say where the credentials are kept")
	}
	if doc.Find(`meta[name="csrf-token"]`).Length() != 0 || doc.Find(`form[action="/signout"]`).Length() != 0 {
		t.Error("a signed-out page carries the signed-in header")
	}
}

func TestSignInErrorAndDemo(t *testing.T) {
	m := SignIn{Page: Page{CSRFToken: "tok"}, Error: "The service answered 401 Unauthorized.", Kind: "rejected", Demo: true, Next: "/"}
	doc, _ := render(t, SignInPage(m))
	box := doc.Find(`[role="alert"]`)
	if got := text(box); !strings.Contains(got, "rejected these credentials") || !strings.Contains(got, m.Error) {
		t.Errorf("error box reads %q", got)
	}
	demo := doc.Find(`form[action="/signin/demo"]`)
	if demo.AttrOr("method", "") != "post" || demo.Find(`input[name="csrf_token"]`).AttrOr("value", "") != "tok" ||
		demo.Find(`input[name="next"]`).Length() != 1 {
		t.Error("demo form lacks method, csrf_token or next")
	}
	if got := text(demo.Find("button")); got != "Use the demo account" {
		t.Errorf("demo button reads %q", got)
	}
	for kind, want := range map[string]string{"unreachable": "could not be reached", "limited": "Too many attempts", "invalid": "not filled in"} {
		m.Kind = kind
		doc, _ := render(t, SignInPage(m))
		if got := text(doc.Find(`[role="alert"]`)); !strings.Contains(got, want) {
			t.Errorf("%s error reads %q", kind, got)
		}
	}
}
